"""Pages. Each renders a template whose small JavaScript module talks to the API."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from . import services
from .history import decorate
from .models import Match


def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "home.html")
    return render(request, "games/lobby.html")


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules.html")


def match_page(request: HttpRequest, match_id: Any) -> HttpResponse:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise Http404
    seats = services.access_match_seats(match, request.user)  # type: ignore[arg-type]
    decorate([match])
    return render(request, "games/match.html", {
        "match": match,
        "seats": seats,
        "role": "device" if len(seats) > 1 else ("player" if seats else "spectator"),
    })
