"""The table of a request is looked up once, from the link in its address (scorer/web/common/table.py):
each page, API answer and offline entry of a table reads its row by token once, and the refusals of
an unknown link or of the view link stay those of each blueprint."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorer import store
from scorer.store.db import db
from tests.web.conftest import sample_session


@pytest.fixture
def tokens(app: Flask) -> tuple[str, str]:
    with app.app_context():
        table = store.create_table(sample_session())
        return str(table.edit_token), str(table.view_token)


@contextmanager
def lookups_by_token(app: Flask) -> Iterator[list[str]]:
    """The SQL statements that look a table up by its link, run while the block runs."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        text = " ".join(statement.split())
        if "FROM tables" in text and "tables.edit_token =" in text and "tables.view_token =" in text:
            seen.append(text)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


@pytest.mark.parametrize(
    "path",
    [
        "/t/{edit}",
        "/t/{view}",
        "/t/{edit}/manos",
        "/t/{view}/mano/1",
        "/t/{edit}/mano/1/editar",
        "/t/{edit}/mano",
        "/t/{edit}/estado",
        "/t/{edit}/exportar.json",
        "/t/{edit}/mano/tras/1",
        "/api/tables/{view}",
        "/api/tables/{edit}/ledger",
        "/api/tables/{edit}/hands/2",
    ],
)
def test_a_table_read_looks_its_link_up_once(
    app: Flask, client: FlaskClient, tokens: tuple[str, str], path: str
) -> None:
    edit, view = tokens
    with lookups_by_token(app) as seen:
        response = client.get(path.format(edit=edit, view=view))
    assert response.status_code == 200, path
    assert len(seen) == 1, seen


def test_a_hand_saved_by_form_and_by_the_api_looks_its_link_up_once(
    app: Flask, client: FlaskClient, tokens: tuple[str, str]
) -> None:
    edit, _view = tokens
    with lookups_by_token(app) as seen:
        response = client.post(f"/t/{edit}/pasan", data={"request_id": "a-pass-by-form"})
    assert response.status_code == 302
    assert len(seen) == 1, seen
    with lookups_by_token(app) as seen:
        response = client.post(f"/api/tables/{edit}/hands", json={"pass": True})
    assert response.status_code == 201
    assert len(seen) == 1, seen


def test_an_unknown_link_is_refused_as_each_blueprint_says_it(client: FlaskClient, tokens: tuple[str, str]) -> None:
    unknown = "x" * len(tokens[0])
    page = client.get(f"/t/{unknown}")
    assert page.status_code == 404
    assert "text/html" in page.content_type
    api = client.get(f"/api/tables/{unknown}")
    assert api.status_code == 404
    assert api.get_json() == {"error": "unknown table: check the link"}
    entry = client.post(
        f"/api/tables/{unknown}/entries/form",
        json={"form": "pass", "fields": {}},
        headers={"Idempotency-Key": "k1"},
    )
    assert entry.status_code == 404
    assert set(entry.get_json()) >= {"error", "reason", "problems"}  # the queue's own refusal


def test_the_view_link_reads_but_never_writes(client: FlaskClient, tokens: tuple[str, str]) -> None:
    edit, view = tokens
    assert client.get(f"/t/{view}").status_code == 200
    assert client.get(f"/t/{view}/mano").status_code == 403
    assert client.post(f"/api/tables/{view}/hands", json={"pass": True}).status_code == 403
    assert client.delete(f"/api/tables/{view}/hands/3").status_code == 403
    assert len(client.get(f"/api/tables/{edit}").get_json()["hands"]) == 3  # nothing written
