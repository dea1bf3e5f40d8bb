"""Every refusal reason a game can give reaches the user in their language.

The games are pure and speak English; each reason is marked where it is given
(``gettext_noop``, or a ``Reason`` with numbers in it). These tests read the games'
rules as source, so a reason added without its mark, or without its translations,
fails here rather than showing English to a Russian player.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from games import registry
from games.engine.protocol import Reason
from games.play.reasons import translate

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("ru", "pt", "fr")


def _state_modules() -> list[Path]:
    folders = {type(plugin).__module__.rsplit(".", 1)[0] for plugin in registry.all_games()}
    return sorted(ROOT.joinpath(*folder.split("."), "state.py") for folder in folders)


def _shared_modules() -> list[Path]:
    """The shared rules the games call for their refusals (the dominoes board)."""
    return sorted((ROOT / "games" / "dominoes").glob("*.py"))


def _checks(tree: ast.AST) -> list[ast.FunctionDef]:
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("_check")]


def _is_text(node: ast.AST | None) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


def _marked(tree: ast.AST) -> list[str]:
    return [node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop"
            and node.args and isinstance(node.args[0], ast.Constant)]


def test_every_game_has_its_rules_in_a_state_module() -> None:
    assert len(_state_modules()) == len(registry.all_games())
    assert all(path.exists() for path in _state_modules())


@pytest.mark.parametrize("path", _state_modules(), ids=lambda p: p.parent.name)
def test_every_refusal_is_marked_for_translation(path: Path) -> None:
    tree = ast.parse(path.read_text())
    unmarked = []
    for check in _checks(tree):
        for node in ast.walk(check):
            if isinstance(node, ast.Return) and _is_text(node.value):
                unmarked.append(f"{path.name}:{node.lineno} {ast.unparse(node.value)}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Illegal"
                and node.args and _is_text(node.args[0])):
            unmarked.append(f"{path.name}:{node.lineno} {ast.unparse(node.args[0])}")
    assert unmarked == [], "\n".join(unmarked)


@pytest.mark.parametrize("path", _state_modules() + _shared_modules(),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_reason_is_translated(path: Path, language: str) -> None:
    reasons = _marked(ast.parse(path.read_text()))
    assert reasons or path.parent.name == "dominoes"
    with translation.override(language):
        untranslated = [reason for reason in reasons
                        if translate(reason).rstrip(".").lower() == reason.lower()]
    assert untranslated == []


def test_a_reason_with_numbers_is_translated_and_filled_in() -> None:
    reason = Reason("the lowest bid is %(bid)s", bid=15)
    assert reason == "the lowest bid is 15"
    assert translate(reason) == "The lowest bid is 15."
    with translation.override("fr"):
        assert translate(reason) == "L'enchère minimale est de 15."
