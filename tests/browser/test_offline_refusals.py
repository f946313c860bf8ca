"""After a refusal, no tap records a hand twice or moves a trick (two phones at one table).

Phone B keeps hands with no network while phone A, online, records the same deals; or A's table
changes under B's queue (a hand deleted, the table closed). When B's queue is refused, the screen
says what happened and what to do, and the obvious tap is safe: a deal the other phone took is
shown beside theirs and discarded first; *Corregir* keeps what was entered and marks what the new
form cannot take; *Descartar* judges the entries after it again and says what became of them; a
closed table's entries say so, each with words on its buttons and a way to copy what was entered.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, enter_hand, new_session, seed_table, table_url, tricks_row, with_hand
from .test_accessibility import AXE, audit
from .test_offline import BACK_MS, api_json, assert_saved_once, enter_offline, open_online, pending, plan
from .test_offline_deals import watched

pytestmark = pytest.mark.browser


def two_phones(
    live_server: LiveServer, new_phone: Callable[[], BrowserContext], session: dict[str, Any]
) -> tuple[str, BrowserContext, Page, Page, list[str]]:
    """A table; phone B opened online (kept for offline), phone A on the table page. Returns the token,
    B's context, A's and B's pages and the JavaScript problems seen on either."""
    token, _view = seed_table(live_server, session)
    phone_a, phone_b = new_phone(), new_phone()
    a, a_problems = watched(phone_a)
    b, b_problems = watched(phone_b)
    open_online(b, live_server, token)
    a.goto(table_url(live_server, token))
    return token, phone_b, a, b, a_problems + b_problems


def readable(page: Page) -> None:
    """No accessibility violation (axe-core), and no sideways scroll at 200 % text on a phone."""
    assert audit(page, AXE.read_text(encoding="utf-8")) == []
    page.set_viewport_size({"width": 195, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 390, "height": 844})


def labelled(locator: Any) -> list[str]:
    """The words of every button and link (an empty string for one with none)."""
    return [" ".join(text.split()) for text in locator.locator("button, a").all_inner_texts()]


def test_a_deal_another_phone_took_is_shown_beside_theirs_and_discarded_first(
    live_server: LiveServer, new_phone: Callable[[], BrowserContext], taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    token, phone_b, a, b, problems = two_phones(live_server, new_phone, session)
    first, second = plan(session, 2)
    phone_b.set_offline(True)
    enter_offline(b, taps, first, 0)  # deal 1, on B
    enter_hand(a, taps, PLAYERS, first, 1)  # the same real hand, on A; and the next one
    enter_hand(a, taps, PLAYERS, second, 2)

    phone_b.set_offline(False)
    refused = pending(b).first
    expect(refused).to_contain_text("La mano 1 ya la anotó otro teléfono", timeout=BACK_MS)
    mine, theirs = refused.locator("dd").nth(0), refused.locator("dd").nth(1)
    expect(refused.locator("dt")).to_have_text(["Este teléfono", "Mano 1, del otro teléfono"])
    expect(mine).to_contain_text(PLAYERS[first["jugador"] - 1])
    expect(theirs).to_contain_text(f"{PLAYERS[first['jugador'] - 1]} · entrada")
    # the safe tap first; recording it anyway names the deal it would take
    expect(refused.locator("button, a")).to_have_text(["Descartar (ya está anotada)", "Anotarla como mano 3"])
    expect(refused.get_by_role("link", name="Corregir")).to_have_count(0)
    readable(b)

    taps(refused.get_by_role("button", name="Descartar (ya está anotada)"))
    expect(pending(b)).to_have_count(0)
    expect(b.locator("#rejudged")).to_contain_text("Descartada")
    assert_saved_once(live_server, token, with_hand(with_hand(session, first), second))
    assert not problems, problems


def test_corregir_keeps_the_tricks_of_a_seat_that_now_deals_and_waits_for_a_choice(
    live_server: LiveServer, new_phone: Callable[[], BrowserContext], taps: Taps
) -> None:
    """B keeps, for deal 3 (Carmen deals), a codillo won by Benito: Diego 3 · Ana 1 · Benito 5. A
    deletes hand 2: the entry now falls on a deal Benito deals. *Corregir* keeps Diego's and Ana's
    tricks, marks Benito's 5 with what was entered, never gives them to Carmen, and does not save
    until the keeper chooses."""
    session = new_session(favor_suit="bastos")
    for hand in plan(session, 2):
        session = with_hand(session, hand)
    token, phone_b, _a, b, problems = two_phones(live_server, new_phone, session)
    phone_b.set_offline(True)
    codillo = {"jugador": 4, "lance": "entrada", "trump": "espadas", "tricks": {4: 3, 1: 1, 2: 5}}
    enter_offline(b, taps, codillo, 0)

    from scorer import store

    with live_server.app.app_context():
        store.delete_hand(store.require_edit(token), 2)
    phone_b.set_offline(False)
    refused = pending(b).first
    expect(refused).to_contain_text("no se ha guardado", timeout=BACK_MS)
    taps(refused.get_by_role("link", name="Corregir"))
    expect(b.get_by_text("Mano 2 · da Benito")).to_be_visible()
    expect(b.get_by_role("group", name="Jugador", exact=True).get_by_role("radio", name="Diego")).to_be_checked()
    expect(tricks_row(b, "Diego").get_by_role("radio", name="3", exact=True)).to_be_checked()
    expect(tricks_row(b, "Ana").get_by_role("radio", name="1", exact=True)).to_be_checked()
    expect(tricks_row(b, "Carmen").locator("input:checked")).to_have_count(0)  # Benito's 5 not moved to her
    tricks = b.locator("#f-tricks")
    expect(tricks).to_have_attribute("data-conflict", "true")
    expect(tricks).to_contain_text("Se anotó «Benito: 5»")
    expect(b.get_by_role("alert")).to_contain_text("Se guardará como la mano 2, no como la 3")

    taps(b.get_by_role("button", name="Guardar"))  # nothing chosen there yet: not saved
    expect(b.get_by_role("alert")).to_contain_text("Antes de guardar, elige de nuevo lo marcado")
    expect(b.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    assert len(api_json(live_server, f"/api/tables/{token}")["hands"]) == 1

    # the keeper chooses: Carmen, who played in Benito's place, took the 5
    taps(tricks_row(b, "Carmen").get_by_role("radio", name="5", exact=True))
    taps(b.get_by_role("button", name="Guardar"))
    expect(b.get_by_role("status").filter(has_text="pendiente")).to_contain_text("Guardada la anotación")
    chosen = {"jugador": 4, "lance": "entrada", "trump": "espadas", "tricks": {4: 3, 1: 1, 3: 5}}
    kept = copy.deepcopy(session)
    kept["hands"] = kept["hands"][:1]
    assert_saved_once(live_server, token, with_hand(kept, chosen))
    assert not problems, problems


def test_discarding_a_taken_deal_judges_the_next_entries_again_and_says_what_changed(
    live_server: LiveServer, new_phone: Callable[[], BrowserContext], taps: Taps
) -> None:
    """B keeps deals 1, 2 and 3; A records 1 and 2 (the same real hands). Descartar on B's first does
    not slide its second onto deal 1: the second is judged on its own deal (taken too, shown with A's
    hand 2) and said so; discarding that one, the third is saved as hand 3."""
    session = new_session(favor_suit="bastos")
    token, phone_b, a, b, problems = two_phones(live_server, new_phone, session)
    hands = plan(session, 3)
    phone_b.set_offline(True)
    for i, hand in enumerate(hands):
        enter_offline(b, taps, hand, i)
    enter_hand(a, taps, PLAYERS, hands[0], 1)
    enter_hand(a, taps, PLAYERS, hands[1], 2)

    phone_b.set_offline(False)
    expect(pending(b).first).to_contain_text("La mano 1 ya la anotó otro teléfono", timeout=BACK_MS)
    taps(pending(b).first.get_by_role("button", name="Descartar (ya está anotada)"))
    expect(pending(b)).to_have_count(2)
    second = pending(b).first
    expect(second).to_contain_text("La mano 2 ya la anotó otro teléfono")
    expect(second.locator("dd").nth(1)).to_contain_text(f"{PLAYERS[hands[1]['jugador'] - 1]} · entrada")
    told = b.locator("#rejudged")
    expect(told).to_contain_text("Las de después se han comprobado de nuevo")
    expect(told.get_by_role("listitem")).to_have_count(2)
    expect(told.get_by_role("listitem").first).to_contain_text("no se ha guardado: la mano 2 ya la anotó otro teléfono")
    expect(told.get_by_role("listitem").nth(1)).to_contain_text("pendiente de guardar")
    assert len(api_json(live_server, f"/api/tables/{token}")["hands"]) == 2

    taps(second.get_by_role("button", name="Descartar (ya está anotada)"))
    expect(pending(b)).to_have_count(0, timeout=BACK_MS)
    expect(b.locator("#rejudged")).to_contain_text("guardada")
    assert_saved_once(live_server, token, with_hand(with_hand(with_hand(session, hands[0]), hands[1]), hands[2]))
    assert not problems, problems


def test_a_closed_table_says_so_on_every_entry_with_words_on_every_button(
    live_server: LiveServer, new_phone: Callable[[], BrowserContext], taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    token, phone_b, _a, b, problems = two_phones(live_server, new_phone, session)
    hands = plan(session, 2)
    phone_b.set_offline(True)
    enter_offline(b, taps, hands[0], 0)
    enter_offline(b, taps, hands[1], 1)

    from scorer import store

    with live_server.app.app_context():
        store.close_table(store.require_edit(token))
    phone_b.set_offline(False)
    entries = pending(b)
    for i in range(2):
        expect(entries.nth(i)).to_contain_text("la partida se cerró", timeout=BACK_MS)
        expect(entries.nth(i)).not_to_contain_text("otro teléfono")
        assert labelled(entries.nth(i)) == ["Descartar", "Copiar lo anotado"]
    box = b.get_by_role("region", name=re.compile("sin guardar"))
    expect(box).not_to_contain_text("Se guardan solas")
    expect(box).to_contain_text("Ninguna se puede guardar: la partida está cerrada")
    expect(box.get_by_role("link", name="Corregir")).to_have_count(0)

    taps(entries.first.get_by_role("button", name="Copiar lo anotado"))
    copied = entries.first.get_by_role("textbox", name="Lo anotado")
    expect(copied).to_have_value(re.compile(PLAYERS[hands[0]["jugador"] - 1]))
    readable(b)
    taps(entries.first.get_by_role("button", name="Descartar"))
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("la partida se cerró")
    assert labelled(entries.first) == ["Descartar", "Copiar lo anotado"]
    assert [h.get("close") for h in api_json(live_server, f"/api/tables/{token}")["hands"]] == ["devolver"]
    assert not problems, problems


def test_the_next_hand_and_the_help_count_only_entries_that_can_still_be_saved(
    live_server: LiveServer, new_phone: Callable[[], BrowserContext], taps: Taps
) -> None:
    """B keeps deals 1 and 2; A records deal 1. B's first is refused (taken): the table page's next hand
    is the 3rd (A's 1, B's 2 waiting), not the 4th, and no line says they are saved by themselves."""
    session = new_session(favor_suit="bastos")
    _token, phone_b, a, b, problems = two_phones(live_server, new_phone, session)
    hands = plan(session, 2)
    phone_b.set_offline(True)
    enter_offline(b, taps, hands[0], 0)
    enter_offline(b, taps, hands[1], 1)
    box = b.get_by_role("region", name=re.compile("sin guardar"))
    expect(box).to_contain_text("Se guardan solas")  # nothing refused yet
    enter_hand(a, taps, PLAYERS, hands[0], 1)

    phone_b.set_offline(False)
    expect(pending(b).first).to_contain_text("La mano 1 ya la anotó otro teléfono", timeout=BACK_MS)
    expect(b.locator("[data-turn]")).to_contain_text("Próxima mano: la 3")
    expect(box).not_to_contain_text("Se guardan solas")
    expect(box).to_contain_text("hasta que la descartes o la corrijas, la siguiente espera")
    assert not problems, problems
