"""The lobby: challenges, open seeks, games against the computer, rematches."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Profile
from games.spectacular_bid.rules import Rules, RulesError

from .models import Match, Seek
from .services import do_create_match

BOT_USERNAME = "computer"


class LobbyError(Exception):
    """A lobby request that cannot be done; the message is for the user."""


def bot_user() -> AbstractBaseUser:
    User = get_user_model()
    user, created = User.objects.get_or_create(username=BOT_USERNAME,
                                               defaults={"is_active": True})
    if created:
        user.set_unusable_password()
        user.save()
    Profile.objects.update_or_create(user=user, defaults={"is_bot": True,
                                                          "display_name": _("Computer")})
    return user


def _opponent(username: str, me: AbstractBaseUser) -> AbstractBaseUser:
    User = get_user_model()
    opponent = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if opponent is None:
        raise LobbyError(_("There is no player called %(name)s.") % {"name": username})
    if opponent.pk == me.pk:
        raise LobbyError(_("You cannot challenge yourself."))
    return opponent


def check_table_rules(rated: bool, rules: Any) -> dict[str, Any]:
    """Casual tables may change the numbers; rated ones use the standard rules."""
    if not rules:
        return {}
    try:
        parsed = Rules.from_dict(rules)
    except RulesError as exc:
        raise LobbyError(str(exc)) from None
    if parsed.one_device:
        raise LobbyError(_("Start a one-device game from the lobby instead."))
    if rated and parsed != Rules():
        raise LobbyError(_("A rated match uses the standard rules."))
    return parsed.record_dict()


def do_challenge(me: AbstractBaseUser, username: str, rated: bool,
                 rules: Any = None) -> Seek:
    opponent = _opponent(username, me)
    if opponent.username == BOT_USERNAME:
        raise LobbyError(_("Use 'Play the computer' to play the computer."))
    return Seek.objects.create(creator=me, opponent=opponent, rated=rated,
                               rules=check_table_rules(rated, rules))


def do_seek(me: AbstractBaseUser, rated: bool, rules: Any = None) -> Seek:
    table = check_table_rules(rated, rules)
    existing = Seek.objects.filter(creator=me, opponent__isnull=True, status=Seek.Status.OPEN,
                                   rated=rated, rules=table).first()
    return existing or Seek.objects.create(creator=me, rated=rated, rules=table)


def do_accept(me: AbstractBaseUser, seek_id: int) -> Match:
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
        if seek is None or seek.status != Seek.Status.OPEN:
            raise LobbyError(_("That seek is no longer open."))
        if seek.creator_id == me.pk:
            raise LobbyError(_("You cannot accept your own seek."))
        if seek.opponent_id is not None and seek.opponent_id != me.pk:
            raise LobbyError(_("That challenge is for another player."))
        # The challenger sits in seat 0 (the hierarchy opening decides who starts).
        match = do_create_match(seek.creator, me, rated=seek.rated, rules=seek.rules or None)
        seek.status = Seek.Status.ACCEPTED
        seek.match = match
        seek.save(update_fields=["status", "match"])
        return match


def do_cancel(me: AbstractBaseUser, seek_id: int) -> None:
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
        if seek is None or seek.status != Seek.Status.OPEN:
            raise LobbyError(_("That seek is no longer open."))
        if seek.creator_id == me.pk:
            seek.status = Seek.Status.CANCELLED
        elif seek.opponent_id == me.pk:
            seek.status = Seek.Status.DECLINED
        else:
            raise LobbyError(_("That seek is not yours."))
        seek.save(update_fields=["status"])


def do_play_computer(me: AbstractBaseUser) -> Match:
    return do_create_match(me, bot_user(), rated=False)


def do_one_device(me: AbstractBaseUser) -> Match:
    return do_create_match(me, me, rated=False, one_device=True)


def do_rematch(me: AbstractBaseUser, match: Match) -> Match | Seek:
    if match.status == Match.Status.ACTIVE:
        raise LobbyError(_("The match is still being played."))
    if match.one_device:
        return do_one_device(me)
    seat = match.seat_of(me.pk)
    if seat is None:
        raise LobbyError(_("You did not play in that match."))
    opponent = match.seat1 if seat == 0 else match.seat0
    if opponent.username == BOT_USERNAME:
        return do_play_computer(me)
    return Seek.objects.create(creator=me, opponent=opponent, rated=match.rated)


def open_seeks_for(me: AbstractBaseUser) -> dict[str, list[dict[str, object]]]:
    def row(seek: Seek) -> dict[str, object]:
        return {
            "id": seek.pk,
            "creator": seek.creator.username,
            "opponent": seek.opponent.username if seek.opponent else None,
            "rated": seek.rated,
            "rules": seek.rules,
            "mine": seek.creator_id == me.pk,
        }

    base = Seek.objects.filter(status=Seek.Status.OPEN).select_related("creator", "opponent")
    return {
        "open": [row(s) for s in base.filter(opponent__isnull=True)[:50]],
        "challenges_to_me": [row(s) for s in base.filter(opponent=me)[:50]],
        "my_challenges": [row(s) for s in base.filter(creator=me, opponent__isnull=False)[:50]],
    }
