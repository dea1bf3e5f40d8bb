"""The pages players come back for: history (filters, pagination), leaderboard, profile,
and the replay endpoints (a stored match's frames, an uploaded record)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games import registry
from games.models import Match
from games.play.services import do_command, do_create_match
from games.play.store import load_engine
from games.web.pages import PAGE_SIZE
from ratings.models import Rating, RatingChange
from tests.factories import make_match
from tests.records import EXAMPLE

pytestmark = pytest.mark.django_db

EXAMPLE_RECORD = EXAMPLE  # the contract's own example (match-record.md)


# ------------------------------------------------------------------ helpers

def users(*names: str) -> list[User]:
    return [User.objects.create_user(name, password=f"pw-{name}-123") for name in names]


def finished(seat0: User, seat1: User, *, winner: int | None = 0, reason: str = "points",
             rated: bool = True, balances: list[int] | None = None, status: str = "finished",
             when: datetime | None = None) -> Match:
    if balances is None:
        balances = [300, 0] if winner == 0 else [0, 300] if winner == 1 else [150, 150]
    match = make_match(seat0, seat1, status=status, winner=winner,
                                 reason=reason, rated=rated, balances=balances,
                                 started_wall=0.0)
    when = when or datetime.now(UTC)
    Match.objects.filter(pk=match.pk).update(created_at=when, finished_at=when)
    match.refresh_from_db()
    return match


def day_of(when: datetime) -> str:
    """The date the filters compare with (in the site's time zone)."""
    return timezone.localtime(when).date().isoformat()


def rows(html: str) -> list[str]:
    """The match ids listed in a history table, in order."""
    return re.findall(r'data-testid="history-row" data-match="([0-9a-f-]+)"', html)


def get(client: Client, url: str, **params: Any) -> str:
    response = client.get(url, params)
    assert response.status_code == 200, (url, params, response.status_code)
    return response.content.decode()


@pytest.fixture
def client() -> Client:
    return Client()


@pytest.fixture
def league() -> dict[str, Any]:
    """alice beats bob (rated, 3 days ago), bob beats alice on time (casual, today), alice v
    carol aborted (yesterday), carol beats dave (rated, a week ago)."""
    alice, bob, carol, dave = users("alice", "bob", "carol", "dave")
    now = datetime.now(UTC)
    m = {
        "ab_win": finished(alice, bob, winner=0, rated=True, when=now - timedelta(days=3)),
        "ba_time": finished(bob, alice, winner=0, reason="time", rated=False,
                            balances=[140, 160], when=now),
        "ac_abort": finished(alice, carol, winner=None, reason="abort", rated=False,
                             status="aborted", when=now - timedelta(days=1)),
        "cd_win": finished(carol, dave, winner=1, rated=True, when=now - timedelta(days=7)),
    }
    return {"users": {"alice": alice, "bob": bob, "carol": carol, "dave": dave},
            "matches": m, "now": now}


# ------------------------------------------------------------------ history

def test_history_lists_every_finished_match_newest_first(client, league) -> None:
    m = league["matches"]
    active = make_match(league["users"]["alice"], league["users"]["bob"],
                                  balances=[150, 150], started_wall=0.0)
    html = get(client, "/history/")
    assert rows(html) == [str(m[k].pk) for k in ("ba_time", "ac_abort", "ab_win", "cd_win")]
    assert str(active.pk) not in html
    assert f'href="/matches/{m["ab_win"].pk}/replay/"' in html
    assert 'href="/players/alice/"' in html
    assert "aborted" in html
    assert "on time" in html
    # no result filter on everyone's history
    assert 'name="result"' not in html


def test_history_filters_by_player_and_kind(client, league) -> None:
    m = league["matches"]
    assert rows(get(client, "/history/", opponent="CAROL")) == [
        str(m["ac_abort"].pk), str(m["cd_win"].pk)]
    assert rows(get(client, "/history/", rated="rated")) == [
        str(m["ab_win"].pk), str(m["cd_win"].pk)]
    assert rows(get(client, "/history/", rated="casual")) == [
        str(m["ba_time"].pk), str(m["ac_abort"].pk)]
    html = get(client, "/history/", opponent="nobody")
    assert rows(html) == []
    assert 'data-testid="history-empty"' in html


def test_history_filters_by_date(client, league) -> None:
    m = league["matches"]
    now = league["now"]
    since = until = day_of(now - timedelta(days=2))
    assert rows(get(client, "/history/", since=since)) == [
        str(m["ba_time"].pk), str(m["ac_abort"].pk)]
    assert rows(get(client, "/history/", until=until)) == [
        str(m["ab_win"].pk), str(m["cd_win"].pk)]
    day = day_of(now - timedelta(days=3))
    html = get(client, "/history/", since=day, until=day)
    assert rows(html) == [str(m["ab_win"].pk)]
    # the form shows the filters back
    assert f'name="since" value="{day}"' in html
    assert f'name="until" value="{day}"' in html
    # a bad date is ignored, not an error
    assert len(rows(get(client, "/history/", since="yesterday"))) == 4


def test_player_history_filters_by_result_and_opponent(client, league) -> None:
    m = league["matches"]
    url = "/players/alice/history/"
    html = get(client, url)
    assert rows(html) == [str(m[k].pk) for k in ("ba_time", "ac_abort", "ab_win")]
    assert 'name="result"' in html
    assert rows(get(client, url, result="win")) == [str(m["ab_win"].pk)]
    assert rows(get(client, url, result="loss")) == [str(m["ba_time"].pk)]
    assert rows(get(client, url, result="other")) == [str(m["ac_abort"].pk)]
    assert rows(get(client, url, opponent="bob")) == [str(m["ba_time"].pk), str(m["ab_win"].pk)]
    assert rows(get(client, url, opponent="bob", result="win", rated="rated")) == [
        str(m["ab_win"].pk)]
    assert rows(get(client, url, opponent="dave")) == []
    # the selected options are shown back
    html = get(client, url, result="loss", rated="casual")
    assert '<option value="loss" selected>' in html
    assert '<option value="casual" selected>' in html
    assert client.get("/players/nobody/history/").status_code == 404


def test_history_pagination_keeps_the_filters(client) -> None:
    alice, bob, carol = users("alice", "bob", "carol")
    now = datetime.now(UTC)
    ours = [finished(alice, bob, rated=True, when=now - timedelta(minutes=i))
            for i in range(PAGE_SIZE + 5)]
    for i in range(4):  # noise the filter must keep out
        finished(alice, carol, rated=True, when=now - timedelta(minutes=i, seconds=30))

    first = get(client, "/history/", opponent="bob", rated="rated")
    assert rows(first) == [str(m.pk) for m in ours[:PAGE_SIZE]]
    assert "Page 1 of 2" in first
    links = re.findall(r'rel="next" href="\?([^"]+)"', first)
    assert links == ["opponent=bob&amp;rated=rated&amp;page=2"]
    assert 'rel="prev"' not in first

    second = get(client, "/history/?" + links[0].replace("&amp;", "&"))
    assert rows(second) == [str(m.pk) for m in ours[PAGE_SIZE:]]
    assert 'rel="prev" href="?opponent=bob&amp;rated=rated&amp;page=1"' in second
    assert 'rel="next"' not in second

    # a player's history pages the same way; without filters the link is plain
    page = get(client, "/players/alice/history/")
    assert 'rel="next" href="?page=2"' in page
    assert len(rows(get(client, "/players/alice/history/", page=2))) == 9


# ------------------------------------------------------------------ leaderboard

def test_leaderboard_ranks_established_players_and_shows_new_ones_apart(client) -> None:
    alice, bob, carol, dave = users("alice", "bob", "carol", "dave")
    Rating.objects.create(user=alice, game="spectacular-bid", rating=1620, games=14, wins=10)
    Rating.objects.create(user=bob, game="spectacular-bid", rating=1710, games=10, wins=8)
    Rating.objects.create(user=carol, game="spectacular-bid", rating=1900, games=9,
                          wins=9)  # provisional
    Rating.objects.create(user=dave, game="spectacular-bid", rating=1480, games=30, wins=12)
    bob.profile.display_name = "Bobby Tables"
    bob.profile.save()

    html = get(client, "/leaderboard/")
    listed = re.findall(r'data-testid="leaderboard-row" data-player="([^"]+)"', html)
    assert listed == ["bob", "alice", "dave"]
    # A new player is shown apart, with the provisional mark, not ranked among them.
    assert re.findall(r'data-testid="provisional-row" data-player="([^"]+)"', html) == ["carol"]
    assert "1900<span" in html
    assert 'href="/players/bob/"' in html and "Bobby Tables" in html
    assert "1710" in html and "1620" in html
    assert "provisional" in html  # the note says who is left out


def test_leaderboard_ranks_continue_across_pages(client) -> None:
    players = users(*[f"p{i:02d}" for i in range(PAGE_SIZE + 3)])
    for i, user in enumerate(players):
        Rating.objects.create(user=user, game="spectacular-bid", rating=2000 - i,
                              games=10 + i, wins=5)
    html = get(client, "/leaderboard/", page=2)
    listed = re.findall(r'data-testid="leaderboard-row" data-player="([^"]+)"', html)
    assert listed == [f"p{i:02d}" for i in range(PAGE_SIZE, PAGE_SIZE + 3)]
    assert re.search(rf'<span class="pg-rank">\s*{PAGE_SIZE + 1}\s*</span>', html)
    assert 'rel="prev" href="?page=1"' in html


def test_a_profile_speaks_of_each_game_in_its_words(client, league) -> None:
    """The dice tab counts dice wins by the dice game's reasons and says nothing of
    starting points."""
    html = get(client, "/players/alice/", game="dice")
    wins_by = re.search(r'data-testid="stat-wins-by">(.*?)</span>', html, re.S).group(1)
    assert "every round played" in wins_by and "on points" not in wins_by
    assert "each player starts with" not in html


def test_empty_leaderboard(client) -> None:
    html = get(client, "/leaderboard/")
    assert 'data-testid="leaderboard-empty"' in html


# ------------------------------------------------------------------ profile

def test_profile_shows_the_numbers_and_the_chart(client, league) -> None:
    u = league["users"]
    m = league["matches"]
    Rating.objects.create(user=u["alice"], game="spectacular-bid", rating=1512, games=1, wins=1)
    RatingChange.objects.create(match=m["ab_win"], user=u["alice"], game="spectacular-bid",
                                seq=1, before=1500, after=1512, games_after=1, won=True)
    html = get(client, "/players/alice/")
    # alice: one win on points, one loss on time (the aborted match is not finished)
    assert re.search(r'data-testid="stat-matches">2<', html)
    assert re.search(r'data-testid="stat-wins">1<', html)
    # In the game's own words: Spectacular Bid's wins are on points, on time, by resignation.
    wins_by = re.search(r'data-testid="stat-wins-by">(.*?)</span>', html, re.S).group(1)
    assert " ".join(wins_by.split()) == "1 on points · 0 on time · 0 by resignation · 0 other"
    assert "against the 150 each player starts with" in html
    assert re.search(r'data-testid="stat-losses">1<', html)
    assert re.search(r'data-testid="stat-streak">1L<', html)
    assert "1512?" in html  # rating.display while provisional
    assert 'data-testid="provisional"' in html
    assert 'data-testid="rating-chart"' in html
    data = re.search(r'<script type="application/json" id="rating-data">(.*?)</script>', html)
    assert data is not None and json.loads(data.group(1)) == [[1, 1512]]
    assert 'href="/players/alice/history/"' in html
    for key in ("ba_time", "ac_abort", "ab_win"):
        assert f'href="/matches/{m[key].pk}/replay/"' in html


def test_profile_of_a_newcomer(client) -> None:
    users("newbie")
    html = get(client, "/players/newbie/")
    assert re.search(r'data-testid="stat-matches">0<', html)
    assert 'data-testid="rating-chart"' not in html
    assert client.get("/players/nobody/").status_code == 404


# ------------------------------------------------------------------ replays

def play_a_match(alice: User, bob: User) -> Match:
    """Start a casual match, play a few legal moves, then alice resigns."""
    match = do_create_match(alice, bob, rated=False)
    players = (alice, bob)
    for _ in range(6):
        current = Match.objects.get(pk=match.pk)
        engine = load_engine(current)
        for seat in (0, 1):
            options = engine.view(seat)["legal"]
            if options:
                result = do_command(match.pk, players[seat],
                                    {"action": options[0], "version": current.version})
                assert result.ok, result
                break
    result = do_command(match.pk, alice, {"action": {"seat": 0, "type": "resign"}})
    assert result.ok, result
    return Match.objects.get(pk=match.pk)


def test_replay_page_and_frames_of_a_match(client, settings) -> None:
    settings.TEST_FIXED_DEALS = True
    settings.TEST_DEALS_SEED = "history-pages"
    alice, bob = users("alice", "bob")
    match = play_a_match(alice, bob)
    assert match.status == "finished" and match.winner == 1 and match.reason == "resign"

    html = get(client, f"/matches/{match.pk}/replay/")
    page = _replay_data(html)
    assert page["mode"] == "match" and page["frames_url"] == f"/api/matches/{match.pk}/frames"
    assert page["module"].endswith(registry.game(match.game).replay_module)
    assert page["strings"]["sb_hand"] == "Hand {n}"
    assert 'data-testid="replay-upload"' not in html

    data = client.get(f"/api/matches/{match.pk}/frames").json()
    assert data["players"] == ["alice", "bob"]
    assert data["result"] == {"winner": 1, "reason": "resign"}
    assert data["frames"][-1]["action"]["type"] == "resign"
    assert data["balances_by_hand"][0] == [150, 150]


def test_a_running_match_has_no_replay(client) -> None:
    alice, bob = users("alice", "bob")
    match = do_create_match(alice, bob, rated=False)
    assert client.get(f"/matches/{match.pk}/replay/").status_code == 404
    response = client.get(f"/api/matches/{match.pk}/frames")
    assert response.status_code == 409 and response.json()["ok"] is False


def _replay_data(html: str) -> dict:
    return json.loads(re.search(r'id="replay-data" type="application/json">(.*?)</script>',
                                html, re.S).group(1))


def test_upload_page_reads_a_record_of_every_game(client) -> None:
    html = get(client, "/replay/")
    assert 'data-testid="replay-upload"' in html
    page = _replay_data(html)
    assert page["mode"] == "upload"
    assert {p.record_format: p.key for p in registry.all_games()} == {
        fmt: entry["game"] for fmt, entry in page["formats"].items()}


def test_uploaded_record_gives_frames(client) -> None:
    response = client.post("/api/replay", json.dumps(EXAMPLE_RECORD),
                           content_type="application/json")
    assert response.status_code == 200
    data = response.json()
    assert data["players"] == ["alice", "bob"]
    assert [f["action"]["type"] for f in data["frames"]] == ["continue"] * 2 + ["play"] * 3
    third = data["frames"][3]
    assert third["action"]["tile"] == "3-6" and third["action"]["points"] == 15
    assert third["balances"] == [135, 165]
    assert data["frames"][-1]["balances"] == [140, 160]
    assert data["balances_by_hand"] == [[150, 150], [140, 160]]
    assert data["error"] is None


@pytest.mark.parametrize("body", [
    b"this is not json",
    b'{"format": "chess/1"}',
    b"[]",
    json.dumps({**EXAMPLE_RECORD, "hands": [{"deal": {"hands": [["6-6"], ["5-5"]],
                                                       "boneyard": []}, "actions": []}]}).encode(),
])
def test_malformed_upload_is_refused_with_a_message(client, body: bytes) -> None:
    response = client.post("/api/replay", body, content_type="application/json")
    assert response.status_code == 400
    data = response.json()
    assert data["ok"] is False and data["code"] == "malformed"
    assert data["message"].startswith("That is not a valid match record")


def test_upload_needs_post(client) -> None:
    assert client.get("/api/replay").status_code == 405
