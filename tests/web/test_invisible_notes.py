"""A note that shows nothing says nothing: a disagreement whose note is only zero-width or other
invisible characters is refused as one without a note (API and page), and an agreement's such
note is kept empty (scorer.limits.shows_nothing)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from scorer import limits
from scorer.store.models import Table

INVISIBLE = [
    "\u200b\u200b\u200b",  # zero-width spaces
    "\u200b \u200c\u200d\u2060\ufeff",  # with a space, joiners, word joiner, BOM
    "\u00ad\u200e\u200f",  # soft hyphen, LRM, RLM
    "\u3164\u2800 \u115f",  # Hangul filler, braille blank
    "\u0301\u0308",  # combining marks on nothing
    "\u3000\u00a0",  # ideographic and no-break spaces
]


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table()


@pytest.mark.parametrize("note", INVISIBLE)
def test_only_invisible_characters_show_nothing(note: str) -> None:
    assert limits.shows_nothing(note)


@pytest.mark.parametrize("note", ["4", "eran\u200b 4 estuches", "\u200b.", "ñ", "\u2014", "🂡"])
def test_a_visible_character_shows_something(note: str) -> None:
    assert not limits.shows_nothing(note)


@pytest.mark.parametrize("note", INVISIBLE)
def test_an_invisible_note_is_no_note_for_the_api(client: FlaskClient, table: Table, note: str) -> None:
    url = f"/api/tables/{table.view_token}/hands/1/answers"
    refused = client.post(url, json={"person": "Carmen", "agrees": False, "note": note})
    assert refused.status_code == 422
    assert "a disagreement needs a note" in refused.get_json()["error"]
    assert client.get(f"/api/tables/{table.view_token}/hands/1").get_json()["answers"] == []
    agreed = client.post(url, json={"person": "Carmen", "agrees": True, "note": note})
    assert agreed.status_code == 201
    assert [(a["person"], a["agrees"], a["note"]) for a in agreed.get_json()["answers"]] == [("Carmen", True, "")]


def test_an_invisible_note_is_no_note_on_the_page(client: FlaskClient, table: Table) -> None:
    token = table.view_token
    data = {"persona": "Carmen", "acuerdo": "no", "nota": "\u200b\u200b\u200b"}
    response = client.post(f"/t/{token}/mano/1/respuesta", data=data)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "No se ha guardado tu respuesta" in page
    assert "Di en una nota qué no es así" in page
    assert client.get(f"/api/tables/{token}/hands/1").get_json()["answers"] == []


def test_a_note_with_words_keeps_its_characters(client: FlaskClient, table: Table) -> None:
    url = f"/api/tables/{table.view_token}/hands/1/answers"
    answer = client.post(url, json={"person": "Carmen", "agrees": False, "note": "  eran\u200b 4 estuches "})
    assert answer.status_code == 201
    assert answer.get_json()["answers"][0]["note"] == "eran\u200b 4 estuches"
