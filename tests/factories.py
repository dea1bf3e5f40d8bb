"""Matches written straight into the database (history, ratings and page tests)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.models import Match, MatchSeat


def make_match(*users: User, **fields: Any) -> Match:
    """A Match row with its seats; ranks follow ``winner`` once the match is finished.
    ``balances`` is accepted as the old name of ``scores``."""
    if "balances" in fields:
        fields["scores"] = fields.pop("balances")
    fields.setdefault("game", "spectacular-bid")
    match = Match.objects.create(seat_count=len(users), seat_users=[u.pk for u in users],
                                 seat_names=[u.username for u in users], **fields)
    winner = match.winner
    finished = match.status == Match.Status.FINISHED and winner is not None
    scores = list(match.scores or [])
    MatchSeat.objects.bulk_create([
        MatchSeat(match=match, index=i, user=user,
                  rank=(1 if i == winner else 2) if finished else None,
                  score=scores[i] if i < len(scores) else None)
        for i, user in enumerate(users)])
    return match
