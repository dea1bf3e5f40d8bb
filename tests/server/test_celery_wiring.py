"""Every process sends tasks to the configured broker (daphne imports no Celery module itself)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_django_process_sends_deadline_tasks_to_the_configured_broker() -> None:
    env = dict(os.environ, REDIS_URL="redis://127.0.0.1:6399/0",
               DJANGO_SETTINGS_MODULE="config.settings")
    code = ("import django; django.setup(); from games.tasks import check_deadline; "
            "print(check_deadline.app.connection_for_write().as_uri())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith("redis://") and "127.0.0.1:6399" in out, out
