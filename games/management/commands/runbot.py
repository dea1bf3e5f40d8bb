"""``manage.py runbot``: the computer player, a client of the public API.

It serves every computer account (``bots/levels.py``: "computer", each game's default
level, and ``computer-<game>-<level>``), issuing each a fresh token (and revoking the
ones it issued before). With ``BOT_TOKEN`` set it serves that one token as the account
"computer", as it always did.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from accounts.computer import RUNBOT_TOKEN_NAME, computer_account
from accounts.models import AccessToken
from bots.levels import DEFAULT_USERNAME, level_accounts
from bots.runner import DEFAULT_WORKERS, run


def issue_token(username: str) -> str:
    bot = computer_account(username)
    AccessToken.objects.filter(user=bot, name=RUNBOT_TOKEN_NAME,
                               revoked_at__isnull=True).update(revoked_at=timezone.now())
    _row, token = AccessToken.issue(bot, RUNBOT_TOKEN_NAME)
    return token


class Command(BaseCommand):
    help = "Run the computer player against a running platform (every computer account)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default=os.environ.get("PLATFORM_URL",
                                                            "http://127.0.0.1:8000"))
        parser.add_argument("--workers", type=int,
                            default=int(os.environ.get("BOT_WORKERS", DEFAULT_WORKERS)),
                            help="processes the searching levels decide in (default "
                                 f"{DEFAULT_WORKERS}, or BOT_WORKERS)")

    def handle(self, *args: Any, **options: Any) -> None:
        token = os.environ.get("BOT_TOKEN")
        if token:
            tokens = {DEFAULT_USERNAME: token}
        else:
            tokens = {account.username: issue_token(account.username)
                      for account in level_accounts()}
        asyncio.run(run(options["url"], tokens, workers=options["workers"]))
