"""``manage.py api_docs [--check]``: the per-game parts of docs/api.md and docs/openapi.yaml,
made anew from each game's ``api_schema.py`` (``games/web/api_docs.py``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.web import api_docs


class Command(BaseCommand):
    help = "Write the games' sections of the API documents (or, with --check, compare)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true",
                            help="change nothing; exit 1 when a document is out of date")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            stale = api_docs.stale_documents()
            if stale:
                names = ", ".join(str(p.relative_to(api_docs.ROOT)) for p in stale)
                raise CommandError(f"out of date: {names} (run python manage.py api_docs)")
            self.stdout.write("the API documents follow the games")
            return
        for path in api_docs.write_documents():
            self.stdout.write(f"wrote {path.relative_to(api_docs.ROOT)}")
