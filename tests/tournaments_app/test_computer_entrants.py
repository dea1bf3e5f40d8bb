"""An organizer enters computer players (a level of the game's computer) into a tournament."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.computer import computer_account
from tournaments.errors import Forbidden, Refused
from tournaments.models import Entry, Tournament
from tournaments.services import do_add_computer

from .helpers import ApiPlayer, club_of, enter, new_tournament, play_round, tick, users

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup() -> dict[str, Any]:
    people = users("olga", "adam", "mia")
    club = club_of(people[0], people[1:2])  # mia is not a member
    return {"owner": people[0], "member": people[1], "outsider": people[2], "club": club}


def test_the_organizer_enters_a_level_once(setup: dict[str, Any]) -> None:
    tournament = new_tournament(setup["owner"], setup["club"], game="fives",
                                rules={"target": 100}, members_only=True)
    entry = do_add_computer(setup["owner"], tournament, "hard")
    assert entry.user == computer_account("computer-fives-hard")
    with pytest.raises(Refused, match="already in this tournament"):
        do_add_computer(setup["owner"], tournament, "hard")
    do_add_computer(setup["owner"], tournament, "medium")  # the default account, "computer"
    assert sorted(tournament.entries.values_list("user__username", flat=True)) == [
        "computer", "computer-fives-hard"]


@pytest.mark.parametrize("level", ["careful", "impossible", None, 3])
def test_a_level_the_game_lacks_is_refused_with_the_games_levels(
        setup: dict[str, Any], level: Any) -> None:
    tournament = new_tournament(setup["owner"], setup["club"], game="fives",
                                rules={"target": 100})
    with pytest.raises(Refused, match="easy, medium, hard"):
        do_add_computer(setup["owner"], tournament, level)
    assert not tournament.entries.exists()


def test_only_an_organizer_and_only_before_the_start(setup: dict[str, Any]) -> None:
    tournament = new_tournament(setup["owner"], setup["club"])
    with pytest.raises(Forbidden):
        do_add_computer(setup["member"], tournament, "easy")
    enter(tournament, [setup["owner"], setup["member"]])
    do_add_computer(setup["owner"], tournament, "easy")
    tick(tournament.starts_at)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(Refused, match="before the tournament starts"):
        do_add_computer(setup["owner"], tournament, "careful")


def test_over_the_api_and_the_computer_plays_its_games(setup: dict[str, Any]) -> None:
    tournament = new_tournament(setup["owner"], setup["club"], game="dice",
                                format="round_robin")
    organizer = ApiPlayer(setup["owner"])
    answer = organizer.ok("POST", f"/api/tournaments/{tournament.pk}/computer",
                          {"level": "to_win"})
    names = [e["username"] for e in answer["tournament"]["entries"]]
    assert names == ["computer-dice-to_win"]
    status, refused = ApiPlayer(setup["member"]).call(
        "POST", f"/api/tournaments/{tournament.pk}/computer", {"level": "easy"})
    assert status == 403 and refused["ok"] is False
    status, refused = organizer.call("POST", f"/api/tournaments/{tournament.pk}/computer",
                                     {"level": "easy", "extra": 1})
    assert status == 400
    enter(tournament, [setup["owner"]])
    tick(tournament.starts_at)
    assert play_round(tournament) == 1  # the computer's seat is played like anyone's
    computer = Entry.objects.get(tournament=tournament, user__username="computer-dice-to_win")
    assert not computer.withdrawn


def test_the_organizers_page_offers_the_games_levels(setup: dict[str, Any], client: Any) -> None:
    tournament = new_tournament(setup["owner"], setup["club"], game="spectacular-bid", rules={})
    client.force_login(setup["owner"])
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-testid="add-computer"' in page
    for level in ("easy", "medium", "hard"):
        assert f'<option value="{level}">' in page
    client.force_login(setup["member"])
    assert 'data-testid="add-computer"' not in client.get(
        f"/tournaments/{tournament.pk}/").content.decode()


def test_the_page_names_a_computer_entrant_by_its_level(setup: dict[str, Any],
                                                        client: Any) -> None:
    """In the reader's language, as the lobby and the profiles do; the username stays in
    the page's data."""
    tournament = new_tournament(setup["owner"], setup["club"], game="spectacular-bid", rules={})
    do_add_computer(setup["owner"], tournament, "hard")
    client.force_login(setup["owner"])
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert '<li data-player="computer-spectacular-bid-hard">Computer (hard) ' in page
    russian = client.get(f"/tournaments/{tournament.pk}/",
                         headers={"accept-language": "ru"}).content.decode()
    assert "computer-spectacular-bid-hard\">Компьютер (сильный) " in russian
