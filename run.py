"""``python run.py`` (``make run``): the database migrated, then the whole platform.

One process for both, so that a Ctrl-C at any moment is a quiet stop: before Django has
loaded, during the migration, or while ``runplatform`` runs (which then stops its
processes in order, config/embedded.py's Redis last). Without this, a Ctrl-C in the first
seconds printed the traceback of whatever import it interrupted. A script beside
manage.py, not a module of ``config``: importing that package loads Celery, seconds during
which a Ctrl-C would still be a KeyboardInterrupt.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType


def _stop_quietly(signum: int, frame: FrameType | None) -> None:
    # SystemExit, not KeyboardInterrupt: nothing prints a traceback for it, and the
    # finally blocks on the way out (a migration's transaction) still run.
    sys.stderr.write("\nstopped\n")
    raise SystemExit(128 + signum)


def main() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop_quietly)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    print("preparing the database", flush=True)
    call_command("migrate", interactive=False, verbosity=0)
    call_command("runplatform")  # installs its own handlers for the stop signals


if __name__ == "__main__":
    main()
