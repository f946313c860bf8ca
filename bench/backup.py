"""Backup and restore of a large instance: 1,000 tables of 100 hands (docs/backup.md).

Run: `make bench` or `.venv/bin/python bench/backup.py [--tables 1000] [--hands 100] [--database URL]`.
Fills a temporary SQLite instance with ``--tables`` tables of ``--hands`` hands each, every
hand with its history event (bulk INSERTs: seconds, not the minutes the services would take),
then times ``backup`` (one read transaction, written as gzip'd JSON lines) and ``restore`` into
a new SQLite database, and with ``--database`` (a PostgreSQL URL: a fresh schema, dropped
afterwards) the restore into PostgreSQL and a backup from it. Prints the rows, the file's size,
the seconds and the rows per second of each, and checks that one table's ledger is the same
after the restore.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import pathlib
import secrets
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.store.test_backup import won_entrada  # noqa: E402  # the tests' night, one copy

PLAYERS = ["Ana", "Benito", "Carmen", "Diego"]


def make_app(instance: pathlib.Path, url: str | None = None, schema: str | None = None) -> Any:
    from scorer.web import create_app

    settings: dict[str, Any] = {
        "INSTANCE_PATH": str(instance),
        "SECRET_KEY": "bench",
        "SQLALCHEMY_DATABASE_URI": url or f"sqlite:///{instance / 'cartulina.db'}",
    }
    if schema is not None:
        settings["SQLALCHEMY_ENGINE_OPTIONS"] = {"connect_args": {"options": f"-csearch_path={schema}"}}
    return create_app(settings)


@contextlib.contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    import sqlalchemy as sa

    from scorer.web import database_url

    schema = "bench_" + secrets.token_hex(6)
    engine = sa.create_engine(database_url(url))
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield schema
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


def fill(app: Any, tables: int, hands: int) -> None:
    """``tables`` tables of ``hands`` hands, each hand with its "create" event, by bulk INSERTs."""
    from scorer.store.db import db
    from scorer.store.models import Hand, HandEvent, Table

    now = dt.datetime(2026, 12, 1, 20, 0)
    night = [won_entrada(i) for i in range(hands)]
    with app.app_context(), db.engine.begin() as connection:
        hand_id = 0
        for t in range(1, tables + 1):
            header = {
                "format": "tresillo-session/1",
                "name": f"Mesa {t}",
                "tanto_value": "0.05",
                "currency": "EUR",
                "players": PLAYERS,
                "rules": {"favor_suit": "bastos"},
                "first_dealer": 1,
            }
            connection.execute(
                Table.__table__.insert(),
                [
                    {
                        "id": t,
                        "edit_token": secrets.token_urlsafe(24),
                        "view_token": secrets.token_urlsafe(24),
                        "name": f"Mesa {t}",
                        "header": header,
                        "created_at": now,
                        "revision": hands,
                        "language": "es",
                    }
                ],
            )
            rows = []
            for seq, hand in enumerate(night, 1):
                hand_id += 1
                rows.append({"id": hand_id, "table_id": t, "seq": seq, "data": hand, "revision": 1, "created_at": now})
            connection.execute(Hand.__table__.insert(), rows)
            connection.execute(
                HandEvent.__table__.insert(),
                [
                    {
                        "table_id": t,
                        "hand_id": r["id"],
                        "action": "create",
                        "at": now,
                        "before": None,
                        "after": r["data"],
                    }
                    for r in rows
                ],
            )


def some_ledger(app: Any) -> tuple[str, Any]:
    """The ledger of the last table (settled from its hands, no cache)."""
    import sqlalchemy as sa

    from scorer import store
    from scorer.store.db import db
    from scorer.store.models import Table

    store.forget()
    with app.app_context():
        table = db.session.scalars(sa.select(Table).order_by(Table.id.desc()).limit(1)).one()
        return table.edit_token, store.read(table).ledger_copy()


def timed(what: str, rows: int, work: Any, extra: Callable[[], str] = str) -> Any:
    """Run ``work``; print its wall time, this process's CPU time (a loaded machine stretches the first) and rows/s."""
    start, cpu = time.perf_counter(), time.process_time()
    result = work()
    seconds, used = time.perf_counter() - start, time.process_time() - cpu
    more = extra()
    print(
        f"  {what}: {seconds:.2f} s, {used:.2f} s CPU here ({rows / seconds:,.0f} rows/s){more}",
        flush=True,
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--database", help="a PostgreSQL URL: restore into it (a fresh schema, dropped afterwards)")
    args = parser.parse_args()

    from scorer.store import backup as bk
    from scorer.store.db import db

    with tempfile.TemporaryDirectory(prefix="cartulina-bench-backup-") as folder:
        base = pathlib.Path(folder)
        source = make_app(base / "source")
        start = time.perf_counter()
        fill(source, args.tables, args.hands)
        print(
            f"backup and restore: {args.tables:,} tables × {args.hands} hands (each with its history event),"
            f" filled in {time.perf_counter() - start:.1f} s",
            flush=True,
        )
        edit, ledger = some_ledger(source)
        file = base / "cartulina.backup.gz"
        rows = args.tables * (1 + 2 * args.hands)
        with source.app_context():
            size = lambda: f", file {os.path.getsize(file) / 1e6:.1f} MB"  # noqa: E731
            header = timed("backup, SQLite", rows, lambda: bk.backup(db.engine, file), size)
        assert sum(header.rows().values()) == rows
        target = make_app(base / "target")
        timed("restore into a new SQLite", rows, lambda: bk.restore(target, file))
        assert some_ledger(target) == (edit, ledger), "the restored ledger differs"
        if args.database:
            with postgres_schema(args.database) as schema:
                pg = make_app(base / "pg", args.database, schema)
                timed("restore into PostgreSQL", rows, lambda: bk.restore(pg, file))
                assert some_ledger(pg) == (edit, ledger), "the ledger restored into PostgreSQL differs"
                with pg.app_context():
                    timed("backup, PostgreSQL", rows, lambda: bk.backup(db.engine, base / "pg.backup.gz"))
                    db.engine.dispose()
        print("  the restored ledger is the same (checked on the last table)")


if __name__ == "__main__":
    main()
