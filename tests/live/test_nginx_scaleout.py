"""Scale-out under faults: nginx routes by match id to three daphnes; one is killed -9.

A short ``bench.live --via nginx --kill-one``: 20 matches for 30 s, the bots over nginx,
one daphne killed halfway and restarted. Its clients reconnect through nginx to the other
two and resync; no acknowledged move may be lost, every affected match must play again
within 2 s, and the flags that fall after the kill must still be on time. Before it, without
a proxy: a client whose daphne is killed reopens its socket once the process is back.
"""

from __future__ import annotations

import asyncio

import pytest

from bench.stack import nginx_binary
from games.models import MatchEvent
from games.play.services import do_create_match
from tests.bench.running import bench_database, run_bench
from tests.conftest import need

from .helpers import connect, make_player, play_until

pytestmark = [pytest.mark.services]

MATCHES = 20
FLAG_MATCHES = 4


@pytest.mark.django_db(transaction=True)
def test_clients_reopen_their_sockets_and_resync_when_their_daphne_is_killed(live_stack) -> None:
    alice, alice_token = make_player("alice")
    bob, bob_token = make_player("bob")
    match = do_create_match(alice, bob, rated=False)

    def restart() -> None:
        live_stack.start_web_process(0)
        live_stack.wait_url(live_stack.urls[0])

    async def play() -> tuple[int, list[dict], list[object]]:
        a = connect(live_stack.urls[0], alice_token, str(match.pk))
        b = connect(live_stack.urls[0], bob_token, str(match.pk))
        await a.connect()
        await b.connect()
        try:
            await asyncio.gather(play_until(a, lambda _: a.version >= 3),
                                 play_until(b, lambda _: b.version >= 3))
            before = a.version
            # Killed while both are connected; they keep trying until it is back.
            await asyncio.to_thread(live_stack.kill, "web0")
            views = await asyncio.gather(play_until(a, lambda _: a.version >= before + 4),
                                         play_until(b, lambda _: b.version >= before + 4),
                                         asyncio.to_thread(restart))
            return before, list(views[:2]), [a, b]
        finally:
            await a.close()
            await b.close()

    before, views, clients = asyncio.run(play())
    for client in clients:
        assert client.connects == 2  # type: ignore[attr-defined]
        assert len(client.outages) == 1  # type: ignore[attr-defined]
    match.refresh_from_db()
    assert match.version >= before + 4
    assert MatchEvent.objects.filter(match=match).count() == match.version
    assert views[0]["balances"] == views[1]["balances"]


def test_a_daphne_killed_behind_nginx_loses_no_move_and_its_matches_play_on() -> None:
    need(nginx_binary(), "needs nginx (Debian's package `nginx`; `.ci/run` installs it)")
    with bench_database("nginx") as url:
        run = run_bench("bench.live", "--via", "nginx", "--kill-one",
                        "--matches", str(MATCHES), "--seconds", "30",
                        "--flag-matches", str(FLAG_MATCHES), "--ramp", "2",
                        env={"DATABASE_URL": url}, timeout=180)
    assert run.returncode == 0, run.output
    figures = run.figures
    print(run.output)
    # About a third of the matches were on the killed process (the hash ring's share).
    assert 0 < figures["affected_matches"] < MATCHES, run.output
    assert figures["unrecovered_matches"] == 0, run.output
    assert figures["acknowledged_moves_lost"] == 0, run.output
    assert figures["unpersisted_moves"] == 0, run.output
    assert figures["lost_moves"] == 0, run.output
    assert figures["errors"] == 0, run.output
    assert figures["recovery_max_ms"] < 2000, run.output
    # Each player of each flag match saw its flag; some fell after the kill, on time.
    assert figures["flags"] == 2 * FLAG_MATCHES, run.output
    assert figures["flags_after_kill"] > 0, run.output
    assert figures["flag_p99_ms"] < 1000, run.output
