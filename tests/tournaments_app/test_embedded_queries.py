"""The tournament queries run on every page's socket, compiled for SQLite: the suite runs on
PostgreSQL, but the embedded default (``make run``) runs on SQLite, where a lookup inside a
JSON list is not supported; such a query broke every notification socket there."""

from __future__ import annotations

from django.db import connection
from django.db.backends.sqlite3.base import DatabaseWrapper

from tournaments.models import TournamentGame


def sqlite() -> DatabaseWrapper:
    settings = {**connection.settings_dict, "ENGINE": "django.db.backends.sqlite3",
                "NAME": ":memory:", "OPTIONS": {}}
    return DatabaseWrapper(settings, alias="embedded-check")


def test_the_games_a_player_is_playing_compile_for_sqlite() -> None:
    for rows in (TournamentGame.objects.being_played_by(7),
                 TournamentGame.objects.being_played_by(7).select_related("tournament",
                                                                           "round")[:10]):
        sql, params = rows.query.get_compiler(connection=sqlite()).as_sql()
        assert "match_seats" in sql or "matchseat" in sql.lower()
        assert 7 in params
