"""Clubs through the API: create, join by each policy, requests, roles, removal, the
invite link, leaving; the club page's members, ratings and leaderboard; bad input."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ratings.models import Rating
from tournaments.models import Club, Membership

from .helpers import ApiPlayer, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def people() -> dict[str, ApiPlayer]:
    return {user.username: ApiPlayer(user) for user in users("olga", "adam", "mia", "nick")}


def make_club(owner: ApiPlayer, policy: str = "open", name: str = "Riverside") -> int:
    data = owner.ok("POST", "/api/clubs", {"name": name, "description": "Tuesdays.",
                                           "language": "en", "policy": policy})
    assert data["club"]["me"]["role"] == "owner"
    return int(data["club"]["id"])


def test_an_open_club_takes_members_and_shows_them_with_their_ratings(people) -> None:
    club = make_club(people["olga"])
    joined = people["mia"].ok("POST", f"/api/clubs/{club}/join")
    assert joined["status"] == "active" and joined["club"]["me"]["member"]
    Rating.objects.create(user=people["mia"].user, game="dice", rating=1612, games=12)
    detail = people["adam"].ok("GET", f"/api/clubs/{club}")
    rows = {m["username"]: m for m in detail["member_list"]}
    assert set(rows) == {"olga", "mia"} and rows["olga"]["role"] == "owner"
    assert rows["mia"]["ratings"]["dice"] == {"rating": 1612, "games": 12, "provisional": False}
    assert rows["mia"]["ratings"]["fives"] is None
    board = people["adam"].ok("GET", f"/api/clubs/{club}/leaderboard?game=dice")
    assert [row["username"] for row in board["rows"]] == ["mia"]
    status, answer = people["adam"].call("GET", f"/api/clubs/{club}/leaderboard?game=chess")
    assert status == 400 and answer["code"] == "bad_request"


def test_a_club_by_request_waits_for_an_admin(people) -> None:
    club = make_club(people["olga"], "request")
    assert people["mia"].ok("POST", f"/api/clubs/{club}/join")["status"] == "requested"
    status, answer = people["mia"].call("POST", f"/api/clubs/{club}/join")
    assert status == 400 and "waiting" in answer["message"]
    status, answer = people["adam"].call("POST", f"/api/clubs/{club}/requests/accept",
                                         {"username": "mia"})
    assert status == 403 and answer["code"] == "forbidden"
    requests = people["olga"].ok("GET", f"/api/clubs/{club}")["requests"]
    assert [r["username"] for r in requests] == ["mia"]
    people["olga"].ok("POST", f"/api/clubs/{club}/requests/accept", {"username": "mia"})
    assert Membership.objects.get(user=people["mia"].user).status == "active"
    people["nick"].ok("POST", f"/api/clubs/{club}/join")
    people["olga"].ok("POST", f"/api/clubs/{club}/requests/decline", {"username": "nick"})
    assert not Membership.objects.filter(user=people["nick"].user).exists()


def test_an_invite_club_needs_the_link_and_a_new_link_ends_the_old(people) -> None:
    club = make_club(people["olga"], "invite")
    status, answer = people["mia"].call("POST", f"/api/clubs/{club}/join")
    assert status == 400 and "invite" in answer["message"]
    url = people["olga"].ok("GET", f"/api/clubs/{club}")["invite_url"]
    code = url.rstrip("/").rsplit("/", 1)[1]
    assert people["mia"].ok("POST", f"/api/clubs/{club}/join", {"code": code})["status"] == "active"
    fresh = people["olga"].ok("POST", f"/api/clubs/{club}/invite")["invite_url"]
    assert fresh != url
    status, answer = people["adam"].call("POST", f"/api/clubs/{club}/join", {"code": code})
    assert status == 400 and "not valid" in answer["message"]
    assert "invite_url" not in people["mia"].ok("GET", f"/api/clubs/{club}")  # admins only
    page = Client()
    page.force_login(people["adam"].user)
    assert page.get(url).status_code == 200


def test_roles_admins_and_the_owner(people) -> None:
    club = make_club(people["olga"])
    for name in ("adam", "mia", "nick"):
        people[name].ok("POST", f"/api/clubs/{club}/join")
    people["olga"].ok("POST", f"/api/clubs/{club}/members/role",
                      {"username": "adam", "role": "admin"})
    # An admin appoints admins and removes members, not admins; only the owner demotes.
    people["adam"].ok("POST", f"/api/clubs/{club}/members/role",
                      {"username": "mia", "role": "admin"})
    status, _ = people["adam"].call("POST", f"/api/clubs/{club}/members/remove",
                                    {"username": "mia"})
    assert status == 403
    status, _ = people["adam"].call("POST", f"/api/clubs/{club}/members/role",
                                    {"username": "mia", "role": "member"})
    assert status == 403
    people["adam"].ok("POST", f"/api/clubs/{club}/members/remove", {"username": "nick"})
    status, answer = people["adam"].call("POST", f"/api/clubs/{club}/members/remove",
                                         {"username": "olga"})
    assert status == 400 and "owner" in answer["message"]
    status, answer = people["nick"].call("POST", f"/api/clubs/{club}/members/remove",
                                         {"username": "mia"})
    assert status == 403
    # The owner hands the club over and stays an admin; an owner cannot just leave.
    status, answer = people["olga"].call("POST", f"/api/clubs/{club}/leave")
    assert status == 400 and "owner" in answer["message"]
    people["olga"].ok("POST", f"/api/clubs/{club}/members/role",
                      {"username": "mia", "role": "owner"})
    roles = dict(Membership.objects.filter(club_id=club).values_list("user__username", "role"))
    assert roles == {"olga": "admin", "adam": "admin", "mia": "owner"}
    people["olga"].ok("POST", f"/api/clubs/{club}/leave")
    assert not Membership.objects.filter(club_id=club, user=people["olga"].user).exists()


@pytest.mark.parametrize("body,words", [
    ({"name": "ab"}, "3 to 60"),
    ({"name": "Good name", "policy": "secret"}, "'policy'"),
    ({"name": "Good name", "language": "xx"}, "'language'"),
    ({"name": "Good name", "colour": "red"}, "Unknown field"),
    ({"name": 5}, "'name'"),
])
def test_bad_club_input_is_refused_and_nothing_is_made(people, body, words) -> None:
    status, answer = people["olga"].call("POST", "/api/clubs", body)
    assert status == 400 and answer["ok"] is False and words in answer["message"]
    assert not Club.objects.exists()


def test_a_name_is_taken_once_whatever_its_case(people) -> None:
    make_club(people["olga"], name="Riverside")
    status, answer = people["adam"].call("POST", "/api/clubs", {"name": "riverside"})
    assert status == 400 and "already" in answer["message"]
    assert Club.objects.count() == 1


def test_the_club_pages_render(people) -> None:
    club = make_club(people["olga"])
    page = Client()
    assert page.get("/clubs/").status_code == 200
    assert b"Riverside" in page.get(f"/clubs/{club}/").content
    page.force_login(people["olga"].user)
    body = page.get(f"/clubs/{club}/").content.decode()
    assert 'data-testid="tournament-form"' in body and 'data-testid="invite-url"' in body
    assert page.get("/clubs/999/").status_code == 404
    status, answer = people["olga"].call("GET", "/api/clubs/999")
    assert status == 404 and answer["code"] == "not_found"


def test_the_api_needs_a_login() -> None:
    answer = Client().post("/api/clubs", data=b"{}", content_type="application/json")
    assert answer.status_code == 401 and answer.json()["code"] == "login_required"
    User.objects.create_user("x")
