"""One registry of the store's caches: ``store.forget()`` empties every one, as in a freshly started worker."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from scorer import store
from scorer.store import cache, penas
from scorer.store.models import Table
from scorer.web.tables import routes as table_routes
from tests.store.test_snapshots import create
from tests.web.conftest import SAMPLE_HANDS


def fill_every_cache(app: Flask, client: FlaskClient, table: Table) -> None:
    """What the pages, the API and a peña's pages keep of a table in this process."""
    assert client.get(f"/t/{table.edit_token}").status_code == 200  # the state, its views, the scripts' words
    assert client.get(f"/t/{table.edit_token}/manos").status_code == 200  # a page of the hand list
    assert client.get(f"/api/tables/{table.view_token}/ledger").status_code == 200  # the ledger's JSON
    with app.app_context():
        opened, _ = store.open_table(table.edit_token)
        pena = penas.create_pena("Los del martes", [("Ana", None), ("Benito", None), ("Carmen", None), ("Diego", None)])
        penas.attach(pena, opened)
        assert len(penas.evenings(pena)) == 1  # the peña's documents of the table


def test_forget_empties_every_cache_of_the_store(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    store.forget()
    table = make_table(hands=SAMPLE_HANDS)
    fill_every_cache(app, client, table)
    kept = [c for c in cache._registry if isinstance(c, cache.Cache)]
    assert all(len(c) for c in (cache.states, cache.texts, cache.documents))
    assert table_routes._qr.cache_info().currsize  # the links' QR codes: an lru_cache of table data
    store.forget()
    assert [len(c) for c in kept] == [0] * len(kept)
    assert table_routes._qr.cache_info().currsize == 0


def test_forget_empties_the_pena_pages_documents(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """The peña's parsed sessions and ledgers were once kept apart, past the reset of the others."""
    table = make_table(hands=SAMPLE_HANDS)
    fill_every_cache(app, client, table)
    assert len(cache.documents)
    store.forget()
    assert len(cache.documents) == 0


def test_a_snapshot_window_and_its_views_go_with_forget(client: FlaskClient) -> None:
    tokens = create(client, hands=20)
    store.forget()
    assert client.get(f"/t/{tokens['view_token']}").status_code == 200  # a fresh worker: from the snapshot
    assert len(cache.windows) == 1 and len(cache.states) == 0
    store.forget()
    assert len(cache.windows) == 0


def test_a_cache_made_anywhere_is_registered() -> None:
    made: cache.Cache[str, int] = store.page_cache(4)
    made.put("a", 1)
    store.forget()
    assert made.get("a") is None
