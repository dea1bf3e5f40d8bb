"""What a game tells API clients about itself: a JSON Schema of its actions and of its view.

Each game declares both in its own folder (``GamePlugin.api_schema``); the API documents
(``docs/openapi.yaml`` and the per-game section of ``docs/api.md``) are built from them
(``games/web/api_docs.py``), and the conformance tests check every view and every legal
action of random games against them, so the documents cannot drift from the games.
The helpers below keep the schemas short; a schema is plain JSON (draft 2020-12, which
OpenAPI 3.1 uses), with a ``description`` on every field a client reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class GameApi:
    """A game's schemas: one action (``oneOf`` its kinds) and one seat's or spectator's view."""

    action: JSON
    view: JSON


def obj(description: str, properties: Mapping[str, JSON],
        required: Sequence[str] | None = None, closed: bool = True) -> JSON:
    """An object; every property required unless ``required`` names fewer; ``closed``:
    no other property may appear (a field the game adds must be documented first)."""
    schema: JSON = {
        "type": "object",
        "description": description,
        "required": list(properties if required is None else required),
        "properties": dict(properties),
    }
    if closed:
        schema["additionalProperties"] = False
    return schema


def of(kind: str, description: str, **more: Any) -> JSON:
    return {"type": kind, "description": description, **more}


def nullable(schema: JSON, when: str = "") -> JSON:
    """``schema`` or null (``when`` says when it is null)."""
    out = dict(schema)
    kind = out.get("type")
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
    elif isinstance(kind, str):
        out["type"] = [kind, "null"]
    else:  # a composite: null as one more alternative
        out = {"description": out.pop("description", ""), "anyOf": [out, {"type": "null"}]}
    if when:
        out["description"] = f"{out.get('description', '')} (null {when})".strip()
    return out


def array(description: str, items: JSON, **more: Any) -> JSON:
    return {"type": "array", "description": description, "items": items, **more}


def seat_index(description: str, seats: int) -> JSON:
    return of("integer", description, minimum=0, maximum=seats - 1)


def action_kind(kind: str, description: str, seats: int, fields: Mapping[str, JSON] | None = None,
                optional: Sequence[str] = ()) -> JSON:
    """One kind of action: ``{"seat", "type": kind, ...fields}``."""
    properties: JSON = {
        "seat": seat_index("the seat acting (yours)", seats),
        "type": {"const": kind, "description": "the action's type"},
        **(fields or {}),
    }
    required = [name for name in properties if name not in optional]
    # Open: the server ignores fields an action does not use (a record's own, say).
    return obj(description, properties, required, closed=False)


def actions(description: str, kinds: Sequence[JSON]) -> JSON:
    return {"description": description, "oneOf": list(kinds)}


def reasons_text(reasons: Mapping[str, str]) -> str:
    return ", ".join(f"`{key}` ({text})" for key, text in reasons.items())


def clock_schema() -> JSON:
    """The match clock of a game with time banks (``games/engine/clock.py``), in match time."""
    seconds = of("number", "")
    return obj("the clock, in seconds of match time (the state message's `server_now`)", {
        "banks": array("each seat's time left when its turn started", seconds),
        "running": nullable(of("integer", "the seat whose time runs"), "when none runs"),
        "started": nullable(of("number", "when the running turn started"), "when none runs"),
        "delay": nullable(of("number", "seconds of each turn not taken from the bank"),
                          "when none runs"),
        "deadline": nullable(of("number", "when the next timed event is due (a flag)"),
                             "when none is due"),
    })


def rules_schema(conventions: Sequence[Any]) -> JSON:
    """A table's ``rules`` object from the game's conventions (``plugin.Convention``):
    each key typed and bounded as the lobby asks for it; fixed ones are not chosen."""
    kinds = {"bool": "boolean", "int": "integer", "float": "number", "choice": "string"}
    properties: JSON = {}
    for c in conventions:
        if c.fixed:
            continue
        field = of(kinds.get(c.kind, "string"), f"{c.label} (default {c.default!r})")
        if c.choices:
            field["enum"] = list(c.choices)
        if c.minimum is not None:
            field["minimum"] = c.minimum
        if c.maximum is not None:
            field["maximum"] = c.maximum
        properties[c.key] = field
    return obj("the table's conventions (the record's `rules`)", properties, required=[])
