"""The API documents' per-game parts, built from each game's own schemas (``api_schema``).

``python manage.py api_docs`` writes them between markers into ``docs/api.md`` (a section
a game: its actions and every field of its view) and ``docs/openapi.yaml`` (an ``Action``
and a ``View`` schema a game, and the ``oneOf`` of them the operations use);
``--check`` fails when the files differ from what the games say (CI runs the same check
as a test), so the documents follow the games and never drift.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from games import registry
from games.engine.api_schema import JSON
from games.engine.plugin import GamePlugin

ROOT = Path(__file__).resolve().parents[2]
API_MD = ROOT / "docs" / "api.md"
OPENAPI = ROOT / "docs" / "openapi.yaml"
MD_BEGIN = "<!-- games: made by `python manage.py api_docs` from each game's api_schema.py -->"
MD_END = "<!-- /games -->"
YAML_BEGIN = "    # >>> games: made by `python manage.py api_docs` from each game's api_schema.py"
YAML_END = "    # <<< games"


class DocsOutOfDate(Exception):
    """A document's generated part differs from what the games declare."""


def documented_games() -> list[GamePlugin]:
    return [plugin for plugin in registry.hosted_games() if plugin.api_schema() is not None]


def schema_name(plugin: GamePlugin) -> str:
    """A game key in CamelCase: ``a-key`` -> ``AKey`` (an OpenAPI schema name)."""
    return "".join(part.capitalize() for part in re.split(r"[-_]", plugin.key))


# ------------------------------------------------------------------ markdown


def _type_text(schema: JSON) -> str:
    if "const" in schema:
        return f"`{schema['const']}`"
    if "enum" in schema:
        values = [v for v in schema["enum"] if v is not None]
        text = "one of " + ", ".join(f"`{v}`" for v in values)
        return text + (" or null" if None in schema["enum"] else "")
    if "anyOf" in schema:
        return " or ".join(_type_text(s) for s in schema["anyOf"])
    kind = schema.get("type", "any")
    kinds = kind if isinstance(kind, list) else [kind]
    names = []
    for k in kinds:
        if k == "array":
            names.append(f"array of {_type_text(schema.get('items', {}))}")
        else:
            names.append(str(k))
    return " or ".join(names)


def _inner(schema: JSON) -> JSON:
    """The object or array a nullable composite wraps (its fields are listed below it)."""
    for option in schema.get("anyOf", []):
        if option.get("type") != "null":
            return dict(option)
    return schema


def field_rows(schema: JSON, path: str = "") -> list[tuple[str, str, str]]:
    """(field path, type, meaning) of every field under ``schema``, depth first."""
    rows: list[tuple[str, str, str]] = []
    body = _inner(schema)
    if body.get("type") == "array" or "array" in (body.get("type") or []):
        items = _inner(body.get("items", {}))
        if "properties" in items:
            return field_rows(items, f"{path}[]")
        return rows
    required = set(body.get("required", []))
    for name, sub in body.get("properties", {}).items():
        where = f"{path}.{name}" if path else name
        note = "" if name in required else " (not always present)"
        rows.append((where, _type_text(sub), str(sub.get("description", "")) + note))
        rows.extend(field_rows(sub, where))
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def game_markdown(plugin: GamePlugin) -> str:
    api = plugin.api_schema()
    assert api is not None
    lines = [f"### {plugin.name} (`{plugin.key}`)", "",
             f"Seats: {', '.join(str(n) for n in plugin.seat_counts)}. Actions "
             f"(`{schema_name(plugin)}Action` in `openapi.yaml`), each with your `seat`:", "",
             "| `type` | fields | what it does |", "|---|---|---|"]
    for kind in api.action["oneOf"]:
        props = kind["properties"]
        fields = [f"`{name}`: {_type_text(sub)}" + ("" if name in kind["required"] else
                                                    " (optional)")
                  for name, sub in props.items() if name not in ("seat", "type")]
        lines.append(f"| `{props['type']['const']}` | {_cell('; '.join(fields)) or '-'} | "
                     f"{_cell(kind['description'])} |")
    lines += ["", f"The view (`{schema_name(plugin)}View`): {api.view['description']}.", "",
              "| field | type | meaning |", "|---|---|---|"]
    for where, kind_text, meaning in field_rows(api.view):
        lines.append(f"| `{where}` | {_cell(kind_text)} | {_cell(meaning)} |")
    return "\n".join(lines)


def markdown_block() -> str:
    parts = [MD_BEGIN, "",
             "Each game describes its own actions and view; a client of any game can be "
             "written from its section. `legal` in a view always lists the actions open to "
             "that seat now, in the same shape as the command's `action`.", ""]
    for plugin in documented_games():
        parts += [game_markdown(plugin), ""]
    parts.append(MD_END)
    return "\n".join(parts)


# ------------------------------------------------------------------ OpenAPI 3.0


def to_openapi30(schema: Any) -> Any:
    """JSON Schema (2020-12, as the games write it) in OpenAPI 3.0's dialect: no type
    lists (``nullable``), no ``const`` (a one-value ``enum``)."""
    if isinstance(schema, list):
        return [to_openapi30(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: JSON = {}
    for key, value in schema.items():
        if key == "const":
            out["enum"] = [value]
        elif key == "type" and isinstance(value, list):
            kinds = [k for k in value if k != "null"]
            out["type"] = kinds[0]
            if "null" in value:
                out["nullable"] = True
        elif key == "anyOf" and any(o.get("type") == "null" for o in value):
            inner = [o for o in value if o.get("type") != "null"]
            out.update(to_openapi30(inner[0]))
            out["nullable"] = True
        elif key == "enum" and None in value:
            out["enum"] = [v for v in value if v is not None]
            out["nullable"] = True
        elif key == "required" and not value:
            continue  # OpenAPI 3.0 wants at least one name in a `required` list
        elif key == "properties":
            out[key] = {name: to_openapi30(sub) for name, sub in value.items()}
        else:
            out[key] = to_openapi30(value)
    return out


def openapi_schemas() -> JSON:
    schemas: JSON = {}
    games = documented_games()
    schemas["Action"] = {
        "description": "A command's action: record-shaped (`shared/spec/`), one of the "
                       "games' (docs/api.md, 'The games')",
        "oneOf": [{"$ref": f"#/components/schemas/{schema_name(p)}Action"} for p in games],
    }
    schemas["View"] = {
        "description": "A seat's or a spectator's view: one of the games' (by `game`)",
        "oneOf": [{"$ref": f"#/components/schemas/{schema_name(p)}View"} for p in games],
    }
    for plugin in games:
        api = plugin.api_schema()
        assert api is not None
        schemas[f"{schema_name(plugin)}Action"] = to_openapi30(api.action)
        schemas[f"{schema_name(plugin)}View"] = to_openapi30(api.view)
    return schemas


def yaml_block() -> str:
    text = yaml.safe_dump(openapi_schemas(), sort_keys=False, width=100, allow_unicode=True)
    body = "\n".join(("    " + line) if line else line for line in text.splitlines())
    return f"{YAML_BEGIN}\n{body}\n{YAML_END}"


# ------------------------------------------------------------------ the files


def _between(text: str, begin: str, end: str) -> tuple[int, int]:
    start = text.find(begin)
    stop = text.find(end, start)
    if start < 0 or stop < 0:
        raise DocsOutOfDate(f"the markers {begin!r} ... {end!r} are missing")
    return start, stop + len(end)


def updated(path: Path, block: str, begin: str, end: str) -> tuple[str, str]:
    """(the file's text now, the text with its generated block made anew)."""
    text = path.read_text(encoding="utf-8")
    start, stop = _between(text, begin, end)
    return text, text[:start] + block + text[stop:]


def documents() -> list[tuple[Path, str, str]]:
    """(path, text now, text as the games say) for each document."""
    out = []
    for path, block, begin, end in ((API_MD, markdown_block(), MD_BEGIN, MD_END),
                                    (OPENAPI, yaml_block(), YAML_BEGIN, YAML_END)):
        now, wanted = updated(path, block, begin, end)
        out.append((path, now, wanted))
    return out


def stale_documents() -> list[Path]:
    return [path for path, now, wanted in documents() if now != wanted]


def write_documents() -> list[Path]:
    written = []
    for path, now, wanted in documents():
        if now != wanted:
            path.write_text(wanted, encoding="utf-8")
            written.append(path)
    return written
