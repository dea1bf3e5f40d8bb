"""The engines are pure Python: no Django, and strictly typed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NO_DJANGO = """
import sys
sys.modules["django"] = None  # any import of Django now raises ImportError
import games.engine
import games.dominoes.board
import games.dominoes.tiles
import games.spectacular_bid
import games.spectacular_bid.actions
import games.spectacular_bid.record
import games.spectacular_bid.replay
import games.spectacular_bid.rules
import games.spectacular_bid.state
import games.spectacular_bid.view
from games.spectacular_bid.state import Deal, Match

match = Match()
match.deal(Deal.checked([list(range(7)), list(range(7, 14))], list(range(14, 28))))
assert match.apply(0, games.spectacular_bid.actions.CONTINUE, 0).applied
assert match.apply(1, games.spectacular_bid.actions.CONTINUE, 0).applied
match.view(None)
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
assert loaded == ["django"], loaded  # only the blocker itself
print("pure")
"""


def test_engines_import_without_django() -> None:
    done = subprocess.run(
        [sys.executable, "-c", NO_DJANGO],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"


def test_the_blocker_works() -> None:
    """The check above would catch an engine module that imports Django."""
    done = subprocess.run(
        [sys.executable, "-c", 'import sys; sys.modules["django"] = None; import games.models'],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode != 0
    assert "ImportError" in done.stderr or "ModuleNotFoundError" in done.stderr


def test_mypy_strict() -> None:
    mypy = Path(sys.executable).with_name("mypy")
    done = subprocess.run(
        [str(mypy), "--strict"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
