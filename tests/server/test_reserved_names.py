"""Names reserved for the platform (the computer, staff words, the platform's name, in every
language it speaks) are refused to people, and the computer's account is the platform's:
made by a migration with an unusable password, never a person's, never renamed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import is_password_usable, make_password
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import translation
from django.utils.functional import Promise

from accounts.computer import COMPUTER_DISPLAY_NAME, COMPUTER_USERNAME
from accounts.models import AccessToken, Profile
from accounts.usernames import RESERVED_MESSAGE, confusable_key, is_reserved
from games.models import Match
from games.play.lobby import bot_user, do_play_computer

PASSWORD = "pw-reserved-names-123"
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                           "LOCATION": "test-reserved-names"}}


@pytest.fixture(autouse=True)
def own_cache(settings) -> Iterator[None]:
    """allauth's sign-up limit (20 a minute per address) counts in a cache of the test's
    own, emptied before and after."""
    settings.CACHES = LOCAL_CACHE
    cache.clear()
    yield
    cache.clear()

RESERVED_LOOKS = [
    "computer", "Computer", "COMPUTER", "computer2", "Computer_2", "c0mputer", "cornputer",
    "\u0441omputer",                    # a Cyrillic es
    "computer-easy", "computer-medium", "computer-hard", "computer-careful",
    "computer-winner", "computer-expert", "computerguy",
    "admin", "Admin1", "administrator", "staff", "system", "moderator", "root",
    "r00t", "support", "Spectacular_Bid", "spectacularbid",
    "компьютер", "Компьютер", "администратор", "админ", "система",      # ru
    "computador", "Administrador", "sistema",                            # pt
    "ordinateur", "administrateur", "système", "systeme",                # fr
]
FREE = ["alice", "adam", "Stafford", "roots", "systematic", "compute", "Bob the Builder"]


@pytest.mark.parametrize("name", RESERVED_LOOKS)
def test_reserved_and_look_alikes(name: str) -> None:
    assert is_reserved(name)


@pytest.mark.parametrize("name", FREE)
def test_other_names_are_free(name: str) -> None:
    assert not is_reserved(name)


def test_the_refusal_is_marked_for_translation() -> None:
    assert isinstance(RESERVED_MESSAGE, Promise)


# ---------------------------------------------------------------- where names are chosen

def signup(client: Client, username: str) -> Any:
    return client.post("/accounts/signup/", {
        "email": "someone@example.org", "username": username,
        "password1": "a-long-new-password-1", "password2": "a-long-new-password-1"})


@pytest.mark.django_db
@pytest.mark.parametrize("name", [
    "computer", "Computer", "computer-easy", "computer2", "\u0441omputer", "admin",
    "Administrator", "root", "Spectacular_Bid",
    "компьютер", "Админ", "система", "computador", "administrador", "ordinateur",
    "administrateur", "système",
])
def test_sign_up_refuses_reserved_names(name: str) -> None:
    response = signup(Client(), name)
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any("reserved for the platform" in e for e in errors), errors
    assert not User.objects.filter(email="someone@example.org").exists()


@pytest.mark.django_db
def test_the_refusal_is_in_the_visitors_language() -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE="ru").post("/accounts/signup/", {
        "email": "someone@example.org", "username": "computer",
        "password1": "a-long-new-password-1", "password2": "a-long-new-password-1"})
    with translation.override("ru"):
        expected = str(RESERVED_MESSAGE)
    assert expected in response.context["form"].errors["username"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Computer", "Компьютер", "Admin team", "Ordinateur", "Staff",
                                  "Sp\u0435ctacular Bid"])
def test_display_names_refuse_reserved_names(name: str) -> None:
    bob = User.objects.create_user("bob", password=PASSWORD)
    client = Client()
    client.force_login(bob)
    response = client.post("/account/", {"action": "name", "display_name": name})
    assert response.status_code == 200
    assert response.context["name_form"].errors["display_name"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["computer2", "admin", "Moderator", "support"])
def test_the_admin_refuses_reserved_names_for_new_users(name: str) -> None:
    staff = Client()
    staff.force_login(User.objects.create_superuser("boss", "boss@example.org", PASSWORD))
    added = staff.post("/admin/auth/user/add/", {
        "username": name, "usable_password": "true",
        "password1": "a-long-new-password-1", "password2": "a-long-new-password-1"})
    assert added.status_code == 200
    assert "username" in added.context["adminform"].form.errors
    assert not User.objects.filter(username=name).exists()


# ---------------------------------------------------------------- the computer's account

def assert_is_the_computer(user: Any) -> None:
    assert user.username == COMPUTER_USERNAME
    assert not is_password_usable(user.password)
    profile = Profile.objects.get(user_id=user.pk)
    assert profile.is_bot and profile.display_name == COMPUTER_DISPLAY_NAME
    assert profile.username_key == confusable_key(COMPUTER_USERNAME)


@pytest.mark.django_db
def test_the_computers_account_is_there_after_migrating() -> None:
    assert_is_the_computer(User.objects.get(username=COMPUTER_USERNAME))


@pytest.mark.django_db
def test_bot_user_fetches_it_and_never_renames_it() -> None:
    made = User.objects.get(username=COMPUTER_USERNAME)
    with translation.override("ru"):
        assert bot_user().pk == made.pk
    assert_is_the_computer(made)
    assert User.objects.filter(username__iexact=COMPUTER_USERNAME).count() == 1


@pytest.mark.django_db
def test_bot_user_makes_it_safely_when_absent() -> None:
    User.objects.filter(username=COMPUTER_USERNAME).delete()  # as a flushed test database
    assert_is_the_computer(bot_user())


@pytest.mark.django_db
def test_signing_up_as_the_computer_never_gets_its_seat() -> None:
    client = Client()
    for name in ("computer", "Computer", "c\u043emputer"):
        assert signup(client, name).status_code == 200
    assert not User.objects.filter(email="someone@example.org").exists()
    visitor = User.objects.create_user("visitor", password=PASSWORD)
    match = do_play_computer(visitor)
    seated = User.objects.get(pk=Match.objects.get(pk=match.pk).seat_users[1])
    assert_is_the_computer(seated)


@pytest.mark.django_db(transaction=True)
def test_the_migration_takes_the_computers_name_back_from_a_person() -> None:
    """Signed up as "computer" before the fix, then marked as the bot by the old bot_user()
    (keeping the password): after migrating, that person keeps the account under another
    name, with no bot rights, and the computer has an account of its own."""
    executor = MigrationExecutor(connection)
    before = [("accounts", "0004_signed_in_sessions")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldUser, OldProfile = old.get_model("auth", "User"), old.get_model("accounts", "Profile")
    OldToken = old.get_model("accounts", "AccessToken")
    OldUser.objects.filter(username__iexact=COMPUTER_USERNAME).delete()
    person = OldUser.objects.create(username="computer", email="person@example.org",
                                    password=make_password(PASSWORD))
    EmailAddress.objects.create(user_id=person.pk, email=person.email, verified=True,
                                primary=True)
    OldProfile.objects.create(user=person, is_bot=True, display_name="Компьютер",
                              username_key=confusable_key("computer"))
    OldToken.objects.create(user=person, name="computer player", digest="d" * 64)
    OldToken.objects.create(user=person, name="my script", digest="e" * 64)
    shouty = OldUser.objects.create(username="COMPUTER", password=make_password(PASSWORD))
    OldProfile.objects.create(user=shouty, display_name="Shouty",
                              username_key=confusable_key("COMPUTER"))

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    renamed = User.objects.get(pk=person.pk)
    assert renamed.username == f"computer-taken-{person.pk}"
    assert renamed.check_password(PASSWORD)  # the person's own account still
    profile = Profile.objects.get(user=renamed)
    assert not profile.is_bot and profile.display_name == ""
    assert profile.username_key == confusable_key(renamed.username)
    tokens = dict(AccessToken.objects.filter(user=renamed).values_list("name", "revoked_at"))
    assert tokens["computer player"] is not None and tokens["my script"] is None
    assert User.objects.get(pk=shouty.pk).username == f"computer-taken-{shouty.pk}"
    assert Profile.objects.get(user_id=shouty.pk).display_name_key == confusable_key("Shouty")

    computer = User.objects.get(username=COMPUTER_USERNAME)
    assert computer.pk not in (person.pk, shouty.pk)
    assert_is_the_computer(computer)
    assert not EmailAddress.objects.filter(user_id=computer.pk).exists()
    assert bot_user().pk == computer.pk
    match = do_play_computer(User.objects.create_user("visitor", password=PASSWORD))
    assert Match.objects.get(pk=match.pk).seat_users[1] == computer.pk
