"""A new tournament's settings, read strictly from a request: each bad value is refused
with a message that names it and its range, and nothing is created."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import registry
from games.play.lobby import LobbyError, check_table_rules

from .errors import Refused
from .models import Tournament

Format = Tournament.Format

FIELDS = frozenset({
    "name", "format", "game", "rules", "rated", "starts_at", "registration_deadline",
    "min_players", "max_players", "members_only", "round_gap_s", "no_show_s", "rounds",
    "double", "third_place", "deciding_games", "seats", "table_points", "bye_points",
    "duration_m",
})
FORMAT_ONLY = {"rounds": (Format.SWISS, Format.TABLES), "double": (Format.ROUND_ROBIN,),
               "third_place": (Format.KNOCKOUT,), "deciding_games": (Format.KNOCKOUT,),
               "seats": (Format.TABLES,), "table_points": (Format.TABLES,),
               "bye_points": (Format.TABLES,), "duration_m": (Format.ARENA,)}
NAME_MIN, NAME_MAX = 3, 80
MAX_PLAYERS = {Format.ROUND_ROBIN: 24, Format.SWISS: 128, Format.KNOCKOUT: 128,
               Format.TABLES: 200, Format.ARENA: 200}
ARENA_MINUTES_MAX = 24 * 60
MAX_SWISS_ROUNDS = 20
MAX_TABLE_POINTS = 100
MAX_DECIDING_GAMES = 5
ROUND_GAP_MAX_S = 86_400
NO_SHOW_MIN_S, NO_SHOW_MAX_S = 10, 3600
DEFAULTS: dict[str, Any] = {"rated": True, "members_only": True, "min_players": 2,
                            "max_players": 16, "round_gap_s": 30, "no_show_s": 60,
                            "double": False, "third_place": False, "deciding_games": 2}


def table_sizes(plugin: Any) -> list[int]:
    """The tables of more than two that a game seats (a table tournament's choices)."""
    return sorted(n for n in plugin.seat_counts if n > 2)


def tournament_games() -> list[Any]:
    """Games for a two-seat format or for tables: every game that seats two or more."""
    return [plugin for plugin in registry.all_games()
            if 2 in plugin.seat_counts or table_sizes(plugin)]


def _whole(data: dict[str, Any], name: str, low: int, high: int) -> int:
    value = data.get(name, DEFAULTS.get(name))
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(_("'%(name)s' must be a whole number from %(low)s to %(high)s.")
                      % {"name": name, "low": low, "high": high})
    return value


def _flag(data: dict[str, Any], name: str) -> bool:
    value = data.get(name, DEFAULTS.get(name))
    if not isinstance(value, bool):
        raise Refused(_("'%(name)s' must be true or false.") % {"name": name})
    return value


def parse_time(value: Any, name: str) -> datetime:
    """An ISO 8601 date and time; without an offset it is UTC."""
    parsed = None
    if isinstance(value, str) and "\x00" not in value:
        try:
            parsed = parse_datetime(value.strip())
        except ValueError:
            parsed = None
    if parsed is None:
        raise Refused(_("'%(name)s' must be a date and time like 2030-05-01T18:00:00Z.")
                      % {"name": name})
    if timezone.is_naive(parsed):
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


def check_settings(data: dict[str, Any], now: datetime | None = None) -> dict[str, Any]:
    """The model fields of a new tournament, or Refused."""
    now = now or timezone.now()
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise Refused(_("Unknown field %(field)s: use %(known)s.")
                      % {"field": repr(unknown[0]), "known": ", ".join(sorted(FIELDS))})
    name = _check_name(data.get("name"))
    kind = _check_format(data)
    seats = _check_seats(data) if kind == Format.TABLES else 2
    game, rated, table = _check_game(data, seats)
    starts_at, deadline = _check_times(data, now)
    highest = MAX_PLAYERS[Format(kind)]
    min_players = _whole(data, "min_players", 2, highest)
    max_players = _whole(data, "max_players", 2, highest)
    if min_players > max_players:
        raise Refused(_("The minimum number of players is above the maximum."))
    fields: dict[str, Any] = {
        "name": name, "format": kind, "game": game, "rules": table,
        "rated": rated, "starts_at": starts_at, "registration_deadline": deadline,
        "min_players": min_players, "max_players": max_players,
        "members_only": _flag(data, "members_only"),
        "round_gap_s": _whole(data, "round_gap_s", 0, ROUND_GAP_MAX_S),
        "no_show_s": _whole(data, "no_show_s", NO_SHOW_MIN_S, NO_SHOW_MAX_S),
    }
    fields.update(_format_fields(data, kind, max_players))
    return fields


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME_MIN <= len(" ".join(name.split())) <= NAME_MAX \
            or "\x00" in name:
        raise Refused(_("'name' must be text of %(low)s to %(high)s characters.")
                      % {"low": NAME_MIN, "high": NAME_MAX})
    return " ".join(name.split())


def _check_format(data: dict[str, Any]) -> str:
    kind = data.get("format")
    if kind not in Format.values:
        raise Refused(_("'format' must be one of %(values)s.")
                      % {"values": ", ".join(Format.values)})
    for field, only in FORMAT_ONLY.items():
        value = data.get(field)
        unused = value is None or (value is False and field != "rounds")
        if not unused and kind not in only:
            if len(only) == 1:
                raise Refused(_("'%(field)s' is a setting of a %(format)s only.")
                              % {"field": field, "format": Format(only[0]).label})
            raise Refused(_("'%(field)s' is a setting of these formats only: %(formats)s.")
                          % {"field": field,
                             "formats": ", ".join(str(Format(f).label) for f in only)})
    return str(kind)


def _check_seats(data: dict[str, Any]) -> int:
    """A table tournament's players a table: one of its game's counts above two."""
    game = data.get("game")
    try:
        plugin = registry.game(game) if isinstance(game, str) else None
    except registry.UnknownGame:
        plugin = None
    if plugin is None:
        return 0  # the game's own check names the choices
    sizes = table_sizes(plugin)
    if not sizes:
        raise Refused(_("%(game)s is played two at a table: a table tournament needs a game "
                        "for more than two.") % {"game": _(plugin.name)})
    seats = data.get("seats")
    if isinstance(seats, bool) or seats not in sizes:
        raise Refused(_("'seats' (players a table) must be one of %(sizes)s for %(game)s.")
                      % {"sizes": ", ".join(map(str, sizes)), "game": _(plugin.name)})
    return int(seats)


def _check_game(data: dict[str, Any], seats: int = 2) -> tuple[str, bool, Any]:
    """The game, whether rated, and its table rules (for tables of ``seats``)."""
    game = data.get("game")
    keys = [plugin.key for plugin in tournament_games()]
    if game not in keys:
        raise Refused(_("'game' must be one of %(keys)s.") % {"keys": ", ".join(keys)})
    if (seats == 2 and 2 not in registry.game(str(game)).seat_counts
            and data.get("format") == Format.ARENA):
        raise Refused(_("%(game)s is not played by two: an arena is for games of two "
                        "players.") % {"game": _(registry.game(str(game)).name)})
    if seats == 2 and 2 not in registry.game(str(game)).seat_counts:
        raise Refused(_("%(game)s is not played by two: choose the tables format.")
                      % {"game": _(registry.game(str(game)).name)})
    rated = _flag(data, "rated")
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise Refused(_("'rules' must be an object of the game's table conventions, or null."))
    try:
        table = check_table_rules(rated, rules, game, seats)
    except LobbyError as exc:
        raise Refused(str(exc)) from None
    return str(game), rated, table


def _check_times(data: dict[str, Any], now: datetime) -> tuple[datetime, datetime]:
    """The start time and the registration deadline (the start when none is given)."""
    starts_at = parse_time(data.get("starts_at"), "starts_at")
    if starts_at <= now:
        raise Refused(_("The start time is in the past: choose a time to come."))
    deadline = starts_at
    if data.get("registration_deadline") not in (None, ""):
        deadline = parse_time(data["registration_deadline"], "registration_deadline")
        if deadline <= now:
            raise Refused(_("The registration deadline is in the past."))
        if deadline > starts_at:
            raise Refused(_("The registration deadline must not be after the start time."))
    return starts_at, deadline


def _format_fields(data: dict[str, Any], kind: str, max_players: int) -> dict[str, Any]:
    """The settings of one format: a Swiss's rounds, a double round robin, a third place."""
    if kind == Format.SWISS:
        if data.get("rounds") is None:
            raise Refused(_("A Swiss needs its number of rounds ('rounds')."))
        rounds = _whole(data, "rounds", 1, MAX_SWISS_ROUNDS)
        if rounds >= max_players:
            raise Refused(ngettext("A Swiss of at most %(n)s players can have at most %(m)s "
                                   "round.", "A Swiss of at most %(n)s players can have at "
                                   "most %(m)s rounds.", max_players - 1)
                          % {"n": max_players, "m": max_players - 1})
        return {"rounds": rounds}
    if kind == Format.TABLES:
        return _table_fields(data)
    if kind == Format.ARENA:
        if data.get("duration_m") is None:
            raise Refused(_("An arena needs its length in minutes ('duration_m')."))
        return {"duration_m": _whole(data, "duration_m", 1, ARENA_MINUTES_MAX), "rounds": 1}
    if kind == Format.ROUND_ROBIN:
        return {"double": _flag(data, "double")}
    return {"third_place": _flag(data, "third_place"),
            "deciding_games": _whole(data, "deciding_games", 0, MAX_DECIDING_GAMES)}


def _number(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def _table_fields(data: dict[str, Any]) -> dict[str, Any]:
    """Rounds, players a table, the table points of its places, a bye's points."""
    if data.get("rounds") is None:
        raise Refused(_("A table tournament needs its number of rounds ('rounds')."))
    rounds = _whole(data, "rounds", 1, MAX_SWISS_ROUNDS)
    seats = int(data["seats"])
    points = data.get("table_points")
    if points is None:
        points = [seats - 1 - place for place in range(seats)]
    if (not isinstance(points, list) or len(points) != seats
            or not all(_number(p) and 0 <= p <= MAX_TABLE_POINTS for p in points)
            or any(a < b for a, b in pairwise(points))):
        raise Refused(_("'table_points' must list the points of the %(n)s places of a table, "
                        "best first, each from 0 to %(high)s and none above the one before.")
                      % {"n": seats, "high": MAX_TABLE_POINTS})
    bye = data.get("bye_points")
    if bye is not None and not (_number(bye) and 0 <= bye <= points[0]):
        raise Refused(_("'bye_points' must be a number from 0 to %(high)s (the first place's "
                        "table points), or null for their mean.") % {"high": points[0]})
    return {"rounds": rounds, "seats": seats, "table_points": points,
            "bye_points": None if bye is None else float(bye)}
