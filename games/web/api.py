"""The HTTP JSON API (docs/api.md). Session or ``Authorization: Bearer <token>``.

Thin: each view authenticates, parses, and calls ``lobby``/``services``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import RequestDataTooBig
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts.credentials import do_revoke_token
from accounts.models import AccessToken
from accounts.tokens import token_from_header, user_for_token
from games.live import live_limits
from games.models import Match, MatchSeat
from games.play import lobby, services
from games.play.store import export_record

View = Callable[..., JsonResponse]


def json_error(status: int, code: str, message: str) -> JsonResponse:
    """The API's error answer: ``{"ok": false, "code", "message"}`` with ``status``."""
    return JsonResponse({"ok": False, "code": code, "message": message}, status=status)


def json_methods(methods: list[str]) -> Callable[[View], View]:
    """Only these methods; any other is a JSON 405 (Django's own has an empty body).

    CSRF-exempt: the view itself checks CSRF where a session may change something
    (``api_view``); the others change nothing.
    """

    def wrap(view: View) -> View:
        @csrf_exempt
        @wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in methods:
                response = json_error(405, "method_not_allowed",
                                  _("Use %(methods)s here.") % {"methods": ", ".join(methods)})
                response["Allow"] = ", ".join(methods)
                return response
            return view(request, *args, **kwargs)

        inner.api_methods = tuple(methods)  # type: ignore[attr-defined]  # for the API's tests
        return inner

    return wrap


@csrf_exempt
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any other path under /api/ (a malformed id included): a JSON 404, not a page."""
    return json_error(404, "not_found", _("There is no such API endpoint or object."))


class BadBody(ValueError):
    """A request body that is not strict JSON; answered with ``status`` and ``code``."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e309: Python would read infinity
        raise ValueError("number out of range")
    return value


def _storable_text(data: Any) -> bool:
    """No NUL (PostgreSQL text cannot hold it) and no unpaired surrogate in any string."""
    pending = [data]
    while pending:  # iterative: the nesting is as deep as json.loads allowed
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            if "\x00" in item:
                return False
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
    return True


def request_body(request: HttpRequest) -> bytes:
    """The body, or BadBody past Django's upload limit (its own answer is an HTML 400)."""
    try:
        return request.body
    except RequestDataTooBig:
        raise BadBody("too_large", _("The request body is too large."), 413) from None


def parse_json(raw: bytes) -> Any:
    """Strict JSON: Python's json would accept NaN, Infinity and 1e309 (read as infinity),
    which no other client reads back and which break the numbers they land in."""
    try:
        data = json.loads(raw, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise BadBody("bad_json", _("The request body is not valid JSON.")) from None
    if not _storable_text(data):
        raise BadBody("bad_request",
                      _("The request body holds text with a NUL character or an unpaired "
                        "surrogate."))
    return data


def _csrf_ok(request: HttpRequest) -> bool:
    check = CsrfViewMiddleware(lambda r: None)  # type: ignore[arg-type,return-value]
    return check.process_view(request, lambda r: None, (), {}) is None  # type: ignore[arg-type]


def api_view(methods: list[str], session_only: bool = False) -> Callable[[View], View]:
    """Authenticate by token or session (with CSRF for unsafe methods on the session)."""

    def wrap(view: View) -> View:
        @json_methods(methods)
        @wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            raw = token_from_header(request.headers.get("Authorization"))
            user: AbstractBaseUser | None
            if raw:
                if session_only:
                    return json_error(403, "forbidden", _("Use the account page for this."))
                user = user_for_token(raw)
                if user is None:
                    return json_error(401, "bad_token", _("That access token is not valid."))
            else:
                user = request.user if request.user.is_authenticated else None  # type: ignore[assignment]
                if user is None:
                    return json_error(401, "login_required", _("Log in or send an access token."))
                if request.method not in ("GET", "HEAD") and not _csrf_ok(request):
                    return json_error(403, "csrf", _("The page is out of date: reload it."))
            request.api_user = user  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        return inner

    return wrap


def _body(request: HttpRequest, known: frozenset[str]) -> dict[str, Any]:
    """The JSON object sent (empty body: {}), with no field outside ``known``."""
    raw = request_body(request)
    if not raw:
        return {}
    try:
        data = parse_json(raw)
    except BadBody as exc:  # the lobby's answers have always said bad_request
        raise lobby.LobbyError(str(exc)) from None
    if not isinstance(data, dict):
        raise lobby.LobbyError(_("The request body must be a JSON object."))
    unknown = sorted(set(data) - known)
    if unknown:  # a misspelt field must not quietly fall back to its default
        raise lobby.LobbyError(_("Unknown field %(field)s: use %(known)s.") % {
            "field": json.dumps(unknown[0]), "known": ", ".join(sorted(known))})
    return data


def _optional(data: dict[str, Any], name: str, kind: type, message: str) -> Any:
    """``data[name]`` if it is a ``kind``, None if absent or null; else the message."""
    value = data.get(name)
    if value is not None and not isinstance(value, kind):
        raise lobby.LobbyError(message)
    return value


def _lobby_call(fn: Callable[[], JsonResponse]) -> JsonResponse:
    try:
        return fn()
    except BadBody as exc:
        return json_error(exc.status, exc.code, str(exc))
    except lobby.LobbyError as exc:
        return json_error(400, "bad_request", str(exc))
    except ValueError as exc:
        return json_error(400, "bad_request", str(exc))


def _match_summary(match: Match) -> dict[str, Any]:
    return {
        "id": str(match.pk),
        "game": match.game,
        "players": match.players(),
        "rated": match.rated,
        "one_device": match.one_device,
        "status": match.status,
        "winner": match.winner,
        "reason": match.reason,
        "scores": match.scores,
        "balances": match.scores,  # the name before games other than Spectacular Bid
        "url": f"/matches/{match.pk}/",
    }


@api_view(["GET"])
def me(request: HttpRequest) -> JsonResponse:
    user = request.api_user  # type: ignore[attr-defined]
    profile = getattr(user, "profile", None)
    return JsonResponse({"username": user.username,
                         "display_name": getattr(profile, "display_name", "") or user.username})


SEEK_FIELDS = frozenset({"rated", "opponent", "rules", "game", "seats", "computer_seats"})
COMPUTER_FIELDS = frozenset({"game", "seats", "rules", "level"})
ONE_DEVICE_FIELDS = frozenset({"game"})  # a game that declares has_one_device; none: the first
TOKEN_FIELDS = frozenset({"name"})


@api_view(["GET", "POST"])
def seeks(request: HttpRequest) -> JsonResponse:
    user = request.api_user  # type: ignore[attr-defined]
    if request.method == "GET":
        return JsonResponse(lobby.open_seeks_for(user))

    def create() -> JsonResponse:
        data = _body(request, SEEK_FIELDS)
        rated = data.get("rated", True)
        if not isinstance(rated, bool):  # "false" must not make a rated seek
            raise lobby.LobbyError(_("'rated' must be true or false."))
        opponent = _optional(data, "opponent", str, _("'opponent' must be a player's name."))
        rules = _optional(data, "rules", dict,
                          _("'rules' must be an object of table rules, or null."))
        game = _optional(data, "game", str, _("'game' must be the key of a game."))
        if opponent:
            if data.get("seats", 2) != 2 or data.get("computer_seats", 0):
                raise lobby.LobbyError(_("A challenge is for two players."))
            seek = lobby.do_challenge(user, opponent, rated, rules, game)
        else:
            seek = lobby.do_seek(user, rated, rules, game, data.get("seats", 2),
                                 data.get("computer_seats", 0))
        return JsonResponse({"ok": True, "seek": seek.pk}, status=201)

    return _lobby_call(create)


@api_view(["POST"])
def seek_accept(request: HttpRequest, seek_id: int) -> JsonResponse:
    user = request.api_user  # type: ignore[attr-defined]

    def accept() -> JsonResponse:
        match = lobby.do_accept(user, seek_id)
        if not isinstance(match, Match):  # seated; the table waits for its other seats
            return JsonResponse({"ok": True, "seek": seek_id, "waiting": True})
        return JsonResponse({"ok": True, "match": _match_summary(match)}, status=201)

    return _lobby_call(accept)


@api_view(["POST"])
def seek_cancel(request: HttpRequest, seek_id: int) -> JsonResponse:
    user = request.api_user  # type: ignore[attr-defined]

    def cancel() -> JsonResponse:
        lobby.do_cancel(user, seek_id)
        return JsonResponse({"ok": True})

    return _lobby_call(cancel)


@api_view(["GET"])
def matches(request: HttpRequest) -> JsonResponse:
    user = request.api_user  # type: ignore[attr-defined]


    qs = Match.objects.filter(Exists(MatchSeat.objects.filter(match=OuterRef("pk"), user=user)))
    status = request.GET.get("status")
    if status is not None:  # "?status=" too: a filter that names no status
        if status not in Match.Status.values:
            return json_error(400, "bad_request", _("'status' must be one of %(values)s.") % {
                "values": ", ".join(Match.Status.values)})
        qs = qs.filter(status=status)
    return JsonResponse({"matches": [_match_summary(m) for m in qs[:50]]})


def _start_match(request: HttpRequest, fields: frozenset[str],
                 start: Callable[[Any, str | None, dict[str, Any]], Match]) -> JsonResponse:
    """A match of the lobby's starting from an optional JSON body with ``fields`` (its
    ``game`` checked here, the rest by ``start``): 201 with the match, or the lobby's error."""
    user = request.api_user  # type: ignore[attr-defined]

    def call() -> JsonResponse:
        data = _body(request, fields) if request.body else {}
        game = _optional(data, "game", str, _("'game' must be the key of a game."))
        match = start(user, game, data)
        return JsonResponse({"ok": True, "match": _match_summary(match)}, status=201)

    return _lobby_call(call)


@api_view(["POST"])
def play_computer(request: HttpRequest) -> JsonResponse:
    def play(user: Any, game: str | None, data: dict[str, Any]) -> Match:
        rules = _optional(data, "rules", dict,
                          _("'rules' must be an object of table rules, or null."))
        return lobby.do_play_computer(user, game, data.get("seats", 2), rules,
                                      data.get("level"))

    return _start_match(request, COMPUTER_FIELDS, play)


@api_view(["POST"])
def one_device(request: HttpRequest) -> JsonResponse:
    return _start_match(request, ONE_DEVICE_FIELDS,
                        lambda user, game, data: lobby.do_one_device(user, game))


def _get_match(match_id: Any) -> Match | None:
    return Match.objects.filter(pk=match_id).first()


def _over_budget(request: HttpRequest) -> JsonResponse | None:
    """A 429 once the account has spent its command budget (shared with its sockets)."""
    user = request.api_user  # type: ignore[attr-defined]
    owner = live_limits.owner_of(user)
    if owner is None or live_limits.is_exempt(user) or live_limits.spend_command_sync(owner):
        return None
    code, message = live_limits.SocketShare.over_budget()
    response = json_error(429, code, message)
    response["Retry-After"] = "1"
    return response


@api_view(["GET"])
def match_detail(request: HttpRequest, match_id: Any) -> JsonResponse:
    refused = _over_budget(request)
    if refused is not None:
        return refused
    match = _get_match(match_id)
    if match is None:
        return json_error(404, "not_found", _("There is no such match."))
    seats = services.access_match_seats(match, request.api_user)  # type: ignore[attr-defined]
    return JsonResponse(services.snapshot(match, seats))


def _budgeted_body(request: HttpRequest) -> tuple[Any, JsonResponse | None]:
    """A match call's JSON body, once the account's command budget allows it; or the
    refusal (429, or the body's 400/413)."""
    refused = _over_budget(request)
    if refused is not None:
        return None, refused
    try:
        return parse_json(request_body(request) or b"null"), None
    except BadBody as exc:
        return None, json_error(exc.status, exc.code, str(exc))


def _answer(result: services.CommandResult) -> JsonResponse:
    status = {"ok": 200, "not_found": 404, "forbidden": 403, "bad_request": 400}.get(
        result.code, 409)
    return JsonResponse(result.as_dict(), status=status)


@api_view(["POST"])
def match_command(request: HttpRequest, match_id: Any) -> JsonResponse:
    data, refused = _budgeted_body(request)
    if refused is not None:
        return refused
    return _answer(services.do_command(match_id, request.api_user, data))  # type: ignore[attr-defined]


@api_view(["POST"])
def match_seed(request: HttpRequest, match_id: Any) -> JsonResponse:
    """A player's own seed for the match's chance, before its first deal or roll."""
    data, refused = _budgeted_body(request)
    if refused is not None:
        return refused
    if not isinstance(data, dict) or set(data) - {"seed"} or "seed" not in data:
        return json_error(400, "bad_request", _("Send an object with one field, 'seed'."))
    return _answer(services.do_send_seed(match_id, request.api_user, data["seed"]))  # type: ignore[attr-defined]


@api_view(["POST"])
def match_rematch(request: HttpRequest, match_id: Any) -> JsonResponse:
    match = _get_match(match_id)
    if match is None:
        return json_error(404, "not_found", _("There is no such match."))
    user = request.api_user  # type: ignore[attr-defined]

    def rematch() -> JsonResponse:
        made = lobby.do_rematch(user, match)
        if isinstance(made, Match):
            return JsonResponse({"ok": True, "match": _match_summary(made)}, status=201)
        return JsonResponse({"ok": True, "seek": made.pk}, status=201)

    return _lobby_call(rematch)


@json_methods(["GET"])
def match_record(request: HttpRequest, match_id: Any) -> JsonResponse:
    """Public once the match is over, like its replay: every tile is public then."""
    match = _get_match(match_id)
    if match is None:
        return json_error(404, "not_found", _("There is no such match."))
    if match.status == Match.Status.ACTIVE:
        return json_error(409, "running", _("The record is available once the match is over."))
    response = JsonResponse(export_record(match), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
    return response


@api_view(["GET", "POST"], session_only=True)
def tokens(request: HttpRequest) -> JsonResponse:
    user = request.api_user  # type: ignore[attr-defined]
    if request.method == "GET":
        rows = AccessToken.objects.filter(user=user, revoked_at__isnull=True)
        return JsonResponse({"tokens": [
            {"id": t.pk, "name": t.name, "created_at": t.created_at.isoformat(),
             "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None}
            for t in rows]})

    def create() -> JsonResponse:
        name = _optional(_body(request, TOKEN_FIELDS), "name", str,
                         _("'name' must be a string.")) or ""
        name = name.strip()[:60] or _("token")
        token, raw = AccessToken.issue(user, name)
        return JsonResponse({"ok": True, "id": token.pk, "name": token.name, "token": raw},
                            status=201)

    return _lobby_call(create)


@api_view(["POST"], session_only=True)
def token_revoke(request: HttpRequest, token_id: int) -> JsonResponse:

    user = request.api_user  # type: ignore[attr-defined]
    if not do_revoke_token(user, token_id):  # its sockets close
        return json_error(404, "not_found", _("There is no such token."))
    return JsonResponse({"ok": True})
