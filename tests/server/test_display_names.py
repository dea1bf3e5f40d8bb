"""Display names follow the username rules (accounts/usernames.py): normalized, nothing
invisible or direction-changing, and no look-alike of another player's username or display
name; nor may a new username look like another player's display name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils.functional import Promise

from accounts import usernames
from accounts.models import Profile
from accounts.usernames import confusable_key

pytestmark = pytest.mark.django_db

PASSWORD = "pw-display-names-123"
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                           "LOCATION": "test-display-names"}}


@pytest.fixture(autouse=True)
def own_cache(settings) -> Iterator[None]:
    """allauth's sign-up limit counts in a cache of the test's own, emptied each time."""
    settings.CACHES = LOCAL_CACHE
    cache.clear()
    yield
    cache.clear()


def player(name: str, display_name: str = "") -> User:
    user = User.objects.create_user(name, email=f"{name}@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    if display_name:
        profile = Profile.objects.get(user=user)
        profile.display_name = display_name
        profile.save()
    return user


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def save_display_name(client: Client, name: str) -> Any:
    return client.post("/account/", {"action": "name", "display_name": name})


def refusal(response: Any) -> list[str]:
    assert response.status_code == 200, "saved, not refused"
    return list(response.context["name_form"].errors["display_name"])


# ---------------------------------------------------------------- the four impersonations

@pytest.mark.parametrize("impersonation", [
    "Alice Champion",                 # the very name
    "\u0410lice Champion",            # a Cyrillic capital A
    "Alice\u200b Champion",           # a zero-width space
    "\u202eAlice Champion",           # a right-to-left override
    "Ali\u200dce Champion",           # a zero-width joiner
    "Alice Champion\u2069",           # a bidi isolate's end
    "Alice\u00a0\u00a0Champion",      # two no-break spaces
    "alice champion",
])
def test_another_players_display_name_cannot_be_taken(impersonation: str) -> None:
    player("alice", "Alice Champion")
    mallory = player("mallory")
    errors = refusal(save_display_name(signed_in(mallory), impersonation))
    assert errors
    assert Profile.objects.get(user=mallory).display_name == ""


def test_the_refusal_names_the_other_display_name() -> None:
    player("alice", "Alice Champion")
    errors = refusal(save_display_name(signed_in(player("mallory")), "\u0410lice Champion"))
    assert any("“Alice Champion”" in error for error in errors), errors


@pytest.mark.parametrize("char", [
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad",   # format characters (Cf)
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",             # embeddings, overrides
    "\u2066", "\u2067", "\u2068", "\u2069",                       # isolates
    "\u200e", "\u200f", "\u061c",                                 # marks
    "\t", "\x07", "\x1b", "\u2028",                               # control, line separator
    "\u3164",                                                     # a Hangul filler
])
def test_invisible_and_direction_characters_are_refused(char: str) -> None:
    bob = player("bob")
    errors = refusal(save_display_name(signed_in(bob), f"Bob{char}by"))
    assert any("invisible" in error for error in errors), errors


def test_a_display_name_is_stored_normalized() -> None:
    bob = player("bob")
    response = save_display_name(signed_in(bob), "  Jose\u0301\u3000\u3000the  Builder ")
    assert response.status_code == 302
    profile = Profile.objects.get(user=bob)
    assert profile.display_name == "Jos\u00e9 the Builder"  # NFC, one space each
    assert profile.display_name_key == confusable_key("Jos\u00e9 the Builder")


def test_ones_own_names_may_be_kept_and_look_alike() -> None:
    bob = player("bob", "Bob the Builder")
    client = signed_in(bob)
    for name in ("Bob the Builder", "B\u043eb the Builder", "B\u043eb", ""):
        assert save_display_name(client, name).status_code == 302
        assert Profile.objects.get(user=bob).display_name == name


def test_a_display_name_may_not_pass_for_another_username() -> None:
    player("alice")
    errors = refusal(save_display_name(signed_in(player("bob")), "\u0430lice"))
    assert any("username “alice”" in error for error in errors), errors


def test_a_display_name_freed_is_free() -> None:
    alice = player("alice", "Alice Champion")
    profile = Profile.objects.get(user=alice)
    profile.display_name = "Alice"
    profile.save(update_fields=["display_name"])  # the key follows even so
    assert Profile.objects.get(user=alice).display_name_key == confusable_key("Alice")
    assert save_display_name(signed_in(player("bob")), "Alice Champion").status_code == 302


# ---------------------------------------------------------------- usernames against them

def signup(client: Client, username: str, email: str) -> Any:
    return client.post("/accounts/signup/", {
        "email": email, "username": username,
        "password1": "a-long-new-password-1", "password2": "a-long-new-password-1"})


@pytest.mark.parametrize("username", ["Zed", "zed", "z\u0435d", "ZED"])
def test_a_username_may_not_look_like_another_players_display_name(username: str) -> None:
    player("alice", "Zed")
    response = signup(Client(), username, "zed@example.org")
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any("display name of another player" in e for e in errors), errors
    assert not User.objects.filter(username=username).exists()


def test_the_admin_holds_usernames_and_display_names_to_the_rules() -> None:
    alice = player("alice", "Alice Champion")
    bob = player("bob")
    staff = signed_in(User.objects.create_superuser("boss", "boss@example.org", PASSWORD))
    added = staff.post("/admin/auth/user/add/", {
        "username": "Alice_Champion_fan",
        "usable_password": "true",
        "password1": "a-long-new-password-1", "password2": "a-long-new-password-1"})
    assert added.status_code == 302  # a different name is fine
    player("carol", "Queen")
    renamed = staff.post(f"/admin/auth/user/{bob.pk}/change/", {
        "username": "Qu\u0435en", "email": bob.email, "is_active": "on",
        "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"})
    assert renamed.status_code == 200
    assert "username" in renamed.context["adminform"].form.errors
    bob_profile = Profile.objects.get(user=bob)
    changed = staff.post(f"/admin/accounts/profile/{bob_profile.pk}/change/", {
        "user": bob.pk, "display_name": "Alice\u200bChampion"})
    assert changed.status_code == 200
    assert "display_name" in changed.context["adminform"].form.errors
    changed = staff.post(f"/admin/accounts/profile/{bob_profile.pk}/change/", {
        "user": bob.pk, "display_name": "\u0410lice Champion"})
    assert changed.status_code == 200
    assert Profile.objects.get(user=bob).display_name == ""
    assert Profile.objects.get(user=alice).display_name == "Alice Champion"


def test_the_new_refusals_are_marked_for_translation() -> None:
    for message in (usernames.USERNAME_LIKE_DISPLAY_NAME_MESSAGE,
                    usernames.DISPLAY_NAME_LIKE_DISPLAY_NAME_MESSAGE,
                    usernames.INVISIBLE_MESSAGE):
        assert isinstance(message, Promise)
