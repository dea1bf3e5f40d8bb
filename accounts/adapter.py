"""allauth's adapter: the name rules at sign-up (accounts/usernames.py), failed sign-ins
counted per account (accounts/signin_throttle.py), and sign-ups at the same moment with
one name or e-mail address answered with a form error instead of a server error."""

from __future__ import annotations

import logging
import time
import unicodedata
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.internal import flows
from allauth.account.views import SignupView
from allauth.core.exceptions import ImmediateHttpResponse
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from . import outbox, signin_throttle
from .usernames import confusable_key, refuse_reserved, validate_username

log = logging.getLogger(__name__)

# A sign-up holds its name's and address's locks only while it checks and saves the row;
# generous bounds, for a loaded machine on SQLite, where a write may wait for another's.
SIGNUP_LOCK_S = 30
SIGNUP_LOCK_WAIT_S = 20
BUSY_MESSAGE = _("Someone is signing up with this username or e-mail address at this very "
                 "moment. Please try again in a little while.")


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    # ------------------------------------------------------------ names

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # NFKC, as Django's User.clean() normalizes usernames set in the admin.
        username = unicodedata.normalize("NFKC", username)
        refuse_reserved(username)  # before "taken": the computer's name is, but say why
        username = super().clean_username(username, shallow=shallow)
        if not shallow:  # shallow: allauth generating a name, without database look-ups
            validate_username(username)
        return username

    # ------------------------------------------------------------ the local outbox

    def render_mail(self, template_prefix: str, email: str | list[str],
                    context: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        # With no mail configured, the browser that asked for a confirmation mail may read
        # it in the outbox (accounts/outbox.py).
        message = super().render_mail(template_prefix, email, context, headers)
        outbox.tag_for_sender(context.get("request"), template_prefix, message)
        return message

    # ------------------------------------------------------------ failed sign-ins

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        # allauth's authenticate() rolls this usage back when the password is right.
        self._login_failed_rl_usage = signin_throttle.admit(request, credentials)

    def authenticate(self, request: HttpRequest, **credentials: Any) -> AbstractBaseUser | None:
        user: AbstractBaseUser | None = super().authenticate(request, **credentials)
        if user is not None:
            signin_throttle.remember_address(request, int(user.pk))
        return user

    def _delete_login_attempts_cached_email(self, request: HttpRequest,
                                            **credentials: Any) -> None:
        # allauth calls this once a password was reset: the counts start over.
        signin_throttle.forget_failures(request, credentials)

    # ------------------------------------------------------------ sign-ups at once

    def save_user(self, request: HttpRequest, user: AbstractBaseUser, form: BaseForm,
                  commit: bool = True) -> AbstractBaseUser:
        """The form was checked before the row is written: another sign-up with the same
        name (or a look-alike) or address may have been written since. So the check is
        made again under locks on both, and the row written in a savepoint; a conflict is
        the sign-up page with the form's error, not an IntegrityError's 500."""
        user = super().save_user(request, user, form, commit=False)  # password hashed here
        if not commit:
            return user
        with _signup_locks(_signup_lock_keys(form)) as locked:
            refusal = self._conflict(request, form) if locked else self._busy(request, form)
            if refusal is not None:
                raise ImmediateHttpResponse(refusal)
            try:
                with transaction.atomic():
                    user.save()
            except IntegrityError:
                form.add_error("username", self.validation_error("username_taken"))
                raise ImmediateHttpResponse(_signup_page(request, form)) from None
        return user

    def _busy(self, request: HttpRequest, form: BaseForm) -> HttpResponse:
        form.add_error(None, ValidationError(BUSY_MESSAGE, code="signup_busy"))
        return _signup_page(request, form)

    def _conflict(self, request: HttpRequest, form: BaseForm) -> HttpResponse | None:
        """The answer to a sign-up that a sign-up saved meanwhile now conflicts with."""
        data = form.cleaned_data
        try:
            self.clean_username(data.get("username") or "")
        except ValidationError as error:
            form.add_error("username", error)
            return _signup_page(request, form)
        email = data.get("email")
        if not email:
            return None
        try:
            form.validate_unique_email(email)  # type: ignore[attr-defined]
        except ValidationError as error:
            form.add_error("email", error)
            return _signup_page(request, form)
        if form.account_already_exists:  # type: ignore[attr-defined]
            # As allauth answers when the address was taken before: enumeration prevention.
            return flows.signup.prevent_enumeration(request, email=email)  # type: ignore[no-any-return]
        return None


def _signup_lock_keys(form: BaseForm) -> list[str]:
    username = form.cleaned_data.get("username") or ""
    email = (form.cleaned_data.get("email") or "").casefold()
    keys = [f"accounts:signup-lock:name:{confusable_key(username)}"]
    if email:
        keys.append(f"accounts:signup-lock:email:{confusable_key(email)}")
    return sorted(keys)  # one order for every sign-up: no two wait on each other


@contextmanager
def _signup_locks(keys: list[str]) -> Iterator[bool]:
    """Locks in the cache (Redis, shared by every web process, when there is one); yields
    whether all were had within SIGNUP_LOCK_WAIT_S (if not, the sign-up is refused: the
    database alone would not stop a look-alike or a second account on one address)."""
    token = uuid.uuid4().hex
    held: list[str] = []
    for key in keys:
        if not _acquire(key, token):
            break
        held.append(key)
    try:
        yield len(held) == len(keys)
    finally:
        for key in held:
            if cache.get(key) == token:
                cache.delete(key)


def _acquire(key: str, token: str) -> bool:
    deadline = time.monotonic() + SIGNUP_LOCK_WAIT_S
    while not cache.add(key, token, timeout=SIGNUP_LOCK_S):
        if time.monotonic() > deadline:
            log.warning("sign-up lock %s not had in %s s", key, SIGNUP_LOCK_WAIT_S)
            return False
        time.sleep(0.02)
    return True


def _signup_page(request: HttpRequest, form: BaseForm) -> HttpResponse:
    """The sign-up page showing ``form`` with its errors, as allauth's view renders it."""

    view = SignupView()
    view.setup(request)
    response = view.form_invalid(form)
    render = getattr(response, "render", None)
    return render() if callable(render) else response  # type: ignore[no-any-return]
