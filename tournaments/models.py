"""Clubs, their members, and club tournaments with their rounds and games.

The formats themselves (pairings, standings, tiebreaks, exports) are the pure library in
``tournaments/formats/``; these rows are what it is fed. A tournament game is an ordinary
match (``games.Match``) linked here by ``TournamentGame.match``: history, ratings,
replays and records know nothing of tournaments.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Club(models.Model):
    class Policy(models.TextChoices):
        OPEN = "open", _("open to everybody")
        REQUEST = "request", _("by request")
        INVITE = "invite", _("by invite link")

    name = models.CharField(max_length=60, unique=True)
    description = models.TextField(max_length=2000, blank=True, default="")
    language = models.CharField(max_length=8, default="en")
    policy = models.CharField(max_length=8, choices=Policy.choices, default=Policy.OPEN)
    invite_code = models.CharField(max_length=32, default=new_invite_code, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="clubs_created")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        # A name is taken once whatever its case (the unique above is case-sensitive): the
        # database decides between two clubs of one name created at the same moment.
        constraints = [models.UniqueConstraint(Lower("name"), name="club_name_any_case")]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A member of a club, or a request to become one (``status`` requested)."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ADMIN = "admin", _("admin")
        MEMBER = "member", _("member")

    class Status(models.TextChoices):
        ACTIVE = "active", _("member")
        REQUESTED = "requested", _("requested")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="club_memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "created_at"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id} ({self.role}, {self.status})"

    @property
    def is_admin(self) -> bool:
        return self.status == self.Status.ACTIVE and self.role in (self.Role.OWNER,
                                                                   self.Role.ADMIN)


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("round robin")
        SWISS = "swiss", _("Swiss")
        KNOCKOUT = "knockout", _("knockout")
        TABLES = "tables", _("tables")
        ARENA = "arena", _("arena")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=80)
    format = models.CharField(max_length=12, choices=Format.choices)
    double = models.BooleanField(default=False)  # round robin: every pair meets twice
    rounds = models.PositiveSmallIntegerField(default=0)  # Swiss, tables: chosen; others: derived
    # Tables: players a table (the game's seat count chosen), the table points of its
    # places (a full table, best first), a bye's points (None: the mean of those), and the
    # seed that draws round 1 (set at the start).
    seats = models.PositiveSmallIntegerField(default=2)
    table_points = models.JSONField(default=list, blank=True)
    bye_points = models.FloatField(null=True, blank=True)
    seed = models.BigIntegerField(default=0)
    third_place = models.BooleanField(default=False)  # knockout
    duration_m = models.PositiveIntegerField(default=0)  # arena: its length in minutes
    # Knockout: games played again after a level one before the higher seed goes through.
    deciding_games = models.PositiveSmallIntegerField(default=2)
    game = models.CharField(max_length=32)
    rules = models.JSONField(default=dict)  # the game's table conventions
    rated = models.BooleanField(default=True)
    starts_at = models.DateTimeField(db_index=True)
    registration_deadline = models.DateTimeField()
    min_players = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(default=16)
    members_only = models.BooleanField(default=True)
    round_gap_s = models.PositiveIntegerField(default=30)  # time between rounds
    no_show_s = models.PositiveIntegerField(default=60)  # a first move is due within this
    status = models.CharField(max_length=12, choices=Status.choices,
                              default=Status.REGISTRATION, db_index=True)
    paused = models.BooleanField(default=False)
    # Round robin: the Berger schedule fixed at the start, [[ [seat0, seat1|None], ...], ...].
    schedule = models.JSONField(default=list, blank=True)
    notice = models.CharField(max_length=300, blank=True, default="")  # why it ended early
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="tournaments_created")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change the pages show, so that they refresh only when needed.
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player in a tournament. ``rating`` is the rating at the start (or at a late
    entry): seeds and pairing numbers follow it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    rating = models.IntegerField(default=0)
    joined_at_round = models.PositiveSmallIntegerField(default=1)
    withdrawn = models.BooleanField(default=False)
    paused = models.BooleanField(default=False)  # arena: not paired until back
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", _("paired")  # pairings published, matches not created yet
        RUNNING = "running", _("being played")
        DONE = "done", _("finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PAIRED)
    starts_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"],
                                               name="one_round_number")]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class TournamentGameQuerySet(models.QuerySet["TournamentGame"]):
    def being_played_by(self, user_id: int) -> TournamentGameQuerySet:
        """The games whose match this user sits in and is playing now (any number of seats).

        Through the match's seats, not ``table``: a lookup inside the JSON list is not
        supported by SQLite, the embedded default's database.
        """
        return self.filter(match__match_seats__user_id=user_id,
                           state=TournamentGame.State.PLAYING,
                           match__status="active")  # one seat a match: no duplicates


class TournamentGame(models.Model):
    """One pairing of a round: two players (seat order = the match's seats) or a bye,
    its match once the round starts, and its result in match points.

    A table of a table tournament lists every seat in ``table`` (seat order), each
    ``{"user", "place", "points", "forfeit", "moved", "due_at"}``: the place the game
    gave (1 best), game points, a forfeit (no-show, withdrawal: no table points), and
    the no-show bookkeeping of ``moved0``/``due0_at``. ``seat0`` and ``seat1`` are its
    first two players (a bye: ``seat1`` None); ``halves`` stay unset.

    A knockout game that ends level is played again: the earlier ``attempt`` is kept
    with ``state`` replaced, and a new row takes its place. An annulled match of a round
    still being played is replaced the same way.
    """

    class State(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        PLAYING = "playing", _("being played")
        DONE = "done", _("finished")
        REPLACED = "replaced", _("replayed")

    class Decision(models.TextChoices):
        PLAYED = "played", _("played")
        BYE = "bye", _("bye")
        FORFEIT = "forfeit", _("forfeit")  # a no-show, a withdrawal: not played
        SEED = "seed", _("by seeding")  # a knockout tie that replays did not break
        ANNULLED = "annulled", _("annulled")  # no result: counts as a double forfeit

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField()
    seat0 = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="+")
    seat1 = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="+", null=True, blank=True)  # None: a bye
    third_place = models.BooleanField(default=False)
    attempt = models.PositiveSmallIntegerField(default=1)
    match = models.OneToOneField("games.Match", on_delete=models.SET_NULL, null=True,
                                 blank=True, related_name="tournament_game")
    state = models.CharField(max_length=10, choices=State.choices, default=State.SCHEDULED,
                             db_index=True)
    decision = models.CharField(max_length=10, choices=Decision.choices, blank=True,
                                default="")
    # Match points in halves (2 a win, 1 a draw): exact, and an integer column.
    halves0 = models.PositiveSmallIntegerField(null=True, blank=True)
    halves1 = models.PositiveSmallIntegerField(null=True, blank=True)
    points0 = models.PositiveIntegerField(default=0)  # points won in the game itself
    points1 = models.PositiveIntegerField(default=0)
    # Whether each seat has made a move (a no-show is a seat that never does), and since
    # when it has had one to make (first seen by the tick; its no-show period runs from
    # then, whoever's turn it is later).
    moved0 = models.BooleanField(default=False)
    moved1 = models.BooleanField(default=False)
    due0_at = models.DateTimeField(null=True, blank=True)
    due1_at = models.DateTimeField(null=True, blank=True)
    table = models.JSONField(default=list, blank=True)

    objects = TournamentGameQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "round", "board", "attempt"]

    def __str__(self) -> str:
        return f"{self.tournament_id} r{self.round_id} b{self.board}"

    @property
    def is_bye(self) -> bool:
        return self.seat1_id is None

    def seats(self) -> list[int]:
        if self.table:
            return [int(seat["user"]) for seat in self.table]
        return [self.seat0_id] if self.seat1_id is None else [self.seat0_id, self.seat1_id]
