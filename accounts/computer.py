"""The computer's account: the one user the platform plays every game against the computer
with, and never a person's.

It is made by migration 0006 (and again by ``computer_account()`` if absent, e.g. after a
test flushed the tables) with an unusable password, ``Profile.is_bot`` and the display name
"Computer", stored untranslated (pages may translate what they show; the account is never
renamed in anyone's language). The name "computer" and whatever looks like it is reserved
(accounts.usernames), so no one can sign up as it.

Before that, a person could sign up as "computer" on a fresh install and be seated as the
computer. ``secure_computer_account`` makes sure that cannot last: any account called
"computer" (in any case) that is not plainly the bot (no usable password and marked as a
bot; a person who signed up has a password, which the old bot_user() kept) keeps its
owner, password, matches and ratings but is renamed ``computer-taken-<id>``, loses the
bot mark (and a display name that passes for the computer), and the tokens
``manage.py runbot`` had issued to it are revoked; a fresh bot account is made. The
functions take the models as arguments so that the migration can run them with its
historical models.

Each level of the computer is an account of its own, with its own ratings
(``bots/levels.py``): "computer" plays every game's default level, and each other level
``computer-<game>-<level>`` (made by migration 0008 and again by ``computer_account(name)``
when absent), secured the same way. Its stored display name is untranslated ("Computer
(hard)"); pages show ``shown_name`` instead, in the reader's language.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import is_password_usable, make_password
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from bots.levels import DEFAULT_USERNAME, LevelAccount, account_named, level_accounts

from .models import AccessToken, Profile
from .usernames import confusable_key, display_name_key, is_reserved

COMPUTER_USERNAME = DEFAULT_USERNAME
COMPUTER_DISPLAY_NAME = "Computer"  # untranslated on purpose: see the module's docstring
TAKEN_USERNAME = "{name}-taken-{id}"
# How a level account is shown (translated when shown; stored in English).
LEVEL_NAMES = {
    "easy": gettext_noop("Computer (easy)"),
    "medium": gettext_noop("Computer (medium)"),
    "hard": gettext_noop("Computer (hard)"),
    "careful": gettext_noop("Computer (careful)"),
    "to_win": gettext_noop("Computer (plays to win)"),
}
# The name ``manage.py runbot`` gives the tokens it issues to the computer's account.
RUNBOT_TOKEN_NAME = "computer player"


def stored_name(account: LevelAccount) -> str:
    """The display name an account keeps (English; ``shown_name`` translates it)."""
    if account.level is None:
        return COMPUTER_DISPLAY_NAME
    return LEVEL_NAMES.get(account.level, f"Computer ({account.level})")


def display_name(user: Any) -> str:
    """A player's name as pages show it: the display name, else the username; for the
    computer's accounts their level in the reader's language, never the stored name."""
    profile = getattr(user, "profile", None)
    if getattr(profile, "is_bot", False):
        return shown_name(str(user.username))
    return (getattr(profile, "display_name", "") or "") or str(user.username)


def shown_username(username: str) -> str:
    """A username as a page shows it where only the name is at hand: a computer account's
    as ``shown_name``, anyone else's as it is."""
    account = account_named(username)
    return username if account is None else _shown_level(account)


def shown_name(username: str) -> str:
    """A computer account's name in the reader's language, from its level."""
    account = account_named(username)
    return _("Computer") if account is None else _shown_level(account)


def _shown_level(account: LevelAccount) -> str:
    name = LEVEL_NAMES.get(account.level) if account.level is not None else None
    return _(name) if name is not None else _("Computer")


def _is_the_bot(user: Any, Profile: Any, username: str = COMPUTER_USERNAME) -> bool:
    """Plainly the platform's account: marked as the bot, and nobody can sign in to it."""
    return (user.username == username
            and not is_password_usable(user.password)
            and Profile.objects.filter(user_id=user.pk, is_bot=True).exists())


def _free_username(User: Any, user_id: int, username: str = COMPUTER_USERNAME) -> str:
    name = TAKEN_USERNAME.format(name=username, id=user_id)
    candidate, n = name, 1
    while User.objects.filter(username=candidate).exists():
        n += 1
        candidate = f"{name}-{n}"
    return candidate


def _give_back_to_the_person(user: Any, User: Any, Profile: Any, AccessToken: Any,
                             username: str = COMPUTER_USERNAME) -> None:
    """A person's account that held the computer's name: renamed, not a bot any more."""
    user.username = _free_username(User, user.pk, username)
    user.save(update_fields=["username"])
    profile = Profile.objects.filter(user_id=user.pk).first()
    if profile is None:
        profile = Profile(user_id=user.pk)
    profile.is_bot = False
    if is_reserved(profile.display_name):  # e.g. "Компьютер", given by the old bot_user()
        profile.display_name = ""
    profile.username_key = confusable_key(user.username)
    profile.display_name_key = display_name_key(profile.display_name)
    profile.save()
    AccessToken.objects.filter(user_id=user.pk, name=RUNBOT_TOKEN_NAME,
                               revoked_at__isnull=True).update(revoked_at=timezone.now())


def _make_the_bot(User: Any, Profile: Any, username: str = COMPUTER_USERNAME) -> Any:
    user = User.objects.create(username=username, password=make_password(None),
                               is_active=True)
    _mark_the_bot(user, Profile, username)
    return user


def _mark_the_bot(user: Any, Profile: Any, username: str = COMPUTER_USERNAME) -> None:
    account = account_named(username)
    name = COMPUTER_DISPLAY_NAME if account is None else stored_name(account)
    Profile.objects.update_or_create(user_id=user.pk, defaults={
        "is_bot": True,
        "display_name": name,
        "username_key": confusable_key(username),
        "display_name_key": display_name_key(name),
    })


def secure_computer_account(User: Any, Profile: Any, AccessToken: Any,
                            username: str = COMPUTER_USERNAME) -> Any:
    """The computer's account (or the level account ``username``), made if missing; any
    person's account in its way renamed."""
    bot = None
    for user in User.objects.filter(username__iexact=username).order_by("pk"):
        if bot is None and _is_the_bot(user, Profile, username):
            bot = user
        else:
            _give_back_to_the_person(user, User, Profile, AccessToken, username)
    if bot is None:
        return _make_the_bot(User, Profile, username)
    _mark_the_bot(bot, Profile, username)  # its name and keys as they should be
    return bot


def secure_level_accounts(User: Any, Profile: Any, AccessToken: Any) -> list[Any]:
    """Every computer account (``bots.levels.level_accounts``), made where missing."""
    return [secure_computer_account(User, Profile, AccessToken, account.username)
            for account in level_accounts()]


def computer_account(username: str = COMPUTER_USERNAME) -> AbstractBaseUser:
    """The computer's account, or the level account ``username`` (one query when it is
    there, as it is after migrating)."""
    if account_named(username) is None:
        raise ValueError(f"{username!r} is not one of the computer's accounts")
    User = get_user_model()
    found = User.objects.filter(username=username, profile__is_bot=True).first()
    if found is not None and not is_password_usable(found.password):
        return found
    try:
        with transaction.atomic():
            return secure_computer_account(  # type: ignore[no-any-return]
                User, Profile, AccessToken, username)
    except IntegrityError:  # made at the same moment by another request
        return User.objects.get(username=username)


def is_computer_username(username: str) -> bool:
    return account_named(username) is not None
