"""Clubs: ``access_*`` says who may do what, ``check_*`` reads input, ``do_*`` changes things.

Roles: the owner (who created the club, or to whom it was handed), admins and members.
Admins accept requests, remove members and appoint admins; only the owner removes or
demotes an admin, and hands the club over. Joining follows the club's policy: open, by
request (an admin accepts), or by invite link (the code in the link).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games import registry
from games.reads.history import display_name
from ratings.elo import INITIAL_RATING, PROVISIONAL_MATCHES
from ratings.models import Rating

from .errors import Forbidden, NotFound, Refused
from .models import Club, Membership, new_invite_code

NAME_MIN, NAME_MAX = 3, 60
DESCRIPTION_MAX = 2000

Role = Membership.Role
Status = Membership.Status


# ---------------------------------------------------------------------- access

def access_membership(club: Club, user: AbstractBaseUser | None) -> Membership | None:
    """The user's membership or pending request, if any."""
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user_id=user.pk).first()


def access_is_member(club: Club, user: AbstractBaseUser | None) -> bool:
    membership = access_membership(club, user)
    return membership is not None and membership.status == Status.ACTIVE


def access_is_admin(club: Club, user: AbstractBaseUser | None) -> bool:
    membership = access_membership(club, user)
    return membership is not None and membership.is_admin


def _require_admin(club: Club, user: AbstractBaseUser) -> Membership:
    membership = access_membership(club, user)
    if membership is None or not membership.is_admin:
        raise Forbidden(_("Only the club's owner and admins can do that."))
    return membership


# ---------------------------------------------------------------------- check

def _text(value: Any, field: str, low: int, high: int) -> str:
    if not isinstance(value, str):
        raise Refused(_("'%(field)s' must be text.") % {"field": field})
    text = " ".join(value.split()) if field == "name" else value.strip()
    if "\x00" in text or any(not (ch.isprintable() or ch in "\n\r\t") for ch in text):
        raise Refused(_("'%(field)s' holds characters that cannot be shown.") % {"field": field})
    if not low <= len(text) <= high:
        raise Refused(_("'%(field)s' must be %(low)s to %(high)s characters long.")
                      % {"field": field, "low": low, "high": high})
    return text


def check_club_fields(data: dict[str, Any], creating: bool) -> dict[str, Any]:
    """The club's fields from a request (name, description, language, policy)."""
    fields: dict[str, Any] = {}
    if creating or "name" in data:
        fields["name"] = _text(data.get("name"), "name", NAME_MIN, NAME_MAX)
    if "description" in data or creating:
        fields["description"] = _text(data.get("description", ""), "description", 0,
                                      DESCRIPTION_MAX)
    if "language" in data or creating:
        codes = [code for code, _name in settings.LANGUAGES]
        language = data.get("language", settings.LANGUAGE_CODE)
        if language not in codes:
            raise Refused(_("'language' must be one of %(codes)s.") % {"codes": ", ".join(codes)})
        fields["language"] = language
    if "policy" in data or creating:
        policy = data.get("policy", Club.Policy.OPEN)
        if policy not in Club.Policy.values:
            raise Refused(_("'policy' must be one of %(values)s.")
                          % {"values": ", ".join(Club.Policy.values)})
        fields["policy"] = policy
    return fields


def _name_taken(name: str, except_pk: int | None = None) -> bool:
    return Club.objects.filter(name__iexact=name).exclude(pk=except_pk).exists()


def _name_refused(name: str) -> Refused:
    return Refused(_("There is already a club called %(name)s.") % {"name": name})


MAX_PK = 2**63 - 1


def pk_or_none(value: Any) -> int | None:
    """A row id from a path or query (None for anything no row can have)."""
    text = str(value)
    if not text.isascii() or not text.isdigit() or int(text) > MAX_PK:
        return None
    return int(text)


def _locked_club(club: Club) -> Club:
    """The club's row read again and locked until the transaction ends."""
    locked = Club.objects.select_for_update(no_key=True).filter(pk=club.pk).first()
    if locked is None:  # deleted a moment ago
        raise NotFound(_("There is no such club."))
    return locked


def club_by_id(club_id: Any) -> Club:
    pk = pk_or_none(club_id)
    club = Club.objects.filter(pk=pk).first() if pk is not None else None
    if club is None:
        raise NotFound(_("There is no such club."))
    return club


def _member_named(club: Club, username: Any, status: str = Status.ACTIVE) -> Membership:
    if not isinstance(username, str) or "\x00" in username:
        raise Refused(_("'username' must be a player's name."))
    membership = (Membership.objects.select_related("user")
                  .filter(club=club, user__username__iexact=username.strip(), status=status)
                  .first())
    if membership is None:
        if status == Status.REQUESTED:
            raise Refused(_("%(name)s has not asked to join.") % {"name": username})
        raise Refused(_("%(name)s is not a member of this club.") % {"name": username})
    return membership


# ---------------------------------------------------------------------- do

def do_create_club(user: AbstractBaseUser, data: dict[str, Any]) -> Club:
    fields = check_club_fields(data, creating=True)
    if _name_taken(fields["name"]):
        raise _name_refused(fields["name"])
    try:
        with transaction.atomic():
            club = Club.objects.create(created_by=user, **fields)
            Membership.objects.create(club=club, user=user, role=Role.OWNER)
    except IntegrityError:  # the same name in any case, a moment earlier
        raise _name_refused(fields["name"]) from None
    return club


def do_update_club(user: AbstractBaseUser, club: Club, data: dict[str, Any]) -> Club:
    _require_admin(club, user)
    fields = check_club_fields(data, creating=False)
    if "name" in fields and _name_taken(fields["name"], club.pk):
        raise _name_refused(fields["name"])
    for key, value in fields.items():
        setattr(club, key, value)
    try:
        with transaction.atomic():
            club.save()
    except IntegrityError:  # another club took the name a moment earlier
        raise _name_refused(club.name) from None
    return club


def do_join_club(user: AbstractBaseUser, club: Club, code: Any = None) -> Membership:
    """Join (open club, or a valid invite code) or ask to join (by request)."""
    with transaction.atomic():
        # The club's row locked: joins of one club run one at a time, so a second request
        # sent at once sees the membership the first made (not the one_membership index).
        club = _locked_club(club)
        existing = access_membership(club, user)
        if existing is not None:
            if existing.status == Status.ACTIVE:
                raise Refused(_("You are already a member of this club."))
            raise Refused(_("Your request to join is waiting for an admin."))
        invited = isinstance(code, str) and code != "" and code == club.invite_code
        if code not in (None, "") and not invited:
            raise Refused(_("That invite link is not valid (any more)."))
        if club.policy == Club.Policy.INVITE and not invited:
            raise Refused(_("This club takes new members by invite link only."))
        status = Status.REQUESTED if club.policy == Club.Policy.REQUEST and not invited \
            else Status.ACTIVE
        return Membership.objects.create(club=club, user=user, role=Role.MEMBER, status=status)


def do_leave_club(user: AbstractBaseUser, club: Club) -> None:
    """Leave the club, or withdraw a request to join."""
    membership = access_membership(club, user)
    if membership is None:
        raise Refused(_("You are not a member of this club."))
    if membership.role == Role.OWNER:
        raise Refused(_("The owner cannot leave the club: hand it to another member first."))
    membership.delete()


def do_accept_request(user: AbstractBaseUser, club: Club, username: Any) -> Membership:
    _require_admin(club, user)
    membership = _member_named(club, username, Status.REQUESTED)
    membership.status = Status.ACTIVE
    membership.save(update_fields=["status"])
    return membership


def do_decline_request(user: AbstractBaseUser, club: Club, username: Any) -> None:
    _require_admin(club, user)
    _member_named(club, username, Status.REQUESTED).delete()


def do_remove_member(user: AbstractBaseUser, club: Club, username: Any) -> None:
    mine = _require_admin(club, user)
    membership = _member_named(club, username)
    if membership.role == Role.OWNER:
        raise Refused(_("The owner cannot be removed."))
    if membership.role == Role.ADMIN and mine.role != Role.OWNER:
        raise Forbidden(_("Only the owner can remove an admin."))
    membership.delete()


def do_set_role(user: AbstractBaseUser, club: Club, username: Any, role: Any) -> Membership:
    """Appoint an admin, make an admin a member again (owner only), or hand the club
    over (owner only: the old owner becomes an admin)."""
    mine = _require_admin(club, user)
    if role not in Role.values:
        raise Refused(_("'role' must be one of %(values)s.") % {"values": ", ".join(Role.values)})
    membership = _member_named(club, username)
    if membership.pk == mine.pk:
        raise Refused(_("You cannot change your own role."))
    if membership.role == Role.OWNER:
        raise Refused(_("The owner's role changes only when the owner hands the club over."))
    owner_only = role == Role.OWNER or (membership.role == Role.ADMIN and role == Role.MEMBER)
    if owner_only and mine.role != Role.OWNER:
        raise Forbidden(_("Only the owner can do that."))
    with transaction.atomic():
        if role == Role.OWNER:
            mine.role = Role.ADMIN
            mine.save(update_fields=["role"])
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def do_new_invite(user: AbstractBaseUser, club: Club) -> str:
    """A new invite link; the old one stops working."""
    _require_admin(club, user)
    club.invite_code = new_invite_code()
    club.save(update_fields=["invite_code"])
    return club.invite_code


# ---------------------------------------------------------------------- reading

def members(club: Club) -> list[dict[str, Any]]:
    """The members with their role and their rating in every game."""
    rows = list(Membership.objects.filter(club=club, status=Status.ACTIVE)
                .select_related("user", "user__profile").order_by("created_at"))
    ratings = _ratings_of([row.user_id for row in rows])
    order = {Role.OWNER: 0, Role.ADMIN: 1, Role.MEMBER: 2}
    rows.sort(key=lambda row: (order[Role(row.role)], row.user.username.lower()))
    return [{
        "username": row.user.username,
        "display_name": display_name(row.user),
        "role": row.role,
        "ratings": {game: ratings.get((row.user_id, game)) for game in registry.game_keys()},
    } for row in rows]


def requests(club: Club) -> list[dict[str, Any]]:
    return [{"username": row.user.username, "display_name": display_name(row.user),
             "requested_at": row.created_at.isoformat()}
            for row in Membership.objects.filter(club=club, status=Status.REQUESTED)
            .select_related("user", "user__profile").order_by("created_at")]


def leaderboard(club: Club, game: str) -> list[dict[str, Any]]:
    """The members who have played ``game`` rated, best first (provisional ones marked)."""
    member_ids = Membership.objects.filter(club=club, status=Status.ACTIVE).values("user_id")
    rows = (Rating.objects.filter(game=game, user_id__in=member_ids, games__gt=0)
            .select_related("user", "user__profile").order_by("-rating", "user__username"))
    board = []
    for position, row in enumerate(rows, start=1):
        board.append({"rank": position, "username": row.user.username,
                      "display_name": display_name(row.user), "rating": row.rating,
                      "games": row.games, "wins": row.wins,
                      "provisional": row.games < PROVISIONAL_MATCHES})
    return board


def clubs_of(user: AbstractBaseUser | None) -> list[Club]:
    if user is None or not user.is_authenticated:
        return []
    return list(Club.objects.filter(memberships__user_id=user.pk,
                                    memberships__status=Status.ACTIVE))


def club_list(query: str = "") -> list[Club]:
    qs = Club.objects.all()
    query = query.replace("\x00", "").strip()
    if query:
        qs = qs.filter(Q(name__icontains=query) | Q(description__icontains=query))
    return list(qs.order_by("name")[:200])


def member_count(club: Club) -> int:
    return Membership.objects.filter(club=club, status=Status.ACTIVE).count()


def rating_of(user_id: int, game: str) -> int:
    row = Rating.objects.filter(user_id=user_id, game=game).first()
    return row.rating if row is not None else INITIAL_RATING


def _ratings_of(user_ids: list[int]) -> dict[tuple[int, str], dict[str, Any]]:
    found: dict[tuple[int, str], dict[str, Any]] = {}
    for row in Rating.objects.filter(user_id__in=user_ids):
        found[(row.user_id, row.game)] = {"rating": row.rating, "games": row.games,
                                          "provisional": row.games < PROVISIONAL_MATCHES}
    return found
