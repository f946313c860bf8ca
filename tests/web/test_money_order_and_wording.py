"""Money rounds half up to the cent, every negative number has the minus sign,
a closed table says "Partida cerrada" once, the ajuste preview says its explanation once."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from decimal import Decimal

from flask import Flask
from flask.testing import FlaskClient

from scorer.store.models import Table
from scorer.web.pena.present import cents
from scorer.words import money_text
from tests.conftest import EXAMPLES, load_json

REAL = load_json(EXAMPLES / "real_evening.json")


def test_money_rounds_half_up_to_the_cent(app: Flask) -> None:
    """ "Media por noche": 8.125 and −21.625 are 8,13 € and −21,63 € (not 8,12 and −21,62)."""
    with app.test_request_context():
        assert money_text(1, cents(Decimal("8.125")), "€") == "8,13\u00a0€"
        assert money_text(1, cents(Decimal("-21.625")), "€") == "\u221221,63\u00a0€"


def test_closed_table_says_it_once_and_pending_nets_have_the_minus_sign(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    session = copy.deepcopy(REAL)
    session["hands"] = session["hands"][:2]  # Diego's reserved puesta of 55 is pending
    t = make_table(session)
    page = client.get(f"/t/{t.edit_token}").get_data(as_text=True)
    pending = page.split("Con las puestas reservadas pendientes:", 1)[1].split("</p>", 1)[0]
    assert "\u221270" in pending and not re.search(r"(?<![\w-])-\d", pending), pending  # −15 − 55
    closed = client.post(f"/t/{t.edit_token}/cerrar", data={"how": "devolver", "request_id": "r-close"})
    assert closed.status_code == 302
    page = client.get(f"/t/{t.edit_token}").get_data(as_text=True)
    assert page.count("Partida cerrada") == 1
    assert "Cierre guardado." in page


def test_ajuste_preview_explains_once(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(copy.deepcopy(dict(REAL, hands=REAL["hands"][:3])))
    data = {
        "payer": "1",
        "to": "todos",
        "amount": "5",
        "reason": "renuncio",
        "note": "",
        "preview": "1",
        "request_id": "r-a",
    }
    page = client.post(f"/t/{t.edit_token}/ajuste", data=data).get_data(as_text=True)
    assert page.count("ajuste: 5 a cada uno") == 1, re.sub(r"\s+", " ", page.split("<main", 1)[1])[:1500]
    assert "+5 con esta anotación" in page  # was "+5 ahora"


def test_the_sheet_lists_people_in_seat_order_as_the_table_does(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """The sheet lists people in seat order, as the table does (not alphabetically)."""
    t = make_table(players=["Diego", "Ana", "Carmen", "Benito"])
    sheet = client.get(f"/tables/{t.edit_token}/sheet").get_data(as_text=True)
    listed = re.findall(r'<bdi class="name">([^<]+)</bdi>', sheet.split('class="players"', 1)[1].split("</ol>", 1)[0])
    assert listed == ["Diego", "Ana", "Carmen", "Benito"]


def test_a_keeper_reading_english_is_offered_the_sheet_in_english(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """ "The sheet prints in the table's language; a keeper who reads English should be offered to switch it"."""
    t = make_table(language="es")
    client.set_cookie("lang", "en")
    keeper = client.get(f"/tables/{t.edit_token}/sheet").get_data(as_text=True)
    assert "#sheet-offer" in keeper and 'lang="en"' in keeper
    assert "This sheet prints in" in keeper
    watcher = client.get(f"/tables/{t.view_token}/sheet").get_data(as_text=True)
    assert "#sheet-offer" not in watcher  # only the keeper can change the table's language
