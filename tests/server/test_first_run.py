"""The first run a club would host (``make run``): what a new user meets.

DEBUG is off unless asked for, with a secret key made once into var/ and kept; a wrong
address or a server error shows the site's own page in the player's language; with no mail
configured the confirmation mail is in the outbox (``/outbox/``), which the "verify your
address" page links to, and following its link signs the new player in; ``make run``
installs the runtime packages only, names the missing Debian package instead of venv's
complaint, and a Ctrl-C at any moment of its start stops it without a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path

from config.embedded import free_port
from tests.conftest import need

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-first-run-1"

# What the settings come to in a fresh process: DEBUG, the key, where mail goes.
SETTINGS_SCRIPT = """
import hashlib, json
from django.conf import settings
print("RESULT " + json.dumps({"debug": settings.DEBUG, "email": settings.EMAIL_BACKEND,
      "key": hashlib.sha256(settings.SECRET_KEY.encode()).hexdigest(),
      "hasher": settings.PASSWORD_HASHERS[0]}))
"""


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


# This module is also the URLconf of the 500 tests: the site's, and a view that fails.
urlpatterns = [path("boom/", boom), path("", include("config.urls"))]
handler500 = "config.errors.server_error"


def fresh_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a new user's shell: none of the test run's settings."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DEBUG", "SECRET_KEY", "EMAIL_BACKEND", "EMAIL_HOST", "DATABASE_URL",
                        "REDIS_URL", "TEST_FIXED_DEALS", "ACCOUNT_EMAIL_VERIFICATION",
                        "PLATFORM_EXTRA_GAMES", "TEST_FAST_PASSWORD_HASHER")}
    env.update(VAR_DIR=str(var_dir), LOG_LEVEL="ERROR", PYTHONUNBUFFERED="1", **extra)
    return env


def settings_in(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", "shell", "-c", SETTINGS_SCRIPT],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def read_settings(env: dict[str, str]) -> dict[str, Any]:
    ran = settings_in(env)
    assert ran.returncode == 0, ran.stderr
    line = next(x for x in ran.stdout.splitlines() if x.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    return result


# --- DEBUG and the secret key --------------------------------------------------------------

def test_debug_is_off_unless_asked_and_the_key_is_made_once(tmp_path: Path) -> None:
    first = read_settings(fresh_env(tmp_path))
    assert first["debug"] is False
    # The fast hasher is the test run's alone (config/testrun.py).
    assert first["hasher"] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    key_file = tmp_path / "secret_key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert len(key_file.read_text().strip()) >= 50
    again = read_settings(fresh_env(tmp_path, DEBUG="1"))
    assert again["debug"] is True
    assert again["key"] == first["key"], "the key was not kept"
    # Without mail configured, mail goes to the outbox; with a host, over SMTP.
    assert first["email"] == "accounts.outbox.OutboxBackend"
    smtp = read_settings(fresh_env(tmp_path, EMAIL_HOST="mail.example.org"))
    assert smtp["email"] == "django.core.mail.backends.smtp.EmailBackend"


def test_the_development_key_is_refused_outside_debug(tmp_path: Path) -> None:
    from config.settings import DEV_SECRET_KEY

    refused = settings_in(fresh_env(tmp_path, SECRET_KEY=DEV_SECRET_KEY))
    assert refused.returncode != 0
    assert "production refuses the development secret" in refused.stderr


# --- the error pages -----------------------------------------------------------------------

@pytest.mark.django_db
def test_a_wrong_address_shows_the_sites_own_page() -> None:
    answer = Client().get("/no-such-page/")
    assert answer.status_code == 404
    page = answer.content.decode()
    assert 'data-testid="error-title">Page not found<' in page
    assert 'class="site-header"' in page and "/static/css/site.css" in page
    assert "URLconf" not in page  # not Django's technical page


@pytest.mark.django_db
def test_the_page_not_found_speaks_the_players_language() -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/no-such-page/").content.decode()
    assert '<html lang="ru"' in page
    assert "Страница не найдена" in page and "Лобби" in page


@pytest.mark.urls("tests.server.test_first_run")
def test_a_server_error_shows_a_page_that_needs_no_database() -> None:
    # No django_db mark: the page must come without a query (the database may be what failed).
    answer = Client(raise_request_exception=False).get("/boom/")
    assert answer.status_code == 500
    page = answer.content.decode()
    assert 'data-testid="error-title">Server error<' in page
    assert "Boneyard" in page and "/static/css/site.css" in page
    assert "a bug" not in page and "Traceback" not in page


@pytest.mark.urls("tests.server.test_first_run")
def test_the_server_error_page_speaks_the_players_language() -> None:
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    page = client.get("/boom/").content.decode()
    assert '<html lang="ru"' in page and "Ошибка сервера" in page


# --- the outbox ----------------------------------------------------------------------------

@pytest.fixture
def outbox(settings: Any, tmp_path: Path) -> Path:
    """Mail as on the embedded default: nothing configured, so into the outbox."""
    settings.EMAIL_BACKEND = settings.OUTBOX_BACKEND
    settings.OUTBOX_DIR = tmp_path / "outbox"
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    settings.ACCOUNT_RATE_LIMITS = False
    return Path(settings.OUTBOX_DIR)


@pytest.mark.django_db
def test_there_is_no_outbox_once_mail_is_configured() -> None:
    # The tests' own backend (locmem) is configured mail.
    assert Client().get("/outbox/").status_code == 404


def sign_up(client: Client, name: str) -> HttpResponse:
    answer: HttpResponse = client.post("/accounts/signup/", {
        "email": f"{name}@example.org", "username": name,
        "password1": PASSWORD, "password2": PASSWORD}, follow=True)
    return answer


def confirmation_link(page: str) -> str:
    found = re.search(r'<a href="(http://testserver/accounts/confirm-email/[^"]+)"', page)
    assert found, page
    return found.group(1).removeprefix("http://testserver")


@pytest.mark.django_db
def test_a_sign_up_is_confirmed_from_the_outbox_and_signed_in(outbox: Path) -> None:
    client = Client()
    sent = sign_up(client, "newcomer").content.decode()
    assert 'data-testid="outbox-hint"' in sent and 'href="/outbox/"' in sent
    assert "spam" not in sent
    assert list(outbox.glob("*.json")), "no mail in the outbox"

    box = client.get("/outbox/")
    assert box.status_code == 200 and box["Cache-Control"].startswith("max-age=0")
    link = confirmation_link(box.content.decode())
    assert "newcomer@example.org" in box.content.decode()

    confirm_page = client.get(link)
    assert confirm_page.status_code == 200
    confirmed = client.post(link, follow=True)
    assert confirmed.status_code == 200
    assert confirmed.wsgi_request.user.username == "newcomer", "confirming did not sign in"
    assert 'data-testid="current-user"' in confirmed.content.decode()


@pytest.mark.django_db
def test_the_outbox_shows_a_browser_only_its_own_mail(outbox: Path) -> None:
    sign_up(Client(), "first")
    other = Client()
    sign_up(other, "second")
    page = other.get("/outbox/").content.decode()
    assert "second@example.org" in page and "first@example.org" not in page
    assert 'data-testid="outbox-empty"' in Client().get("/outbox/").content.decode()

    # A password-reset link is never shown to whoever asked for it; staff see everything.
    User.objects.get(username="first").emailaddress_set.update(verified=True)
    asker = Client()
    asker.post("/accounts/password/reset/", {"email": "first@example.org"})
    assert len(list(outbox.glob("*.json"))) == 3
    assert "password/reset/key" not in asker.get("/outbox/").content.decode()
    staff = Client()
    staff.force_login(User.objects.create_user("boss", is_staff=True))
    seen = staff.get("/outbox/").content.decode()
    assert seen.count('data-testid="outbox-mail"') == 3 and "password/reset/key" in seen
    # Newest first.
    assert seen.index("password/reset/key") < seen.index("second@example.org")


# --- make run ------------------------------------------------------------------------------

def make(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT,
                          env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=60)


def test_make_run_installs_the_runtime_packages_only() -> None:
    need(subprocess.run(["which", "make"], capture_output=True).returncode == 0, "needs make")
    run = make("-n", "-B", "run")
    assert run.returncode == 0, run.stderr
    assert "-r requirements.txt" in run.stdout
    assert "requirements-dev.txt" not in run.stdout
    assert "python run.py" in run.stdout
    test = make("-n", "-B", "test")
    assert "-r requirements-dev.txt" in test.stdout


def test_a_missing_python3_venv_is_named_in_one_line(tmp_path: Path) -> None:
    need(subprocess.run(["which", "make"], capture_output=True).returncode == 0, "needs make")
    # A Python whose venv cannot bootstrap pip, as Debian's without python3-venv.
    fake = tmp_path / "python3"
    fake.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin"\n'
        "  echo 'The virtual environment was not created successfully because ensurepip is"
        " not available.'\n  exit 1\nfi\n"
        f'exec {sys.executable} "$@"\n')
    fake.chmod(0o755)
    venv = tmp_path / "venv"
    ran = make("run", f"PYTHON={fake}", f"VENV={venv}")
    assert ran.returncode != 0
    ours = [line for line in ran.stderr.splitlines()
            if not re.match(r"make(\[\d+\])?: \*\*\*", line)]
    version = "{}.{}".format(*sys.version_info[:2])
    assert ours == [f"python3-venv is missing: sudo apt-get install python{version}-venv"]
    assert "ensurepip" not in ran.stdout + ran.stderr
    assert not venv.exists()


# --- Ctrl-C while make run starts, and what it serves --------------------------------------

@pytest.fixture
def leftovers() -> Iterator[list[psutil.Process]]:
    processes: list[psutil.Process] = []
    try:
        yield processes
    finally:
        for process in processes:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()


def start_run(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    # A session of its own, as a terminal's job: SIGINT to its group is a Ctrl-C.
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "run.py"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def ctrl_c(run: subprocess.Popen[bytes], log: Path, leftovers: list[psutil.Process]) -> str:
    """Ctrl-C, then what it printed; the run and everything it started must be gone."""
    try:
        family = psutil.Process(run.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        family = []
    leftovers.extend(family)
    said_before = log.stat().st_size
    os.killpg(run.pid, signal.SIGINT)
    run.wait(timeout=60)
    _gone, alive = psutil.wait_procs(family, timeout=15)
    assert alive == [], [p.cmdline() for p in alive]
    return log.read_bytes()[said_before:].decode(errors="replace")


def wait_for_line(run: subprocess.Popen[bytes], log: Path, text: str) -> None:
    deadline = time.monotonic() + 90
    while text not in log.read_text(errors="replace"):
        assert run.poll() is None, log.read_text()[-3000:]
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.05)


def fetch(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode()


@pytest.mark.parametrize("moment", ["while Python loads", "while the database migrates"])
def test_a_ctrl_c_while_make_run_starts_stops_quietly(
        moment: str, tmp_path: Path, leftovers: list[psutil.Process]) -> None:
    log = tmp_path / "run.log"
    run = start_run(fresh_env(tmp_path, PORT=str(free_port())), log)
    leftovers.append(psutil.Process(run.pid))
    if moment == "while Python loads":
        time.sleep(0.3)
    else:
        wait_for_line(run, log, "preparing the database")
    said = ctrl_c(run, log, leftovers)
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said


# A stop that lands while a class is being defined: Python wraps what ``__set_name__``
# raises (the handler's SystemExit) in a RuntimeError, as CI saw when a Ctrl-C came
# while twisted defined a class; and a stop that the interrupted code catches and drops.
STOP_INSIDE_SCRIPT = """
import os, signal, run
def interrupted():
    run._install_stop_handlers()
    class Descriptor:
        def __set_name__(self, owner, name):
            os.kill(os.getpid(), signal.SIGINT)
            sum(range(100_000))
    class Owner:
        field = Descriptor()
    print("not stopped")
def swallowed():
    run._install_stop_handlers()
    try:
        os.kill(os.getpid(), signal.SIGINT)
        sum(range(100_000))
    except BaseException:
        pass
    run._stop_if_asked()
    print("not stopped")
run.main = {which}
run.entry()
"""


@pytest.mark.parametrize("which", ["interrupted", "swallowed"])
def test_a_stop_wrapped_or_swallowed_on_its_way_up_is_still_a_quiet_stop(which: str) -> None:
    ran = subprocess.run([sys.executable, "-c", STOP_INSIDE_SCRIPT.format(which=which)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (ran.returncode, ran.stdout, ran.stderr) == (128 + signal.SIGINT, "", "\nstopped\n")


def test_make_run_serves_its_pages_and_static_files_with_debug_off(
        tmp_path: Path, leftovers: list[psutil.Process]) -> None:
    port = free_port()
    log = tmp_path / "run.log"
    run = start_run(fresh_env(tmp_path, PORT=str(port)), log)
    leftovers.append(psutil.Process(run.pid))
    wait_for_line(run, log, "is up: http://")
    base = f"http://127.0.0.1:{port}"
    status, kind, _ = fetch(base + "/static/css/site.css")
    assert (status, kind.split(";")[0]) == (200, "text/css")
    status, kind, _ = fetch(base + "/static/js/site.js")
    assert status == 200 and "javascript" in kind
    status, _, page = fetch(base + "/no-such-page/")
    assert status == 404 and "Page not found" in page and "URLconf" not in page
    status, _, page = fetch(base + "/outbox/")
    assert status == 200 and 'data-testid="outbox-empty"' in page
    said = ctrl_c(run, log, leftovers)
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said
    assert run.returncode == 0


# --- the first staff account ---------------------------------------------------------------

@pytest.mark.django_db
def test_the_first_staff_account_made_by_createsuperuser_signs_in(
        outbox: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.management import call_command

    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command("createsuperuser", interactive=False, username="chair",
                 email="chair@example.org", verbosity=0)
    # Its address is not confirmed yet: signing in sends the confirmation mail, which this
    # browser finds in the outbox, and following it finishes signing in.
    client = Client()
    asked = client.post("/accounts/login/", {"login": "chair", "password": PASSWORD},
                        follow=True)
    assert 'href="/outbox/"' in asked.content.decode()
    link = confirmation_link(client.get("/outbox/").content.decode())
    signed_in = client.post(link, follow=True)
    assert signed_in.wsgi_request.user.username == "chair"
    assert signed_in.wsgi_request.user.is_staff
