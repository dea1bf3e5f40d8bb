"""Scale-out under faults: nginx routes by match id to three daphnes; one is killed -9.

A short ``bench.live --via nginx --kill-one``: 20 matches for 30 s, the bots over nginx,
one daphne killed halfway and restarted. Its clients reconnect through nginx to the other
two and resync; no acknowledged move may be lost, every affected match must play again
within 2 s, and the flags that fall after the kill must still be on time.
"""

from __future__ import annotations

import pytest

from bench.stack import nginx_binary
from tests.bench.running import bench_database, run_bench
from tests.conftest import need

pytestmark = [pytest.mark.services]

MATCHES = 20
FLAG_MATCHES = 4


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
