"""What the API and the pages show of clubs and tournaments, as plain dicts.

One builder for both, so that a page and the JSON it is refreshed from never disagree.
Standings, the crosstable and the bracket come from the pure library (``formats``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import registry
from tournaments import formats as F
from tournaments.formats.standings import rank_rows

from . import arena_rounds, clubs, table_rounds
from .models import Club, Membership, Round, Tournament, TournamentGame
from .records import (
    current_rows,
    done_rounds,
    library_games,
    player_entries,
    points_text,
    result_text,
    started_rounds,
)
from .rounds import knockout_state
from .services import access_organizer

State = TournamentGame.State
TIEBREAK_LABELS = {
    "buchholz": gettext_noop("Buchholz"),
    "median_buchholz": gettext_noop("Median Buchholz"),
    "sonneborn_berger": gettext_noop("Sonneborn-Berger"),
    "head_to_head": gettext_noop("Head to head"),
    "game_points": gettext_noop("Game points"),
    "opponents_table_points": gettext_noop("Opponents' table points"),
    "wins": gettext_noop("Games won"),
}


def game_name(key: str) -> str:
    try:
        return _(registry.game(key).name)
    except registry.UnknownGame:
        return key


def club_summary(club: Club) -> dict[str, Any]:
    return {"id": club.pk, "name": club.name, "description": club.description,
            "language": club.language, "policy": club.policy,
            "members": clubs.member_count(club), "url": f"/clubs/{club.pk}/"}


def club_detail(club: Club, user: AbstractBaseUser | None) -> dict[str, Any]:
    membership = clubs.access_membership(club, user)
    admin = membership is not None and membership.is_admin
    tournaments = list(club.tournaments.order_by("starts_at"))
    data = club_summary(club)
    data.update({
        "me": {
            "member": membership is not None
            and membership.status == Membership.Status.ACTIVE,
            "requested": membership is not None
            and membership.status == Membership.Status.REQUESTED,
            "role": membership.role if membership is not None else None,
            "admin": admin,
        },
        "member_list": clubs.members(club),
        "tournaments": {
            "upcoming": [tournament_summary(t) for t in tournaments
                         if t.status == Tournament.Status.REGISTRATION],
            "running": [tournament_summary(t) for t in tournaments
                        if t.status == Tournament.Status.RUNNING],
            "past": [tournament_summary(t) for t in reversed(tournaments)
                     if t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)],
        },
        "games": [{"key": p.key, "name": _(p.name)} for p in registry.all_games()],
    })
    if admin:
        data["requests"] = clubs.requests(club)
        data["invite_url"] = f"/clubs/{club.pk}/join/{club.invite_code}/"
    return data


def tournament_summary(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "club": {"id": t.club_id, "name": t.club.name},
        "format": t.format,
        "format_name": Tournament.Format(t.format).label,
        "double": t.double,
        "third_place": t.third_place,
        "deciding_games": t.deciding_games,
        "seats": t.seats if t.format == Tournament.Format.TABLES else None,
        "table_points": ([float(p) for p in table_rounds.points_of(t)]
                         if t.format == Tournament.Format.TABLES else None),
        "bye_points": t.bye_points,
        "duration_m": t.duration_m if t.format == Tournament.Format.ARENA else None,
        "game": t.game,
        "game_name": game_name(t.game),
        "rated": t.rated,
        "status": t.status,
        "paused": t.paused,
        "starts_at": t.starts_at.isoformat(),
        "registration_deadline": t.registration_deadline.isoformat(),
        "players": t.entries.filter(withdrawn=False).count(),
        "min_players": t.min_players,
        "max_players": t.max_players,
        "members_only": t.members_only,
        "rounds": t.rounds,
        "revision": t.revision,
        "url": f"/tournaments/{t.pk}/",
    }


def _game_row(row: TournamentGame, names: dict[int, str]) -> dict[str, Any]:
    return {
        "board": row.board,
        "seat0": names.get(row.seat0_id, ""),
        "seat1": names.get(row.seat1_id) if row.seat1_id is not None else None,
        "state": row.state,
        "decision": row.decision,
        "result": result_text(row),
        "third_place": row.third_place,
        "attempt": row.attempt,
        "match": str(row.match_id) if row.match_id else None,
        "url": f"/matches/{row.match_id}/" if row.match_id else None,
        "replay_url": f"/matches/{row.match_id}/replay/" if row.match_id and row.state in (
            State.DONE, State.REPLACED) else None,
    }


def _table_row(row: TournamentGame, names: dict[int, str], t: Tournament) -> dict[str, Any]:
    """A table: its seats in order with their places and table points."""
    data = _game_row(row, names)
    data["result"] = table_rounds.result_text(row)
    points = table_rounds.seat_table_points(t, row)
    data["players"] = [{
        "username": names.get(int(seat["user"]), ""),
        "place": seat.get("place") if row.state == State.DONE else None,
        "table_points": points[index],
        "points": seat.get("points", 0),
        "forfeit": bool(seat.get("forfeit")),
    } for index, seat in enumerate(row.table)]
    data["usernames"] = [seat["username"] for seat in data["players"]]
    return data


def standings_rows(t: Tournament, rows: list[TournamentGame] | None = None
                   ) -> tuple[int, list[F.Row]]:
    """(rounds counted, rows): Swiss and round robin after the finished rounds, a knockout
    by its bracket; nothing before the first round is over."""
    if t.status == Tournament.Status.REGISTRATION or t.started_at is None:
        return 0, []
    if t.format == Tournament.Format.ARENA:
        return 1, _arena_rows(t)
    counted = done_rounds(t)
    if counted == 0:
        return 0, []  # nothing to rank yet: the page lists the entries
    rows = rows if rows is not None else current_rows(t)
    paired = {pid for row in rows if not row.is_bye and row.state == State.DONE
              for pid in row.seats()}
    players = player_entries(t)
    if t.format == Tournament.Format.TABLES:
        return counted, table_rounds.standings(t, rows, counted)
    if t.format == Tournament.Format.KNOCKOUT:
        bracket = knockout_state(t, rows)
        place = _placements(bracket)
        seed = {pid: number for number, pid in enumerate(bracket.seeds)}
        ranked = _unpaired_keep_their_place(
            F.knockout_standings(bracket, players), paired,
            lambda row: (row.no_show, place.get(row.player_id, 1)))
        return counted, sorted(ranked, key=lambda row: (row.rank, seed.get(row.player_id, 0)))
    games = library_games(t, done_rounds_only=True, rows=rows)
    kind = F.Format.SWISS if t.format == Tournament.Format.SWISS else F.Format.ROUND_ROBIN
    return counted, _unpaired_keep_their_place(
        F.standings(kind, players, games, rounds=counted), paired,
        lambda row: (row.no_show, -row.points, *(-value for value in row.tiebreaks.values())))


def _arena_rows(t: Tournament) -> list[F.Row]:
    """The live leaderboard as standings: arena points, then games won."""
    entries = {e.user_id: e for e in t.entries.select_related("user")}
    return [F.Row(rank=row.rank, player_id=row.player, name=entries[row.player].user.username,
                  rating=entries[row.player].rating, points=float(row.score),
                  games_played=row.games, tiebreaks={"wins": float(row.wins)},
                  withdrawn=entries[row.player].withdrawn)
            for row in arena_rounds.leaderboard(t) if row.player in entries]


def _arena(t: Tournament, names: dict[int, str]) -> dict[str, Any]:
    """An arena's clock and live leaderboard (streaks, who is playing or on a break)."""
    end = arena_rounds.ends_at(t)
    busy = arena_rounds.busy_players(t) if t.status == Tournament.Status.RUNNING else set()
    entries = {e.user_id: e for e in t.entries.all()}
    return {
        "ends_at": end.isoformat() if end is not None else None,
        "leaderboard": [{
            "rank": row.rank,
            "username": names.get(row.player, ""),
            "score": row.score,
            "games": row.games,
            "wins": row.wins,
            "draws": row.draws,
            "losses": row.losses,
            "streak": row.streak,
            "game_points": list(row.points),
            "playing": row.player in busy,
            "paused": row.player in entries and entries[row.player].paused,
            "withdrawn": row.player in entries and entries[row.player].withdrawn,
        } for row in arena_rounds.leaderboard(t)],
    }


def _unpaired_keep_their_place(rows: list[F.Row], paired: set[int],
                               key: Callable[[F.Row], tuple[Any, ...]]) -> list[F.Row]:
    """The library lists a player with no game over the board below everyone ("never
    showed up"); one who has had nothing but byes so far was never asked to, and keeps
    the place his points give him."""
    return rank_rows([replace(row, no_show=row.no_show and row.player_id in paired)
                      for row in rows], key)


def _placements(bracket: F.Bracket) -> dict[int, int]:
    """Each player's placing in the bracket so far (as ``knockout_standings`` ranks)."""
    last = bracket.round_count
    place = dict.fromkeys(bracket.seeds, 1)
    for matches in bracket.rounds:
        for match in matches:
            if match.loser is not None:
                place[match.loser] = 2 ** (last - match.round) + 1
    third = bracket.third_place
    if third is not None and third.loser is not None:
        place[third.loser] = 4
    return place


def _standing(row: F.Row) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "username": row.name,
        "rating": row.rating,
        "points": row.points,
        "points_text": points_text(row.points),
        "games_played": row.games_played,
        "tiebreaks": dict(row.tiebreaks),
        "withdrawn": row.withdrawn,
        "no_show": row.no_show,
    }


def tournament_detail(t: Tournament, user: AbstractBaseUser | None) -> dict[str, Any]:
    rows = current_rows(t)
    entries = list(t.entries.select_related("user").order_by("-rating", "user__username"))
    names = {e.user_id: e.user.username for e in entries}
    data = tournament_summary(t)
    me = next((e for e in entries if user is not None and e.user_id == user.pk), None)
    counted, standing_rows = standings_rows(t, rows)
    data.update({
        "rules": t.rules,
        "round_gap_s": t.round_gap_s,
        "no_show_s": t.no_show_s,
        "notice": t.notice,
        "started_at": t.started_at.isoformat() if t.started_at else None,
        "finished_at": t.finished_at.isoformat() if t.finished_at else None,
        "rounds_started": started_rounds(t) if t.started_at else 0,
        "entries": [{"username": e.user.username, "rating": e.rating,
                     "withdrawn": e.withdrawn, "joined_at_round": e.joined_at_round}
                    for e in entries],
        "me": {
            "entered": me is not None and not me.withdrawn,
            "withdrawn": me is not None and me.withdrawn,
            "paused": me is not None and me.paused,
            "organizer": access_organizer(t, user),
            "can_join": me is None and _entries_open(t, len(entries)),
        },
        "round_list": _rounds(t, rows, names),
        "standings": {
            "after_round": counted,
            "tiebreaks": [{"key": key, "name": _(TIEBREAK_LABELS[key])}
                          for key in (standing_rows[0].tiebreaks if standing_rows else {})],
            "rows": [_standing(row) for row in standing_rows],
        },
    })
    if t.format == Tournament.Format.ROUND_ROBIN and t.started_at is not None:
        data["crosstable"] = _crosstable(t, rows)
    if t.format == Tournament.Format.KNOCKOUT and t.started_at is not None:
        data["bracket"] = _bracket(t, rows, names)
    if t.format == Tournament.Format.ARENA:
        data["arena"] = _arena(t, names)
    return data


def _entries_open(t: Tournament, count: int) -> bool:
    """Whether the tournament takes a new player now (the club rule aside)."""
    if count >= t.max_players:
        return False
    if t.status == Tournament.Status.REGISTRATION:
        return timezone.now() <= t.registration_deadline
    if t.status == Tournament.Status.RUNNING and t.format == Tournament.Format.ARENA:
        end = arena_rounds.ends_at(t)
        return end is not None and timezone.now() < end
    return (t.status == Tournament.Status.RUNNING and t.format == Tournament.Format.SWISS
            and F.late_entry_open(started_rounds(t), t.rounds))


def _rounds(t: Tournament, rows: list[TournamentGame], names: dict[int, str]
            ) -> list[dict[str, Any]]:
    by_round: dict[int, list[TournamentGame]] = {}
    for row in rows:
        by_round.setdefault(row.round_id, []).append(row)
    return [{
        "number": round_.number,
        "status": round_.status,
        "starts_at": round_.starts_at.isoformat(),
        "games": [_table_row(row, names, t) if row.table else _game_row(row, names)
                  for row in by_round.get(round_.pk, [])],
    } for round_ in t.round_set.order_by("number")]


def _crosstable(t: Tournament, rows: list[TournamentGame]) -> dict[str, Any]:
    players = player_entries(t)
    started = [row for row in rows if row.round.status != Round.Status.PAIRED]
    table = F.crosstable(players, library_games(t, rows=started))
    return {"header": table.grid()[0], "rows": table.grid()[1:]}


def _bracket(t: Tournament, rows: list[TournamentGame], names: dict[int, str]
             ) -> dict[str, Any]:
    bracket = knockout_state(t, rows)
    by_pair: dict[tuple[int, frozenset[int]], TournamentGame] = {}
    for row in rows:
        by_pair[(row.round.number, frozenset(row.seats()))] = row

    def match_dict(match: F.KnockoutMatch, third: bool = False) -> dict[str, Any]:
        seats = [s for s in (match.seat0, match.seat1) if s is not None]
        row = by_pair.get((match.round, frozenset(seats)))
        return {
            "round": match.round,
            "slot": match.slot,
            "seat0": names.get(match.seat0) if match.seat0 is not None else None,
            "seat1": names.get(match.seat1) if match.seat1 is not None else None,
            "winner": names.get(match.winner) if match.winner is not None else None,
            "bye": match.bye,
            "forfeit": match.forfeit,
            "third_place": third,
            "result": result_text(row) if row is not None and not match.bye else "",
            "url": f"/matches/{row.match_id}/" if row is not None and row.match_id else None,
        }

    return {
        "rounds": [[match_dict(m) for m in matches] for matches in bracket.rounds],
        "third_place": match_dict(bracket.third_place, True) if bracket.third_place else None,
        "champion": names.get(bracket.champion) if bracket.champion is not None else None,
    }
