"""The dice engine is pure Python and strictly typed; its bench runs at a tiny size."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NO_DJANGO = """
import sys, random
sys.modules["django"] = None  # any import of Django now raises ImportError
import games.dice.bot, games.dice.frames, games.dice.odds, games.dice.plugin
import games.dice.record, games.dice.replay, games.dice.state, games.dice.view
from games.dice.plugin import GAME
game = GAME.new_state(GAME.parse_rules(None, 2), 2)
rng = random.Random(0)
while game.needs_chance():
    GAME.apply_chance(game, GAME.sample_chance(game, rng), 0)
GAME.view(game, 0)
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
assert loaded == ["django"], loaded
print("pure")
"""


def test_the_engine_imports_without_django() -> None:
    done = subprocess.run(
        [sys.executable, "-c", NO_DJANGO], cwd=ROOT, capture_output=True, text=True,
        timeout=60, check=False, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"


def test_mypy_strict() -> None:
    mypy = Path(sys.executable).with_name("mypy")
    done = subprocess.run([str(mypy), "--strict", "games/dice"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_bench_at_a_tiny_size() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.dice", "--games", "5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    figures = dict(line.split(": ") for line in done.stdout.splitlines())
    assert int(figures["decisions"]) == 25
    assert float(figures["decisions_per_second"]) > 0
    assert 0 < float(figures["mean_total"]) < 5 * 150
