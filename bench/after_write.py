"""The table page right after a hand is saved (what every phone loads next), as history grows.

Run: `make bench` or `.venv/bin/python bench/after_write.py [--small 30] [--large 3000] [--rounds 5] [--runs 10]`.
In one process (Flask's test client, SQLite): a table of ``--small`` hands and one of ``--large``
hands; each step saves one hand (API POST) on a table and then opens its table page (edit link),
the two tables in alternation, ``--runs`` steps per round for ``--rounds`` rounds. Prints, per
round and over all, the median of the page after the write and of the write plus the page, and the
ratio large/small of the page after the write (target: at most 1.5×; a page read twice stays flat).
Each figure is given twice: wall time, and this process's CPU time (``time.process_time``), which a
busy machine disturbs far less (the verdict is on CPU time; both are printed).

``--instructions`` runs the same steps under Valgrind's callgrind and counts the machine
instructions of each page after a write (the saves are counted apart and left out): the same
figure on an idle or a saturated machine, so the ratio does not swing with the machine's other
guests (about 2 minutes; needs `valgrind`). The verdict is then on the median instructions.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import callgrind  # noqa: E402
from bench.scale import Table, make_app, make_table  # noqa: E402

TARGET = 1.5


def step(table: Table) -> tuple[float, float, float, float]:
    """Save a hand, then open the table page: seconds of the page and of both, wall and CPU."""
    start, cpu_start = time.perf_counter(), time.process_time()
    table.post()
    saved, cpu_saved = time.perf_counter(), time.process_time()
    table.page()
    end, cpu_end = time.perf_counter(), time.process_time()
    return end - saved, end - start, cpu_end - cpu_saved, cpu_end - cpu_start


def medians(times: tuple[list[float], list[float]]) -> tuple[float, float]:
    """Medians in milliseconds of the small and the large table."""
    small, large = (statistics.median(t) * 1000 for t in times)
    return small, large


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=30)
    parser.add_argument("--large", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    parser.add_argument("--marked", action="store_true", help=argparse.SUPPRESS)  # the run under callgrind
    args = parser.parse_args()
    if args.instructions:
        instructions(args)
        return
    if args.marked:
        marked(args)
        return
    figures = {name: ([], []) for name in ("page", "both", "page_cpu", "both_cpu")}
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
            page_round: tuple[list[float], list[float]] = ([], [])
            cpu_round: tuple[list[float], list[float]] = ([], [])
            for _ in range(args.runs):
                for i, table in enumerate(tables):
                    page, both, page_cpu, both_cpu = step(table)
                    for name, value in zip(figures, (page, both, page_cpu, both_cpu), strict=True):
                        figures[name][i].append(value)
                    page_round[i].append(page)
                    cpu_round[i].append(page_cpu)
            (s, big), (cs, cbig) = medians(page_round), medians(cpu_round)
            print(
                f"  round {number}: page after write {s:7.2f} ms / {big:7.2f} ms   ratio {big / s:4.2f}"
                f"   CPU {cs:7.2f} ms / {cbig:7.2f} ms   ratio {cbig / cs:4.2f}"
            )
    for name, label in (("both", "write + page"), ("page", "page after write")):
        (s, big), (cs, cbig) = medians(figures[name]), medians(figures[f"{name}_cpu"])
        line = (
            f"  {label:<22} {args.small:>5} hands {s:7.2f} ms   {args.large:>5} hands {big:7.2f} ms"
            f"   ratio {big / s:4.2f}"
            f"   CPU {cs:7.2f} ms / {cbig:7.2f} ms   ratio {cbig / cs:4.2f}"
        )
        if name == "page":
            verdict = "meets" if cbig / cs <= TARGET else "MISSES"
            line += f" (target ≤ {TARGET}, on CPU) — {verdict}"
        print(line)
    print(f"  (load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}: the machine is shared)")


def marked(args: argparse.Namespace) -> None:
    """Under callgrind: the same alternation of steps, a dump before each save and before each page."""
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(pathlib.Path(tmp) / "instance")
        tables = (Table(app, *make_table(app, args.small, 1)), Table(app, *make_table(app, args.large, 2)))
        for table in tables:
            step(table)  # warm
        for _ in range(args.rounds * args.runs):
            for table in tables:
                callgrind.mark()
                table.post()
                callgrind.mark()
                table.page()
        callgrind.mark()


def instructions(args: argparse.Namespace) -> None:
    """Run the steps under callgrind and print the instructions of the page after a write, per size."""
    steps = args.rounds * args.runs
    argv = [f"--{name}={getattr(args, name)}" for name in ("small", "large", "rounds", "runs")]
    found = callgrind.counts(__file__, argv, steps * 4)
    pages = found[1::2]  # save, page, save, page …: the pages
    small, large = (statistics.median(pages[i::2]) / 1e6 for i in (0, 1))
    saves = found[0::2]
    save_small, save_large = (statistics.median(saves[i::2]) / 1e6 for i in (0, 1))
    print(f"Million instructions (callgrind, median of {steps} steps per size)")
    print(f"  save (API POST)        {args.small:>5} hands {save_small:7.2f}   {args.large:>5} hands {save_large:7.2f}")
    verdict = "meets" if large / small <= TARGET else "MISSES"
    print(
        f"  page after write       {args.small:>5} hands {small:7.2f}   {args.large:>5} hands {large:7.2f}"
        f"   ratio {large / small:4.2f} (target ≤ {TARGET}) — {verdict}"
    )


if __name__ == "__main__":
    main()
