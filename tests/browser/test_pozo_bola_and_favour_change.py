"""On the phone: a pozo y viuda 9-0-0 entered without touching the bola control is paid as a
bola (P13), and a change of favour suit mid-evening (R34) makes the next hand in the new suit a favor."""

from __future__ import annotations

import copy
from typing import Any

from playwright.sync_api import Page, expect

from scorer.engine import settle
from scorer.engine.tresillo import active_seats

from .conftest import LiveServer, Taps
from .helpers import (
    PLAYERS,
    enter_hand,
    new_session,
    next_dealer,
    read_balances,
    seed_table,
    table_url,
    tricks_row,
    with_hand,
)

POZO_PLAYERS = ["Ana", "Benito", "Carmen"]


def test_a_pozo_bola_from_the_tricks(live_server: LiveServer, page: Page, taps: Taps) -> None:
    session = new_session(POZO_PLAYERS, ruleset="pozo_viuda")
    edit, _view = seed_table(live_server, session, name="Pozo del jueves")
    page.goto(table_url(live_server, edit))
    taps(page.get_by_role("link", name="Anotar mano"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    taps(page.get_by_role("group", name="Jugador", exact=True).get_by_role("radio", name="Benito"))
    taps(page.get_by_role("group", name="Triunfo").get_by_role("radio", name="copas", exact=True))
    taps(tricks_row(page, "Benito").get_by_role("radio", name="9", exact=True))
    # the others' nothing is filled in, and the tricks say the bola: no bola control touched
    expect(tricks_row(page, "Ana").get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(tricks_row(page, "Carmen").get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(page.get_by_role("group", name="Bazas")).to_contain_text("Bola hecha (9-0-0)")
    taps(page.get_by_role("button", name="Ver pagos"))
    expect(page.locator("#pagos")).to_contain_text("40 bola")
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status").first).to_contain_text("Mano 1 anotada")
    hand = {"jugador": 2, "lance": "juego", "trump": "copas", "tricks": {"2": 9, "3": 0, "1": 0}}
    ledger = settle(with_hand(session, hand))
    assert ledger["hands"][-1]["result"] == "bola"
    shown = read_balances(page.get_by_role("region", name="Saldos"))
    assert shown == {POZO_PLAYERS[int(s) - 1]: v for s, v in ledger["balances"].items()}
    print(f"pozo bola journey: {taps.count} taps")


def test_a_favour_change_mid_evening(live_server: LiveServer, page: Page, taps: Taps) -> None:
    session = new_session(favor_suit="bastos")
    mano, medio, postre = active_seats(4, next_dealer(session))
    first = {"jugador": mano, "lance": "entrada", "trump": "oros", "tricks": {mano: 5, medio: 3, postre: 1}}
    session = with_hand(session, first)
    edit, _view = seed_table(live_server, session, name="Cambio de favor")
    page.goto(table_url(live_server, edit))
    expect(page.locator("[data-favor]")).to_have_count(0)  # said only once the suit changed

    taps(page.get_by_role("link", name="Cambio de palo de favor"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Cambio de palo de favor")
    group = page.get_by_role("group", name="¿Qué palo es el de favor desde la mano siguiente?")
    taps(group.get_by_role("radio", name="oros", exact=True))
    taps(page.get_by_role("button", name="Ver el cambio"))
    expect(page.locator("#pagos")).to_contain_text("Desde la mano 3 el palo de favor es oros")
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status").first).to_contain_text("Cambio de palo de favor anotado (2)")
    expect(page.locator("[data-favor]")).to_contain_text("Palo de favor: oros")
    session["hands"].append({"favor": "oros"})

    # the same hand as the first one, now a favor: paid double
    mano, medio, postre = active_seats(4, next_dealer(session))
    again = {"jugador": mano, "lance": "entrada", "trump": "oros", "tricks": {mano: 5, medio: 3, postre: 1}}
    enter_hand(page, taps, PLAYERS, again, 3)
    session = with_hand(session, again)
    ledger = settle(session)
    plain = copy.deepcopy(session)
    plain["hands"] = [h for h in plain["hands"] if "favor" not in h]
    plain["rules"] = {}
    assert paid_to(ledger["hands"][-1], mano) == 2 * paid_to(settle(plain)["hands"][-1], mano) > 0
    expect(page.get_by_role("region", name="Últimas manos")).to_contain_text(
        "2 · cambio de palo de favor: desde la mano siguiente, oros"
    )
    shown = read_balances(page.get_by_role("region", name="Saldos"))
    assert shown == {PLAYERS[int(s) - 1]: v for s, v in ledger["balances"].items()}
    print(f"favour change journey: {taps.count} taps")


def paid_to(entry: dict[str, Any], seat: int) -> int:
    """What the other players paid the Jugador in a hand (the plato aside)."""
    return sum(int(t["amount"]) for t in entry["transfers"] if t["to"] == seat and isinstance(t["from"], int))
