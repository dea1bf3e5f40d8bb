"""Debian's chromium for Playwright: where it is and how it is started here.

The flags keep chromium off the network (nothing outside this machine can be reached)
and let it run as root without a sandbox, headless.
"""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
