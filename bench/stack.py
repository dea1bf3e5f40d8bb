"""Starting the platform's processes (daphne, Celery worker and beat) for tests and benchmarks."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Stack:
    """Processes of the platform started for the tests."""

    def __init__(self, env: dict[str, str], workdir: Path, web_processes: int) -> None:
        self.env = env
        self.workdir = workdir
        self.ports = [free_port() for _ in range(web_processes)]
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    @property
    def url(self) -> str:
        return self.urls[0]

    def _spawn(self, name: str, argv: list[str]) -> None:
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        self.procs[name] = subprocess.Popen(argv, env=self.env, cwd=ROOT, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def start_web(self) -> None:
        for index, port in enumerate(self.ports):
            self._spawn(f"web{index}", [sys.executable, "-m", "daphne", "-b", "127.0.0.1",
                                        "-p", str(port), "config.asgi:application"])

    def start_worker(self) -> None:
        self._spawn("worker", [sys.executable, "-m", "celery", "-A", "config", "worker",
                               "--loglevel", "INFO", "--pool", "threads", "--concurrency", "4",
                               "--hostname", f"test-{os.getpid()}-{time.time():.0f}@%h"])

    def start_beat(self) -> None:
        self._spawn("beat", [sys.executable, "-m", "celery", "-A", "config", "beat",
                             "--loglevel", "INFO", "--schedule",
                             str(self.workdir / "celerybeat-schedule")])

    def kill(self, name: str) -> None:
        proc = self.procs.pop(name, None)
        if proc is not None and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.time() + timeout
        for url in self.urls:
            while True:
                try:
                    urllib.request.urlopen(url + "/healthz", timeout=2).read()
                    break
                except Exception:  # noqa: BLE001 - not up yet
                    if time.time() > deadline:
                        raise RuntimeError(f"{url} did not start; see {self.workdir}") from None
                    time.sleep(0.2)

    def wait_worker(self, timeout: float = 60) -> None:
        """Wait until a Celery worker answers a ping."""
        from config.celery import app

        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if app.control.ping(timeout=0.5):
                    return
            except Exception:  # noqa: BLE001
                pass
            time.sleep(0.3)
        raise RuntimeError(f"no Celery worker answered; see {self.workdir}")

    def stop(self) -> None:
        for name in list(self.procs):
            proc = self.procs[name]
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for name in list(self.procs):
            try:
                self.procs[name].wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill(name)
        self.procs.clear()
