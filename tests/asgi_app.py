"""The platform's ASGI application, for in-process socket tests."""

from __future__ import annotations

import sys
from typing import Any


def application() -> Any:
    if "config.asgi" not in sys.modules:
        from config import collector
        from games.live import heartbeat

        # Importing config.asgi starts the web heartbeat and collector threads; in the
        # test process the heartbeat would outlive the private Redis and log failures at
        # exit, and a timed collection would only make runs less alike.
        heartbeat._started = True
        collector._collector = collector.PeriodicCollector(0)
    from config.asgi import application as app

    return app
