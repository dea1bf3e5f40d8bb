"""Schemathesis fuzzes every operation of docs/openapi.yaml against a live daphne.

Each operation gets a bounded, derandomized run of valid and invalid requests, sent with a
player's bearer token, twice each: as generated (ids that mostly name nothing) and with its
path's ids replaced by real ones (an active match, a finished one, an open seek), so that
the bodies reach real objects. No answer may be a 500; every answer must be what the
document says (its status, its content type, and for every error the JSON error shape);
and a request the document calls invalid must be refused (`"rated": "false"` once made a
rated seek). A seek the fuzzer makes is accepted and its match played a move: accepting
one with rules out of range once committed a match that answered 500 ever after.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bots.client import Api, ApiError
from games.spectacular_bid.rules import Rules
from tests.conftest import need

from .helpers import make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "docs" / "openapi.yaml"
# Per operation (17, each example up to two requests; about 45 s in all with the stack's
# start), three times as many where a body carries most of the input.
# SCHEMATHESIS_EXAMPLES raises them for a longer run by hand.
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "12"))
BODY_EXAMPLES = 3 * EXAMPLES

try:
    import requests  # schemathesis's own transport
    import schemathesis
    from hypothesis import HealthCheck, settings
    from schemathesis.checks import not_a_server_error
    from schemathesis.config import SchemathesisConfig
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        negative_data_rejection,
        response_schema_conformance,
        status_code_conformance,
    )
except ImportError as exc:  # not installed: skip, or fail under CI
    missing = str(exc)

    def test_schemathesis_is_installed() -> None:
        need(False, f"needs schemathesis (requirements-dev.txt): {missing}")

else:
    CONFIG = SchemathesisConfig.from_dict({
        "generation": {
            "mode": "all",  # valid and invalid requests
            "max-examples": EXAMPLES,
            "deterministic": True,
            "with-security-parameters": False,  # the real token is sent instead
            "database": "none",
        },
        # The coverage phase sends every boundary case the document allows (177 for
        # POST /api/seeks alone): too many for the suite; the fuzzing phase samples them.
        "phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}},
        "operations": [
            {"include-path": path, "include-method": "POST",
             "generation": {"max-examples": BODY_EXAMPLES}}
            for path in ("/api/seeks", "/api/matches/{match_id}/commands")
        ],
    })
    SCHEMA = schemathesis.openapi.from_path(str(OPENAPI), config=CONFIG)
    CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_schema_conformance, negative_data_rejection]

    @pytest.fixture
    def world(live_stack: Any) -> dict[str, Any]:
        """Two players and the objects the ids in paths may name."""
        _alice, alice_token = make_player("alice")
        _bob, bob_token = make_player("bob")
        alice = Api(live_stack.url, alice_token)
        bob = Api(live_stack.url, bob_token)
        finished = start_match(bob, alice)
        resign(alice, finished)
        active = start_match(bob, alice)
        seek = bob.call("POST", "/api/seeks", {"rated": False})["seek"]
        return {"url": live_stack.url, "token": alice_token, "bob": bob, "match_id": active,
                "finished_id": finished, "seek_id": seek}

    def start_match(creator: Api, opponent: Api) -> str:
        seek = creator.call("POST", "/api/seeks", {"opponent": "alice", "rated": False})["seek"]
        return str(opponent.call("POST", f"/api/seeks/{seek}/accept")["match"]["id"])

    def resign(player: Api, match_id: str) -> None:
        for seat in (0, 1):  # whichever seat is the player's
            try:
                player.call("POST", f"/api/matches/{match_id}/commands",
                            {"action": {"seat": seat, "type": "resign"}})
                return
            except ApiError:
                continue
        raise AssertionError("could not resign")

    def real_ids(case: Any, world: dict[str, Any]) -> dict[str, Any] | None:
        """The case's path parameters pointed at real objects (None: it has none)."""
        params = dict(case.path_parameters or {})
        if not params:
            return None
        if "match_id" in params:
            # Records and frames exist once a match is over; the rest act on a live one.
            over = case.path.endswith(("/record", "/frames", "/rematch"))
            params["match_id"] = world["finished_id" if over else "match_id"]
        if "seek_id" in params:
            params["seek_id"] = world["seek_id"]
        return params

    def as_open_seek(body: Any, world: dict[str, Any]) -> None:
        """The same body without its opponent: most generated names name nobody, and the
        name is checked first, so without this the rules would seldom be read at all."""
        if not isinstance(body, dict) or "opponent" not in body:
            return
        body = {key: value for key, value in body.items() if key != "opponent"}
        response = requests.post(world["url"] + "/api/seeks", json=body, timeout=10,
                                 headers={"Authorization": f"Bearer {world['token']}"})
        assert response.status_code < 500, (body, response.text[:500])
        answer = response.json()
        if response.status_code == 201:
            Rules.from_dict(body.get("rules"))  # accepted: within every range
            play_what_was_posted(answer["seek"], world)
        else:
            assert answer.get("ok") is False and answer.get("code") and answer.get("message")

    def play_what_was_posted(seek: int, world: dict[str, Any]) -> None:
        """A seek the fuzzer made is accepted, and its match must play: accepting it once
        committed a match that answered 500 ever after (rules out of range)."""
        bob: Api = world["bob"]
        try:
            answer = bob.call("POST", f"/api/seeks/{seek}/accept")
        except ApiError as exc:  # a challenge to someone else; never a server error
            assert exc.status < 500 and exc.body.get("ok") is False, exc.body
            return
        if "match" not in answer:  # a table with more seats: it waits
            assert answer.get("waiting") is True, answer
            return
        match = answer["match"]
        for player in (bob, Api(world["url"], world["token"])):
            snapshot = player.call("GET", f"/api/matches/{match['id']}")
            assert snapshot["type"] == "state", snapshot
            legal = snapshot.get("view", {}).get("legal") or []
            if legal:
                try:
                    player.call("POST", f"/api/matches/{match['id']}/commands",
                                {"action": legal[0], "version": snapshot["version"]})
                except ApiError as exc:
                    assert exc.status == 409, exc.body  # late, stale: refused, not broken

    @SCHEMA.parametrize()
    @settings(derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def test_no_operation_answers_a_server_error_or_off_the_document(
            case: Any, world: dict[str, Any]) -> None:
        headers = {"Authorization": f"Bearer {world['token']}"}
        response = case.call_and_validate(base_url=world["url"], headers=headers,
                                          checks=CHECKS, timeout=10)
        if case.path == "/api/seeks" and case.method == "POST":
            if response.status_code == 201:
                play_what_was_posted(response.json()["seek"], world)
            as_open_seek(case.body, world)
        params = real_ids(case, world)
        if params is not None:
            case.path_parameters = params
            case.call_and_validate(base_url=world["url"], headers=headers, checks=CHECKS,
                                   timeout=10)
