"""Logical backup and restore of a whole instance: ``flask --app scorer backup|restore FILE``.

The format is in docs/backup.md: gzip'd JSON lines, a header (format version, Alembic schema
revision, every table with its columns and row count), then each table's rows, then a closing
record with the row counts and the SHA-256 of every line before it, so that a truncated or altered
file is refused before anything is written.

Nothing here knows the models: the tables are read from the database itself (reflected, ordered by
their foreign keys), so a table added by a later migration is carried without a change here. The
only knowledge of the data is in three constants: the tables left out (:data:`SKIPPED`), the
columns whose value is a token (:data:`TOKEN_COLUMNS`, for ``--merge``) and the JSON columns that
hold ids of another table (:data:`EMBEDDED_IDS`, renumbered by ``--merge``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gzip
import hashlib
import itertools
import json
import os
import pathlib
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from scorer.store.backup_file import (
    DECODERS,
    ENCODERS,
    FORMAT,
    VERSION,
    BackupError,
    Header,
    Progress,
    Report,
    TableInfo,
    as_line,
    kind_of,
    raw_lines,
    verify,
)

# alembic's bookkeeping (the revision travels in the header) and derived data (the settled-state
# snapshots of scorer/store/settled.py: rebuilt from the hands when missing)
SKIPPED = frozenset({"alembic_version", "snapshots"})
# a row of a table with these columns is one thing with its own links: --merge adds it (with every
# row that refers to it) only when none of its tokens is in the database yet
TOKEN_COLUMNS = ("edit_token", "view_token")
# JSON columns whose values are ids of another table ({name or seat: person id}); --merge renumbers them
EMBEDDED_IDS = {("pena_tables", "names"): "pena_people", ("pena_tables", "seats"): "pena_people"}
BATCH = 2000  # rows per INSERT … VALUES (executemany)


# ------------------------------------------------------------------ the database side


def _reflect(connection: Connection) -> list[sa.Table]:
    """The database's own tables (not the models': the backup carries what is there), parents first."""
    meta = sa.MetaData()
    meta.reflect(connection)
    return [t for t in meta.sorted_tables if t.name not in SKIPPED]


def schema_revision(connection: Connection) -> str | None:
    """The Alembic revision the database is at (None: no schema yet)."""
    if not sa.inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


@contextlib.contextmanager
def read_snapshot(engine: Engine) -> Iterator[Connection]:
    """One read transaction: every table as it was at one moment, while the app goes on writing."""
    if engine.dialect.name == "postgresql":
        connection = engine.connect().execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
    else:
        connection = engine.connect()
    try:
        if engine.dialect.name == "sqlite":
            # pysqlite starts no transaction for a SELECT: without BEGIN each query would see the
            # database of its own moment. The snapshot is taken at the first read (WAL).
            connection.exec_driver_sql("BEGIN")
        schema_revision(connection)  # the first read: the moment the backup shows
        yield connection
    finally:
        connection.rollback()
        connection.close()


def _order(table: sa.Table) -> list[sa.ColumnElement[Any]]:
    keys = list(table.primary_key.columns) or list(table.columns)
    return [c for c in keys]


class _Ticker:
    """Progress on standard error, at most once a second (a long run only)."""

    def __init__(self, progress: Progress | None, verb: str, total: int) -> None:
        self.progress, self.verb, self.total = progress, verb, total
        self.done = 0
        self.started = self.last = time.monotonic()

    def step(self, rows: int, table: str) -> None:
        self.done += rows
        now = time.monotonic()
        if self.progress is not None and now - self.last >= 1.0:
            self.last = now
            percent = 100 * self.done // max(self.total, 1)
            self.progress(f"{self.verb}: {self.done:,}/{self.total:,} rows ({percent}%), now {table}")


# ------------------------------------------------------------------ writing


def _open_partial(target: pathlib.Path) -> tuple[pathlib.Path, Any]:
    """The ``.partial`` file a backup is written to before it takes the target's name, open for writing."""
    partial = target.with_name(target.name + ".partial")
    if not target.parent.is_dir():
        raise BackupError(f"cannot write {target}: the folder {target.parent} does not exist")
    try:
        return partial, open(partial, "wb")
    except OSError as exc:
        raise BackupError(f"cannot write {target} ({exc.strerror or exc})") from None


def _header_of(engine: Engine, connection: Connection, tables: list[sa.Table]) -> Header:
    """The header of a backup of ``tables``: the format, the schema revision, each table's columns and rows."""
    revision = schema_revision(connection)
    if revision is None:
        raise BackupError("the database has no Cartulina schema (no alembic_version table): nothing to back up")
    infos = tuple(
        TableInfo(
            t.name,
            tuple((c.name, kind_of(c.type)) for c in t.columns),
            connection.execute(sa.select(sa.func.count()).select_from(t)).scalar_one(),
        )
        for t in tables
    )
    now = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    return Header(VERSION, revision, now, engine.dialect.name, infos)


def _table_lines(
    connection: Connection, table: sa.Table, info: TableInfo, emit: Callable[[bytes], None], ticker: _Ticker
) -> int:
    """Write the rows of one table as lines, a batch at a time; how many."""
    encoders = [ENCODERS[k] for _, k in info.columns]
    # JSON columns as their stored text: the heaviest part of a row, copied without parsing it
    columns = [sa.cast(c, sa.Text) if k == "json" else c for c, (_, k) in zip(table.columns, info.columns, strict=True)]
    result = connection.execution_options(stream_results=True, yield_per=BATCH).execute(
        sa.select(*columns).order_by(*_order(table))
    )
    written = 0
    for rows in result.partitions():
        chunk = []
        for row in rows:
            text = ",".join("null" if v is None else encode(v) for v, encode in zip(row, encoders, strict=True))
            chunk.append(("[" + text + "]\n").encode("utf-8"))
        emit(b"".join(chunk))
        written += len(rows)
        ticker.step(len(rows), table.name)
    if written != info.rows:  # cannot happen in one snapshot; checked all the same
        raise BackupError(f"table {table.name}: counted {info.rows} rows but read {written}")
    return written


def backup(engine: Engine, path: str | os.PathLike[str], *, progress: Progress | None = None) -> Header:
    """Write a backup of the database to ``path`` (atomically: a failed run leaves no file)."""
    target = pathlib.Path(path)
    partial, file = _open_partial(target)
    digest = hashlib.sha256()
    try:
        with file, read_snapshot(engine) as connection, gzip.GzipFile(fileobj=file, mode="wb", compresslevel=6) as out:
            tables = _reflect(connection)
            header = _header_of(engine, connection, tables)
            ticker = _Ticker(progress, "backup", sum(i.rows for i in header.tables))

            def emit(chunk: bytes) -> None:
                digest.update(chunk)
                out.write(chunk)

            emit(as_line(_header_json(header)))
            lines = 1
            for table, info in zip(tables, header.tables, strict=True):
                emit(as_line({"table": table.name}))
                lines += 1 + _table_lines(connection, table, info, emit, ticker)
            end = {"end": {"rows": header.rows(), "lines": lines, "sha256": digest.hexdigest()}}
            out.write(as_line(end))
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return header


def _header_json(header: Header) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": header.version,
        "schema_revision": header.schema_revision,
        "created_at": header.created_at,
        "source": header.source,
        "tables": [{"name": t.name, "columns": [list(c) for c in t.columns], "rows": t.rows} for t in header.tables],
    }


def _decoders(table: TableInfo) -> list[tuple[int, Callable[[Any], Any]]]:
    """The columns of a table whose values are decoded (by their place), with the decoder of each."""
    return [(i, f) for i, (_, k) in enumerate(table.columns) if (f := DECODERS[k]) is not None]


def _row(raw: bytes, decoders: list[tuple[int, Callable[[Any], Any]]]) -> list[Any]:
    values: list[Any] = json.loads(raw)
    for i, decode in decoders:
        values[i] = decode(values[i])
    return values


def _batches(rows: Iterator[list[Any]]) -> Iterator[list[list[Any]]]:
    while batch := list(itertools.islice(rows, BATCH)):
        yield batch


def read_rows(path: str | os.PathLike[str], header: Header) -> Iterator[tuple[TableInfo, list[list[Any]]]]:
    """The rows of a verified backup, table by table in batches, values decoded."""
    tables = {t.name: t for t in header.tables}
    current: list[TableInfo | None] = [None]

    def section(raw: bytes) -> TableInfo | None:
        """The table a line belongs to: a table's record starts its section, the closing record ends them."""
        if not raw.startswith(b"["):
            record = json.loads(raw)
            current[0] = None if "end" in record else tables[record["table"]]
        return current[0]

    lines = raw_lines(pathlib.Path(path))
    next(lines)
    for table, section_lines in itertools.groupby(lines, section):
        if table is None:
            break
        decoders = _decoders(table)
        rows = (_row(raw, decoders) for raw in section_lines if raw.startswith(b"["))
        for batch in _batches(rows):
            yield table, batch


# ------------------------------------------------------------------ restoring


def restore(app: Any, path: str | os.PathLike[str], *, merge: bool = False, progress: Progress | None = None) -> Report:
    """Load a backup into the app's database: empty (or ``merge``), at the schema this code expects.

    Everything is checked before the first write (file, version, schema, an empty database); the
    rows are then written in one transaction, so a failure half-way leaves the database as it was.
    A backup of an older schema is first restored into a scratch SQLite database at its revision
    and taken through the migrations (docs/backup.md, "Older backups").
    """
    from scorer.store.db import db

    if progress is not None:
        progress(f"restore: checking {path}")
    header = verify(path)
    if progress is not None:
        progress(f"restore: {sum(header.rows().values()):,} rows of schema revision {header.schema_revision}, whole")
    with app.app_context():
        engine = db.engine
        head = _head()
        with engine.connect() as connection:
            at = schema_revision(connection)
            if at != head:
                raise BackupError(
                    f"the database is at schema revision {at or 'none'}, this Cartulina's is {head}:"
                    " run `flask --app scorer db upgrade` first"
                )
            if not merge:
                _refuse_filled(connection)
        report = Report()
        with contextlib.ExitStack() as stack:
            source, source_header = pathlib.Path(path), header
            if header.schema_revision != head:
                _check_older(header.schema_revision, head)
                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="cartulina-restore-"))
                source = migrate_forward(pathlib.Path(path), header, pathlib.Path(folder), progress)
                source_header = verify(source)
                report.migrated_from = header.schema_revision
            _load(engine, app.instance_path, source, source_header, merge, report, progress)
    return report


def _refuse_filled(connection: Connection) -> None:
    filled = {t.name: n for t in _reflect(connection) if (n := _count(connection, t))}
    if filled:
        what = ", ".join(f"{n:,} {name}" for name, n in filled.items())
        raise BackupError(f"the database is not empty ({what}): restore into an empty one, or add --merge")


def _count(connection: Connection, table: sa.Table) -> int:
    return int(connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def _scripts() -> Any:
    from alembic.script import ScriptDirectory

    from scorer.store.db import MIGRATIONS

    return ScriptDirectory(str(MIGRATIONS))


def _head() -> str:
    return str(_scripts().get_current_head())


def _check_older(revision: str, head: str) -> None:
    """Refuse a revision this code does not know (a newer Cartulina's)."""
    known = [script.revision for script in _scripts().walk_revisions(base="base", head=head)]
    if revision not in known:
        raise BackupError(
            f"the backup comes from a newer Cartulina (schema revision {revision!r} is unknown here, whose"
            f" latest is {head!r}): upgrade Cartulina to restore it"
        )


def migrate_forward(
    path: pathlib.Path, header: Header, folder: pathlib.Path, progress: Progress | None
) -> pathlib.Path:
    """Restore an older backup into a scratch SQLite at its revision, upgrade it, back it up again."""
    import flask_migrate  # type: ignore[import-untyped]

    from scorer.store.db import MIGRATIONS, db

    if progress is not None:
        progress(f"restore: the backup's schema is {header.schema_revision}: migrating it forward in {folder}")
    scratch = _scratch_app(folder)
    with scratch.app_context():
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision=header.schema_revision)
        _load(db.engine, scratch.instance_path, path, header, False, Report(), progress)
        flask_migrate.upgrade(directory=str(MIGRATIONS))
        migrated = folder / "migrated.cartulina.gz"
        backup(db.engine, migrated)
        db.engine.dispose()
    return migrated


def _scratch_app(folder: pathlib.Path) -> Any:
    """A bare app on a scratch SQLite database in ``folder``: enough for the migrations and the rows."""
    from flask import Flask
    from flask_migrate import Migrate

    from scorer.store.db import MIGRATIONS, db

    (folder / "instance").mkdir(exist_ok=True)
    scratch = Flask("cartulina-scratch", instance_path=str(folder / "instance"))
    scratch.config.update(SQLALCHEMY_DATABASE_URI=f"sqlite:///{folder / 'scratch.db'}", SECRET_KEY="scratch")
    db.init_app(scratch)
    Migrate().init_app(scratch, db, directory=str(MIGRATIONS))
    return scratch


@contextlib.contextmanager
def _writing(engine: Engine, instance_path: str) -> Iterator[Connection]:
    """One write transaction, taken in turn with the app's writers (SQLite: the instance's file lock)."""
    from scorer.store import settled

    with settled.one_writer(instance_path, engine.dialect.name), engine.connect() as connection:
        try:
            if engine.dialect.name == "sqlite":
                connection.exec_driver_sql("BEGIN IMMEDIATE")  # the checks and the writes in one transaction
            elif engine.dialect.name == "postgresql":
                _lock_every_table(connection)
            yield connection
        except BaseException:
            connection.rollback()
            raise
        connection.commit()


def _lock_every_table(connection: Connection) -> None:
    """PostgreSQL: no other writer until the restore commits (readers go on), so the emptiness
    checked inside the transaction stays true until its rows are in."""
    names = ", ".join(connection.dialect.identifier_preparer.quote(t.name) for t in _reflect(connection))
    if names:
        connection.exec_driver_sql(f"LOCK TABLE {names} IN EXCLUSIVE MODE")


def _check_schema(targets: dict[str, sa.Table], header: Header) -> None:
    """Every table and column of the backup is in this database's schema; else BackupError."""
    for info in header.tables:
        table = targets.get(info.name)
        if table is None:
            raise BackupError(f"the backup's table {info.name} is not in this database's schema")
        unknown = [c for c in info.column_names if c not in table.columns]
        if unknown:
            raise BackupError(f"the backup's table {info.name} has columns this schema lacks: {', '.join(unknown)}")


def _insert(connection: Connection, table: sa.Table, records: list[dict[str, Any]], report: Report) -> None:
    """Rows into an empty database, as they are."""
    connection.execute(table.insert(), records)
    report.added[table.name] = report.added.get(table.name, 0) + len(records)


def _load(
    engine: Engine,
    instance_path: str,
    path: pathlib.Path,
    header: Header,
    merge: bool,
    report: Report,
    progress: Progress | None,
) -> None:
    with _writing(engine, instance_path) as connection:
        if not merge:
            _refuse_filled(connection)  # again, in the transaction: the app may have written since the first look
        targets = {t.name: t for t in _reflect(connection)}
        _check_schema(targets, header)
        ticker = _Ticker(progress, "restore", sum(header.rows().values()))
        loader = _Merger(connection, targets, report) if merge else None
        for info, rows in read_rows(path, header):
            table = targets[info.name]
            records = [dict(zip(info.column_names, row, strict=True)) for row in rows]
            if loader is not None:
                loader.add(table, records)
            else:
                _insert(connection, table, records, report)
            ticker.step(len(records), info.name)
        if engine.dialect.name == "postgresql":
            _reset_sequences(connection, targets.values())


def _integer_key(table: sa.Table) -> sa.Column[Any] | None:
    keys = list(table.primary_key.columns)
    if len(keys) == 1 and isinstance(keys[0].type, sa.Integer):
        return keys[0]
    return None


def _reset_sequences(connection: Connection, tables: Any) -> None:
    """PostgreSQL: the next id after the restored ones (rows were inserted with their ids)."""
    for table in tables:
        key = _integer_key(table)
        if key is None:
            continue
        sequence = connection.execute(
            sa.text("SELECT pg_get_serial_sequence(:table, :column)"), {"table": table.name, "column": key.name}
        ).scalar()
        if sequence:
            top = connection.execute(sa.select(sa.func.max(key))).scalar() or 0
            connection.execute(
                sa.text("SELECT setval(:sequence, :value, false)"), {"sequence": sequence, "value": top + 1}
            )


class _Merger:
    """--merge: new ids for every row; a row with a token already there is left out with all that refers to it."""

    def __init__(self, connection: Connection, tables: dict[str, sa.Table], report: Report) -> None:
        self.connection = connection
        self.report = report
        self.ids: dict[str, dict[Any, Any]] = {name: {} for name in tables}
        self.dropped: dict[str, set[Any]] = {name: set() for name in tables}
        self.with_tokens = {name for name, t in tables.items() if any(c in t.c for c in TOKEN_COLUMNS)}

    def _taken(self, table: sa.Table, record: dict[str, Any]) -> bool:
        tests = [table.c[c] == record[c] for c in TOKEN_COLUMNS if c in table.c and record.get(c) is not None]
        if not tests:
            return False
        return (
            self.connection.execute(sa.select(sa.func.count()).select_from(table).where(sa.or_(*tests))).scalar_one()
            > 0
        )

    def _renumbered(self, table: sa.Table, record: dict[str, Any]) -> None:
        """The ids held in the row's JSON columns (a peña's names and seats) renumbered."""
        for (name, column), referred in EMBEDDED_IDS.items():
            if name == table.name and isinstance(record.get(column), dict):
                record[column] = {k: self.ids[referred].get(v, v) for k, v in record[column].items()}

    def _kept(self, table: sa.Table, key: sa.Column[Any] | None, record: dict[str, Any]) -> bool:
        """Whether the row goes in (its references renumbered); else it is left out and remembered as such."""
        reason = self._reason(table, record)
        if reason is None:
            self._renumbered(table, record)
            return True
        if key is not None:
            self.dropped[table.name].add(record.get(key.name))
        if reason:
            self.report.skipped.append(reason)
        return False

    def add(self, table: sa.Table, records: list[dict[str, Any]]) -> None:
        key = _integer_key(table)
        kept = [record for record in records if self._kept(table, key, record)]
        if not kept:
            return
        if key is not None:
            old = [record.pop(key.name, None) for record in kept]
            statement = table.insert().returning(key, sort_by_parameter_order=True)
            new = self.connection.execute(statement, kept).scalars().all()
            self.ids[table.name].update(zip(old, new, strict=True))
        else:
            self.connection.execute(table.insert(), kept)
        self.report.added[table.name] = self.report.added.get(table.name, 0) + len(kept)

    def _reason(self, table: sa.Table, record: dict[str, Any]) -> str | None:
        """Why the row is left out ("" when its parent's report says it all), or None to add it."""
        parents = {fk.column.table.name for fk in table.foreign_keys}
        link = len([p for p in parents if p in self.with_tokens]) >= 2  # e.g. a peña's link to a table
        for fk in table.foreign_keys:
            dropped = self._refer(table, fk, record)
            if dropped is not None:
                return (
                    f"{table.name}: a link to {fk.column.table.name} {dropped}, left out, was not made" if link else ""
                )
        if self._taken(table, record):
            token = next((str(record[c]) for c in TOKEN_COLUMNS if record.get(c)), "")
            return f"{table.name}: {record.get('name')!r} (token {token[:6]}…) is already there: left out"
        return None

    def _refer(self, table: sa.Table, fk: sa.ForeignKey, record: dict[str, Any]) -> Any:
        """Point the row's reference ``fk`` at its row's new id; the old id when that row was left out."""
        column, referred = fk.parent.name, fk.column.table.name
        value = record.get(column)
        if value is None:
            return None
        if value in self.dropped[referred]:
            return value
        if value not in self.ids[referred]:
            raise BackupError(f"the backup's {table.name} refers to {referred} {value}, which it does not hold")
        record[column] = self.ids[referred][value]
        return None
