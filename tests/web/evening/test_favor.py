"""The cambio de palo de favor on the pages (Tresillo R34): preview, save, undo by deleting,
shown in the hand list, on the table page, the sheet and the CSV; offline through the entries endpoint;
refused for the same suit (R34) and after the closing (R30)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorer import store
from scorer.store.models import Table
from tests.conftest import EXAMPLES, load_json

FAVOR = load_json(EXAMPLES / "favor_change.json")
FAVOR_LEDGER = load_json(EXAMPLES / "favor_change.ledger.json")


def text(response: Any) -> str:
    page = re.sub(r"</?span[^>]*>", "", response.get_data(as_text=True))  # inline: "oros <span>♦</span>"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def first(upto: int) -> dict[str, Any]:
    session = copy.deepcopy(FAVOR)
    session["hands"] = session["hands"][:upto]
    return session


def stored(app: Flask, token: str) -> list[dict[str, Any]]:
    with app.app_context():
        table, _ = store.open_table(token)
        return list(store.read(table).session_copy()["hands"])


def settled(app: Flask, token: str) -> dict[str, Any]:
    with app.app_context():
        table, _ = store.open_table(token)
        return dict(store.read(table).ledger_copy())


def test_the_table_page_offers_the_change_and_says_the_suit(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table(first(2))
    page = text(client.get(f"/t/{t.edit_token}"))
    assert "Cambio de palo de favor" in page
    # no change yet: the table's own suit is not repeated on the table page (the bar's room at 200 % text)
    assert "Palo de favor:" not in page
    form = text(client.get(f"/t/{t.edit_token}/favor"))
    assert "Palo de favor ahora: bastos" in form


def test_preview_then_save_as_the_example(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(first(2))
    preview = client.post(f"/t/{t.edit_token}/favor", data={"suit": "oros", "preview": "1", "request_id": "r1"})
    assert preview.status_code == 200
    said = text(preview)
    assert "Desde la mano 4 el palo de favor es oros" in said and "Hasta ahora era bastos" in said
    assert len(stored(app, t.edit_token)) == 2  # a preview saves nothing
    data = {"suit": "oros", "save": "1", "request_id": "r2", "note": FAVOR["hands"][2]["note"]}
    assert client.post(f"/t/{t.edit_token}/favor", data=data).status_code == 302
    assert stored(app, t.edit_token)[2] == FAVOR["hands"][2]
    # the rest of the example, entered as hands: the ledger is the example's
    for hand in FAVOR["hands"][3:6]:
        assert client.post(f"/api/tables/{t.edit_token}/hands", json=hand).status_code in (200, 201)
    ledger = settled(app, t.edit_token)
    assert ledger["balances"] == FAVOR_LEDGER["hands"][5]["balances"]
    page = text(client.get(f"/t/{t.edit_token}"))
    assert "Palo de favor: oros" in page and "Desde la mano 4: oros" in page and "Al empezar: bastos" in page
    hands = text(client.get(f"/t/{t.edit_token}/manos"))
    assert "cambio de palo de favor: desde la mano siguiente, oros" in hands


def test_the_same_suit_is_refused_naming_r34(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(first(2))
    response = client.post(f"/t/{t.edit_token}/favor", data={"suit": "bastos", "save": "1", "request_id": "r1"})
    assert response.status_code == 400
    section = response.get_data(as_text=True).split('id="f-suit"', 1)[1].split("</fieldset>", 1)[0]
    assert "El palo de favor ya es bastos" in section and "R34" in section
    assert len(stored(app, t.edit_token)) == 2


def test_an_unknown_suit_is_refused(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(first(2))
    response = client.post(f"/t/{t.edit_token}/favor", data={"suit": "picas", "save": "1", "request_id": "r1"})
    assert response.status_code == 400
    assert "Elige el nuevo palo de favor" in text(response)
    assert len(stored(app, t.edit_token)) == 2


def test_after_the_closing_it_is_refused_naming_r30(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table({**first(2), "hands": [*first(2)["hands"], {"close": "repartir"}]})
    response = client.post(
        f"/t/{t.edit_token}/favor", data={"suit": "oros", "save": "1", "request_id": "r1"}, follow_redirects=True
    )
    assert "R30" in text(response)
    assert len(stored(app, t.edit_token)) == 3
    queued = client.post(
        f"/api/tables/{t.edit_token}/entries/form",
        json={"form": "favor", "fields": {"suit": "oros"}},
        headers={"Idempotency-Key": "q1"},
    )
    # a closed table is answered 403 with closed: true, like a hand sent to it (docs/api.md)
    assert queued.status_code == 403
    assert queued.get_json()["closed"] is True
    assert "R30" in str(queued.get_json())
    assert len(stored(app, t.edit_token)) == 3


def test_undo_by_deleting_it(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(first(3))
    assert settled(app, t.edit_token)["favor_suit"] == "oros"
    assert "no se corrige" in text(client.get(f"/t/{t.edit_token}/mano/3/editar", follow_redirects=True))
    page = text(client.get(f"/t/{t.edit_token}/mano/3"))
    assert "Cambio de palo de favor" in page and "oros" in page
    with app.app_context():
        table, _ = store.open_table(t.edit_token)
        store.delete_hand(table, 3)
    assert settled(app, t.edit_token)["favor_suit"] == "bastos"


def test_kept_offline_like_the_ajuste(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(first(2))
    page = client.get(f"/t/{t.edit_token}/favor").get_data(as_text=True)
    assert 'data-offline="favor"' in page
    table_page = client.get(f"/t/{t.edit_token}").get_data(as_text=True)
    assert f"/t/{t.edit_token}/favor" in table_page
    queued = client.post(
        f"/api/tables/{t.edit_token}/entries/form",
        json={"form": "favor", "fields": {"suit": "oros", "note": "sin conexión"}},
        headers={"Idempotency-Key": "q1"},
    )
    assert queued.status_code in (200, 201), queued.get_json()
    assert stored(app, t.edit_token)[2] == {"favor": "oros", "note": "sin conexión"}
    same = client.post(
        f"/api/tables/{t.edit_token}/entries/form",
        json={"form": "favor", "fields": {"suit": "oros"}},
        headers={"Idempotency-Key": "q2"},
    )
    assert same.status_code == 422
    assert len(stored(app, t.edit_token)) == 3


def test_the_csv_and_the_sheet_say_the_change(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(FAVOR)
    csv_text = client.get(f"/t/{t.edit_token}/exportar.csv").get_data(as_text=True)
    assert "cambio de palo de favor" in csv_text
    sheet = text(client.get(f"/tables/{t.edit_token}/sheet"))
    assert "Desde la mano 4: oros" in sheet and "Desde la mano 8: espadas" in sheet


def test_an_english_tables_sheet_says_the_changes_in_english_to_a_spanish_reader(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """The sheet prints in the table's language, the favour lines too."""
    t = make_table(FAVOR, language="en")
    sheet = text(client.get(f"/tables/{t.edit_token}/sheet", headers={"Accept-Language": "es"}))
    assert "Changes of favour suit: At the start: bastos ♣. From hand 4: oros ♦. From hand 8: espadas ♠." in sheet
    assert "Change of favour suit: from the next hand, oros ♦" in sheet
    assert "Desde la mano" not in sheet and "desde la mano siguiente" not in sheet
