"""A game of Fives rebuilt from one seat's view (``GamePlugin.state_from_view``).

Everything the view shows is read back so that the state's view for that seat is the
view itself; the other hands and the bazaar are placed by the shared fixed rule
(``games/dominoes/from_view.py``). What no view shows and no rule reads is left at its
start: the hand summaries before the last two (only their count is kept), and the
times of the moves.
"""

from __future__ import annotations

from typing import Any

from games.dominoes.from_view import (
    board_of,
    clock_from_view,
    drawn_tile_of,
    ended_position,
    hidden_deal,
    known_hands,
    last_play_seat,
    passes_after_last_play,
    steps_from_moves,
)
from games.dominoes.hands import DEAL
from games.dominoes.hidden import voids
from games.dominoes.tiles import tile_from_name
from games.engine.plugin import GamePlugin
from games.engine.protocol import Result

from . import actions as A
from .rules import parse_rules
from .state import DOMINO, FISH, FivesState, HandSummary, bazaar_size

JSON = dict[str, Any]


def _summary(data: JSON, cross: bool) -> HandSummary:
    final_hands, final_board, final_moves = ended_position(data, cross, A.action_from_dict)
    pips = data.get("pips")
    return HandSummary(leader=int(data["leader"]), end=data.get("end"),
                       winner=data.get("winner"),
                       pips=None if pips is None else tuple(int(p) for p in pips),
                       bonus=data.get("bonus"), final_hands=final_hands,
                       final_board=final_board, final_moves=final_moves)


def _summaries(view: JSON, cross: bool) -> list[HandSummary]:
    found = [HandSummary(leader=0) for _ in range(int(view.get("hands_played", 0)))]
    for data in view.get("hands") or []:
        found[int(data["hand"])] = _summary(data, cross)
    return found


def state_from_view(plugin: GamePlugin, view: JSON) -> FivesState | None:
    """A game whose view for ``view["seat"]`` is ``view``; None for another game's view."""
    if view.get("game") != "fives":
        return None
    seats = int(view["seats"])
    rules = parse_rules(view["rules"], seats)
    game = FivesState(rules, seats)
    game.phase = str(view["phase"])
    game.hand_no = int(view["hand_no"])
    game.scores = [int(s) for s in view["scores"]]
    game.clock = clock_from_view(view["clock"], 0)
    lots = view.get("lots")
    game.lots = None if lots is None else [tile_from_name(name) for name in lots]
    result = view.get("result")
    if result is not None:
        game._result = Result(result["winner"], result["reason"])
        game.ranks = None if result.get("ranks") is None else list(result["ranks"])
    to_act = view.get("to_act")
    game.turn = int(to_act) if to_act is not None else 0
    if game.hand_no < 0:
        return game
    game.board = board_of(view.get("board"), cross=rules.cross)
    game.moves = steps_from_moves(view.get("moves") or [], A.action_from_dict)
    game.hands_summary = _summaries(view, rules.cross)
    last = game.hands_summary[-1] if game.hands_summary else None
    placer = last_play_seat(game.moves, A.is_play)
    game.last_placer = placer if placer is not None else (last.leader if last else 0)
    if last is not None:
        game.next_leader = last.leader
        if game.phase == DEAL and last.end == DOMINO and last.winner is not None:
            game.next_leader = int(last.winner)
        elif game.phase == DEAL and last.end == FISH:
            game.next_leader = game.last_placer
    game.passes_in_row = passes_after_last_play(game.moves, A.PASS, A.is_play)
    game.drawn_tile = drawn_tile_of(view)
    known = known_hands(view, last.final_hands if last is not None else None)
    size = bazaar_size(seats)
    drawn = size - int(view["bazaar_count"])
    game.hand_masks, game.bazaar = hidden_deal(
        known, view["hand_counts"], game.board, size, drawn, voids(plugin, game))
    game.draw_pos = drawn
    return game
