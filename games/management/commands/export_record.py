"""``manage.py export_record MATCH_ID [-o FILE]``: the match's record, in its game's format.

Written from the same event log the server applied, so ``manage.py replay`` on it
reproduces the match.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Match
from games.play.store import export_record


class Command(BaseCommand):
    help = "Write a match's record (its game's format) to standard output or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            match = Match.objects.get(pk=options["match_id"])
        except (Match.DoesNotExist, ValueError, Exception) as exc:
            raise CommandError(f"no match {options['match_id']!r}") from exc
        text = json.dumps(export_record(match), indent=1) + "\n"
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            sys.stdout.write(text)
