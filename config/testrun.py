"""``python -m config.testrun [pytest args]``: the test suite on the embedded default.

With no REDIS_URL it starts a private Redis first, so the live tests (daphne,
Celery worker and beat, channel layer) run with nothing installed.
"""

from __future__ import annotations

import os
import sys

from config.embedded import ensure_redis_url


def main() -> int:
    # Tests open connections from many threads; persistent ones would outlive the test
    # database and stop pytest-django from dropping it at the end.
    os.environ.setdefault("DB_CONN_MAX_AGE", "0")
    handle = ensure_redis_url()
    import pytest

    try:
        return int(pytest.main(sys.argv[1:]))
    finally:
        if handle is not None:
            handle.shutdown()


if __name__ == "__main__":
    sys.exit(main())
