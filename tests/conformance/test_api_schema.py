"""Every hosted game describes its API (``api_schema``), and the descriptions are true.

Random complete games (clocks running out, resignations now and then) through the plugin:
every view of every seat and of a spectator is valid against the game's view schema,
whose objects admit no undocumented field, and every legal action against its action
schema. The API documents are made from the same schemas: they fail here when they
differ from what the games say (``python manage.py api_docs`` rewrites them).
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs  # type: ignore[import-not-found]  # schemathesis's validator
import pytest
import yaml

from games import registry
from games.engine.plugin import GamePlugin
from games.web import api_docs
from tests.conformance.test_every_game import Game, play

HOSTED = registry.hosted_games()
CASES = [(plugin, seats) for plugin in HOSTED for seats in plugin.seat_counts
         if seats <= 4 or seats == max(plugin.seat_counts)]


def _id(case: tuple[GamePlugin, int]) -> str:
    return f"{case[0].key}-{case[1]}"


def _errors(validator: Any, instance: Any) -> list[str]:
    return [f"{e.message} at {list(e.instance_path)}" for e in validator.iter_errors(instance)]


def test_every_hosted_game_describes_its_api() -> None:
    for plugin in HOSTED:
        api = plugin.api_schema()
        assert api is not None, f"{plugin.key}: no api_schema"
        kinds = [kind["properties"]["type"]["const"] for kind in api.action["oneOf"]]
        assert len(kinds) == len(set(kinds)), kinds
        assert "resign" in kinds, plugin.key
        assert api.view["properties"]["game"]["const"] == plugin.key


@pytest.mark.parametrize("case", CASES, ids=_id)
@pytest.mark.parametrize("seed", range(3))
def test_every_view_and_legal_action_is_as_documented(case, seed) -> None:
    plugin, seats = case
    api = plugin.api_schema()
    assert api is not None
    views = jsonschema_rs.validator_for(api.view)
    actions = jsonschema_rs.validator_for(api.action)
    seen_types: set[str] = set()

    def check(game: Game) -> None:
        for seat in [None, *range(seats)]:
            view = json.loads(json.dumps(plugin.view(game.state, seat)))
            assert not _errors(views, view), (seat, _errors(views, view)[:5])
            for action in view["legal"]:
                assert not _errors(actions, action), (action, _errors(actions, action))
                seen_types.add(action["type"])

    game = play(plugin, seats, seed, check)
    check(game)  # the final views too
    assert seen_types, "no legal action seen"


@pytest.mark.parametrize("plugin", HOSTED, ids=lambda p: p.key)
def test_the_action_schema_refuses_what_the_game_refuses(plugin: GamePlugin) -> None:
    api = plugin.api_schema()
    assert api is not None
    actions = jsonschema_rs.validator_for(api.action)
    assert actions.is_valid({"seat": 0, "type": "resign"})
    for wrong in ({"seat": 0, "type": "teleport"}, {"type": "resign"},
                  {"seat": -1, "type": "resign"}, {"seat": 0}):
        assert not actions.is_valid(wrong), wrong
        with pytest.raises(ValueError):
            plugin.action_from_dict(wrong)


def test_the_api_documents_follow_the_games() -> None:
    stale = api_docs.stale_documents()
    assert not stale, f"out of date: {stale}; run python manage.py api_docs"


def test_the_documents_describe_every_view_field_and_action() -> None:
    text = api_docs.API_MD.read_text()
    document = yaml.safe_load(api_docs.OPENAPI.read_text())
    schemas = document["components"]["schemas"]
    refs = {ref["$ref"].rsplit("/", 1)[1] for ref in schemas["Action"]["oneOf"]}
    for plugin in HOSTED:
        api = plugin.api_schema()
        assert api is not None
        name = api_docs.schema_name(plugin)
        assert f"{name}Action" in refs
        assert schemas[f"{name}View"]["properties"].keys() == api.view["properties"].keys()
        section = text.split(f"(`{plugin.key}`)", 1)[1].split("\n### ", 1)[0]
        for field in api.view["properties"]:
            assert f"| `{field}` |" in section, (plugin.key, field)
        for kind in api.action["oneOf"]:
            assert f"| `{kind['properties']['type']['const']}` |" in section


def test_the_openapi_part_is_in_openapi_30s_dialect() -> None:
    def walk(node: Any) -> None:
        if isinstance(node, dict):
            assert "const" not in node, node
            assert not isinstance(node.get("type"), list), node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(api_docs.openapi_schemas())
    assert api_docs.to_openapi30({"type": ["integer", "null"]}) == {"type": "integer",
                                                                   "nullable": True}
    assert api_docs.to_openapi30({"enum": ["a", None]}) == {"enum": ["a"], "nullable": True}


def test_a_random_play_command_body_validates() -> None:
    """A legal action from a view is a valid command body, as a client would send it."""
    for plugin in HOSTED:
        api = plugin.api_schema()
        assert api is not None
        actions = jsonschema_rs.validator_for(api.action)
        game = Game(plugin, plugin.seat_counts[0], 3)
        legal = [a for seat in range(plugin.seat_counts[0]) for a in game.legal(seat)]
        assert legal and all(actions.is_valid(a) for a in legal), plugin.key
