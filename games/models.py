"""Matches and their append-only event logs.

The event log is the truth: replaying it through the engine gives the match. The
``state`` column caches the engine state after the last event, so a command does
not replay the whole log; it is rebuilt from the log whenever it is missing.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("in progress")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")
        ANNULLED = "annulled", _("annulled")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=32, default="spectacular-bid")
    seat0 = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="matches_as_seat0")
    seat1 = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="matches_as_seat1")
    rules = models.JSONField(default=dict)
    rated = models.BooleanField(default=False)
    one_device = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE,
                              db_index=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=16, blank=True, default="")
    annul_reason = models.CharField(max_length=200, blank=True, default="")
    balances = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=0)  # events applied so far
    # The time of the last logged event (match microseconds). A column of the locked row,
    # not a query of the log: under READ COMMITTED a subquery would still see the log as
    # it was before the lock wait.
    last_t_us = models.BigIntegerField(default=0)
    state = models.BinaryField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_wall = models.FloatField(default=0.0)  # time.time() of match time 0
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The next clock deadline as wall time, for the beat sweep. Not indexed: it changes
    # with every move, and an index on it would make every move's UPDATE write a new
    # entry in each of the table's indexes (no HOT update); the sweep reads the active
    # matches through the status index instead.
    deadline_at = models.FloatField(null=True, blank=True)
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL)
    # The order in which finished rated matches changed ratings (None: never rated).
    rating_seq = models.PositiveIntegerField(null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["seat0", "-created_at"]),
            models.Index(fields=["seat1", "-created_at"]),
            models.Index(fields=["status", "-created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.seat0} v {self.seat1} ({self.status})"

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat a user plays (in a one-device game the owner plays both: seat 0)."""
        if user_id is None:
            return None
        if self.seat0_id == user_id:
            return 0
        if self.seat1_id == user_id:
            return 1
        return None

    def players(self) -> list[str]:
        # The match writer reads the names with the locked row (services._locked).
        names = getattr(self, "seat0_name", None), getattr(self, "seat1_name", None)
        if names[0] is not None and names[1] is not None:
            return [names[0], names[1]]
        return [self.seat0.username, self.seat1.username]


class MatchEvent(models.Model):
    """One entry of a match's log: a deal, an applied command, or a time event."""

    class Kind(models.TextChoices):
        DEAL = "deal"
        ACTION = "action"
        TIME = "time"  # time passed: grace ran out, a clock reached its deadline
        ANNUL = "annul"

    # No index of its own: the (match, seq) constraint's index serves every lookup by match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events",
                              db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    t_us = models.BigIntegerField()  # server receipt time, microseconds since the match began
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="unique_event_seq"),
        ]


class Seek(models.Model):
    """An open seek or a challenge to one named player."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACCEPTED = "accepted", _("accepted")
        CANCELLED = "cancelled", _("cancelled")
        DECLINED = "declined", _("declined")

    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="seeks")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                                 blank=True, related_name="challenges_received")
    rated = models.BooleanField(default=True)
    rules = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN,
                              db_index=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
