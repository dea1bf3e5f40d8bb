"""The lobby: challenges, open seeks, games against the computer, rematches."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.computer import computer_account, is_computer_username
from accounts.models import Profile
from bots.levels import default_level, level_for, levels_of, username_for
from games import registry
from games.engine.plugin import GamePlugin
from games.live import notices
from games.models import Match, Seek
from games.play.services import check_rules, do_create_match
from games.reads.history import display_name

# The lobby's names of the computer's levels (bots/levels.py lists each game's).
LEVEL_LABELS = {"easy": gettext_noop("Easy"), "medium": gettext_noop("Medium"),
                "hard": gettext_noop("Hard"), "careful": gettext_noop("Careful"),
                "to_win": gettext_noop("Plays to win")}


class LobbyError(Exception):
    """A lobby request that cannot be done; the message is for the user."""


def bot_user() -> AbstractBaseUser:
    """The computer's account, made by accounts' migration 0006 with an unusable password
    (and again the same way if absent, e.g. after a test flushed the tables). It is fetched,
    never renamed, and never a person's account (accounts/computer.py)."""
    return computer_account()


def computer_levels_for(plugin: GamePlugin) -> dict[str, Any]:
    """The levels "Play the computer" offers for a game (none to choose: an empty list)
    and the one chosen when none is named, for the lobby's form."""
    levels = [level for level in levels_of(plugin) if level in LEVEL_LABELS]
    return {"levels": [{"key": level, "name": _(LEVEL_LABELS[level])} for level in levels],
            "default": default_level(plugin)}


def check_level(plugin: GamePlugin, level: Any) -> str:
    """A level of the game's computer (None: its default); LobbyError names the levels."""
    if level is None:
        return default_level(plugin)
    levels = levels_of(plugin)
    if not isinstance(level, str) or level not in levels:
        raise LobbyError(_("'level' must be one of %(levels)s for %(game)s.") % {
            "levels": ", ".join(levels), "game": _(plugin.name)})
    return level


def computer_user(plugin: GamePlugin, level: Any = None) -> AbstractBaseUser:
    """The account of the game's computer at ``level`` (None: the default level, the
    account "computer")."""
    return computer_account(username_for(plugin, check_level(plugin, level)))


def _opponent(username: str, me: AbstractBaseUser) -> AbstractBaseUser:
    User = get_user_model()
    # A NUL cannot be in a name, and PostgreSQL refuses it even in a query.
    opponent = None if "\x00" in username else (
        User.objects.filter(username__iexact=username.strip(), is_active=True).first())
    if opponent is None:
        raise LobbyError(_("There is no player called %(name)s.") % {"name": username})
    if opponent.pk == me.pk:
        raise LobbyError(_("You cannot challenge yourself."))
    return opponent


def game_plugin(game: Any) -> GamePlugin:
    if game is None:
        return registry.default_game()
    if not isinstance(game, str):
        raise LobbyError(_("'game' must be the key of a game."))
    try:
        return registry.game(game)
    except registry.UnknownGame:
        raise LobbyError(_("There is no game called %(game)s. The games are: %(keys)s.")
                         % {"game": repr(game), "keys": ", ".join(registry.game_keys())}
                         ) from None


def check_table_rules(rated: bool, rules: Any, game: Any = None,
                      seats: int = 2) -> dict[str, Any]:
    """Casual tables may change the conventions; rated ones use what the game allows."""
    plugin = game_plugin(game)
    try:
        parsed_any = check_rules(plugin, rules, seats, rated=rated)
    except ValueError as exc:
        raise LobbyError(str(exc)) from None
    if plugin.has_one_device and isinstance(rules, dict) and rules.get("one_device") is True:
        raise LobbyError(_("Start a one-device game from the lobby instead."))
    return plugin.rules_to_dict(parsed_any)


def check_seats(plugin: GamePlugin, seats: Any, computer_seats: Any) -> tuple[int, int]:
    for name, value in (("seats", seats), ("computer_seats", computer_seats)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise LobbyError(_("'%(name)s' must be a whole number.") % {"name": name})
    if seats not in plugin.seat_counts:
        raise LobbyError(_("%(game)s is played by %(counts)s players.") % {
            "game": _(plugin.name), "counts": ", ".join(map(str, plugin.seat_counts))})
    if not 0 <= computer_seats < seats:
        raise LobbyError(_("The computer can take from 0 to %(n)s seats of this table.")
                         % {"n": seats - 1})
    return seats, computer_seats


def do_challenge(me: AbstractBaseUser, username: str, rated: bool,
                 rules: Any = None, game: Any = None) -> Seek:
    opponent = _opponent(username, me)
    if is_computer_username(opponent.username):
        raise LobbyError(_("Use 'Play the computer' to play the computer."))
    plugin = game_plugin(game)
    return _open_once(me, opponent=opponent, rated=rated, game=plugin.key,
                      rules=check_table_rules(rated, rules, plugin.key, 2))


def do_seek(me: AbstractBaseUser, rated: bool, rules: Any = None, game: Any = None,
            seats: Any = 2, computer_seats: Any = 0) -> Seek:
    """Open a table: it waits in the lobby until its seats are taken."""
    plugin = game_plugin(game)
    seats, computer_seats = check_seats(plugin, seats, computer_seats)
    if seats - computer_seats < 2:
        raise LobbyError(_("With every other seat the computer's, use 'Play the computer'."))
    if computer_seats and rated:
        raise LobbyError(_("A table with computer players is casual."))
    table = check_table_rules(rated, rules, plugin.key, seats)
    return _open_once(me, opponent=None, rated=rated, rules=table, game=plugin.key,
                      seats=seats, computer_seats=computer_seats)


def _lock_user(me: AbstractBaseUser) -> None:
    """Hold the user's row until the transaction ends: the lobby requests of one user that
    open something run one at a time (ten clicks at once included)."""
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk=me.pk)
         .values_list("pk", flat=True))


def _open_once(me: AbstractBaseUser, **table: Any) -> Seek:
    """The user's open seek or challenge with just these settings, else a new one: asking
    again (a double click, a retry, a rematch offered twice) leaves one on the board."""
    table = {"seats": 2, "computer_seats": 0, **table}
    with transaction.atomic():
        _lock_user(me)  # so that a request sent at the same time finds the one made here
        existing = Seek.objects.filter(creator=me, status=Seek.Status.OPEN, **table).first()
        if existing is not None:
            return existing
        seek = Seek.objects.create(creator=me, **table)
        if seek.opponent_id is not None:
            _tell_opponent(me, seek)
        return seek


def _tell_opponent(me: AbstractBaseUser, seek: Seek) -> None:
    """A new challenge (or rematch offer) reaches its player on whatever page is open,
    once it is committed; asking again for the same one tells nobody twice."""
    notices.send_after_commit([seek.opponent_id], {
        "type": "challenge", "seek": seek.pk, "game": seek.game,
        "from": me.get_username(), "from_name": display_name(me),
        "rated": seek.rated, "url": "/"})


def do_accept(me: AbstractBaseUser, seek_id: int) -> Match | Seek:
    """Take a seat: the match once the table is full, else the table, still waiting."""
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
        if seek is None or seek.status != Seek.Status.OPEN:
            raise LobbyError(_("That seek is no longer open."))
        if seek.creator_id == me.pk:
            raise LobbyError(_("You cannot accept your own seek."))
        if seek.opponent_id is not None and seek.opponent_id != me.pk:
            raise LobbyError(_("That challenge is for another player."))
        joined = [row.user for row in Seek.joined.through.objects.filter(seek=seek)
                  .select_related("user").order_by("id")]  # in the order they sat down
        if me in joined:
            raise LobbyError(_("You already sit at that table."))
        joined.append(me)
        if 1 + len(joined) + seek.computer_seats < seek.seats:
            seek.joined.add(me)  # the table waits for its other seats
            return seek
        # The creator sits in seat 0 (the game's own rules decide who starts).
        players = [seek.creator, *joined] + [bot_user()] * seek.computer_seats
        match = do_create_match(*players, rated=seek.rated, rules=seek.rules or None,
                                game=seek.game)
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


def do_play_computer(me: AbstractBaseUser, game: Any = None, seats: Any = 2,
                     rules: Any = None, level: Any = None) -> Match:
    """A casual match against the computer at ``level`` (None: the game's default), which
    takes every other seat."""
    plugin = game_plugin(game)
    seats, _computer = check_seats(plugin, seats, seats - 1 if isinstance(seats, int) else 0)
    computer = computer_user(plugin, level)
    table = check_table_rules(False, rules, plugin.key, seats)
    return do_create_match(me, *[computer] * (seats - 1), rated=False, rules=table or None,
                           game=plugin.key)


def one_device_game(game: Any = None) -> GamePlugin:
    """The game to play on one device: ``game`` when it declares ``has_one_device``,
    and with no game named, the first registered game that does."""
    if game is not None:
        plugin = game_plugin(game)
        if not plugin.has_one_device:
            raise LobbyError(_("%(game)s is not played on one device.")
                             % {"game": _(plugin.name)})
        return plugin
    for plugin in registry.all_games():
        if plugin.has_one_device:
            return plugin
    raise LobbyError(_("No game here is played on one device."))


def do_one_device(me: AbstractBaseUser, game: Any = None) -> Match:
    # Two people on one screen: both seats are the signed-in account's.
    return do_create_match(me, me, rated=False, game=one_device_game(game).key, one_device=True)


def do_rematch(me: AbstractBaseUser, match: Match) -> Match | Seek:
    """Again, with the same settings: alone or against the computer, a new match at once;
    against one person, a challenge to them; at a larger table, the same table offered in
    the lobby (the computer keeping its seats)."""
    if match.status == Match.Status.ACTIVE:
        raise LobbyError(_("The match is still being played."))
    if match.one_device:
        return do_one_device(me, match.game)
    if match.seat_of(me.pk) is None:
        raise LobbyError(_("You did not play in that match."))
    others = [uid for uid in match.seat_users if uid != me.pk]
    computers = dict(Profile.objects.filter(user_id__in=others, is_bot=True)
                     .values_list("user_id", "user__username"))
    people = [uid for uid in others if uid not in computers]
    if not people:  # the same level again
        levels = {level_for(name, match.game) for name in computers.values()}
        level = levels.pop() if len(levels) == 1 else None
        return do_play_computer(me, match.game, match.seat_count, match.rules or None, level)
    if len(others) == 1:
        opponent = get_user_model().objects.get(pk=people[0])
        return _open_once(me, opponent=opponent, rated=match.rated, game=match.game,
                          rules=match.rules or {})
    return _open_once(me, opponent=None, rated=match.rated, rules=match.rules or {},
                      game=match.game, seats=match.seat_count,
                      computer_seats=len(others) - len(people))


def open_seeks_for(me: AbstractBaseUser) -> dict[str, list[dict[str, object]]]:
    def row(seek: Seek) -> dict[str, object]:
        joined = [user.username for user in seek.joined.all()]
        joined_names = [display_name(user) for user in seek.joined.all()]
        return {
            "id": seek.pk,
            "game": seek.game,
            "seats": seek.seats,
            "computer_seats": seek.computer_seats,
            "joined": joined,
            "joined_names": joined_names,
            "free_seats": seek.seats - 1 - len(joined) - seek.computer_seats,
            "creator": seek.creator.username,
            "creator_name": display_name(seek.creator),
            "opponent": seek.opponent.username if seek.opponent else None,
            "rated": seek.rated,
            "rules": seek.rules,
            "mine": seek.creator_id == me.pk,
            "seated": seek.creator_id == me.pk or me.username in joined,
        }

    base = (Seek.objects.filter(status=Seek.Status.OPEN)
            .select_related("creator", "creator__profile", "opponent")
            .prefetch_related("joined", "joined__profile"))
    return {
        "open": [row(s) for s in base.filter(opponent__isnull=True)[:50]],
        "challenges_to_me": [row(s) for s in base.filter(opponent=me)[:50]],
        "my_challenges": [row(s) for s in base.filter(creator=me, opponent__isnull=False)[:50]],
    }
