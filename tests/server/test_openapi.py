"""docs/openapi.yaml stays in step with docs/api.md's HTTP table and with the URLconf.

Every `METHOD /path` row of api.md is an operation of the document and vice versa; every
route under /api/ (with the methods its view allows) is one too; every error answer is
documented in the error shape; the table rules' ranges are the engine's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.urls import URLPattern, URLResolver, get_resolver

from games.spectacular_bid.rules import RANGES
from games.web import api

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "docs" / "openapi.yaml"
API_MD = ROOT / "docs" / "api.md"
METHODS = ("get", "post", "put", "patch", "delete")
Operation = tuple[str, str]  # ("POST", "/api/seeks/{seek_id}/accept")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(OPENAPI.read_text())
    return data


def operations(document: dict[str, Any]) -> set[Operation]:
    return {(method.upper(), path) for path, item in document["paths"].items()
            for method in item if method in METHODS}


def shape(path: str) -> str:
    """A path with its parameters unnamed: api.md writes <id>, OpenAPI {seek_id}."""
    return re.sub(r"<[^>]*>|\{[^}]*\}", "{}", path)


def api_md_operations() -> set[Operation]:
    text = API_MD.read_text()
    section = text.split("\n## HTTP\n", 1)[1].split("\n## ", 1)[0]
    found: set[Operation] = set()
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        first_cell = line.split("|")[1]
        for method, path in re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`?\s]*)", first_cell):
            found.add((method, shape(path)))
    return found


def url_operations() -> set[Operation]:
    """(method, path) of every route under /api/, from the views' allowed methods."""
    found: set[Operation] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + route)
                continue
            assert isinstance(pattern, URLPattern)
            full = prefix + route
            if not full.startswith("api/") or pattern.callback is api.not_found:
                continue
            methods = getattr(pattern.callback, "api_methods", None)
            assert methods, f"{full}: its view does not say which methods it allows"
            path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", full)
            found.update((method, path) for method in methods)

    walk(get_resolver().url_patterns, "")
    return found


def test_every_api_md_row_is_an_operation_and_every_operation_a_row(document) -> None:
    documented = {(method, shape(path)) for method, path in operations(document)}
    in_md = api_md_operations()
    assert len(in_md) >= 10, "api.md's HTTP table was not found"
    assert in_md - documented == set(), "in docs/api.md, not in docs/openapi.yaml"
    assert documented - in_md == set(), "in docs/openapi.yaml, not in docs/api.md"


def test_every_route_under_api_is_an_operation_and_every_operation_a_route(document) -> None:
    routes = url_operations()
    documented = operations(document)
    assert routes - documented == set(), "routed in games/urls.py, not in docs/openapi.yaml"
    assert documented - routes == set(), "in docs/openapi.yaml, not routed"


def test_path_parameters_are_declared(document) -> None:
    for path, item in document["paths"].items():
        names = set(re.findall(r"\{(\w+)\}", path))
        for method, operation in item.items():
            declared = {resolve(document, p)["name"] for p in operation.get("parameters", [])
                        if resolve(document, p)["in"] == "path"}
            assert declared == names, f"{method.upper()} {path}"


def resolve(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def error_schemas(document: dict[str, Any], response: dict[str, Any]) -> list[dict[str, Any]]:
    schema = resolve(document, response)["content"]["application/json"]["schema"]
    options = schema.get("anyOf", [schema])
    return [resolve(document, option) for option in options]


def test_every_error_answer_is_in_the_error_shape(document) -> None:
    error = document["components"]["schemas"]["Error"]
    assert error["required"] == ["ok", "code", "message"]
    assert error["properties"]["ok"]["enum"] == [False]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            answers = operation["responses"]
            statuses = {int(status) for status in answers}
            assert any(status < 300 for status in statuses), f"{method} {path}: no success"
            if operation.get("security", document["security"]):
                assert 401 in statuses, f"{method.upper()} {path} needs a login: 401"
            for status, response in answers.items():
                if int(status) >= 400:
                    assert error in error_schemas(document, response), f"{method} {path} {status}"


def test_bearer_tokens_are_the_security_scheme(document) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    assert {"bearerAuth": []} in document["security"]


def test_the_table_rules_schema_is_the_engines_ranges(document) -> None:
    schema = document["components"]["schemas"]["Rules"]
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == set(RANGES)
    for name, bounds in RANGES.items():
        documented = schema["properties"][name]
        if bounds.kind == "bool":
            assert documented["type"] == "boolean", name
            continue
        assert documented["type"] == ("integer" if bounds.kind == "points" else "number"), name
        assert (documented["minimum"], documented["maximum"]) == (bounds.low, bounds.high), name
        if bounds.kind == "points":
            assert documented["multipleOf"] == bounds.step, name


def test_the_document_is_valid_openapi() -> None:
    openapi = pytest.importorskip("schemathesis.openapi", reason="schemathesis validates it")
    openapi.from_path(str(OPENAPI)).validate()


def test_the_games_are_the_registrys(document) -> None:
    registry = pytest.importorskip("games.registry")
    documented = document["components"]["schemas"]["Game"]["enum"]
    assert documented == [plugin.key for plugin in registry.hosted_games()]  # not test-only
