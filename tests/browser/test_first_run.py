"""A new user's first run, in chromium, against the platform as ``make run`` starts it.

``python run.py`` (what ``make run`` runs) in a shell without the test run's settings:
DEBUG off, SQLite and a private Redis in a fresh var/, no mail configured. A player signs
up, is sent from the "verify your address" page to the outbox, follows the confirmation
link there and is signed in; a mistyped address shows the site's own page, in Russian for a
Russian browser. No page breaks the content security policy.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config.embedded import free_port
from tests.browser.conftest import Player, playing

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-first-run-browser-1"
START_TIMEOUT_S = 90.0


class Newcomer(Player):
    shot_prefix = "first-run-"


@pytest.fixture(scope="module")
def club_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The platform as a club starts it; yields its base URL."""
    var = tmp_path_factory.mktemp("first-run-var")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DEBUG", "SECRET_KEY", "EMAIL_BACKEND", "EMAIL_HOST", "DATABASE_URL",
                        "REDIS_URL", "TEST_FIXED_DEALS", "ACCOUNT_EMAIL_VERIFICATION",
                        "ACCOUNT_RATE_LIMITS_OFF", "PLATFORM_EXTRA_GAMES")}
    port = free_port()
    env.update(VAR_DIR=str(var), PORT=str(port), LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1")
    log_path = var / "run.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen([sys.executable, "run.py"], cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            assert proc.poll() is None, log_path.read_text()[-3000:]
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, log_path.read_text()[-3000:]
            time.sleep(0.3)
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_sign_up_is_confirmed_from_the_outbox(club_server: str, browser: Any) -> None:
    person = Newcomer(browser, club_server, "newcomer")
    page = person.page
    with playing(person, failure="{name}-failed"):
        person.go("/accounts/signup/")
        form = page.locator("form[action='/accounts/signup/']")
        form.locator("input[name=email]").fill("newcomer@example.org")
        form.locator("input[name=username]").fill("newcomer")
        form.locator("input[name=password1]").fill(PASSWORD)
        form.locator("input[name=password2]").fill(PASSWORD)
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        person.testid("outbox-hint").wait_for()
        person.collect()
        person.shot("verification-sent")

        with page.expect_navigation():
            person.testid("outbox-link").click()
        mail = person.testid("outbox-mail")
        assert mail.count() == 1
        assert "newcomer@example.org" in mail.inner_text()
        person.collect()
        person.shot("outbox")

        with page.expect_navigation():
            mail.locator("a[href*='/accounts/confirm-email/']").click()
        person.collect()
        person.shot("confirm")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        assert person.testid("current-user").inner_text() == "newcomer"
        person.collect()
        person.shot("signed-in")
        person.check_clean()


def test_a_mistyped_address_shows_the_sites_page_in_russian(club_server: str,
                                                            browser: Any) -> None:
    person = Newcomer(browser, club_server, "reader", locale="ru-RU")
    with playing(person, failure="{name}-failed"):
        answer = person.page.goto(club_server + "/no-such-page/")
        assert answer is not None and answer.status == 404
        assert person.testid("error-title").inner_text() == "Страница не найдена"
        # The site's look: its stylesheet applied (served with DEBUG off), the header shown.
        width = person.page.evaluate(
            "() => getComputedStyle(document.querySelector('main.auth')).maxWidth")
        assert width == "500px"
        person.collect()
        person.shot("404-ru")
        person.check_clean()
