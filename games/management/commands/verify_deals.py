"""``manage.py verify_deals RECORD.json [--json]`` for every registered game.

Recomputes every chance event of the record (deals, lots, dice) from the seeds it holds
(docs/fairness.md) and says which, if any, differ. Exit 0: every event matches the seeds;
1: the commitment or an event differs (each one named); 2: the record cannot be checked
(not JSON, an unknown format, malformed, no seeds, or the server seed not revealed yet).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import registry
from games.engine.fairness import UNVERIFIABLE, Verification, verify_record
from games.engine.plugin import RecordError
from games.engine.records import load_json
from games.management.record_file import read_record


class Command(BaseCommand):
    help = "Verify a match record's deals and rolls against its committed seeds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="path to the record (JSON), or - for standard input")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        result = _verify(options["record"])
        if options["json"]:
            sys.stdout.write(json.dumps(result.as_dict()) + "\n")
        else:
            sys.stdout.write("\n".join(result.lines) + "\n")
        sys.stdout.flush()
        sys.exit(result.status)


def _verify(path: str) -> Verification:
    try:
        text = read_record(path)
    except OSError as exc:
        return Verification(UNVERIFIABLE, [f"cannot read {path}: {exc.strerror or exc}"])
    try:
        data = load_json(text)
    except RecordError as exc:
        return Verification(UNVERIFIABLE, [f"malformed record: {exc}"])
    plugin = registry.by_format(data.get("format") if isinstance(data, dict) else None)
    if plugin is None:
        known = ", ".join(game.record_format for game in registry.all_games())
        return Verification(UNVERIFIABLE, [f"unknown record format (known: {known})"])
    return verify_record(plugin, data)
