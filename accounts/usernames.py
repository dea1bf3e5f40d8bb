"""Names players choose (usernames and display names): no look-alikes of another player's,
no invisible or direction-changing characters, none of the names the platform keeps.

Two names are confusable when they have the same skeleton (Unicode TS #39): `alice` with
a Cyrillic a (U+0430), `aIice` with a capital I and `a1ice` all look like `alice`. The skeleton
comes from ICU's spoof checker (PyICU), which carries Unicode's confusables table. Case
is folded as well, since allauth already treats `Alice` and `alice` as one name.

Usernames and display names are compared with each other as well: a display name must not
pass for another player's username or display name, nor a username for another player's
display name. Each profile stores the key of its user's username (``Profile.username_key``,
kept by accounts.signals) and of its display name (``Profile.display_name_key``, kept by
``Profile.save``), so checking a new name is two indexed lookups.

Reserved names (the computer and its levels, staff words, the platform's name, in every
language the platform speaks) are compared more loosely: by skeleton, ignoring separators,
accents and digits at the end, and anything that starts like "computer" or "admin".
"""

from __future__ import annotations

import hashlib
import string
import unicodedata
from typing import TYPE_CHECKING

import icu
from django.apps import apps
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from accounts.models import Profile

MESSAGE = _("This username looks too much like “%(other)s”, which another player has. "
            "Please choose a different one.")
DISPLAY_NAME_MESSAGE = _("This display name looks too much like the username “%(other)s” of "
                         "another player. Please choose a different one.")
USERNAME_LIKE_DISPLAY_NAME_MESSAGE = _(
    "This username looks too much like “%(other)s”, the display name of another player. "
    "Please choose a different one.")
DISPLAY_NAME_LIKE_DISPLAY_NAME_MESSAGE = _(
    "This display name looks too much like “%(other)s”, the display name of another player. "
    "Please choose a different one.")
INVISIBLE_MESSAGE = _("A name cannot contain invisible characters, control characters or "
                      "characters that change the direction of text.")
RESERVED_MESSAGE = _("This name is reserved for the platform. Please choose a different one.")


# ICU's checker may be shared by threads as long as none reconfigures it.
_CHECKER = icu.SpoofChecker()


def _visual(text: str) -> str:
    """Skeleton, case folded, skeleton again (so that a capital's look-alike and the
    lowercase letter end up the same)."""
    first = _CHECKER.getSkeleton(0, text)
    return str(_CHECKER.getSkeleton(0, first.casefold()))


def _merged_letters() -> dict[str, str]:
    """Letters that case and look together make one: a capital I is an i by case and an l
    by look, so i and l must share a key, or "SPRINTER" would look like neither "sprinter"
    (whose skeleton keeps its i) nor itself. Found once, from the capitals allauth folds
    (A to Z: only I parts the two ways); each pair maps to its lesser letter. Merging every
    script's such pairs would tie unrelated letters (s, f and 5 through the long s)."""
    merged: dict[str, str] = {}
    for char in string.ascii_uppercase:
        by_look, by_case = _visual(char), _visual(char.casefold())
        if by_look != by_case and len(by_look) == len(by_case) == 1:
            low, high = sorted((merged.get(by_look, by_look), merged.get(by_case, by_case)))
            merged[high] = low
    return merged


_MERGED = _merged_letters()


def skeleton(name: str) -> str:
    """The same for two names that look alike, whatever their case (TS #39's skeleton,
    folded with case both ways: ``_visual``, then the letters case and look make one)."""
    return "".join(_MERGED.get(char, char) for char in _visual(name))


def confusable_key(name: str) -> str:
    """What a profile stores: a hash of the skeleton, which can be many times longer than
    the name (some letters map to long sequences), so that it always fits an index."""
    return hashlib.sha256(skeleton(name).encode()).hexdigest()


def display_name_key(display_name: str) -> str:
    """A profile's ``display_name_key``: "" without a display name (nothing to look like)."""
    return confusable_key(display_name) if display_name else ""


# ---------------------------------------------------------------- characters

# Bidirectional controls (embeddings, overrides, isolates, marks): all of category Cf,
# listed for the record of what must never reach a page.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f"
    + "".join(chr(c) for c in range(0x202A, 0x202F))
    + "".join(chr(c) for c in range(0x2066, 0x206A)))
# Control (Cc), format (Cf: zero-width space and joiners, soft hyphen, BOM...), surrogate,
# private-use and unassigned code points, and line/paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Letters and symbols that render as nothing: Hangul fillers, braille blank, the combining
# grapheme joiner.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


def is_invisible(char: str) -> bool:
    return (char in BIDI_CONTROLS or char in BLANK_LOOKING
            or unicodedata.category(char) in REFUSED_CATEGORIES)


def refuse_invisible(name: str) -> None:
    if any(is_invisible(char) for char in name):
        raise ValidationError(INVISIBLE_MESSAGE, code="name_invisible")


# ---------------------------------------------------------------- reserved names

COMPUTER_LEVELS = ("computer-easy", "computer-medium", "computer-hard", "computer-careful",
                   "computer-winner")
RESERVED_NAMES = (
    "computer", *COMPUTER_LEVELS,
    "admin", "administrator", "staff", "system", "moderator", "root", "support",
    "Boneyard", "Spectacular Bid",  # the platform's name (settings.PLATFORM_NAME), a game's name
    "компьютер", "администратор", "админ", "система",  # ru
    "computador", "administrador", "sistema",  # pt
    "ordinateur", "administrateur", "système",  # fr
)
# Whatever starts like these is the platform's too: "computer-expert", "Admin team".
RESERVED_PREFIXES = ("computer", "компьютер", "computador", "ordinateur", "admin", "админ")


def _is_separator(char: str) -> bool:
    return char in ".·" or unicodedata.category(char) in ("Zs", "Pd", "Pc")


def _without_marks_and_separators(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed
                   if unicodedata.category(c) != "Mn" and not _is_separator(c))


def reserved_form(name: str) -> str:
    """What reserved names are compared by: ``Computer_2``, ``c0mputer`` and
    ``\u0421OMPUTER`` (a Cyrillic Es) all come to the form of ``computer``."""
    plain = unicodedata.normalize("NFKC", name).casefold()
    plain = "".join(c for c in plain if not _is_separator(c) and not is_invisible(c))
    plain = plain.rstrip("0123456789")  # before the skeleton, which reads 1 as l
    return _without_marks_and_separators(skeleton(plain))


_RESERVED_FORMS = frozenset(reserved_form(name) for name in RESERVED_NAMES)
_RESERVED_PREFIX_FORMS = tuple(reserved_form(prefix) for prefix in RESERVED_PREFIXES)


def is_reserved(name: str) -> bool:
    form = reserved_form(name)
    return bool(form) and (form in _RESERVED_FORMS or form.startswith(_RESERVED_PREFIX_FORMS))


def refuse_reserved(name: str) -> None:
    if is_reserved(name):
        raise ValidationError(RESERVED_MESSAGE, code="name_reserved")


# ---------------------------------------------------------------- look-alikes

def _other_profiles(key_field: str, key: str, exclude_user_id: int | None) -> QuerySet[Profile]:
    # The model by name: accounts.models imports this module (its keys), not the reverse.
    found = apps.get_model("accounts", "Profile").objects.filter(**{key_field: key})
    if exclude_user_id is not None:
        found = found.exclude(user_id=exclude_user_id)
    return found


def confusable_username(name: str, *, exclude_user_id: int | None = None) -> str | None:
    """The existing username that ``name`` could be mistaken for, or None."""
    found = _other_profiles("username_key", confusable_key(name), exclude_user_id)
    username = found.values_list("user__username", flat=True).first()
    return str(username) if username is not None else None


def confusable_display_name(name: str, *, exclude_user_id: int | None = None) -> str | None:
    """The existing display name that ``name`` could be mistaken for, or None."""
    if not name:
        return None
    found = _other_profiles("display_name_key", confusable_key(name), exclude_user_id)
    display_name = found.values_list("display_name", flat=True).first()
    return str(display_name) if display_name is not None else None


# ---------------------------------------------------------------- the rules

def validate_username(name: str, *, exclude_user_id: int | None = None,
                      allow_reserved: bool = False) -> None:
    """Raises ValidationError for a username with invisible characters, a reserved one
    (unless ``allow_reserved``: the platform's own accounts), or a look-alike of another
    player's username or display name."""
    refuse_invisible(name)
    if not allow_reserved:
        refuse_reserved(name)
    other = confusable_username(name, exclude_user_id=exclude_user_id)
    if other is not None:
        raise ValidationError(MESSAGE, code="username_confusable", params={"other": other})
    other = confusable_display_name(name, exclude_user_id=exclude_user_id)
    if other is not None:
        raise ValidationError(USERNAME_LIKE_DISPLAY_NAME_MESSAGE,
                              code="username_confusable", params={"other": other})


def normalize_display_name(name: str) -> str:
    """NFC, without spaces at the ends, and each run of spaces (of any kind) one space:
    "Alice\u00a0\u00a0Champion" is shown, and compared, as "Alice Champion"."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def validate_display_name(name: str, *, user_id: int | None,
                          allow_reserved: bool = False) -> None:
    """A display name (normalized) must not pass for another player's username or display
    name; one's own username and display name are no one else's."""
    if not name:
        return
    refuse_invisible(name)
    if not allow_reserved:
        refuse_reserved(name)
    other = confusable_username(name, exclude_user_id=user_id)
    if other is not None:
        raise ValidationError(DISPLAY_NAME_MESSAGE, code="display_name_confusable",
                              params={"other": other})
    other = confusable_display_name(name, exclude_user_id=user_id)
    if other is not None:
        raise ValidationError(DISPLAY_NAME_LIKE_DISPLAY_NAME_MESSAGE,
                              code="display_name_confusable", params={"other": other})


def clean_display_name(raw: str, *, user_id: int | None, allow_reserved: bool = False) -> str:
    """The display name to store for ``raw``, or ValidationError. Invisible characters are
    refused before spaces are gathered, so that none is hidden among them."""
    refuse_invisible(unicodedata.normalize("NFC", raw).strip())
    name = normalize_display_name(raw)
    validate_display_name(name, user_id=user_id, allow_reserved=allow_reserved)
    return name
