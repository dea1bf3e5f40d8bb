"""The search is pure like the engines (``tests/engine/test_purity.py``'s approach): it
imports without Django, reads no clock, draws from no module-level randomness (only a
``random.Random`` passed in), and is ``mypy --strict`` clean."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.engine.test_purity import ROOT

SEARCH = ROOT / "games" / "search"

NO_DJANGO = """
import sys
sys.modules["django"] = None  # any import of Django now raises ImportError
import random
import games.search, games.search.levels
from games import registry
plugin = registry.game("fives")
state = plugin.new_state(plugin.parse_rules(None, 2), 2)
rng = random.Random(1)
plugin.apply_chance(state, plugin.sample_chance(state, rng), 0)
seat = state.to_act()
assert games.search.choose(plugin, state, seat, rng, iterations=5) in state.legal_actions(seat)
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
assert loaded == ["django"], loaded
print("pure")
"""

CLOCKS = {"time", "datetime", "timeit"}


def test_search_imports_without_django() -> None:
    done = subprocess.run(
        [sys.executable, "-c", NO_DJANGO],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"


def offences(path: Path) -> list[str]:
    """Clock imports, and any use of the ``random`` module other than ``random.Random``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in CLOCKS]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[0] in CLOCKS:
                found.append(module)
            if module == "random":
                found += [f"random.{a.name}" for a in node.names if a.name != "Random"]
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == "random" and node.attr != "Random"):
            found.append(f"random.{node.attr}")
    return found


def test_no_clock_and_no_randomness_of_its_own() -> None:
    modules = sorted(SEARCH.glob("*.py"))
    assert len(modules) > 3
    assert {path.name: offences(path) for path in modules} == {p.name: [] for p in modules}


def test_the_checker_catches_both(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nimport random\nx = random.random()\n")
    assert offences(bad) == ["time", "random.random"]


def test_mypy_strict() -> None:
    mypy = Path(sys.executable).with_name("mypy")
    done = subprocess.run(
        [str(mypy), "--strict", "games/search"], cwd=ROOT, capture_output=True, text=True,
        timeout=300, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
