"""Every registered game and the shared pure packages are pure Python, strictly typed.

For each package: every module of it imports without Django, and using it (a game played a
few decisions through its plugin, the search choosing, a Swiss round paired) loads no
Django either (in a subprocess, Django blocked); no module reads a clock or draws from
module-level randomness (time comes in as ``now_us``, chance from a ``random.Random``
passed in); and one ``mypy --strict`` run over all of them is clean.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from games import registry

ROOT = Path(__file__).resolve().parents[2]
ENV = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}

# The module of each registered game's plugin, and that game's package.
GAME_PLUGINS = {path.rsplit(".", 1)[0]: path for path in registry.REGISTERED}
SHARED = ["games.engine", "games.dominoes", "games.search", "tournaments.formats",
          "ratings.elo"]
PACKAGES = [*GAME_PLUGINS, *SHARED]

# Imports every module of the package named in argv[1] with Django blocked, runs argv[2],
# and checks that nothing of Django was loaded.
NO_DJANGO = """
import importlib, pkgutil, random, sys
sys.modules["django"] = None  # any import of Django now raises ImportError
package = importlib.import_module(sys.argv[1])
for module in pkgutil.walk_packages(getattr(package, "__path__", []), package.__name__ + "."):
    importlib.import_module(module.name)
exec(sys.argv[2])
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
assert loaded == ["django"], loaded  # only the blocker itself
print("pure")
"""

# A few decisions of every seat count through the plugin interface alone.
PLAY = """
plugin = importlib.import_module({plugin_module!r}).GAME
rng = random.Random(0)
for seats in plugin.seat_counts:
    state = plugin.new_state(plugin.parse_rules(None, seats), seats)
    now = 0
    for _ in range(12):
        for _ in range(64):
            if not state.needs_chance() or state.result is not None:
                break
            plugin.apply_chance(state, plugin.sample_chance(state, rng), now)
        plugin.view(state, None)
        views = [plugin.view(state, seat) for seat in range(seats)]
        movers = [(seat, view) for seat, view in enumerate(views) if view.get("legal")]
        if state.result is not None or not movers:
            break
        seat, view = movers[0]
        action = plugin.bot_action(view, rng) or view["legal"][0]
        now += 700_000
        state.apply(*plugin.action_from_dict(action), now)
"""

SEARCH = """
import games.search
from games import registry
searched = 0
for plugin in registry.all_games():
    seats = min(plugin.seat_counts)
    state = plugin.new_state(plugin.parse_rules(None, seats), seats)
    rng = random.Random(1)
    while state.needs_chance() and state.result is None:
        plugin.apply_chance(state, plugin.sample_chance(state, rng), 0)
    seat = state.to_act()
    if seat is None:  # no decision to search yet (Spectacular Bid: both seats continue)
        continue
    choice = games.search.choose(plugin, state, seat, rng, iterations=5)
    assert choice in state.legal_actions(seat), (plugin.key, choice)
    searched += 1
assert searched, "no game had a decision to search"
"""

SWISS_ROUND = """
import tournaments.formats as f
players = [f.PlayerEntry(i, 2000 - i) for i in range(1, 6)]
pairings = f.swiss_pair(players, [], 1)
games = [f.Game(p, None if p.is_bye else f.GameResult.draw()) for p in pairings]
f.to_csv(f.standings(f.Format.SWISS, players, games))
f.to_trf(players, games)
"""

USES = {
    **{package: PLAY.format(plugin_module=plugin) for package, plugin in GAME_PLUGINS.items()},
    "games.search": SEARCH,
    "tournaments.formats": SWISS_ROUND,
}

CLOCKS = {"time", "datetime", "timeit"}


def run_python(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False, env=ENV)


def package_path(package: str) -> str:
    """Where a package (its folder) or a single module (its file) is, from the root."""
    path = Path(package.replace(".", "/"))
    return str(path if (ROOT / path).is_dir() else path.with_suffix(".py"))


def source_files(package: str) -> list[Path]:
    path = ROOT / package_path(package)
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


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


def test_every_registered_game_is_checked() -> None:
    keys = {plugin.key for plugin in registry.all_games()}
    packages = {type(plugin).__module__.rsplit(".", 1)[0] for plugin in registry.all_games()}
    assert len(GAME_PLUGINS) == len(keys) >= 3
    assert packages <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_and_runs_without_django(package: str) -> None:
    done = run_python("-c", NO_DJANGO, package, USES.get(package, ""))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure"


def test_the_blocker_works() -> None:
    """The check above would catch a module that imports Django."""
    done = run_python("-c", NO_DJANGO, "games.models", "")
    assert done.returncode != 0
    assert "ImportError" in done.stderr or "ModuleNotFoundError" in done.stderr


@pytest.mark.parametrize("package", PACKAGES)
def test_no_clock_and_no_randomness_of_its_own(package: str) -> None:
    modules = source_files(package)
    assert modules and all(path.is_file() for path in modules), modules
    found = {str(path.relative_to(ROOT)): offences(path) for path in modules}
    assert {name: bad for name, bad in found.items() if bad} == {}


def test_the_checker_catches_both(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nimport random\nx = random.random()\n")
    assert offences(bad) == ["time", "random.random"]


def test_make_lint_types_every_package() -> None:
    """``make lint`` (plain ``mypy``, pyproject's files) covers all the pure packages."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert {package_path(package) for package in PACKAGES} <= set(config["files"])


def test_mypy_strict() -> None:
    """One run over every package (and the registry itself)."""
    mypy = Path(sys.executable).with_name("mypy")
    paths = [package_path(package) for package in PACKAGES] + ["games/registry.py"]
    done = subprocess.run([str(mypy), "--strict", *paths], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
