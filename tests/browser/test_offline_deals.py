"""Two phones at one table, one of them with no signal: never two copies of a deal.

Phone A goes offline and queues two hands; its table page shows the table as it will be (the next
deal, who deals it, who may play). Phone B, online, enters a whole round: the deal comes back to the
seat A expected. A comes back: the server refuses A's first entry, saying which hand took its deal,
nothing is recorded twice, and A's entries, corrected on the forms of the deals they can still take,
are saved after B's.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorer.engine.tresillo import active_seats

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, enter_hand, fill_hand, new_session, next_dealer, night, seed_table, with_hand
from .test_offline import BACK_MS, api_json, assert_saved_once, enter_offline, open_online, pending, wait_until

pytestmark = pytest.mark.browser


def watched(context: BrowserContext) -> tuple[Page, list[str]]:
    """A page that records JavaScript errors and CSP violations (checked at the end of the test)."""
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.on(
        "console",
        lambda m: problems.append(m.text) if m.type == "error" and "Content Security Policy" in m.text else None,
    )
    return page, problems


def roles_of(session: dict[str, Any]) -> tuple[int, int, int]:
    a, b, c = active_seats(4, next_dealer(session))
    return a, b, c


def turn_shown(page: Page) -> Any:
    return page.locator("[data-turn]")


def test_two_phones_nothing_twice_nothing_lost_and_a_told(
    live_server: LiveServer, new_phone: Callable[[], BrowserContext], taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    phone_a, phone_b = new_phone(), new_phone()
    a, a_problems = watched(phone_a)
    b, b_problems = watched(phone_b)
    open_online(a, live_server, token)
    b.goto(live_server.url(f"/t/{token}"))

    # A, with no network: two hands; the table page shows the deal after them
    phone_a.set_offline(True)
    mine = copy.deepcopy(session)
    first = night(*roles_of(mine))[0]  # the mano wins an entrada of oros
    enter_offline(a, taps, first, 0)
    mine = with_hand(mine, first)
    dealer = PLAYERS[next_dealer(mine) - 1]
    expect(turn_shown(a)).to_contain_text("Próxima mano: la 2")
    expect(turn_shown(a).locator(".dealer")).to_contain_text(dealer)
    x, y, z = roles_of(mine)
    players = a.get_by_role("navigation", name="Anotar la mano de quien juega").get_by_role("link")
    expect(players.locator(".name")).to_have_text([PLAYERS[s - 1] for s in (x, y, z)])  # the dealer does not play
    second = night(x, y, z)[1]  # the medio is set (puesta)
    taps(a.get_by_role("link", name=f"Juega {PLAYERS[second['jugador'] - 1]}", exact=True))
    expect(a.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    expect(a.get_by_text(f"Mano 2 · da {dealer}")).to_be_visible()
    fill_hand(a, taps, PLAYERS, second, chosen=True)  # "Juega …" chose the Jugador on the kept form too
    taps(a.get_by_role("button", name="Guardar"))
    expect(pending(a)).to_have_count(2)
    mine = with_hand(mine, second)
    expect(turn_shown(a)).to_contain_text("Próxima mano: la 3")
    expect(turn_shown(a).locator(".dealer")).to_contain_text(PLAYERS[next_dealer(mine) - 1])
    a.reload()  # the copy: its time said, no old message replayed
    expect(pending(a)).to_have_count(2)
    expect(a.locator("#sin-conexion")).to_have_text(re.compile(r"^sin conexión · datos de las \d\d:\d\d$"))
    expect(a.locator(".flash")).to_have_count(0)
    expect(turn_shown(a)).to_contain_text("Próxima mano: la 3")

    # B, online, enters a whole round: two hands and two passes; the deal comes back to Ana
    theirs = copy.deepcopy(session)
    round_ = [night(*roles_of(theirs))[2]]  # the postre's codillo
    theirs = with_hand(theirs, round_[0])
    round_.append(night(*roles_of(theirs))[0])
    theirs = with_hand(theirs, round_[1])
    for n, hand in enumerate([*round_, {"pass": True}, {"pass": True}], 1):
        enter_hand(b, taps, PLAYERS, hand, n)
    theirs = with_hand(with_hand(theirs, {"pass": True}), {"pass": True})
    assert next_dealer(theirs) == next_dealer(session)  # the seat A expected for its first hand
    before = api_json(live_server, f"/api/tables/{token}")["hands"]
    assert len(before) == 4

    # A comes back: told which hand took its deal; nothing twice
    phone_a.set_offline(False)
    refused = pending(a).first
    expect(refused).to_contain_text("no se ha guardado", timeout=BACK_MS)
    taker = PLAYERS[round_[0]["jugador"] - 1]
    expect(refused).to_contain_text("La mano 1 ya la anotó otro teléfono")
    expect(refused.locator("dd").nth(1)).to_contain_text(f"{taker} · entrada")  # beside what A entered
    expect(pending(a).nth(1)).to_contain_text("pendiente de guardar")  # waits behind it, in order
    assert api_json(live_server, f"/api/tables/{token}")["hands"] == before
    # B's four, then A's second: its first, refused, takes no deal unless the keeper records it anyway
    expect(turn_shown(a)).to_contain_text("Próxima mano: la 6")

    # A's first entry is another hand: recorded anyway, on the deal it can take now (the 5th), which
    # the button and the form both name
    expect(refused.get_by_role("button").first).to_have_text("Descartar (ya está anotada)")
    taps(refused.get_by_role("link", name="Anotarla como mano 5"))
    expect(a.get_by_role("alert")).to_contain_text("La mano 1 ya la anotó otro teléfono")
    expect(a.get_by_role("alert")).to_contain_text("Se guardará como la mano 5, no como la 1")
    jugador = a.get_by_role("group", name="Jugador", exact=True)
    expect(jugador.get_by_role("radio", name=PLAYERS[first["jugador"] - 1])).to_be_checked()
    expect(a.get_by_role("group", name="Triunfo").get_by_role("radio", name="oros", exact=True)).to_be_checked()
    expect(a.locator("[data-conflict]")).to_have_count(0)  # the deal came back to Ana: all of it fits
    taps(a.get_by_role("button", name="Guardar"))
    expect(a.get_by_role("status").filter(has_text="pendiente")).to_contain_text("Guardadas las 2 anotaciones")
    expect(pending(a)).to_have_count(0)
    assert_saved_once(live_server, token, with_hand(with_hand(theirs, first), second))
    assert not a_problems and not b_problems, a_problems + b_problems


def test_corrected_on_a_deal_where_it_does_not_fit_the_fields_are_marked(
    live_server: LiveServer, new_phone: Callable[[], BrowserContext], taps: Taps
) -> None:
    """B enters one hand while A's first waits: the deal A's entry can take is dealt by its Jugador,
    who may not play it (the alcalde): *Anotarla como mano 2* opens that deal's form with what was entered and
    marks what does not fit, for the keeper to choose again."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    phone_a, phone_b = new_phone(), new_phone()
    a, a_problems = watched(phone_a)
    open_online(a, live_server, token)
    phone_a.set_offline(True)
    a_hand = night(*roles_of(session))[0]  # the mano (Benito) wins
    enter_offline(a, taps, a_hand, 0)

    b, _b_problems = watched(phone_b)
    b.goto(live_server.url(f"/t/{token}"))
    other = night(*roles_of(session))[1]
    enter_hand(b, taps, PLAYERS, other, 1)
    phone_a.set_offline(False)
    refused = pending(a).first
    expect(refused).to_contain_text("La mano 1 ya la anotó otro teléfono", timeout=BACK_MS)
    taps(refused.get_by_role("link", name="Anotarla como mano 2"))
    expect(a.get_by_text(f"Mano 2 · da {PLAYERS[a_hand['jugador'] - 1]}")).to_be_visible()
    marked = a.locator("[data-conflict]")
    expect(marked.first).to_contain_text(f"Se anotó «{PLAYERS[a_hand['jugador'] - 1]}»")
    expect(a.get_by_role("group", name="Triunfo").get_by_role("radio", name="oros", exact=True)).to_be_checked()
    # chosen again: Ana played it, with the tricks as entered for the others (Carmen 3, Diego 1)
    fixed = {"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {1: 5, 3: 3, 4: 1}}
    fill_hand(a, taps, PLAYERS, fixed)
    taps(a.get_by_role("button", name="Guardar"))
    expect(a.get_by_role("status").filter(has_text="pendiente")).to_contain_text("Guardada la anotación")
    assert_saved_once(live_server, token, with_hand(with_hand(session, other), fixed))
    assert not a_problems, a_problems


def test_copies_say_when_they_are_from_and_replay_no_message(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """A hand saved online leaves "Mano 1 anotada…" on the page the phone keeps; opened again with no
    network, that copy says it is one, with its time, and not the message. The home page too, with
    the table the phone opened since it was installed."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session, name="Partida del jueves")
    page.goto(live_server.url("/"))  # installed here: the worker keeps the home page as it is now
    wait_until(page, "navigator.serviceWorker.controller !== null")
    open_online(page, live_server, token)
    enter_hand(page, taps, PLAYERS, night(*roles_of(session))[0], 1)
    expect(page.locator(".flash")).to_contain_text("Mano 1 anotada")
    expect(page.locator("body")).to_have_attribute("data-offline-ready", "true")

    phone.set_offline(True)
    page.reload()
    expect(page.locator("#sin-conexion")).to_have_text(re.compile(r"^sin conexión · datos de las \d\d:\d\d$"))
    expect(page.locator(".flash")).to_have_count(0)
    expect(page.get_by_role("region", name="Últimas manos").get_by_role("listitem")).to_have_count(1)
    page.goto(live_server.url("/"))
    expect(page.locator("#sin-conexion")).to_have_text(re.compile(r"^sin conexión · datos de las \d\d:\d\d$"))
    expect(page.get_by_role("link", name=re.compile("Partida del jueves"))).to_be_visible()
