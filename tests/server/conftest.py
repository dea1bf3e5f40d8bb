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


@pytest.fixture(autouse=True)
def fixed_deals(request: pytest.FixtureRequest) -> None:
    """Reproducible deals in a module that names its seed (``DEALS_SEED``): the settings
    refuse this outside DEBUG; tests may set it."""
    seed = getattr(request.module, "DEALS_SEED", None)
    if seed is not None:
        settings = request.getfixturevalue("settings")
        settings.TEST_FIXED_DEALS = True
        settings.TEST_DEALS_SEED = seed


@pytest.fixture
def live_layer(redis_url: str) -> None:
    """The Redis channel layer and Celery broker of the running configuration: deadlines
    go to the configured broker, not amqp. (Imported once Redis is known to be there.)"""
    import config.celery  # noqa: F401


# What a module of live socket tests marks itself with.
LIVE = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_layer")]
