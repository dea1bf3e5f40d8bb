"""``manage.py runbot``: the computer player, a client of the public API."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from accounts.models import AccessToken
from bots.runner import run
from games.play.lobby import bot_user


class Command(BaseCommand):
    help = "Run the computer player against a running platform (uses BOT_TOKEN)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default=os.environ.get("PLATFORM_URL",
                                                            "http://127.0.0.1:8000"))

    def handle(self, *args: Any, **options: Any) -> None:

        token = os.environ.get("BOT_TOKEN")
        if not token:


            bot = bot_user()
            AccessToken.objects.filter(user=bot, name="computer player",
                                       revoked_at__isnull=True).update(revoked_at=timezone.now())
            _token, token = AccessToken.issue(bot, "computer player")
        asyncio.run(run(options["url"], token))
