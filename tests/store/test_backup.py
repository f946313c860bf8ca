"""Backup and restore of a whole instance (docs/backup.md).

An instance with tables of every game (history of changes, deleted hands, a change of player,
closings, a sheet in English) and a peña is backed up with ``flask --app scorer backup`` and
restored with ``restore`` into a new SQLite database, and into PostgreSQL when
``TEST_DATABASE_URL`` names one; every token answers, every ledger, peña ledger and history
page is the same. Bad input is refused before anything is written; a backup taken while
20 writers add hands restores to a state that existed.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import pathlib
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from flask import Flask

from scorer import engine, store
from scorer.store import backup as bk
from scorer.store import penas as pena_services
from scorer.store.db import MIGRATIONS, db
from scorer.store.models import Table
from tests.conftest import EXAMPLES, load_json
from tests.web.conftest import _postgres_schema

PG_URL = os.environ.get("TEST_DATABASE_URL") or ""
KINDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def example(file: str, **keys: Any) -> dict[str, Any]:
    session = load_json(EXAMPLES / f"{file}.json")
    session.update(copy.deepcopy(keys))
    return session


@pytest.fixture
def on(make_app: Callable[..., Flask], tmp_path: pathlib.Path) -> Iterator[Callable[..., Flask]]:
    """An app on a fresh database of a kind: "sqlite" (a file), or "postgresql" (skipped without one).

    PostgreSQL: a fresh schema of TEST_DATABASE_URL, dropped afterwards. Either has connections
    enough for 20 writers and a backup at once (each writer holds one while it waits for its turn).
    """
    made = iter(range(100))
    schemas: list[tuple[str, sa.Engine, Flask]] = []

    def factory(kind: str, **config: Any) -> Flask:
        if kind == "postgresql":
            if not PG_URL.startswith("postgres"):
                pytest.skip("TEST_DATABASE_URL does not name PostgreSQL")
            schema, admin = _postgres_schema(PG_URL)
            options = {"connect_args": {"options": f"-csearch_path={schema}"}, "pool_size": 25, "max_overflow": 5}
            app = make_app(SQLALCHEMY_DATABASE_URI=PG_URL, SQLALCHEMY_ENGINE_OPTIONS=options, **config)
            schemas.append((schema, admin, app))
            return app
        options = {"pool_size": 25, "max_overflow": 5}
        url = f"sqlite:///{tmp_path / f'kind{next(made)}.db'}"
        return make_app(SQLALCHEMY_DATABASE_URI=url, SQLALCHEMY_ENGINE_OPTIONS=options, **config)

    yield factory
    for schema, admin, app in schemas:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def forget() -> None:
    """As in a freshly started worker: nothing the source app settled is reused by the restored one."""
    store.forget()


def fill(app: Flask) -> dict[str, Any]:
    """Tables of every game with history, deleted hands, a change of player, closings; a peña of them."""
    with app.app_context():
        walk = store.create_table(example("walkthrough", name="Jueves 8", date="2026-01-08", tanto_value="0.05"))
        store.replace_hand(walk, 2, {**load_json(EXAMPLES / "walkthrough.json")["hands"][1], "note": "corregida"})
        store.delete_hand(walk, 3)  # stays deleted
        store.close_table(walk, "devolver")
        night = example("real_evening", name="Sustituta", date="2026-02-05")  # an ajuste, a sienta (R33)
        assert night["hands"][-1] == {"close": "repartir"}
        evening = store.create_table({**night, "hands": night["hands"][:-1]})
        store.delete_hand(evening, 1)
        deleted = store.deleted_hands(evening)[0]
        store.restore_hand(evening, deleted.hand_id)  # history: delete, restore
        store.set_language(evening, "en")
        store.close_table(evening, "repartir")
        pozo_night = example("pozo_viuda_table", name="Pozo", date="2026-02-19")
        closing = pozo_night["hands"].pop()
        assert "close" in closing
        pozo = store.create_table(pozo_night)
        store.delete_hand(pozo, 2)
        store.add_hand(pozo, closing)
        ombre = store.create_table(
            example("ombre_three", name="Ombre", date="2026-02-12", players=["Ana", "Elena", "Carmen"])
        )
        bandos = store.create_table(
            example("bandos_game", name="Bandos", players=["Ana", "Benito", "Carmen", "Diego", "Elena", "Fermín"])
        )
        codillo = store.create_table(example("bola_and_solo_codillo", name="Jueves 15", date="2026-01-15"))
        assert codillo.closed  # its session file ends with a closing
        alone = store.create_table(example("three_players", name="Suelta"))
        tables = [walk, evening, pozo, ombre, bandos, codillo, alone]
        pena = pena_services.create_pena(
            "Peña del Casino", [(n, None) for n in ("Ana", "Benito", "Carmen", "Diego", "Elena", "Fermín")]
        )
        for table in tables[:-1]:
            pena_services.attach(pena, table)
        other = pena_services.create_pena("Los del jueves", [("Ana", "la jefa"), ("Benito", None)])
        return {
            "tables": [(t.edit_token, t.view_token) for t in tables],
            "penas": [(p.edit_token, p.view_token) for p in (pena, other)],
        }


def pages(app: Flask, tokens: dict[str, Any]) -> dict[str, Any]:
    """What every link answers: ledgers, hands with their history, deleted hands, pages, peña ledgers."""
    forget()
    client = app.test_client()
    seen: dict[str, Any] = {}

    def get(path: str) -> Any:
        response = client.get(path)
        assert response.status_code == 200, path
        if response.is_json:
            return response.get_json()
        # when the page was drawn (for a copy kept offline), its forms' CSRF tokens and fresh request ids
        # differ from one drawing to the next
        page = response.get_data(as_text=True)
        for drawn in (
            r'data-rendered-at="[^"]*"',
            r'class="offline-at">[^<]*<',
            r"<input[^>]*(csrf_token|request_id)[^>]*>",
        ):
            page = re.sub(drawn, "", page)
        return page

    for edit, view in tokens["tables"]:
        seen[f"ledger {edit}"] = get(f"/api/tables/{edit}/ledger")
        seen[f"table {view}"] = get(f"/api/tables/{view}")
        seen[f"deleted {edit}"] = get(f"/api/tables/{edit}/deleted")
        for token in (edit, view):
            seen[f"page {token}"] = get(f"/t/{token}")
            seen[f"hands {token}"] = get(f"/t/{token}/manos")
        for n in range(1, len(seen[f"ledger {edit}"]["hands"]) + 1):
            seen[f"hand {edit} {n}"] = get(f"/t/{edit}/mano/{n}")  # its payments and its history
            seen[f"api hand {view} {n}"] = get(f"/api/tables/{view}/hands/{n}")
        seen[f"export {view}"] = get(f"/t/{view}/exportar.json")
    for edit, view in tokens["penas"]:
        seen[f"pena {edit}"] = get(f"/api/penas/{edit}")
        seen[f"pena ledger {view}"] = get(f"/api/penas/{view}/ledger")
        seen[f"pena stats {view}"] = get(f"/api/penas/{view}/stats")
        for token in (edit, view):
            seen[f"pena page {token}"] = get(f"/p/{token}")
    return seen


def strip_ids(deleted: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in hand.items() if k != "hand_id"} for hand in deleted["deleted"]]


def cli(app: Flask, *args: str) -> Any:
    return app.test_cli_runner().invoke(args=list(args))


def row_counts(app: Flask) -> dict[str, int]:
    with app.app_context(), db.engine.connect() as connection:
        return {t.name: bk._count(connection, t) for t in bk._reflect(connection)}


# ------------------------------------------------------------------ backup → restore


@pytest.mark.parametrize(
    ("source", "target"), [("sqlite", "sqlite"), ("sqlite", "postgresql"), ("postgresql", "sqlite")]
)
def test_restore_answers_every_link_the_same(
    on: Callable[..., Flask], tmp_path: pathlib.Path, source: str, target: str
) -> None:
    if "postgresql" in (source, target) and not PG_URL.startswith("postgres"):
        pytest.skip("TEST_DATABASE_URL does not name PostgreSQL")
    old = on(source)
    tokens = fill(old)
    before = pages(old, tokens)
    file = tmp_path / "cartulina.backup.gz"
    result = cli(old, "backup", str(file))
    assert result.exit_code == 0, result.output
    assert "7 tables" in result.output

    new = on(target)
    result = cli(new, "restore", str(file))
    assert result.exit_code == 0, result.output
    assert row_counts(new) == row_counts(old)  # every table but the derived snapshots
    after = pages(new, tokens)
    assert after.keys() == before.keys()
    for key in before:
        assert after[key] == before[key], key
    # the history shows the same changes (an edit, a delete, a restore) with their times
    assert "corregida" in before[f"hand {tokens['tables'][0][0]} 2"]
    with new.app_context():
        table, editable = store.open_table(tokens["tables"][1][0])
        assert editable and table.language == "en"
        actions = [e.action for e in store.table_history(table)]
        assert {"delete", "restore"} <= set(actions)
        # the app writes on after a restore: new ids follow the restored ones (PostgreSQL's sequences)
        n, _ = store.add_hand(store.open_table(tokens["tables"][6][0])[0], {"pass": True})
        assert n > 1
        pena_services.create_pena("Nueva", [("Zoe", None)])


def test_backup_file_is_the_documented_format(app: Flask, make_table: Callable[..., Table], tmp_path: pathlib.Path):
    table = make_table()
    file = tmp_path / "b.gz"
    assert cli(app, "backup", str(file)).exit_code == 0
    with gzip.open(file, "rt", encoding="utf-8") as text:
        lines = [json.loads(line) for line in text]
    header, end = lines[0], lines[-1]
    assert header["format"] == "cartulina-backup" and header["version"] == bk.VERSION
    assert header["schema_revision"] == bk._scripts().get_current_head()
    names = [t["name"] for t in header["tables"]]
    assert names.index("tables") < names.index("hands") < names.index("hand_events")  # parents first
    assert "snapshots" not in names and "alembic_version" not in names
    assert header["tables"][names.index("tables")]["rows"] == 1
    assert lines[1] == {"table": names[0]}
    assert end["end"]["rows"] == {t["name"]: t["rows"] for t in header["tables"]}
    assert end["end"]["lines"] == len(lines) - 1
    row = next(row for row in lines if isinstance(row, list) and table.edit_token in row)
    assert row[1:3] == [table.edit_token, table.view_token]


def test_merge_adds_what_is_not_there_and_reports_the_rest(on: Callable[..., Flask], tmp_path: pathlib.Path) -> None:
    old = on("sqlite")
    tokens = fill(old)
    before = pages(old, tokens)
    file = tmp_path / "b.gz"
    assert cli(old, "backup", str(file)).exit_code == 0

    new = on("sqlite")
    with new.app_context():  # one of the tables, and one of the peñas, are already there (restored earlier)
        table = store.create_table(example("walkthrough"))
        table.edit_token = tokens["tables"][5][0]
        pena = pena_services.create_pena("Los del jueves", [("Ana", None)])
        pena.view_token = tokens["penas"][1][1]
        db.session.commit()
    refused = cli(new, "restore", str(file))
    assert refused.exit_code != 0 and "not empty" in refused.output and "--merge" in refused.output
    result = cli(new, "restore", "--merge", str(file))
    assert result.exit_code == 0, result.output
    assert "'Jueves 15'" in result.output and "'Los del jueves'" in result.output
    assert "left out" in result.output and "pena_tables: a link to tables" in result.output
    after = pages(new, {"tables": tokens["tables"][:5] + tokens["tables"][6:], "penas": tokens["penas"][:1]})
    # every link answers (pages() checks it); the data is the same, under new ids (a deleted hand's included)
    for key, value in after.items():
        if key.startswith(("ledger ", "table ", "api hand ", "export ")):
            assert value == before[key], key
        elif key.startswith("deleted "):
            assert strip_ids(value) == strip_ids(before[key]), key
    # the peña's roster kept its people, and its links point at the right new people (renumbered ids)
    with new.app_context():
        pena, _ = pena_services.open_pena(tokens["penas"][0][0])
        assert [p.name for p in pena.people] == ["Ana", "Benito", "Carmen", "Diego", "Elena", "Fermín"]
        ids = {p.id for p in pena.people}
        for link in pena.links:
            assert set(link.names.values()) <= ids and set(link.seats.values()) <= ids
    ledger = after["pena ledger " + tokens["penas"][0][1]]
    assert ledger != before["pena ledger " + tokens["penas"][0][1]]  # one evening fewer


# ------------------------------------------------------------------ an older schema


def test_a_backup_of_an_older_schema_is_migrated_forward(on: Callable[..., Flask], tmp_path: pathlib.Path) -> None:
    current = on("sqlite")
    tokens = fill(current)
    before = pages(current, tokens)
    file = tmp_path / "head.gz"
    assert cli(current, "backup", str(file)).exit_code == 0

    # the same instance on a database at 0005_perf (before the tables' language, 0006): its own backup
    older = on("sqlite", MIGRATE_ON_START=False)
    with older.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="0005_perf")
        header = bk.verify(file)
        with db.engine.begin() as connection:
            tables = {t.name: t for t in bk._reflect(connection)}
            for info, rows in bk.read_rows(file, header):
                table = tables[info.name]
                connection.execute(
                    table.insert(),
                    [{c: v for c, v in zip(info.column_names, row, strict=True) if c in table.c} for row in rows],
                )
    old_file = tmp_path / "0005.gz"
    assert cli(older, "backup", str(old_file)).exit_code == 0
    old_header = bk.verify(old_file)
    assert old_header.schema_revision == "0005_perf"
    assert "language" not in dict(next(t for t in old_header.tables if t.name == "tables").columns)

    new = on("sqlite")
    result = cli(new, "restore", str(old_file))
    assert result.exit_code == 0, result.output
    assert "migrated forward from schema revision 0005_perf" in result.output
    after = pages(new, tokens)
    for key in before:
        if key.startswith("ledger ") or key.startswith("deleted ") or key.startswith("pena ledger"):
            assert after[key] == before[key], key
    with new.app_context():
        assert {t.language for t in db.session.scalars(sa.select(Table))} == {"es"}  # 0006's default
    assert row_counts(new)["hand_events"] == row_counts(current)["hand_events"]


# ------------------------------------------------------------------ bad input


def rewrite(source: pathlib.Path, target: pathlib.Path, change: Callable[[list[bytes]], list[bytes]]) -> None:
    """Another backup file from the lines of ``source`` (changed), with a fresh checksum when it keeps one."""
    with gzip.open(source, "rb") as handle:
        lines = handle.read().splitlines(keepends=True)
    with gzip.open(target, "wb") as out:
        out.write(b"".join(change(lines)))


def resealed(lines: list[bytes]) -> list[bytes]:
    """The lines with their closing record recomputed (a well-formed file with other contents)."""
    import hashlib

    body = lines[:-1]
    end = json.loads(lines[-1])
    end["end"]["sha256"] = hashlib.sha256(b"".join(body)).hexdigest()
    return [*body, (json.dumps(end) + "\n").encode()]


def newer_version(lines: list[bytes]) -> list[bytes]:
    header = json.loads(lines[0])
    header["version"] = bk.VERSION + 1
    return resealed([(json.dumps(header) + "\n").encode(), *lines[1:]])


def newer_schema(lines: list[bytes]) -> list[bytes]:
    header = json.loads(lines[0])
    header["schema_revision"] = "0099_future"
    return resealed([(json.dumps(header) + "\n").encode(), *lines[1:]])


def altered_row(lines: list[bytes]) -> list[bytes]:
    i = next(i for i, line in enumerate(lines) if line.startswith(b"[") and b'"entrada"' in line)
    return [*lines[:i], lines[i].replace(b'"entrada"', b'"solo"', 1), *lines[i + 1 :]]


@pytest.fixture
def good_backup(app: Flask, make_table: Callable[..., Table], tmp_path: pathlib.Path) -> pathlib.Path:
    make_table()
    make_table(name="Otra")
    file = tmp_path / "good.gz"
    assert cli(app, "backup", str(file)).exit_code == 0
    return file


BAD: list[tuple[str, Callable[[pathlib.Path, pathlib.Path], None], str]] = [
    ("truncated", lambda s, t: t.write_bytes(s.read_bytes()[: len(s.read_bytes()) // 2]), "is truncated"),
    ("end cut off", lambda s, t: rewrite(s, t, lambda lines: lines[:-1]), "closing record is missing"),
    ("last rows cut off", lambda s, t: rewrite(s, t, lambda lines: [*lines[:-3], lines[-1]]), "is corrupted"),
    ("flipped byte", lambda s, t: t.write_bytes(_flip(s.read_bytes())), "is corrupted"),
    ("altered row", lambda s, t: rewrite(s, t, altered_row), "checksum does not match"),
    ("newer format", lambda s, t: rewrite(s, t, newer_version), "newer Cartulina (backup format 2"),
    ("newer schema", lambda s, t: rewrite(s, t, newer_schema), "schema revision '0099_future' is unknown"),
    ("a session file", lambda s, t: t.write_text(json.dumps(example("walkthrough"))), "not a gzip file"),
    ("gzip'd session", lambda s, t: t.write_bytes(gzip.compress(b'{"format": "tresillo-session/1"}\n')), "header"),
    ("empty", lambda s, t: t.write_bytes(b""), "not a Cartulina backup"),
    ("empty gzip", lambda s, t: t.write_bytes(gzip.compress(b"")), "it is empty"),
]


def _flip(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x55]) + data[middle + 1 :]


@pytest.mark.parametrize(("what", "make", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_refused_before_anything_is_written(
    on: Callable[..., Flask],
    good_backup: pathlib.Path,
    tmp_path: pathlib.Path,
    what: str,
    make: Callable[[pathlib.Path, pathlib.Path], None],
    message: str,
) -> None:
    bad = tmp_path / "bad.gz"
    make(good_backup, bad)
    new = on("sqlite")
    result = cli(new, "restore", str(bad))
    assert result.exit_code == 1
    assert message in result.output and "Nothing was written." in result.output, result.output
    assert "Traceback" not in result.output
    assert set(row_counts(new).values()) == {0}


def test_a_failure_half_way_leaves_the_database_as_it_was(
    on: Callable[..., Flask], good_backup: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = on("sqlite")
    monkeypatch.setattr(bk, "BATCH", 1)  # one INSERT per row: the failure comes after some were written
    real = bk.read_rows

    def failing(path: Any, header: bk.Header) -> Iterator[Any]:
        for n, item in enumerate(real(path, header)):
            if n == 3:
                raise OSError("disk went away")
            yield item

    monkeypatch.setattr(bk, "read_rows", failing)
    with pytest.raises(OSError, match="disk went away"):
        bk.restore(new, good_backup)
    assert set(row_counts(new).values()) == {0}
    monkeypatch.setattr(bk, "read_rows", real)
    assert cli(new, "restore", str(good_backup)).exit_code == 0  # and it can be done again
    assert row_counts(new)["tables"] == 2


def duplicate_hand(lines: list[bytes]) -> list[bytes]:
    """A well-formed backup whose rows break a constraint: a second hand 1 of the first table."""
    i = lines.index(b'{"table":"hands"}\n') + 1
    row = json.loads(lines[i])
    row[0] = 999_999
    header = json.loads(lines[0])
    next(t for t in header["tables"] if t["name"] == "hands")["rows"] += 1
    end = json.loads(lines[-1])
    end["end"]["rows"]["hands"] += 1
    end["end"]["lines"] += 1
    body = [(json.dumps(header) + "\n").encode(), *lines[1 : i + 1], (json.dumps(row) + "\n").encode(), *lines[i + 1 :]]
    return resealed([*body[:-1], (json.dumps(end) + "\n").encode()])


def test_rows_that_break_a_constraint_are_rolled_back(
    on: Callable[..., Flask], good_backup: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    bad = tmp_path / "duplicate.gz"
    rewrite(good_backup, bad, duplicate_hand)
    assert bk.verify(bad).rows()["hands"] == 7
    new = on("sqlite")
    result = cli(new, "restore", str(bad))
    assert result.exit_code == 1 and "the restore failed and was rolled back: nothing was written" in result.output
    assert "UNIQUE constraint failed: hands.table_id, hands.seq" in result.output
    assert set(row_counts(new).values()) == {0}


def test_backup_refuses_a_database_without_schema(on: Callable[..., Flask], tmp_path: pathlib.Path) -> None:
    bare = on("sqlite", MIGRATE_ON_START=False)
    result = cli(bare, "backup", str(tmp_path / "x.gz"))
    assert result.exit_code == 1 and "no Cartulina schema" in result.output
    assert not (tmp_path / "x.gz").exists() and not (tmp_path / "x.gz.partial").exists()


# ------------------------------------------------------------------ a backup while 20 writers write


def won_entrada(i: int) -> dict[str, Any]:
    """The ``i``-th hand (from 0) of a night of four: the dealer's right wins an entrada 5-2-2 (R9)."""
    dealer = i % 4 + 1
    seats = [(dealer + k - 1) % 4 + 1 for k in (1, 2, 3)]
    return {
        "jugador": seats[0],
        "lance": "entrada",
        "trump": "oros",
        "tricks": dict(zip(map(str, seats), (5, 2, 2), strict=True)),
    }


@pytest.mark.parametrize("kind", KINDS)
def test_backup_while_twenty_writers_add_hands(
    on: Callable[..., Flask], tmp_path: pathlib.Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = on(kind)
    with app.app_context():
        edits = [store.create_table(example("walkthrough", hands=[], name=f"Mesa {i}")).edit_token for i in range(20)]
    changed = threading.Condition()
    ticks = iter(range(10**9))  # one order of events across threads: when each POST started, was acknowledged
    acked: list[tuple[int, int, str, int]] = []  # (started, acknowledged, table, hand number)
    stop = threading.Event()
    errors: list[BaseException] = []

    def writer(edit: str) -> None:
        client = app.test_client()
        try:
            for i in range(10_000):
                if stop.is_set():
                    return
                with changed:
                    started = next(ticks)
                response = client.post(f"/api/tables/{edit}/hands", json=won_entrada(i))
                assert response.status_code == 201, response.get_data(as_text=True)
                with changed:
                    acked.append((started, next(ticks), edit, response.get_json()["n"]))
                    changed.notify_all()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
            with changed:
                changed.notify_all()

    def written(n: int) -> bool:
        return len(acked) >= n or bool(errors)

    # The backup reads in small batches and, after its first batch, waits until the writers have
    # acknowledged 40 more hands: they write while it reads, and what it shows is still one moment.
    monkeypatch.setattr(bk, "BATCH", 5)
    pause = {"done": False, "at": 0}
    real_step = bk._Ticker.step

    def step(self: Any, rows: int, table: str) -> None:
        if not pause["done"]:
            pause["done"] = True
            with changed:
                pause["at"] = len(acked)
                assert changed.wait_for(lambda: written(pause["at"] + 40), timeout=120)
        real_step(self, rows, table)

    monkeypatch.setattr(bk._Ticker, "step", step)
    threads = [threading.Thread(target=writer, args=(edit,)) for edit in edits]
    for thread in threads:
        thread.start()
    try:
        with changed:
            assert changed.wait_for(lambda: written(60), timeout=120)  # every writer has started
            backup_started = next(ticks)
        file = tmp_path / "busy.gz"
        with app.app_context():
            bk.backup(db.engine, file)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
    assert not errors, errors
    assert pause["done"]

    with app.app_context():
        final = {t.edit_token: store.read(t).session_copy()["hands"] for t in db.session.scalars(sa.select(Table))}
    new = on("sqlite")
    assert cli(new, "restore", str(file)).exit_code == 0
    with new.app_context():
        counts = {}
        for table in db.session.scalars(sa.select(Table)):
            session = store.read(table).session_copy()
            counts[table.edit_token] = len(session["hands"])
            # no half hand: each hand is the one written, with its event in the history, and it settles
            assert session["hands"] == final[table.edit_token][: len(session["hands"])]
            assert len(store.table_history(table)) == len(session["hands"])
            assert store.read(table).ledger_copy() == engine.settle(session)
    restored = {(edit, n) for edit, count in counts.items() for n in range(1, count + 1)}
    # every hand acknowledged before the backup started is in it
    assert {(e, n) for _, ack, e, n in acked if ack < backup_started} <= restored
    # the writers wrote while it read, and what they wrote then is not in it
    assert len(acked) - len(restored) >= 40
    # a state that existed: a hand in it was not started before another one acknowledged earlier was left out
    for started, _, edit, n in acked:
        if (edit, n) in restored:
            assert all((e, m) in restored for _, ack, e, m in acked if ack < started)


def test_progress_on_a_long_run(
    app: Flask, make_table: Callable[..., Table], tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(3):
        make_table()
    clock = iter(range(0, 10**6, 2))  # two seconds between two looks at the clock: a long run
    monkeypatch.setattr(bk.time, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(bk, "BATCH", 2)
    said: list[str] = []
    with app.app_context():
        bk.backup(db.engine, tmp_path / "b.gz", progress=said.append)
    assert said[0].startswith("backup: 2/21 rows (9%), now tables")
    assert said[-1] == "backup: 21/21 rows (100%), now hand_events"
    new_app_said: list[str] = []
    bk.restore(app, tmp_path / "b.gz", merge=True, progress=new_app_said.append)
    assert new_app_said[0] == f"restore: checking {tmp_path / 'b.gz'}"
    assert new_app_said[-1].startswith("restore: 21/21 rows (100%)")
