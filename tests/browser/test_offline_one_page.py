"""While offline the table page and its hand forms behave as one page: the engine's worker,
started when the network goes, is started once for the whole offline stretch.

On a phone that keeps the engine, with no network, *Anotar mano*, *Guardar*, *Cancelar* and Back put
the phone's kept copy of the other page in place (history.pushState): the window stays, and with it the
worker. A reload offline still opens the kept page; the queue is then sent as always.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorer.engine import settle
from scorer.words import result_word

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, fill_hand, new_session, seed_table, with_hand
from .test_offline import BACK_MS, api_json, pending, plan, wait_until
from .test_offline_engine import nets, prepare
from .test_offline_engine import pytestmark as engine_marks

pytestmark = engine_marks


def workers(page: Page) -> Any:
    return page.evaluate("document.documentElement.getAttribute('data-engine-workers')")


def test_offline_the_table_page_and_hand_forms_are_one_page_with_one_engine(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    for hand in plan(session, 2):
        session = with_hand(session, hand)
    token, _view = seed_table(live_server, session)
    prepare(page, live_server, token, taps)
    assert workers(page) is None  # online: no engine started
    page.evaluate("window.sameWindow = 'yes'")  # gone if the browser loads a page

    phone.set_offline(True)  # the network goes, on the table page: the engine starts warming up
    assert wait_until(page, "document.documentElement.getAttribute('data-engine-workers') === '1'")
    first, second = plan(session, 2)

    taps(page.get_by_role("link", name="Anotar mano"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    assert re.search(r"/t/[^/]+/mano/tras/0$", page.url)
    assert page.title().startswith("Anotar mano")
    fill_hand(page, taps, PLAYERS, first)
    bar = page.locator("#live")
    shown = settle(with_hand(session, first))["hands"][-1]
    expect(bar).to_contain_text("calculado sin conexión", timeout=60_000)
    expect(bar).to_contain_text(f"Mano 3 · {result_word(shown['result'])}")
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(1)  # the table page, in place
    expect(page.get_by_role("heading", level=1)).not_to_have_text("Anotar mano")
    assert page.url.endswith(f"/t/{token}")
    expect(page.locator("#sin-conexion")).to_be_visible()

    # a second hand form, then Back to the table page, then the form again
    taps(page.get_by_role("link", name="Anotar mano"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    assert page.url.endswith("/mano/tras/1")
    page.go_back()
    expect(page.get_by_role("heading", level=1)).not_to_have_text("Anotar mano")
    expect(pending(page)).to_have_count(1)
    page.go_forward()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    taps(page.get_by_role("link", name="Cancelar"))
    expect(pending(page)).to_have_count(1)
    taps(page.get_by_role("link", name="Anotar mano"))
    fill_hand(page, taps, PLAYERS, second)
    after = with_hand(with_hand(session, first), second)
    expected = settle(after)["hands"][-1]
    expect(bar).to_contain_text(f"Mano 4 · {result_word(expected['result'])}", timeout=10_000)
    for said in nets(expected, PLAYERS):
        expect(bar).to_contain_text(said)
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(2)

    assert page.evaluate("window.sameWindow") == "yes"  # never a page load
    assert workers(page) == "1"  # one worker for the whole stretch
    assert int(page.evaluate("document.documentElement.getAttribute('data-pages-in-place')")) >= 6

    page.reload()  # a reload offline: the kept page, a new window, the queue kept
    expect(pending(page)).to_have_count(2)
    expect(page.locator("#sin-conexion")).to_be_visible()

    phone.set_offline(False)
    note = page.get_by_role("status").filter(has_text="pendientes")
    expect(note).to_contain_text("Guardadas las 2 anotaciones", timeout=BACK_MS)
    expect(note).not_to_contain_text("no son los que se vieron")
    server = api_json(live_server, f"/api/tables/{token}/ledger")
    assert server == settle(after)


def test_online_pages_are_loaded_as_always(live_server: LiveServer, page: Page, taps: Taps) -> None:
    """With the network on, a prepared phone navigates as the browser does: nothing put in place."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    prepare(page, live_server, token, taps)
    page.evaluate("window.sameWindow = 'yes'")
    taps(page.get_by_role("link", name="Anotar mano"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    assert page.evaluate("window.sameWindow") is None
    assert page.evaluate("document.documentElement.getAttribute('data-pages-in-place')") is None
    assert page.evaluate("document.documentElement.getAttribute('data-engine-workers')") is None


def seat_nets(entry: dict[str, Any], names: list[str]) -> list[str]:
    """What each person wins or pays in a ledger entry, as the preview says it: a pot is nobody."""
    moved: dict[int, int] = {}
    for t in entry["transfers"]:
        if isinstance(t["from"], int):
            moved[t["from"]] = moved.get(t["from"], 0) - t["amount"]
        if isinstance(t["to"], int):
            moved[t["to"]] = moved.get(t["to"], 0) + t["amount"]
    return [f"{names[s - 1]} {'+' if v > 0 else '−'}{abs(v)}" for s, v in moved.items() if v]


THREE = ["Ana", "Benito", "Carmen"]
GAME_HANDS = {  # two hands each, by three players (all play): what the keeper taps offline
    "pozo_viuda": [
        {"jugador": 2, "lance": "juego", "trump": "copas", "tricks": {"2": 5, "3": 3, "1": 1}},
        {"jugador": 3, "lance": "juego", "trump": "oros", "tricks": {"3": 3, "1": 5, "2": 1}},
    ],
    "ombre": [
        {"jugador": 2, "lance": "entrada", "trump": "copas", "tricks": {"2": 5, "3": 3, "1": 1}},
        {"jugador": 3, "lance": "entrada", "trump": "oros", "tricks": {"3": 4, "1": 4, "2": 1}},
    ],
}


def tap_game_hand(page: Page, taps: Taps, hand: dict[str, Any]) -> None:
    jugador_group = page.get_by_role("group", name=re.compile(r"^Jugador"))
    taps(jugador_group.get_by_role("radio", name=THREE[hand["jugador"] - 1], exact=True))
    taps(page.get_by_role("group", name="Triunfo").get_by_role("radio", name=hand["trump"], exact=True))
    jugador = str(hand["jugador"])
    other = next(s for s in hand["tricks"] if s != jugador)
    for seat in (jugador, other):
        row = page.locator(f".tricks-row[data-seat='{seat}']")
        taps(row.get_by_role("radio", name=str(hand["tricks"][seat]), exact=True))


@pytest.mark.parametrize("ruleset", ["pozo_viuda", "ombre"])
def test_every_game_shows_its_payments_offline_as_the_server_records_them(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps, ruleset: str
) -> None:
    session = new_session(THREE, ruleset=ruleset)
    token, _view = seed_table(live_server, session, name="Sin señal")
    prepare(page, live_server, token, taps)
    phone.set_offline(True)
    bar = page.locator("#live")
    for i, hand in enumerate(GAME_HANDS[ruleset]):
        taps(page.get_by_role("link", name="Anotar mano"))
        expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
        tap_game_hand(page, taps, hand)
        session = with_hand(session, hand)
        expected = settle(session)["hands"][-1]
        expect(bar).to_contain_text("calculado sin conexión", timeout=60_000)
        expect(bar).to_contain_text(f"Mano {i + 1} · {result_word(expected['result'], ruleset)}")  # Ombre: sacada
        said = seat_nets(expected, THREE)
        assert said
        for words in said:
            expect(bar).to_contain_text(words)
        taps(page.get_by_role("button", name="Guardar"))
        expect(pending(page)).to_have_count(i + 1)
    assert workers(page) == "1"

    phone.set_offline(False)
    note = page.get_by_role("status").filter(has_text="pendientes")
    expect(note).to_contain_text("Guardadas las 2 anotaciones", timeout=BACK_MS)
    expect(note).not_to_contain_text("no son los que se vieron")
    assert api_json(live_server, f"/api/tables/{token}/ledger") == settle(session)


def test_bandos_shows_its_tantos_offline_as_the_server_records_them(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    six = ["A1", "B1", "A2", "B2", "A3", "B3"]
    session = new_session(six, ruleset="bandos", target=5)
    token, _view = seed_table(live_server, session, name="Bandos sin señal")
    prepare(page, live_server, token, taps)
    phone.set_offline(True)
    taps(page.get_by_role("link", name="Anotar mano"))
    primeras = page.get_by_role("group", name=re.compile("^Primeras"))
    taps(primeras.get_by_role("radio", name=re.compile("^Equipo B")))
    session = with_hand(session, {"primeras": "B"})
    expected = settle(session)["hands"][-1]
    bar = page.locator("#live")
    expect(bar).to_contain_text("calculado sin conexión", timeout=60_000)
    expect(bar).to_contain_text(f"Mano 1 · {result_word(expected['result'], 'bandos')}")
    for seat, score in expected["scores"].items():
        expect(bar).to_contain_text(f"{six[int(seat) - 1]} {score}")
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(1)
    phone.set_offline(False)
    expect(page.get_by_role("status").filter(has_text="pendiente")).to_contain_text("Guardada", timeout=BACK_MS)
    assert api_json(live_server, f"/api/tables/{token}/ledger") == settle(session)


def test_a_page_that_asks_for_no_payment_starts_no_engine_offline(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """The ajuste page is loaded whole offline (the phone's copy): it shows no payment, so it starts no
    worker (Pyodide would compile for nothing); back on the table page, one starts for its hand forms."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    prepare(page, live_server, token, taps)
    phone.set_offline(True)
    assert wait_until(page, "document.documentElement.getAttribute('data-engine-workers') === '1'")
    taps(page.get_by_role("link", name="Ajuste", exact=True))
    expect(page.get_by_role("heading", level=1)).to_have_text("Ajuste")
    expect(page.locator("#sin-conexion")).to_be_visible()  # the page knows it is offline: it has decided
    expect(page.locator("body")).to_have_attribute("data-pending", "0")  # offline.js has set the page up
    assert workers(page) is None
    page.go_back()
    expect(page.get_by_role("heading", level=1)).not_to_have_text("Ajuste")
    assert wait_until(page, "document.documentElement.getAttribute('data-engine-workers') === '1'")
    phone.set_offline(False)
