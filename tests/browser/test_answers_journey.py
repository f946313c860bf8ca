"""The players' answers with two phones: the keeper enters a hand, a watcher disagrees with a note, the keeper
sees it on his open page (no reload) and fixes the hand, the watcher (whose page reloads by itself) agrees."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from scorer.engine.tresillo import active_seats

from .conftest import LiveServer, Taps
from .helpers import (
    PLAYERS,
    assert_table_shows,
    enter_hand,
    new_session,
    next_dealer,
    seed_table,
    table_url,
    tricks_row,
)


def test_a_watcher_disagrees_the_keeper_fixes_the_hand_the_watcher_agrees(
    live_server: LiveServer, page: Page, new_phone: Any, taps: Taps
) -> None:
    session = new_session()
    token, view_token = seed_table(live_server, session, name="De acuerdo")
    page.goto(table_url(live_server, token))

    # the keeper enters hand 1: a won entrada, 5-3-1
    a, b, c = active_seats(4, next_dealer(session))
    hand = {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {a: 5, b: 3, c: 1}}
    enter_hand(page, taps, PLAYERS, hand, 1)

    # a watcher opens the view link on his phone and says once who he is
    watcher = new_phone().new_page()
    watcher.goto(table_url(live_server, view_token))
    who = watcher.get_by_role("region", name="¿Quién eres?")
    taps(who.get_by_role("button", name=f"Soy {PLAYERS[b - 1]}", exact=True))
    expect(watcher.get_by_text(f"Respondes como {PLAYERS[b - 1]}.")).to_be_visible()

    # … and says hand 1, the latest, is not right, with a note (its answers come first on his page)
    hands = watcher.get_by_role("region", name="Última mano que jugaste: 1")
    taps(hands.get_by_text("No es así", exact=False).first)
    hands.get_by_label("¿Qué no es así?").fill("eran 6 bazas, no 5")
    taps(hands.get_by_role("button", name="Enviar"))
    expect(watcher.get_by_role("status")).to_contain_text("Mano 1: anotado que no es así.")
    expect(watcher.get_by_text("Dijiste: no es así («eran 6 bazas, no 5»).")).to_be_visible()

    # the keeper's open page shows the disagreement at the top by itself
    disputes = page.get_by_role("region", name="No es así")
    expect(disputes).to_contain_text(f"Mano 1: {PLAYERS[b - 1]} dice: «eran 6 bazas, no 5»")
    line = page.get_by_role("region", name="Últimas manos").get_by_role("link", name=re.compile(r"^1 "))
    expect(line).to_contain_text("0 de 4")
    expect(line).to_contain_text("✗")

    # the keeper fixes the hand: 6-2-1
    taps(line)
    taps(page.get_by_role("link", name="Corregir"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Corregir la mano 1")
    for seat, count in ((a, 6), (b, 2), (c, 1)):
        taps(tricks_row(page, PLAYERS[seat - 1]).get_by_role("radio", name=str(count), exact=True))
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status")).to_contain_text("Mano 1 corregida")
    page.goto(table_url(live_server, token))
    expect(page.get_by_role("region", name="No es así")).to_have_count(0)  # the disagreement went with the change
    fixed = dict(session, hands=[dict(hand, dealer=next_dealer(session), tricks={str(a): 6, str(b): 2, str(c): 1})])
    assert_table_shows(page, fixed)
    expect(page.get_by_text("Cuadra: saldos")).to_be_visible()  # R31

    # the watcher's page reloads by itself and asks again; he agrees
    expect(watcher.get_by_text("La mano ha cambiado desde que respondiste: vuelve a mirarla.")).to_be_visible(
        timeout=15_000
    )
    assert_table_shows(watcher, fixed)
    taps(watcher.get_by_role("button", name="De acuerdo con la mano 1"))
    expect(watcher.get_by_role("status")).to_contain_text("Mano 1: de acuerdo.")
    expect(watcher.get_by_role("button", name="De acuerdo con la mano 1")).to_have_count(0)

    # another player agrees from his phone: the watcher's page shows it by itself (its poll sees the answers)
    other = watcher.request.post(
        live_server.url(f"/api/tables/{view_token}/hands/1/answers"), data={"person": PLAYERS[a - 1], "agrees": True}
    )
    assert other.status == 201
    watcher_line = watcher.get_by_role("region", name="Últimas manos").get_by_role("link", name=re.compile(r"^1 "))
    expect(watcher_line).to_contain_text("2 de 4", timeout=15_000)

    # and the keeper sees 2 of 4 without a reload (no ✓: not everyone yet)
    line = page.get_by_role("region", name="Últimas manos").get_by_role("link", name=re.compile(r"^1 "))
    expect(line).to_contain_text("2 de 4")
    expect(line).not_to_contain_text("✗")
    expect(line).not_to_contain_text("✓")
