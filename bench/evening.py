"""Benchmark of the evening's by-person views: what a page, the CSV and the sheet add over the engine.

Run: `.venv/bin/python bench/evening.py`. Builds sessions of 1,000 and 5,000 entries (the real
evening's hands, ajuste and change of player repeated, Diego and Elena taking turns at seat 4),
settles them once, then prints the best of 5 wall times of: the table page's view-model
(``scorer.web.tables.present.table_view`` with balances by person), the people series (``scorer.evening``), the
CSV export and the sheet's context. Costs should grow linearly with the entries.
"""

from __future__ import annotations

import copy
import json
import pathlib
import sys
import time
from collections.abc import Callable
from typing import Any

from scorer.web.tables import present as table_present

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer import evening  # noqa: E402
from scorer.engine import settle  # noqa: E402
from scorer.games.exports import hands_csv  # noqa: E402
from scorer.sheet.context import sheet_context  # noqa: E402

EXAMPLE = ROOT / "tests" / "data" / "examples" / "real_evening.json"


def session_of(entries: int) -> dict[str, Any]:
    base = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    body = [*base["hands"][:9], {"pass": True}]  # 8 deals: the next block is dealt by the same seats
    hands: list[dict[str, Any]] = []
    back = True
    while len(hands) < entries:
        for hand in body:
            hand = copy.deepcopy(hand)
            hand.pop("dealer", None)
            if "sienta" in hand:
                hand["sienta"]["player"] = "Diego" if not back else "Elena"
                back = not back
            hands.append(hand)
    session = dict(base, hands=hands[:entries], tanto_value="0.05")
    return session


def best(work: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(entries: int) -> None:
    session = session_of(entries)
    ledger = settle(session)
    players, hands, rows = session["players"], session["hands"], ledger["hands"]
    figures = {
        "table_view": best(lambda: table_present.table_view(session, ledger)),
        "people_series": best(lambda: evening.people_series(players, rows, hands)),
        "csv": best(lambda: hands_csv(players, hands, ledger, session)),
        "sheet_context": best(lambda: sheet_context(session, ledger)),
    }
    shown = ", ".join(f"{name} {seconds * 1000:.1f} ms" for name, seconds in figures.items())
    print(f"{entries} entries ({len(ledger['people'])} people): {shown}")


def main() -> None:
    for entries in (1_000, 5_000):
        measure(entries)


if __name__ == "__main__":
    main()
