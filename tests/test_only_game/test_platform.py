"""Hidden Nim through the platform: a table opened and taken in the lobby over HTTP, the
match played out, its record downloaded, replayed by ``manage.py replay`` and
``verify_deals``, and shown on the replay page; its match and rules pages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from games.engine.fairness import VERIFIED, verify_record
from games.models import Match, Seek
from games.play.services import do_command
from games.play.store import load_engine
from tests.api_client import ApiClient

from .helpers import KEY, play_out, plugin, users

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def seated_match(rules: dict[str, int] | None = None) -> tuple[Match, list[ApiClient]]:
    """Alice opens a table in the lobby (POST /api/seeks), Bob takes it."""
    alice, bob = (ApiClient(user) for user in users("alice", "bob"))
    opened = alice.post("/api/seeks", {"game": KEY, "rated": False, "seats": 2,
                                       "rules": rules})
    assert opened.status_code == 201, opened.content
    seek = Seek.objects.get(pk=opened.json()["seek"])
    assert seek.game == KEY
    listed = bob.get("/api/seeks").json()
    assert KEY in json.dumps(listed)
    taken = bob.post(f"/api/seeks/{seek.pk}/accept")
    assert taken.status_code == 201, taken.content
    match = Match.objects.get(pk=taken.json()["match"]["id"])
    assert match.game == KEY and match.seat_count == 2
    return match, [alice, bob]


def test_the_lobby_offers_it() -> None:
    html = Client().get("/").content.decode()
    assert "Hidden Nim" in html and KEY in html


def test_a_lobby_table_plays_out_and_its_record_replays(tmp_path: Path) -> None:
    match, (alice, bob) = seated_match({"pile": 9})
    # While it runs, each player's snapshot shows only its own bonus; the record waits.
    for seat, client in enumerate((alice, bob)):
        view = client.get(f"/api/matches/{match.pk}").json()["view"]
        assert view["pile"] == 9 and view["bonuses"][seat] in range(1, 11)
        assert view["bonuses"][1 - seat] is None
    assert alice.get(f"/api/matches/{match.pk}/record").status_code == 409

    done = play_out(match, [alice.user, bob.user])
    assert done.status == Match.Status.FINISHED
    final = plugin().view(load_engine(done), None)
    assert final["pile"] == 0 and None not in final["bonuses"]

    response = Client().get(f"/api/matches/{done.pk}/record")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = response.json()
    assert record["format"] == "hidden-nim/1" and record["rules"] == {"pile": 9}
    assert record["deal"]["deck"][:2] == final["bonuses"]
    assert sum(a["count"] for a in record["actions"]) == 9
    assert verify_record(plugin(), record).status == VERIFIED

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    for command in ("replay", "verify_deals"):
        run = subprocess.run([sys.executable, "manage.py", command, str(path), "--json"],
                             cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
        assert run.returncode == 0, (command, run.stdout, run.stderr)
        if command == "replay":
            assert plugin().replayed_scores(json.loads(run.stdout)) == done.scores

    page = Client().get(f"/matches/{done.pk}/replay/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "games/hidden_nim/replay.js" in html and "Hidden Nim" in html
    frames = Client().get(f"/api/matches/{done.pk}/frames").json()
    assert frames["frames"][0]["action"]["type"] == "deal"
    assert frames["frames"][-1]["pile"] == 0 and frames["scores"] == done.scores
    assert frames["error"] is None


def test_resigning_ends_the_match_at_once() -> None:
    match, (_alice, bob) = seated_match()
    result = do_command(match.pk, bob.user, {"action": {"seat": 1, "type": "resign"}})
    assert result.ok, result
    done = Match.objects.get(pk=match.pk)
    assert done.status == Match.Status.FINISHED
    assert plugin().ranks(load_engine(done)) == [1, 2]
    record = Client().get(f"/api/matches/{done.pk}/record").json()
    assert record["actions"][-1] == {"seat": 1, "type": "resign", "t": record["actions"][-1]["t"]}
    outcome = plugin().replay_document(json.dumps(record).encode(), with_legal=True)
    assert outcome.exit_status == 0 and outcome.report["result"]["reason"] == "resign"


def test_its_match_page_includes_its_board(client: Client) -> None:
    match, (alice, _bob) = seated_match()
    client.force_login(alice.user)
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="hn-board"' in html
    assert "games/hidden_nim/board.js" in html


def test_its_rules_page_answers() -> None:
    page = Client().get(f"/rules/{KEY}/")
    assert page.status_code == 200
    assert "How to play Hidden Nim" in page.content.decode()
