"""Pages for what players come back for: history and replays (leaderboard and profiles:
``ratings/views.py``)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games import registry
from games.engine.plugin import GamePlugin, RecordError
from games.models import Match
from games.play.store import export_record, plugin_of
from games.reads.history import HistoryFilter, decorate, history
from games.web.api import BadBody, json_methods, request_body
from games.web.fairness_pages import verify_context

PAGE_SIZE = 25
MAX_UPLOAD_BYTES = 2_000_000


def player_or_404(username: str) -> Any:
    """The player of that name, or 404 (a NUL is in no name, and PostgreSQL refuses it)."""
    if "\x00" in username:
        raise Http404(_("There is no such player."))
    return get_object_or_404(get_user_model(), username=username)


def _date(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


def _history_page(request: HttpRequest, player: Any | None) -> HttpResponse:
    if any("\x00" in value for _key, values in request.GET.lists() for value in values):
        return HttpResponseBadRequest(_("A filter cannot contain a NUL character."),
                                      content_type="text/plain; charset=utf-8")
    filters = HistoryFilter(
        player=player,
        opponent=request.GET.get("opponent", "").strip(),
        result=request.GET.get("result", "") if player is not None else "",
        rated=request.GET.get("rated", ""),
        game=request.GET.get("game", "") if request.GET.get("game", "") in registry.game_keys()
        else "",
        since=_date(request.GET.get("since")),
        until=_date(request.GET.get("until")),
    )
    page = Paginator(history(filters), PAGE_SIZE).get_page(request.GET.get("page"))
    page.object_list = decorate(list(page.object_list), player)
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "games/history.html", {
        "page": page, "player": player, "filters": filters, "query": query.urlencode(),
        "games": registry.all_games(),
    })


def history_all(request: HttpRequest) -> HttpResponse:
    return _history_page(request, None)


def history_player(request: HttpRequest, username: str) -> HttpResponse:
    player = player_or_404(username)
    return _history_page(request, player)


def replay_page(request: HttpRequest, match_id: Any) -> HttpResponse:
    match = get_object_or_404(Match, pk=match_id)
    if match.status == Match.Status.ACTIVE:
        raise Http404(_("The replay is available once the match is over."))
    decorate([match])
    frames_url = f"/api/matches/{match.pk}/frames"
    plugin = _plugin_or_none(match.game)
    if plugin is None:
        raise Http404
    shown = match.shown_seats  # type: ignore[attr-defined]
    data = {
        "mode": "match",
        "match": str(match.pk),
        "game": plugin.key,
        "module": static(plugin.replay_module),
        "frames_url": frames_url,
        "names": [seat.name for seat in shown],
        "status": match.status,
        "winner": match.winner,
        "reason": match.reason,
        "ranks": [seat.rank for seat in shown],
        "strings": _replay_strings([plugin]),
    }
    return render(request, "games/replay_table.html", {
        "match": match, "game_name": _(plugin.name), "replay_data": data,
        "fairness_page": verify_context(match),
    })


def replay_upload_page(request: HttpRequest) -> HttpResponse:
    """``/replay/``: a record file of any game, stepped through by that game's replay
    module on the shared viewer (the record's ``format`` picks the game)."""
    plugins = list(registry.all_games())
    data = {
        "mode": "upload",
        "formats": {p.record_format: {"game": p.key, "name": _(p.name),
                                      "module": static(p.replay_module)}
                    for p in plugins},
        "max_bytes": MAX_UPLOAD_BYTES,
        "strings": _replay_strings(plugins),
    }
    return render(request, "games/replay_table.html", {
        "match": None, "game_name": "", "replay_data": data,
        "game_names": [_(p.name) for p in plugins], "fairness_page": verify_context(None),
    })


def _plugin_or_none(game: str) -> GamePlugin | None:
    try:
        return registry.game(game)
    except registry.UnknownGame:
        return None


def _replay_strings(plugins: list[GamePlugin]) -> dict[str, str]:
    """What static/js/replay_shell.js and the games' replay modules show, translated."""
    strings = {key: str(text) for key, text in REPLAY_STRINGS.items()}
    for plugin in plugins:
        strings.update({key: _(text) for key, text in plugin.replay_strings.items()})
    return strings


# The shared replay viewer's strings (static/js/replay_shell.js). Keep every {placeholder}
# as it is: the script fills it in.
REPLAY_STRINGS = {
    "step": gettext_lazy("{n} / {total}"),
    "play": pgettext_lazy("playback", "Play"),
    "pause": gettext_lazy("Pause"),
    "seat_n": gettext_lazy("Seat {n}"),
    # Translators: a name several seats share (the computer), with the seat's number.
    "name_n": gettext_lazy("{name} {n}"),
    "delta_up": gettext_lazy("+{n}"),
    "delta_down": gettext_lazy("−{n}"),  # noqa: RUF001 - a minus sign
    "rank_n": gettext_lazy("Rank {rank}"),
    "result_annulled": gettext_lazy("Annulled: no result"),
    "result_aborted": gettext_lazy("Aborted: no result"),
    "result_win": gettext_lazy("{name} wins"),
    "result_shared": gettext_lazy("Shared first place"),
    "result_none": gettext_lazy("The record ends before the game does."),
    "no_frames": gettext_lazy("This match has no moves to replay."),
    "record_error": gettext_lazy(
        "The record stops at an illegal action (action {index}): {reason}. "
        "Everything before it is shown."),
    "record_error_hand": gettext_lazy(
        "The record stops at an illegal action (hand {hand}, action {index}): {reason}. "
        "Everything before it is shown."),
    "reading": gettext_lazy("Reading the file…"),
    "too_large": gettext_lazy("That file is too large for a match record."),
    "load_error": gettext_lazy("The replay could not be loaded. Reload the page to try again."),
    "network_error": gettext_lazy(
        "The server could not be reached. Check your connection and try again."),
    "module_error": gettext_lazy("The replay could not be drawn: reload the page."),
}



@json_methods(["GET"])
def match_frames(request: HttpRequest, match_id: Any) -> JsonResponse:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return JsonResponse({"ok": False, "code": "not_found",
                             "message": _("There is no such match.")}, status=404)
    if match.status == Match.Status.ACTIVE:
        return JsonResponse({"ok": False, "code": "running",
                             "message": _("The replay is available once the match is over.")},
                            status=409)
    data = plugin_of(match).frames(export_record(match))
    if match.status == Match.Status.ANNULLED:
        data["result"] = {"winner": None, "reason": "annulled"}  # records cannot say it
    return JsonResponse(data)


@json_methods(["POST"])
def replay_upload(request: HttpRequest) -> JsonResponse:
    """View an uploaded record without storing it: it changes nothing, so it needs no
    CSRF token, and any client (a token, or none) may use it."""
    try:
        body = request_body(request)
    except BadBody:  # past Django's own limit
        body = None
    if body is None or len(body) > MAX_UPLOAD_BYTES:
        return JsonResponse({"ok": False, "code": "too_large",
                             "message": _("That file is too large for a match record.")},
                            status=413)
    try:
        document = json.loads(body, parse_constant=_no_constant)
        plugin = registry.by_format(document.get("format") if isinstance(document, dict)
                                    else None)
        if plugin is None:
            raise RecordError(_("unknown format: the record's 'format' names no game here"))
        data = plugin.frames(document)
    except (RecordError, ValueError) as exc:
        return JsonResponse({"ok": False, "code": "malformed",
                             "message": _("That is not a valid match record: %(reason)s")
                             % {"reason": exc}}, status=400)
    except RecursionError:
        return JsonResponse({"ok": False, "code": "malformed",
                             "message": _("That is not a valid match record.")}, status=400)
    return JsonResponse(data)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a record may hold")
