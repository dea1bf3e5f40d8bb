"""Swiss pairing: py4swiss's FIDE Dutch engine on the tournament's TRF.

What this module adds to the engine, and why:

* Withdrawn players and players away for the round are left out through the TRF's XXZ
  line; entrants whose ``joined_at_round`` is later than the round are not in it yet.
  Rounds before a late entry count as absences (0 points).
* The bye is chosen here, not by the engine: it goes to the lowest-ranked active
  player (fewest points, then the highest pairing number) who has had no bye, and who
  can be left out with the rest still pairable. Players who won a game by forfeit come
  after all others (FIDE counts a forfeit win like a bye); nobody gets a second bye.
  The engine then pairs the remaining even field. The Dutch engine alone would pick
  from the lowest score group too, but by its own colour and float criteria.
* Pairs that already met in a forfeited game are forbidden (XXP): FIDE's engine only
  forbids pairs that played, and a tournament here never repeats a pairing.

When no pairing keeps those rules and FIDE's absolute colour criteria, the round
cannot be paired and :class:`SwissPairingError` says so; nothing is relaxed silently.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from tournaments.formats.model import WIN, Game, Pairing, PlayerEntry, PlayerId, TournamentError
from tournaments.formats.py4swiss_adapter import EngineTrf, NoPairing, parse_trf
from tournaments.formats.record import Kind, RoundEntry, index_players, player_rounds
from tournaments.formats.trf import build_trf

__all__ = [
    "SwissPairingError",
    "forfeited_pairs",
    "late_entry_open",
    "pairings_by_round",
    "swiss_pair",
]


class SwissPairingError(TournamentError):
    """No pairing of the round keeps the rules (no repeats, one bye at most, colours)."""


def late_entry_open(rounds_started: int, total_rounds: int) -> bool:
    """Late entries are accepted until half the rounds have started."""
    return 2 * rounds_started < total_rounds


def swiss_pair(
    players: Sequence[PlayerEntry],
    history: Sequence[Game],
    round_no: int,
    *,
    total_rounds: int | None = None,
    absent: Collection[PlayerId] = (),
    top_seed_seat0: bool = True,
) -> list[Pairing]:
    """The pairings of ``round_no`` given every game of the earlier rounds.

    Boards come in the engine's order (top scores first), the bye (if any) last.
    ``total_rounds`` lets the last round use FIDE's topscorer rules and enforces the
    late-entry limit; ``absent`` players sit this round out without withdrawing.
    """
    index_players(players)  # duplicate ids
    if round_no < 1:
        raise TournamentError(f"round numbers start at 1, not {round_no}")
    if total_rounds is not None:
        if round_no > total_rounds:
            raise TournamentError(f"round {round_no} of a {total_rounds}-round tournament")
        _check_late_entries(players, total_rounds)
    for game in history:
        if game.round >= round_no:
            raise TournamentError(f"history holds round {game.round}, pairing round {round_no}")
    entrants = [p for p in players if p.joined_at_round <= round_no]
    out = {p.id for p in entrants if p.withdrawn or p.id in absent}
    active = [p for p in entrants if p.id not in out]
    if not active:
        return []
    table = player_rounds(entrants, history, round_no - 1)
    joined = {p.id: p.joined_at_round for p in entrants}
    for game in history:
        if any(game.round < joined[pid] for pid in game.pairing.players):
            raise TournamentError(f"round {game.round}: a game with a player not yet entered")
    document = build_trf(
        entrants,
        history,
        rounds_played=round_no - 1,
        # One more than the round: not the last round, so no topscorer rules.
        total_rounds=round_no + 1 if total_rounds is None else total_rounds,
        zeroed=out,
        forbidden=forfeited_pairs(history),
        top_seed_seat0=top_seed_seat0,
    )
    engine = parse_trf(document.text)
    bye: PlayerId | None = None
    if len(active) % 2 == 0:
        numbered = _pair_or_raise(engine.pair, round_no, len(active))
    else:
        bye, numbered = _pair_with_bye(engine, active, table, document.numbers, round_no)
    if any(black == 0 for _, black in numbered):
        raise SwissPairingError("the engine allocated a bye in an even field")
    pairings = [
        Pairing(round_no, document.ids[white], document.ids[black]) for white, black in numbered
    ]
    if bye is not None:
        pairings.append(Pairing(round_no, bye))
    _check(pairings, active, history)
    return pairings


def pairings_by_round(games: Iterable[Game]) -> dict[int, list[Game]]:
    """The games of each round, rounds in order (the Swiss "pairings per round" view)."""
    rounds: defaultdict[int, list[Game]] = defaultdict(list)
    for game in games:
        rounds[game.round].append(game)
    return {round_no: rounds[round_no] for round_no in sorted(rounds)}


def _check_late_entries(players: Iterable[PlayerEntry], total_rounds: int) -> None:
    for player in players:
        started = player.joined_at_round - 1
        if started and not late_entry_open(started, total_rounds):
            raise TournamentError(
                f"player {player.id} joins at round {player.joined_at_round}: late entries "
                f"close once half of the {total_rounds} rounds have started"
            )


def forfeited_pairs(history: Iterable[Game]) -> list[tuple[PlayerId, PlayerId]]:
    """Pairs that met in a forfeited game: not "played" for FIDE, still met for us."""
    pairs = []
    for game in history:
        seat1 = game.pairing.seat1
        if seat1 is not None and game.result is not None and game.result.forfeit:
            pairs.append((game.pairing.seat0, seat1))
    return pairs


def _bye_candidates(
    active: Sequence[PlayerEntry],
    table: dict[PlayerId, list[RoundEntry]],
    numbers: Mapping[PlayerId, int],
) -> list[PlayerId]:
    """Who may get the bye, the first choice first: lowest-ranked (points, then pairing
    number) without a bye; those with a forfeit win only after everyone else."""

    def rank_key(pid: PlayerId) -> tuple[bool, float, int]:
        entries = table[pid]
        forfeit_win = any(e.kind is Kind.FORFEIT and e.score == WIN for e in entries)
        return forfeit_win, sum(e.score for e in entries), -numbers[pid]

    eligible = [p.id for p in active if not any(e.kind is Kind.BYE for e in table[p.id])]
    return sorted(eligible, key=rank_key)


def _pair_with_bye(
    engine: EngineTrf,
    active: Sequence[PlayerEntry],
    table: dict[PlayerId, list[RoundEntry]],
    numbers: Mapping[PlayerId, int],
    round_no: int,
) -> tuple[PlayerId, list[tuple[int, int]]]:
    """Try the bye candidates in order; the first that leaves a pairable field gets it."""
    for candidate in _bye_candidates(active, table, numbers):
        try:
            return candidate, engine.pair([numbers[candidate]])
        except NoPairing:
            continue
    raise SwissPairingError(
        f"round {round_no} cannot be paired: no player without a bye can sit out "
        f"with the other {len(active) - 1} still paired without repeats"
    )


def _pair_or_raise(
    pair: Callable[[], list[tuple[int, int]]], round_no: int, count: int
) -> list[tuple[int, int]]:
    try:
        result = pair()
    except NoPairing as error:
        raise SwissPairingError(
            f"round {round_no} cannot be paired: no pairing of the {count} active players "
            f"avoids repeats within FIDE's colour rules ({error})"
        ) from error
    return result


def _check(
    pairings: Sequence[Pairing], active: Sequence[PlayerEntry], history: Sequence[Game]
) -> None:
    """The engine's answer keeps our rules, or we fail loudly rather than publish it."""
    seen: list[PlayerId] = [pid for pairing in pairings for pid in pairing.players]
    if sorted(seen) != sorted(p.id for p in active):
        raise SwissPairingError("the engine's pairing does not cover the active players once each")
    met = {g.pairing.pair_key() for g in history if not g.pairing.is_bye}
    byes = {g.pairing.seat0 for g in history if g.pairing.is_bye}
    for pairing in pairings:
        if pairing.is_bye and pairing.seat0 in byes:
            raise SwissPairingError(f"player {pairing.seat0} would get a second bye")
        if not pairing.is_bye and pairing.pair_key() in met:
            raise SwissPairingError(f"players {sorted(pairing.players)} would meet again")
