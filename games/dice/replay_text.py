"""The strings of this game's replay module (``static/games/dice/replay.js``), plain
English: the platform translates them (``games/web/pages.py``). Keep every {placeholder} as it
is: the script fills it in."""

from __future__ import annotations

from games.engine.plugin import gettext_noop

REPLAY_STRINGS: dict[str, str] = dict(
    d_round=gettext_noop("Round {n}"),
    d_order=gettext_noop("Order of play"),
    d_order_roll=gettext_noop("{name} rolls {die} for the order of play"),
    d_roll=gettext_noop("{name} rolls {dice}: {combo}, {score}"),
    d_stand=gettext_noop("{name} stands: {score} recorded"),
    d_stand_forced=gettext_noop("{name} ran out of time and stands: {score} recorded"),
    d_improve=gettext_noop("{name} keeps {keep} and rolls {dice}: {score} recorded"),
    d_resign=gettext_noop("{name} resigns"),
    d_unknown=gettext_noop("{name}: {type}"),
    d_keep_nothing=gettext_noop("nothing"),
    d_die=gettext_noop("Die: {value}"),
    d_first=gettext_noop("First roll: {combo}, {score}"),
    d_second=gettext_noop("Re-roll: {score}"),
    d_fell_back=gettext_noop(
        "The re-roll scored no more than the first roll: {score} recorded."),
    d_recorded=gettext_noop("Recorded: {score}"),
    d_combo=gettext_noop("{combo}: {score}"),
    d_table=gettext_noop("The dice"),
    d_sheet=gettext_noop("Score sheet"),
    d_sheet_round=gettext_noop("Round"),
    d_sheet_points=gettext_noop("Points"),
    d_sheet_rounds_won=gettext_noop("Rounds won"),
    d_sheet_tie=gettext_noop("tie"),
    d_sheet_won=gettext_noop("won the round"),
    d_c_pair=gettext_noop("Pair"),
    d_c_two_pairs=gettext_noop("Two pairs"),
    d_c_set=gettext_noop("Three of a kind"),
    d_c_full_house=gettext_noop("Full house"),
    d_c_four=gettext_noop("Four of a kind"),
    d_c_five=gettext_noop("Five of a kind"),
    d_c_small_straight=gettext_noop("Small straight"),
    d_c_large_straight=gettext_noop("Large straight"),
    d_c_nothing=gettext_noop("Nothing"),
    d_result_points=gettext_noop("On points: {name}, {score}"),
    d_result_points_tie=gettext_noop("On points: a tie at {score}"),
    d_result_rounds=gettext_noop("On rounds: {name}, {n} won"),
    d_result_rounds_tie=gettext_noop("On rounds: a tie"),
    d_result_absolute=gettext_noop("Absolute victory: {name} wins on points and on rounds!"),
    d_result_solo=gettext_noop("Total: {score} points"),
    d_result_resigned=gettext_noop("The game ended with a resignation."),
)
