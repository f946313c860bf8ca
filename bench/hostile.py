"""Figures for hostile input: a large import, and the PDF with the longest names allowed.

    .venv/bin/python bench/hostile.py [--hands 10000] [--big 20000] [--url postgresql+psycopg://…]

Prints the time of a 10,000-hand import through the services (one bulk insert; target
under 2 s), of the largest import allowed (``limits.HANDS_MAX``, to show that N keeps a
request under a couple of seconds of write lock), how long the write lock was held, and
the PDF of a 200-hand table whose four names are 40 characters long, rendered in this
process and in the time-limited child process the web app uses.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.sheet import random_session
from scorer import limits, store
from scorer.engine import settle
from scorer.sheet.build import render_pdf, render_pdf_within


def _names(session: dict[str, Any]) -> dict[str, Any]:
    forty = [(n * 3)[: limits.NAME_MAX] for n in ("Ana María Fernández ", "Benito Pérez Galdós ", "Carmen ", "Diego ")]
    session = dict(session)
    session["players"] = forty
    return session


def time_import(folder: pathlib.Path, hands: int, seed: int, url: str | None = None) -> tuple[float, float, int]:
    """(seconds of the whole import, seconds the write lock was held, hands stored)."""
    from sqlalchemy import event

    from scorer.store.db import db
    from scorer.web import create_app

    config: dict[str, Any] = {"INSTANCE_PATH": str(folder), "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False}
    if url:
        config["SQLALCHEMY_DATABASE_URI"] = url
    app = create_app(config)
    text = json.dumps(random_session(random.Random(seed), hands))
    with app.app_context():
        marks: dict[str, float] = {}

        def first_write(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if statement.lstrip().upper().startswith("INSERT") and "lock" not in marks:
                marks["lock"] = time.perf_counter()

        def commit(_conn: Any) -> None:
            marks["commit"] = time.perf_counter()

        event.listen(db.engine, "before_cursor_execute", first_write)
        event.listen(db.engine, "commit", commit)
        start = time.perf_counter()
        table = store.import_session(text)
        total = time.perf_counter() - start
        held = marks["commit"] - marks["lock"]
        stored = len(store.read(table).session_copy()["hands"])
        db.session.remove()
        db.engine.dispose()
    return total, held, stored


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--big", type=int, default=limits.HANDS_MAX)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--url", help="a database URL (PostgreSQL) instead of a fresh SQLite file")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="cartulina-bench-") as tmp:
        for label, hands, sub in (("import", args.hands, "a"), ("largest import allowed", args.big, "b")):
            total, held, stored = time_import(pathlib.Path(tmp) / sub, hands, args.seed, args.url)
            print(f"{label}: {stored} hands in {total:.2f} s (write lock held {held:.2f} s)")
            if hands == args.hands:
                print(f"  target under 2 s: {'ok' if total < 2 else 'MISSED'}")

    session = _names(random_session(random.Random(args.seed), 200))
    ledger = settle(session)
    render_pdf(session, ledger)  # warm: fonts
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        render_pdf(session, ledger)
        runs.append(time.perf_counter() - start)
    print(f"pdf, 200 hands, names of {limits.NAME_MAX} characters, in process: best {min(runs):.3f} s")
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        render_pdf_within(session, ledger, 30)
        runs.append(time.perf_counter() - start)
    print(f"pdf, the same, in the time-limited child process (the app's way): best {min(runs):.3f} s")
    print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
