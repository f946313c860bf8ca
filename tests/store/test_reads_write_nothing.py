"""What the store's reads and writes send to the database: a read commits nothing (not even the
snapshot of a table it settled from scratch), a new hand from the form looks its request id up once."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from scorer import store
from scorer.store.db import db
from scorer.store.models import Snapshot, Table
from tests.store.test_snapshots import create
from tests.web.tables.test_pages import hand_data


@contextlib.contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app sends while inside, and ``COMMIT`` for each commit."""
    said: list[str] = []
    with app.app_context():
        engine = db.engine

    def sent(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        said.append(" ".join(statement.split()))

    def committed(_conn: Any) -> None:
        said.append("COMMIT")

    event.listen(engine, "before_cursor_execute", sent)
    event.listen(engine, "commit", committed)
    try:
        yield said
    finally:
        event.remove(engine, "before_cursor_execute", sent)
        event.remove(engine, "commit", committed)


def writes(said: list[str]) -> list[str]:
    return [s for s in said if s == "COMMIT" or s.split()[0].upper() in ("INSERT", "UPDATE", "DELETE")]


def without_snapshot(app: Flask, client: FlaskClient) -> dict[str, str]:
    """A table of 40 hands whose persisted snapshot is gone, in a worker that has not settled it
    (as after a restore)."""
    tokens = create(client, hands=40)
    with app.app_context():
        db.session.query(Snapshot).delete()
        db.session.commit()
    store.forget()
    return tokens


def test_the_table_page_read_from_scratch_commits_nothing(app: Flask, client: FlaskClient) -> None:
    tokens = without_snapshot(app, client)
    with statements(app) as said:
        assert client.get(f"/t/{tokens['edit_token']}").status_code == 200
        assert client.get(f"/api/tables/{tokens['view_token']}/ledger").status_code == 200
    assert writes(said) == []
    with app.app_context():
        assert db.session.scalars(select(Snapshot)).first() is None


def test_the_snapshot_a_read_did_not_save_is_saved_by_the_next_write(app: Flask, client: FlaskClient) -> None:
    tokens = without_snapshot(app, client)
    assert client.get(f"/t/{tokens['edit_token']}").status_code == 200
    with app.app_context():
        opened, _ = store.open_table(tokens["edit_token"])
        store.add_hand(opened, {"pass": True})
        assert db.session.scalars(select(Snapshot)).one().count == 41


# What a new hand from the form costs in SQL statements (SQLite): the table by its token, the request
# id looked up once, the write (revision, the table, the last hand's place, hand, event) and the reads
# after it. It was 12 when the request id was looked up three times (the page's, before the write, in it).
NEW_HAND_STATEMENTS = 10


def test_a_new_hand_from_the_form_looks_its_request_id_up_once(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    table = make_table(hands=[])
    client.get(f"/t/{table.edit_token}")  # the worker has the table's state, as after opening the page
    data = hand_data(jugador="2", trump="oros", tricks_2="5", tricks_3="3", save="1", request_id="tap-1")
    with statements(app) as said:
        assert client.post(f"/t/{table.edit_token}/mano", data=data).status_code == 302
    lookups = [s for s in said if s.upper().startswith("SELECT") and "request_id = " in s]
    assert len(lookups) == 1, said
    assert len([s for s in said if s != "COMMIT"]) <= NEW_HAND_STATEMENTS, said
    assert client.post(f"/t/{table.edit_token}/mano", data=data).status_code == 302  # a second tap
    with app.app_context():
        assert len(store.read(store.open_table(table.edit_token)[0]).ledger["hands"]) == 1
