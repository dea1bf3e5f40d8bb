"""Running a benchmark as its users do (``python -m bench.NAME``), in a database of its own."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import need

ROOT = Path(__file__).resolve().parents[2]
LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432"
FIGURE = re.compile(r"^([a-z][a-z0-9_]*): (\S+)$")


@dataclass
class Run:
    returncode: int
    output: str
    figures: dict[str, float] = field(default_factory=dict)  # "name: number" lines


def postgres_server() -> str:
    """The server of DATABASE_URL when it is PostgreSQL (CI), else the local one."""
    url = os.environ.get("DATABASE_URL", "")
    return url.rpartition("/")[0] if url.startswith("postgres") else LOCAL_POSTGRES


@contextmanager
def bench_database(label: str) -> Iterator[str]:
    """The URL of a database for one benchmark run (it creates it), dropped afterwards."""
    import psycopg

    server = postgres_server()
    try:
        psycopg.connect(server + "/postgres", connect_timeout=3).close()
    except Exception as exc:  # noqa: BLE001
        need(False, f"needs PostgreSQL at {server}: {exc}")
    # The pid keeps runs of the suite in parallel apart.
    name = f"bench_{label}_{os.getpid()}"
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(server + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_bench(module: str, *args: str, env: dict[str, str] | None = None,
              timeout: float = 120) -> Run:
    environment = dict(os.environ)
    # A private Redis per run (the benchmark starts one): the suite's Redis has other
    # stacks' Celery workers listening on it.
    environment.pop("REDIS_URL", None)
    environment.update(env or {})
    done = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=timeout)
    output = done.stdout + done.stderr
    figures = {}
    for line in done.stdout.splitlines():
        found = FIGURE.match(line)
        if found:
            with suppress(ValueError):  # a name, not a number
                figures[found[1]] = float(found[2])
    return Run(done.returncode, output, figures)
