"""In English, the table pages, their flash messages and the texts the scripts show read in English with
the i18n-pages fragment compiled, and the game's own words stay Spanish (Spanish, the default, is
checked byte for byte by the other page tests)."""

from __future__ import annotations

import json
import pathlib
import re
from collections.abc import Callable

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorer.store.models import Table

FRAGMENT = (
    pathlib.Path(__file__).resolve().parent.parent.parent / "translations" / "en" / "LC_MESSAGES" / "messages.po"
)  # the English catalog


@pytest.fixture
def english(app: Flask, tmp_path: pathlib.Path) -> FlaskClient:
    """A client of the app with the English catalog, every request in English."""
    folder = tmp_path / "en" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(FRAGMENT, "rb") as f:
        catalog = read_po(f, locale="en")
    with open(folder / "messages.mo", "wb") as f:
        write_mo(f, catalog)
    state = app.extensions["babel"]
    state.translation_directories = [str(tmp_path)]
    state.locale_selector = lambda: "en"
    return app.test_client()


def texts(html: str) -> dict[str, str]:
    found = re.search(r"data-texts='([^']*)'", html)
    assert found, "no texts for the scripts"
    return json.loads(found.group(1).replace("&#39;", "'").replace("&amp;", "&"))


def test_table_page_in_english(english: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    html = english.get(f"/t/{t.edit_token}").get_data(as_text=True)
    for words in ("Record a hand", "Balances", "Latest hands", "Share: links and QR codes", "All pass", ">Plato<"):
        assert words in html, words
    for words in ("Anotar mano", "Últimas manos", "Compartir"):
        assert words not in html, words
    scripts = texts(html)
    assert scripts["pending_many"] == "{n} entries not saved yet"  # the hole the script fills
    assert scripts["offline_at"] == "offline · data from {time}"


def test_hand_form_and_flash_in_english(english: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    form = english.get(f"/t/{t.edit_token}/mano").get_data(as_text=True)
    assert "Record a hand" in form and "Tricks" in form and ">Triunfo<" in form and ">Save<" in form
    assert texts(form)["cortada"] == "Bola cut by {name} ({jugador}-1-0)."
    page = english.post(f"/t/{t.edit_token}/pasan", follow_redirects=True).get_data(as_text=True)
    assert re.search(r"Hand \d+: all pass\.", page)


def test_view_link_gets_no_editing_words(english: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    html = english.get(f"/t/{t.view_token}").get_data(as_text=True)
    assert "view only" in html
    assert set(texts(html)) == {"offline", "offline_at", "refused_status"}


def test_home_and_new_table_in_english(english: FlaskClient) -> None:
    home = english.get("/").get_data(as_text=True)
    assert "<h1>Games</h1>" in home and 'href="/nueva">New game</a>' in home  # the header is base.html's
    new = english.get("/nueva").get_data(as_text=True)
    assert "Players, in the order they sit" in new and "House rules" in new
    assert texts(new)["seat_named"] == "{name} (seat {n})"


def test_every_page_has_the_words_of_its_scripts_once(english: FlaskClient, make_table: Callable[..., Table]) -> None:
    """base.html carries the scripts' words (the offline banner's too): the evening's closing, the peñas,
    the glossary and an error page as well as the table's pages."""
    t = make_table()
    made = english.post("/penas/nueva", data={"name": "Casino", "people": "Ana\nBenito\nCarmen"})
    assert made.status_code == 302
    pena = made.headers["Location"]
    pages = {
        f"/t/{t.edit_token}/cerrar": True,  # the closing (R30): a form
        pena: True,
        f"{pena}/nueva": True,
        "/penas": False,
        "/glosario": False,
        "/no-such-page": False,
        f"/t/{t.view_token}": False,
    }
    for url, forms in pages.items():
        html = english.get(url).get_data(as_text=True)
        assert html.count('id="i18n"') == 1, url
        words = texts(html)
        assert words["offline"] == "offline", url  # the banner's word, in the page's language
        assert ("offline_cannot" in words) is forms, url  # a page with a form says it cannot post offline
