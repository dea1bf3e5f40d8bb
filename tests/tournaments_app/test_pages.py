"""The pages of each format render at every stage, with their exports, and tournament
matches show their tournament and round on the match, replay and history pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments.models import Tournament, TournamentGame

from .helpers import club_of, enter, new_tournament, play_round, tick, users

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind,extra,part", [
    ("swiss", {"rounds": 3}, 'data-testid="pairings"'),
    ("round_robin", {"double": False}, 'data-testid="crosstable"'),
    ("knockout", {"third_place": True}, 'data-testid="bracket"'),
])
def test_each_formats_pages_from_registration_to_the_end(kind: str, extra: dict[str, Any],
                                                         part: str) -> None:
    people = users(*[f"p{i}" for i in range(5)])
    club = club_of(people[0], people[1:])
    page = Client()
    page.force_login(people[0])
    tournament = new_tournament(people[0], club, format=kind, **extra)
    before = page.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-testid="join"' in before and 'data-testid="start-now"' in before
    enter(tournament, people)
    tick(tournament.starts_at)
    running = page.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-testid="current-round"' in running and 'data-testid="annul"' in running
    revision = Tournament.objects.get(pk=tournament.pk).revision
    live = f"/tournaments/{tournament.pk}/live/"
    assert page.get(live, {"revision": revision}).status_code == 204  # unchanged
    for _ in range(20):
        tournament.refresh_from_db()
        if tournament.status != Tournament.Status.RUNNING:
            break
        play_round(tournament)
        tick()
    assert tournament.status == Tournament.Status.FINISHED
    changed = page.get(live, {"revision": revision})
    assert changed.status_code == 200 and changed["X-Revision"] == str(tournament.revision)
    done = page.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert part in done and 'data-testid="winner"' in done and "Final standings" in done
    csv = page.get(f"/tournaments/{tournament.pk}/standings.csv")
    assert csv["Content-Type"].startswith("text/csv") and len(csv.content.splitlines()) == 6
    trf = page.get(f"/tournaments/{tournament.pk}/tournament.trf")
    assert trf.status_code == (200 if kind == "swiss" else 404)
    row = TournamentGame.objects.filter(tournament=tournament, match__isnull=False).first()
    assert row is not None
    label = f"{tournament.name}, round {row.round.number}"
    for path in (f"/matches/{row.match_id}/", f"/matches/{row.match_id}/replay/", "/history/"):
        assert label in page.get(path).content.decode(), path
    club_page = page.get(f"/clubs/{club.pk}/").content.decode()
    assert 'data-testid="tournaments-past"' in club_page and tournament.name in club_page
