"""Starting the platform's processes (daphne, Celery worker and beat) for tests and benchmarks.

With ``start_proxy`` an nginx in front of the daphnes routes each match's sockets and
HTTP calls by a hash of the match id, as in production (``platform/README.md``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Debian's nginx lives in /usr/sbin, which an unprivileged user's PATH may lack.
NGINX_FALLBACK = Path("/usr/sbin/nginx")

NGINX_CONF = """\
daemon off;
worker_processes 1;
worker_rlimit_nofile 16384;
pid {prefix}/nginx.pid;
error_log {prefix}/nginx-error.log warn;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/nginx-body;
    proxy_temp_path {prefix}/nginx-proxy;
    fastcgi_temp_path {prefix}/nginx-fastcgi;
    uwsgi_temp_path {prefix}/nginx-uwsgi;
    scgi_temp_path {prefix}/nginx-scgi;
    # A match's websocket and its /api/matches/<id>/ calls go to one web process.
    map $uri $match_key {{
        "~^/(?:ws|api)/matches/(?<match_id>[0-9a-f-]{{36}})(?:/|$)" $match_id;
        default $request_id;
    }}
    map $http_upgrade $connection_upgrade {{ default upgrade; "" ""; }}
    upstream web {{
        hash $match_key consistent;
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://web;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            # A dead process refuses at once: the next one on the ring takes the request.
            proxy_connect_timeout 2s;
            proxy_next_upstream error timeout;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }}
    }}
}}
"""


def nginx_binary() -> str | None:
    found = shutil.which("nginx")
    if found:
        return found
    return str(NGINX_FALLBACK) if NGINX_FALLBACK.exists() else None


def nginx_config(prefix: Path, port: int, upstream_ports: list[int]) -> str:
    # One failure takes a process out of the ring for 2 s; then nginx tries it again.
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;"
                         for p in upstream_ports)
    return NGINX_CONF.format(prefix=prefix, port=port, servers=servers)


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
        self.proxy_port: int | None = None

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    @property
    def url(self) -> str:
        return self.urls[0]

    @property
    def proxy_url(self) -> str | None:
        return None if self.proxy_port is None else f"http://127.0.0.1:{self.proxy_port}"

    def pid(self, name: str) -> int | None:
        proc = self.procs.get(name)
        return None if proc is None or proc.poll() is not None else proc.pid

    def _spawn(self, name: str, argv: list[str]) -> None:
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        self.procs[name] = subprocess.Popen(argv, env=self.env, cwd=ROOT, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def start_web(self) -> None:
        for index in range(len(self.ports)):
            self.start_web_process(index)

    def start_web_process(self, index: int) -> None:
        """Start (or restart, after ``kill``) web process ``index`` on its own port."""
        self._spawn(f"web{index}", [sys.executable, "-m", "daphne", "-b", "127.0.0.1",
                                    "-p", str(self.ports[index]), "config.asgi:application"])

    def start_proxy(self) -> None:
        """nginx in front of the web processes, routing by the match id (a hash ring)."""
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
        self.proxy_port = free_port()
        # nginx's workers drop root's rights when started by root: they must reach this.
        self.workdir.chmod(0o755)
        conf = self.workdir / "nginx.conf"
        conf.write_text(nginx_config(self.workdir, self.proxy_port, self.ports))
        self._spawn("nginx", [binary, "-p", str(self.workdir), "-c", str(conf),
                              "-e", str(self.workdir / "nginx-error.log")])

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
        for url in [*self.urls, *filter(None, [self.proxy_url])]:
            self.wait_url(url, deadline - time.time())

    def wait_url(self, url: str, timeout: float = 60) -> None:
        """Wait until ``url`` answers its health check."""
        deadline = time.time() + timeout
        while True:
            try:
                urllib.request.urlopen(url + "/healthz", timeout=2).read()
                return
            except Exception:  # noqa: BLE001 - not up yet
                if time.time() > deadline:
                    raise RuntimeError(f"{url} did not start; see {self.workdir}") from None
                time.sleep(0.1)

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
