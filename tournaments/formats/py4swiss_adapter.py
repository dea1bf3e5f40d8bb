"""The one place that talks to py4swiss (FIDE Dutch system, MIT).

py4swiss ships no type information, so its names are Any here and every value that
leaves this module is converted to plain ints.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from py4swiss.engines import DutchEngine  # type: ignore[import-untyped]
from py4swiss.engines.common import PairingError  # type: ignore[import-untyped]
from py4swiss.trf import ParsedTrf, TrfLine  # type: ignore[import-untyped]
from py4swiss.trf.codes import PlayerCode, TeamCode, XCode  # type: ignore[import-untyped]
from py4swiss.trf.sections import (  # type: ignore[import-untyped]
    PlayerSection,
    TournamentSection,
    XSection,
)

__all__ = ["EngineTrf", "NoPairing", "parse_trf"]


class NoPairing(Exception):
    """py4swiss found no pairing that keeps the absolute criteria (no repeats, colours)."""


class EngineTrf:
    """A TRF parsed once; the players left out of the next round can then be changed
    between tries (trying one bye candidate after another) without parsing again."""

    def __init__(self, parsed: Any) -> None:
        self._parsed = parsed
        self._base_zeroed: set[int] = {int(n) for n in parsed.x_section.zeroed_ids}

    def pair(self, also_zeroed: Iterable[int] = ()) -> list[tuple[int, int]]:
        """The Dutch pairing of the next round as (white, black) starting numbers,
        black 0 for the pairing-allocated bye."""
        self._parsed.x_section.zeroed_ids = self._base_zeroed | set(also_zeroed)
        try:
            pairings = DutchEngine.generate_pairings(self._parsed)
        except PairingError as error:
            raise NoPairing(str(error)) from error
        finally:
            self._parsed.x_section.zeroed_ids = set(self._base_zeroed)
        return [(int(p.white), int(p.black)) for p in pairings]


def parse_trf(text: str) -> EngineTrf:
    """Parse TRF(x) text the way py4swiss's file parser does, in memory and strictly."""
    by_type: defaultdict[Any, list[Any]] = defaultdict(list)
    for row, raw in enumerate(text.splitlines()):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        trf_line = TrfLine(row, line)
        by_type[trf_line.code_type].append(trf_line)
    if by_type[TeamCode]:
        raise ValueError("team sections are not used here")
    parsed = ParsedTrf(
        player_sections=[PlayerSection.from_string(str(line)) for line in by_type[PlayerCode]],
        tournament_section=TournamentSection(),
        x_section=XSection.from_lines(by_type[XCode]),
    )
    parsed.validate_contents()
    return EngineTrf(parsed)
