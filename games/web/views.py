"""Pages. Each renders a template whose small JavaScript module talks to the API."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry
from games.engine.plugin import Convention, GamePlugin
from games.live.quick_messages import LABELS as QUICK_MESSAGES
from games.models import Match
from games.play import lobby, services
from games.reads.history import decorate

# What static/js/shell.js shows (a board brings its own strings in its template).
# "{name}"-style placeholders are filled in by the script.
TABLE_STRINGS = {
    "connecting": gettext_lazy("Connecting…"),
    "live": gettext_lazy("Live"),
    "reconnecting": gettext_lazy("Reconnecting…"),
    "offline": gettext_lazy("Offline: retrying…"),
    "not_found": gettext_lazy("This match cannot be opened."),
    "seat_n": gettext_lazy("Seat {n}"),
    # Translators: a name several seats share (the computer), with the seat's number.
    "name_n": gettext_lazy("{name} {n}"),
    "board_failed": gettext_lazy("The board could not be loaded: reload the page."),
    "err_offline": gettext_lazy("Not connected: your move was not sent. Reconnecting…"),
    "err_pending": gettext_lazy("Wait for the answer to your last move."),
    "err_timeout": gettext_lazy("No answer from the server: bringing the page up to date."),
    "st_your_turn": gettext_lazy("Your turn."),
    "st_wait": gettext_lazy("Waiting for {name}."),
    "st_over": gettext_lazy("The game is over."),
    "result_you_win": gettext_lazy("You win!"),
    "result_you_lose": gettext_lazy("You lost"),
    "result_win": gettext_lazy("{name} wins"),
    "result_shared": gettext_lazy("Shared first place"),
    "result_over": gettext_lazy("Game over"),
    "result_aborted": gettext_lazy("Game aborted"),
    "result_annulled": gettext_lazy("Game annulled"),
    "reason_target": gettext_lazy("{name} reached the target score."),
    "reason_time": gettext_lazy("{name} ran out of time."),
    "reason_resign": gettext_lazy("{name} resigned."),
    "reason_time_any": gettext_lazy("A player ran out of time."),
    "reason_resign_any": gettext_lazy("A player resigned."),
    "reason_finished": gettext_lazy("Every round has been played."),
    "reason_abort": gettext_lazy("The game was aborted before the first decision: no result."),
    "reason_annulled": gettext_lazy("No winner and no rating change."),
    "rank": gettext_lazy("Rank {rank}"),
    "rank_line": gettext_lazy("{rank}. {name}: {score}"),
    "rank_line_noscore": gettext_lazy("{rank}. {name}"),
    "rating_change": gettext_lazy("{name}: rating {before} → {after} ({delta})"),
    "confirm_resign": gettext_lazy("Resign this game? You rank last."),
    "confirm_resign_seat": gettext_lazy("Resign this game for {name}? That seat ranks last."),
    "yes_resign": gettext_lazy("Resign"),
    "confirm_abort": gettext_lazy("Abort this match? It ends with no result."),
    "yes_abort": gettext_lazy("Abort"),
    # Translators: the time of the decision's delay left, spent before the clock's bank.
    "delay": gettext_lazy("delay {s}"),
    "err_rematch": gettext_lazy("The rematch could not be created."),
    # Translators: the browser tab's title, before the page's own, on the player's turn.
    "title_your_turn": gettext_lazy("Your turn"),
    "sound_on": gettext_lazy("Sound on"),
    "sound_off": gettext_lazy("Sound off"),
    "rematch_offered": gettext_lazy(
        "Rematch offered: waiting for {name} to accept it in the lobby."),
    "rematch_table": gettext_lazy(
        "The same table is offered in the lobby: it starts when its seats are taken."),
    # Presence and quick messages (games/live/presence.py, quick_messages.py).
    "presence_connected": gettext_lazy("connected"),
    "presence_away": gettext_lazy("away"),
    "spectators": gettext_lazy("{n} watching"),
    "said": gettext_lazy("{name}: {text}"),
    "mute": gettext_lazy("Mute messages"),
    "unmute": gettext_lazy("Messages muted"),
    **{f"say_{code}": label for code, label in QUICK_MESSAGES.items()},
}


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home.html")
    return render(request, "games/lobby.html", {"lobby_games": lobby_games()})


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def rules(request: HttpRequest, game: str | None = None) -> HttpResponse:
    """A game's rules page (``/rules/<game>/``; ``/rules/``: the first game's), with a tab
    for each game. A game names its page in its plugin (``rules_template``)."""

    try:
        plugin = registry.game(game) if game else registry.default_game()
    except registry.UnknownGame:
        raise Http404 from None
    return render(request, plugin.rules_template,
                  {"games": registry.all_games(), "game": plugin.key})


def _convention(convention: Convention) -> dict[str, Any]:
    return {
        "key": convention.key,
        "label": _(convention.label),
        "kind": convention.kind,
        "default": convention.default,
        "minimum": convention.minimum,
        "maximum": convention.maximum,
        "choices": list(convention.choices),
        "fixed": convention.fixed,
        "asked_in": convention.asked_in,
    }


def lobby_games() -> list[dict[str, Any]]:
    """Every registered game as the lobby's form offers it (static/js/lobby.js knows no
    game): seats, conventions, the standard rules a seek's badges compare with, and the
    form's conventions (``rated_standard``, ``headline_convention``). The first is the
    default game, the one a seek or challenge without a game is for."""
    return [
        {
            "key": plugin.key,
            "name": _(plugin.name),
            "seat_counts": list(plugin.seat_counts),
            "one_device": plugin.has_one_device,
            "conventions": [_convention(c) for c in plugin.conventions()],
            "standard": _standard_rules(plugin),
            "rated_standard": plugin.rated_standard,
            "headline": plugin.headline_convention,
            "computer": lobby.computer_levels_for(plugin),
        }
        for plugin in registry.all_games()
    ]


def _standard_rules(plugin: GamePlugin) -> dict[str, Any]:
    """The record-shaped rules of a table that changes nothing (its smallest seat count)."""
    seats = min(plugin.seat_counts)
    return dict(plugin.rules_to_dict(plugin.parse_rules(None, seats)))


def _plugin(match: Match) -> GamePlugin | None:
    try:
        return registry.game(match.game)
    except registry.UnknownGame:
        return None


def match_page(request: HttpRequest, match_id: Any) -> HttpResponse:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise Http404
    seats = services.access_match_seats(match, request.user)  # type: ignore[arg-type]
    decorate([match])
    role = "device" if len(seats) > 1 else ("player" if seats else "spectator")
    plugin = _plugin(match)
    if plugin is None:
        raise Http404
    shown = match.shown_seats  # type: ignore[attr-defined]
    table_data = {
        "match": str(match.pk),
        "game": plugin.key,
        "game_name": _(plugin.name),
        "seats": match.seat_count,
        "my_seats": seats,
        "role": role,
        "names": [seat.name for seat in shown],
        "usernames": [seat.username for seat in shown],
        "status": match.status,
        "versionless": sorted(plugin.versionless),
        "forfeit_action": plugin.forfeit_action,
        "abort_action": plugin.abort_action,
        "board_module": static(plugin.board_module),
        "strings": {key: str(text) for key, text in TABLE_STRINGS.items()},
    }
    return render(request, "games/table.html", {
        "match": match,
        "seats": seats,
        "role": role,
        "game_name": _(plugin.name),
        "board_template": plugin.board_template,
        "board_module": plugin.board_module,
        "abort_action": plugin.abort_action,
        "table_data": table_data,
        "quick_messages": [(code, str(label)) for code, label in QUICK_MESSAGES.items()],
    })
