"""The smoke path in both languages: the footer's switch, a table, a won entrada, the sheet.

English words are read from the English catalog (translations/en/LC_MESSAGES/messages.po), never
written here, so the test follows the catalog; the game's own words stay Spanish in both.
"""

from __future__ import annotations

import pathlib
import re
from typing import Any

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Page, expect

from scorer.engine import settle
from scorer.engine.tresillo import active_seats

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, assert_table_shows, new_session, next_dealer, seed_table, table_url, tricks_row, with_hand

pytestmark = pytest.mark.browser

CATALOG = pathlib.Path(__file__).resolve().parents[2] / "translations" / "en" / "LC_MESSAGES" / "messages.po"


def words(lang: str) -> Any:
    """``say(msgid, **values)`` in ``lang``: the msgid itself in Spanish, the catalog's English in English."""
    with CATALOG.open("rb") as f:
        catalog = read_po(f, locale="en")

    def say(msgid: str, **values: Any) -> str:
        text = msgid if lang == "es" else str(catalog[msgid].string)
        assert text, f"no English for {msgid!r}"
        return text % values if values else text

    return say


@pytest.mark.parametrize("lang", ["es", "en"])
def test_smoke_path_in_each_language(live_server: LiveServer, page: Page, taps: Taps, lang: str) -> None:
    say = words(lang)
    session = new_session()
    token, _view = seed_table(live_server, session, name="Dos idiomas", tanto_value="0.05", currency="€")
    # the switch in the footer of every page, remembered by the browser
    page.goto(live_server.url("/"))
    switch = page.get_by_role("navigation", name=re.compile("Idioma|Language"))
    target = {"es": "Español", "en": "English"}[lang]
    if switch.get_by_role("link", name=target).count():
        taps(switch.get_by_role("link", name=target))
    expect(page.locator("html")).to_have_attribute("lang", lang)

    page.goto(table_url(live_server, token))
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_role("region", name=say("Saldos"))).to_be_visible()
    a, b, c = active_seats(4, next_dealer(session))
    hand = {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {a: 5, b: 3, c: 1}}
    taps(page.get_by_role("link", name=f"{say('Juega')} {PLAYERS[a - 1]}", exact=True))
    expect(page.get_by_role("heading", level=1)).to_have_text(say("Anotar mano"))
    taps(page.get_by_role("group", name=say("Triunfo")).get_by_role("radio", name="oros", exact=True))
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="5", exact=True))
    taps(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="3", exact=True))
    taps(page.get_by_role("button", name=say("Guardar")))
    expect(page).to_have_url(table_url(live_server, token))
    expect(page.get_by_role("status").first).to_contain_text(PLAYERS[a - 1])  # the hand's message
    expect(page.locator("html")).to_have_attribute("lang", lang)
    after = with_hand(session, hand)
    assert_table_shows(page, after, saldos=say("Saldos"))
    assert settle(after)["hands"][-1]["result"] == "ganada"
    expect(page.get_by_role("main")).to_contain_text(say("ganada"))  # a result word: "won" in English
    if lang == "en":
        expect(page.get_by_role("main")).not_to_contain_text(say("Anotar mano"))
        expect(page.get_by_role("main")).to_contain_text(say("Saldos"))
