"""Ratings per player and game, and every change a rated match made.

The live values are derived data: ``recompute_ratings`` rebuilds them from the
finished rated matches in the order they were rated (``Match.rating_seq``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .elo import INITIAL_RATING, PROVISIONAL_MATCHES


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    game = models.CharField(max_length=32)
    rating = models.IntegerField(default=INITIAL_RATING)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    reached_2400 = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating")]
        indexes = [models.Index(fields=["game", "-rating"])]

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_MATCHES

    @property
    def display(self) -> str:
        return f"{self.rating}?" if self.provisional else str(self.rating)


class RatingChange(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    game = models.CharField(max_length=32)
    seq = models.PositiveIntegerField()  # the match's rating_seq
    before = models.IntegerField()
    after = models.IntegerField()
    games_after = models.PositiveIntegerField()
    reached_2400_after = models.BooleanField(default=False)
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["seq"]
        indexes = [models.Index(fields=["user", "game", "seq"]), models.Index(fields=["seq"])]

    @property
    def delta(self) -> int:
        return self.after - self.before


class RatingLedger(models.Model):
    """One row: locked to give rated matches their order (``Match.rating_seq``)."""

    last_seq = models.PositiveIntegerField(default=0)
