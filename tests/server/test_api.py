"""The HTTP JSON API (games/web/api.py, docs/api.md) through Django's test client."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import AccessToken
from games.models import Match, Seek
from games.play.lobby import bot_user, do_rematch
from games.play.services import do_create_match
from games.play.store import load_engine
from games.spectacular_bid.record import parse
from games.spectacular_bid.replay import replay, report
from tests.api_client import ApiClient, accepted_match

pytestmark = pytest.mark.django_db

JSON = dict[str, Any]
CSRF_SECRET = "a" * 32  # any 32 letters: the cookie and the header must agree


def new_match(creator: ApiClient, opponent: ApiClient, rated: bool = False) -> JSON:
    """A challenge from ``creator``, accepted by ``opponent``: the match summary."""
    return accepted_match(creator, opponent, rated=rated)


# ------------------------------------------------------------- authentication

def test_a_token_authenticates(alice) -> None:
    response = alice.get("/api/me")
    assert response.status_code == 200
    assert response.json() == {"username": "alice", "display_name": "alice"}
    token = AccessToken.objects.get(user=alice.user)
    assert token.last_used_at is not None


@pytest.mark.parametrize("header", [None, "Bearer sbt_not-a-token", "Bearer nonsense",
                                    "Basic YWxpY2U6cHc="])
def test_no_or_a_bad_token_is_refused(alice, header) -> None:
    extra = {} if header is None else {"HTTP_AUTHORIZATION": header}
    response = Client().get("/api/me", **extra)
    assert response.status_code == 401
    body = response.json()
    assert body["ok"] is False and body["message"]
    if header is not None and header.startswith("Bearer"):
        assert body["code"] == "bad_token"


def test_a_revoked_token_is_refused(alice) -> None:
    assert alice.get("/api/me").status_code == 200
    AccessToken.objects.filter(user=alice.user).update(revoked_at=timezone.now())
    response = alice.get("/api/me")
    assert response.status_code == 401
    assert response.json()["code"] == "bad_token"
    assert alice.post("/api/seeks", {"rated": True}).status_code == 401


def test_a_token_of_an_inactive_user_is_refused(alice) -> None:
    User.objects.filter(pk=alice.user.pk).update(is_active=False)
    assert alice.get("/api/me").status_code == 401


def test_tokens_are_managed_with_the_session_only(alice) -> None:
    assert alice.get("/api/tokens").status_code == 403
    assert alice.post("/api/tokens", {"name": "x"}).status_code == 403
    browser = Client()
    browser.force_login(alice.user)
    made = browser.post("/api/tokens", data=json.dumps({"name": "laptop"}),
                        content_type="application/json")
    assert made.status_code == 201
    raw = made.json()["token"]
    assert raw.startswith("sbt_")
    listed = browser.get("/api/tokens").json()["tokens"]
    assert "laptop" in [t["name"] for t in listed]
    assert all("token" not in t and "digest" not in t for t in listed)
    assert Client().get("/api/me", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 200
    revoked = browser.post(f"/api/tokens/{made.json()['id']}/revoke")
    assert revoked.status_code == 200
    assert Client().get("/api/me", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401
    assert browser.post(f"/api/tokens/{made.json()['id']}/revoke").status_code == 404


def test_a_session_post_needs_the_csrf_token(alice) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice.user)
    assert browser.get("/api/me").status_code == 200  # safe methods need no token
    refused = browser.post("/api/seeks", data=json.dumps({"rated": True}),
                           content_type="application/json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "csrf"
    assert not Seek.objects.exists()
    # With the cookie and the matching header it goes through.
    browser.cookies["csrftoken"] = CSRF_SECRET
    accepted = browser.post("/api/seeks", data=json.dumps({"rated": True}),
                            content_type="application/json", HTTP_X_CSRFTOKEN=CSRF_SECRET)
    assert accepted.status_code == 201
    assert Seek.objects.filter(creator=alice.user).count() == 1
    # A wrong header is refused again.
    wrong = browser.post("/api/seeks", data=json.dumps({"rated": False}),
                         content_type="application/json", HTTP_X_CSRFTOKEN="b" * 32)
    assert wrong.status_code == 403


def test_a_token_post_needs_no_csrf_token(alice) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/api/seeks", data=json.dumps({"rated": True}),
                           content_type="application/json",
                           HTTP_AUTHORIZATION=f"Bearer {alice.token}")
    assert response.status_code == 201


def test_wrong_methods_are_refused(alice) -> None:
    assert alice.client.delete("/api/seeks",
                               HTTP_AUTHORIZATION=f"Bearer {alice.token}").status_code == 405
    assert alice.get("/api/matches/computer").status_code == 405


# ----------------------------------------------------------------- the lobby

def test_challenge_a_named_player(alice, bob, carol) -> None:
    made = alice.post("/api/seeks", {"opponent": "BOB", "rated": False})  # any case
    assert made.status_code == 201
    seek_id = made.json()["seek"]
    seeks = bob.get("/api/seeks").json()
    assert [s["id"] for s in seeks["challenges_to_me"]] == [seek_id]
    assert seeks["open"] == []
    assert [s["id"] for s in alice.get("/api/seeks").json()["my_challenges"]] == [seek_id]
    # Only Bob may accept it.
    assert carol.post(f"/api/seeks/{seek_id}/accept").status_code == 400
    assert alice.post(f"/api/seeks/{seek_id}/accept").status_code == 400
    accepted = bob.post(f"/api/seeks/{seek_id}/accept")
    assert accepted.status_code == 201
    match = accepted.json()["match"]
    assert match["players"] == ["alice", "bob"]  # the challenger sits in seat 0
    assert match["rated"] is False and match["status"] == "active"
    assert match["url"] == f"/matches/{match['id']}/"
    assert Seek.objects.get(pk=seek_id).status == Seek.Status.ACCEPTED
    again = bob.post(f"/api/seeks/{seek_id}/accept")
    assert again.status_code == 400
    assert again.json()["message"]


def test_challenge_yourself_or_nobody(alice) -> None:
    response = alice.post("/api/seeks", {"opponent": "alice", "rated": True})
    assert response.status_code == 400
    body = response.json()
    assert (body["ok"], body["code"]) == (False, "bad_request")
    assert "yourself" in body["message"]
    missing = alice.post("/api/seeks", {"opponent": "nobody-here"})
    assert missing.status_code == 400
    assert "nobody-here" in missing.json()["message"]
    assert not Seek.objects.exists()


def test_the_computer_is_played_through_its_own_endpoint(alice) -> None:
    alice.post("/api/matches/computer")  # creates the bot user
    response = alice.post("/api/seeks", {"opponent": "computer"})
    assert response.status_code == 400


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b'"text"'])
def test_a_bad_lobby_body_is_a_bad_request(alice, raw) -> None:
    response = alice.post("/api/seeks", raw=raw)
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


def test_an_open_seek_accepted_by_another_player(alice, bob) -> None:
    made = alice.post("/api/seeks", {"rated": True})
    assert made.status_code == 201
    seek_id = made.json()["seek"]
    # Seeking again returns the same open seek.
    assert alice.post("/api/seeks", {"rated": True}).json()["seek"] == seek_id
    rows = bob.get("/api/seeks").json()["open"]
    assert [(r["id"], r["creator"], r["mine"]) for r in rows] == [(seek_id, "alice", False)]
    assert alice.get("/api/seeks").json()["open"][0]["mine"] is True
    own = alice.post(f"/api/seeks/{seek_id}/accept")
    assert own.status_code == 400
    accepted = bob.post(f"/api/seeks/{seek_id}/accept")
    assert accepted.status_code == 201
    match = accepted.json()["match"]
    assert match["players"] == ["alice", "bob"] and match["rated"] is True
    assert Match.objects.get(pk=match["id"]).rated
    assert bob.get("/api/seeks").json()["open"] == []
    listed = bob.get("/api/matches?status=active").json()["matches"]
    assert [m["id"] for m in listed] == [match["id"]]


def test_cancel_a_seek_and_decline_a_challenge(alice, bob, carol) -> None:
    seek_id = alice.post("/api/seeks", {"rated": True}).json()["seek"]
    assert carol.post(f"/api/seeks/{seek_id}/cancel").status_code == 400  # not hers
    assert alice.post(f"/api/seeks/{seek_id}/cancel").json() == {"ok": True}
    assert Seek.objects.get(pk=seek_id).status == Seek.Status.CANCELLED
    assert bob.post(f"/api/seeks/{seek_id}/accept").status_code == 400
    assert alice.post(f"/api/seeks/{seek_id}/cancel").status_code == 400  # no longer open

    challenge = alice.post("/api/seeks", {"opponent": "bob"}).json()["seek"]
    assert bob.post(f"/api/seeks/{challenge}/cancel").status_code == 200
    assert Seek.objects.get(pk=challenge).status == Seek.Status.DECLINED
    assert bob.post("/api/seeks/999999/cancel").status_code == 400


def test_play_the_computer(alice) -> None:
    response = alice.post("/api/matches/computer")
    assert response.status_code == 201
    match = response.json()["match"]
    assert match["players"] == ["alice", "computer"]
    assert match["rated"] is False
    computer = User.objects.get(username="computer")
    assert computer.profile.is_bot
    assert not computer.has_usable_password()
    # A second game reuses the same bot user.
    assert alice.post("/api/matches/computer").status_code == 201
    assert User.objects.filter(username="computer").count() == 1


def test_a_one_device_match(alice, bob) -> None:
    response = alice.post("/api/matches/one-device")
    assert response.status_code == 201
    match = response.json()["match"]
    assert match["one_device"] is True and match["players"] == ["alice", "alice"]
    snap = alice.get(f"/api/matches/{match['id']}").json()
    assert [v["seat"] for v in snap["views"]] == [0, 1]
    watched = bob.get(f"/api/matches/{match['id']}").json()
    assert "views" not in watched and "hand" not in watched["view"]


# ------------------------------------------------------------------- matches

def test_a_snapshot_for_a_player_and_for_a_spectator(alice, bob, carol) -> None:
    match = new_match(alice, bob)
    mine = alice.get(f"/api/matches/{match['id']}")
    assert mine.status_code == 200
    snap = mine.json()
    assert snap["type"] == "state" and snap["match"]["id"] == match["id"]
    assert snap["view"]["seat"] == 0
    assert len(snap["view"]["hand"]) == 7
    assert snap["view"]["legal"] == [{"seat": 0, "type": "continue"}]
    theirs = bob.get(f"/api/matches/{match['id']}").json()["view"]
    assert theirs["seat"] == 1 and not set(theirs["hand"]) & set(snap["view"]["hand"])
    watched = carol.get(f"/api/matches/{match['id']}").json()
    assert watched["view"]["seat"] is None
    assert "hand" not in watched["view"]
    assert watched["view"]["legal"] == []
    assert watched["view"]["hand_counts"] == [7, 7]
    assert carol.get(f"/api/matches/{uuid.uuid4()}").status_code == 404


def test_commands_over_http(alice, bob, carol) -> None:
    match = new_match(alice, bob)
    url = f"/api/matches/{match['id']}/commands"
    bad_json = alice.post(url, raw=b"{oops")
    assert bad_json.status_code == 400
    assert bad_json.json()["code"] == "bad_json"
    malformed = alice.post(url, {"action": {"seat": 0, "type": "fly"}})
    assert (malformed.status_code, malformed.json()["code"]) == (400, "bad_request")
    empty = alice.post(url)
    assert (empty.status_code, empty.json()["code"]) == (400, "bad_request")
    other_seat = alice.post(url, {"action": {"seat": 1, "type": "continue"}})
    assert (other_seat.status_code, other_seat.json()["code"]) == (403, "forbidden")
    spectator = carol.post(url, {"action": {"seat": 0, "type": "continue"}})
    assert (spectator.status_code, spectator.json()["code"]) == (403, "forbidden")
    unknown = alice.post(f"/api/matches/{uuid.uuid4()}/commands",
                         {"action": {"seat": 0, "type": "continue"}})
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    version = Match.objects.get(pk=match["id"]).version

    ok = alice.post(url, {"action": {"seat": 0, "type": "continue"}, "version": version})
    assert ok.status_code == 200
    assert ok.json() == {"ok": True, "code": "ok", "message": "", "version": version + 1}
    twice = alice.post(url, {"action": {"seat": 0, "type": "continue"}})
    assert (twice.status_code, twice.json()["code"]) == (409, "illegal")
    assert bob.post(url, {"action": {"seat": 1, "type": "continue"}}).status_code == 200
    m = Match.objects.get(pk=match["id"])
    seat = load_engine(m).to_act()
    player = alice if seat == 0 else bob
    action = player.get(f"/api/matches/{match['id']}").json()["view"]["legal"][0]
    stale = player.post(url, {"action": action, "version": m.version - 1})
    assert (stale.status_code, stale.json()["code"]) == (409, "stale")
    applied = player.post(url, {"action": action, "version": m.version})
    assert applied.status_code == 200 and applied.json()["version"] > m.version


def test_the_record_after_the_match_and_not_before(alice, bob, carol) -> None:
    match = new_match(alice, bob, rated=True)
    record_url = f"/api/matches/{match['id']}/record"
    running = alice.get(record_url)
    assert running.status_code == 409
    assert running.json()["code"] == "running"
    url = f"/api/matches/{match['id']}/commands"
    for client, seat in ((alice, 0), (bob, 1)):
        assert client.post(url, {"action": {"seat": seat, "type": "continue"}}).status_code == 200
    resigned = bob.post(url, {"action": {"seat": 1, "type": "resign"}})
    assert resigned.status_code == 200
    summary = alice.get("/api/matches?status=finished").json()["matches"]
    assert [(m["id"], m["winner"], m["reason"]) for m in summary] == [
        (match["id"], 0, "resign")]
    after = bob.post(url, {"action": {"seat": 1, "type": "continue"}})
    assert (after.status_code, after.json()["code"]) == (409, "over")

    response = carol.get(record_url)  # anybody may download a finished match
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["format"] == "spectacular-bid/1"
    assert record["players"] == ["alice", "bob"]
    assert len(record["hands"]) == 1
    assert len(record["hands"][0]["deal"]["boneyard"]) == 14
    out = report(replay(parse(record)))
    assert "error" not in out
    assert out["result"] == {"winner": 0, "reason": "resign"}
    assert out["balances"] == Match.objects.get(pk=match["id"]).scores
    assert carol.get(f"/api/matches/{uuid.uuid4()}/record").status_code == 404


def test_rematch(alice, bob, carol) -> None:
    match = new_match(alice, bob)
    rematch_url = f"/api/matches/{match['id']}/rematch"
    early = bob.post(rematch_url)
    assert early.status_code == 400  # still being played
    url = f"/api/matches/{match['id']}/commands"
    assert alice.post(url, {"action": {"seat": 0, "type": "resign"}}).status_code == 200
    assert carol.post(rematch_url).status_code == 400  # not her match
    response = bob.post(rematch_url)
    assert response.status_code == 201
    seek = Seek.objects.get(pk=response.json()["seek"])
    assert (seek.creator, seek.opponent, seek.rated) == (bob.user, alice.user, False)
    accepted = alice.post(f"/api/seeks/{seek.pk}/accept")
    assert accepted.status_code == 201
    assert accepted.json()["match"]["players"] == ["bob", "alice"]
    assert bob.post(f"/api/matches/{uuid.uuid4()}/rematch").status_code == 404


def test_rematch_for_every_table(alice, bob) -> None:
    """Alone: a new game at once; at a larger table: the same table offered again."""
    solo = do_create_match(alice.user, rated=False, game="dice")
    Match.objects.filter(pk=solo.pk).update(status=Match.Status.FINISHED)
    again = do_rematch(alice.user, Match.objects.get(pk=solo.pk))
    assert isinstance(again, Match) and (again.game, again.seat_count) == ("dice", 1)
    computer = bot_user()
    table = do_create_match(alice.user, bob.user, computer, computer, rated=False, game="fives",
                            rules={"target": 100})
    Match.objects.filter(pk=table.pk).update(status=Match.Status.FINISHED)
    offered = do_rematch(bob.user, Match.objects.get(pk=table.pk))
    assert isinstance(offered, Seek)
    assert (offered.game, offered.seats, offered.computer_seats, offered.opponent) == (
        "fives", 4, 2, None)
    assert offered.rules["target"] == 100


def test_rematch_the_computer_starts_a_match(alice) -> None:
    match = alice.post("/api/matches/computer").json()["match"]
    url = f"/api/matches/{match['id']}/commands"
    assert alice.post(url, {"action": {"seat": 0, "type": "abort"}}).status_code == 200
    assert Match.objects.get(pk=match["id"]).status == Match.Status.ABORTED
    response = alice.post(f"/api/matches/{match['id']}/rematch")
    assert response.status_code == 201
    again = response.json()["match"]
    assert again["players"] == ["alice", "computer"] and again["id"] != match["id"]
