"""Applying rated results, and rebuilding ratings from the match history.

Live updates and rebuilds use the same pure module (``elo``) in the same order
(``Match.rating_seq``), so a rebuild gives exactly what the live updates gave.
"""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q

from games.models import Match, MatchSeat

from . import elo
from .models import Rating, RatingChange, RatingLedger


def counts(match: Match, ranks: list[int] | None) -> bool:
    """A finished rated match with a result, between distinct players, changes ratings."""
    users = list(match.seat_users)
    return (
        match.rated
        and match.status == Match.Status.FINISHED
        and ranks is not None
        and len(users) >= 2
        and len(set(users)) == len(users)
    )


def _lock_ledger() -> RatingLedger:
    RatingLedger.objects.get_or_create(pk=1)
    return RatingLedger.objects.select_for_update().get(pk=1)


def _state(row: Rating) -> elo.PlayerRating:
    return elo.PlayerRating(rating=row.rating, games=row.games, reached_2400=row.reached_2400)


def apply_match(match: Match, ranks: list[int] | None) -> list[RatingChange]:
    """Rate one finished match now (inside the writer's transaction), from its final ranks:
    Elo for two players, pairwise Elo for more (``elo.update_ranked``)."""
    if not counts(match, ranks) or match.rating_seq is not None:
        return []
    assert ranks is not None
    ledger = _lock_ledger()
    ledger.last_seq += 1
    ledger.save(update_fields=["last_seq"])
    seq = ledger.last_seq
    rows = []
    for user_id in match.seat_users:
        Rating.objects.get_or_create(user_id=user_id, game=match.game)
        rows.append(Rating.objects.select_for_update().get(user_id=user_id, game=match.game))
    afters = elo.update_ranked([_state(row) for row in rows], ranks)
    changes = []
    for seat, (row, after) in enumerate(zip(rows, afters, strict=True)):
        won = ranks[seat] == 1
        changes.append(RatingChange(
            match=match, user_id=row.user_id, game=match.game, seq=seq, before=row.rating,
            after=after.rating, games_after=after.games, reached_2400_after=after.reached_2400,
            won=won))
        row.rating, row.games, row.reached_2400 = after.rating, after.games, after.reached_2400
        row.wins += int(won)
        row.save()
    RatingChange.objects.bulk_create(changes)
    match.rating_seq = seq
    Match.objects.filter(pk=match.pk).update(rating_seq=seq)
    return changes


def rating_changes_of(match: Match) -> list[dict[str, Any]]:
    return [
        {"user": change.user.username, "before": change.before, "after": change.after,
         "delta": change.delta}
        for change in RatingChange.objects.filter(match=match).select_related("user")
        .order_by("pk")
    ]


def _counted_matches(seq: int) -> list[tuple[Any, int, str, tuple[int, ...], tuple[int, ...]]]:
    """(pk, rating_seq, game, players, ranks) of every match that still counts from ``seq``
    on, in rating order: one query over the seats."""
    rows: list[tuple[Any, int, str, tuple[int, ...], tuple[int, ...]]] = []
    seats = (MatchSeat.objects
             .filter(match__rated=True, match__status=Match.Status.FINISHED,
                     match__rating_seq__gte=max(seq, 1), rank__isnull=False)
             .order_by("match__rating_seq", "index")
             .values_list("match_id", "match__rating_seq", "match__game", "user_id", "rank"))
    for match_id, match_seq, game, user_id, rank in seats.iterator(chunk_size=10000):
        if rows and rows[-1][0] == match_id:
            pk, s, g, players, ranks = rows[-1]
            rows[-1] = (pk, s, g, (*players, user_id), (*ranks, rank))
        else:
            rows.append((match_id, match_seq, game, (user_id,), (rank,)))
    return rows


@transaction.atomic
def rebuild_from(seq: int = 0) -> int:
    """Rebuild every rating change from rated match ``seq`` on; returns matches replayed.

    Ratings before ``seq`` stand; from there on, the counted matches are replayed in
    their order. ``seq=0`` rebuilds everything (``manage.py recompute_ratings``).
    """
    _lock_ledger()
    later = RatingChange.objects.filter(seq__gte=seq)
    affected: set[elo.RatingKey] = set()
    if seq == 0 and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # Deferred foreign-key checks of this transaction must run before a TRUNCATE.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {RatingChange._meta.db_table}")
    else:
        affected = set(later.values_list("game", "user_id"))
        later.delete()
    initial: dict[elo.RatingKey, elo.PlayerRating] = {}
    wins: dict[elo.RatingKey, int] = {}
    if seq > 0:
        # Each player's state as of just before ``seq``: their last change before it.
        for change in (RatingChange.objects.filter(seq__lt=seq)
                       .order_by("user_id", "game", "-seq")
                       .distinct("user_id", "game") if _supports_distinct_on()
                       else _last_changes_before(seq)):
            initial[(change.game, change.user_id)] = elo.PlayerRating(
                rating=change.after, games=change.games_after,
                reached_2400=change.reached_2400_after)
        for user_id, game, count in _wins_before(seq):
            wins[(game, user_id)] = count
    still_counts = Q(rated=True, status=Match.Status.FINISHED)
    # Matches that no longer count (annulled) lose their place in the order.
    Match.objects.filter(rating_seq__gte=max(seq, 1)).exclude(still_counts).update(
        rating_seq=None)
    rows = _counted_matches(seq)
    outcomes = [elo.RankedOutcome(game, players, ranks)
                for (_pk, _seq, game, players, ranks) in rows]
    states, changes = elo.recompute_ranked(outcomes, initial=initial)
    new_rows: list[tuple[Any, ...]] = []
    for change in changes:
        pk, match_seq, _game, _players, ranks = rows[change.index]
        for user_id, before, after, rank in zip(change.players, change.before, change.after,
                                                 ranks, strict=True):
            won = rank == 1
            new_rows.append((pk, user_id, change.game, match_seq, before.rating, after.rating,
                             after.games, after.reached_2400, won))
            if won:
                wins[(change.game, user_id)] = wins.get((change.game, user_id), 0) + 1
    _insert_changes(new_rows)
    _write_ratings(states, wins, reset=None if seq == 0 else affected)
    return len(rows)


CHANGE_COLUMNS = ("match_id", "user_id", "game", "seq", "before", "after", "games_after",
                  "reached_2400_after", "won")


def _insert_changes(rows: list[tuple[Any, ...]]) -> None:
    """Insert rating changes: COPY on PostgreSQL (a rebuild writes hundreds of thousands)."""
    if connection.vendor == "postgresql":
        columns = ", ".join(CHANGE_COLUMNS)
        with connection.cursor() as cursor:
            raw = cursor.cursor
            with raw.copy(f"COPY {RatingChange._meta.db_table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        return
    RatingChange.objects.bulk_create(
        [RatingChange(**dict(zip(CHANGE_COLUMNS, row, strict=True))) for row in rows],
        batch_size=2000)


def _write_ratings(states: dict[elo.RatingKey, elo.PlayerRating],
                   wins: dict[elo.RatingKey, int], reset: set[elo.RatingKey] | None) -> None:
    """Store the rebuilt states; rows in ``reset`` (None: all) without a state start over."""
    existing = {(r.game, r.user_id): r for r in Rating.objects.all()}
    to_update, to_create = [], []
    for key, row in existing.items():
        state = states.get(key)
        if state is None:
            if reset is not None and key not in reset:
                continue
            state = elo.PlayerRating()
        row.rating, row.games, row.reached_2400 = state.rating, state.games, state.reached_2400
        row.wins = wins.get(key, 0)
        to_update.append(row)
    for key, state in states.items():
        if key not in existing:
            to_create.append(Rating(user_id=key[1], game=key[0], rating=state.rating,
                                    games=state.games, reached_2400=state.reached_2400,
                                    wins=wins.get(key, 0)))
    if connection.vendor == "postgresql":
        # One prepared UPDATE sent in a pipeline: far faster than bulk_update's CASE.
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {Rating._meta.db_table} SET rating = %s, games = %s, "
                "reached_2400 = %s, wins = %s WHERE id = %s",
                [(r.rating, r.games, r.reached_2400, r.wins, r.pk) for r in to_update])
    else:
        Rating.objects.bulk_update(to_update, ["rating", "games", "reached_2400", "wins"],
                                   batch_size=500)
    Rating.objects.bulk_create(to_create, batch_size=5000)


def _supports_distinct_on() -> bool:

    return bool(connection.features.can_distinct_on_fields)


def _last_changes_before(seq: int) -> list[RatingChange]:
    latest: dict[tuple[int, str], RatingChange] = {}
    for change in RatingChange.objects.filter(seq__lt=seq).order_by("seq"):
        latest[(change.user_id, change.game)] = change
    return list(latest.values())


def _wins_before(seq: int) -> list[tuple[int, str, int]]:

    return [
        (row["user_id"], row["game"], row["n"])
        for row in RatingChange.objects.filter(seq__lt=seq, won=True)
        .values("user_id", "game").annotate(n=Count("id"))
    ]


def snapshot() -> dict[tuple[int, str], tuple[int, int, bool, int]]:
    """Every rating as (rating, games, reached_2400, wins): to compare live and rebuilt."""
    return {(r.user_id, r.game): (r.rating, r.games, r.reached_2400, r.wins)
            for r in Rating.objects.all()}


def changes_snapshot() -> list[tuple[int, int, int, int, int]]:
    return list(RatingChange.objects.order_by("seq", "user_id")
                .values_list("seq", "match_id", "user_id", "before", "after"))
