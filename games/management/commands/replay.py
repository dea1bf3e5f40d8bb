"""``manage.py replay RECORD.json [--json] [--legal]`` (match-record.md).

Exit 0: every action applied; 1: an action was illegal (the report stops there);
2: the record is malformed (one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.spectacular_bid.record import RecordError, loads
from games.spectacular_bid.replay import EXIT_MALFORMED, describe, replay, report


class Command(BaseCommand):
    help = "Replay a spectacular-bid/1 match record through the engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", help="path to the record (JSON), or - for standard input")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--legal", action="store_true",
                            help="also list the legal actions after the last applied action")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["record"]
        try:
            if path == "-":
                text = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as handle:
                    text = handle.read()
        except OSError as exc:
            self._malformed(f"cannot read {path}: {exc.strerror or exc}")
        try:
            record = loads(text)
        except RecordError as exc:
            self._malformed(str(exc))
        except RecursionError:
            self._malformed("the record is nested too deeply")
        rep = replay(record)
        if options["json"]:
            sys.stdout.write(json.dumps(report(rep, with_legal=options["legal"])) + "\n")
        else:
            sys.stdout.write(describe(rep, record.players) + "\n")
            if options["legal"]:
                data = report(rep, with_legal=True)
                sys.stdout.write(f"To act: {data['to_act']}\n")
                for action in data["legal"]:
                    sys.stdout.write("  " + json.dumps(action) + "\n")
        sys.stdout.flush()
        sys.exit(rep.exit_status)

    def _malformed(self, reason: str) -> None:
        line = " ".join(reason.split())
        sys.stderr.write(f"malformed record: {line}\n")
        sys.exit(EXIT_MALFORMED)
