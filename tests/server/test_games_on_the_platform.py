"""Every registered game through the writer, the lobby and the ratings: any seat count."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from games import registry
from games.models import Match, MatchSeat
from games.play.lobby import LobbyError, bot_user, do_accept, do_play_computer, do_seek
from games.play.services import do_command, do_create_match
from games.play.store import export_record, load_engine, rebuild
from ratings.models import Rating, RatingChange
from tests.bot_play import play_bots

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def users(*names: str) -> list[User]:
    return [User.objects.create_user(name) for name in names]


def play_out(match: Match, seat_users: list[User], seed: int = 1, limit: int = 5000) -> Match:
    """Every seat plays its game's computer player through ``do_command``."""
    return play_bots(match, lambda _, seat: seat_users[seat] if seat < len(seat_users) else None,
                     seed, limit, wait=False)


# Every registered game at each seat count it allows up to four (five and six dice players
# are the conformance suite's: tests/conformance/test_every_game.py).
EVERY_GAME_AND_SEATS = [pytest.param(plugin.key, seats, id=f"{plugin.key}-{seats}")
                        for plugin in registry.all_games()
                        for seats in plugin.seat_counts if seats <= 4]


@pytest.mark.parametrize("game,seats", EVERY_GAME_AND_SEATS)
def test_a_casual_match_of_every_game_plays_out_and_replays(game: str, seats: int) -> None:
    people = users(*[f"p{i}" for i in range(seats)])
    match = do_create_match(*people, game=game, rated=False)
    assert match.seat_count == seats and match.seat_users == [u.pk for u in people]
    done = play_out(match, people)
    assert done.status == Match.Status.FINISHED
    plugin = registry.game(game)
    ranks = list(MatchSeat.objects.filter(match=done).order_by("index")
                 .values_list("rank", flat=True))
    assert ranks == plugin.ranks(load_engine(done))
    assert plugin.view(rebuild(done), None) == plugin.view(load_engine(done), None)
    record = export_record(done)
    assert record["format"] == plugin.record_format
    outcome = plugin.replay_document(json.dumps(record).encode(), with_legal=False)
    assert outcome.exit_status == 0
    assert plugin.replayed_scores(outcome.report) == done.scores


def test_a_rated_four_player_fives_rates_every_pair() -> None:
    people = users("ann", "boris", "clara", "dima")
    done = play_out(do_create_match(*people, game="fives", rated=True), people, seed=3)
    assert done.rating_seq is not None
    changes = RatingChange.objects.filter(match=done)
    assert changes.count() == 4
    assert sum(c.after - c.before for c in changes) in range(-2, 3)  # rounding only
    assert Rating.objects.filter(game="fives").count() == 4


def test_a_solo_dice_game_is_never_rated() -> None:
    (me,) = users("solo")
    match = do_create_match(me, game="dice", rated=True)
    assert not match.rated
    done = play_out(match, [me])
    assert done.rating_seq is None and not RatingChange.objects.exists()


def test_play_the_computer_with_three_computer_opponents() -> None:
    (me,) = users("me")
    match = do_play_computer(me, "fives", 4)
    bot = bot_user()
    assert match.seat_users == [me.pk, bot.pk, bot.pk, bot.pk]
    done = play_out(match, [me, bot, bot, bot], seed=5)
    assert done.status == Match.Status.FINISHED


def test_a_four_seat_table_waits_in_the_lobby_until_its_seats_are_taken() -> None:
    a, b, c = users("a", "b", "c")
    seek = do_seek(a, rated=False, game="fives", seats=4, computer_seats=1)
    assert do_accept(b, seek.pk) == seek  # seated; the table waits
    with pytest.raises(LobbyError):
        do_accept(b, seek.pk)  # already seated
    match = do_accept(c, seek.pk)
    assert match.game == "fives"
    assert match.seat_users == [a.pk, b.pk, c.pk, bot_user().pk]


@pytest.mark.parametrize("body", [
    {"game": "chess"}, {"game": "fives", "seats": 3}, {"game": "fives", "seats": True},
    {"game": "dice", "seats": 7}, {"game": "fives", "seats": 2, "computer_seats": 2},
    {"game": "fives", "rules": {"target": 300}}, {"game": "dice", "rules": {"rounds": 4}},
])
def test_bad_tables_are_refused_with_a_message(body) -> None:
    (me,) = users("me")
    with pytest.raises(LobbyError) as info:
        do_seek(me, rated=False, game=body.get("game"), seats=body.get("seats", 2),
                computer_seats=body.get("computer_seats", 0), rules=body.get("rules"))
    assert str(info.value)
    assert not Match.objects.exists()


def test_replay_command_takes_every_format(tmp_path: Path) -> None:
    people = users("x", "y")
    for plugin in registry.all_games():
        game = plugin.key
        players = people[:min(seats for seats in plugin.seat_counts if seats >= 2)]
        done = play_out(do_create_match(*players, game=game, rated=False), players)
        path = tmp_path / f"{game}.json"
        path.write_text(json.dumps(export_record(done)))
        run = subprocess.run([sys.executable, "manage.py", "replay", str(path), "--json"],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        assert registry.game(game).replayed_scores(json.loads(run.stdout)) == done.scores


def test_a_one_device_game_is_practice_not_a_win_and_a_loss(client) -> None:
    from django.test import Client

    from games.play.lobby import do_one_device
    from games.reads.history import HistoryFilter, history, player_stats

    (me,) = users("solo2")
    match = do_one_device(me)
    assert do_command(match.pk, me, {"action": {"seat": 1, "type": "resign"}}).ok
    done = Match.objects.get(pk=match.pk)
    assert done.status == Match.Status.FINISHED and not done.rated
    assert list(MatchSeat.objects.filter(match=done).values_list("rank", flat=True)) == [
        None, None]
    stats = player_stats(me)
    assert (stats["matches"], stats["practice"], stats["losses"], stats["streak"]) == (
        0, 1, 0, "")
    assert stats["wins"] == sum(n for _words, n in stats["wins_by"]) + stats["wins_other"] == 0
    for result in ("win", "loss"):
        assert not history(HistoryFilter(player=me, result=result)).exists()
    assert list(history(HistoryFilter(player=me, result="practice"))) == [done]
    page = Client().get(f"/players/{me.username}/history/")
    assert "one-device game" in page.content.decode()


def test_display_names_are_shown_where_players_are_named() -> None:
    from django.test import Client

    from accounts.models import Profile

    ann, bob = users("ann_dn", "bob_dn")
    Profile.objects.filter(user=ann).update(display_name="Annie the Bold")
    match = do_create_match(ann, bob, rated=False)
    do_command(match.pk, bob, {"action": {"seat": 1, "type": "resign"}})
    client = Client()
    client.force_login(bob)
    for url in ("/history/", f"/players/{bob.username}/", f"/matches/{match.pk}/",
                f"/matches/{match.pk}/replay/"):
        assert "Annie the Bold" in client.get(url).content.decode(), url
    client.force_login(ann)
    assert "Annie the Bold" in client.get("/").content.decode()  # the header
