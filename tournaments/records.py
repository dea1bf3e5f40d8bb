"""The stored tournament as the pure library sees it: entries and games (``formats``).

Everything the library computes (pairings, standings, crosstable, bracket, exports) is
fed from these two functions, so a row is interpreted (played, forfeit, bye, annulled,
still to come) in one place only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tournaments import formats as F

from .models import Entry, Round, Tournament, TournamentGame

Decision = TournamentGame.Decision
State = TournamentGame.State


def player_entries(tournament: Tournament, entries: Iterable[Entry] | None = None
                   ) -> list[F.PlayerEntry]:
    rows = list(entries) if entries is not None else list(
        tournament.entries.select_related("user"))
    return [F.PlayerEntry(id=row.user_id, rating=row.rating, name=row.user.username,
                          withdrawn=row.withdrawn, joined_at_round=row.joined_at_round)
            for row in rows]


def result_of(row: TournamentGame) -> F.GameResult | None:
    """The row's result as the library's, None while it is to be played (or a bye)."""
    if row.is_bye or row.state != State.DONE:
        return None
    if row.decision == Decision.ANNULLED:
        return F.GameResult.double_forfeit()
    score0 = (row.halves0 or 0) / 2
    score1 = (row.halves1 or 0) / 2
    if row.decision == Decision.FORFEIT:
        return F.GameResult(score0, score1, forfeit=True)
    return F.GameResult(score0, score1, points0=row.points0, points1=row.points1)


def game_of(row: TournamentGame, round_no: int) -> F.Game:
    return F.Game(F.Pairing(round_no, row.seat0_id, row.seat1_id), result_of(row))


def current_rows(tournament: Tournament) -> list[TournamentGame]:
    """Every game that counts (not the replaced attempts), rounds in order."""
    return list(tournament.games.exclude(state=State.REPLACED)
                .select_related("round", "match").order_by("round__number", "board"))


def library_games(tournament: Tournament, *, done_rounds_only: bool = False,
                  before_round: int | None = None,
                  rows: list[TournamentGame] | None = None) -> list[F.Game]:
    """The games as the library's ``Game`` list: all of them, only those of finished
    rounds, or those of the rounds before ``before_round``."""
    found = []
    for row in rows if rows is not None else current_rows(tournament):
        number = row.round.number
        if done_rounds_only and row.round.status != Round.Status.DONE:
            continue
        if before_round is not None and number >= before_round:
            continue
        found.append(game_of(row, number))
    return found


def done_rounds(tournament: Tournament) -> int:
    return tournament.round_set.filter(status=Round.Status.DONE).count()


def started_rounds(tournament: Tournament) -> int:
    return tournament.round_set.exclude(status=Round.Status.PAIRED).count()


def result_text(row: TournamentGame) -> str:
    """1-0, ½-½, 0-1, +/- for a forfeit, 0-0 for a double forfeit; "" while pending."""
    if row.is_bye:
        return "bye"
    if row.state != State.DONE:
        return ""
    if row.decision == Decision.ANNULLED:
        return "0-0"
    marks = {2: "1", 1: "½", 0: "0"}
    if row.decision == Decision.FORFEIT:
        forfeit = {2: "+", 0: "-"}
        return f"{forfeit.get(row.halves0 or 0, '-')}/{forfeit.get(row.halves1 or 0, '-')}"
    return f"{marks[row.halves0 or 0]}-{marks[row.halves1 or 0]}"


def points_text(value: float) -> str:
    whole = int(value)
    if value == whole:
        return str(whole)
    if value * 2 != int(value * 2):  # a table's scaled points: thirds, fifths
        return f"{value:.2f}"
    return f"{whole}½" if whole else "½"


def schedule_pairings(tournament: Tournament, round_no: int) -> list[tuple[int, Any]]:
    """A round robin's stored Berger schedule for one round: (seat 0, seat 1 or None)."""
    schedule = tournament.schedule or []
    if not 1 <= round_no <= len(schedule):
        return []
    return [(int(a), None if b is None else int(b)) for a, b in schedule[round_no - 1]]
