"""Benchmark of the settlement engine: whole-process `scorer settle` and hands per second.

Run: `make bench` or `.venv/bin/python bench/engine.py`. Prints, for generated
random sessions of 1,000 and 10,000 hands (4 players, varied house rules):
the median wall time of the whole `scorer settle FILE` process over 5 runs, and
the engine alone (best of 5) in hands per second; then, in the same run and
alternating with it, the whole process of the plain implementation of the rules
(tests/engine/oracle_tresillo.py: read the session, settle, print its ledger) on the
10,000 hands, and the two settlements alone in this process (alternating, median of 5).
Targets: under 0.35 s for the whole process at 10,000 hands, and at most 0.85× the plain
implementation, both as whole processes and in this process (the explanation of each transfer is
written when the ledger is read or written, not while settling: scorer/engine/details.py).
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.engine import settle  # noqa: E402
from tests.engine.strategies import random_session  # noqa: E402

SCORER = pathlib.Path(sys.executable).with_name("scorer")


def whole_process(path: pathlib.Path, runs: int = 5) -> float:
    """Median seconds of `scorer settle FILE` with its output discarded."""
    command = (
        [str(SCORER), "settle", str(path)] if SCORER.exists() else [sys.executable, "-m", "scorer", "settle", str(path)]
    )
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


PLAIN = (
    "import json, sys\n"
    "from tests.engine.oracle_tresillo import settle\n"
    "with open(sys.argv[1], encoding='utf-8') as f:\n"
    "    session = json.load(f)\n"
    "sys.stdout.write(json.dumps(settle(session), separators=(',', ':')) + '\\n')\n"
)


def side_by_side(path: pathlib.Path, runs: int = 5) -> tuple[float, float]:
    """Medians of `scorer settle FILE` and of the plain implementation's process, run in alternation."""
    ours = (
        [str(SCORER), "settle", str(path)] if SCORER.exists() else [sys.executable, "-m", "scorer", "settle", str(path)]
    )
    plain = [sys.executable, "-c", PLAIN, str(path)]
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for command, out in ((ours, times[0]), (plain, times[1])):
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
            out.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def in_process(session: dict[str, object], runs: int = 5) -> tuple[float, float]:
    """Medians of settle() and of the plain implementation's settle() in this process, alternating."""
    from tests.engine.oracle_tresillo import settle as plain_settle

    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for run, out in ((settle, times[0]), (plain_settle, times[1])):
            start = time.perf_counter()
            run(session)
            out.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def engine_only(session: dict[str, object], runs: int = 5) -> float:
    """Best seconds of settle() in this process (of 5)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        settle(session)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    rng = random.Random(20261129)
    print("engine benchmark (scorer settle on generated random sessions)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for hands in (1_000, 10_000):
            session = random_session(rng, hands)
            path = pathlib.Path(tmp) / f"session-{hands}.json"
            path.write_text(json.dumps(session), encoding="utf-8")
            process = whole_process(path)
            engine = engine_only(session)
            size = len(
                subprocess.run([sys.executable, "-m", "scorer", "settle", str(path)], capture_output=True).stdout
            )
            rows.append((hands, process, engine))
            print(
                f"  {hands:>6} hands: whole process {process * 1000:7.1f} ms (median of 5), "
                f"engine alone {engine * 1000:7.1f} ms = {hands / engine:,.0f} hands/s, ledger {size / 1e6:.1f} MB"
            )
        (small, p1, e1), (large, p2, e2) = rows
        ours, plain = side_by_side(pathlib.Path(tmp) / f"session-{large}.json")
        alone, plain_alone = in_process(session)
    print(
        f"  growth 1k→10k: engine ×{e2 / e1:.1f}, whole process ×{p2 / p1:.1f} (linear would be ×{large / small:.0f})"
    )
    verdict = "meets" if p2 < 0.35 else "MISSES"
    print(f"  target: whole process under 0.35 s at 10,000 hands — {verdict} ({p2:.3f} s)")
    verdict = "meets" if ours <= 0.85 * plain else "MISSES"
    print(
        f"  side by side, 10,000 hands, whole process (median of 5, alternating): scorer settle {ours:.3f} s, "
        f"plain implementation (tests/engine/oracle_tresillo.py) {plain:.3f} s — ×{ours / plain:.2f}, "
        f"target ≤ ×0.85 — {verdict}"
    )
    verdict = "meets" if alone <= 0.85 * plain_alone else "MISSES"
    print(
        f"  side by side, 10,000 hands, settlement alone in this process (median of 5, alternating): "
        f"settle() {alone:.3f} s, plain settle() {plain_alone:.3f} s — ×{alone / plain_alone:.2f}, "
        f"target ≤ ×0.85 — {verdict}"
    )
    print(f"  (load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}: the machine is shared)")


if __name__ == "__main__":
    main()
