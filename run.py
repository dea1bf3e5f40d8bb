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

# The stop signal received, if any: the SystemExit raised for it may reach the top
# wrapped in another exception (Python wraps what a class's ``__set_name__`` raises in
# a RuntimeError, as when the signal lands while twisted defines a class), or be caught
# by the code it interrupted. Either way the run stops quietly.
_stop_signal: int | None = None


def _stop_quietly(signum: int, frame: FrameType | None) -> None:
    # SystemExit, not KeyboardInterrupt: nothing prints a traceback for it, and the
    # finally blocks on the way out (a migration's transaction) still run.
    global _stop_signal
    if _stop_signal is None:
        sys.stderr.write("\nstopped\n")
        _stop_signal = signum
    raise SystemExit(128 + signum)


def _stop_if_asked() -> None:
    if _stop_signal is not None:
        raise SystemExit(128 + _stop_signal)


def _install_stop_handlers() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop_quietly)


def main() -> None:
    _install_stop_handlers()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    _stop_if_asked()
    print("preparing the database", flush=True)
    call_command("migrate", interactive=False, verbosity=0)
    _stop_if_asked()
    call_command("runplatform")  # installs its own handlers for the stop signals


def entry() -> None:
    try:
        main()
    except BaseException:
        if _stop_signal is None:
            raise
        # Whatever the stop became on its way up, it ends as the stop: no traceback.
        raise SystemExit(128 + _stop_signal) from None


if __name__ == "__main__":
    entry()
