"""A real evening on the keeper's phone (390×844): a 9-0-0 entered without ticking bola is a bola hecha
(R19), an ajuste (R32), a change of player (R33) and the closing with repartir (R30), checking the balances
by person against the engine. The new screens are also checked at 195 px wide (200 % text size).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from playwright.sync_api import Page, expect

from scorer.engine import settle
from scorer.engine.tresillo import active_seats

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, enter_hand, new_session, next_dealer, read_balances, seed_table, table_url, with_hand
from .test_screenshots import LAYOUT_PROBLEMS, MIN_TARGET

NARROW = {"width": 195, "height": 844}


def fits(page: Page, width: int | None = None) -> None:
    """No sideways scrolling, nothing off screen, every control thumb-sized (at this width)."""
    # a page opened by a tap may still be loading its style sheet (a slow machine): measure it styled
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => true)")
    if width is not None:
        page.set_viewport_size({"width": width, "height": 844})
    problems = page.evaluate(LAYOUT_PROBLEMS, MIN_TARGET)
    assert not problems, f"{page.url} at {width or 390} px:\n" + "\n".join(problems)
    if width is not None:
        page.set_viewport_size({"width": 390, "height": 844})


def people_shown(page: Page) -> dict[str, int]:
    """The Saldos table by person; "Diego (se fue)" is Diego."""
    shown = read_balances(page.get_by_role("region", name="Saldos"))
    return {re.sub(r"\s*\(se fue\)$", "", name): tantos for name, tantos in shown.items()}


def test_a_real_evening(live_server: LiveServer, page: Page, taps: Taps) -> None:
    session = new_session(favor_suit="bastos")
    for hand in ({"pass": True}, {"pass": True}):
        session = with_hand(session, hand)
    edit, _view = seed_table(live_server, session, name="Noche en el casino")
    page.goto(table_url(live_server, edit))

    # a 9-0-0 without the bola flag: the tricks say it (R19)
    mano, medio, postre = active_seats(4, next_dealer(session))
    bola = {"jugador": mano, "lance": "entrada", "trump": "oros", "tricks": {mano: 9, medio: 0, postre: 0}}
    enter_hand(page, taps, PLAYERS, bola, 3)
    session = with_hand(session, bola)
    assert settle(session)["hands"][-1]["result"] == "bola"
    expect(page.get_by_role("region", name="Últimas manos")).to_contain_text("bola hecha")

    # an ajuste: Benito pays 25 into the plato for a renuncio (R32)
    taps(page.get_by_role("link", name="Ajuste"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Ajuste")
    fits(page, NARROW["width"])
    taps(page.get_by_role("group", name="¿Quién paga?").get_by_role("radio", name="Benito"))
    taps(page.get_by_role("group", name="¿A quién?").get_by_role("radio", name="El plato"))
    page.get_by_label("¿Cuántos tantos?").fill("25")
    taps(page.get_by_role("group", name="¿Por qué?").get_by_role("radio", name="renuncio"))
    taps(page.get_by_role("button", name="Ver pagos"))
    expect(page.locator("#pagos")).to_contain_text("Benito paga 25 al plato")
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status")).to_contain_text("Ajuste anotado (4)")
    session["hands"].append({"ajuste": {"from": 2, "to": "plato", "amount": 25}, "note": "renuncio"})
    expect(page.get_by_role("region", name="Últimas manos")).to_contain_text("ajuste: Benito paga 25 al plato")

    # a hand that leaves a puesta in the plato, so the closing has something to share
    mano, medio, postre = active_seats(4, next_dealer(session))
    puesta = {"jugador": mano, "lance": "entrada", "trump": "copas", "tricks": {mano: 4, medio: 4, postre: 1}}
    enter_hand(page, taps, PLAYERS, puesta, 5)
    session = with_hand(session, puesta)

    # Diego leaves, Elena sits at seat 4 (R33): the screen says what it cancels before confirming
    taps(page.get_by_role("link", name="Cambio de jugador"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Cambio de jugador")
    fits(page, NARROW["width"])
    taps(page.get_by_role("group", name="¿Qué asiento cambia?").get_by_role("radio", name="4 · Diego"))
    taps(page.get_by_role("group", name="¿Quién se sienta?").get_by_role("radio", name="Otro nombre"))
    page.get_by_label("Nombre de quien llega").fill("Elena")
    taps(page.get_by_role("button", name="Ver qué cambia"))
    expect(page.locator("#pagos")).to_contain_text("sienta Elena en lugar de Diego")
    fits(page, NARROW["width"])
    taps(page.get_by_role("button", name="Confirmar el cambio"))
    expect(page.get_by_role("status")).to_contain_text("Cambio de jugador anotado (6)")
    session["hands"].append({"sienta": {"seat": 4, "player": "Elena"}})
    ledger = settle(session)
    assert people_shown(page) == ledger["people"]

    # the closing: both ways previewed by person, then repartir (R30)
    taps(page.get_by_role("link", name="Cerrar la partida"))
    expect(page.get_by_role("heading", level=1)).to_have_text("¿Cómo se cierra?")
    fits(page, NARROW["width"])
    repartir = page.get_by_role("region", name="Repartir el plato")
    closing = copy.deepcopy(session)
    closing["hands"].append({"close": "repartir"})
    closed = settle(closing)
    for transfer in closed["hands"][-1]["transfers"]:
        name = closed["hands"][5]["seating"][str(transfer["to"])]
        expect(repartir).to_contain_text(f"{name} recibe {transfer['amount']}")
    taps(repartir.get_by_role("button", name="Cerrar y repartir"))
    expect(page.get_by_role("status")).to_contain_text("Cierre guardado")  # the page says "Partida cerrada" once
    expect(page.get_by_role("main")).to_contain_text("Partida cerrada")
    assert people_shown(page) == closed["people"]
    assert "Diego" in closed["people"] and "Elena" in closed["people"]
    expect(page.get_by_role("region", name="Últimas manos")).to_contain_text("cierre: se reparte el plato")
    print(f"evening journey: {taps.count} taps")


def test_play_until_the_plato_is_won(live_server: LiveServer, page: Page, taps: Taps) -> None:
    """ "Última vuelta": once the plato is empty and nothing pending, the table offers the closing by itself."""
    session: dict[str, Any] = new_session(favor_suit="bastos")
    session = with_hand(session, {"pass": True})  # 5 in the plato
    edit, _view = seed_table(live_server, session, name="Última vuelta")
    page.goto(table_url(live_server, edit))
    taps(page.get_by_role("button", name=re.compile("^Última vuelta")))
    expect(page.get_by_role("status")).to_contain_text("Última vuelta")
    expect(page.get_by_role("region", name="Se ganó el plato")).to_have_count(0)
    mano, medio, postre = active_seats(4, next_dealer(session))
    won = {"jugador": mano, "lance": "entrada", "trump": "oros", "tricks": {mano: 5, medio: 3, postre: 1}}
    enter_hand(page, taps, PLAYERS, won, 2)
    offer = page.get_by_role("region", name="Se ganó el plato")
    expect(offer).to_be_visible()
    # at 195 px the offer stays on screen with a thumb-sized link (the rest of the table page is not this test's)
    page.set_viewport_size(NARROW)
    box, link = offer.bounding_box(), offer.get_by_role("link", name="Cerrar la partida").bounding_box()
    assert box is not None and link is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]
    assert link["height"] >= MIN_TARGET and link["x"] + link["width"] <= NARROW["width"]
    page.set_viewport_size({"width": 390, "height": 844})
    taps(offer.get_by_role("link", name="Cerrar la partida"))
    expect(page.get_by_role("heading", level=1)).to_have_text("¿Cómo se cierra?")
