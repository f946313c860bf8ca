"""What a table costs as its history grows, in one process (Flask's test client, SQLite).

Run: `make bench` or `.venv/bin/python bench/scale.py [--small 30] [--large 3000] [--runs 40]`.
Prints, for a table of ``--small`` hands and one of ``--large`` hands: the median of
the table page (edit link and view link) and of a hand POST (API), their ratio
(target: at most 2×), and the first table page of a freshly created app (a new
worker: empty caches) on the large table (target: under 300 ms).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.engine.tresillo import active_seats  # noqa: E402
from tests.engine.strategies import random_session  # noqa: E402


def median_ms(runs: int, call: Callable[[], None]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def won_entrada(seats: int, dealer: int) -> dict[str, Any]:
    """A plain won entrada of the first active seat (R9: 5-2-2)."""
    active = active_seats(seats, dealer)
    return {
        "jugador": active[0],
        "lance": "entrada",
        "trump": "oros",
        "tricks": {str(active[0]): 5, str(active[1]): 2, str(active[2]): 2},
    }


def make_app(instance: pathlib.Path) -> Any:
    from scorer.web import create_app

    return create_app({"INSTANCE_PATH": str(instance), "WTF_CSRF_ENABLED": False, "SECRET_KEY": "bench"})


def make_table(app: Any, hands: int, seed: int) -> tuple[str, str, int]:
    """A table of ``hands`` generated hands (4 players, no closing): edit token, view token, players."""
    from scorer import store

    session = random_session(random.Random(seed), hands, closing=False, players=4)
    session["name"] = f"Banco {hands}"
    with app.app_context():
        table = store.create_table(session)
        return table.edit_token, table.view_token, len(session["players"])


def paired(runs: int, small: Callable[[], None], large: Callable[[], None]) -> tuple[float, float]:
    """Medians (ms) of two calls timed in alternation, so both see the same load of the machine."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for call, out in ((small, times[0]), (large, times[1])):
            start = time.perf_counter()
            call()
            out.append(time.perf_counter() - start)
    return statistics.median(times[0]) * 1000, statistics.median(times[1]) * 1000


class Table:
    """One benchmark table and the calls timed on it."""

    def __init__(self, app: Any, token: str, view: str, seats: int) -> None:
        self.client = app.test_client()
        self.token, self.view, self.seats = token, view, seats
        ledger = self.client.get(f"/api/tables/{token}/ledger").get_json()
        self.dealer = int(ledger.get("next_dealer") or 1)
        for path in (f"/t/{token}", f"/t/{view}"):
            _ok(self.client.get(path))  # warm

    def page(self) -> None:
        _ok(self.client.get(f"/t/{self.token}"))

    def watch(self) -> None:
        _ok(self.client.get(f"/t/{self.view}"))

    def post(self) -> None:
        response = self.client.post(f"/api/tables/{self.token}/hands", json=won_entrada(self.seats, self.dealer))
        assert response.status_code == 201, response.get_data(as_text=True)
        self.dealer = self.dealer % self.seats + 1


def _ok(response: Any) -> None:
    assert response.status_code == 200, response.status_code


def cold_page(instance: pathlib.Path, token: str) -> float:
    """The first table page of a new app on an existing database (empty process caches)."""
    from scorer import store

    store.forget()
    app = make_app(instance)
    client = app.test_client()
    start = time.perf_counter()
    _ok(client.get(f"/t/{token}"))
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=30)
    parser.add_argument("--large", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        instance = pathlib.Path(tmp) / "instance"
        app = make_app(instance)
        small = make_table(app, args.small, 1)
        large = make_table(app, args.large, 2)
        a, b = Table(app, *small), Table(app, *large)
        a.post(), b.post()  # warm
        results = {key: paired(args.runs, getattr(a, key), getattr(b, key)) for key in ("page", "watch", "post")}
        cold = cold_page(instance, large[0])
    print(f"table cost by history (in-process, SQLite, median of {args.runs}, the two tables timed in alternation)")
    labels = {"page": "table page (edit link)", "watch": "table page (view link)", "post": "hand POST (API)"}
    for key, (s, big) in results.items():
        ratio = big / s
        verdict = "meets" if ratio <= 2 else "MISSES"
        print(
            f"  {labels[key]:<24} {args.small:>5} hands {s:7.2f} ms   {args.large:>5} hands {big:7.2f} ms"
            f"   ratio {ratio:4.2f} (target ≤ 2) — {verdict}"
        )
    verdict = "meets" if cold < 300 else "MISSES"
    print(f"  cold app, first table page of {args.large} hands: {cold:.1f} ms (target < 300 ms) — {verdict}")


if __name__ == "__main__":
    main()
