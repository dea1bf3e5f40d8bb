"""Properties over random games: no view shows a hidden tile, 28 tiles are conserved,
refused actions change nothing and legality agrees with ``legal_actions``."""

from __future__ import annotations

import json
import pickle
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from games.dominoes.board import LINE_A
from games.dominoes.tiles import FULL_SET_MASK, TILE_COUNT, mask_of, tile_name
from games.engine.protocol import Illegal
from games.fives import actions as A
from games.fives.plugin import GAME
from games.fives.rules import Rules
from games.fives.state import PLAY, FivesState

from .helpers import random_game

TILE_TEXT = re.compile(r'"(\d-\d)"')
GAMES = settings(derandomize=True, max_examples=20, deadline=None)


def undrawn(state: FivesState) -> set[str]:
    return {tile_name(t) for t in state.bazaar[state.draw_pos:]}


def hidden_from(state: FivesState, seat: int | None) -> set[str]:
    """Tiles ``seat`` may not see now: other hands while the hand runs, and the bazaar."""
    hidden = undrawn(state)
    if state.phase == PLAY:
        for other, mask in enumerate(state.hand_masks):
            if other != seat:
                hidden |= {tile_name(t) for t in range(TILE_COUNT) if mask >> t & 1}
    return hidden


def current_part(view: dict[str, object], hand_no: int) -> str:
    """The view without what is public from earlier: the lots and older hands' summaries
    (their tiles were dealt again since)."""
    shown = dict(view)
    shown.pop("lots", None)
    summaries = shown.get("hands")
    if isinstance(summaries, list):
        shown["hands"] = [s for s in summaries if s["hand"] == hand_no]
    return json.dumps(shown)


def check_views(state: FivesState) -> None:
    for seat in [*range(state.num_seats), None]:
        view = GAME.view(state, seat)
        seen = set(TILE_TEXT.findall(current_part(view, state.hand_no)))
        leaked = seen & hidden_from(state, seat)
        assert not leaked, (seat, state.phase, leaked)
        if seat is None:
            assert "hand" not in view and "must_play" not in view and view["legal"] == []
        for move in view.get("moves", []):
            if move["type"] == "draw":
                assert set(move) <= {"seat", "type", "points", "forced"}


def check_tiles(state: FivesState) -> None:
    if state.hand_no < 0:
        return
    on_board = mask_of(link.tile for link in state.board.links)
    parts = [*state.hand_masks, on_board, mask_of(state.bazaar[state.draw_pos:])]
    assert sum(part.bit_count() for part in parts) == TILE_COUNT
    union = 0
    for part in parts:
        assert not union & part
        union |= part
    assert union == FULL_SET_MASK


def probe_codes(rng: random.Random) -> list[int]:
    codes = [A.DRAW, A.PASS, -3, A.FLAG, A.EVENT_BASE + 5, 9999]
    for _ in range(20):
        port = rng.choice([*range(6), A.LEAD])
        codes.append(A.play_code(rng.randrange(TILE_COUNT), rng.randrange(TILE_COUNT), port))
    codes.append(A.play_code(rng.randrange(TILE_COUNT), rng.randrange(TILE_COUNT), LINE_A))
    return codes


def check_refusals(state: FivesState, rng: random.Random) -> None:
    """Every code outside ``legal_actions`` (resign aside) is refused with no change."""
    if state.result is not None:
        return
    now = state.clock.started_us  # never late: a refusal must not let time pass
    before = pickle.dumps(state)
    for seat in range(state.num_seats):
        legal = set(state.legal_actions(seat))
        for code in [*probe_codes(rng), *legal]:
            if code in legal:
                continue
            outcome = state.apply(seat, code, now)
            assert isinstance(outcome, Illegal), (seat, code)
    assert pickle.dumps(state) == before


@GAMES
@given(seed=st.integers(0, 10**9), seats=st.sampled_from([2, 4]), cross=st.booleans(),
       full_record=st.booleans())
def test_views_never_show_a_hidden_tile(seed: int, seats: int, cross: bool,
                                        full_record: bool) -> None:
    rules = Rules(cross=cross, full_record=full_record, target=100, time_s=300)
    random_game(seed, seats, rules, resign_chance=0.002, on_step=check_views)


@GAMES
@given(seed=st.integers(0, 10**9), seats=st.sampled_from([2, 4]), cross=st.booleans())
def test_tiles_are_conserved_and_refusals_change_nothing(seed: int, seats: int,
                                                         cross: bool) -> None:
    rng = random.Random(seed)

    def check(state: FivesState) -> None:
        check_tiles(state)
        check_refusals(state, rng)

    random_game(seed, seats, Rules(cross=cross, target=100), on_step=check)


@GAMES
@given(seed=st.integers(0, 10**9), seats=st.sampled_from([2, 4]))
def test_scores_only_grow_in_fives_and_bonuses(seed: int, seats: int) -> None:
    played = random_game(seed, seats, Rules(target=250, full_record=seed % 2 == 0))
    state = played.state
    record = GAME.export_record(played.players, state.rules, played.log)
    report = GAME.replay_document(json.dumps(record).encode(), False).report
    bonuses = [0] * seats
    for hand in report["hands"]:
        if hand["winner"] is not None:
            bonuses[hand["winner"]] += hand["bonus"]
    placed = [0] * seats
    for action in report["actions"]:
        assert action["points"] % 5 == 0
        placed[action["seat"]] += action["points"]
    assert [p + b for p, b in zip(placed, bonuses, strict=True)] == state.scores
