"""The table page right after a hand is saved (what every phone loads next), as history grows.

Run: `make bench` or `.venv/bin/python bench/after_write.py [--small 30] [--large 3000] [--rounds 5] [--runs 10]`.
In one process (Flask's test client, SQLite): a table of ``--small`` hands and one of ``--large``
hands; each step saves one hand (API POST) on a table and then opens its table page (edit link),
the two tables in alternation, ``--runs`` steps per round for ``--rounds`` rounds. Prints, per
round and over all, the median of the page after the write and of the write plus the page, and the
ratio large/small of the page after the write (target: at most 1.5×; a page read twice stays flat).
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scale import Table, make_app, make_table  # noqa: E402

TARGET = 1.5


def step(table: Table) -> tuple[float, float]:
    """Save a hand, then open the table page: seconds of the page and of both."""
    start = time.perf_counter()
    table.post()
    saved = time.perf_counter()
    table.page()
    end = time.perf_counter()
    return end - saved, end - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=30)
    parser.add_argument("--large", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    pages: tuple[list[float], list[float]] = ([], [])
    both: tuple[list[float], list[float]] = ([], [])
    print(
        f"table page after a write (in-process, SQLite; save a hand, then open the page; "
        f"{args.small} and {args.large} hands in alternation, {args.rounds} rounds of {args.runs})"
    )
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(pathlib.Path(tmp) / "instance")
        tables = (Table(app, *make_table(app, args.small, 1)), Table(app, *make_table(app, args.large, 2)))
        for table in tables:
            step(table)  # warm
        for number in range(1, args.rounds + 1):
            round_pages: tuple[list[float], list[float]] = ([], [])
            for _ in range(args.runs):
                for i, table in enumerate(tables):
                    page, total = step(table)
                    round_pages[i].append(page)
                    pages[i].append(page)
                    both[i].append(total)
            s, big = (statistics.median(t) * 1000 for t in round_pages)
            print(f"  round {number}: page after write {s:7.2f} ms / {big:7.2f} ms   ratio {big / s:4.2f}")
    s, big = (statistics.median(t) * 1000 for t in pages)
    ws, wbig = (statistics.median(t) * 1000 for t in both)
    ratio = big / s
    verdict = "meets" if ratio <= TARGET else "MISSES"
    print(f"  write + page           {args.small:>5} hands {ws:7.2f} ms   {args.large:>5} hands {wbig:7.2f} ms")
    print(
        f"  page after write       {args.small:>5} hands {s:7.2f} ms   {args.large:>5} hands {big:7.2f} ms"
        f"   ratio {ratio:4.2f} (target ≤ {TARGET}) — {verdict}"
    )


if __name__ == "__main__":
    main()
