"""The computer's name is shown in the reader's language; its account is never renamed."""

from __future__ import annotations

import pytest
from django.utils import translation

from accounts.models import Profile
from games.play.lobby import bot_user
from games.reads.history import display_name

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "shown"), [("en", "Computer"), ("ru", "Компьютер"),
                                                 ("pt", "Computador"), ("fr", "Ordinateur")])
def test_the_computer_is_named_in_each_readers_language(language: str, shown: str) -> None:
    with translation.override("ru"):
        computer = bot_user()  # started by a Russian reader: no renaming
    with translation.override(language):
        assert display_name(computer) == shown
    assert Profile.objects.get(user=computer).display_name == "Computer"
