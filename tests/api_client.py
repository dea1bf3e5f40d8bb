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
