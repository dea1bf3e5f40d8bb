"""Property tests over random whole matches.

Hypothesis draws the deals (a permutation of the 28 tiles per hand), the actions
(mostly legal, bids included, now and then a resign, an abort or an illegal one),
the think times (some long enough to lose on time) and the table's rules. After every
step the invariants of the spec must hold; at the end the match, exported as a
record the way the platform exports it, must replay to the very same state.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.dominoes.tiles import FULL_SET_MASK, TILE_COUNT, mask_of, tile_name
from games.engine.protocol import Illegal, Outcome, Step
from games.spectacular_bid import actions as A
from games.spectacular_bid.record import RecordAction, RecordHand, export, parse
from games.spectacular_bid.replay import replay
from games.spectacular_bid.rules import US, Rules
from games.spectacular_bid.state import BONEYARD_SIZE, Deal, Match

MAX_STEPS = 260
# What happens next, per mille: an illegal action, silence (time passes, nobody acts),
# a resign, an abort (while allowed); below DIRECT a command reaches apply() without the
# server's advance() first; the rest are legal actions.
ILLEGAL, SILENCE, RESIGN, ABORT, DIRECT = 50, 55, 57, 60, 250

RULES = [
    Rules(),
    Rules(start_points=20),
    Rules(start_points=35, bank_s=25, delay_s=3),
    Rules(start_points=30, one_device=True),
    Rules(start_points=25, jockey_discount=30, bank_s=30, delay_s=2, grace_s=5),
]




def think_us(rng: random.Random) -> int:
    """Mostly quick, sometimes into the bank, now and then far too long."""
    kind = rng.random()
    if kind < 0.002:
        return rng.randint(100 * US, 200 * US)
    if kind < 0.03:
        return rng.randint(0, 30 * US)
    return rng.randint(0, 6 * US)


@dataclass
class Played:
    """A match played live, and what its record needs."""

    match: Match
    hands: list[RecordHand] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)  # every step, in order
    # The record's forced plays and passes (the contract lets a record omit them).
    forced: list[RecordAction] = field(default_factory=list)

    def take(self, steps: list[Step]) -> None:
        """Keep the steps as the platform's record export does (games/play/store.py)."""
        self.steps.extend(steps)
        for step in steps:
            if step.action >= A.EVENT_BASE and step.action != A.FLAG:
                continue
            assert step.seat is not None
            # A record has no flag: an action at the deadline replays to the same loss.
            code = A.PASS if step.action == A.FLAG else step.action
            action = RecordAction(step.seat, code, step.now_us)
            self.hands[-1].actions.append(action)
            if step.forced and step.action != A.CONTINUE:
                self.forced.append(action)


# ----------------------------------------------------------------------- invariants


def check_points(match: Match) -> None:
    start = match.rules.start_points
    assert sum(match.balances) == 2 * start
    assert min(match.balances) >= 0
    if match.result is None:
        assert min(match.balances) > 0  # a balance at 0 ends the match at once


def board_mask(match: Match) -> int:
    return mask_of(link.tile for link in match.board.links)


def boneyard_mask(match: Match) -> int:
    return mask_of(match.boneyard[match.draw_pos:])


def check_tiles(match: Match) -> None:
    if match.hand_no < 0:
        return
    parts = [match.hand_masks[0], match.hand_masks[1], board_mask(match), boneyard_mask(match)]
    assert sum(part.bit_count() for part in parts) == TILE_COUNT
    union = 0
    for part in parts:
        assert not union & part, "a tile is in two places"
        union |= part
    assert union == FULL_SET_MASK
    assert len(match.board.links) + sum(m.bit_count() for m in match.hand_masks) + (
        BONEYARD_SIZE - match.draw_pos) == TILE_COUNT


def hidden_from(match: Match, viewer: int | None) -> int:
    """The tiles ``viewer`` (None: a spectator) may not see now."""
    if match.result is not None:
        return 0  # the match is over: its hands are public
    secret = boneyard_mask(match)
    if match.phase in ("continue", "auction", "play"):
        for seat in (0, 1):
            if seat != viewer:
                secret |= match.hand_masks[seat]
    return secret & ~board_mask(match)


def check_views(match: Match) -> None:
    for viewer in (0, 1, None):
        view = match.view(viewer)
        # Hands settled earlier are public; this hand's summary is scanned like the rest.
        view["hands"] = [h for h in view.get("hands", []) if h["hand"] == match.hand_no]
        text = json.dumps(view)
        secret = hidden_from(match, viewer)
        for tile in range(TILE_COUNT):
            if secret >> tile & 1:
                assert f'"{tile_name(tile)}"' not in text, (
                    f"{tile_name(tile)} leaks to {viewer} in phase {match.phase}")
        if viewer is not None and match.result is None and match.phase in ("auction", "play"):
            assert view["hand"] == [tile_name(t) for t in range(TILE_COUNT)
                                    if match.hand_masks[viewer] >> t & 1]


def check_all(match: Match) -> None:
    check_points(match)
    check_tiles(match)
    check_views(match)


def snapshot(match: Match) -> tuple[Any, ...]:
    return (
        [json.dumps(match.view(v), sort_keys=True) for v in (0, 1, None)],
        list(match.balances),
        list(match.clock.banks_us),
        match.clock.running,
        match.clock.started_us,
        list(match.hand_masks),
        match.draw_pos,
        match.drawn_tile,
        match.decisions,
        match.result,
    )


# ---------------------------------------------------------------------- random play


def some_illegal(data: st.DataObject, match: Match) -> tuple[int, int] | None:
    """An action that is not legal now (never resign, never an allowed abort)."""
    seat = data.draw(st.sampled_from([0, 1]), label="illegal seat")
    tile = data.draw(st.integers(0, TILE_COUNT - 1), label="illegal tile")
    target = data.draw(st.integers(0, TILE_COUNT - 1), label="illegal target")
    port = data.draw(st.sampled_from([0, 1, 2, 3, 4, 5, A.OPEN]), label="illegal port")
    code = data.draw(st.sampled_from([
        A.play_code(tile, target, port),
        A.opening_code(tile),
        A.DRAW, A.PASS, A.CONTINUE, A.REVEAL, A.ACCEPT, A.DECLINE, A.ABORT,
        A.BID + 5 * tile, A.BID + tile, A.FLAG, -1,
    ]), label="illegal code")
    if code in match.legal_actions(seat) or (code == A.ABORT and match.decisions == 0):
        return None
    return seat, code


def play_match(data: st.DataObject) -> Played:
    rules = data.draw(st.sampled_from(RULES), label="rules")
    # Hypothesis draws the structure (deals, which action); a seeded Random the odds and
    # the times, whose rare branches Hypothesis would otherwise pick far too often.
    rng = data.draw(st.randoms(use_true_random=True), label="odds")
    played = Played(Match(rules))
    match = played.match
    now = 0
    for _ in range(MAX_STEPS):
        if match.result is not None:
            break
        if match.needs_chance():
            order = data.draw(st.permutations(range(TILE_COUNT)), label="deal")
            deal = Deal.checked((order[:7], order[7:14]), order[14:])
            played.hands.append(RecordHand(deal))
            played.take(match.deal(deal))
            check_all(match)
            continue
        roll = rng.randrange(1000)
        if roll < ILLEGAL:
            # An illegal action at the time of the last one changes nothing.
            attempt = some_illegal(data, match)
            if attempt is not None:
                before = snapshot(match)
                outcome = match.apply(attempt[0], attempt[1], now)
                assert isinstance(outcome, Illegal), f"{attempt} was accepted"
                assert outcome.reason
                assert snapshot(match) == before
            continue
        now += think_us(rng)
        if roll < SILENCE:
            played.take(match.advance(now))  # silence: a grace deadline or a flag
        else:
            # The server lets time pass before it applies a command (games/play/services.py);
            # now and then the command goes straight in, and apply sees the time itself.
            direct = roll < DIRECT and match.phase in ("auction", "play")
            if not direct:
                played.take(match.advance(now))
                if match.result is not None:
                    check_all(match)
                    continue
            choices = [(seat, code) for seat in (0, 1) for code in match.legal_actions(seat)]
            if roll < RESIGN:
                choices = [(data.draw(st.sampled_from([0, 1])), A.RESIGN)]
            elif roll < ABORT and match.decisions == 0:
                choices = [(data.draw(st.sampled_from([0, 1])), A.ABORT)]
            assert choices, f"nobody can act in phase {match.phase}"
            seat, code = data.draw(st.sampled_from(choices), label="action")
            outcome = match.apply(seat, code, now)
            assert isinstance(outcome, Outcome), f"legal {code} refused: {outcome}"
            played.take(outcome.steps)
            if not outcome.applied:
                assert match.result is not None and match.result.reason == "time"
        check_all(match)
    return played


# --------------------------------------------------------------------------- record


def record_doc(played: Played, keep_forced: list[bool] | None = None) -> dict[str, Any]:
    """The played match as a record; ``keep_forced`` picks which forced plays/passes stay."""
    hands = []
    index = 0
    for hand in played.hands:
        actions = []
        for action in hand.actions:
            forced = any(action is listed for listed in played.forced)
            if forced and keep_forced is not None:
                keep = keep_forced[index % len(keep_forced)] if keep_forced else False
                index += 1
                if not keep:
                    continue
            actions.append(action)
        hands.append(RecordHand(hand.deal, actions))
    doc = export(["north", "south"], played.match.rules, hands)
    return json.loads(json.dumps(doc))  # through JSON text, times as seconds


def check_replay(played: Played, doc: dict[str, Any]) -> None:
    live = played.match
    rep = replay(parse(doc))
    assert rep.error is None, rep.error
    again = rep.match
    assert again.balances == live.balances
    assert again.clock.banks_us == live.clock.banks_us
    assert again.result == live.result
    assert again.hands_summary == live.hands_summary
    for viewer in (0, 1, None):
        assert again.view(viewer) == live.view(viewer)
    live_moves = [
        (s.seat, s.action, s.points, list(s.scores))
        for s in played.steps
        if s.action < A.EVENT_BASE
    ]
    replayed = [(a["seat"], a["type"], a["points"], a["balances"]) for a in rep.actions]
    assert [(seat, A.action_type(code), points, scores)
            for seat, code, points, scores in live_moves] == replayed


# ---------------------------------------------------------------------------- tests


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_matches_keep_the_invariants_and_replay_exactly(data: st.DataObject) -> None:
    played = play_match(data)
    check_replay(played, record_doc(played))
    # Forced plays and passes may be present or omitted, each on its own.
    keep = data.draw(st.lists(st.booleans(), max_size=6), label="forced kept")
    check_replay(played, record_doc(played, keep))
