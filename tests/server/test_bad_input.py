"""Bad input to the HTTP API and pages is a clear 400 or 404, never a 500 (review findings
4, 7 and 8): bounded table rules, strict JSON (no NaN, Infinity or 1e309), NUL bytes in
names and filters, and booleans that are booleans.

Run it on PostgreSQL too (``DATABASE_URL=postgres://...``): that is where a NUL fails.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Match, Seek
from games.spectacular_bid.rules import RANGES, Rules, RulesError
from tests.api_client import ApiClient, accepted_match
from tests.engine.helpers import PLAIN_DEAL, start

pytestmark = pytest.mark.django_db

JSON = dict[str, Any]


def new_match(creator: ApiClient, opponent: ApiClient, rules: JSON | None = None) -> str:
    """A casual challenge accepted over the API: the match's id."""
    extra: JSON = {} if rules is None else {"rules": rules}
    return str(accepted_match(creator, opponent, rated=False, **extra)["id"])


def version_of(player: ApiClient, match_id: str) -> int:
    return int(player.get(f"/api/matches/{match_id}").json()["version"])


def assert_error(response: Any, status: int = 400, code: str | None = None) -> str:
    """The documented error shape (a command's answer adds its version); the message."""
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) - {"version"} == {"ok", "code", "message"}, body
    assert body["ok"] is False and isinstance(body["code"], str), body
    assert isinstance(body["message"], str) and body["message"], body
    if code is not None:
        assert body["code"] == code, body
    return str(body["message"])


# ------------------------------------------------------------ finding 4: rules

def in_range_values(name: str) -> list[Any]:
    bounds = RANGES[name]
    if bounds.kind == "bool":
        return [True, False]
    if bounds.kind == "points":
        return [bounds.low, bounds.high, float(bounds.low)]  # 5.0 is a whole number
    return [bounds.low, bounds.high, (bounds.low + bounds.high) / 3]


def out_of_range_values(name: str) -> list[Any]:
    bounds = RANGES[name]
    if bounds.kind == "bool":
        return [1, 0, "true", None, [], {}]
    wrong = [bounds.low - bounds.step, bounds.high + bounds.step, 1e300, -1e300, 1e23,
             10**400, float("nan"), float("inf"), float("-inf"), True, False, "10", None,
             [5], {"value": 5}]
    if bounds.kind == "points":
        wrong += [bounds.low + 1, bounds.low + 0.5]
    return wrong


@pytest.mark.parametrize("name", sorted(RANGES))
def test_every_rule_has_a_range_and_its_ends_are_accepted(name: str) -> None:
    for value in in_range_values(name):
        rules = Rules.from_dict({name: value})
        assert getattr(rules, name) == value
        rules.check()


@pytest.mark.parametrize("name", sorted(RANGES))
def test_a_rule_outside_its_range_is_refused_naming_it_and_its_range(name: str) -> None:
    described = RANGES[name].describe()
    for value in out_of_range_values(name):
        with pytest.raises(RulesError) as caught:
            Rules.from_dict({name: value})
        assert name in str(caught.value) and described in str(caught.value), value
        assert caught.value.rule == name


def a_value_for(name: str) -> st.SearchStrategy[Any]:
    """Anything JSON may carry, with the rule's own range (and just past it) often."""
    bounds = RANGES[name]
    near = st.integers(bounds.low - 10, bounds.high + 10)
    if bounds.kind == "points":
        near = near.map(lambda v: v - v % 5)
    return st.one_of(near, st.integers(), st.floats(), st.booleans(), st.none(),
                     st.text(max_size=3), st.lists(st.integers(), max_size=2))


any_rules = st.fixed_dictionaries({}, optional={name: a_value_for(name) for name in RANGES})
INT64 = 2**63


@settings(max_examples=300, derandomize=True, deadline=None)
@given(data=any_rules)
def test_rules_either_refused_or_playable_and_broadcastable(data: dict[str, Any]) -> None:
    """No rules without a RulesError that a match cannot start and show (the platform's
    broadcast is orjson: numbers must fit in 64 bits)."""
    try:
        rules = Rules.from_dict(data)
    except RulesError as exc:
        assert exc.rule in data  # it names the rule that is wrong
        return
    for us in (rules.bank_us, rules.delay_us, rules.grace_us):
        assert 0 <= us < INT64
    match = start(PLAIN_DEAL, rules)
    for seat in (0, 1, None):
        orjson.dumps(match.view(seat))


def test_unknown_rules_and_non_objects_are_refused() -> None:
    with pytest.raises(RulesError, match="handicap"):
        Rules.from_dict({"start_points": 150, "handicap": 5})
    for data in ([], "150", 150, True):
        with pytest.raises(RulesError, match="object"):
            Rules.from_dict(data)


@pytest.mark.parametrize("rules, named", [
    ({"bank_s": 1e300}, "bank_s"),
    ({"start_points": 1e23}, "start_points"),
    ({"start_points": 7}, "start_points"),
    ({"delay_s": -1}, "delay_s"),
    ({"grace_s": 0}, "grace_s"),
    ({"min_bid": 0}, "min_bid"),
    ({"bid_step": 10005}, "bid_step"),
    ({"jockey_discount": 12}, "jockey_discount"),
    ({"bank_s": True}, "bank_s"),
    ({"one_device": "no"}, "one_device"),
])
def test_a_seek_with_rules_out_of_range_is_a_400_naming_the_rule(alice, rules, named) -> None:
    message = assert_error(alice.post("/api/seeks", {"rated": False, "rules": rules}),
                           code="bad_request")
    assert named in message
    bounds = RANGES[named]
    if bounds.kind != "bool":
        assert str(bounds.low) in message and str(bounds.high) in message
    assert not Seek.objects.exists()
    assert not Match.objects.exists()


@pytest.mark.parametrize("raw", [
    b'{"rated": false, "rules": {"bank_s": NaN}}',
    b'{"rated": false, "rules": {"bank_s": Infinity}}',
    b'{"rated": false, "rules": {"start_points": -Infinity}}',
    b'{"rated": false, "rules": {"bank_s": 1e309}}',
    b'{"rated": false, "rules": {"start_points": 1' + b"0" * 5000 + b"}}",
])
def test_nan_infinity_and_overflowing_numbers_are_not_json(alice, raw) -> None:
    assert_error(alice.post("/api/seeks", raw=raw), code="bad_request")
    assert not Seek.objects.exists()


EXTREMES = [
    {"start_points": 10_000, "bank_s": 86_400, "delay_s": 3_600, "min_bid": 10_000,
     "bid_step": 10_000, "jockey_discount": 10_000, "grace_s": 3_600},
    {"start_points": 5, "bank_s": 0, "delay_s": 0, "min_bid": 5, "bid_step": 5,
     "jockey_discount": 0, "grace_s": 1},
    {"start_points": 10_000, "bank_s": 0.25, "delay_s": 0.5, "min_bid": 5, "bid_step": 5},
]


@pytest.mark.parametrize("rules", EXTREMES)
def test_whatever_rules_are_accepted_make_a_match_that_plays_and_broadcasts(
        alice, bob, rules) -> None:
    match_id = new_match(alice, bob, rules)
    for player in (alice, bob):
        snapshot = player.get(f"/api/matches/{match_id}")
        assert snapshot.status_code == 200
        # The snapshot is the broadcast's message; orjson (the broadcast's encoder)
        # refuses what does not fit in 64 bits.
        orjson.dumps(snapshot.json())
    # And it plays: whoever may act sends their first legal action.
    acted = False
    for player in (alice, bob):
        own = player.get(f"/api/matches/{match_id}").json()
        if own["view"]["legal"]:
            done = player.post(f"/api/matches/{match_id}/commands",
                               {"action": own["view"]["legal"][0], "version": own["version"]})
            # With no bank and no delay the clock may have run out already.
            assert done.json()["code"] in ("ok", "late", "over"), done.json()
            acted = True
            break
    assert acted


def test_rated_tables_still_use_the_standard_rules(alice) -> None:
    message = assert_error(alice.post("/api/seeks", {"rated": True, "rules": {"bank_s": 5}}))
    assert "standard" in message


# ------------------------------------------------ finding 7: NUL bytes, strict JSON

def test_a_nul_in_the_history_filter_is_a_400(client, alice) -> None:
    for query in ({"opponent": "a\x00b"}, {"opponent": "\x00"}, {"since": "\x00"},
                  {"page": "1\x00"}, {"rated": "rated\x00"}):
        response = client.get("/history/", query)
        assert response.status_code == 400, query
        assert "NUL" in response.content.decode()
        response = client.get("/players/alice/history/", query)
        assert response.status_code == 400, query
    assert client.get("/history/", {"opponent": "alice"}).status_code == 200


@pytest.mark.parametrize("path", ["/players/a%00b/", "/players/%00/", "/players/a%00/history/"])
def test_a_nul_in_a_player_name_is_a_404(client, alice, path) -> None:
    assert client.get(path).status_code == 404
    assert client.get("/players/alice/").status_code == 200


@pytest.mark.parametrize("body", [
    {"opponent": "bob\x00"},
    {"opponent": "\x00", "rated": False},
    {"rated": False, "rules": {"start\x00points": 50}},
])
def test_a_nul_in_a_seek_is_a_400(alice, bob, body) -> None:
    assert_error(alice.post("/api/seeks", body), code="bad_request")
    assert not Seek.objects.exists()


def test_an_unpaired_surrogate_or_deep_nesting_is_a_400(alice) -> None:
    assert_error(alice.post("/api/seeks", raw=b'{"opponent": "\\ud800"}'))
    deep = b'{"rules": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert_error(alice.post("/api/seeks", raw=deep))
    assert not Seek.objects.exists()


def test_a_nul_in_the_match_list_filter_is_a_400(alice) -> None:
    assert_error(alice.get("/api/matches", status="active\x00"))
    message = assert_error(alice.get("/api/matches", status="playing"))
    assert "active" in message
    assert alice.get("/api/matches", status="active").status_code == 200


def test_a_token_name_must_be_text_without_nul(alice) -> None:
    session = Client()
    session.force_login(alice.user)
    for body in ({"name": 5}, {"name": "a\x00"}, {"name": ["x"]}, {"nam": "typo"}):
        response = session.post("/api/tokens", json.dumps(body), content_type="application/json")
        assert_error(response)
    made = session.post("/api/tokens", json.dumps({"name": "laptop"}),
                        content_type="application/json")
    assert made.status_code == 201 and made.json()["name"] == "laptop"


@pytest.mark.parametrize("raw", [
    b'{"action": {"seat": 0, "type": "bid", "amount": NaN}, "version": 1}',
    b'{"action": {"seat": 0, "type": "bid", "amount": 1e309}, "version": 1}',
    b'{"action": {"seat": 0, "type": "draw"}, "version": Infinity}',
    b'{"action": {"seat": 0, "type": "play", "tile": "1-\\u0000"}, "version": 1}',
    b"[" * 50_000 + b"]" * 50_000,
])
def test_a_command_with_nan_infinity_or_nul_is_a_400_and_changes_nothing(
        alice, bob, raw) -> None:
    match_id = new_match(alice, bob)
    before = version_of(alice, match_id)
    response = alice.post(f"/api/matches/{match_id}/commands", raw=raw)
    assert response.status_code == 400, response.content[:300]
    assert response.json()["ok"] is False
    assert version_of(alice, match_id) == before


@pytest.mark.parametrize("action", [
    {"seat": 0, "type": "play", "tile": "²-1"},  # a digit to str.isdigit, not to int()
    {"seat": 0, "type": "play", "tile": "1-4", "target": "\u0661-\u0662", "port": "line_a"},
    {"seat": True, "type": "draw"},
    {"seat": 0, "type": ["play"]},  # unhashable: once a TypeError
    {"seat": 0, "type": {"play": 1}},
    {"seat": 0, "type": "bid", "amount": True},
    {"seat": 0, "type": "bid", "amount": 10**30},
])
def test_malformed_actions_are_a_400(alice, bob, action) -> None:
    match_id = new_match(alice, bob)
    before = version_of(alice, match_id)
    response = alice.post(f"/api/matches/{match_id}/commands",
                          {"action": action, "version": before})
    assert_error(response, code="bad_request")
    assert version_of(alice, match_id) == before


# ------------------------------------------------- finding 8: a boolean is a boolean

@pytest.mark.parametrize("rated", ["false", "true", 0, 1, None, [], {}, "no"])
def test_rated_must_be_a_boolean(alice, rated) -> None:
    message = assert_error(alice.post("/api/seeks", {"rated": rated}), code="bad_request")
    assert "rated" in message
    assert not Seek.objects.exists()


def test_rated_false_makes_a_casual_seek_and_no_rated_field_a_rated_one(alice) -> None:
    assert alice.post("/api/seeks", {"rated": False}).status_code == 201
    assert alice.post("/api/seeks", {}).status_code == 201
    assert sorted(Seek.objects.values_list("rated", flat=True)) == [False, True]


@pytest.mark.parametrize("body", [
    {"opponent": 7},
    {"opponent": ["bob"]},
    {"opponent": True},
    {"rules": []},
    {"rules": "start_points=50"},
    {"rules": 50},
    {"rate": False},  # a misspelt field does not fall back to a rated seek
])
def test_seek_fields_have_their_types(alice, bob, body) -> None:
    assert_error(alice.post("/api/seeks", body), code="bad_request")
    assert not Seek.objects.exists()


def test_a_command_version_must_be_a_whole_number(alice, bob) -> None:
    match_id = new_match(alice, bob)
    for version in (True, "3", 1.5, [1]):
        response = alice.post(f"/api/matches/{match_id}/commands",
                              {"action": {"seat": 0, "type": "draw"}, "version": version})
        assert_error(response, code="bad_request")


# -------------------------------------------------- the error shape everywhere under /api/

@pytest.mark.parametrize("path", ["/api/nothing", "/api/matches/not-a-uuid",
                                  "/api/seeks/-1/accept", "/api/matches/1/frames",
                                  "/api/me/", "/api/matches/%00"])
def test_unknown_api_paths_are_a_json_404(alice, path) -> None:
    assert_error(alice.get(path), status=404, code="not_found")
    assert_error(alice.post(path), status=404, code="not_found")


@pytest.mark.parametrize("path", ["/api/matches/00000000-0000-0000-0000-000000000000/frames",
                                  "/api/matches/00000000-0000-0000-0000-000000000000/record",
                                  "/api/matches/00000000-0000-0000-0000-000000000000"])
def test_an_unknown_match_is_a_json_404(alice, path) -> None:
    assert_error(alice.get(path), status=404, code="not_found")


@pytest.mark.parametrize("method, path", [
    ("delete", "/api/seeks"), ("get", "/api/matches/computer"), ("put", "/api/me"),
    ("get", "/api/replay"),
    ("post", "/api/matches/00000000-0000-0000-0000-000000000000/record"),
    ("post", "/api/matches/00000000-0000-0000-0000-000000000000/frames"),
])
def test_wrong_methods_are_a_json_405(alice, method, path) -> None:
    response = getattr(alice.client, method)(path, HTTP_AUTHORIZATION=f"Bearer {alice.token}")
    assert_error(response, status=405, code="method_not_allowed")
    assert response["Allow"]


def test_huge_ids_are_a_clean_answer(alice) -> None:
    huge = "9" * 40
    assert_error(alice.post(f"/api/seeks/{huge}/accept"))
    assert_error(alice.post(f"/api/seeks/{huge}/cancel"))
    session = Client()
    session.force_login(alice.user)
    response = session.post(f"/api/tokens/{huge}/revoke")
    assert response.status_code in (400, 404)
