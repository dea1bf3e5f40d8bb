"""Nobody watching: the live stack's Celery beat and worker carry a tournament through.

Four computer players (``bots.runner.play_match`` over the public websocket API with
their tokens) play a knockout with a third-place match; the test only waits. The server
starts it at its start time, starts each round, records each result and pairs the next
round, to the final standings.
"""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import AccessToken
from bots.client import Api
from bots.runner import play_match
from tournaments.models import Tournament, TournamentGame
from tournaments.services import do_create_tournament, do_join

from .helpers import DICE_QUICK, club_of, users

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
DEADLINE_S = 120


async def bots_play(url: str, tokens: dict[int, str], tournament_id: int) -> None:
    """Each player's computer player plays each tournament match of theirs as it appears."""
    playing: dict[str, asyncio.Task[Any]] = {}
    end = time.monotonic() + DEADLINE_S
    while time.monotonic() < end:
        rows = await asyncio.to_thread(lambda: list(
            TournamentGame.objects.filter(tournament_id=tournament_id,
                                          state=TournamentGame.State.PLAYING)
            .values_list("match_id", "seat0_id", "seat1_id")))
        for match_id, *seats in rows:
            for user_id in seats:
                key = f"{match_id}-{user_id}"
                if key not in playing:
                    api = Api(url, tokens[user_id])
                    playing[key] = asyncio.create_task(
                        play_match(api, str(match_id), think=(0.0, 0.05)))
        status = await asyncio.to_thread(
            lambda: Tournament.objects.values_list("status", flat=True).get(pk=tournament_id))
        if status == Tournament.Status.FINISHED:
            break
        await asyncio.sleep(0.5)
    for task in playing.values():
        task.cancel()


def test_the_beat_runs_a_knockout_to_its_end(live_stack: Any) -> None:
    people = users("kim", "lea", "max", "ned")
    club = club_of(people[0], people[1:], name="Beat club")
    tournament = do_create_tournament(people[0], club, {
        "name": "Unattended cup", "format": "knockout", "third_place": True, "game": "dice",
        "rules": DICE_QUICK, "rated": False, "round_gap_s": 0, "no_show_s": 60,
        "starts_at": (timezone.now() + timedelta(seconds=3)).isoformat()})
    for person in people:
        do_join(person, tournament)
    tokens = {person.pk: AccessToken.issue(person, "tests")[1] for person in people}
    asyncio.run(bots_play(live_stack.url, tokens, tournament.pk))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED, tournament.status
    final = tournament.round_set.get(number=2)
    kinds = sorted(g.third_place for g in final.games.exclude(
        state=TournamentGame.State.REPLACED))
    assert kinds == [False, True]  # the final and the third-place match
    assert all(g.match is not None and g.match.status == "finished"
               for g in tournament.games.exclude(state=TournamentGame.State.REPLACED))
