"""``manage.py replay RECORD.json [--json] [--legal]`` for every registered game.

The record's ``format`` picks the game (match-record.md, fives.md, dice.md). Exit 0:
every action applied; 1: an action was illegal (the report stops there); 2: the
record is malformed (one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import registry
from games.management.record_file import read_record

EXIT_MALFORMED = 2


class Command(BaseCommand):
    help = "Replay a match record (any registered game's format) through its engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="path to the record (JSON), or - for standard input")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--legal", action="store_true",
                            help="also list the legal actions after the last applied action")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["record"]
        try:
            text = read_record(path)
        except OSError as exc:
            self._malformed(f"cannot read {path}: {exc.strerror or exc}")
        plugin = registry.by_format(_format_of(text))
        if plugin is None:
            plugin = registry.default_game()  # its reader names what is wrong
        try:
            outcome = plugin.replay_document(text, with_legal=options["legal"])
        except RecursionError:
            self._malformed("the record is nested too deeply")
        if outcome.exit_status == EXIT_MALFORMED:
            self._malformed(outcome.error_line or "malformed record")
        if options["json"]:
            sys.stdout.write(json.dumps(outcome.report) + "\n")
        else:
            sys.stdout.write(outcome.text + "\n")
        sys.stdout.flush()
        sys.exit(outcome.exit_status)

    def _malformed(self, reason: str) -> None:
        line = " ".join(reason.split())
        sys.stderr.write(f"malformed record: {line}\n")
        sys.exit(EXIT_MALFORMED)


def _format_of(text: bytes) -> object:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return data.get("format") if isinstance(data, dict) else None
