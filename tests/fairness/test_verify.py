"""Records of seeded matches verify; a changed deal, draw, roll, seed or commitment does not.

Every registered game at its seat counts is played in process (games/play/services.py) by
its computer player, exported as the platform exports it, and checked by
``fairness.verify_record`` and ``manage.py verify_deals`` (exit 0 / 1 / 2).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from games import registry
from games.engine.fairness import DIFFERS, UNVERIFIABLE, VERIFIED, verify_record
from games.models import Match, MatchSeat

from .helpers import TABLES, finished_record

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
JSON = dict[str, Any]


@pytest.fixture(scope="module")
def records(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[tuple[str, int], JSON]]:
    # Module-scoped: the suite's per-test settings are not in force here, and what it
    # writes is not rolled back by a test: it is deleted at the end.
    with django_db_blocker.unblock(), override_settings(FAIR_SEED_WAIT_S=0):
        made = {(game, seats): finished_record(game, seats) for game, seats in TABLES}
    yield made
    with django_db_blocker.unblock():
        ids = [record["fairness"]["match_id"] for record in made.values()]
        users = set(MatchSeat.objects.filter(match_id__in=ids).values_list("user_id", flat=True))
        Match.objects.filter(pk__in=ids).delete()
        User.objects.filter(pk__in=users).delete()


def check(record: JSON) -> Any:
    return verify_record(registry.by_format(record["format"]), record)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_a_finished_match_verifies(records: dict[Any, JSON], game: str, seats: int) -> None:
    record = records[(game, seats)]
    fairness = record["fairness"]
    assert fairness["server_seed"] and fairness["commitment"]
    assert fairness["player_seeds"] == [""] * seats  # nobody sent one: empty, shown as such
    result = check(record)
    assert result.status == VERIFIED, result.lines
    assert result.checked == len(registry.game(game).recorded_chances(record)) >= 1


# -------------------------------------------------------------------- tampering

def _swap_across_hands(deal: JSON) -> None:
    hands = deal["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def _domino_hands(record: JSON) -> list[JSON]:
    return record["hands"]


def tamper_deal(record: JSON) -> str:
    """A tile moved from one hand to another (in the last hand dealt); dice: a roll; the
    test-only Hidden Nim: two cards of its one deal swapped."""
    if record["format"] == "dice/1":
        return tamper_roll(record)
    if record["format"] == "hidden-nim/1":
        deck = record["deal"]["deck"]
        deck[0], deck[1] = deck[1], deck[0]
        return "the deal"
    hands = _domino_hands(record)
    _swap_across_hands(hands[-1]["deal"])
    return f"hand {len(hands) - 1}"


def tamper_draw(record: JSON) -> str:
    """The boneyard or bazaar order changed: another tile drawn first (dice: an order die
    or a re-roll)."""
    if record["format"] == "hidden-nim/1":
        return tamper_deal(record)  # one chance event only
    if record["format"] == "dice/1":
        for action in record["actions"]:
            if action["type"] == "improve" and action["dice"]:
                action["dice"][0] = action["dice"][0] % 6 + 1
                return "re-roll"
        return tamper_roll(record)
    for h, hand in enumerate(_domino_hands(record)):
        pile = hand["deal"].get("boneyard", hand["deal"].get("bazaar"))
        if pile and len(pile) >= 2:
            pile[0], pile[1] = pile[1], pile[0]
            return f"hand {h}"
    return tamper_deal(record)  # four seats of Fives deal every tile: nothing is drawn


def tamper_roll(record: JSON) -> str:
    for action in record["actions"]:
        if action["type"] == "roll":
            action["dice"][2] = action["dice"][2] % 6 + 1
            return ": roll"
    raise AssertionError("no roll in the record")


@pytest.mark.parametrize("tamper", [tamper_deal, tamper_draw, tamper_roll],
                         ids=["deal", "draw", "roll"])
@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_a_changed_chance_event_is_named(records: dict[Any, JSON], game: str, seats: int,
                                         tamper: Any) -> None:
    record = copy.deepcopy(records[(game, seats)])
    if tamper is tamper_roll and record["format"] != "dice/1":
        tamper = tamper_deal
    where = tamper(record)
    result = check(record)
    assert result.status == DIFFERS
    assert len(result.differing) == 1 and where in result.differing[0], result.lines


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_a_changed_seed_or_commitment_fails(records: dict[Any, JSON], game: str,
                                            seats: int) -> None:
    base = records[(game, seats)]
    seeded = copy.deepcopy(base)
    seeded["fairness"]["player_seeds"][0] = "not what was sent"
    assert check(seeded).status == DIFFERS
    assert check(seeded).differing  # every event is derived from the seeds
    for key in ("commitment", "server_seed"):
        changed = copy.deepcopy(base)
        value = changed["fairness"][key]
        changed["fairness"][key] = ("0" if value[0] != "0" else "1") + value[1:]
        result = check(changed)
        assert result.status == DIFFERS and "commitment" in result.lines[0]
    other_match = copy.deepcopy(base)
    other_match["fairness"]["match_id"] = "00000000-0000-4000-8000-000000000000"
    assert check(other_match).status == DIFFERS


def test_records_that_cannot_be_verified(records: dict[Any, JSON]) -> None:
    record = records[TABLES[0]]
    unseeded = {k: v for k, v in record.items() if k != "fairness"}
    result = check(unseeded)
    assert result.status == UNVERIFIABLE and "no seeds" in result.lines[0]
    running = copy.deepcopy(record)
    running["fairness"]["server_seed"] = None
    assert check(running).status == UNVERIFIABLE
    assert "not revealed" in check(running).lines[0]
    other = copy.deepcopy(record)
    other["fairness"]["algorithm"] = "something-else/9"
    assert check(other).status == UNVERIFIABLE
    broken = copy.deepcopy(record)
    broken["fairness"]["commitment"] = "XYZ"
    assert check(broken).status == UNVERIFIABLE


# ----------------------------------------------------------- manage.py verify_deals

def run_command(tmp_path: Path, document: Any) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return subprocess.run([sys.executable, "manage.py", "verify_deals", str(path), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)


def test_the_command_exits_0_1_2(records: dict[Any, JSON], tmp_path: Path) -> None:
    for (game, seats), record in records.items():
        done = run_command(tmp_path, record)
        assert done.returncode == 0, (game, seats, done.stdout, done.stderr)
        assert json.loads(done.stdout)["status"] == 0
    record = copy.deepcopy(records[TABLES[0]])
    where = tamper_deal(record)
    done = run_command(tmp_path, record)
    assert done.returncode == 1 and where in json.loads(done.stdout)["differing"][0]
    assert run_command(tmp_path, "{not json").returncode == 2
    assert run_command(tmp_path, {"format": "chess/1"}).returncode == 2
    unseeded = {k: v for k, v in records[TABLES[0]].items() if k != "fairness"}
    done = run_command(tmp_path, unseeded)
    assert done.returncode == 2 and "cannot be verified" in done.stdout


def test_a_seeded_record_still_replays(records: dict[Any, JSON], tmp_path: Path) -> None:
    """The fairness object is an addition: ``replay`` reads the record as before."""
    for record in records.values():
        path = tmp_path / "r.json"
        path.write_text(json.dumps(record))
        done = subprocess.run([sys.executable, "manage.py", "replay", str(path), "--json"],
                              cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
