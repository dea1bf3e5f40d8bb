"""Revoking a token or logging out closes that credential's match sockets at once."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client

from accounts.credentials import REVOKED_CLOSE_CODE
from accounts.models import AccessToken
from games.play.services import do_create_match
from tests.server.conftest import LIVE

from .test_consumers import TIMEOUT, fingerprint, open_socket, session_headers, token_headers

pytestmark = LIVE  # transactions, the live channel layer


def _setup() -> tuple[Any, User, Client, AccessToken, str]:
    alice = User.objects.create_user("alice", password="pw-alice-123")
    bob = User.objects.create_user("bob")
    match = do_create_match(alice, bob, rated=False)
    token, raw = AccessToken.issue(alice, "bot")
    client = Client()
    client.force_login(alice)
    return match, alice, client, token, raw


async def _closed_with(comm: Any) -> int | None:
    output = await comm.receive_output(timeout=TIMEOUT)
    assert output["type"] == "websocket.close", output
    return output.get("code")


async def test_revoking_a_token_closes_its_sockets() -> None:
    match, _alice, client, token, raw = await database_sync_to_async(_setup)()
    comm, _snap = await open_socket(match.pk, token_headers(raw))
    before = await fingerprint(match.pk)
    response = await database_sync_to_async(client.post)(f"/api/tokens/{token.pk}/revoke")
    assert response.status_code == 200
    assert await _closed_with(comm) == REVOKED_CLOSE_CODE
    assert await fingerprint(match.pk) == before


async def test_revoking_on_the_account_page_closes_its_sockets() -> None:
    match, _alice, client, token, raw = await database_sync_to_async(_setup)()
    comm, _snap = await open_socket(match.pk, token_headers(raw))
    response = await database_sync_to_async(client.post)(
        "/account/", {"action": "revoke", "token": str(token.pk)})
    assert response.status_code == 302
    assert await _closed_with(comm) == REVOKED_CLOSE_CODE


async def test_revoking_another_token_leaves_a_socket_open() -> None:
    match, alice, client, _token, raw = await database_sync_to_async(_setup)()
    other, _ = await database_sync_to_async(AccessToken.issue)(alice, "other")
    comm, snap = await open_socket(match.pk, token_headers(raw))
    try:
        await database_sync_to_async(client.post)(f"/api/tokens/{other.pk}/revoke")
        await comm.send_json_to({"type": "command", "id": "c1", "version": snap["version"],
                                 "action": {"seat": 0, "type": "continue"}})
        result = await comm.receive_json_from(timeout=TIMEOUT)
        while result.get("type") != "result":
            result = await comm.receive_json_from(timeout=TIMEOUT)
        assert result["ok"], result
    finally:
        await comm.disconnect()


async def test_logging_out_closes_the_session_sockets() -> None:
    match, _alice, client, _token, _raw = await database_sync_to_async(_setup)()
    sessionid = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    comm, snap = await open_socket(match.pk, session_headers(sessionid, "http://localhost"))
    assert snap["view"]["seat"] == 0
    before = await fingerprint(match.pk)
    response = await database_sync_to_async(client.post)("/accounts/logout/")
    assert response.status_code in (200, 302)
    assert await _closed_with(comm) == REVOKED_CLOSE_CODE
    assert await fingerprint(match.pk) == before


async def test_a_revoked_token_cannot_open_a_socket_as_the_player() -> None:
    match, _alice, client, token, raw = await database_sync_to_async(_setup)()
    await database_sync_to_async(client.post)(f"/api/tokens/{token.pk}/revoke")
    comm, snap = await open_socket(match.pk, token_headers(raw))
    try:
        assert snap["view"]["seat"] is None
    finally:
        await comm.disconnect()
