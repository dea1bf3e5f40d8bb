"""The single writer (games/play/services.py), in process: commands, time, the log.

Every change goes through ``do_command``/``do_advance``/``do_annul``; the tests take
their actions from the engine's own ``legal`` list and check that what is refused
leaves the match untouched (version, cached state and log).
"""

from __future__ import annotations

import random
import time
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.live import heartbeat
from games.models import Match, MatchEvent
from games.play.services import (
    CommandResult,
    do_advance,
    do_annul,
    do_command,
    do_create_match,
    snapshot,
)
from games.play.store import export_record, load_engine, rebuild
from games.spectacular_bid.bot import choose
from games.spectacular_bid.plugin import GAME as SB_GAME
from games.spectacular_bid.record import deal_to_dict, parse
from games.spectacular_bid.replay import replay, report
from tests.engine.helpers import make_deal

pytestmark = pytest.mark.django_db

JSON = dict[str, Any]


# ------------------------------------------------------------------ helpers

DEALS_SEED = "server-services"  # reproducible deals (tests/server/conftest.py)


@pytest.fixture
def players() -> tuple[User, User]:
    return User.objects.create_user("alice"), User.objects.create_user("bob")


def fresh(match: Match | Any) -> Match:
    pk = match.pk if isinstance(match, Match) else match
    return Match.objects.get(pk=pk)


def legal(match: Match, seat: int) -> list[JSON]:
    return list(load_engine(fresh(match)).view(seat)["legal"])


def fingerprint(match: Match) -> tuple[Any, ...]:
    """Everything a refused command must leave alone."""
    m = fresh(match)
    events = list(MatchEvent.objects.filter(match=m).values_list("seq", "kind", "payload"))
    return (m.version, bytes(m.state or b""), m.status, m.winner, list(m.scores), events)


def command(match: Match, user: User | None, action: JSON, version: int | str | None = "now",
            received_wall: float | None = None) -> CommandResult:
    data: JSON = {"action": action}
    if version == "now":
        data["version"] = fresh(match).version
    elif version is not None:
        data["version"] = version
    return do_command(match.pk, user, data, received_wall)


def start(match: Match, users: tuple[User, User]) -> None:
    """Both press Start; the hierarchy opening is then played for its holder."""
    for seat in (0, 1):
        result = command(match, users[seat], {"seat": seat, "type": "continue"}, version=None)
        assert result.ok, result


def to_act(match: Match) -> int:
    seat = load_engine(fresh(match)).to_act()
    assert seat is not None
    return int(seat)


def clock_deadline_wall(match: Match) -> float:
    m = fresh(match)
    deadline = load_engine(m).clock.deadline_us()
    assert deadline is not None
    return m.started_wall + deadline / 1e6


def pick(options: list[JSON], rng: random.Random) -> JSON:
    """A random legal action; in an auction mostly a decline/accept or one of the lowest
    bids (uniformly random bids end a match in a hand or two)."""
    bids = sorted((a for a in options if a["type"] == "bid"), key=lambda a: a["amount"])
    others = [a for a in options if a["type"] != "bid"]
    if bids and (not others or rng.random() < 0.3):
        return rng.choice(bids[:3])
    return rng.choice(others)


def play_legal(match: Match, users: tuple[User, User]) -> JSON:
    """The first legal action of whoever may act; returns it."""
    current = fresh(match)
    engine = load_engine(current)
    for seat in (0, 1):
        options = engine.view(seat)["legal"]
        if options:
            result = command(match, users[seat], options[0], version=current.version)
            assert result.ok, (options[0], result)
            return dict(options[0])
    raise AssertionError("nobody may act")


def assert_log_reproduces(match: Match) -> None:
    """The log is the truth: a rebuild equals the cache, and the record replays to it."""
    m = fresh(match)
    assert MatchEvent.objects.filter(match=m).count() == m.version
    cached, rebuilt = load_engine(m), rebuild(m)
    for seat in (None, 0, 1):
        assert rebuilt.view(seat) == cached.view(seat)
    out = report(replay(parse(export_record(m))))
    assert "error" not in out, out.get("error")
    assert out["balances"] == list(m.scores) == list(cached.balances)
    if m.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        assert out["result"] == {"winner": m.winner, "reason": m.reason}
    elif m.status == Match.Status.ACTIVE:
        assert out["result"] == {"winner": None, "reason": None}


# -------------------------------------------------------------------- tests

def test_create_start_and_a_few_legal_moves(players) -> None:
    match = do_create_match(*players, rated=True)
    m = fresh(match)
    assert m.status == Match.Status.ACTIVE
    assert m.version == 1  # the first deal
    assert m.scores == [150, 150]
    assert MatchEvent.objects.get(match=m).kind == MatchEvent.Kind.CHANCE
    view = load_engine(m).view(0)
    assert view["phase"] == "continue"
    assert view["legal"] == [{"seat": 0, "type": "continue"}]

    start(match, players)
    m = fresh(match)
    view = load_engine(m).view(None)
    assert view["phase"] == "play"
    assert len(view["board"]["tiles"]) == 1  # the forced hierarchy opening
    plays = [move for move in view["moves"] if move["type"] == "play"]
    assert len(plays) == 1 and plays[0]["forced"] is True
    assert m.deadline_at is not None

    for _ in range(6):
        before = fresh(match).version
        play_legal(match, players)
        after = fresh(match)
        assert after.version > before
        assert sum(after.scores) == 300
    assert_log_reproduces(match)


def test_rated_matches_use_the_standard_rules(players) -> None:
    with pytest.raises(ValueError):
        do_create_match(*players, rated=True, rules={"bank_s": 5})
    with pytest.raises(ValueError):
        do_create_match(*players, rated=False, rules={"no_such_rule": 1})
    casual = do_create_match(*players, rated=False, rules={"bank_s": 5})
    assert fresh(casual).rules["bank_s"] == 5


def test_a_stale_version_is_refused_and_changes_nothing(players) -> None:
    match = do_create_match(*players, rated=False)
    start(match, players)
    seat = to_act(match)
    action = legal(match, seat)[0]
    before = fingerprint(match)
    result = command(match, players[seat], action, version=fresh(match).version - 1)
    assert (result.ok, result.code) == (False, "stale")
    assert result.version == fresh(match).version
    assert fingerprint(match) == before
    # Versionless commands (resign, abort, continue) are not subject to staleness.
    assert command(match, players[seat], {"seat": seat, "type": "resign"}, version=0).ok


def test_a_duplicate_command_is_applied_once(players) -> None:
    match = do_create_match(*players, rated=False)
    start(match, players)
    seat = to_act(match)
    action = legal(match, seat)[0]
    version = fresh(match).version
    first = command(match, players[seat], action, version=version)
    assert first.ok
    after_first = fingerprint(match)
    second = command(match, players[seat], action, version=version)
    assert (second.ok, second.code) == (False, "stale")
    assert fingerprint(match) == after_first
    actions = MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.ACTION,
                                        payload=action)
    assert actions.count() == 1
    # Without a version a move is refused as it stands: still nothing changes.
    third = command(match, players[seat], action, version=None)
    assert (third.ok, third.code) == (False, "bad_request")
    assert fingerprint(match) == after_first


def test_an_illegal_action_is_refused_with_a_reason(players) -> None:
    match = do_create_match(*players, rated=False)
    start(match, players)
    seat = to_act(match)
    other = 1 - seat
    before = fingerprint(match)
    cases = [
        (other, {"seat": other, "type": "draw"}),  # not their turn
        (seat, {"seat": seat, "type": "accept"}),  # no auction
        (seat, {"seat": seat, "type": "pass"}),  # a pass is never chosen
        (seat, {"seat": seat, "type": "continue"}),  # nothing to continue
        (seat, {"seat": seat, "type": "bid", "amount": 15}),
    ]
    hand = set(load_engine(fresh(match)).view(seat)["hand"])
    foreign = sorted(set(load_engine(fresh(match)).view(other)["hand"]) - hand)[0]
    board = load_engine(fresh(match)).view(None)["board"]
    place = board["places"][0]
    cases.append((seat, {"seat": seat, "type": "play", "tile": foreign,
                         "target": place["target"], "port": place["port"]}))
    for sender, action in cases:
        result = command(match, players[sender], action)
        assert (result.ok, result.code) == (False, "illegal"), action
        assert result.message, action
        assert result.version == before[0]
        assert fingerprint(match) == before, action


def test_acting_for_the_other_seat_is_forbidden(players) -> None:
    match = do_create_match(*players, rated=False)
    start(match, players)
    seat = to_act(match)
    action = legal(match, seat)[0]
    before = fingerprint(match)
    stranger = User.objects.create_user("carol")
    for user in (players[1 - seat], stranger, None):
        result = command(match, user, action)
        assert (result.ok, result.code) == (False, "forbidden")
    assert fingerprint(match) == before


@pytest.mark.parametrize("data", [
    None,
    [],
    "play",
    {},
    {"action": "draw"},
    {"action": {"seat": 0, "type": "continue"}, "version": "3"},
    {"action": {"seat": 0, "type": "continue"}, "version": True},
    {"action": {"seat": 0, "type": "continue"}, "version": 1.5},
    {"action": {"seat": 2, "type": "continue"}},
    {"action": {"seat": "0", "type": "continue"}},
    {"action": {"seat": True, "type": "continue"}},
    {"action": {"type": "continue"}},
    {"action": {"seat": 0, "type": "fly"}},
    {"action": {"seat": 0, "type": "flag"}},
    {"action": {"seat": 0, "type": "bid", "amount": 1.5}},
    {"action": {"seat": 0, "type": "bid", "amount": "15"}},
    {"action": {"seat": 0, "type": "bid", "amount": 10**9}},
    {"action": {"seat": 0, "type": "play", "tile": "7-7"}},
    {"action": {"seat": 0, "type": "play", "tile": "1-4", "target": "1-1"}},
    {"action": {"seat": 0, "type": "play", "tile": "1-4", "target": "1-1", "port": "up"}},
])
def test_a_malformed_command_is_a_bad_request(players, data) -> None:
    match = do_create_match(*players, rated=False)
    before = fingerprint(match)
    result = do_command(match.pk, players[0], data)
    assert (result.ok, result.code) == (False, "bad_request")
    assert result.message
    assert fingerprint(match) == before


def test_an_unknown_match_is_not_found(players) -> None:
    result = do_command(uuid.uuid4(), players[0], {"action": {"seat": 0, "type": "resign"}})
    assert result.code == "not_found"
    assert do_advance(uuid.uuid4()) is False
    bad = do_command("not-a-uuid", players[0], {"action": {"seat": 0, "type": "resign"}})
    assert bad.code == "not_found"
    assert do_advance("not-a-uuid") is False


def test_a_command_after_the_deadline_loses_on_time(players, settings) -> None:
    settings.OUTAGE_ANNULS = False
    match = do_create_match(*players, rated=True)
    start(match, players)
    seat = to_act(match)
    deadline = clock_deadline_wall(match)
    action = legal(match, seat)[0]
    late = command(match, players[seat], action, received_wall=deadline + 0.5)
    assert (late.ok, late.code) == (False, "late")
    m = fresh(match)
    assert m.status == Match.Status.FINISHED
    assert (m.winner, m.reason) == (1 - seat, "time")
    assert m.deadline_at is None
    assert m.finished_at is not None
    time_events = MatchEvent.objects.filter(match=m, kind=MatchEvent.Kind.TIME)
    assert time_events.count() == 1
    assert not MatchEvent.objects.filter(match=m, kind=MatchEvent.Kind.ACTION,
                                         payload=action).exists()
    # The winner's own later command is simply "over"; nothing more is logged.
    over = command(match, players[1 - seat], {"seat": 1 - seat, "type": "resign"})
    assert (over.ok, over.code) == (False, "over")
    assert fresh(match).version == m.version
    assert_log_reproduces(match)


def test_a_command_just_before_the_deadline_counts(players, settings) -> None:
    settings.OUTAGE_ANNULS = False
    match = do_create_match(*players, rated=True)
    start(match, players)
    seat = to_act(match)
    deadline = clock_deadline_wall(match)
    options = legal(match, seat)
    placement = next((a for a in options if a["type"] == "play"), None)
    assert placement is not None, "this deal lets the first player place a tile"
    result = command(match, players[seat], placement, received_wall=deadline - 0.5)
    assert result.ok, result
    m = fresh(match)
    assert m.status == Match.Status.ACTIVE
    # 129.5 s of a 10 s delay + 120 s bank: 0.5 s of bank is left.
    banks = load_engine(m).view(None)["clock"]["banks"]
    assert banks[seat] == pytest.approx(0.5, abs=0.01)
    assert_log_reproduces(match)


def test_do_advance_flags_after_the_deadline(players, settings) -> None:
    settings.OUTAGE_ANNULS = False  # no web heartbeat runs in this process
    match = do_create_match(*players, rated=True)
    start(match, players)
    seat = to_act(match)
    deadline = clock_deadline_wall(match)
    before = fingerprint(match)
    assert do_advance(match.pk, now_wall=deadline - 0.5) is False
    assert fingerprint(match) == before
    assert do_advance(match.pk, now_wall=deadline + 0.5) is True
    m = fresh(match)
    assert m.status == Match.Status.FINISHED
    assert (m.winner, m.reason) == (1 - seat, "time")
    assert m.version == before[0] + 1
    event = MatchEvent.objects.get(match=m, seq=m.version)
    assert event.kind == MatchEvent.Kind.TIME
    assert do_advance(match.pk, now_wall=deadline + 5) is False  # over: nothing more
    after = command(match, players[seat], {"seat": seat, "type": "resign"})
    assert (after.ok, after.code) == (False, "over")
    assert_log_reproduces(match)


def test_a_flag_across_an_outage_annuls(players, settings, redis_url) -> None:
    settings.OUTAGE_ANNULS = True
    match = do_create_match(*players, rated=True)
    start(match, players)
    deadline = clock_deadline_wall(match)
    # The clock runs for 130 s from now: no web process can have beaten in the future.
    assert do_advance(match.pk, now_wall=deadline + 0.5) is True
    m = fresh(match)
    assert m.status == Match.Status.ANNULLED
    assert m.winner is None
    assert m.reason == "annulled"
    assert m.annul_reason
    event = MatchEvent.objects.get(match=m, seq=m.version)
    assert (event.kind, event.payload) == (MatchEvent.Kind.ANNUL, {"reason": "outage"})
    view = load_engine(m).view(None)
    assert view["result"] == {"winner": None, "reason": "annulled"}
    assert rebuild(m).view(None) == view


def test_a_flag_with_the_heartbeat_covering_the_period_is_a_loss(players, settings,
                                                               redis_url) -> None:
    settings.OUTAGE_ANNULS = True
    match = do_create_match(*players, rated=True)
    start(match, players)
    seat = to_act(match)
    deadline = clock_deadline_wall(match)
    client = heartbeat.redis_client()
    # One run of beats (heartbeat.Runs) from before the clock started until after its deadline.
    run = {f"test-{uuid.uuid4().hex}:{time.time() - 2:.6f}": deadline + 3}
    client.zadd(heartbeat.BEATS_KEY, run)
    try:
        assert do_advance(match.pk, now_wall=deadline + 0.5) is True
    finally:
        client.zrem(heartbeat.BEATS_KEY, *run)
    m = fresh(match)
    assert m.status == Match.Status.FINISHED
    assert (m.winner, m.reason) == (1 - seat, "time")


def test_resign(players) -> None:
    match = do_create_match(*players, rated=True)
    start(match, players)
    play_legal(match, players)
    result = command(match, players[1], {"seat": 1, "type": "resign"}, version=None)
    assert result.ok
    m = fresh(match)
    assert m.status == Match.Status.FINISHED
    assert (m.winner, m.reason) == (0, "resign")
    assert m.deadline_at is None
    again = command(match, players[0], {"seat": 0, "type": "resign"})
    assert (again.ok, again.code) == (False, "over")
    assert load_engine(m).view(0)["legal"] == []
    assert_log_reproduces(match)


def test_abort_before_the_first_decision(players) -> None:
    match = do_create_match(*players, rated=True)
    assert command(match, players[1], {"seat": 1, "type": "abort"}).ok
    m = fresh(match)
    assert m.status == Match.Status.ABORTED
    assert (m.winner, m.reason) == (None, "abort")
    assert_log_reproduces(match)

    match = do_create_match(*players, rated=True)
    start(match, players)  # Start and the forced opening are no decisions
    assert load_engine(fresh(match)).view(0)["can_abort"] is True
    assert command(match, players[0], {"seat": 0, "type": "abort"}).ok
    assert fresh(match).status == Match.Status.ABORTED


def test_abort_is_refused_after_the_first_decision(players) -> None:
    match = do_create_match(*players, rated=True)
    start(match, players)
    play_legal(match, players)
    assert load_engine(fresh(match)).view(0)["can_abort"] is False
    before = fingerprint(match)
    for seat in (0, 1):
        result = command(match, players[seat], {"seat": seat, "type": "abort"})
        assert (result.ok, result.code) == (False, "illegal")
    assert fingerprint(match) == before


def test_snapshot_for_a_seat_and_for_a_spectator(players) -> None:
    match = do_create_match(*players, rated=False)
    start(match, players)
    m = fresh(match)
    mine = snapshot(m, [0])
    public = snapshot(m, [])
    assert mine["type"] == public["type"] == "state"
    assert mine["version"] == public["version"] == m.version
    assert mine["view"]["seat"] == 0 and "hand" in mine["view"]
    assert public["view"]["seat"] is None and "hand" not in public["view"]
    assert public["view"]["legal"] == []
    assert mine["match"]["players"] == ["alice", "bob"]


def test_a_staff_annulment_of_a_finished_match(players) -> None:
    match = do_create_match(*players, rated=True)
    start(match, players)
    assert command(match, players[0], {"seat": 0, "type": "resign"}).ok
    do_annul(fresh(match), "cheating")
    m = fresh(match)
    assert m.status == Match.Status.ANNULLED
    assert (m.winner, m.reason, m.annul_reason) == (None, "annulled", "cheating")
    # The engine's result stays the resignation; the match row says annulled.
    assert MatchEvent.objects.filter(match=m).count() == m.version


def test_a_staff_annulment_of_a_running_match(players) -> None:
    match = do_create_match(*players, rated=True)
    start(match, players)
    do_annul(fresh(match), "server trouble")
    m = fresh(match)
    assert (m.status, m.winner, m.reason) == (Match.Status.ANNULLED, None, "annulled")
    assert m.annul_reason == "server trouble"
    assert m.finished_at is not None
    assert m.deadline_at is None
    event = MatchEvent.objects.get(match=m, seq=m.version)
    assert (event.kind, event.payload) == (MatchEvent.Kind.ANNUL, {"reason": "server trouble"})
    assert load_engine(m).view(None)["result"] == {"winner": None, "reason": "annulled"}
    assert rebuild(m).view(None) == load_engine(m).view(None)
    result = command(match, players[0], {"seat": 0, "type": "resign"})
    assert result.code == "over"


def test_an_outage_across_the_grace_end_and_the_clock_annuls(players, settings,
                                                             redis_url) -> None:
    settings.OUTAGE_ANNULS = True
    match = do_create_match(*players, rated=True)
    m = fresh(match)
    # Nobody presses Start and the service is down from now on: the grace (60 s) ends,
    # the first decision's clock (10 s + 120 s) runs and runs out, all in the future.
    assert do_advance(match.pk, now_wall=m.started_wall + 60 + 130 + 1) is True
    m = fresh(match)
    assert (m.status, m.winner) == (Match.Status.ANNULLED, None)


@pytest.mark.parametrize("seed", [2])  # ~300 commands over a dozen hands
def test_a_whole_random_match_through_do_command(players, settings, seed) -> None:
    settings.TEST_DEALS_SEED = f"random-match-{seed}"
    rng = random.Random(seed)
    match = do_create_match(*players, rated=True)
    commands = 0
    while True:
        current = fresh(match)
        assert sum(current.scores) == 300
        assert min(current.scores) >= 0
        if current.status != Match.Status.ACTIVE:
            break
        engine = load_engine(current)
        seats = rng.sample([0, 1], 2)
        seat = next(s for s in seats if engine.view(s)["legal"])
        action = pick(engine.view(seat)["legal"], rng)
        result = command(match, players[seat], action, version=current.version)
        assert result.ok, (action, result)
        commands += 1
        assert commands < 5000
    m = fresh(match)
    assert m.status == Match.Status.FINISHED
    assert m.reason == "points"
    assert sorted(m.scores) == [0, 300]
    assert m.scores[m.winner] == 300
    view = load_engine(m).view(0)
    assert view["hands_played"] > 2  # several hands, not a quick bidding knockout
    assert view["result"] == {"winner": m.winner, "reason": "points"}
    assert all("hands" in hand for hand in view["hands"])  # the last hands are public now
    assert_log_reproduces(match)


def opening_that_scores(state: object, rng: object) -> dict[str, Any]:
    """Seat 0 holds [5|5], the highest double dealt ([6|6] is in the boneyard): it opens
    by hierarchy and scores 10 at once."""
    return deal_to_dict(make_deal("5-5 0-1 0-2 0-3 0-4 1-2 1-3",
                                  "1-4 2-3 2-4 3-4 0-6 1-6 2-6"))


@pytest.mark.parametrize("ending", ["abort", "resign"])
def test_a_match_ended_before_the_start_replays_to_its_balances(players, monkeypatch,
                                                                ending) -> None:
    monkeypatch.setattr(SB_GAME, "sample_chance", opening_that_scores)
    match = do_create_match(*players, rated=False)
    assert command(match, players[1], {"seat": 1, "type": ending}).ok
    m = fresh(match)
    assert m.scores == [150, 150]
    assert rebuild(m).view(None) == load_engine(m).view(None)
    # The record has no 'continue': a resign or an abort must not start the hand (its
    # forced opening would score 10) when it is replayed.
    out = report(replay(parse(export_record(m))))
    assert out["result"] == {"winner": m.winner, "reason": m.reason}
    assert out["balances"] == [150, 150]


def test_a_resign_between_hands_replays_to_its_balances(players) -> None:
    """Greedy play through the first hand, then a resign before the second one starts."""
    match = do_create_match(*players, rated=True)
    while True:
        current = fresh(match)
        engine = load_engine(current)
        if engine.hand_no >= 1 or engine.result is not None:
            break
        for seat in (0, 1):
            action = choose(engine.view(seat))
            if action is not None:
                assert command(match, players[seat], action, version=current.version).ok
                break
    m = fresh(match)
    assert m.status == Match.Status.ACTIVE
    view = load_engine(m).view(0)
    assert view["phase"] == "continue" and view["hand_no"] == 1
    assert "hands" in view["hands"][0]  # the first hand is settled and public
    assert command(match, players[0], {"seat": 0, "type": "resign"}).ok
    m = fresh(match)
    assert (m.status, m.winner, m.reason) == (Match.Status.FINISHED, 1, "resign")
    assert_log_reproduces(match)


def test_a_command_received_before_the_last_logged_one_takes_effect_after_it(players) -> None:
    """Two web processes: one stamps a command, the other stamps a later one and reaches
    the row first. The earlier-stamped command takes effect at the last logged time, so
    the log's times never go back and the record replays."""
    match = do_create_match(*players, rated=False)
    started = fresh(match).started_wall
    first = command(match, players[1], {"seat": 1, "type": "continue"}, version=None,
                    received_wall=started + 0.2)
    second = command(match, players[0], {"seat": 0, "type": "continue"}, version=None,
                     received_wall=started + 0.1)
    assert first.ok and second.ok
    times = list(MatchEvent.objects.filter(match=match).order_by("seq")
                 .values_list("t_us", flat=True))
    assert times == sorted(times)
    assert times[-1] == 200_000
    assert fresh(match).last_t_us == 200_000
    assert load_engine(fresh(match)).clock.started_us == 200_000
    assert_log_reproduces(match)
