"""Failed sign-ins, counted per account whatever was typed to name it.

The login typed (a username or an e-mail address, in any case) is first resolved to the
account(s) it names, so that switching from the username to the e-mail address is no new
allowance. Then, with the rates of ``ACCOUNT_RATE_LIMITS`` (config/settings.py):

- ``login_failed``, its ``key`` rates: per account and address, strictly: past them that
  address is refused for that account (others are not); its ``ip`` rates: per address over
  all accounts, strictly (guessing across many accounts);
- ``login_failed_account``: per account over all addresses, much more than one address is
  allowed, so no single address can reach it. Past it the account is not locked but
  slowed: ``login_slowed_account`` attempts on it are let through (e.g. one each 15 s),
  from whichever addresses, so its owner waits a little and then signs in. An address the
  account signed in from lately (``KNOWN_ADDRESS_DAYS``) is not slowed.

Attempts are counted as they are made (in Django's cache: Redis when there is one) and the
count of a successful one is given back, as allauth does. ``ACCOUNT_RATE_LIMITS = False``
turns all of it off.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from allauth.account import app_settings
from allauth.account.internal.userkit import filter_users_by_email, get_user_by_username
from allauth.core.internal import ratelimit
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

APP = "allauth.account"
ACCOUNT_ADDRESS = "login_failed"
ACCOUNT_WIDE = "login_failed_account"
SLOWED = "login_slowed_account"
KNOWN_ADDRESS_DAYS = 30

ACCOUNT_ADDRESS_MESSAGE = _("Too many failed sign-ins on this account from your address. "
                            "Please try again in a few minutes.")
ADDRESS_MESSAGE = _("Too many failed sign-ins from your address. "
                    "Please try again in a few minutes.")
SLOWED_MESSAGE = _("This account has had many failed sign-ins, so attempts on it are "
                   "slowed down. Please wait a few seconds and try again.")


def _rates(spec: str | None, per: str) -> str:
    """The parts of a rate spec ("5/5m/key,30/5m/ip") counted per ``per``."""
    parts = [part.strip() for part in (spec or "").split(",") if part.strip()]
    return ",".join(part for part in parts if ratelimit.parse_rate(part).per == per)


def _consume(request: HttpRequest, action: str, rates: str,
             key: str | None = None) -> ratelimit.RateLimitUsage | None:
    """One attempt counted against ``rates`` (None: over them, nothing counted)."""
    return ratelimit.consume(request, app=APP, action=action, config={action: rates}, key=key)


def accounts_named(credentials: Mapping[str, Any]) -> list[str]:
    """The accounts a sign-in's login may name, as the authentication backend looks them
    up (e-mail addresses, then the username, both in any case); a login that names none is
    counted under what was typed, case folded."""
    typed = [str(credentials[f]) for f in ("email", "username") if credentials.get(f)]
    ids: list[int] = []
    for login in typed:
        users = filter_users_by_email(login, prefer_verified=True, for_login=True)
        by_name = get_user_by_username(login)
        ids += [user.pk for user in [*users, by_name] if user is not None]
    if ids:
        return [f"user:{pk}" for pk in dict.fromkeys(ids)]
    return [f"login:{login.casefold()}" for login in dict.fromkeys(typed)][:1]


def _address(request: HttpRequest) -> str:
    return ratelimit.get_ip(request)


def _known_key(account: str, address: str) -> str:
    digest = hashlib.sha256(f"{account}@{address}".encode()).hexdigest()
    return f"accounts:signin-known:{digest}"


def remember_address(request: HttpRequest, user_id: int) -> None:
    """After a successful sign-in: this address is the account owner's for a while."""
    cache.set(_known_key(f"user:{user_id}", _address(request)), True,
              KNOWN_ADDRESS_DAYS * 24 * 3600)


def _refuse(usage: ratelimit.RateLimitUsage, message: Any, code: str) -> ValidationError:
    usage.rollback()  # a refused attempt tests no password: it costs nothing
    return ValidationError(message, code=code)


def admit(request: HttpRequest, credentials: Mapping[str, Any]) -> ratelimit.RateLimitUsage:
    """Counts a sign-in attempt, or raises ValidationError (the reason for the user) when
    it is over a limit. Roll the returned usage back when the attempt succeeds."""
    limits = app_settings.RATE_LIMITS
    usage = ratelimit.RateLimitUsage(usage=[])
    failed = limits.get(ACCOUNT_ADDRESS)
    address = _address(request)
    accounts = accounts_named(credentials)
    for account in accounts:
        counted = _consume(request, ACCOUNT_ADDRESS, _rates(failed, "key"),
                           key=f"{account}@{address}")
        if counted is None:
            raise _refuse(usage, ACCOUNT_ADDRESS_MESSAGE, "too_many_login_attempts")
        usage.usage += counted.usage
    counted = _consume(request, ACCOUNT_ADDRESS, _rates(failed, "ip"))
    if counted is None:
        raise _refuse(usage, ADDRESS_MESSAGE, "too_many_login_attempts")
    usage.usage += counted.usage
    for account in accounts:
        if account.startswith("user:") and not cache.get(_known_key(account, address)):
            counted = _admit_account_wide(request, limits, account)
            if counted is None:
                raise _refuse(usage, SLOWED_MESSAGE, "login_slowed")
            usage.usage += counted.usage
    return usage


def _admit_account_wide(request: HttpRequest, limits: Mapping[str, str],
                        account: str) -> ratelimit.RateLimitUsage | None:
    """Within the account's own allowance, or else at the slowed account's pace."""
    counted = _consume(request, ACCOUNT_WIDE, _rates(limits.get(ACCOUNT_WIDE), "key"),
                       key=account)
    if counted is not None:
        return counted
    return _consume(request, SLOWED, _rates(limits.get(SLOWED), "key"), key=account)


def forget_failures(request: HttpRequest, credentials: Mapping[str, Any]) -> None:
    """After a password reset (which needs the mailbox): the account's counts start over,
    account-wide and from this address."""
    limits = app_settings.RATE_LIMITS
    address = _address(request)
    for account in accounts_named(credentials):
        if not account.startswith("user:"):
            continue
        for action, key in ((ACCOUNT_ADDRESS, f"{account}@{address}"),
                            (ACCOUNT_WIDE, account), (SLOWED, account)):
            ratelimit.clear(request, app=APP, action=action,
                            config={action: _rates(limits.get(action), "key")}, key=key)
