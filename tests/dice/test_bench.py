"""The dice bench runs at a tiny size (purity and typing: tests/conformance/test_purity.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_at_a_tiny_size() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.dice", "--games", "5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    figures = dict(line.split(": ") for line in done.stdout.splitlines())
    assert int(figures["decisions"]) == 25
    assert float(figures["decisions_per_second"]) > 0
    assert 0 < float(figures["mean_total"]) < 5 * 150
