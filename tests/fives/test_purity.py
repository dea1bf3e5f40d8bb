"""The Fives engine is pure Python (no Django) and passes mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NO_DJANGO = """
import sys
sys.modules["django"] = None  # any import of Django now raises ImportError
import random
import games.fives.bot, games.fives.frames, games.fives.record, games.fives.replay
from games.fives.plugin import GAME

state = GAME.new_state(None, 4)
GAME.apply_chance(state, GAME.sample_chance(state, random.Random(0)), 0)
GAME.view(state, None)
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
assert loaded == ["django"], loaded
print("pure")
"""


def test_imports_without_django() -> None:
    done = subprocess.run(
        [sys.executable, "-c", NO_DJANGO], cwd=ROOT, capture_output=True, text=True,
        timeout=60, check=False, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"


def test_mypy_strict() -> None:
    mypy = Path(sys.executable).with_name("mypy")
    done = subprocess.run(
        [str(mypy), "--strict", "games/fives"], cwd=ROOT, capture_output=True, text=True,
        timeout=300, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
