"""Usernames that look like another player's are refused.

Two names are confusable when they have the same skeleton (Unicode TS #39): `alice` with
a Cyrillic a (U+0430), `aIice` with a capital I and `a1ice` all look like `alice`. The skeleton
comes from ICU's spoof checker (PyICU), which carries Unicode's confusables table. Case
is folded as well, since allauth already treats `Alice` and `alice` as one name.

Each profile stores its user's key (``Profile.username_key``, kept by accounts.signals),
so checking a new name is one indexed lookup.
"""

from __future__ import annotations

import hashlib

import icu
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MESSAGE = _("This username looks too much like “%(other)s”, which another player has. "
            "Please choose a different one.")
DISPLAY_NAME_MESSAGE = _("This display name looks too much like the username “%(other)s” of "
                         "another player. Please choose a different one.")


# ICU's checker may be shared by threads as long as none reconfigures it.
_CHECKER = icu.SpoofChecker()


def skeleton(name: str) -> str:
    """The same for two names that look alike: skeleton, case folded, skeleton again
    (so that a capital's look-alike and the lowercase letter end up the same)."""
    first = _CHECKER.getSkeleton(0, name)
    return str(_CHECKER.getSkeleton(0, first.casefold()))


def confusable_key(name: str) -> str:
    """What a profile stores: a hash of the skeleton, which can be many times longer than
    the name (some letters map to long sequences), so that it always fits an index."""
    return hashlib.sha256(skeleton(name).encode()).hexdigest()


def confusable_username(name: str, *, exclude_user_id: int | None = None) -> str | None:
    """The existing username that ``name`` could be mistaken for, or None."""
    from accounts.models import Profile

    found = Profile.objects.filter(username_key=confusable_key(name))
    if exclude_user_id is not None:
        found = found.exclude(user_id=exclude_user_id)
    username = found.values_list("user__username", flat=True).first()
    return str(username) if username is not None else None


def validate_username(name: str, *, exclude_user_id: int | None = None) -> None:
    """Raises ValidationError (code ``username_confusable``) for a look-alike name."""
    other = confusable_username(name, exclude_user_id=exclude_user_id)
    if other is not None:
        raise ValidationError(MESSAGE, code="username_confusable", params={"other": other})


def validate_display_name(name: str, *, user_id: int) -> None:
    """A display name must not pass for another player's username."""
    if not name:
        return
    other = confusable_username(name, exclude_user_id=user_id)
    if other is not None:
        raise ValidationError(DISPLAY_NAME_MESSAGE, code="display_name_confusable",
                              params={"other": other})
