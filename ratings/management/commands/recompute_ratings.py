"""``manage.py recompute_ratings``: rebuild every rating and rating change from the history."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.services import changes_snapshot, rebuild_from, snapshot


class Command(BaseCommand):
    help = "Rebuild all ratings from the finished rated matches, in the order they were rated."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true",
                            help="exit 1 if the rebuilt ratings differ from the live ones")

    def handle(self, *args: Any, **options: Any) -> None:
        live = snapshot()
        live_changes = changes_snapshot() if options["check"] else []
        started = time.perf_counter()
        replayed = rebuild_from(0)
        elapsed = time.perf_counter() - started
        rebuilt = snapshot()
        same = rebuilt == live and (not options["check"] or changes_snapshot() == live_changes)
        self.stdout.write(
            f"rebuilt {len(rebuilt)} ratings from {replayed} matches in {elapsed:.2f} s; "
            + ("identical to the live ratings" if same else "DIFFERENT from the live ratings")
        )
        if options["check"] and not same:
            raise SystemExit(1)
