"""``python -m config.testrun [pytest args]``: the test suite on the embedded default.

With no REDIS_URL it starts a private Redis first, so the live tests (daphne,
Celery worker and beat, channel layer) run with nothing installed. It also hosts the
tests' own games (``tests/games/``, through ``PLATFORM_EXTRA_GAMES``; games/registry.py)
beside the registered ones, here and in every process the tests start: ``make run`` does
not set it, so they are never shown there.
"""

from __future__ import annotations

import os
import secrets
import sys

from config.embedded import ensure_redis_url

# The games that exist only in the tests (tests/test_only_game/ plays them through).
TEST_GAMES = ("tests.games.hidden_nim.plugin",)


def main() -> int:
    # Tests open connections from many threads; persistent ones would outlive the test
    # database and stop pytest-django from dropping it at the end.
    os.environ.setdefault("DB_CONN_MAX_AGE", "0")
    # Before Django's settings are read: they find the games' templates and static folders.
    os.environ.setdefault("PLATFORM_EXTRA_GAMES", ",".join(TEST_GAMES))
    # One key for the whole run: the test process signs sessions that the daphne it starts
    # (each with a VAR_DIR of its own, so another var/secret_key) must read.
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    # Passwords hashed fast (config/settings.py): a sign-in costs a millisecond, not 0.3 s.
    os.environ.setdefault("TEST_FAST_PASSWORD_HASHER", "1")
    handle = ensure_redis_url()
    import pytest

    try:
        return int(pytest.main(sys.argv[1:]))
    finally:
        if handle is not None:
            handle.shutdown()


if __name__ == "__main__":
    sys.exit(main())
