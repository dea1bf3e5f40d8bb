"""What a game declares to the platform (after OpenSpiel's ``GameType`` + ``register_game``
and boardgame.io's game object): the server knows no game, only this interface.

Each game's folder has a ``plugin.py`` with one ``GAME`` object of a class that derives
from :class:`GamePlugin`; ``games/registry.py`` lists them, one line a game. Everything
here is pure: no Django, no clock reads, no randomness of its own (a ``random.Random``
is passed in where chance is needed: the server's is derived from committed seeds,
``fairness.py``).
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from .api_schema import GameApi
from .clock import MatchClock
from .protocol import JSON, ChanceSource, GameState, RecordedChance, gettext_noop

__all__ = ["gettext_noop"]  # the games import it from here too




class RulesError(ValueError):
    """Table conventions that cannot make a game (a 400 for the user).

    The message is plain English, for logs and the command line. ``rule`` names the
    convention (None: the rules object itself) and ``problem`` says what is wrong with it,
    so that the Django side can word it in the user's language from the game's
    ``conventions``: "not_object" (the rules are not an object), "unknown" (no such
    convention), "out_of_range" (outside the convention's kind, range or choices), "fixed"
    (a convention this room never changes), "seats" (it disagrees with the table's seats).
    """

    def __init__(self, message: str, rule: str | None = None,
                 problem: str = "out_of_range", convention: Convention | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.problem = problem
        # What the rule may be, where the game's ``conventions`` do not list it (a rule
        # that is not offered in the lobby's form but may still be sent).
        self.convention = convention


class RecordError(ValueError):
    """A record that is malformed (replay exit status 2)."""


class ActionError(ValueError):
    """A client action that cannot be read (wrong shape, unknown type, bad field)."""


@dataclass(frozen=True, slots=True)
class Convention:
    """One table convention, for the lobby's form and the rules page.

    ``kind``: "bool", "int", "float" or "choice"; ``choices`` for "choice" (and allowed
    values of an int convention that has only a few); ``fixed``: shown, not chosen.
    ``label`` is plain English; the Django side translates it (it is in the catalogue).
    ``step``: an int convention's values are multiples of it; ``unit``: "seconds" when
    the number is a time (how an out-of-range value is worded); ``asked_in``: "minutes"
    when the lobby's form asks for a time in seconds as minutes (the value stays seconds).
    """

    key: str
    label: str
    kind: str
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    fixed: bool = False
    step: int | None = None
    unit: str = ""
    asked_in: str = ""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One event of a match's stored log, as the server wrote it."""

    kind: str  # "chance" (a deal or roll), "action", "time" (time passed), "annul"
    seat: int | None
    payload: JSON  # chance: sample_chance's dict; action: action_to_dict's
    t_us: int  # microseconds since the match was created


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """What ``manage.py replay`` prints and exits with."""

    exit_status: int  # 0 applied, 1 illegal, 2 malformed
    report: JSON  # the --json object (empty when malformed)
    text: str  # the readable account
    error_line: str = ""  # the one stderr line of a malformed record


class GamePlugin(ABC):
    """One game. Subclasses set the class attributes and implement the methods."""

    key: str  # the Match.game value and URL part, e.g. "chess"
    name: str  # display name, plain English (translated by the Django side)
    summary: str  # one sentence on the game, plain English (the home and rules pages)
    record_format: str  # the record's ``format``: the key and a version, e.g. "chess/1"
    seat_counts: tuple[int, ...]  # the seat counts the game allows, e.g. (2, 4)
    versionless: frozenset[str]  # action types that skip the version check ("resign", ...)
    has_one_device: bool = False  # two people on one screen (Spectacular Bid)
    # The lobby's form. ``rated_standard``: a rated table plays the standard rules (what
    # ``parse_rules(None, ...)`` gives; ``rated_allows`` refuses any other), so the form
    # offers no conventions for it. ``headline_convention``: a convention the form offers
    # beside the match kind for casual tables, and a seek's badge names on its own (None:
    # every convention is in the conventions box).
    rated_standard: bool = False
    headline_convention: str | None = None
    # The computer's levels when the game names its own (``bot_action_at`` plays each),
    # and the default one; empty: the search's levels where ``state_from_view`` rebuilds
    # a state, else the one ``bot_action`` (bots/levels.py).
    computer_levels: tuple[str, ...] = ()
    default_computer_level: str | None = None
    # The browser side, in the game's folder: its files are found by a convention, in
    # ``static/games/<folder>/`` and ``templates/games/<folder>/`` where <folder> is the
    # name of the package that holds the plugin (``__init_subclass__`` below); a game sets
    # one of these only to use another file.
    # - Its board on the shared match page (templates/games/table.html): a template
    #   included there (board.html) and an ES module imported by static/js/shell.js
    #   (board.js).
    board_template: str = ""
    board_module: str = ""
    # - Its replay viewer on the shared replay page (templates/games/replay_table.html,
    #   static/js/replay_shell.js): replay.js, exporting
    #   ``mount(element, viewer) -> {show(frame, index, data)}``.
    replay_module: str = ""
    # - The browser's fairness check (docs/fairness.md): chance.js, exporting
    #   ``recordedChances(record) -> [{where, recorded, draw(source)}]``, this game's
    #   ``recorded_chances`` in JavaScript, for static/js/fairness.js.
    chance_module: str = ""
    # - Its rules page: rules.html, usually extending templates/games/rules_page.html.
    rules_template: str = ""
    # The strings the replay module shows, by the key it looks them up with: plain English
    # marked with ``gettext_noop``, translated by the Django side (games/web/pages.py).
    replay_strings: dict[str, str] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        folder = cls.__module__.rsplit(".", 2)[-2]  # games.<folder>.plugin
        for attribute, path in (("board_template", "games/{}/board.html"),
                                ("board_module", "games/{}/board.js"),
                                ("replay_module", "games/{}/replay.js"),
                                ("chance_module", "games/{}/chance.js"),
                                ("rules_template", "games/{}/rules.html")):
            if not getattr(cls, attribute):
                setattr(cls, attribute, path.format(folder))

    # -- a player's profile ------------------------------------------------------------
    # How this game's matches are won, in the words of the game: each result reason it
    # gives (``Match.reason``) and a few words for it, plain English marked with
    # ``gettext_noop`` (a win for any other reason counts as "other"). And the average
    # score: its label, and what it is measured against ({baseline}: the score_baseline of
    # the standard rules; "" to say nothing).
    win_reasons: dict[str, str] = {
        "time": gettext_noop("on time"), "resign": gettext_noop("by resignation")}
    average_label: str = gettext_noop("Points per game")
    average_detail: str = ""

    # -- actions that end a match rather than play it -------------------------------
    # The action types (record-shaped ``type``) that end a match without a move of the
    # game: no tournament counts them as a first move. ``forfeit_action`` gives the match
    # up (the resignation: a tournament's no-show and withdrawal apply it for a seat);
    # ``abort_action`` ends a match before it really started, with no result (None: the
    # game cannot be aborted).
    terminal_actions: frozenset[str] = frozenset({"resign"})
    forfeit_action: str = "resign"
    abort_action: str | None = None

    # -- table conventions ------------------------------------------------------

    @abstractmethod
    def conventions(self) -> list[Convention]:
        """Every convention, chosen and fixed, with its range and default."""

    @abstractmethod
    def parse_rules(self, data: Any, seats: int) -> Any:
        """Rules from a JSON object (None: the defaults); RulesError names what is wrong.
        Types are checked strictly (a boolean is a boolean, no NaN or infinity), and every
        number has a range, so that whatever is accepted can be played and broadcast."""

    @abstractmethod
    def rules_to_dict(self, rules: Any) -> JSON:
        """The record's ``rules`` object."""

    @abstractmethod
    def rated_allows(self, rules: Any) -> bool:
        """Whether a rated match may use these rules."""

    # -- state and chance ---------------------------------------------------------

    @abstractmethod
    def new_state(self, rules: Any, seats: int) -> GameState:
        """A new match under parsed rules (``parse_rules``) for ``seats`` seats."""

    @abstractmethod
    def sample_chance(self, state: GameState, rng: ChanceSource) -> JSON:
        """The chance outcome due now (``state.needs_chance()``), as a JSON-ready dict
        (the event log stores it). Only ``rng``'s ``shuffle``, ``sample`` and ``randint``
        are used, so that a derived source (``fairness.DerivedChance``) gives the same
        outcome to every verifier."""

    @abstractmethod
    def apply_chance(self, state: GameState, outcome: JSON, now_us: int) -> list[Any]:
        """Apply a chance outcome (from ``sample_chance`` or the log); returns its steps."""

    # -- actions ----------------------------------------------------------------------

    @abstractmethod
    def action_from_dict(self, data: Any) -> tuple[int, int]:
        """A record-shaped action -> (seat, code); ActionError when unreadable."""

    @abstractmethod
    def action_to_dict(self, seat: int | None, code: int) -> JSON:
        """The record-shaped action (as the log and the broadcast write it) of a code."""

    # -- what a seat may see ----------------------------------------------------------

    @abstractmethod
    def view(self, state: GameState, seat: int | None) -> JSON:
        """Everything ``seat`` (None: a spectator) may see; the only thing sent to a socket."""

    @abstractmethod
    def ranks(self, state: GameState) -> list[int] | None:
        """Once over with a result: the rank of each seat (1 = best, equal share a rank);
        None while running or when the game ended with no result (abort, annulled)."""

    def legal_actions(self, view: JSON) -> list[JSON]:
        """The record-shaped actions a seat's view (from ``view``) says it may take now;
        empty when it has nothing to do (a tournament's "has a move to make"). By default
        the view's ``legal`` list, where every game here puts them."""
        return list(view.get("legal") or [])

    def clock(self, state: GameState) -> MatchClock | None:
        """The match clock (``games/engine/clock.py``) of a game played against one, or
        None (the default) for a game without one. The server reads its running seat and
        deadline to tell a flag an outage caused from a real one."""
        return None

    def scores(self, state: GameState) -> list[int]:
        """Each seat's score or balance, for the match list and history."""
        return []

    def score_baseline(self, rules: JSON) -> int:
        """What each seat's score starts from under these (record-shaped) rules, so that
        "points won" is the final score less it (Spectacular Bid's starting points)."""
        return 0

    def replayed_scores(self, report: JSON) -> list[int] | None:
        """The scores in a replay report (``replay_document``), to compare with ``scores``."""
        scores = report.get("scores")
        return list(scores) if isinstance(scores, list) else None

    def determinize(self, state: GameState, seat: int | None, rng: random.Random) -> GameState:
        """A copy of ``state`` with everything hidden from ``seat`` (None: a spectator)
        drawn again at random, consistent with what the seat sees: its view of the copy
        is its view of ``state``. For search (ISMCTS) and the hidden-information tests.
        A game with no hidden information returns a plain copy."""
        return copy.deepcopy(state)

    # -- records --------------------------------------------------------------------

    def annul(self, state: GameState, now_us: int) -> list[Any]:
        """End the match with no result (an outage, or staff)."""
        return state.annul(now_us)  # type: ignore[attr-defined, no-any-return]

    @abstractmethod
    def export_record(self, players: list[str], rules: Any, log: list[LogEntry]) -> JSON:
        """The record (this game's format) of a stored log: chance outcomes, the actions
        applied (forced ones included) with their times."""

    def frames(self, record: JSON) -> JSON:
        """Positions for the replay viewer, one per action (public information only)."""
        return {}

    # -- advice and analysis ----------------------------------------------------------

    def advice(self, state: GameState, seat: int) -> JSON | None:
        """Odds for ``seat``'s decision now (the odds panel of a casual game), or None: no
        decision of that seat to advise on, or a game that gives no advice."""
        return None

    def analysis(self, record: JSON) -> JSON | None:
        """The post-game analysis of a record of this game's format (each decision beside
        the best one), or None for a game that has none."""
        return None

    @abstractmethod
    def recorded_chances(self, record: JSON) -> list[RecordedChance]:
        """Every chance event of a record of this game's format, in the order the match
        drew them, each with how ``sample_chance`` derives it again (``fairness.verify``);
        RecordError when the record is malformed."""

    @abstractmethod
    def replay_document(self, text: bytes, with_legal: bool) -> ReplayOutcome:
        """``manage.py replay`` for a record of this game's format."""

    # -- computer player ------------------------------------------------------------

    def api_schema(self) -> GameApi | None:
        """The JSON Schemas of the game's actions and views (``api_schema.py``), from which
        the API documents are built; every hosted game has them."""
        return None

    def state_from_view(self, view: JSON) -> GameState | None:
        """A state whose view for ``view["seat"]`` is ``view``, or None (the default: a
        game that cannot rebuild one). What the view hides is placed arbitrarily but
        consistently (each hand its size, only tiles seen nowhere), with the public move
        history, so that a computer player that has only its view (a client of the API)
        can determinize it and search (``games/search/levels.py``)."""
        return None

    @abstractmethod
    def bot_action(self, view: JSON, rng: random.Random) -> JSON | None:
        """A computer player's action (record-shaped) from its own seat's view, or None."""

    def bot_action_at(self, view: JSON, rng: random.Random, level: str) -> JSON | None:
        """The action of the computer at one of ``computer_levels`` (the default: the
        game has one, ``bot_action``)."""
        return self.bot_action(view, rng)
