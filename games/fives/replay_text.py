"""The strings of this game's replay module (``static/games/fives/replay.js``), plain
English: the platform translates them (``games/web/pages.py``). Keep every {placeholder} as it
is: the script fills it in."""

from __future__ import annotations

from games.engine.plugin import gettext_noop

REPLAY_STRINGS: dict[str, str] = {
    "f_hand": gettext_noop("Hand {n}"),
    "f_lead": gettext_noop("{name} leads {tile}"),
    "f_play": gettext_noop("{name} plays {tile} on {target}"),
    "f_points": gettext_noop("+{points}"),
    "f_draw": gettext_noop("{name} draws a tile"),
    "f_pass": gettext_noop("{name} passes"),
    "f_forced_pass": gettext_noop("{name} cannot play: a pass"),
    "f_resign": gettext_noop("{name} resigns"),
    "f_flag": gettext_noop("{name} runs out of time"),
    "f_unknown": gettext_noop("{name}: {type}"),
    "f_hand_over": gettext_noop("End of hand {n}: {what}"),
    "f_end_domino": gettext_noop("{name} played out (domino) and scores {bonus}."),
    "f_end_domino_zero": gettext_noop(
        "{name} played out (domino); the other hands are worth nothing."),
    "f_end_fish": gettext_noop("Fish: {name} holds the fewest pips and scores {bonus}."),
    "f_end_fish_tie": gettext_noop("Fish: the fewest pips are shared, no bonus."),
    "f_end_game_over": gettext_noop("The game ended during this hand."),
    "f_end_running": gettext_noop("Not finished"),
    "f_target": gettext_noop("Game to"),
    "f_cross_on": gettext_noop("Cross"),
    "f_cross_off": gettext_noop("No cross"),
    "f_bazaar": gettext_noop("Bazaar"),
    "f_ends": gettext_noop("Ends"),
    "f_ends_title": gettext_noop("The sum of the counting ends: a multiple of 5 scores."),
    "f_tiles_n": gettext_noop("{n} tiles"),
    "f_tiles_one": gettext_noop("1 tile"),
    "f_pips": gettext_noop("{n} pips"),
    "f_pips_one": gettext_noop("1 pip"),
    "f_no_tiles": gettext_noop("none"),
    "f_revealed": gettext_noop("The tiles left in each hand"),
    "f_hands": gettext_noop("Hands"),
    "f_seats": gettext_noop("Players"),
    "f_bank": gettext_noop("Time left in the bank"),
    "f_result_target": gettext_noop("{name} reached the target score and wins"),
    "f_result_time": gettext_noop("{name} wins: {loser} ran out of time"),
    "f_result_resign": gettext_noop("{name} wins: {loser} resigned"),
    "f_result_other": gettext_noop("{name} wins"),
    "f_result_none": gettext_noop("No winner"),
    # The drawings' screen-reader labels (static/js/board.js), as on the table page.
    "lbl_board": gettext_noop("Board: {n} tiles, ends count {sum}"),
    "lbl_board_one": gettext_noop("Board: {n} tile, ends count {sum}"),
    "lbl_board_empty": gettext_noop("Board: empty"),
    "lbl_tile": gettext_noop("tile {tile}"),
    "lbl_tile_spinner": gettext_noop("{label} (cross)"),
    "lbl_tile_last": gettext_noop("{label} (last played)"),
    "lbl_place": gettext_noop("play on tile {target}, {port} (matches {value})"),
    "lbl_opening": gettext_noop("lead with this tile"),
    "lbl_hand": gettext_noop("Hand: {n} tiles"),
    "lbl_hand_one": gettext_noop("Hand: {n} tile"),
}
