"""The clubs' and tournaments' HTTP JSON API (docs/api.md), in the games API's style:
session or ``Authorization: Bearer <token>``, strict JSON bodies, errors
``{"ok": false, "code", "message"}``. Thin: each view parses and calls a service."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games import registry
from games.web.api import BadBody, api_view, json_error, parse_json, request_body

from . import clubs, services
from .errors import Refused
from .models import Tournament
from .present import club_detail, club_summary, tournament_detail, tournament_summary
from .setup import FIELDS

USERNAME = frozenset({"username"})


def _body(request: HttpRequest, known: frozenset[str]) -> dict[str, Any]:
    """The JSON object sent (an empty body: {}), with no field outside ``known``."""
    raw = request_body(request)
    if not raw:
        return {}
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise Refused(_("The request body must be a JSON object."))
    unknown = sorted(set(data) - known)
    if unknown:
        raise Refused(_("Unknown field %(field)s: use %(known)s.") % {
            "field": json.dumps(unknown[0]), "known": ", ".join(sorted(known)) or "none"})
    return data


def _call(fn: Callable[[], JsonResponse]) -> JsonResponse:
    try:
        return fn()
    except BadBody as exc:
        return json_error(exc.status, exc.code, str(exc))
    except Refused as exc:
        return json_error(exc.status, exc.code, exc.message)


def _user(request: HttpRequest) -> Any:
    return request.api_user  # type: ignore[attr-defined]


def _ok(http_status: int = 200, **fields: Any) -> JsonResponse:
    return JsonResponse({"ok": True, **fields}, status=http_status)


# ---------------------------------------------------------------------- clubs

CLUB_FIELDS = frozenset({"name", "description", "language", "policy"})


@api_view(["GET", "POST"])
def club_list(request: HttpRequest) -> JsonResponse:
    if request.method == "GET":
        query = request.GET.get("q", "")
        mine = {club.pk for club in clubs.clubs_of(_user(request))}
        return JsonResponse({"clubs": [{**club_summary(c), "mine": c.pk in mine}
                                       for c in clubs.club_list(query)]})

    def create() -> JsonResponse:
        club = clubs.do_create_club(_user(request), _body(request, CLUB_FIELDS))
        return _ok(201, club=club_detail(club, _user(request)))

    return _call(create)


@api_view(["GET", "POST"])
def club(request: HttpRequest, club_id: int) -> JsonResponse:
    def run() -> JsonResponse:
        found = clubs.club_by_id(club_id)
        if request.method == "POST":
            clubs.do_update_club(_user(request), found, _body(request, CLUB_FIELDS))
        return JsonResponse(club_detail(found, _user(request)))

    return _call(run)


Extra = dict[str, Any] | None


def _club_action(action: Callable[[Any, Any, dict[str, Any]], Extra],
                 known: frozenset[str] = frozenset()) -> Callable[..., JsonResponse]:
    @api_view(["POST"])
    def view(request: HttpRequest, club_id: int) -> JsonResponse:
        def run() -> JsonResponse:
            found = clubs.club_by_id(club_id)
            data = _body(request, known)
            extra = action(_user(request), found, data) or {}
            return _ok(**extra, club=club_detail(found, _user(request)))

        return _call(run)

    return view


def _join(user: Any, club_: Any, data: dict[str, Any]) -> Extra:
    return {"status": clubs.do_join_club(user, club_, data.get("code")).status}


def _leave(user: Any, club_: Any, data: dict[str, Any]) -> Extra:
    clubs.do_leave_club(user, club_)
    return None


def _accept(user: Any, club_: Any, data: dict[str, Any]) -> Extra:
    clubs.do_accept_request(user, club_, data.get("username"))
    return None


def _decline(user: Any, club_: Any, data: dict[str, Any]) -> Extra:
    clubs.do_decline_request(user, club_, data.get("username"))
    return None


def _remove(user: Any, club_: Any, data: dict[str, Any]) -> Extra:
    clubs.do_remove_member(user, club_, data.get("username"))
    return None


def _role(user: Any, club_: Any, data: dict[str, Any]) -> Extra:
    clubs.do_set_role(user, club_, data.get("username"), data.get("role"))
    return None


def _invite(user: Any, club_: Any, data: dict[str, Any]) -> Extra:
    return {"invite_url": f"/clubs/{club_.pk}/join/{clubs.do_new_invite(user, club_)}/"}


club_join = _club_action(_join, frozenset({"code"}))
club_leave = _club_action(_leave)
club_accept = _club_action(_accept, USERNAME)
club_decline = _club_action(_decline, USERNAME)
club_remove = _club_action(_remove, USERNAME)
club_role = _club_action(_role, frozenset({"username", "role"}))
club_invite = _club_action(_invite)


@api_view(["GET"])
def club_leaderboard(request: HttpRequest, club_id: int) -> JsonResponse:
    def run() -> JsonResponse:
        found = clubs.club_by_id(club_id)

        game = request.GET.get("game", registry.default_game().key)
        if game not in registry.game_keys():
            raise Refused(_("'game' must be one of %(keys)s.")
                          % {"keys": ", ".join(registry.game_keys())})
        return JsonResponse({"game": game, "rows": clubs.leaderboard(found, game)})

    return _call(run)


# ---------------------------------------------------------------------- tournaments

@api_view(["POST"])
def tournament_create(request: HttpRequest, club_id: int) -> JsonResponse:
    def run() -> JsonResponse:

        found = clubs.club_by_id(club_id)
        created = services.do_create_tournament(_user(request), found, _body(request, FIELDS))
        return _ok(201, tournament=tournament_detail(created, _user(request)))

    return _call(run)


@api_view(["GET"])
def tournament_list(request: HttpRequest) -> JsonResponse:
    def run() -> JsonResponse:
        qs = Tournament.objects.select_related("club").order_by("-starts_at")
        club_id = request.GET.get("club")
        if club_id is not None:
            qs = qs.filter(club=clubs.club_by_id(club_id))
        status = request.GET.get("status")
        if status is not None:
            if status not in Tournament.Status.values:
                raise Refused(_("'status' must be one of %(values)s.")
                              % {"values": ", ".join(Tournament.Status.values)})
            qs = qs.filter(status=status)
        return JsonResponse({"tournaments": [tournament_summary(t) for t in qs[:100]]})

    return _call(run)


@api_view(["GET"])
def tournament(request: HttpRequest, tournament_id: int) -> JsonResponse:
    def run() -> JsonResponse:
        found = services.tournament_by_id(tournament_id)
        return JsonResponse(tournament_detail(found, _user(request)))

    return _call(run)


def _tournament_action(action: Callable[[Any, Tournament, dict[str, Any]], Any],
                       known: frozenset[str] = frozenset()) -> Callable[..., JsonResponse]:
    @api_view(["POST"])
    def view(request: HttpRequest, tournament_id: int) -> JsonResponse:
        def run() -> JsonResponse:
            found = services.tournament_by_id(tournament_id)
            action(_user(request), found, _body(request, known))
            found.refresh_from_db()
            return _ok(tournament=tournament_detail(found, _user(request)))

        return _call(run)

    return view


tournament_join = _tournament_action(lambda user, t, data: services.do_join(user, t))
tournament_leave = _tournament_action(lambda user, t, data: services.do_leave(user, t))
tournament_start = _tournament_action(lambda user, t, data: services.do_start_now(user, t))
tournament_cancel = _tournament_action(lambda user, t, data: services.do_cancel(user, t))
tournament_pause = _tournament_action(lambda user, t, data: services.do_pause(user, t))
tournament_resume = _tournament_action(lambda user, t, data: services.do_resume(user, t))
tournament_pause_me = _tournament_action(lambda user, t, data: services.do_pause_me(user, t))
tournament_resume_me = _tournament_action(
    lambda user, t, data: services.do_resume_me(user, t))
tournament_repair = _tournament_action(lambda user, t, data: services.do_repair(user, t))
tournament_add_computer = _tournament_action(
    lambda user, t, data: services.do_add_computer(user, t, data.get("level")),
    frozenset({"level"}))
tournament_withdraw = _tournament_action(
    lambda user, t, data: services.do_withdraw(user, t, data.get("username")), USERNAME)
tournament_annul = _tournament_action(
    lambda user, t, data: services.do_annul_game(user, t, data.get("match"),
                                                 data.get("reason")),
    frozenset({"match", "reason"}))
