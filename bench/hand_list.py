"""Benchmark of the full list of hands (`GET /t/<token>/manos`) on a long table.

Run: `.venv/bin/python bench/hand_list.py [--hands 3000] [--runs 30]`.
Creates a table of generated hands in a temporary instance (SQLite) and times, in
process (Flask's test client, the ledger already computed once), the first page,
the last page, a page filtered by player and by result, and the table page for
comparison. Prints the median and the 95th percentile of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.engine.strategies import random_session  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()

    from scorer import store
    from scorer.web import create_app

    folder = pathlib.Path(tempfile.mkdtemp(prefix="cartulina-bench-"))
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "INSTANCE_PATH": str(folder / "instance"),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.db'}",
        }
    )
    session = random_session(random.Random(20261201), args.hands, closing=False)
    with app.app_context():
        token = store.create_table(session).edit_token
    client = app.test_client()
    pages = {
        "table page": f"/t/{token}",
        "hand list, page 1": f"/t/{token}/manos",
        "hand list, last page": f"/t/{token}/manos?pagina=9999",
        "hand list, one player's codillos": f"/t/{token}/manos?jugador=2&resultado=codillo",
    }
    print(f"{args.hands} hands, {args.runs} runs each (ms)")
    for label, url in pages.items():
        assert client.get(url).status_code == 200  # warm: the ledger is computed once and cached
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
        times.sort()
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(f"{label:36} median {statistics.median(times):7.1f}   p95 {p95:7.1f}")


if __name__ == "__main__":
    main()
