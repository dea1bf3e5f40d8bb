"""Every way a session loses its rights closes its sockets (accounts/credentials.py):
signing out, a password changed or reset, an e-mail address changed, staff deactivating
the account, "sign out everywhere" (which also revokes the tokens).

In process, through the platform's ASGI application and the Redis channel layer; the same
across two daphne processes is in ``tests/live/test_session_loss_live.py``.
"""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client

from accounts.credentials import REVOKED_CLOSE_CODE
from accounts.models import AccessToken, SignedInSession
from games.play.services import do_create_match
from tests.server.conftest import LIVE

from .test_consumers import TIMEOUT, fingerprint, open_socket, session_headers, token_headers

pytestmark = LIVE  # transactions, the live channel layer
PASSWORD = "pw-alice-123-long"
ORIGIN = "http://localhost"


class Alice:
    """Alice signed in on two browsers (A and B) and with a token; a match to watch."""

    def __init__(self) -> None:
        self.user = User.objects.create_user("alice", "alice@example.com", PASSWORD)
        EmailAddress.objects.create(user=self.user, email="alice@example.com", verified=True,
                                    primary=True)
        bob = User.objects.create_user("bob")
        self.match = do_create_match(self.user, bob, rated=False)
        self.browser_a, self.browser_b = Client(), Client()
        for browser in (self.browser_a, self.browser_b):
            assert browser.login(username="alice", password=PASSWORD)
        self.token, self.raw_token = AccessToken.issue(self.user, "bot")

    def session_key(self, browser: Client) -> str:
        return browser.cookies[django_settings.SESSION_COOKIE_NAME].value

    def signed_in(self, browser: Client) -> bool:
        return browser.get("/api/me").status_code == 200


async def alice() -> Alice:
    return await database_sync_to_async(Alice)()


async def sockets(who: Alice) -> dict[str, WebsocketCommunicator]:
    opened = {}
    for name, headers in (
            ("a", session_headers(who.session_key(who.browser_a), ORIGIN)),
            ("b", session_headers(who.session_key(who.browser_b), ORIGIN)),
            ("token", token_headers(who.raw_token))):
        comm, snap = await open_socket(who.match.pk, headers)
        assert snap["view"]["seat"] == 0
        opened[name] = comm
    return opened


async def closed(comm: WebsocketCommunicator) -> int | None:
    output = await comm.receive_output(timeout=TIMEOUT)
    assert output["type"] == "websocket.close", output
    return output.get("code")


async def still_open(comm: WebsocketCommunicator) -> bool:
    await comm.send_json_to({"type": "ping"})
    return bool((await comm.receive_json_from(timeout=TIMEOUT))["type"] == "pong")


async def close_all(opened: dict[str, WebsocketCommunicator]) -> None:
    for comm in opened.values():
        await comm.disconnect()


def call(func: Any, *args: Any, **kwargs: Any) -> Any:
    return database_sync_to_async(func)(*args, **kwargs)


async def test_signing_in_indexes_the_session() -> None:
    who = await alice()
    keys = await call(lambda: set(SignedInSession.objects.filter(user=who.user)
                                  .values_list("session_key", flat=True)))
    assert keys == {who.session_key(who.browser_a), who.session_key(who.browser_b)}


async def test_signing_out_closes_that_sessions_sockets_only() -> None:
    who = await alice()
    opened = await sockets(who)
    await call(who.browser_b.post, "/accounts/logout/")
    assert await closed(opened["b"]) == REVOKED_CLOSE_CODE
    assert await still_open(opened["a"]) and await still_open(opened["token"])
    await close_all(opened)


async def test_a_password_change_closes_the_other_sessions_sockets() -> None:
    who = await alice()
    opened = await sockets(who)
    before = await fingerprint(who.match.pk)
    response = await call(who.browser_a.post, "/accounts/password/change/", {
        "oldpassword": PASSWORD, "password1": "a-new-pw-9876-x", "password2": "a-new-pw-9876-x"})
    assert response.status_code == 302, response.content
    # B's rights are gone: its socket closes, and it is signed out over HTTP.
    assert await closed(opened["b"]) == REVOKED_CLOSE_CODE
    assert not await call(who.signed_in, who.browser_b)
    # A goes on (its session re-keyed: its socket closes and reopens with the new key).
    assert await call(who.signed_in, who.browser_a)
    assert await closed(opened["a"]) == REVOKED_CLOSE_CODE
    comm, snap = await open_socket(who.match.pk, session_headers(
        who.session_key(who.browser_a), ORIGIN))
    assert snap["view"]["seat"] == 0
    # A token is not a session: it keeps working.
    assert await still_open(opened["token"])
    assert await fingerprint(who.match.pk) == before
    await comm.disconnect()
    await close_all(opened)


async def test_a_password_reset_closes_every_sessions_sockets() -> None:
    """However the password is set (the reset link, staff, a shell): every session ends."""
    who = await alice()
    opened = await sockets(who)

    def reset() -> None:
        user = User.objects.get(pk=who.user.pk)
        user.set_password("reset-pw-5555-y")
        user.save()

    await call(reset)
    assert await closed(opened["a"]) == REVOKED_CLOSE_CODE
    assert await closed(opened["b"]) == REVOKED_CLOSE_CODE
    assert await still_open(opened["token"])
    assert not await call(who.signed_in, who.browser_a)
    await close_all(opened)


async def test_the_reset_link_closes_the_sessions_sockets() -> None:
    from allauth.account.forms import default_token_generator
    from allauth.account.utils import user_pk_to_url_str

    who = await alice()
    opened = await sockets(who)
    anonymous = Client()

    def reset_by_link() -> Any:
        user = User.objects.get(pk=who.user.pk)  # as stored: the token hashes its last sign-in
        key = default_token_generator.make_token(user)
        url = f"/accounts/password/reset/key/{user_pk_to_url_str(user)}-{key}/"
        follow = anonymous.get(url)  # allauth keeps the key in the session, then redirects
        assert follow.status_code == 302, follow.status_code
        return anonymous.post(follow["Location"], {"password1": "link-pw-7777-z",
                                                   "password2": "link-pw-7777-z"})

    response = await call(reset_by_link)
    assert response.status_code == 302, response.content
    assert await closed(opened["a"]) == REVOKED_CLOSE_CODE
    assert await closed(opened["b"]) == REVOKED_CLOSE_CODE
    await close_all(opened)


async def test_an_email_change_signs_out_the_other_sessions() -> None:
    who = await alice()
    await call(lambda: EmailAddress.objects.create(user=who.user, email="new@example.com",
                                                   verified=True, primary=False))
    opened = await sockets(who)
    response = await call(who.browser_a.post, "/accounts/email/",
                          {"email": "new@example.com", "action_primary": ""})
    assert response.status_code == 302, response.content
    assert await call(lambda: User.objects.get(pk=who.user.pk).email) == "new@example.com"
    assert await closed(opened["b"]) == REVOKED_CLOSE_CODE
    assert not await call(who.signed_in, who.browser_b)
    assert await still_open(opened["a"]) and await call(who.signed_in, who.browser_a)
    assert await still_open(opened["token"])
    await close_all(opened)


async def test_staff_deactivating_an_account_closes_all_its_sockets() -> None:
    who = await alice()
    opened = await sockets(who)
    staff = await call(User.objects.create_superuser, "staff1", "s@example.com", "staff-pw-1234")
    admin = Client()
    await call(admin.force_login, staff)

    def deactivate() -> Any:
        # What the admin's change form does to the flag (the whole form needs every field).
        user = User.objects.get(pk=who.user.pk)
        user.is_active = False
        user.save()

    await call(deactivate)
    for name in ("a", "b", "token"):
        assert await closed(opened[name]) == REVOKED_CLOSE_CODE, name
    assert not await call(who.signed_in, who.browser_a)
    await close_all(opened)


async def test_the_admin_action_of_deactivating_closes_the_sockets() -> None:
    who = await alice()
    opened = await sockets(who)
    staff = await call(User.objects.create_superuser, "staff2", "t@example.com", "staff-pw-1234")
    admin = Client()
    await call(admin.force_login, staff)

    def change_in_admin() -> Any:
        page = admin.get(f"/admin/auth/user/{who.user.pk}/change/")
        form = page.context["adminform"].form
        data = {name: value for name, value in form.initial.items()
                if value is not None and not isinstance(value, (list, tuple))}
        data.update({"username": "alice", "is_active": "", "date_joined_0": "2026-01-01",
                     "date_joined_1": "00:00:00", "last_login_0": "", "last_login_1": "",
                     "groups": [], "user_permissions": []})
        data.pop("is_active")
        data.pop("password", None)
        return admin.post(f"/admin/auth/user/{who.user.pk}/change/", data)

    response = await call(change_in_admin)
    assert response.status_code == 302, response.content[:2000]
    assert not await call(lambda: User.objects.get(pk=who.user.pk).is_active)
    for name in ("a", "b", "token"):
        assert await closed(opened[name]) == REVOKED_CLOSE_CODE, name
    await close_all(opened)


async def test_sign_out_everywhere_ends_sessions_and_tokens() -> None:
    who = await alice()
    opened = await sockets(who)
    response = await call(who.browser_a.post, "/account/sign-out-everywhere/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for name in ("a", "b", "token"):
        assert await closed(opened[name]) == REVOKED_CLOSE_CODE, name
    assert not await call(who.signed_in, who.browser_a)
    assert not await call(who.signed_in, who.browser_b)
    assert not await call(lambda: AccessToken.objects.filter(
        user=who.user, revoked_at__isnull=True).exists())
    assert not await call(lambda: SignedInSession.objects.filter(user=who.user).exists())
    # The revoked token opens nothing as Alice any more.
    comm, snap = await open_socket(who.match.pk, token_headers(who.raw_token))
    assert snap["view"]["seat"] is None
    await comm.disconnect()
    await close_all(opened)


async def test_sign_out_everywhere_needs_a_post() -> None:
    who = await alice()
    response = await call(who.browser_a.get, "/account/sign-out-everywhere/")
    assert response.status_code == 405
    assert await call(who.signed_in, who.browser_a)
