"""A game is a folder and a line (issue 19): the test-only game is hosted by the test run
alone, with its templates and static files found from its own folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from games import registry

from .conftest import KEY, MODULE

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "games" / "hidden_nim"

# What a fresh process hosts, and where its settings look for the games' files.
PROBE = """
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.conf import settings
from games import registry
print(json.dumps({"keys": registry.game_keys(),
                  "static": [str(p) for p in settings.STATICFILES_DIRS],
                  "templates": [str(p) for p in settings.TEMPLATES[0]["DIRS"]]}))
"""


def probe(**env: str) -> dict[str, list[str]]:
    environment = {k: v for k, v in os.environ.items() if k != registry.EXTRA_GAMES_VARIABLE}
    environment.update(env)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    found: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_the_test_run_hosts_it_after_the_registered_games() -> None:
    assert os.environ[registry.EXTRA_GAMES_VARIABLE].split(",").count(MODULE) == 1
    assert (*registry.HOSTED, MODULE) == registry.REGISTERED
    assert registry.game_keys()[-1] == KEY
    assert registry.default_game().key != KEY
    assert registry.by_format("hidden-nim/1") is registry.game(KEY)
    assert [p.key for p in registry.hosted_games()] == registry.game_keys()[:-1]


def test_the_variable_is_read_as_a_comma_separated_list() -> None:
    assert registry.extra_games("") == ()
    assert registry.extra_games(" a.plugin, ,b.plugin ") == ("a.plugin", "b.plugin")


def test_its_templates_and_static_files_are_found_in_its_folder() -> None:
    assert FOLDER / "static" in settings.STATICFILES_DIRS
    assert FOLDER / "templates" in settings.TEMPLATES[0]["DIRS"]
    game = registry.game(KEY)
    for name in (game.board_module, game.replay_module, game.chance_module):
        found = finders.find(name)
        assert found and Path(found).is_relative_to(FOLDER), name
    for name in (game.board_template, game.rules_template):
        assert Path(get_template(name).origin.name).is_relative_to(FOLDER), name


def test_a_process_without_the_variable_does_not_host_it() -> None:
    """``make run`` sets nothing: the platform shows the registered games only."""
    bare = probe()
    assert KEY not in bare["keys"] and bare["keys"]
    assert not any(str(FOLDER) in path for path in bare["static"] + bare["templates"])


def test_a_process_started_with_the_variable_hosts_it() -> None:
    """The processes the tests start (daphne, Celery, manage.py) inherit it."""
    hosted = probe(**{registry.EXTRA_GAMES_VARIABLE: MODULE})
    assert hosted["keys"][-1] == KEY
    assert str(FOLDER / "static") in hosted["static"]
    assert str(FOLDER / "templates") in hosted["templates"]
