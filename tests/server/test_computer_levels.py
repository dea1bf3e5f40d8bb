"""The computer's levels on the platform: an account per game and level (made by a
migration, and again when absent), shown by its level in the reader's language, chosen
in the lobby and the API, and kept by a rematch."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import is_password_usable
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from accounts.computer import COMPUTER_USERNAME, computer_account, shown_name
from accounts.models import Profile
from accounts.usernames import is_reserved
from bots.levels import level_accounts, level_for
from games import registry
from games.models import Match
from games.play.lobby import LobbyError, bot_user, computer_levels_for, do_play_computer, do_rematch
from games.play.services import do_command
from games.reads.history import display_name
from tests.api_client import ApiClient

pytestmark = pytest.mark.django_db

LEVEL_NAMES = ["computer-spectacular-bid-easy", "computer-spectacular-bid-hard",
               "computer-fives-easy", "computer-fives-hard", "computer-dice-easy",
               "computer-dice-to_win"]


def test_every_game_and_level_has_an_account_of_its_own() -> None:
    names = [account.username for account in level_accounts()]
    assert names[0] == COMPUTER_USERNAME
    assert set(LEVEL_NAMES) <= set(names)
    assert level_for("computer", "fives") == "medium"
    assert level_for("computer", "spectacular-bid") == "medium"
    assert level_for("computer", "dice") == "careful"
    assert level_for("computer-fives-hard", "fives") == "hard"
    assert level_for("computer-fives-hard", "dice") is None


@pytest.mark.parametrize("username", LEVEL_NAMES)
def test_a_level_account_is_a_bot_nobody_can_sign_in_to(username: str) -> None:
    made = User.objects.get(username=username)  # by migration 0008
    assert not is_password_usable(made.password)
    assert made.profile.is_bot
    assert made.profile.display_name.startswith("Computer (")  # stored untranslated
    assert is_reserved(username)
    made.delete()  # a test that flushed the tables: made again, the same way
    again = computer_account(username)
    assert again.username == username and again.pk != made.pk
    assert Profile.objects.get(user=again).is_bot
    assert computer_account(username).pk == again.pk


def test_only_the_computer_names_are_computer_accounts() -> None:
    with pytest.raises(ValueError):
        computer_account("computer-fives-grandmaster")


def test_a_level_account_is_shown_by_its_level_in_the_readers_language() -> None:
    hard = computer_account("computer-fives-hard")
    assert display_name(hard) == "Computer (hard)"
    assert display_name(bot_user()) == "Computer"
    with translation.override("fr"):
        shown = shown_name("computer-fives-hard")
        assert shown == translation.gettext("Computer (hard)")
    assert User.objects.get(pk=hard.pk).profile.display_name == "Computer (hard)"


def test_play_the_computer_at_a_level_seats_that_levels_account() -> None:
    me = User.objects.create_user("lea", password="pw-levels-123")
    hard = do_play_computer(me, "fives", 4, level="hard")
    assert hard.seat_users[1:] == [computer_account("computer-fives-hard").pk] * 3
    easy = do_play_computer(me, "spectacular-bid", level="easy")
    assert easy.seat_users[1] == computer_account("computer-spectacular-bid-easy").pk
    # The default level is the account "computer": medium here, careful in the dice game.
    assert do_play_computer(me, "fives").seat_users[1] == bot_user().pk
    assert do_play_computer(me, "fives", level="medium").seat_users[1] == bot_user().pk
    assert do_play_computer(me, "dice", 2, level="careful").seat_users[1] == bot_user().pk
    dice_easy = do_play_computer(me, "dice", 2, level="easy")
    assert dice_easy.seat_users[1] == computer_account("computer-dice-easy").pk


@pytest.mark.parametrize(("game", "level"), [("fives", "careful"), ("dice", "hard"),
                                             ("fives", 3), ("fives", "")])
def test_a_level_the_game_has_not_is_refused_with_the_levels(game: str, level: object) -> None:
    me = User.objects.create_user("lea", password="pw-levels-123")
    with pytest.raises(LobbyError, match="'level' must be one of"):
        do_play_computer(me, game, level=level)
    assert not Match.objects.exists()


def test_the_api_takes_a_level() -> None:
    me = ApiClient(User.objects.create_user("lea", password="pw-levels-123"))
    made = me.post("/api/matches/computer", {"game": "spectacular-bid", "level": "hard"})
    assert made.status_code == 201, made.json()
    match = Match.objects.get(pk=made.json()["match"]["id"])
    assert match.seat_users[1] == computer_account("computer-spectacular-bid-hard").pk
    refused = me.post("/api/matches/computer", {"game": "fives", "level": "expert"})
    assert refused.status_code == 400
    assert "easy, medium, hard" in refused.json()["message"]


def test_a_rematch_plays_the_same_level_again() -> None:
    me = User.objects.create_user("lea", password="pw-levels-123")
    match = do_play_computer(me, "spectacular-bid", level="hard")
    assert do_command(match.pk, me, {"action": {"seat": 0, "type": "resign"}}).ok
    match.refresh_from_db()
    again = do_rematch(me, match)
    assert isinstance(again, Match)
    assert again.seat_users[1] == computer_account("computer-spectacular-bid-hard").pk


def test_a_level_account_cannot_be_challenged() -> None:
    from games.play.lobby import do_challenge

    me = User.objects.create_user("lea", password="pw-levels-123")
    computer_account("computer-fives-easy")
    with pytest.raises(LobbyError):
        do_challenge(me, "computer-fives-easy", rated=False, game="fives")


def test_the_lobby_offers_each_games_levels() -> None:
    fives = computer_levels_for(registry.game("fives"))
    assert [level["key"] for level in fives["levels"]] == ["easy", "medium", "hard"]
    assert fives["default"] == "medium"
    dice = computer_levels_for(registry.game("dice"))
    assert [level["key"] for level in dice["levels"]] == ["careful", "easy", "to_win"]
    User.objects.create_user("lea", password="pw-levels-123")
    client = Client()
    client.login(username="lea", password="pw-levels-123")
    page = client.get("/").content.decode()
    assert 'data-testid="computer-level"' in page
    assert '"computer": {"levels": [{"key": "easy"' in page


def test_pages_show_a_level_account_by_its_level() -> None:
    from ratings.models import Rating

    hard = computer_account("computer-fives-hard")
    Rating.objects.create(user=hard, game="fives", games=3, wins=2)
    client = Client()
    profile = client.get("/players/computer-fives-hard/").content.decode()
    assert "<h1>Computer (hard)</h1>" in profile
    board = client.get("/leaderboard/?game=fives").content.decode()
    assert ">Computer (hard)</a>" in board


def test_runbot_issues_a_token_to_every_computer_account() -> None:
    from accounts.models import AccessToken
    from games.management.commands.runbot import issue_token

    first = {account.username: issue_token(account.username) for account in level_accounts()}
    again = {account.username: issue_token(account.username) for account in level_accounts()}
    for username in first:
        live = AccessToken.objects.filter(user__username=username, revoked_at__isnull=True)
        assert live.count() == 1, username  # the earlier token revoked
        assert first[username] != again[username]
