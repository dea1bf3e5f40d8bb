"""What the browser tests share: chromium for a test module, and a player in it.

Each test file keeps what is its own (a game's moves, a page's waits) in a subclass of
``Player``; the context, its page, its errors and CSP violations, logging in, signing up,
the public API from the page and screenshots are here once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.chromium import RECORD_VIOLATIONS, browser_with_database, require_chromium
from tests.conftest import ARTIFACTS

Viewport = tuple[int, int]
DESKTOP: Viewport = (1280, 900)

NAVIGATION_RETRIES = 3  # reads of a page that is navigating by itself

# A call of the public API from the page, with its session and CSRF token: [status, JSON].
FETCH_JSON = """async ([method, path, body]) => {
    const m = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
    const headers = {"X-CSRFToken": m ? decodeURIComponent(m[1]) : "",
                     "Content-Type": "application/json"};
    const data = body === null ? undefined : JSON.stringify(body);
    const r = await fetch(path, {method, headers, body: data});
    return [r.status, await r.json()];
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium for the module's tests; the test's ORM calls stay allowed."""
    require_chromium()
    ARTIFACTS.mkdir(exist_ok=True)
    with browser_with_database() as launched:
        yield launched


def session_cookie(user: Any, base: str) -> dict[str, str]:
    """The session cookie of ``user``, logged in by Django's test client."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}


def console_error(message: Any) -> str | None:
    """Any console error is a problem."""
    return f"console: {message.text}" if message.type == "error" else None


def is_csp_complaint(text: str) -> bool:
    return "Content Security Policy" in text or "Content-Security-Policy" in text


class Player:
    """A browser context of its own (cookies, websocket), its page, and what went wrong."""

    shot_prefix = ""  # screenshots are ARTIFACTS / f"{shot_prefix}{name}.png"
    violations_wait_ms = 200  # the browser reports CSP violations asynchronously
    page_object = "tablePage"  # the match page's script object, window.<page_object>

    def __init__(self, browser: Any, base: str, name: str, *, viewport: Viewport = DESKTOP,
                 timeout_ms: int | None = None, **context_options: Any) -> None:
        self.base = base
        self.name = name
        size = {"width": viewport[0], "height": viewport[1]}
        self.context = browser.new_context(**{"viewport": size, **context_options})
        self.context.add_init_script(RECORD_VIOLATIONS)
        self.page = self.context.new_page()
        if timeout_ms is not None:
            self.page.set_default_timeout(timeout_ms)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        self.page.on("console", self._on_console)

    def console_problem(self, message: Any) -> str | None:
        """What a console message says went wrong, if anything (by default: nothing)."""
        return None

    def _on_console(self, message: Any) -> None:
        problem = self.console_problem(message)
        if problem is not None:
            self.errors.append(problem)

    def log_in(self, user: Any) -> None:
        """Logged in as ``user`` without the form (the session cookie set)."""
        self.context.add_cookies([session_cookie(user, self.base)])

    def sign_up(self, password: str) -> None:
        """The sign-up form filled in and sent; verification is off, so: in the lobby."""
        page = self.page
        page.goto(self.base + "/accounts/signup/")
        form = page.locator("form[action='/accounts/signup/']")
        form.locator("input[name=email]").fill(f"{self.name}@example.com")
        form.locator("input[name=username]").fill(self.name)
        form.locator("input[name=password1]").fill(password)
        form.locator("input[name=password2]").fill(password)
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        page.wait_for_selector("#lobby")

    def go(self, path: str) -> None:
        self.page.goto(self.base + path)

    def testid(self, name: str) -> Any:
        return self.page.locator(f"[data-testid={name}]")

    def shot(self, name: str, full: bool = True) -> None:
        self.page.screenshot(path=str(ARTIFACTS / f"{self.shot_prefix}{name}.png"),
                             full_page=full)

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """A call of the public API from this page: ``[status, answer]``."""
        return self.page.evaluate(FETCH_JSON, [method, path, body])

    @property
    def state(self) -> Any:
        """The match page's state (read only); None before the page has one."""
        return self.page.evaluate(f"() => window.{self.page_object}"
                                  f" && window.{self.page_object}.state")

    @property
    def version(self) -> int:
        """The version of the state the match page shows; -1 off a match page."""
        return int(self.page.evaluate(f"() => window.{self.page_object}"
                                      f" ? window.{self.page_object}.version : -1"))

    def wait_version(self, above: int, timeout_ms: float | None = None) -> None:
        """Until the match page shows a state after version ``above``."""
        self.page.wait_for_function(f"() => window.{self.page_object}.version > {above}",
                                    timeout=timeout_ms)

    def csp_violations(self) -> list[str]:
        """The CSP violations of the page now shown (the list starts again on navigation:
        a page that moves on by itself, as a tournament's page to a player's new game,
        is read once it has loaded)."""
        from playwright.sync_api import Error as PlaywrightError

        for _ in range(NAVIGATION_RETRIES):
            try:
                return list(self.page.evaluate("() => window.__csp || []"))
            except PlaywrightError as error:
                if "context was destroyed" not in str(error):
                    raise
                self.page.wait_for_load_state()
        return list(self.page.evaluate("() => window.__csp || []"))

    def collect(self) -> None:
        """The CSP violations of the page now shown, kept with its URL in ``errors``."""
        self.page.wait_for_timeout(self.violations_wait_ms)
        self.errors += [f"{self.page.url}: {found}" for found in self.csp_violations()]

    def check_clean(self) -> None:
        csp = self.csp_violations()
        assert not csp, (self.name, csp)
        assert not self.errors, (self.name, self.errors)

    def close(self) -> None:
        self.context.close()


@contextlib.contextmanager
def playing(*players: Player, failure: str) -> Iterator[contextlib.ExitStack]:
    """A test's players at work. On any failure each takes a screenshot before the error goes
    on (``failure``, its ``{name}`` the player's); whatever happens, what the test puts on
    the stack this gives (bots to stop...) is undone, then the players' contexts are closed."""
    with contextlib.ExitStack() as stack:
        for player in players:
            stack.callback(player.context.close)
        try:
            yield stack
        except BaseException:
            for player in players:
                with contextlib.suppress(Exception):  # the failure itself matters more
                    player.shot(failure.format(name=player.name))
            raise
