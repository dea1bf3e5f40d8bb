"""Failed sign-ins are counted per account, whatever was typed to name it, and per address
(accounts/signin_throttle.py): strictly per account and address, and across addresses the
account is only slowed, never locked, so that no stranger can keep its owner out."""

from __future__ import annotations

import time as real_time
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from allauth.account.models import EmailAddress
from allauth.core.internal import ratelimit
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils.functional import Promise

from accounts import signin_throttle
from accounts.signin_throttle import ACCOUNT_ADDRESS_MESSAGE, ADDRESS_MESSAGE, SLOWED_MESSAGE

pytestmark = pytest.mark.django_db

PASSWORD = "pw-throttle-123"
WRONG = "not-the-password"
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                           "LOCATION": "test-signin-throttle"}}


class Clock:
    """allauth's rate limits read the time through this: tests move it on. Each reading is
    a microsecond later than the last, as real attempts are apart: a rollback takes back
    the attempts counted at its very instant."""

    def __init__(self) -> None:
        self.now = real_time.time()

    def time(self) -> float:
        self.now += 1e-6
        return self.now


@pytest.fixture
def clock(settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """The production limits (the live tests turn them off; allauth's separate limit on
    all sign-in POSTs lifted), in a cache of the test's own, emptied before and after."""
    settings.CACHES = LOCAL_CACHE
    settings.ACCOUNT_RATE_LIMITS = {
        "login_failed": settings.LOGIN_FAILED_RATE_LIMIT,
        "login_failed_account": settings.LOGIN_FAILED_ACCOUNT_RATE_LIMIT,
        "login_slowed_account": settings.LOGIN_SLOWED_ACCOUNT_RATE_LIMIT,
        "login": "",
    }
    fake = Clock()
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(
        time=fake.time, monotonic=real_time.monotonic, sleep=real_time.sleep))
    cache.clear()
    yield fake
    cache.clear()


def player(name: str) -> User:
    user = User.objects.create_user(name, email=f"{name}@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def sign_in(login: str, password: str, address: str = "10.0.0.1") -> tuple[bool, list[str]]:
    """Whether it signed in, and the form's errors."""
    client = Client(REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"login": login, "password": password})
    errors = [] if response.status_code == 302 else list(
        response.context["form"].non_field_errors())
    return "_auth_user_id" in client.session, errors


def fail(login: str, address: str, times: int = 1) -> None:
    for _ in range(times):
        assert not sign_in(login, WRONG, address)[0]


# ---------------------------------------------------------------- one count per account

def test_the_email_address_is_no_second_allowance(clock: Clock) -> None:
    player("bob")
    fail("bob", "10.0.0.1", 5)
    for login in ("bob@example.org", "BOB@Example.org", "Bob"):
        signed_in, errors = sign_in(login, PASSWORD, "10.0.0.1")
        assert not signed_in
        assert str(ACCOUNT_ADDRESS_MESSAGE) in errors, errors


def test_nor_the_username_after_the_email_address(clock: Clock) -> None:
    player("bob")
    fail("Bob@example.org", "10.0.0.1", 5)
    assert sign_in("bob", PASSWORD, "10.0.0.1") == (False, [str(ACCOUNT_ADDRESS_MESSAGE)])


def test_a_success_gives_its_count_back(clock: Clock) -> None:
    player("bob")
    fail("bob", "10.0.0.1", 4)
    for _ in range(3):  # none of them counts as a fifth attempt
        assert sign_in("bob@example.org", PASSWORD, "10.0.0.1")[0]
    fail("bob", "10.0.0.1")
    assert sign_in("bob", PASSWORD, "10.0.0.1") == (False, [str(ACCOUNT_ADDRESS_MESSAGE)])


def test_the_count_ends_after_five_minutes(clock: Clock) -> None:
    player("bob")
    fail("bob", "10.0.0.1", 5)
    assert not sign_in("bob", PASSWORD, "10.0.0.1")[0]
    clock.now += 301
    assert sign_in("bob", PASSWORD, "10.0.0.1")[0]


# ---------------------------------------------------------------- no lock-out from afar

def test_a_strangers_failures_do_not_keep_the_owner_out(clock: Clock) -> None:
    player("bob")
    fail("bob", "203.0.113.9", 10)
    fail("bob@example.org", "203.0.113.9", 10)
    assert sign_in("bob", WRONG, "203.0.113.9")[1] == [str(ACCOUNT_ADDRESS_MESSAGE)]
    assert sign_in("bob", PASSWORD, "10.0.0.1") == (True, [])


def test_an_address_guessing_across_accounts_is_stopped(clock: Clock) -> None:
    names = [f"p{i}" for i in range(7)]
    for name in [*names, "alice"]:
        player(name)
    for name in names:
        fail(name, "203.0.113.9", 5)  # 30 failures: the address's allowance
    assert sign_in("alice", PASSWORD, "203.0.113.9") == (False, [str(ADDRESS_MESSAGE)])
    assert sign_in("alice", PASSWORD, "10.0.0.1")[0]


# ---------------------------------------------------------------- slowed, not locked

def test_one_address_cannot_slow_the_account(clock: Clock) -> None:
    player("bob")
    for _ in range(10):
        fail("bob", "203.0.113.9", 10)
        fail("bob@example.org", "203.0.113.9", 10)
        clock.now += 1
    # From anywhere else: a wrong password is just wrong, the right one signs in at once.
    assert str(SLOWED_MESSAGE) not in sign_in("bob", WRONG, "198.51.100.1")[1]
    assert sign_in("bob", PASSWORD, "198.51.100.2") == (True, [])


def test_many_addresses_slow_the_account_but_never_lock_it(clock: Clock) -> None:
    player("bob")
    for n in range(4):  # 20 failures, each address within its own allowance
        fail("bob", f"203.0.113.{n}", 5)
    # Past the account's allowance, one attempt each 15 s is let through, from anywhere.
    signed_in, errors = sign_in("bob", WRONG, "203.0.113.50")
    assert not signed_in and str(SLOWED_MESSAGE) not in errors  # let through, and wrong
    assert sign_in("bob@example.org", PASSWORD, "10.0.0.1") == (False, [str(SLOWED_MESSAGE)])
    assert sign_in("bob", WRONG, "203.0.113.51") == (False, [str(SLOWED_MESSAGE)])
    clock.now += 16
    assert sign_in("bob@example.org", PASSWORD, "10.0.0.1") == (True, [])
    # A stranger still waits his turn.
    clock.now += 1
    assert sign_in("bob", WRONG, "203.0.113.52")[1] != [str(SLOWED_MESSAGE)]
    assert sign_in("bob", WRONG, "203.0.113.53")[1] == [str(SLOWED_MESSAGE)]


def test_an_address_the_owner_signed_in_from_is_not_slowed(clock: Clock) -> None:
    player("bob")
    assert sign_in("bob", PASSWORD, "10.0.0.1")[0]
    for n in range(5):
        fail("bob", f"203.0.113.{n}", 5)
    assert sign_in("bob", WRONG, "203.0.113.99")[1] == [str(SLOWED_MESSAGE)]
    assert sign_in("bob", PASSWORD, "10.0.0.1") == (True, [])


def test_other_accounts_are_not_slowed(clock: Clock) -> None:
    player("bob")
    player("alice")
    for n in range(5):
        fail("bob", f"203.0.113.{n}", 5)
    assert sign_in("alice", PASSWORD, "198.51.100.1") == (True, [])


def test_a_password_reset_starts_the_counts_over(clock: Clock, rf) -> None:
    bob = player("bob")
    for n in range(5):
        fail("bob", f"203.0.113.{n}", 5)
    request = rf.post("/accounts/password/reset/key/", REMOTE_ADDR="203.0.113.0")
    signin_throttle.forget_failures(request, {"email": bob.email})
    assert sign_in("bob", PASSWORD, "203.0.113.0") == (True, [])


def test_no_limits_when_they_are_off(clock: Clock, settings) -> None:
    settings.ACCOUNT_RATE_LIMITS = False
    player("bob")
    fail("bob", "10.0.0.1", 12)
    assert sign_in("bob", PASSWORD, "10.0.0.1")[0]


def test_the_messages_are_marked_for_translation() -> None:
    for message in (ACCOUNT_ADDRESS_MESSAGE, ADDRESS_MESSAGE, SLOWED_MESSAGE):
        assert isinstance(message, Promise)
