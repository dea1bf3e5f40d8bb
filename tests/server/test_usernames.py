"""Look-alike usernames are refused (accounts/usernames.py), and failed sign-ins are limited
per account as well as per address (ACCOUNT_RATE_LIMITS in config/settings.py)."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils.functional import Promise

from accounts.models import Profile
from accounts.usernames import DISPLAY_NAME_MESSAGE, MESSAGE, confusable_key, skeleton

pytestmark = pytest.mark.django_db

PASSWORD = "pw-usernames-123"


def player(name: str) -> User:
    user = User.objects.create_user(name, email=f"{name}@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


# ---------------------------------------------------------------- the skeleton

@pytest.mark.parametrize("name", [
    "alice",
    "\u0430lice",            # Cyrillic a (U+0430)
    "ali\u0441e",            # Cyrillic es (U+0441)
    "aIice",                 # capital I for l
    "a1ice",                 # digit one for l
    "Alice",
    "\uff41\uff4c\uff49\uff43\uff45",  # fullwidth
    "\u0251lice",            # Latin alpha
])
def test_look_alikes_share_a_key(name: str) -> None:
    assert confusable_key(name) == confusable_key("alice"), skeleton(name)


@pytest.mark.parametrize("name", ["alicia", "bob", "alice2", "malice"])
def test_different_names_do_not(name: str) -> None:
    assert confusable_key(name) != confusable_key("alice")


def test_rn_and_m() -> None:
    assert confusable_key("rnary") == confusable_key("mary")


def test_the_profile_keeps_the_key_of_the_current_username() -> None:
    user = player("carol")
    assert Profile.objects.get(user=user).username_key == confusable_key("carol")
    user.username = "caroline"
    user.save()
    assert Profile.objects.get(user=user).username_key == confusable_key("caroline")


# ---------------------------------------------------------------- where a name is chosen

def signup(client: Client, username: str) -> Any:
    return client.post("/accounts/signup/", {
        "email": f"new-{len(username)}-{ord(username[0])}@example.org", "username": username,
        "password1": "a-long-new-password-1", "password2": "a-long-new-password-1"})


def test_sign_up_refuses_a_homoglyph_of_an_existing_name() -> None:
    player("alice")
    response = signup(Client(), "\u0430lice")
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any("looks too much like “alice”" in e for e in errors), errors
    assert not User.objects.filter(username="\u0430lice").exists()


def test_the_refusal_is_marked_for_translation() -> None:
    assert isinstance(MESSAGE, Promise) and isinstance(DISPLAY_NAME_MESSAGE, Promise)


def test_sign_up_accepts_a_distinct_name() -> None:
    player("alice")
    response = signup(Client(), "alicia")
    assert response.status_code == 302, response.context["form"].errors
    assert User.objects.filter(username="alicia").exists()


def test_the_admin_refuses_look_alikes_too() -> None:
    alice = player("alice")
    admin = User.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    client = Client()
    client.force_login(admin)
    added = client.post("/admin/auth/user/add/", {
        "username": "aIice", "usable_password": "true",
        "password1": "a-long-new-password-1", "password2": "a-long-new-password-1"})
    assert added.status_code == 200
    assert "username" in added.context["adminform"].form.errors
    assert not User.objects.filter(username="aIice").exists()
    # Renaming another user to a look-alike is refused; keeping one's own name is not.
    bob = player("bob")
    change = {"username": "\u0430lice", "email": bob.email, "is_active": "on",
              "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    renamed = client.post(f"/admin/auth/user/{bob.pk}/change/", change)
    assert renamed.status_code == 200
    assert "username" in renamed.context["adminform"].form.errors
    kept = client.post(f"/admin/auth/user/{alice.pk}/change/", {**change, "username": "alice",
                                                                   "email": alice.email})
    assert kept.status_code == 302


def test_a_display_name_may_not_pass_for_another_player() -> None:
    player("alice")
    bob = player("bob")
    client = Client()
    client.force_login(bob)
    refused = client.post("/account/", {"action": "name", "display_name": "\u0430lice"})
    assert refused.status_code == 200
    assert "display_name" in refused.context["name_form"].errors
    for fine in ("Bob the Builder", "B\u043eb"):  # one's own name, even a look-alike of it
        saved = client.post("/account/", {"action": "name", "display_name": fine})
        assert saved.status_code == 302
        assert Profile.objects.get(user=bob).display_name == fine


# ---------------------------------------------------------------- failed sign-ins

LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                           "LOCATION": "test-usernames-rate-limits"}}


def sign_in(client: Client, login: str, password: str) -> bool:
    client.post("/accounts/login/", {"login": login, "password": password})
    return "_auth_user_id" in client.session


@pytest.fixture
def limits_on() -> Any:
    """The production limits (the live tests turn them off), in a cache of the test's own."""
    from django.core.cache import cache

    with override_settings(ACCOUNT_RATE_LIMITS={"login_failed": settings.LOGIN_FAILED_RATE_LIMIT},
                           CACHES=LOCAL_CACHE):
        cache.clear()
        yield
        cache.clear()


def test_one_accounts_failures_do_not_lock_out_another_from_the_same_address(limits_on) -> None:
    player("alice")
    player("bob")
    attacker = Client()
    for _ in range(12):
        assert not sign_in(attacker, "bob", "wrong-password")
    # bob's account is locked, even with the right password...
    assert not sign_in(Client(), "bob", PASSWORD)
    # ... while alice, from the same address, signs in.
    assert sign_in(Client(), "alice", PASSWORD)


def test_failures_across_many_accounts_block_the_address(limits_on) -> None:
    player("alice")
    names = [f"p{i}" for i in range(7)]
    for name in names:
        player(name)
    # Only the per-address part of login_failed: allauth's separate limit on all sign-in
    # POSTs (30 a minute per address) is lifted here.
    with override_settings(ACCOUNT_RATE_LIMITS={"login_failed": settings.LOGIN_FAILED_RATE_LIMIT,
                                                "login": ""}):
        for name in names:
            for _ in range(5):
                sign_in(Client(), name, "wrong-password")
        assert not sign_in(Client(), "alice", PASSWORD)
        assert sign_in(Client(REMOTE_ADDR="10.1.2.3"), "alice", PASSWORD)


def test_a_capital_i_is_an_i_by_case_and_an_l_by_look() -> None:
    """Case folding and look-alikes together: the four are one name."""
    from accounts.usernames import skeleton

    assert len({skeleton(name) for name in ("SPRINTER", "sprinter", "spr\u0456nter",
                                            "sprlnter")}) == 1
    assert skeleton("aIice") == skeleton("alice") == skeleton("ALICE")
    assert skeleton("sam") != skeleton("fam")
