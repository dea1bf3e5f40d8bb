"""Every existing match gets its seats (MatchSeat rows and the row's own copy of them),
its chance count, and its log's deals become chance events. Nothing is lost: the
reverse migration restores seat0/seat1 from the seats."""

from django.db import migrations


def forwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchSeat = apps.get_model("games", "MatchSeat")
    MatchEvent = apps.get_model("games", "MatchEvent")
    User = apps.get_model("auth", "User")
    names = dict(User.objects.values_list("id", "username"))
    deals = {}
    for match_id in MatchEvent.objects.filter(kind="deal").values_list("match_id", flat=True):
        deals[match_id] = deals.get(match_id, 0) + 1
    seats = []
    for match in Match.objects.all().iterator(chunk_size=2000):
        users = [match.seat0_id, match.seat1_id]
        balances = list(match.balances or [])
        for index, user_id in enumerate(users):
            rank = None
            if match.status == "finished" and match.winner is not None:
                rank = 1 if match.winner == index else 2
            score = balances[index] if index < len(balances) else None
            seats.append(MatchSeat(match_id=match.pk, index=index, user_id=user_id,
                                   rank=rank, score=score))
        Match.objects.filter(pk=match.pk).update(
            seat_count=2, seat_users=users, seat_names=[names[u] for u in users],
            chances=deals.get(match.pk, 0))
        if len(seats) >= 5000:
            MatchSeat.objects.bulk_create(seats)
            seats = []
    MatchSeat.objects.bulk_create(seats)
    MatchEvent.objects.filter(kind="deal").update(kind="chance")


def backwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchEvent = apps.get_model("games", "MatchEvent")
    for match in Match.objects.all().iterator(chunk_size=2000):
        users = list(match.seat_users)
        Match.objects.filter(pk=match.pk).update(seat0_id=users[0], seat1_id=users[-1])
    MatchEvent.objects.filter(kind="chance").update(kind="deal")


class Migration(migrations.Migration):
    dependencies = [("games", "0005_seats_and_tables")]

    operations = [migrations.RunPython(forwards, backwards)]
