"""Staff pages load on the configured database (server-side parameter binding on PostgreSQL)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Match
from games.play.services import do_command, do_create_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    admin = User.objects.create_superuser("root", "root@example.com", "a-long-password-1")
    client = Client()
    client.force_login(admin)
    return client


@pytest.fixture
def match() -> Match:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    created = do_create_match(alice, bob, rated=True)
    assert do_command(created.pk, alice, {"action": {"seat": 0, "type": "continue"}}).ok
    return created


@pytest.mark.parametrize("page", [
    "/admin/",
    "/admin/games/match/",
    "/admin/games/match/?status__exact=active&rated__exact=1",
    "/admin/games/match/?q=alice",
    "/admin/games/matchevent/",
    "/admin/games/matchevent/?kind__exact=action",
    "/admin/games/seek/",
    "/admin/accounts/profile/",
    "/admin/accounts/accesstoken/",
    "/admin/ratings/rating/",
    "/admin/ratings/ratingchange/",
])
def test_staff_lists_load(staff: Client, match: Match, page: str) -> None:
    assert staff.get(page).status_code == 200


def test_a_match_page_and_the_annul_form_load(staff: Client, match: Match) -> None:
    assert staff.get(f"/admin/games/match/{match.pk}/change/").status_code == 200
    form = staff.post("/admin/games/match/", {"action": "annul_matches",
                                              "_selected_action": [str(match.pk)]})
    assert form.status_code == 200 and b"reason" in form.content.lower()


def test_the_annul_action_annuls(staff: Client, match: Match) -> None:
    response = staff.post("/admin/games/match/", {
        "action": "annul_matches", "_selected_action": [str(match.pk)], "apply": "1",
        "reason": "Testing the staff action"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner, match.annul_reason) == (
        Match.Status.ANNULLED, None, "Testing the staff action")
