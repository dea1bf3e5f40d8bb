"""A Spectacular Bid state rebuilt from one seat's view (``GamePlugin.state_from_view``).

Everything the view shows is read back so that the state's view for that seat is the
view itself; the opponent's tiles and the boneyard are placed by the shared fixed rule
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
    passes_after_last_play,
    steps_from_moves,
    us,
)
from games.dominoes.hands import DEAL, PLAY
from games.dominoes.hidden import voids
from games.engine.plugin import GamePlugin
from games.engine.protocol import Result

from . import actions as A
from .rules import Rules
from .state import AUCTION, BONEYARD_SIZE, CONTINUE, DOMINO, Auction, HandSummary, Match

JSON = dict[str, Any]


def _summary(data: JSON) -> HandSummary:
    final_hands, final_board, final_moves = ended_position(data, True, A.action_from_dict)
    sums = data.get("sums")
    return HandSummary(jockey=data.get("jockey"), end=data.get("end"),
                       sums=None if sums is None else (int(sums[0]), int(sums[1])),
                       settlement=data.get("settlement"), final_hands=final_hands,
                       opener=data.get("opener"), final_board=final_board,
                       final_moves=final_moves, winner=data.get("winner"))


def _summaries(view: JSON) -> list[HandSummary]:
    found = [HandSummary(jockey=None) for _ in range(int(view.get("hands_played", 0)))]
    for data in view.get("hands") or []:
        found[int(data["hand"])] = _summary(data)
    return found


def state_from_view(plugin: GamePlugin, view: JSON) -> Match | None:
    """A match whose view for ``view["seat"]`` is ``view``; None for another game's view."""
    if view.get("game") != "spectacular-bid":
        return None
    rules = Rules.from_dict(view["rules"])
    match = Match(rules)
    match.phase = str(view["phase"])
    match.hand_no = int(view["hand_no"])
    match.balances = [int(b) for b in view["balances"]]
    match.clock = clock_from_view(view["clock"], rules.delay_us)
    match.awaiting_reveal = view.get("awaiting_reveal")
    result = view.get("result")
    match._result = None if result is None else Result(result["winner"], result["reason"])
    match.decisions = 0 if view.get("can_abort") else 1  # only "none yet" is ever read
    to_act = view.get("to_act")
    match.turn = int(to_act) if to_act is not None else 0
    if match.hand_no < 0:
        return match
    match.jockey = view.get("jockey")
    match.board = board_of(view.get("board"), cross=True)
    match.moves = steps_from_moves(view.get("moves") or [], A.action_from_dict)
    match.continued = [bool(c) for c in view["continued"]]
    if match.phase == CONTINUE:
        match.settled_us = us(view["grace_deadline"]) - rules.grace_us
    auction = view.get("auction")
    if auction is not None:
        match.auction = Auction(int(auction.get("bid") or 0), auction.get("bidder"))
    match.hands_summary = _summaries(view)
    last = match.hands_summary[-1] if match.hands_summary else None
    if match.phase == DEAL and last is not None and last.end == DOMINO:
        match.next_jockey = last.winner
    if rules.one_device and match.awaiting_reveal is None and match.phase in (AUCTION, PLAY):
        match.revealed_seat = match.turn
    match.passes_in_row = passes_after_last_play(match.moves, A.PASS, A.is_play)
    match.drawn_tile = drawn_tile_of(view)
    known = known_hands(view, last.final_hands if last is not None else None)
    drawn = BONEYARD_SIZE - int(view["boneyard_count"])
    match.hand_masks, match.boneyard = hidden_deal(
        known, view["hand_counts"], match.board, BONEYARD_SIZE, drawn, voids(plugin, match))
    match.draw_pos = drawn
    return match
