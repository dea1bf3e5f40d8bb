"""A token-authenticated client of the JSON API, for tests through Django's test client."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from accounts.models import AccessToken


class ApiClient:
    """A token-authenticated client of the JSON API."""

    def __init__(self, user: User) -> None:
        self.user = user
        self.token = AccessToken.issue(user, "tests")[1]
        self.client = Client()

    def get(self, path: str, **query: str) -> Any:
        return self.client.get(path, query, HTTP_AUTHORIZATION=f"Bearer {self.token}")

    def post(self, path: str, body: Any = None, raw: bytes | None = None) -> Any:
        data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode())
        return self.client.post(path, data=data, content_type="application/json",
                                HTTP_AUTHORIZATION=f"Bearer {self.token}")


def accepted_match(creator: ApiClient, opponent: ApiClient, **body: Any) -> dict[str, Any]:
    """A challenge from ``creator`` (the seek's other fields in ``body``), accepted by
    ``opponent`` over the API: the match summary."""
    made = creator.post("/api/seeks", {"opponent": opponent.user.username, **body})
    assert made.status_code == 201, made.json()
    accepted = opponent.post(f"/api/seeks/{made.json()['seek']}/accept")
    assert accepted.status_code == 201, accepted.json()
    match: dict[str, Any] = accepted.json()["match"]
    return match
