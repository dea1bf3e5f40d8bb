"""Reading the record a command is given (``replay``, ``verify_deals``): a path, or - for
standard input."""

from __future__ import annotations

import sys


def read_record(path: str) -> bytes:
    """The record's bytes; OSError when the file cannot be read."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()
