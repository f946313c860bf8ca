"""Backup and restore at their edges (docs/backup.md): a backup to a folder that is not there, and a
restore racing the app: a table made after the first emptiness check, and writers held off while
the rows go in (SQLite: a write transaction; PostgreSQL: the tables locked)."""

from __future__ import annotations

import pathlib
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorer import store
from scorer.store import backup as bk
from scorer.store.db import db
from scorer.store.models import Table
from tests.store.test_backup import KINDS, cli, good_backup, on, row_counts  # noqa: F401  (fixtures)
from tests.web.conftest import sample_session


def test_a_backup_into_a_missing_folder_says_so_without_a_traceback(app: Flask, tmp_path: pathlib.Path) -> None:
    target = tmp_path / "no such folder" / "b.gz"
    result = cli(app, "backup", str(target))
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: cannot write {target}: the folder {target.parent} does not exist"
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)  # click's own exit, not an OSError
    assert not target.parent.exists()


def test_a_backup_onto_a_folder_it_cannot_write_says_so(app: Flask, tmp_path: pathlib.Path) -> None:
    target = tmp_path / "taken"
    (target.parent / "taken.partial").mkdir()  # where the file would be written is a folder
    result = cli(app, "backup", str(target))
    assert result.exit_code == 1 and result.output.startswith(f"Error: cannot write {target} (")
    assert "Traceback" not in result.output
    assert not target.exists()


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_made_after_the_first_check_is_refused_in_the_write(
    on: Callable[..., Flask],  # noqa: F811
    good_backup: pathlib.Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
) -> None:
    new = on(kind)
    real = bk._refuse_filled
    made: list[str] = []

    def then_a_keeper_starts_a_table(connection: sa.Connection) -> None:
        real(connection)
        if not made:  # between the first look and the write, the app makes a table
            with new.app_context():
                made.append(store.create_table(sample_session(name="Recién llegada")).edit_token)
                db.session.remove()

    monkeypatch.setattr(bk, "_refuse_filled", then_a_keeper_starts_a_table)
    with pytest.raises(bk.BackupError, match=r"the database is not empty \(1 tables"):
        bk.restore(new, good_backup)
    assert made
    counts = row_counts(new)
    assert counts["tables"] == 1  # that table, and nothing of the backup
    with new.app_context():
        assert [t.edit_token for t in db.session.scalars(sa.select(Table))] == made


@pytest.mark.parametrize("kind", KINDS)
def test_no_other_writer_gets_in_while_the_rows_go_in(
    on: Callable[..., Flask],  # noqa: F811
    good_backup: pathlib.Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
) -> None:
    new = on(kind)
    real = bk.read_rows
    tried: list[str] = []

    def and_a_writer_tries_meanwhile(path: Any, header: bk.Header) -> Iterator[Any]:
        tried.append(another_writer_is_held_off(new))
        yield from real(path, header)

    monkeypatch.setattr(bk, "read_rows", and_a_writer_tries_meanwhile)
    report = bk.restore(new, good_backup)
    assert report.added["tables"] == 2
    assert tried == ["held off"]
    assert another_writer_is_held_off(new) == "wrote"  # and after the restore it gets in at once


def another_writer_is_held_off(app: Flask) -> str:
    """Try, from a connection of its own and without waiting, what the app's writers do first."""
    with app.app_context():
        url = db.engine.url
        if url.get_backend_name() == "sqlite":
            connection = sqlite3.connect(str(url.database), timeout=0, isolation_level=None)
            try:
                connection.execute("BEGIN IMMEDIATE")
                connection.execute("ROLLBACK")
                return "wrote"
            except sqlite3.OperationalError as exc:
                assert "locked" in str(exc)
                return "held off"
            finally:
                connection.close()
        with db.engine.connect() as other:
            other.exec_driver_sql("SET lock_timeout = '50ms'")
            try:
                other.exec_driver_sql("LOCK TABLE tables IN ROW EXCLUSIVE MODE")  # what an INSERT takes
                return "wrote"
            except sa.exc.OperationalError as exc:
                assert "lock timeout" in str(exc)
                return "held off"
            finally:
                other.rollback()
