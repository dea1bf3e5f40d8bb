"""Debian's chromium for Playwright: where it is and how it is started here.

The flags keep chromium off the network (nothing outside this machine can be reached)
and let it run as root without a sandbox, headless.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def require_chromium() -> None:
    """Skip without Debian's chromium or Playwright (under CI=true: fail)."""
    from tests.conftest import need

    need(CHROMIUM.exists(), f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        need(False, "playwright is not installed")


@contextmanager
def launched_browser() -> Iterator[Any]:
    """Chromium started through Playwright's sync API, closed at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def browser_with_database() -> Iterator[Any]:
    """Chromium through Playwright's sync API, in a test that also uses the ORM.

    The sync API keeps an event loop running in this thread, and Django then refuses
    ORM calls (the test's own setup and the database flush after it) unless told that
    this is safe: nothing here runs concurrently with them.
    """
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with launched_browser() as browser:
            yield browser
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


# Runs before any script of each page: keeps the CSP violations the browser reports.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
                    + ` (${e.sourceFile || ""}:${e.lineNumber || ""})`);
}, true);
"""
