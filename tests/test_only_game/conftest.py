"""The test-only game must be hosted: ``python -m config.testrun`` (``make test``) sets
``PLATFORM_EXTRA_GAMES`` before Django reads its settings. A bare ``pytest`` does not, and
these tests then skip (under CI=true they fail instead)."""

from __future__ import annotations

import pytest

from games import registry
from tests.conftest import need

KEY = "hidden-nim"
MODULE = "tests.games.hidden_nim.plugin"


@pytest.fixture(autouse=True)
def _hosted() -> None:
    need(KEY in registry.game_keys(),
         f"{KEY} is not hosted: run the tests with `python -m config.testrun` "
         f"(it sets PLATFORM_EXTRA_GAMES={MODULE})")
