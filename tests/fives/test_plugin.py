"""The plugin: chance, the action codec, views, the bot, records of stored logs, frames."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.plugin import ActionError, LogEntry, RecordError
from games.fives import actions as A
from games.fives.plugin import GAME
from games.fives.rules import Rules
from games.fives.state import FivesState

from .helpers import play, play_to_the_end, random_game, start, tiles
from .test_play import A_CHAIN, B_CHAIN, CHAIN_MOVES


class TestChance:
    def test_lots_with_the_first_deal_only(self) -> None:
        state = GAME.new_state(None, 4)
        first = GAME.sample_chance(state, random.Random(1))
        assert set(first) == {"lots", "deal"}
        assert len(set(first["lots"])) == 4
        assert [len(h) for h in first["deal"]["hands"]] == [7] * 4
        assert first["deal"]["bazaar"] == []
        assert GAME.apply_chance(state, first, 7) == []
        assert state.lots == tiles(" ".join(first["lots"]))
        assert state.clock.started_us == 7 and state.to_act() == state.hands_summary[0].leader
        with pytest.raises(ValueError):
            GAME.sample_chance(state, random.Random(1))

    def test_same_seed_same_outcome(self) -> None:
        one = GAME.sample_chance(GAME.new_state(None, 2), random.Random(5))
        two = GAME.sample_chance(GAME.new_state(None, 2), random.Random(5))
        assert one == two
        assert len(one["deal"]["bazaar"]) == 14

    def test_later_deals_have_no_lots(self) -> None:
        played = random_game(3, 2, Rules(target=500))
        chances = [e.payload for e in played.log if e.kind == "chance"]
        assert len(chances) >= 2 and "lots" in chances[0]
        assert all("lots" not in c for c in chances[1:])

    def test_a_bad_outcome_is_refused(self) -> None:
        state = GAME.new_state(None, 2)
        with pytest.raises(RecordError):
            GAME.apply_chance(state, {"deal": {"hands": [], "bazaar": []}}, 0)
        assert state.needs_chance()


class TestCodec:
    def test_round_trip_of_every_legal_action(self) -> None:
        for seed in range(5):
            for seats in (2, 4):
                def check(state: FivesState) -> None:
                    seat = state.to_act()
                    if seat is None:
                        return
                    for code in state.legal_actions(seat):
                        data = GAME.action_to_dict(seat, code)
                        assert GAME.action_from_dict(json.loads(json.dumps(data))) == (seat, code)

                random_game(seed, seats, Rules(target=100), on_step=check)

    def test_simple_actions(self) -> None:
        assert GAME.action_to_dict(1, A.RESIGN) == {"seat": 1, "type": "resign"}
        assert GAME.action_from_dict({"seat": 3, "type": "draw"}) == (3, A.DRAW)

    @pytest.mark.parametrize("data", [
        None, [], {"seat": 0}, {"seat": 4, "type": "draw"}, {"seat": True, "type": "draw"},
        {"seat": 0, "type": "play"}, {"seat": 0, "type": "play", "tile": "0-7"},
        {"seat": 0, "type": "play", "tile": "0-1", "port": "high"},
        {"seat": 0, "type": "play", "tile": "0-1", "target": "1-1", "port": "top"},
        {"seat": 0, "type": "bid", "amount": 15},
    ])
    def test_unreadable(self, data: object) -> None:
        with pytest.raises(ActionError):
            GAME.action_from_dict(data)


class TestView:
    def test_seat_and_spectator(self) -> None:
        game = start(A_CHAIN, B_CHAIN, rules=Rules(cross=True), lots="1-2 0-3")
        play(game, "0-2", "0-1>0-2:low")
        mine = GAME.view(game, 0)
        assert mine["hand"] == ["1-2", "2-3", "3-4", "4-5", "5-6", "6-6"]
        assert mine["hand_counts"] == [6, 6] and mine["bazaar_count"] == 14
        assert mine["drawable"] == 13
        assert mine["lots"] == ["1-2", "0-3"]
        assert mine["to_act"] == 1 and mine["scores"] == [0, 0]
        assert mine["legal"] == []
        theirs = GAME.view(game, 1)["legal"]
        assert theirs and all(a["seat"] == 1 and a["type"] == "play" for a in theirs)
        assert [m["tile"] for m in mine["moves"]] == ["0-2", "0-1"]
        assert mine["board"]["tiles"][1] == {"tile": "0-1", "target": "0-2", "port": "low",
                                             "own_port": "low"}
        assert mine["clock"] == {"banks": [900.0, 900.0], "running": 1, "started": 0.0,
                                 "delay": 0.0, "deadline": 900.0}
        spectator = GAME.view(game, None)
        assert "hand" not in spectator and spectator["legal"] == []
        assert spectator["hands"] == [{"hand": 0, "leader": 1, "end": None, "winner": None,
                                       "pips": None, "bonus": None}]

    def test_an_ended_hand_is_revealed(self) -> None:
        game = start(A_CHAIN, B_CHAIN)
        play(game, *CHAIN_MOVES)
        spectator = GAME.view(game, None)
        summary = spectator["hands"][0]
        assert summary["hands"] == [[], ["1-3"]] and summary["bonus"] == 1
        assert len(summary["moves"]) == 13 and summary["board"]["ends_sum"] == 15
        assert "hand" not in GAME.view(game, 1)  # between hands: no hand in play
        assert json.dumps(spectator)  # JSON-ready

    def test_a_draw_shows_no_tile(self) -> None:
        game = start("0-0 0-1 0-2 0-3 0-4 0-5 5-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2",
                     bazaar="2-3 0-6")
        play(game, "0-0", "draw")
        for seat in (0, 1, None):
            moves = GAME.view(game, seat)["moves"]
            assert moves[-1] == {"seat": 1, "type": "draw", "points": 0}
        assert "2-3" in GAME.view(game, 1)["hand"]
        assert "2-3" not in json.dumps(GAME.view(game, 0))


class TestBot:
    def test_prefers_the_highest_score_then_the_heaviest_tile(self) -> None:
        game = start("0-1 1-2 2-3 3-4 4-5 5-6 5-5", B_CHAIN)
        assert GAME.bot_action(GAME.view(game, 0), random.Random(0)) == {
            "seat": 0, "type": "play", "tile": "5-5"}  # 10 points
        game = start("0-1 1-2 1-1 3-4 2-6 5-6 6-6", B_CHAIN)
        # Nothing scores 5s: 1-1 is 2 and 0-1 is 1...; the heaviest tile is 6-6 (12).
        assert GAME.bot_action(GAME.view(game, 0), random.Random(0))["tile"] == "6-6"

    def test_draws_when_it_must_and_waits_otherwise(self) -> None:
        game = start("0-0 0-1 0-2 0-3 0-4 0-5 5-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2",
                     bazaar="2-3 0-6")
        play(game, "0-0")
        assert GAME.bot_action(GAME.view(game, 1), random.Random(0)) == {"seat": 1,
                                                                        "type": "draw"}
        assert GAME.bot_action(GAME.view(game, 0), random.Random(0)) is None

    @pytest.mark.parametrize(("seats", "cross"), [(2, False), (2, True), (4, False), (4, True)])
    def test_bots_finish_games(self, seats: int, cross: bool) -> None:
        rng = random.Random(seats)

        def bot(state: FivesState, seat: int) -> int:
            action = GAME.bot_action(GAME.view(state, seat), rng)
            assert action is not None
            got_seat, code = GAME.action_from_dict(action)
            assert got_seat == seat and code in state.legal_actions(seat)
            return code

        state = play_to_the_end(Rules(cross=cross), seats, rng, bot)
        assert state.result is not None
        assert state.result.reason == "target"
        assert max(state.scores) >= 250


def _replayed(played_doc: dict[str, object]) -> dict[str, object]:
    out = GAME.replay_document(json.dumps(played_doc).encode(), False)
    assert out.exit_status == 0, out.report.get("error")
    return out.report


@pytest.mark.parametrize("seed", range(12))
def test_export_record_replays_to_the_same_game(seed: int) -> None:
    seats = 2 if seed % 2 else 4
    rules = Rules(cross=seed % 3 == 0, full_record=seed % 4 == 0, time_s=40 + seed * 10,
                  target=100)
    played = random_game(seed, seats, rules, resign_chance=0.01 if seed % 5 == 1 else 0.0,
                         max_think_s=2.5)
    state = played.state
    record = GAME.export_record(played.players, rules, played.log)
    report = _replayed(record)
    assert report["scores"] == state.scores == GAME.scores(state)
    assert report["result"] == {"winner": state.result.winner, "ranks": GAME.ranks(state),
                                "reason": state.result.reason}
    assert report["clocks"] == [b / 1e6 for b in state.clock.banks_us]
    assert len(report["hands"]) == len(state.hands_summary)
    assert report["hands"][-1]["end"] == state.hands_summary[-1].end


def test_export_covers_every_ending() -> None:
    reasons = set()
    for seed in range(40):
        rules = Rules(time_s=45, target=100)
        played = random_game(seed, 2 + 2 * (seed % 2), rules, resign_chance=0.004,
                             max_think_s=2.0)
        record = GAME.export_record(played.players, rules, played.log)
        report = _replayed(record)
        assert report["result"]["reason"] == played.state.result.reason
        reasons.add(played.state.result.reason)
    assert reasons == {"target", "time", "resign"}


def test_export_of_an_annulled_game() -> None:
    played = random_game(2, 2, Rules(target=500), max_think_s=0.5)
    log = [*played.log[:5], LogEntry("annul", None, {}, played.log[4].t_us)]
    record = GAME.export_record(played.players, Rules(target=500), log)
    assert record["format"] == "fives/1" and len(record["hands"]) == 1


def test_frames_are_public() -> None:
    played = random_game(4, 2, Rules(target=100, time_s=60), max_think_s=2.0)
    record = GAME.export_record(played.players, played.state.rules, played.log)
    frames = GAME.frames(record)
    assert set(frames) == {"players", "rules", "lots", "frames", "hands", "scores_by_hand",
                           "result", "error"}
    assert frames["error"] is None
    assert len(frames["frames"]) >= len(_replayed(record)["actions"])
    for frame in frames["frames"]:
        assert "hands" not in frame
        if frame["action"]["type"] == "draw":
            assert "tile" not in frame["action"]
    with pytest.raises(RecordError):
        GAME.frames({"format": "fives/1", "hands": 3})
