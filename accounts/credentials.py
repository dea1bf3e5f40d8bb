"""Every way a credential loses its rights closes its sockets, on every web process.

Every socket of a signed-in account (match and notification sockets alike) joins the
account's group. Whatever ends some of the account's credentials sends that group one
``credential.revoked`` message after the change commits, naming what ended: some
sessions or all of them (all but one: the session that changed the password carries
on under a new key, as Django keeps it), some access tokens or all of them. Each socket
checks whether the credential it was opened with is among them (``revocation_applies``)
and, if so, closes at once (close code 4401), so nothing is done with rights that are gone.

What ends credentials, each through ``do_end_credentials``:

- signing out: that session;
- revoking a token: that token;
- a password changed or reset (by the player, by staff, from a shell): every session
  (Django refuses them over HTTP from then on; only the changing one is kept, re-keyed);
- an e-mail address changed: the account's other sessions, which are signed out;
- staff deactivating (banning) an account: every session and every token;
- "sign out everywhere": every session, and every token is revoked.

The sessions of an account are found through ``SignedInSession``, written at sign-in.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db import transaction
from django.db.models.signals import post_init, post_save
from django.dispatch import receiver
from django.utils import timezone

from .models import AccessToken, SignedInSession

REVOKED_CLOSE_CODE = 4401
ALL = "*"


def user_group(user_id: int) -> str:
    return f"credential.user.{user_id}"


def socket_user_group(scope: dict[str, Any]) -> str | None:
    """The group a socket joins (None: anonymous, no rights to lose)."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    return user_group(user.pk)


def revocation_applies(scope: dict[str, Any], event: dict[str, Any]) -> bool:
    """Whether the credential a socket was opened with is among those ``event`` ended."""
    token_id = scope.get("token_id")
    if token_id is not None:
        tokens = event.get("tokens", [])
        return bool(tokens == ALL or int(token_id) in tokens)
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    sessions = event.get("sessions", [])
    if sessions == ALL:
        return key is None or key != event.get("keep_session")
    return key in sessions


def do_end_credentials(user_id: int, *, sessions: Iterable[str] | str = (),
                       keep_session: str | None = None,
                       tokens: Iterable[int] | str = (), revoke_tokens: bool = False) -> None:
    """End ``sessions`` (keys, or ALL but ``keep_session``) and close the sockets opened
    with them or with ``tokens`` (ids, or ALL); ``revoke_tokens`` also revokes those."""
    session_keys = _end_sessions(user_id, sessions, keep_session)
    token_ids: list[int] | str = tokens if isinstance(tokens, str) else list(tokens)
    if revoke_tokens:
        found = AccessToken.objects.filter(user_id=user_id, revoked_at__isnull=True)
        if token_ids != ALL:
            found = found.filter(pk__in=token_ids)
        found.update(revoked_at=timezone.now())
    event = {"type": "credential.revoked",
             "sessions": ALL if sessions == ALL else session_keys,
             "keep_session": keep_session, "tokens": token_ids}
    _send_after_commit(user_group(user_id), event)


def _end_sessions(user_id: int, sessions: Iterable[str] | str,
                  keep_session: str | None) -> list[str]:
    """Delete the sessions from the session store and the index; their keys."""
    rows = SignedInSession.objects.filter(user_id=user_id)
    if sessions != ALL:
        rows = rows.filter(session_key__in=list(sessions))
    if keep_session is not None:
        rows = rows.exclude(session_key=keep_session)
    keys = list(rows.values_list("session_key", flat=True))
    if sessions != ALL:
        keys = sorted(set(keys) | set(sessions))
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in keys:
        store(session_key=key).delete()
    SignedInSession.objects.filter(user_id=user_id, session_key__in=keys).delete()
    return keys


def _send_after_commit(group: str, event: dict[str, Any]) -> None:
    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, event)

    transaction.on_commit(send)


def do_revoke_token(user: AbstractBaseUser, token_id: Any) -> bool:
    """Revoke one of ``user``'s tokens; its sockets close. False if there was none."""
    try:
        pk = int(token_id)
    except (TypeError, ValueError):
        return False
    with transaction.atomic():
        count = AccessToken.objects.filter(user=user, pk=pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now())
        if count:
            do_end_credentials(user.pk, tokens=[pk])
    return bool(count)


def do_sign_out_everywhere(user: AbstractBaseUser) -> None:
    """Every session of ``user`` ended and every token revoked; all its sockets close."""
    with transaction.atomic():
        do_end_credentials(user.pk, sessions=ALL, tokens=ALL, revoke_tokens=True)


def session_key_of(request: Any) -> str | None:
    session = getattr(request, "session", None)
    return getattr(session, "session_key", None) if session is not None else None


def remember_session(user: Any, request: Any) -> None:
    key = session_key_of(request)
    if key and user is not None and user.pk is not None:
        SignedInSession.objects.get_or_create(session_key=key, defaults={"user_id": user.pk})


@receiver(user_logged_in)
def note_signed_in_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    remember_session(user, request)


@receiver(user_logged_out)
def close_session_sockets(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    key = session_key_of(request)
    if key and user is not None:
        do_end_credentials(user.pk, sessions=[key])


# A password or the active flag changed, however (a form, the admin, a shell): what they
# were when the user was read is kept on the instance, and compared when it is saved.

def _watched(instance: Any) -> tuple[Any, Any] | None:
    # From __dict__: a deferred field read here would cost a query per user read.
    fields = instance.__dict__
    if "password" not in fields or "is_active" not in fields:
        return None
    return (fields["password"], fields["is_active"])


@receiver(post_init, sender=get_user_model())
def remember_credentials(sender: Any, instance: Any, **kwargs: Any) -> None:
    instance._credentials_as_read = _watched(instance)


@receiver(post_save, sender=get_user_model())
def end_credentials_on_change(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    before = getattr(instance, "_credentials_as_read", None)
    now = _watched(instance)
    instance._credentials_as_read = now
    if created or before is None or now is None or before == now:
        return
    password_changed = before[0] != now[0]
    deactivated = before[1] and not now[1]
    if deactivated:
        do_end_credentials(instance.pk, sessions=ALL, tokens=ALL)
    elif password_changed:
        do_end_credentials(instance.pk, sessions=ALL)


def _connect_allauth_signals() -> None:
    from allauth.account import signals

    def keep_changing_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        # The session that changed the password goes on under a new key (Django's
        # update_session_auth_hash): index it again.
        remember_session(user, request)

    def sign_out_other_sessions(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        do_end_credentials(user.pk, sessions=ALL, keep_session=session_key_of(request))

    signals.password_changed.connect(keep_changing_session, weak=False,
                                     dispatch_uid="credentials.password_changed")
    signals.password_set.connect(keep_changing_session, weak=False,
                                 dispatch_uid="credentials.password_set")
    signals.email_changed.connect(sign_out_other_sessions, weak=False,
                                  dispatch_uid="credentials.email_changed")


_connect_allauth_signals()
