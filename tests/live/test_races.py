"""Ten identical requests by one user at the same moment, spread over both daphne
processes: every answer is a success or a JSON refusal with a message (never a 5xx), and
the database ends as one request would have left it."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import AccessToken
from games.models import Match, Seek
from games.play.services import do_create_match
from tests.tournaments_app.helpers import club_of, new_tournament
from tournaments.models import Club, Entry, Membership

from .helpers import make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

AT_ONCE = 10
CSRF = "r" * 32  # any 32 letters: the cookie's secret, sent back in the header


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]


def _send(url: str, headers: dict[str, str], body: dict[str, Any] | None) -> Answer:
    data = json.dumps(body).encode() if body is not None else b""
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        parsed = json.loads(raw)
    except ValueError:  # a 500 page, say: kept as text for the failure message
        parsed = {"not_json": raw[:300].decode(errors="replace")}
    return Answer(status, parsed if isinstance(parsed, dict) else {"not_object": parsed})


Body = dict[str, Any] | None


def at_once(stack: Any, path: str | list[str], headers: dict[str, str],
            body: Body | list[Body] = None) -> list[Answer]:
    """``AT_ONCE`` POSTs of ``path``, released together, alternating between the daphnes
    (``path`` and ``body`` the same for all, or lists: one each)."""
    paths = path if isinstance(path, list) else [path] * AT_ONCE
    bodies = body if isinstance(body, list) else [body] * AT_ONCE
    barrier = threading.Barrier(AT_ONCE)
    answers: list[Answer | None] = [None] * AT_ONCE

    def one(index: int) -> None:
        url = stack.urls[index % len(stack.urls)] + paths[index]
        barrier.wait(timeout=30)
        try:
            answers[index] = _send(url, headers, bodies[index])
        except Exception as exc:  # noqa: BLE001 - a dropped connection is a failure too
            answers[index] = Answer(599, {"exception": repr(exc)})

    threads = [threading.Thread(target=one, args=(i,)) for i in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    done = [answer for answer in answers if answer is not None]
    assert len(done) == AT_ONCE, "a request did not come back"
    assert_no_server_error(done)
    return done


def assert_no_server_error(answers: list[Answer]) -> None:
    """Successes, or refusals in the API's error shape with a message for the user."""
    for answer in answers:
        assert answer.status < 500, answers
        if answer.status >= 400:
            assert answer.status in (400, 409), answers
            assert answer.body.get("ok") is False, answers
            assert isinstance(answer.body.get("message"), str) and answer.body["message"]


def statuses(answers: list[Answer]) -> list[int]:
    return sorted(answer.status for answer in answers)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def session_headers(user: User) -> dict[str, str]:
    """A browser's: its session cookie and the CSRF cookie echoed in the header."""
    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value
    return {"Cookie": f"sessionid={session}; csrftoken={CSRF}", "X-CSRFToken": CSRF}


# ---------------------------------------------------------------------- clubs

def _club(policy: str) -> Club:
    owner = User.objects.create_user("owner")
    return club_of(owner, [], name=f"Race club {policy}", policy=policy)


@pytest.mark.parametrize("policy,status", [("open", Membership.Status.ACTIVE),
                                           ("request", Membership.Status.REQUESTED)])
def test_joining_a_club_ten_times_at_once(live_stack, policy, status) -> None:
    club = _club(policy)
    user, token = make_player("joiner")
    answers = at_once(live_stack, f"/api/clubs/{club.pk}/join", bearer(token))
    assert statuses(answers) == [200] + [400] * (AT_ONCE - 1)
    assert [a.body["status"] for a in answers if a.status == 200] == [status]
    assert list(Membership.objects.filter(club=club, user=user)
                .values_list("status", flat=True)) == [status]


def test_creating_a_club_ten_times_at_once(live_stack) -> None:
    """A name is taken once whatever its case, by the database too."""
    user, token = make_player("founder")
    names = ["Twin Peaks", "twin peaks", "TWIN PEAKS", "Twin peaks", "twin Peaks"] * 2
    answers = at_once(live_stack, "/api/clubs", bearer(token), [{"name": n} for n in names])
    assert statuses(answers) == [201] + [400] * (AT_ONCE - 1)
    club = Club.objects.get(name__iexact="twin peaks")
    assert list(Membership.objects.filter(club=club).values_list("user", "role")) == [
        (user.pk, Membership.Role.OWNER)]


def test_renaming_two_clubs_to_one_name_at_once(live_stack) -> None:
    user, token = make_player("renamer")
    first, second = (club_of(user, [], name=name) for name in ("North", "South"))
    paths = [f"/api/clubs/{club.pk}" for club in (first, second)] * (AT_ONCE // 2)
    bodies = [{"name": name} for name in ("Harbour", "harbour")] * (AT_ONCE // 2)
    at_once(live_stack, paths, bearer(token), bodies)
    assert Club.objects.filter(name__iexact="harbour").count() == 1


# ---------------------------------------------------------------------- tournaments

def test_joining_a_tournament_ten_times_at_once(live_stack) -> None:
    owner = User.objects.create_user("organizer")
    user, token = make_player("entrant")
    club = club_of(owner, [user], name="Race tournaments")
    later = (timezone.now() + timedelta(hours=1)).isoformat()  # the beat leaves it alone
    tournament = new_tournament(owner, club, starts_at=later)
    answers = at_once(live_stack, f"/api/tournaments/{tournament.pk}/join", bearer(token))
    assert statuses(answers) == [200] + [400] * (AT_ONCE - 1)
    assert Entry.objects.filter(tournament=tournament, user=user).count() == 1


# ---------------------------------------------------------------------- the lobby

def _open_seeks(user: User, **settings: Any) -> list[int]:
    return list(Seek.objects.filter(creator=user, status=Seek.Status.OPEN, **settings)
                .values_list("pk", flat=True))


def test_seeking_ten_times_at_once_opens_one_table(live_stack) -> None:
    user, token = make_player("seeker")
    body = {"rated": False, "game": "dice", "seats": 3}
    answers = at_once(live_stack, "/api/seeks", bearer(token), body)
    assert statuses(answers) == [201] * AT_ONCE
    seeks = _open_seeks(user, opponent__isnull=True)
    assert len(seeks) == 1
    assert {answer.body["seek"] for answer in answers} == set(seeks)


def test_challenging_ten_times_at_once_sends_one_challenge(live_stack) -> None:
    user, token = make_player("challenger")
    opponent = User.objects.create_user("challenged")
    body = {"opponent": "challenged", "rated": False}
    answers = at_once(live_stack, "/api/seeks", bearer(token), body)
    assert statuses(answers) == [201] * AT_ONCE
    challenges = _open_seeks(user, opponent=opponent)
    assert len(challenges) == 1
    assert {answer.body["seek"] for answer in answers} == set(challenges)


def test_accepting_a_seek_ten_times_at_once_makes_one_match(live_stack) -> None:
    creator = User.objects.create_user("host")
    user, token = make_player("guest")
    seek = Seek.objects.create(creator=creator, rated=False, game="dice")
    answers = at_once(live_stack, f"/api/seeks/{seek.pk}/accept", bearer(token))
    assert statuses(answers) == [201] + [400] * (AT_ONCE - 1)
    seek.refresh_from_db()
    assert seek.status == Seek.Status.ACCEPTED
    assert Match.objects.filter(match_seats__user=user).count() == 1
    assert [a.body["match"]["id"] for a in answers if a.status == 201] == [str(seek.match_id)]


def test_taking_a_seat_ten_times_at_once_takes_one(live_stack) -> None:
    creator = User.objects.create_user("table-host")
    user, token = make_player("sitter")
    seek = Seek.objects.create(creator=creator, rated=False, game="dice", seats=3)
    answers = at_once(live_stack, f"/api/seeks/{seek.pk}/accept", bearer(token))
    assert statuses(answers) == [200] + [400] * (AT_ONCE - 1)
    seek.refresh_from_db()
    assert seek.status == Seek.Status.OPEN
    assert list(seek.joined.all()) == [user]


def test_offering_a_rematch_ten_times_at_once_offers_one(live_stack) -> None:
    user, token = make_player("loser")
    opponent = User.objects.create_user("winner")
    match = do_create_match(user, opponent, rated=False)
    resign = _send(f"{live_stack.url}/api/matches/{match.pk}/commands", bearer(token),
                   {"action": {"seat": 0, "type": "resign"}})
    assert resign.status == 200, resign
    answers = at_once(live_stack, f"/api/matches/{match.pk}/rematch", bearer(token))
    assert statuses(answers) == [201] * AT_ONCE
    offers = _open_seeks(user, opponent=opponent)
    assert len(offers) == 1
    assert {answer.body["seek"] for answer in answers} == set(offers)


# ---------------------------------------------------------------------- tokens

def test_issuing_tokens_ten_times_at_once(live_stack) -> None:
    """Each request is a new token (its secret is shown once): ten, each one working."""
    user = User.objects.create_user("tokens")
    answers = at_once(live_stack, "/api/tokens", session_headers(user), {"name": "bot"})
    assert statuses(answers) == [201] * AT_ONCE
    rows = AccessToken.objects.filter(user=user, name="bot", revoked_at__isnull=True)
    assert sorted(rows.values_list("pk", flat=True)) == sorted(a.body["id"] for a in answers)
    raw = {answer.body["token"] for answer in answers}
    assert len(raw) == AT_ONCE
    me = urllib.request.Request(f"{live_stack.url}/api/me", headers=bearer(raw.pop()))
    with urllib.request.urlopen(me, timeout=10) as response:
        assert json.loads(response.read())["username"] == "tokens"
