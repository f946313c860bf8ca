"""What a refused queued entry carries, so that the phone can show both hands side by side: a deal
another phone took is answered 409 with ``taken_hand`` (its number, its words, the recorded hand as
the session file has it, and the refused entry as sent); a table that was closed is answered 403
with ``closed: true`` and a reason that says so, before any other judging (its closing is no hand
another phone took).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.store.models import Table
from tests.web.api.test_queue import PLAYED, as_hand, ledger_hands, send, state, won


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table(hands=PLAYED)


def close(client: FlaskClient, token: str) -> None:
    assert client.post(f"/api/tables/{token}/hands", json={"close": "devolver"}).status_code == 201


def test_a_taken_deal_is_answered_with_the_hand_that_took_it(client: FlaskClient, table: Table) -> None:
    token = table.edit_token
    known = state(client, token)
    other = as_hand(3, "espadas")  # another phone, online, records deal 3 first
    assert client.post(f"/api/tables/{token}/hands", json=other).status_code == 201
    body = {"form": "hand", "fields": won(3, "oros"), "deal": 3, "revision": known["revision"], "before": []}

    answer = send(client, token, "a1", body)

    assert answer.status_code == 409
    got = answer.get_json()
    taken = got["taken_hand"]
    assert taken["n"] == 3 and got["taken"] == 3
    assert got["reason"] == f"la mano 3 ya la anotó otro teléfono: {taken['words']}"
    assert taken["words"].startswith(["Ana", "Benito", "Carmen", "Diego"][other["jugador"] - 1] + " · ")
    assert " · entrada" in taken["words"] and "5-3-1" in taken["words"] and "ganada" in taken["words"]
    assert "\n" not in taken["words"]
    recorded = ledger_hands(client, token)[2]
    assert taken["hand"] == recorded and taken["hand"]["trump"] == "espadas"
    assert taken["entry"] == body  # the refused entry, exactly as the phone sent it
    assert got["closed"] is False
    assert len(ledger_hands(client, token)) == 3  # nothing saved


def test_the_taken_hands_words_are_in_the_pages_language(client: FlaskClient, table: Table) -> None:
    token = table.edit_token
    known = state(client, token)
    assert client.post(f"/api/tables/{token}/hands", json=as_hand(3, "copas")).status_code == 201
    body = {"form": "hand", "fields": won(3), "deal": 3, "revision": known["revision"], "before": []}
    got = send(client, token, "e1", body, "en").get_json()
    assert got["reason"] == f"hand 3 was already written down by another phone: {got['taken_hand']['words']}"
    assert "won" in got["taken_hand"]["words"]


def test_other_refusals_carry_no_taken_hand(client: FlaskClient, table: Table) -> None:
    token = table.edit_token
    known = state(client, token)
    body = {"form": "pass", "fields": {}, "deal": 4, "revision": known["revision"], "before": ["never-sent"]}
    got = send(client, token, "b1", body)
    assert got.status_code == 409
    assert got.get_json()["taken_hand"] is None and got.get_json()["taken"] is None
    assert got.get_json()["closed"] is False


def test_a_closed_table_says_it_was_closed_not_that_a_phone_took_the_deal(client: FlaskClient, table: Table) -> None:
    """The closing takes deal 3: the entry for deal 3 is refused because the table was closed."""
    token = table.edit_token
    known = state(client, token)
    close(client, token)
    body = {"form": "hand", "fields": won(3), "deal": 3, "revision": known["revision"], "before": []}

    answer = send(client, token, "c1", body)

    assert answer.status_code == 403
    got = answer.get_json()
    assert got["closed"] is True
    assert got["reason"] == "la partida se cerró (R30): ya no se puede guardar nada en ella"
    assert "otro teléfono" not in got["reason"] and "cierre" not in got["reason"]
    assert got["error"] == "La partida está cerrada (R30): ya no se puede cambiar."
    assert got["taken_hand"] is None and got["taken"] is None
    later = {**body, "deal": 4, "before": ["c1"]}  # every entry queued after it: the same words
    assert send(client, token, "c2", later).get_json()["reason"] == got["reason"]
    english = send(client, token, "c1", body, "en").get_json()
    assert english["closed"] is True and "closed" in english["reason"] and "another phone" not in english["reason"]


@pytest.mark.parametrize("form", ["hand", "pass", "ajuste", "favor"])
def test_every_form_on_a_closed_table_is_refused_as_closed(client: FlaskClient, table: Table, form: str) -> None:
    token = table.edit_token
    close(client, token)
    fields: dict[str, Any] = won(3) if form == "hand" else {}
    got = send(client, token, f"f-{form}", {"form": form, "fields": fields})  # an older queue: no deal
    assert got.status_code == 403 and got.get_json()["closed"] is True


def test_an_entry_saved_before_the_closing_is_still_answered_as_saved(client: FlaskClient, table: Table) -> None:
    """Its answer was lost; the table was closed since: the retry gets the first answer, no refusal."""
    token = table.edit_token
    known = state(client, token)
    body = {"form": "pass", "fields": {}, "deal": 3, "revision": known["revision"], "before": []}
    assert send(client, token, "r1", body).status_code == 201
    close(client, token)
    again = send(client, token, "r1", body)
    assert again.status_code == 200 and again.get_json()["replayed"] is True and again.get_json()["n"] == 3


def test_a_table_closed_through_the_services_refuses_as_closed(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """Closed by the keeper's closing page (the services' close_table): the reason names the rule."""
    from scorer import store

    table = make_table()
    with app.app_context():
        store.close_table(store.require_edit(table.edit_token))
    got = send(client, table.edit_token, "p1", {"form": "pass", "fields": {}, "deal": 4, "revision": 1}).get_json()
    assert got["closed"] is True and "(R30)" in got["reason"]
