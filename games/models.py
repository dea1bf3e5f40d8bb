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
    """One match of one registered game (``game``: its registry key) with N seats.

    ``MatchSeat`` is the relational truth about who sits where (history, profiles,
    ratings query it). ``seat_users`` and ``seat_names`` repeat it on the row, written
    once when the match is created, so that the match writer's one-row read has all it
    needs (who may act for which seat, the names in the broadcast header).
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("in progress")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")
        ANNULLED = "annulled", _("annulled")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=32, db_index=True)  # a registered key (games/registry.py)
    seat_count = models.PositiveSmallIntegerField(default=2)
    seat_users = models.JSONField(default=list)  # user id per seat (MatchSeat's, repeated)
    seat_names = models.JSONField(default=list)  # username per seat
    rules = models.JSONField(default=dict)
    rated = models.BooleanField(default=False)
    one_device = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE,
                              db_index=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)  # the seat ranked 1 alone
    reason = models.CharField(max_length=16, blank=True, default="")
    annul_reason = models.CharField(max_length=200, blank=True, default="")
    scores = models.JSONField(default=list)  # each seat's balance or score
    version = models.PositiveIntegerField(default=0)  # events applied so far
    # Chance outcomes applied so far (deals, rolls): the next one's number, from which a
    # fixed test seed derives it.
    chances = models.PositiveIntegerField(default=0)
    # Seeded chance (games/play/deals.py, games/engine/fairness.py): the server's secret seed
    # (hex; shown only once the match is over), its SHA-256 shown from the start, each
    # seat's own seed (None until sent; sent only before the first chance event), and
    # until when the first chance event waits for them. Blank for matches from before
    # seeded deals and for fixed test deals: their chance cannot be verified.
    fair_algorithm = models.CharField(max_length=64, blank=True, default="")
    fair_server_seed = models.CharField(max_length=64, blank=True, default="")
    fair_commitment = models.CharField(max_length=64, blank=True, default="")
    fair_player_seeds = models.JSONField(default=list, blank=True)
    fair_seeds_until = models.FloatField(null=True, blank=True)
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
            models.Index(fields=["status", "-created_at"]),
        ]

    def __str__(self) -> str:
        return f"{' v '.join(self.players())} ({self.status})"

    def seats_of(self, user_id: int | None) -> list[int]:
        """Every seat ``user_id`` sits in (several in a one-device game)."""
        if user_id is None:
            return []
        return [i for i, uid in enumerate(self.seat_users) if uid == user_id]

    def seat_of(self, user_id: int | None) -> int | None:
        seats = self.seats_of(user_id)
        return seats[0] if seats else None

    @property
    def practice(self) -> bool:
        """One person in every seat (a one-device game): no wins, losses or points."""
        return len(set(self.seat_users)) == 1 and self.seat_count > 1

    def players(self) -> list[str]:
        return list(self.seat_names)


class MatchSeat(models.Model):
    """Who sits in one seat of a match, and how they finished."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="match_seats")
    rank = models.PositiveSmallIntegerField(null=True, blank=True)  # 1 = best; None: no result
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="one_user_per_seat"),
        ]
        indexes = [models.Index(fields=["user", "match"])]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.index}: {self.user_id}"


class MatchEvent(models.Model):
    """One entry of a match's log: a chance outcome, an applied command, or a time event."""

    class Kind(models.TextChoices):
        CHANCE = "chance"  # a chance outcome: a deal, a roll
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
    """An open table (a seek) or a challenge to one named player.

    A table names its game, its conventions and its number of seats; ``joined`` are
    the people sitting at it besides the creator, ``computer_seats`` the seats the
    computer takes. The match starts once every seat is taken.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACCEPTED = "accepted", _("accepted")
        CANCELLED = "cancelled", _("cancelled")
        DECLINED = "declined", _("declined")

    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="seeks")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True,
                                 blank=True, related_name="challenges_received")
    game = models.CharField(max_length=32)
    seats = models.PositiveSmallIntegerField(default=2)
    computer_seats = models.PositiveSmallIntegerField(default=0)
    joined = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True,
                                    related_name="tables_joined")
    rated = models.BooleanField(default=True)
    rules = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN,
                              db_index=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class MatchReview(models.Model):
    """The game review of a finished match (``games/search/review.py``), for a game whose
    plugin has no analysis of its own: made by a Celery task after the match ends
    (``games/play/review.py``), stored once done. ``done`` of ``total`` decisions is its
    progress while it runs; ``result`` the review once done."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True,
                                 related_name="review")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(null=True, blank=True)  # None: not counted yet
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"review of {self.match_id}: {self.status}"
