"""The peña on a phone (390×844): create it, play two short evenings from its roster, read the standings
and one person's page; no sideways scroll at 390 px nor at 195 px (200 % text)."""

from __future__ import annotations

import pathlib
import re
from decimal import Decimal
from typing import Any

from playwright.sync_api import Page, expect

from scorer import words
from scorer.engine import settle

from .conftest import LiveServer, Taps
from .helpers import TOKEN_URL, enter_hand, new_session, seat_field, with_hand
from .test_accessibility import AXE, check_page

PENA_URL = re.compile(r"/p/([A-Za-z0-9_-]{20,})$")
FIRST = [
    {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {2: 5, 3: 3, 4: 1}},
    {"jugador": 3, "lance": "entrada", "trump": "copas", "tricks": {3: 4, 4: 4, 1: 1}},
]
SECOND = [
    {"jugador": 2, "lance": "entrada", "trump": "bastos", "tricks": {1: 2, 2: 6, 3: 1}},
    {"jugador": 3, "lance": "entrada", "trump": "espadas", "tricks": {1: 5, 2: 3, 3: 1}},
]


def no_sideways_scroll(page: Page) -> None:
    """The page fits the screen's width (wide tables scroll inside their own box)."""
    width = page.evaluate("document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth")
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
        .filter(e => !e.closest('.scroll-x') && e.getBoundingClientRect().right > screen.width + 0.5)
        .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""
    )
    assert width <= 0, f"{page.url} scrolls sideways by {width} px: {wide}"


def play_evening(
    page: Page, taps: Taps, server: LiveServer, pena_url: str, seats: list[str], hands: list[dict[str, Any]]
) -> dict[str, Any]:
    """From the peña: Nueva partida de la peña → players from the roster (or new) → the table → the hands."""
    page.goto(pena_url)
    taps(page.get_by_role("link", name="Nueva partida de la peña"))
    expect(page.get_by_role("heading", level=1)).to_have_text("¿Quién juega hoy?")
    no_sideways_scroll(page)
    roster = [o.strip() for o in page.get_by_label("Asiento 1", exact=True).locator("option").all_inner_texts()]
    for seat, name in enumerate(seats, 1):
        if name in roster or any(r.startswith(name + " (") for r in roster):
            label = next(r for r in roster if r == name or r.startswith(name + " ("))
            page.get_by_label(re.compile(rf"^Asiento {seat}(\D|$)")).select_option(label=label)
        else:
            page.locator(f"#new{seat}").fill(name)
    taps(page.get_by_role("button", name="Seguir: reglas y empezar"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Nueva partida")
    for seat, name in enumerate(seats, 1):
        expect(seat_field(page, seat)).to_have_value(name)  # the usual form, filled in from the roster
    taps(page.get_by_role("button", name="Empezar la partida"))
    expect(page).to_have_url(TOKEN_URL)
    expect(page.get_by_role("status")).to_contain_text("Partida añadida a la peña")
    session = new_session(seats)
    for n, hand in enumerate(hands, 1):
        enter_hand(page, taps, seats, hand, n)
        session = with_hand(session, hand)
    return session


def test_pena_two_evenings_standings_and_a_person(
    page: Page, taps: Taps, live_server: LiveServer, artifacts: pathlib.Path
) -> None:
    axe = AXE.read_text(encoding="utf-8")
    page.goto(live_server.url("/"))
    taps(page.get_by_role("navigation").get_by_role("link", name="Peñas"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Peñas")
    check_page(page, axe)
    taps(page.get_by_role("main").get_by_role("link", name="Nueva peña"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Nueva peña")
    check_page(page, axe)
    page.get_by_label("Nombre de la peña").fill("Peña del jueves")
    page.get_by_label(re.compile("^Personas")).fill("Ana\nBenito\nCarmen / Carmina\nDiego")
    taps(page.get_by_role("button", name="Crear la peña"))
    expect(page).to_have_url(PENA_URL)
    expect(page.get_by_role("heading", level=1)).to_have_text("Peña del jueves")
    pena_url = page.url
    no_sideways_scroll(page)

    first = play_evening(page, taps, live_server, pena_url, ["Ana", "Benito", "Carmen", "Diego"], FIRST)
    second = play_evening(page, taps, live_server, pena_url, ["Benito", "Carmen", "Elena"], SECOND)

    # the standings: tantos (one tanto value, 0,05 €) and money, from the engine's ledgers
    totals: dict[str, int] = {}
    for session in (first, second):
        ledger = settle(session)
        for seat, amount in ledger["balances"].items():
            name = session["players"][int(seat) - 1]
            totals[name] = totals.get(name, 0) + int(amount)
    page.goto(pena_url)
    standings = page.locator("table.standings tbody tr")
    expect(standings).to_have_count(5)
    shown = {}
    for row in standings.all():
        name = row.locator("th").inner_text().strip()
        shown[name.split(" (")[0]] = (row.locator(".tantos").inner_text(), row.locator(".money").inner_text())
    for name, tantos in totals.items():
        money = words.money_text(tantos, Decimal("0.05"), "€", sign=True)
        assert shown[name] == (words.signed(tantos), money), name
    order = [n.split(" (")[0] for n in standings.locator("th").all_inner_texts()]
    assert order == sorted(totals, key=lambda n: -totals[n])
    # both tables still hold their plato: shown apart
    expect(page.locator(".pots-open li")).to_have_count(2)
    no_sideways_scroll(page)
    check_page(page, axe)
    page.screenshot(path=str(artifacts / "pena-390.png"), full_page=True)

    # Carmen played both nights, Jugador once in each: a puesta, then a ganada
    taps(page.get_by_role("link", name="Carmen (Carmina)").first)
    expect(page.get_by_role("heading", level=1)).to_have_text("Carmen (Carmina)")
    stats = page.locator("table.stats")
    expect(stats.locator('[data-stat="evenings"] td')).to_have_text("2")
    expect(stats.locator('[data-stat="jugador"] td')).to_have_text("2")
    expect(stats.locator('[data-stat="won"] td')).to_have_text("1 (50 %)")
    expect(stats.locator('[data-stat="puesta"] td')).to_have_text("1 (50 %)")
    carmen = words.money_text(totals["Carmen"], Decimal("0.05"), "€", sign=True)
    expect(stats.locator('[data-stat="money"] td')).to_have_text(carmen)
    expect(page.locator("figure.chart-box svg").first).to_be_visible()
    no_sideways_scroll(page)
    check_page(page, axe)
    # Benito gave Elena's codillo in the second evening
    page.goto(pena_url)
    taps(page.get_by_role("link", name="Benito").first)
    expect(page.locator('[data-stat="codillos_given"] td')).to_have_text("1")

    # the peña is listed on this phone
    page.goto(live_server.url("/penas"))
    expect(page.get_by_role("link", name=re.compile("^Peña del jueves"))).to_be_visible()

    # 200 % text: a 195-px-wide viewport, still no sideways scroll
    page.set_viewport_size({"width": 195, "height": 844})
    for url in (pena_url, page.url):
        page.goto(url)
        no_sideways_scroll(page)
    page.goto(pena_url)
    page.screenshot(path=str(artifacts / "pena-195.png"), full_page=True)
