"""Match records and ``manage.py replay`` (shared/spec/match-record.md)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine.protocol import Outcome, Result
from games.spectacular_bid import actions as A
from games.spectacular_bid.record import RecordError, loads, parse
from games.spectacular_bid.replay import replay, report
from games.spectacular_bid.rules import Rules
from games.spectacular_bid.state import Deal, Match
from tests.records import EXAMPLE  # the example of match-record.md, word for word

from .helpers import (
    DOMINO_BY_0,
    DOMINO_BY_0_SCRIPT,
    code,
    make_deal,
    start,
)
from .test_rules import BLOCKED

ROOT = Path(__file__).resolve().parents[2]


REPORT_KEYS = {"actions", "hands", "balances", "banks", "result"}


def example(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(EXAMPLE)
    doc.update(changes)
    return doc


def deal_doc(deal: Deal) -> dict[str, Any]:
    from games.spectacular_bid.record import deal_to_dict

    return deal_to_dict(deal)


def scripted_actions(deal: Deal, script: str, rules: Rules | None = None) -> list[dict[str, Any]]:
    """Record actions (no times, no continue, no forced action) for a script of moves."""
    match = start(deal, rules)
    out = []
    for move in script.split():
        seat = match.to_act()
        assert seat is not None
        outcome = match.apply(seat, code(move), 0)
        assert isinstance(outcome, Outcome) and outcome.applied
        out.append(A.action_to_dict(seat, code(move)))
    return out


def run_in_process(doc: dict[str, Any], with_legal: bool = False) -> dict[str, Any]:
    return report(replay(parse(json.loads(json.dumps(doc)))), with_legal=with_legal)


def write_record(path: Path, doc: dict[str, Any] | str | bytes) -> None:
    """A record document (or any text or bytes, for the malformed ones) into ``path``."""
    if isinstance(doc, dict):
        path.write_text(json.dumps(doc))
    elif isinstance(doc, str):
        path.write_text(doc)
    else:
        path.write_bytes(doc)


def run_command(
    tmp_path: Path, doc: dict[str, Any] | str | bytes, *options: str
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.json"
    write_record(path, doc)
    return subprocess.run(
        [sys.executable, "manage.py", "replay", str(path), *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def json_report(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.stderr == "", done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


# ------------------------------------------------------------------- the spec example


class TestExample:
    def test_replays_with_exit_zero_and_the_expected_balances(self, tmp_path: Path) -> None:
        done = run_command(tmp_path, EXAMPLE, "--json")
        assert done.returncode == 0
        data = json_report(done)
        assert set(data) == REPORT_KEYS
        # [6|6] alone counts 12 (no score); [3|6] on a line: 12 + 3 = 15 for bob;
        # [2|6] on the other line: the spinner counts 0, 3 + 2 = 5 for alice.
        assert data["balances"] == [140, 160]
        assert data["banks"] == [120.0, 120.0]
        assert data["result"] == {"winner": None, "reason": None}
        assert data["hands"] == [{"end": None, "jockey": None}]
        assert [(a["type"], a["points"], a["balances"]) for a in data["actions"]] == [
            ("continue", 0, [150, 150]),
            ("continue", 0, [150, 150]),
            ("play", 0, [150, 150]),
            ("play", 15, [135, 165]),
            ("play", 5, [140, 160]),
        ]
        assert data["actions"][2] == {
            "hand": 0, "seat": 0, "type": "play", "tile": "6-6", "points": 0,
            "balances": [150, 150], "forced": True,
        }
        assert data["actions"][3] == {
            "hand": 0, "seat": 1, "type": "play", "tile": "3-6", "target": "6-6",
            "port": "line_a", "points": 15, "balances": [135, 165],
        }
        for entry in data["actions"]:
            assert {"hand", "seat", "type", "points", "balances"} <= set(entry)
            own = set(entry) - {"hand", "seat", "type", "points", "balances", "forced"}
            assert own <= {"tile", "target", "port", "amount"}

    def test_readable_account(self, tmp_path: Path) -> None:
        done = run_command(tmp_path, EXAMPLE)
        assert done.returncode == 0 and done.stderr == ""
        assert "alice" in done.stdout and "bob" in done.stdout
        assert "140" in done.stdout and "160" in done.stdout

    def test_legal_actions_and_to_act(self, tmp_path: Path) -> None:
        done = run_command(tmp_path, EXAMPLE, "--json", "--legal")
        assert done.returncode == 0
        data = json_report(done)
        assert set(data) == REPORT_KEYS | {"legal", "to_act"}
        assert data["to_act"] == 1
        assert sorted(json.dumps(a, sort_keys=True) for a in data["legal"]) == sorted(
            json.dumps(a, sort_keys=True)
            for a in [
                {"seat": 1, "type": "play", "tile": "4-6", "target": "6-6", "port": "branch_a"},
                {"seat": 1, "type": "play", "tile": "4-6", "target": "6-6", "port": "branch_b"},
                {"seat": 1, "type": "play", "tile": "0-2", "target": "2-6", "port": "low"},
            ]
        )
        assert all("t" not in a for a in data["legal"])

    def test_legal_between_continues(self) -> None:
        doc = example()
        doc["hands"][0]["actions"] = doc["hands"][0]["actions"][:1]
        data = run_in_process(doc, with_legal=True)
        assert data["to_act"] is None
        assert data["legal"] == [{"seat": 1, "type": "continue"}]

    def test_legal_lists_every_affordable_bid(self) -> None:
        doc = example(rules={"start_points": 30})
        doc["hands"] = [
            {"deal": deal_doc(DOMINO_BY_0), "actions": scripted_actions(
                DOMINO_BY_0, DOMINO_BY_0_SCRIPT)},
            {"deal": deal_doc(make_deal("0-0 0-1 0-2 0-3 0-4 0-5 0-6",
                                        "1-1 1-2 1-3 1-4 1-5 1-6 2-2")),
             "actions": [{"seat": 1, "type": "bid", "amount": 15}]},
        ]
        data = run_in_process(doc, with_legal=True)
        assert data["to_act"] == 0
        assert data["hands"][0] == {"end": "domino", "jockey": None}
        assert data["hands"][1] == {"end": None, "jockey": 0}
        assert data["legal"] == [{"seat": 0, "type": "accept"}] + [
            {"seat": 0, "type": "bid", "amount": amount} for amount in (20, 25, 30, 35, 40, 45)
        ]

    def test_in_process_equals_the_command(self, tmp_path: Path) -> None:
        done = run_command(tmp_path, EXAMPLE, "--json", "--legal")
        assert json_report(done) == run_in_process(EXAMPLE, with_legal=True)


# ------------------------------------------------------------------------- exit status


class TestIllegal:
    def test_exit_one_with_the_error_and_everything_before(self, tmp_path: Path) -> None:
        doc = example()
        doc["hands"][0]["actions"].append(
            {"seat": 0, "type": "play", "tile": "1-4", "target": "6-6", "port": "branch_a",
             "t": 9.5})
        doc["hands"][0]["actions"].append({"seat": 1, "type": "draw", "t": 10})
        done = run_command(tmp_path, doc, "--json")
        assert done.returncode == 1
        data = json_report(done)
        assert set(data) == REPORT_KEYS | {"error"}
        assert data["error"] == {"hand": 0, "index": 5, "reason": "it is not your turn"}
        assert len(data["actions"]) == 5
        assert data["balances"] == [140, 160]

    def test_error_index_counts_the_records_own_actions(self) -> None:
        doc = example()
        del doc["hands"][0]["actions"][2]  # the forced opening, omitted
        doc["hands"][0]["actions"].append({"seat": 1, "type": "draw"})
        data = run_in_process(doc)
        assert data["error"] == {
            "hand": 0, "index": 4, "reason": "you hold a playable tile, so you may not draw"}
        assert len(data["actions"]) == 5  # the forced opening is reported all the same

    def test_readable_account_names_the_illegal_action(self, tmp_path: Path) -> None:
        doc = example()
        doc["hands"][0]["actions"].append({"seat": 1, "type": "bid", "amount": 15})
        done = run_command(tmp_path, doc)
        assert done.returncode == 1
        assert "there is no auction now" in done.stdout

    def test_a_hand_after_the_end_of_the_match(self) -> None:
        doc = example(rules={"start_points": 10})
        doc["hands"].append({"deal": EXAMPLE["hands"][0]["deal"], "actions": []})
        data = run_in_process(doc)
        assert data["result"] == {"winner": 1, "reason": "points"}
        assert data["error"]["hand"] == 0 and data["error"]["index"] == 4
        assert data["error"]["reason"] == "the match is over"


def _mangle(doc: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


MALFORMED: dict[str, str | bytes | dict[str, Any]] = {
    "not JSON": "{\"format\": \"spectacular-bid/1\", ",
    "not UTF-8": b"\xff\xfe{",
    "not an object": "[1, 2, 3]",
    "unknown format": example(format="spectacular-bid/2"),
    "no format": {k: v for k, v in EXAMPLE.items() if k != "format"},
    "unknown tile": _mangle(example(), ("hands", 0, "deal", "hands", 0, 0), "7-7"),
    "tile not a string": _mangle(example(), ("hands", 0, "deal", "boneyard", 3), 6),
    "unknown tile in an action": _mangle(example(), ("hands", 0, "actions", 3, "tile"), "3-9"),
    "six tiles in a hand": _mangle(
        example(), ("hands", 0, "deal", "hands", 0),
        ["6-6", "1-4", "2-3", "0-5", "3-3", "1-1"]),
    "a tile twice": _mangle(example(), ("hands", 0, "deal", "boneyard", 0), "6-6"),
    "thirteen in the boneyard": _mangle(
        example(), ("hands", 0, "deal", "boneyard"), EXAMPLE["hands"][0]["deal"]["boneyard"][1:]),
    "three hands": _mangle(
        example(), ("hands", 0, "deal", "hands"),
        [*EXAMPLE["hands"][0]["deal"]["hands"], []]),
    "unknown action type": _mangle(example(), ("hands", 0, "actions", 0, "type"), "knock"),
    "unknown port": _mangle(example(), ("hands", 0, "actions", 3, "port"), "middle"),
    "seat 2": _mangle(example(), ("hands", 0, "actions", 0, "seat"), 2),
    "seat as a float": _mangle(example(), ("hands", 0, "actions", 0, "seat"), 0.0),
    "t going back": _mangle(example(), ("hands", 0, "actions", 4, "t"), 1.0),
    "t not a number": _mangle(example(), ("hands", 0, "actions", 4, "t"), "soon"),
    "unknown rule": example(rules={"start_points": 150, "handicap": 5}),
    "bid amount not whole": _mangle(
        example(), ("hands", 0, "actions", 4), {"seat": 0, "type": "bid", "amount": 17.5}),
}


# The command is a process start each (about half a second): the cases of the contract
# go through it; the reader gets every case (test_the_reader_raises_record_error).
THROUGH_THE_COMMAND = [
    "not JSON",
    "not UTF-8",
    "unknown format",
    "unknown tile",
    "six tiles in a hand",
    "a tile twice",
    "seat as a float",
]


@pytest.fixture(scope="module")
def malformed_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, str]]:
    """Every malformed record through the command, all at once (they are independent)."""
    folder = tmp_path_factory.mktemp("malformed")
    running = {}
    for index, name in enumerate(THROUGH_THE_COMMAND):
        doc = MALFORMED[name]
        path = folder / f"record-{index}.json"
        write_record(path, doc)
        running[name] = subprocess.Popen(
            [sys.executable, "manage.py", "replay", str(path), "--json"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
    results = {}
    for name, process in running.items():
        out, err = process.communicate(timeout=120)
        results[name] = (process.returncode, out, err)
    return results


class TestMalformed:
    @pytest.mark.parametrize("name", THROUGH_THE_COMMAND)
    def test_exit_two_with_one_line_on_stderr(
        self, malformed_runs: dict[str, tuple[int, str, str]], name: str
    ) -> None:
        returncode, stdout, stderr = malformed_runs[name]
        assert returncode == 2, (stdout, stderr)
        assert stdout == ""
        assert "Traceback" not in stderr
        assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr
        assert len(stderr.strip()) > 0

    @pytest.mark.parametrize("name", list(MALFORMED))
    def test_the_reader_raises_record_error(self, name: str) -> None:
        doc = MALFORMED[name]
        text = json.dumps(doc) if isinstance(doc, dict) else doc
        with pytest.raises(RecordError):
            loads(text)

    def test_a_missing_file(self, tmp_path: Path) -> None:
        done = subprocess.run(
            [sys.executable, "manage.py", "replay", str(tmp_path / "nothing.json")],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        )
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


# -------------------------------------------------------------------- record semantics


# Seat 0 holds all seven sixes: after [6|6] seat 1 draws the boneyard in vain, and
# the server passes for it.
ALL_SIXES = make_deal("6-6 0-6 1-6 2-6 3-6 4-6 5-6", "0-0 0-1 0-2 0-3 0-4 0-5 1-1")


def forced_pass_doc(with_forced: bool) -> dict[str, Any]:
    actions: list[dict[str, Any]] = []
    if with_forced:
        actions.append({"seat": 0, "type": "play", "tile": "6-6"})
    actions += [{"seat": 1, "type": "draw"} for _ in range(14)]
    if with_forced:
        actions.append({"seat": 1, "type": "pass"})
    actions.append({"seat": 0, "type": "play", "tile": "0-6", "target": "6-6", "port": "line_a"})
    return example(hands=[{"deal": deal_doc(ALL_SIXES), "actions": actions}])


class TestRecordSemantics:
    def test_forced_actions_present_or_omitted_give_the_same_result(self) -> None:
        with_forced = run_in_process(forced_pass_doc(True), with_legal=True)
        without = run_in_process(forced_pass_doc(False), with_legal=True)
        assert "error" not in with_forced
        assert with_forced == without
        passes = [a for a in without["actions"] if a["type"] == "pass"]
        assert passes == [{"hand": 0, "seat": 1, "type": "pass", "points": 0,
                           "balances": [150, 150], "forced": True}]
        assert without["to_act"] == 1

    def test_the_example_without_its_forced_opening(self) -> None:
        doc = example()
        del doc["hands"][0]["actions"][2]
        assert run_in_process(doc) == run_in_process(EXAMPLE)

    def test_a_forced_action_listed_out_of_turn_is_illegal(self) -> None:
        doc = forced_pass_doc(False)
        doc["hands"][0]["actions"].insert(3, {"seat": 1, "type": "pass"})
        data = run_in_process(doc)
        assert data["error"]["index"] == 3
        assert data["error"]["reason"].startswith("a pass is never chosen")

    def test_omitted_continue_starts_the_hand_at_the_first_action(self) -> None:
        doc = example()
        doc["hands"][0]["actions"] = [
            {"seat": 1, "type": "play", "tile": "3-6", "target": "6-6", "port": "line_a",
             "t": 100.0},
            {"seat": 0, "type": "play", "tile": "2-6", "target": "6-6", "port": "line_b",
             "t": 115.0},
        ]
        data = run_in_process(doc)
        assert "error" not in data
        assert data["result"] == {"winner": None, "reason": None}
        # Seat 1's decision started at 100 s (no time used); seat 0's ran 15 s.
        assert data["banks"] == [115.0, 120.0]
        assert data["actions"][0]["forced"] is True and data["actions"][0]["tile"] == "6-6"
        assert data["balances"] == [140, 160]

    def test_omitted_t_equals_the_previous_one(self) -> None:
        timed = example()
        actions = timed["hands"][0]["actions"]
        actions[3]["t"] = 20.4  # seat 1 thinks 20 s: 10 s of bank
        del actions[4]["t"]  # seat 0 answers at the same instant
        data = run_in_process(timed)
        assert data["banks"] == [120.0, 110.0]
        explicit = copy.deepcopy(timed)
        explicit["hands"][0]["actions"][4]["t"] = 20.4
        assert run_in_process(explicit) == data

    def test_a_record_without_times_never_runs_a_clock_down(self) -> None:
        doc = example()
        for action in doc["hands"][0]["actions"]:
            del action["t"]
        data = run_in_process(doc)
        assert data["banks"] == [120.0, 120.0]
        assert data["balances"] == [140, 160]

    @pytest.mark.parametrize("late_by", [0.0, 0.5, 100.0])
    def test_an_action_at_or_after_the_deadline_loses_on_time(
        self, tmp_path: Path, late_by: float
    ) -> None:
        doc = example()
        # Seat 1's decision started at 0.4 s: deadline 0.4 + 10 + 120 = 130.4 s.
        doc["hands"][0]["actions"] = doc["hands"][0]["actions"][:3]
        doc["hands"][0]["actions"].append(
            {"seat": 1, "type": "play", "tile": "3-6", "target": "6-6", "port": "line_a",
             "t": 130.4 + late_by})
        done = run_command(tmp_path, doc, "--json")
        assert done.returncode == 0
        data = json_report(done)
        assert data["result"] == {"winner": 0, "reason": "time"}
        assert [a["tile"] for a in data["actions"] if a["type"] == "play"] == ["6-6"]
        assert data["banks"] == [120.0, 0.0]
        assert data["balances"] == [150, 150]
        assert data["hands"] == [{"end": "match_over", "jockey": None}]

    def test_an_action_just_before_the_deadline_counts(self) -> None:
        doc = example()
        doc["hands"][0]["actions"] = doc["hands"][0]["actions"][:3]
        doc["hands"][0]["actions"].append(
            {"seat": 1, "type": "play", "tile": "3-6", "target": "6-6", "port": "line_a",
             "t": 130.399999})
        data = run_in_process(doc)
        assert data["result"] == {"winner": None, "reason": None}
        assert data["banks"][1] == pytest.approx(0.000001)

    def test_grace_deadline_replays_with_forced_continues(self) -> None:
        """Nobody pressed Start: the platform records the forced continues it applied."""
        match = Match()
        match.deal(make_deal("6-6 1-4 2-3 0-5 3-3 1-1 2-6", "5-5 0-1 4-4 3-6 0-2 1-5 4-6"))
        steps = match.advance(60_000_000)
        recorded = [
            {**A.action_to_dict(s.seat, s.action), "t": s.now_us / 1e6} for s in steps]
        recorded.append({"seat": 1, "type": "play", "tile": "3-6", "target": "6-6",
                         "port": "line_a", "t": 75.0})
        doc = example()
        doc["hands"][0]["actions"] = recorded
        data = run_in_process(doc)
        assert "error" not in data
        assert data["banks"] == [120.0, 115.0]  # the clock ran from the grace deadline
        # Without them the hand starts at the first action instead (the contract's rule).
        doc["hands"][0]["actions"] = recorded[-1:]
        assert run_in_process(doc)["banks"] == [120.0, 120.0]

    def test_resign_and_abort(self) -> None:
        doc = example()
        doc["hands"][0]["actions"].append({"seat": 0, "type": "resign", "t": 9.5})
        data = run_in_process(doc)
        assert data["result"] == {"winner": 1, "reason": "resign"}
        assert data["actions"][-1]["type"] == "resign"
        doc = example()
        abort = {"seat": 1, "type": "abort", "t": 1.0}
        doc["hands"][0]["actions"] = [*doc["hands"][0]["actions"][:3], abort]
        assert run_in_process(doc)["result"] == {"winner": None, "reason": "abort"}
        abort = {"seat": 1, "type": "abort", "t": 6.0}
        doc["hands"][0]["actions"] = [*EXAMPLE["hands"][0]["actions"][:4], abort]
        data = run_in_process(doc)
        assert data["error"]["index"] == 4
        assert data["result"] == {"winner": None, "reason": None}

    def test_blocked_hand_reports_sums_and_settlement(self) -> None:
        deal, script, sums, settlement, lower = BLOCKED["4 and 18 -> 20"]
        doc = example(hands=[{"deal": deal_doc(deal), "actions": scripted_actions(deal, script)}])
        data = run_in_process(doc)
        assert data["hands"] == [
            {"end": "blocked", "jockey": None, "sums": list(sums), "settlement": settlement}]
        assert [a["type"] for a in data["actions"][-2:]] == ["pass", "pass"]
        assert data["actions"][-1]["balances"] == data["balances"]
        assert lower == 0

    def test_two_hands_domino_then_auction(self) -> None:
        doc = example(hands=[
            {"deal": deal_doc(DOMINO_BY_0),
             "actions": scripted_actions(DOMINO_BY_0, DOMINO_BY_0_SCRIPT)},
            {"deal": deal_doc(make_deal("0-0 0-1 0-2 0-3 0-4 0-5 0-6",
                                        "1-1 1-2 1-3 1-4 1-5 1-6 2-2")),
             "actions": [{"seat": 1, "type": "bid", "amount": 15},
                         {"seat": 0, "type": "bid", "amount": 20},
                         {"seat": 1, "type": "accept"},
                         {"seat": 0, "type": "play", "tile": "0-5"}]},
        ])
        data = run_in_process(doc, with_legal=True)
        assert "error" not in data
        assert data["hands"] == [{"end": "domino", "jockey": None}, {"end": None, "jockey": 0}]
        accept = [a for a in data["actions"] if a["type"] == "accept"]
        assert accept == [{"hand": 1, "seat": 1, "type": "accept", "points": 5,
                           "balances": [145, 155]}]
        assert data["actions"][-1]["points"] == 5  # [0|5] alone counts 5
        assert data["balances"] == [150, 150]
        assert data["to_act"] == 1

    def test_a_hand_that_is_not_over(self) -> None:
        doc = example()
        doc["hands"].append({"deal": EXAMPLE["hands"][0]["deal"], "actions": []})
        data = run_in_process(doc)
        assert data["error"] == {"hand": 1, "index": 0, "reason": "hand 0 is not over"}


class TestPlatformRecords:
    """Records as the platform writes them: every step it applied, forced ones included."""

    @staticmethod
    def platform_record(match: Match, steps: list[Any], deal: Deal) -> dict[str, Any]:
        actions = [
            {**A.action_to_dict(s.seat, s.action), "t": s.now_us / 1e6}
            for s in steps
            if s.action < A.EVENT_BASE
        ]
        return example(rules=match.rules.record_dict(),
                       hands=[{"deal": deal_doc(deal), "actions": actions}])

    def test_forced_opening_that_ends_the_match(self) -> None:
        deal = make_deal("5-5 0-1 0-2 0-3 0-4 1-2 1-3", "0-0 1-1 2-2 3-3 4-4 2-3 2-4")
        match = Match(Rules(start_points=10))
        match.deal(deal)
        steps: list[Any] = []
        for seat in (0, 1):
            outcome = match.apply(seat, A.CONTINUE, 1_000_000)
            assert isinstance(outcome, Outcome)
            steps += outcome.steps
        assert match.balances == [20, 0]
        doc = self.platform_record(match, steps, deal)
        assert [a["type"] for a in doc["hands"][0]["actions"]] == ["continue", "continue", "play"]
        data = run_in_process(doc)
        assert "error" not in data
        assert data["result"] == {"winner": 0, "reason": "points"}
        assert data["balances"] == [20, 0]

    @pytest.mark.parametrize("listed", [(True, True), (False, True), (True, False),
                                        (False, False)])
    def test_blocked_hand_with_its_passes_listed_or_not(
        self, listed: tuple[bool, bool]
    ) -> None:
        deal, script, *_ = BLOCKED["4 and 18 -> 20"]
        doc = example(hands=[{"deal": deal_doc(deal), "actions": scripted_actions(deal, script)}])
        plain = run_in_process(doc)
        passes = [a for a in plain["actions"] if a["type"] == "pass"]
        assert len(passes) == 2
        for keep, entry in zip(listed, passes, strict=True):
            if keep:
                doc["hands"][0]["actions"].append({"seat": entry["seat"], "type": "pass"})
        assert run_in_process(doc) == plain

    def test_a_blocked_settlement_that_ends_the_match(self) -> None:
        """The passes come after the settlement that took the loser's last points."""
        deal, script, *_ = BLOCKED["17 -> 15"]
        # At 30 points each, seat 0 is down to 15 when the 15-point settlement comes.
        match = Match(Rules(start_points=30))
        match.deal(deal)
        steps: list[Any] = []
        moves = ["continue", "continue", *script.split()]
        for index, move in enumerate(moves):
            seat = index if index < 2 else match.to_act()
            assert seat is not None
            outcome = match.apply(seat, code(move), 0)
            assert isinstance(outcome, Outcome) and outcome.applied
            steps += outcome.steps
        assert match.result == Result(1, "points")
        assert [A.action_type(s.action) for s in steps[-2:]] == ["pass", "pass"]
        doc = self.platform_record(match, steps, deal)
        data = run_in_process(doc)
        assert "error" not in data
        assert data["result"] == {"winner": 1, "reason": "points"}
        assert data["hands"][0]["end"] == "match_over"
        assert data["balances"] == match.balances == [0, 60]

    def test_resign_before_a_hand_started_does_not_start_it(self) -> None:
        match = Match()
        match.deal(DOMINO_BY_0)
        outcome = match.apply(1, A.RESIGN, 3_000_000)
        assert isinstance(outcome, Outcome)
        doc = self.platform_record(match, outcome.steps, DOMINO_BY_0)
        assert doc["hands"][0]["actions"] == [{"seat": 1, "type": "resign", "t": 3.0}]
        data = run_in_process(doc)
        assert data["result"] == {"winner": 0, "reason": "resign"}
        assert data["balances"] == [150, 150]
        assert [a["type"] for a in data["actions"]] == ["resign"]  # no forced opening

    def test_abort_before_the_first_hand_started(self) -> None:
        doc = example()
        doc["hands"][0]["actions"] = [{"seat": 0, "type": "abort", "t": 2.0}]
        data = run_in_process(doc)
        assert data["result"] == {"winner": None, "reason": "abort"}
        assert [a["type"] for a in data["actions"]] == ["abort"]
