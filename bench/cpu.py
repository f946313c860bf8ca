"""CPU time per request of the pages a table shows most, in one process (Flask's test client, SQLite).

Run: `.venv/bin/python bench/cpu.py [--hands 300 3000] [--runs 25] [--profile NAME]`.

Wall time on a shared machine mostly measures the wait for a core; the CPU time a request
costs (`time.process_time`) does not, so it is the fair comparison between two versions of
the code run on a loaded machine ("no page, POST or PDF slower than before the
move"). The script uses only what every version since the move offers (`create_app`,
`store.create_table` and the URLs), so a copy of it can be run in an older tree to
compare. For each table size it prints the CPU ms of: the table page (edit link and view link),
the hand list (page 1), the ledger API and a hand POST, as the median and the lowest of
``--runs`` requests (on a shared virtual machine the lowest is the steadiest figure: the median
swings by a third from one run to the next while the machine's other guests come and go). ``--profile NAME``
prints the cProfile of one of them (table, view, list, ledger, post) on the largest table.

``--instructions`` runs the same requests under Valgrind's callgrind and prints the machine
instructions each request costs: the same figure on an idle or a saturated machine, the steadiest
comparison between two versions (about 5 minutes; needs `valgrind`). The process marks the start
and end of each group of requests by calling ``getppid`` (``--dump-before=getppid``).
"""

from __future__ import annotations

import argparse
import cProfile
import pathlib
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import callgrind  # noqa: E402
from bench.scale import won_entrada  # noqa: E402  # the same hand as the other benches
from tests.engine.strategies import random_session  # noqa: E402


def cpu_ms(runs: int, call: Callable[[], None]) -> float:
    """Median CPU milliseconds of ``call`` over ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def ok(response: Any, status: int = 200) -> None:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])


def calls(app: Any, hands: int, seed: int) -> dict[str, Callable[[], None]]:
    """The timed requests on a new table of ``hands`` generated hands (warmed once each)."""
    from scorer import store

    session = random_session(random.Random(seed), hands, closing=False, players=4)
    session["name"] = f"Banco {hands}"
    with app.app_context():
        table = store.create_table(session)
        token, view = table.edit_token, table.view_token
    client = app.test_client()
    ledger = client.get(f"/api/tables/{token}/ledger").get_json()
    dealer = [int(ledger.get("next_dealer") or 1)]

    def post() -> None:
        ok(client.post(f"/api/tables/{token}/hands", json=won_entrada(4, dealer[0])), 201)
        dealer[0] = dealer[0] % 4 + 1

    result: dict[str, Callable[[], None]] = {
        "table": lambda: ok(client.get(f"/t/{token}")),
        "view": lambda: ok(client.get(f"/t/{view}")),
        "list": lambda: ok(client.get(f"/t/{token}/manos")),
        "ledger": lambda: ok(client.get(f"/api/tables/{token}/ledger")),
        "post": post,
    }
    for call in result.values():
        call()  # warm
    return result


LABELS = {
    "table": "table page (edit link)",
    "view": "table page (view link)",
    "list": "hand list, page 1",
    "ledger": "ledger API",
    "post": "hand POST (API)",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[300, 3000])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--profile", choices=sorted(LABELS))
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    parser.add_argument("--marked", action="store_true", help=argparse.SUPPRESS)  # the run under callgrind
    args = parser.parse_args()
    if args.instructions:
        instructions(args)
        return
    from scorer.web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"INSTANCE_PATH": str(pathlib.Path(tmp) / "instance"), "WTF_CSRF_ENABLED": False, "SECRET_KEY": "bench"}
        )
        tables = {n: calls(app, n, i + 1) for i, n in enumerate(args.hands)}
        if args.profile:
            call = tables[max(args.hands)][args.profile]
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(args.runs):
                call()
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
            return
        if args.marked:  # under callgrind: a dump before each group of requests and after the last
            for key in LABELS:
                for n in args.hands:
                    callgrind.mark()
                    for _ in range(args.runs):
                        tables[n][key]()
            callgrind.mark()
            return
        # The sizes are timed in alternation, request by request, so that both see the same machine.
        results: dict[str, dict[int, tuple[float, float]]] = {key: {} for key in LABELS}
        for key in LABELS:
            times: dict[int, list[float]] = {n: [] for n in args.hands}
            for _ in range(args.runs):
                for n in args.hands:
                    start = time.process_time()
                    tables[n][key]()
                    times[n].append(time.process_time() - start)
            for n in args.hands:
                results[key][n] = (statistics.median(times[n]) * 1000, min(times[n]) * 1000)
    print(f"CPU ms per request (in-process, SQLite, {args.runs} requests: median / lowest); tree {ROOT.name}")
    print(f"  {'':<26}" + "".join(f"{n:>10} hands  " for n in args.hands))
    for key, label in LABELS.items():
        print(f"  {label:<26}" + "".join(f"{results[key][n][0]:>8.2f} /{results[key][n][1]:>6.2f}" for n in args.hands))


def instructions(args: argparse.Namespace) -> None:
    """Run the requests under callgrind and print the instructions per request of each group."""
    groups = [(key, n) for key in LABELS for n in args.hands]
    argv = ["--runs", str(args.runs), "--hands", *map(str, args.hands)]
    found = callgrind.counts(__file__, argv, len(groups))
    per = {group: count / args.runs / 1e6 for group, count in zip(groups, found, strict=True)}
    print(f"Million instructions per request (callgrind, {args.runs} requests each); tree {ROOT.name}")
    print(f"  {'':<26}" + "".join(f"{n:>10} hands" for n in args.hands))
    for key, label in LABELS.items():
        print(f"  {label:<26}" + "".join(f"{per[key, n]:>16.1f}" for n in args.hands))


if __name__ == "__main__":
    main()
