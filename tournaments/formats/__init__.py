"""Tournament formats, pure Python: round robin, Swiss (via py4swiss), knockout.

No Django, no clock, no randomness of its own (a ``random.Random`` is passed in where
a draw is wanted). The Django app in ``tournaments/`` stores entries and games and
calls these functions.
"""

from tournaments.formats.export import to_csv, to_trf
from tournaments.formats.knockout import (
    Bracket,
    KnockoutMatch,
    knockout_bracket,
    knockout_next_round,
    knockout_standings,
)
from tournaments.formats.model import (
    DRAW,
    LOSS,
    WIN,
    Format,
    Game,
    GameResult,
    Pairing,
    PlayerEntry,
    PlayerId,
    TournamentError,
)
from tournaments.formats.round_robin import (
    Crosstable,
    berger_rounds,
    crosstable,
    round_robin_schedule,
)
from tournaments.formats.standings import Row, standings
from tournaments.formats.swiss import (
    SwissPairingError,
    late_entry_open,
    pairings_by_round,
    swiss_pair,
)

__all__ = [
    "DRAW",
    "LOSS",
    "WIN",
    "Bracket",
    "Crosstable",
    "Format",
    "Game",
    "GameResult",
    "KnockoutMatch",
    "Pairing",
    "PlayerEntry",
    "PlayerId",
    "Row",
    "SwissPairingError",
    "TournamentError",
    "berger_rounds",
    "crosstable",
    "knockout_bracket",
    "knockout_next_round",
    "knockout_standings",
    "late_entry_open",
    "pairings_by_round",
    "round_robin_schedule",
    "standings",
    "swiss_pair",
    "to_csv",
    "to_trf",
]
