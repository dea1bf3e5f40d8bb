"""Telling a player at once, on any page they have open: their notification group.

Every logged-in page keeps a socket to ``/ws/notifications/`` (``NotificationConsumer``,
in tournaments/consumers.py), in its user's group; a message to the group reaches each
of the user's pages. Here so that any app may send one (a challenge from the lobby, a
tournament's round) without knowing the others. A notice is sent once the change
commits, so nobody is told of something rolled back; it carries only what happened and
where, the page words it in the reader's language.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def user_group(user_id: Any) -> str:
    return f"notify.user.{user_id}"


def send_now(user_ids: list[int], notice: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for user_id in user_ids:
        async_to_sync(layer.group_send)(user_group(user_id),
                                        {"type": "notify.notice", "notice": notice})


def send_after_commit(user_ids: list[int], notice: dict[str, Any]) -> None:
    transaction.on_commit(lambda: send_now(user_ids, notice))
