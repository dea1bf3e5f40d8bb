"""Knockout: a single-elimination bracket seeded by rating, optional third-place match.

The bracket has the next power of two of slots. Seeds follow the usual order (1 v 16,
8 v 9, 4 v 13, ...: seed s meets size + 1 - s in round 1, and seeds 1 and 2 can only
meet in the final), so the missing seeds of a short field are byes for the top seeds.
A match's seat 0 is the winner of its upper feeder, as the bracket is drawn.
The third-place match, when asked for, is played in the final round by the two
semi-final losers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tournaments.formats.model import Game, Pairing, PlayerEntry, PlayerId, TournamentError
from tournaments.formats.standings import Row, rank_rows

__all__ = [
    "Bracket",
    "KnockoutMatch",
    "knockout_bracket",
    "knockout_next_round",
    "knockout_standings",
    "seed_order",
]


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    round: int
    slot: int
    seat0: PlayerId | None = None  # None: not known yet
    seat1: PlayerId | None = None
    bye: bool = False  # seat0 goes through unopposed
    winner: PlayerId | None = None
    forfeit: bool = False  # won without playing: the loser did not show up

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def ready(self) -> bool:
        """Both players known, result still to come."""
        return self.seat0 is not None and self.seat1 is not None and self.winner is None

    @property
    def loser(self) -> PlayerId | None:
        if self.winner is None or self.bye:
            return None
        return self.seat1 if self.winner == self.seat0 else self.seat0


@dataclass(frozen=True, slots=True)
class Bracket:
    seeds: tuple[PlayerId, ...]  # seed 1 first
    rounds: tuple[tuple[KnockoutMatch, ...], ...]  # rounds[0] is round 1
    third_place: KnockoutMatch | None = None
    with_third_place: bool = False

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    @property
    def champion(self) -> PlayerId | None:
        return self.rounds[-1][0].winner

    def matches(self, round_no: int) -> list[KnockoutMatch]:
        """The matches of a round, the third-place match with the final."""
        matches = list(self.rounds[round_no - 1])
        if round_no == self.round_count and self.third_place is not None:
            matches.append(self.third_place)
        return matches

    @property
    def current_round(self) -> int | None:
        """The first round with a match still undecided; None once all is played."""
        for round_no in range(1, self.round_count + 1):
            if not all(m.decided for m in self.matches(round_no)):
                return round_no
        return None

    def pairings(self, round_no: int) -> list[Pairing]:
        """The round's games (byes as pairings without seat 1) whose players are known."""
        pairings = []
        for match in self.matches(round_no):
            if match.seat0 is not None and (match.bye or match.seat1 is not None):
                pairings.append(Pairing(round_no, match.seat0, match.seat1))
        return pairings


def seed_order(size: int) -> list[int]:
    """Seeds (from 1) by bracket position for a power-of-two ``size``."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def knockout_bracket(players: Sequence[PlayerEntry], third_place: bool = False) -> Bracket:
    """The bracket of the players not withdrawn, seeded by entry rating."""
    field = sorted((p for p in players if not p.withdrawn), key=lambda p: (-p.rating, p.id))
    if len(field) < 2:
        raise TournamentError("a knockout needs at least two players")
    seeds = tuple(p.id for p in field)
    size = 1 << (len(seeds) - 1).bit_length()
    order = seed_order(size)
    first = []
    for slot in range(size // 2):
        top, bottom = order[2 * slot], order[2 * slot + 1]
        if bottom > len(seeds):
            lone = seeds[top - 1]
            first.append(KnockoutMatch(1, slot, lone, None, bye=True, winner=lone))
        else:
            first.append(KnockoutMatch(1, slot, seeds[top - 1], seeds[bottom - 1]))
    rounds = [tuple(first)]
    count = size // 4
    while count:
        rounds.append(tuple(KnockoutMatch(len(rounds) + 1, slot) for slot in range(count)))
        count //= 2
    return _advance(Bracket(seeds, tuple(rounds), None, third_place))


def knockout_next_round(bracket: Bracket, games: Sequence[Game]) -> Bracket:
    """Record the current round's results (from ``games``) and fill in the next round.
    Every ready match of the round needs a decided game: the higher score wins, then the
    more game points; a tie on both, or a double forfeit, has no winner and is refused."""
    round_no = bracket.current_round
    if round_no is None:
        raise TournamentError("the knockout is over")
    by_pair = {
        g.pairing.pair_key(): g for g in games if g.round == round_no and g.result is not None
    }
    decided: dict[tuple[int, int, bool], Game] = {}
    for match in bracket.matches(round_no):
        if match.decided:
            continue
        if match.seat0 is None or match.seat1 is None:
            raise TournamentError(f"round {round_no}: slot {match.slot} has no players yet")
        game = by_pair.get(frozenset((match.seat0, match.seat1)))
        if game is None:
            raise TournamentError(
                f"round {round_no}: no result for {match.seat0} against {match.seat1}"
            )
        decided[(match.round, match.slot, match is bracket.third_place)] = game

    def settle(match: KnockoutMatch, third: bool) -> KnockoutMatch:
        game = decided.get((match.round, match.slot, third))
        if game is None:
            return match
        assert game.result is not None
        return replace(match, winner=_winner(game), forfeit=game.result.forfeit)

    rounds = tuple(tuple(settle(m, False) for m in matches) for matches in bracket.rounds)
    third = bracket.third_place
    if third is not None:
        third = settle(third, True)
    return _advance(replace(bracket, rounds=rounds, third_place=third))


def knockout_standings(bracket: Bracket, players: Sequence[PlayerEntry]) -> list[Row]:
    """Placings: champion 1, runner-up 2, then 3 and 4 by the third-place match or 3=
    for both semi-final losers; a loser of round r shares 2^(R - r) + 1 of R rounds.
    Players still in share rank 1; a player who never showed up comes last."""
    known = {p.id: p for p in players}
    placement = dict.fromkeys(bracket.seeds, 1)
    wins = dict.fromkeys(bracket.seeds, 0.0)
    played = dict.fromkeys(bracket.seeds, 0)
    showed = dict.fromkeys(bracket.seeds, False)
    last = bracket.round_count
    for matches in bracket.rounds:
        for match in matches:
            _tally(match, wins, played, showed)
            if match.loser is not None:
                placement[match.loser] = 2 ** (last - match.round) + 1
    third = bracket.third_place
    if third is not None:
        _tally(third, wins, played, showed)
        if third.loser is not None:
            placement[third.loser] = 4
    rows = [
        Row(
            rank=0,
            player_id=pid,
            name=known[pid].label if pid in known else str(pid),
            rating=known[pid].rating if pid in known else 0,
            points=wins[pid],
            games_played=played[pid],
            withdrawn=known[pid].withdrawn if pid in known else False,
            no_show=not showed[pid],
        )
        for pid in bracket.seeds
    ]
    seed = {pid: number for number, pid in enumerate(bracket.seeds)}
    ranked = rank_rows(rows, lambda row: (row.no_show, placement[row.player_id]))
    # Equal placings list by seed rather than by the current rating.
    return sorted(ranked, key=lambda row: (row.rank, seed[row.player_id]))


def _tally(
    match: KnockoutMatch,
    wins: dict[PlayerId, float],
    played: dict[PlayerId, int],
    showed: dict[PlayerId, bool],
) -> None:
    if match.winner is None:
        return
    wins[match.winner] += 1.0
    if match.bye:
        return
    showed[match.winner] = True
    if not match.forfeit:
        for pid in (match.seat0, match.seat1):
            if pid is not None:
                played[pid] += 1
                showed[pid] = True


def _winner(game: Game) -> PlayerId:
    result, pairing = game.result, game.pairing
    assert result is not None and pairing.seat1 is not None
    key0 = (result.score0, result.points0)
    key1 = (result.score1, result.points1)
    if key0 == key1:
        raise TournamentError(
            f"round {pairing.round}: {pairing.seat0} against {pairing.seat1} has no winner"
        )
    return pairing.seat0 if key0 > key1 else pairing.seat1


def _advance(bracket: Bracket) -> Bracket:
    """Fill each match's seats from the winners of its two feeders (and the third-place
    match from the semi-final losers) once they are known."""
    rounds = [list(matches) for matches in bracket.rounds]
    for r in range(1, len(rounds)):
        for slot, match in enumerate(rounds[r]):
            upper, lower = rounds[r - 1][2 * slot], rounds[r - 1][2 * slot + 1]
            rounds[r][slot] = replace(match, seat0=upper.winner, seat1=lower.winner)
    third = bracket.third_place
    if bracket.with_third_place and third is None and len(rounds) > 1:
        semis = rounds[-2]
        if all(m.decided for m in semis):
            losers = [m.loser for m in semis if m.loser is not None]
            last = len(rounds)
            if len(losers) == 2:
                third = KnockoutMatch(last, 0, losers[0], losers[1])
            elif len(losers) == 1:
                third = KnockoutMatch(last, 0, losers[0], None, bye=True, winner=losers[0])
    return replace(bracket, rounds=tuple(tuple(m) for m in rounds), third_place=third)
