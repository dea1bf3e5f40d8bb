"""Checks against oracles of their own, for what a mutation run of the engine found unasserted.

- The board: after every placement of random hands, the counting-ends sum, the open places,
  ``open_count`` and ``open_values`` equal what an independent reading of the placed tiles
  gives (computed here from the links alone, the spec's table in §3 and §4); ``sum_after`` on an
  empty board equals the opening's own score for every tile.
- A bank spent in one hand stays spent after the next deal (the bank is for the match).
- A hand's summary names its winner; a one-device game reveals each seat in turn.
"""

from __future__ import annotations

import random

from games.dominoes.board import BRANCH_A, BRANCH_B, HIGH, LINE_A, LINE_B, LOW, NO_TILE, Board
from games.dominoes.tiles import HI, IS_DOUBLE, LO, TILE_COUNT
from games.spectacular_bid import actions as A
from games.spectacular_bid.rules import Rules
from games.spectacular_bid.state import Match

from .helpers import (
    DOMINO_BY_0,
    DOMINO_BY_0_SCRIPT,
    DOMINO_BY_1,
    DOMINO_BY_1_SCRIPT,
    PLAIN_DEAL,
    apply_ok,
    code,
    make_deal,
    play,
    start,
    us,
)


def occupied_ports(board: Board, tile: int) -> set[int]:
    ports = set()
    for link in board.links:
        if link.tile == tile and link.target != NO_TILE:
            ports.add(link.own_port)
        if link.target == tile:
            ports.add(link.target_port)
    return ports


def oracle(board: Board) -> tuple[int, set[tuple[int, int, int]]]:
    """(counting-ends sum, open places) read afresh from the placed tiles (spec §3 and §4)."""
    total = 0
    places: set[tuple[int, int, int]] = set()
    for link in board.links:
        tile = link.tile
        taken = occupied_ports(board, tile)
        if IS_DOUBLE[tile]:
            value = LO[tile]
            lines = len(taken & {LINE_A, LINE_B})
            total += 2 * value if lines < 2 else 0  # a double alone counts its halves once
            places |= {(tile, port, value) for port in (LINE_A, LINE_B) if port not in taken}
            if tile == board.spinner and lines == 2:
                places |= {(tile, port, value) for port in (BRANCH_A, BRANCH_B)
                           if port not in taken}
        else:
            for port, value in ((HIGH, HI[tile]), (LOW, LO[tile])):
                if port not in taken:
                    total += value
                    places.add((tile, port, value))
    return total, places


def check_board(board: Board) -> None:
    total, places = oracle(board)
    assert board.ends_sum == total
    assert set(board.places) == places and len(board.places) == len(places)
    for value in range(7):
        assert board.open_count[value] == sum(1 for p in places if p[2] == value)
        assert bool(board.open_values >> value & 1) == any(p[2] == value for p in places)


def test_the_board_agrees_with_an_independent_reading_through_random_hands() -> None:
    rng = random.Random(20261201)
    checked = 0
    for _ in range(300):
        for cross in (True, False):
            board = Board(cross=cross)
            stock = list(range(TILE_COUNT))
            rng.shuffle(stock)
            for tile in stock:
                if board.is_empty:
                    assert board.sum_after(tile, NO_TILE, -1) == board.place_opening(tile)
                else:
                    fits = board.places_for(tile)
                    if not fits:
                        continue
                    target, port, _value = rng.choice(fits)
                    expected = board.sum_after(tile, target, port)
                    assert board.place(tile, target, port) == expected
                check_board(board)
                checked += 1
    assert checked > 5000


def test_sum_after_on_an_empty_board_is_the_opening_score() -> None:
    for tile in range(TILE_COUNT):
        expected = 2 * LO[tile] if IS_DOUBLE[tile] else LO[tile] + HI[tile]
        assert Board().sum_after(tile, NO_TILE, -1) == expected
        assert Board(cross=False).sum_after(tile, NO_TILE, -1) == expected


def test_a_bank_spent_in_one_hand_is_not_refilled_by_the_next_deal() -> None:
    match = start(DOMINO_BY_0, Rules(), 0)
    moves = DOMINO_BY_0_SCRIPT.split()
    now = 0
    first = match.to_act()
    assert first is not None
    for index, move in enumerate(moves):
        seat = match.to_act()
        assert seat is not None
        # The first decision takes 13 s: 10 s of delay, then 3 s of the bank.
        now += us(13) if index == 0 else us(1)
        apply_ok(match, seat, move, now)
    assert match.hands_summary[0].end == "domino"
    banks_after_hand = list(match.clock.banks_us)
    assert banks_after_hand[first] == us(117) and banks_after_hand[1 - first] == us(120)
    match.deal(PLAIN_DEAL)
    assert list(match.clock.banks_us) == banks_after_hand
    apply_ok(match, 0, "continue", now)
    apply_ok(match, 1, "continue", now)
    assert list(match.clock.banks_us) == banks_after_hand


def test_a_hand_summary_names_who_played_out() -> None:
    for deal, script, winner in ((DOMINO_BY_0, DOMINO_BY_0_SCRIPT, 0),
                                 (DOMINO_BY_1, DOMINO_BY_1_SCRIPT, 1)):
        match = start(deal)
        play(match, script)
        summary = match.hands_summary[0]
        assert (summary.end, summary.winner) == ("domino", winner)


def test_a_one_device_game_reveals_each_seat_in_turn() -> None:
    match = Match(Rules(one_device=True))
    match.deal(make_deal("6-6 0-1 0-2 0-3 0-4 1-2 1-3", "5-5 1-4 2-3 2-4 3-4 0-5 1-5"))
    apply_ok(match, 0, "continue", 0)
    apply_ok(match, 1, "continue", 0)
    # [6|6] opens by hierarchy (forced); then seat 1 must reveal before deciding.
    assert match.to_act() == 1
    assert match.awaiting_reveal == 1 and match.revealed_seat is None
    assert match.legal_actions(1) == [A.REVEAL]
    apply_ok(match, 1, "reveal", 0)
    assert match.revealed_seat == 1 and match.awaiting_reveal is None
    legal = match.legal_actions(1)
    assert legal and A.REVEAL not in legal
    apply_ok(match, 1, legal[0], 0)
    seat = match.to_act()
    if seat == 0:  # the turn came back to seat 0: it reveals before it decides
        assert match.awaiting_reveal == 0 and match.revealed_seat == 1
        apply_ok(match, 0, code("reveal"), 0)
        assert match.revealed_seat == 0
