"""Persisted snapshots (table ``snapshots``): a fresh worker shows a table from one, never trusting it over the hands.

Each check renders the table page twice: as a worker that settled the table itself
shows it, and as a freshly started worker (empty caches) does from the database. The
pages must be identical; whether the snapshot was used (``store.cache.windows``) or
ignored and rebuilt depends on whether it still matches the hands and is intact.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from scorer import store
from scorer.store import settled
from scorer.store.db import db
from scorer.store.models import Snapshot
from tests.engine.strategies import random_session


@pytest.fixture(autouse=True)
def empty_caches() -> Iterator[None]:
    store.forget()
    yield
    store.forget()


def page(client: FlaskClient, token: str) -> str:
    response = client.get(f"/t/{token}")
    assert response.status_code == 200
    html = re.sub(r'name="request_id" type="hidden" value="[0-9a-f]+"', "", response.get_data(as_text=True))
    # a CSRF token is signed with the second it was made: two renders a second apart differ there only
    html = re.sub(r'(<input[^>]*name="csrf_token"[^>]*value=")[^"]*"', r'\1(token)"', html)
    return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z", "(now)", html)  # the time the page was made


def create(client: FlaskClient, hands: int = 40, seed: int = 3, *, sienta: bool = False) -> dict[str, str]:
    """A table of generated hands; without changes of player unless ``sienta`` (R33)."""
    session = random_session(random.Random(seed), hands * 2, closing=False, players=4)
    kept = [h for h in session["hands"] if sienta or "sienta" not in h]
    session["hands"] = kept[:hands]
    assert len(session["hands"]) == hands and (not sienta or any("sienta" in h for h in kept[:hands]))
    response = client.post("/api/tables", json=session)
    assert response.status_code == 201
    return dict(response.get_json())


def settled_page(client: FlaskClient, token: str) -> str:
    """The page as a worker that settled every hand itself shows it."""
    store.forget()
    with client.application.app_context():
        table, _ = store.open_table(token)
        _state = store.read(table).settled  # settles the hands: the page then comes from that state
    return page(client, token)


def fresh_page(client: FlaskClient, token: str) -> tuple[str, bool]:
    """The page as a freshly started worker shows it, and whether it came from the snapshot."""
    store.forget()
    html = page(client, token)
    return html, store.cache.windows.get(_edit_token(client, token)) is not None


def _edit_token(client: FlaskClient, token: str) -> str:
    with client.application.app_context():
        return str(store.open_table(token)[0].edit_token)


def snapshot_row(app: Flask) -> Snapshot:
    with app.app_context():
        row = db.session.scalars(select(Snapshot)).one()
        db.session.expunge(row)
        return row


def tamper(app: Flask, **values: Any) -> None:
    with app.app_context():
        db.session.execute(update(Snapshot).values(**values))
        db.session.commit()


def rechecksum(row: Snapshot, text: str) -> str:
    """A checksum made for the damaged data (as a buggy writer would)."""
    return settled.checksum(row.table_id, row.count, row.digest, text)


def test_a_fresh_worker_shows_the_table_from_the_snapshot(app: Flask, client: FlaskClient) -> None:
    tokens = create(client)
    row = snapshot_row(app)
    assert row.count == 40  # written when the table was first settled from scratch
    for token in (tokens["view_token"], tokens["edit_token"]):
        expected = settled_page(client, token)
        got, from_snapshot = fresh_page(client, token)
        assert from_snapshot
        assert got == expected


def test_hands_added_after_the_snapshot_are_settled_on_top_of_it(app: Flask, client: FlaskClient) -> None:
    tokens = create(client)
    for _ in range(3):  # fewer than settled.SAVE_EVERY: the snapshot stays behind
        assert client.post(f"/api/tables/{tokens['edit_token']}/hands", json={"pass": True}).status_code == 201
    assert snapshot_row(app).count == 40
    expected = settled_page(client, tokens["view_token"])
    got, from_snapshot = fresh_page(client, tokens["view_token"])
    assert from_snapshot and got == expected
    assert "Próxima mano: la 44" in got


def test_an_edit_makes_the_snapshot_stale_and_a_new_one_is_written(app: Flask, client: FlaskClient) -> None:
    tokens = create(client)
    before = snapshot_row(app)
    response = client.put(f"/api/tables/{tokens['edit_token']}/hands/12", json={"pass": True})
    assert response.status_code == 200
    after = snapshot_row(app)
    assert after.digest != before.digest and after.revision > before.revision
    # the old one, put back, no longer matches the hands: ignored
    expected = settled_page(client, tokens["view_token"])
    tamper(app, digest=before.digest, data=before.data, checksum=before.checksum, count=before.count)
    got, from_snapshot = fresh_page(client, tokens["view_token"])
    assert not from_snapshot and got == expected


def test_a_missing_snapshot_is_rebuilt(app: Flask, client: FlaskClient) -> None:
    tokens = create(client)
    with app.app_context():
        db.session.query(Snapshot).delete()
        db.session.commit()
    settled_page(client, tokens["view_token"])  # settles from scratch: a read saves nothing
    with app.app_context():
        assert db.session.scalars(select(Snapshot)).first() is None
        table, _ = store.open_table(tokens["edit_token"])
        store.set_language(table, table.language)  # the next write saves the state that read settled
    assert snapshot_row(app).count == 40
    expected = settled_page(client, tokens["view_token"])
    got, from_snapshot = fresh_page(client, tokens["view_token"])
    assert from_snapshot and got == expected


def _changed_balance(text: str) -> str:
    data = json.loads(text)
    data["engine"]["state"]["v"][2]["t"][0] += 1000  # seat 1's balance: wrong, but well-formed
    return json.dumps(data)


@pytest.mark.parametrize(
    "damage",
    [
        "data altered, checksum kept",
        "not JSON, checksum matching",
        "unknown class, checksum matching",
        "digest of other hands",
        "count beyond the hands",
    ],
)
def test_a_damaged_snapshot_is_never_trusted(app: Flask, client: FlaskClient, damage: str) -> None:
    tokens = create(client)
    expected = settled_page(client, tokens["view_token"])
    row = snapshot_row(app)
    if damage == "data altered, checksum kept":
        tamper(app, data=_changed_balance(row.data))
    elif damage == "not JSON, checksum matching":
        tamper(app, data="{not json", checksum=rechecksum(row, "{not json"))
    elif damage == "unknown class, checksum matching":
        text = row.data.replace('"c":"tresillo.State"', '"c":"os.system"')
        assert text != row.data
        tamper(app, data=text, checksum=rechecksum(row, text))
    elif damage == "digest of other hands":
        tamper(app, digest=settled.digest([(1, 99)]))
    else:
        tamper(app, count=41)
    got, from_snapshot = fresh_page(client, tokens["view_token"])
    assert not from_snapshot
    assert got == expected


def test_a_wrong_but_intact_snapshot_of_other_hands_is_not_used(app: Flask, client: FlaskClient) -> None:
    """A snapshot written for other hands (a wrong balance, checksum recomputed) is caught by its digest."""
    tokens = create(client)
    other = create(client, seed=4)  # another table of 40 hands
    expected = settled_page(client, tokens["view_token"])
    with app.app_context():
        rows = {r.table_id: r for r in db.session.scalars(select(Snapshot))}
        first, second = sorted(rows)
        db.session.execute(
            update(Snapshot)
            .where(Snapshot.table_id == first)
            .values(data=rows[second].data, checksum=rows[second].checksum)
        )
        db.session.commit()
    got, from_snapshot = fresh_page(client, tokens["view_token"])
    assert got == expected
    assert other["view_token"] != tokens["view_token"]
    # the data of another table's players and rules cannot be resumed as this table's
    assert not from_snapshot


@pytest.mark.parametrize("added", [0, 3, 7])
def test_a_table_where_someone_changed_seat_shows_who_sits_where(app: Flask, client: FlaskClient, added: int) -> None:
    """R33: the snapshot keeps the seating its first kept entry was played with; hands added since move it on."""
    tokens = create(client, sienta=True)
    for _ in range(added):
        assert client.post(f"/api/tables/{tokens['edit_token']}/hands", json={"pass": True}).status_code == 201
    for token in (tokens["view_token"], tokens["edit_token"]):
        expected = settled_page(client, token)
        got, from_snapshot = fresh_page(client, token)
        assert from_snapshot
        assert got == expected


@pytest.mark.parametrize("added", [0, 5, 20])
def test_every_change_of_player_before_the_kept_entries_is_kept(app: Flask, client: FlaskClient, added: int) -> None:
    """R33: a long evening whose people changed several times before the snapshot's last entries: each old
    puesta is still in the box of whoever made it, and everyone who sat has their line, as the whole
    ledger says (20 hands added push entries out of the kept ones: their changes are carried on)."""
    session = random_session(random.Random(2), 240, closing=False, players=4)  # six changes of player
    changes = [n for n, hand in enumerate(session["hands"], 1) if "sienta" in hand]
    assert len([n for n in changes if n < 240 - settled.TAIL]) >= 4  # before the kept entries
    response = client.post("/api/tables", json=session)
    assert response.status_code == 201
    tokens = response.get_json()
    for _ in range(added):
        assert client.post(f"/api/tables/{tokens['edit_token']}/hands", json={"pass": True}).status_code == 201
    for token in (tokens["view_token"], tokens["edit_token"]):
        expected = settled_page(client, token)
        assert "(se fue)" in expected  # someone left: their box and their line
        got, from_snapshot = fresh_page(client, token)
        assert from_snapshot
        assert got == expected


def test_a_snapshot_kept_before_the_changes_of_player_were_is_rebuilt(app: Flask, client: FlaskClient) -> None:
    """A snapshot an older version wrote (no ``changes``) is not used: the table is settled afresh."""
    tokens = create(client, sienta=True)
    expected = settled_page(client, tokens["edit_token"])
    row = snapshot_row(app)
    data = json.loads(row.data)
    del data["changes"]
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    tamper(app, data=text, checksum=rechecksum(row, text))
    got, from_snapshot = fresh_page(client, tokens["edit_token"])
    assert got == expected
    assert not from_snapshot
