"""The seeds' window on the platform (games/play/deals.py, games/play/services.py).

A new match commits to its server seed; its first chance event waits for every seat's
own seed or for the window to close; seeds are refused after it; the server seed is
shown only once the match is over, and nowhere before.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import registry
from games.engine.fairness import VERIFIED, DerivedChance, verify_record
from games.models import Match, MatchEvent
from games.play.services import (
    do_advance,
    do_annul,
    do_command,
    do_create_match,
    do_send_seed,
    snapshot,
)
from games.play.store import export_record
from tests.api_client import ApiClient

pytestmark = pytest.mark.django_db
GAMES = [plugin.key for plugin in registry.all_games()]


@pytest.fixture
def window(settings: Any) -> float:
    settings.FAIR_SEED_WAIT_S = 30.0
    return 30.0


@pytest.fixture
def two() -> tuple[User, User]:
    return User.objects.create_user("alice"), User.objects.create_user("bob")


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def first_chance(match: Match) -> MatchEvent:
    return MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.CHANCE).order_by("seq")[0]


def derived_first(match: Match, seeds: list[str]) -> Any:
    plugin = registry.game(match.game)
    state = plugin.new_state(plugin.parse_rules(match.rules, match.seat_count), match.seat_count)
    source = DerivedChance(bytes.fromhex(match.fair_server_seed), seeds, str(match.pk), 0)
    return plugin.sample_chance(state, source)


@pytest.mark.parametrize("game", GAMES)
def test_the_first_deal_waits_for_every_seats_seed(window: float, two: Any, game: str) -> None:
    alice, bob = two
    match = do_create_match(alice, bob, rated=False, game=game)
    header = snapshot(fresh(match), [0])["match"]["fairness"]
    assert header["seeds_open"] and header["player_seeds"] == [None, None]
    assert header["server_seed"] is None
    assert header["commitment"] == hashlib.sha256(bytes.fromhex(match.fair_server_seed)).hexdigest()
    assert fresh(match).chances == 0
    assert fresh(match).deadline_at == pytest.approx(match.started_wall + window)

    assert do_send_seed(match.pk, alice, "first try").ok
    assert do_send_seed(match.pk, alice, "alice's seed").ok  # replaced before the deal
    assert fresh(match).chances == 0
    assert snapshot(fresh(match), [1])["match"]["fairness"]["player_seeds"] == [
        "alice's seed", None]
    assert do_send_seed(match.pk, bob, "Bøb 🎲").ok
    match = fresh(match)
    assert match.chances >= 1 and not snapshot(match, [0])["match"]["fairness"]["seeds_open"]
    assert first_chance(match).payload == derived_first(match, ["alice's seed", "Bøb 🎲"])

    late = do_send_seed(match.pk, alice, "too late")
    assert (late.ok, late.code) == (False, "too_late")
    assert fresh(match).fair_player_seeds == ["alice's seed", "Bøb 🎲"]


def test_the_window_closing_deals_with_an_empty_seed(window: float, two: Any) -> None:
    alice, bob = two
    match = do_create_match(alice, bob, rated=False, game=GAMES[0])
    do_send_seed(match.pk, alice, "only alice")
    assert not do_advance(match.pk, match.started_wall + window - 1)  # still open
    assert do_advance(match.pk, match.started_wall + window + 0.5)
    match = fresh(match)
    event = first_chance(match)
    assert event.payload == derived_first(match, ["only alice", ""])
    assert event.t_us >= window * 1_000_000  # dealt when the window closed, not at 0


def test_seeds_refused_from_others_and_of_the_wrong_shape(window: float, two: Any) -> None:
    alice, bob = two
    carol = User.objects.create_user("carol")
    match = do_create_match(alice, bob, rated=False, game=GAMES[0])
    assert do_send_seed(match.pk, carol, "x").code == "forbidden"
    assert do_send_seed(match.pk, None, "x").code == "forbidden"
    assert do_send_seed(match.pk, alice, 12345).code == "bad_request"
    assert do_send_seed(match.pk, alice, "x" * 257).code == "bad_request"
    assert do_send_seed(match.pk, alice, "x" * 256).ok
    assert do_send_seed("not-a-match", alice, "x").code == "not_found"
    assert fresh(match).fair_player_seeds == ["x" * 256, None]


def test_one_person_at_every_seat_seeds_them_all(window: float) -> None:
    solo = User.objects.create_user("solo")
    plugin = next(p for p in registry.all_games() if p.has_one_device)
    match = do_create_match(solo, solo, rated=False, game=plugin.key, one_device=True)
    assert do_send_seed(match.pk, solo, "one device").ok
    match = fresh(match)
    assert match.fair_player_seeds == ["one device", "one device"] and match.chances >= 1


def test_the_server_seed_is_revealed_only_once_over(window: float, two: Any) -> None:
    alice, bob = two
    match = do_create_match(alice, bob, rated=False, game=GAMES[0])
    plugin = registry.game(match.game)
    secret = match.fair_server_seed
    do_send_seed(match.pk, alice, "a")
    do_send_seed(match.pk, bob, "b")
    running = fresh(match)
    seen = [json.dumps(snapshot(running, seats)) for seats in ([0], [1], [])]
    alice_api, carol_api = ApiClient(alice), ApiClient(User.objects.create_user("carol"))
    seen += [alice_api.get(f"/api/matches/{match.pk}").content.decode(),
             carol_api.get(f"/api/matches/{match.pk}").content.decode(),
             alice_api.get("/api/matches", status="active").content.decode()]
    page = Client()
    page.force_login(alice)
    seen += [page.get(f"/matches/{match.pk}/").content.decode(),
             page.get("/history/").content.decode()]
    record = Client().get(f"/api/matches/{match.pk}/record")
    assert record.status_code == 409
    assert all(secret not in text for text in seen)
    assert all(running.fair_commitment in text for text in seen[:5])

    do_command(match.pk, alice, {"action": {"seat": 0, "type": plugin.forfeit_action},
                                 "version": running.version})
    over = fresh(match)
    assert over.status != Match.Status.ACTIVE
    assert snapshot(over, [])["match"]["fairness"]["server_seed"] == secret
    record_data = json.loads(Client().get(f"/api/matches/{match.pk}/record").content)
    assert record_data["fairness"] == {
        "algorithm": over.fair_algorithm, "match_id": str(over.pk),
        "commitment": over.fair_commitment, "server_seed": secret, "player_seeds": ["a", "b"]}
    assert verify_record(plugin, record_data).status == VERIFIED


@pytest.mark.parametrize("end", ["annul", "abort"])
def test_an_annulled_or_aborted_match_reveals_its_seed(window: float, two: Any,
                                                       end: str) -> None:
    alice, bob = two
    plugin = next(p for p in registry.all_games() if p.abort_action)
    match = do_create_match(alice, bob, rated=False, game=plugin.key)
    do_send_seed(match.pk, alice, "a")
    do_send_seed(match.pk, bob, "b")
    if end == "annul":
        do_annul(fresh(match), "staff")
    else:
        result = do_command(match.pk, alice, {"action": {"seat": 0, "type": plugin.abort_action},
                                               "version": fresh(match).version})
        assert result.ok, result
    over = fresh(match)
    assert over.status in (Match.Status.ANNULLED, Match.Status.ABORTED)
    assert snapshot(over, [])["match"]["fairness"]["server_seed"] == over.fair_server_seed
    assert verify_record(plugin, export_record(over)).status == VERIFIED


def test_the_http_endpoint(window: float, two: Any) -> None:
    alice, bob = two
    match = do_create_match(alice, bob, rated=False, game=GAMES[-1])
    api = ApiClient(alice)
    url = f"/api/matches/{match.pk}/seed"
    assert api.post(url, {"seed": "from the api"}).status_code == 200
    assert api.post(url, {"seed": "x", "extra": 1}).status_code == 400
    assert api.post(url, {"seed": None}).status_code == 400
    assert api.post(url, raw=b"{").status_code == 400
    assert ApiClient(User.objects.create_user("carol")).post(url, {"seed": "x"}).status_code == 403
    assert ApiClient(bob).post(url, {"seed": "bob"}).status_code == 200
    answer = api.post(url, {"seed": "again"})
    assert answer.status_code == 409 and answer.json()["code"] == "too_late"
    assert fresh(match).fair_player_seeds == ["from the api", "bob"]


def test_unseeded_matches_say_so(settings: Any, two: Any) -> None:
    settings.TEST_FIXED_DEALS = True
    alice, bob = two
    match = do_create_match(alice, bob, rated=False, game=GAMES[0])
    assert snapshot(fresh(match), [0])["match"]["fairness"] is None
    assert do_send_seed(match.pk, alice, "x").code == "unavailable"
    assert "fairness" not in export_record(fresh(match))


def test_a_command_before_the_deal_does_not_deal_from_a_stale_copy(window: float,
                                                                   two: Any) -> None:
    """Seeds do not move the version, so the first chance event is never made on a
    process's cached copy (which may not hold the latest seeds)."""
    alice, bob = two
    match = do_create_match(alice, bob, rated=False, game=GAMES[0])
    plugin = registry.game(match.game)
    do_send_seed(match.pk, alice, "a")
    do_send_seed(match.pk, bob, "b")
    match = fresh(match)
    assert first_chance(match).payload == derived_first(match, ["a", "b"])
    assert time.time() < match.fair_seeds_until  # dealt by the seeds, not by the window
    assert plugin.key
