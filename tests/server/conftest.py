"""API players for the server tests (a module's own fixture of the same name wins)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.api_client import ApiClient


@pytest.fixture
def alice() -> ApiClient:
    return ApiClient(User.objects.create_user("alice"))


@pytest.fixture
def bob() -> ApiClient:
    return ApiClient(User.objects.create_user("bob"))


@pytest.fixture
def carol() -> ApiClient:
    return ApiClient(User.objects.create_user("carol"))
