"""The keeper's phone, second pass: one screen per hand, nothing recorded by navigation,
every hand in reach, large text.

At 390×844 (touch) the journeys tap without scrolling and check what sits inside the first
screen; at a 195-px-wide screen (200 % text) no page may scroll sideways or break a name.
"""

from __future__ import annotations

import pathlib
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from scorer.engine import settle
from scorer.engine.tresillo import active_seats

from .conftest import NARROW_WIDTH, LiveServer, Taps
from .helpers import (
    EXTRAS,
    PLAYERS,
    assert_table_shows,
    next_dealer,
    night_session,
    quick,
    report_taps,
    seed_table,
    table_url,
    tricks_row,
    with_hand,
)
from .pages import PAGES, seed_pages

pytestmark = pytest.mark.browser


def stored_hands(server: LiveServer, token: str) -> list[dict[str, Any]]:
    from scorer import store

    with server.app.app_context():
        table, _ = store.open_table(token)
        return list(store.read(table).session_copy()["hands"])


def bar_top(page: Page) -> float:
    bar = page.locator(".thumb-bar").bounding_box()
    assert bar is not None
    return float(bar["y"])


def on_first_screen(page: Page, locator: Locator, what: str) -> None:
    """Wholly on the screen as it is (no scrolling), and not under the bottom bar."""
    assert page.evaluate("window.scrollY") == 0, f"{what}: the page was scrolled"
    box = locator.bounding_box()
    assert box is not None, what
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar_top(page) + 0.5, (
        f"{what} is not on the first screen: {box}"
    )


class ThumbTaps(Taps):
    """Taps that never scroll: each target must already be on the first screen, clear of the bar."""

    def __init__(self, page: Page) -> None:
        super().__init__()
        self.page = page

    def __call__(self, locator: Any) -> None:
        self.count += 1
        if locator.evaluate("e => e.tagName === 'INPUT' && !!e.closest('label.chip')"):
            locator = locator.locator("xpath=ancestor::label[1]")
        if not locator.evaluate("e => !!e.closest('.thumb-bar')"):
            on_first_screen(self.page, locator, f"tap {self.count}")
        locator.tap()


def test_a_won_entrada_is_five_taps_on_one_screen(live_server: LiveServer, page: Page, artifacts: pathlib.Path) -> None:
    """Table at a glance, then "Juega <name>", triunfo, his tricks, one contra's, Guardar: no scrolling."""
    session = night_session(8)
    token, _ = seed_table(live_server, session, name="Una pantalla", tanto_value="0.05", currency="€")
    page.goto(table_url(live_server, token))
    dealer = next_dealer(session)
    a, b, c = active_seats(4, dealer)
    # the table at a glance: who deals, the three who play, the plato, every balance, the two actions
    turn = page.get_by_role("region", name=re.compile("Próxima mano"))
    expect(turn.locator(".dealer")).to_contain_text(PLAYERS[dealer - 1])
    for seat in (a, b, c):
        expect(turn).to_contain_text(PLAYERS[seat - 1])
    on_first_screen(page, turn, "who deals and plays")
    on_first_screen(page, page.get_by_role("region", name="Plato"), "the plato")
    on_first_screen(page, page.get_by_role("region", name="Saldos").locator("table"), "the balances")
    expect(page.get_by_role("region", name="Saldos").locator("tbody tr")).to_have_count(4)
    expect(page.get_by_role("link", name="Anotar mano", exact=True)).to_be_in_viewport()
    expect(page.get_by_role("button", name="Todos pasan", exact=True)).to_be_in_viewport()
    page.screenshot(path=str(artifacts / "phone-table.png"))

    hand = {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {a: 5, b: 3, c: 1}}
    taps = ThumbTaps(page)
    taps(page.get_by_role("link", name=f"Juega {PLAYERS[a - 1]}", exact=True))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    # the whole form of an ordinary hand is on the first screen
    for name in ("Jugador", "Triunfo", "Lance", "Bazas"):
        on_first_screen(page, page.get_by_role("group", name=name, exact=True), name)
    on_first_screen(page, page.get_by_text(EXTRAS), "estuches, primeras, bola, rendida")
    taps(page.get_by_role("group", name="Triunfo").get_by_role("radio", name="oros", exact=True))
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="5", exact=True))
    taps(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="3", exact=True))
    expect(tricks_row(page, PLAYERS[c - 1]).get_by_role("radio", name="1", exact=True)).to_be_checked()
    # what it will pay, live, before Guardar (the engine's plato after the hand)
    after = with_hand(session, hand)
    expect(page.locator("#live")).to_contain_text(f"plato {settle(after)['plato']['amount']}")
    for name in ("Jugador", "Triunfo", "Lance", "Bazas"):
        on_first_screen(page, page.get_by_role("group", name=name, exact=True), f"{name}, filled in")
    page.screenshot(path=str(artifacts / "phone-hand-form.png"))
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status")).to_contain_text("Mano 9 anotada")
    assert_table_shows(page, after)
    # after saving, with the message on top, the balances are still on the first screen
    on_first_screen(page, page.get_by_role("region", name="Saldos").locator("table"), "the balances after saving")
    report_taps(artifacts, f"taps for a won entrada without scrolling (table → table, 390×844): {taps.count}")
    assert taps.count <= 5

    # a watcher's phone (view link, no bar): who deals, the plato and every balance on the first screen
    from scorer import store

    with live_server.app.app_context():
        view_token = store.open_table(token)[0].view_token
    watcher = page.context.new_page()
    watcher.goto(table_url(live_server, view_token))
    height = watcher.viewport_size["height"] if watcher.viewport_size else 844
    for region in ("Plato", "Saldos"):
        box = watcher.get_by_role("region", name=region).bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, f"{region} below the fold for a watcher: {box}"
    watcher.close()


def test_back_then_guardar_records_nothing(live_server: LiveServer, page: Page, taps: Taps) -> None:
    """Back after Guardar reopens a form; Guardar there records nothing. A form of a deal that moved on
    (another tab passed meanwhile) is refused with an explanation and a way back."""
    session = night_session(8)
    token, _ = seed_table(live_server, session, name="Atrás")
    page.goto(table_url(live_server, token))
    a, b, _c = active_seats(4, next_dealer(session))
    taps(page.get_by_role("link", name=f"Juega {PLAYERS[a - 1]}", exact=True))
    taps(page.get_by_role("group", name="Triunfo").get_by_role("radio", name="copas", exact=True))
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="6", exact=True))
    taps(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="2", exact=True))
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status")).to_contain_text("Mano 9 anotada")
    assert len(stored_hands(live_server, token)) == 9

    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    with page.expect_navigation():
        page.get_by_role("button", name="Guardar").tap()  # one tap on whatever the browser shows
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    hands = stored_hands(live_server, token)
    assert len(hands) == 9, "Back then Guardar recorded a hand"
    assert hands[-1]["tricks"][str(a)] == 6

    # two tabs: the form of deal 10 open in one, "Todos pasan" in the other, then Guardar in the first
    page.goto(table_url(live_server, token))
    a, b, _c = active_seats(4, next_dealer(with_hand(session, {**hands[-1]})))
    taps(page.get_by_role("link", name="Anotar mano"))
    taps(page.get_by_role("group", name="Jugador", exact=True).get_by_role("radio", name=PLAYERS[a - 1]))
    taps(page.get_by_role("group", name="Triunfo").get_by_role("radio", name="bastos", exact=True))
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="5", exact=True))
    taps(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="4", exact=True))
    other = page.context.new_page()
    other.goto(table_url(live_server, token))
    other.get_by_role("button", name="Todos pasan").tap()
    expect(other.get_by_role("status")).to_contain_text("Mano 10: todos pasan")
    other.close()
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Formulario caducado")
    expect(page.get_by_role("alert")).to_contain_text("no se ha guardado nada")
    hands = stored_hands(live_server, token)
    assert len(hands) == 10 and hands[-1] == {"pass": True, "dealer": hands[-1]["dealer"]}
    taps(page.get_by_role("link", name="Volver a la mesa"))
    expect(page).to_have_url(table_url(live_server, token))


def test_the_tricks_say_primeras_and_bola(live_server: LiveServer, page: Page, taps: Taps) -> None:
    """R13/R19 on the form: 9 is a bola hecha without ticking anything, "Primeras y se planta" is one tap,
    a cut bola is the Jugador's count and the contra player who cut it; a flag the tricks contradict
    is explained next to its field and never saved."""
    session = night_session(1)
    token, _ = seed_table(live_server, session, name="Bolas")
    page.goto(table_url(live_server, token))

    def open_for(seat: int) -> None:
        taps(page.get_by_role("link", name=f"Juega {PLAYERS[seat - 1]}", exact=True))
        taps(page.get_by_role("group", name="Triunfo").get_by_role("radio", name="espadas", exact=True))

    def save(result: str) -> None:
        taps(page.get_by_role("button", name="Guardar"))
        expect(page.get_by_role("status")).to_contain_text("anotada")
        assert settle(stored_session())["hands"][-1]["result"] == result

    def stored_session() -> dict[str, Any]:
        return dict(session, hands=stored_hands(live_server, token))

    # 9 for the Jugador: the others' 0 and the bola hecha come by themselves
    a, b, c = active_seats(4, next_dealer(stored_session()))
    open_for(a)
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="9", exact=True))
    bazas = page.get_by_role("group", name="Bazas")
    expect(bazas).to_contain_text("Bola hecha (9-0-0)")
    for seat in (b, c):
        expect(tricks_row(page, PLAYERS[seat - 1]).get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(page.locator("#live")).to_contain_text("Bola hecha")
    save("bola")

    # one tap: primeras y se planta, 5-0-0
    a, b, c = active_seats(4, next_dealer(stored_session()))
    open_for(a)
    taps(quick(page, "Primeras y se planta"))
    expect(page.get_by_role("group", name="Bazas")).to_contain_text("Primeras y se planta (5-0-0)")
    save("ganada")
    assert stored_hands(live_server, token)[-1]["tricks"] == {str(a): 5, str(b): 0, str(c): 0}

    # the bola cut at the contra's first trick: 7 for the Jugador, 1 for who cut it
    a, b, c = active_seats(4, next_dealer(stored_session()))
    open_for(a)
    taps(quick(page, "Bola cortada"))
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="7", exact=True))
    taps(tricks_row(page, PLAYERS[c - 1]).get_by_role("radio", name="1", exact=True))
    expect(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(page.get_by_role("group", name="Bazas")).to_contain_text(f"Bola cortada por {PLAYERS[c - 1]} (7-1-0)")
    save("bola_cortada")

    # "bola hecha" ticked by hand on 8-1-0: explained next to the field, live and on Guardar; nothing saved
    count = len(stored_hands(live_server, token))
    a, b, c = active_seats(4, next_dealer(stored_session()))
    open_for(a)
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="8", exact=True))
    taps(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="1", exact=True))
    taps(page.get_by_text(EXTRAS))
    taps(page.get_by_role("group", name="Bola", exact=True).get_by_role("radio", name="hecha", exact=True))
    bola = page.locator("#f-bola")
    expect(bola.locator(".live-error")).to_contain_text("nueve bazas")
    expect(page.locator("#live")).to_contain_text("Así no se puede guardar")
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.locator("#f-bola").get_by_role("alert").first).to_contain_text("nueve bazas")
    assert len(stored_hands(live_server, token)) == count


def test_the_edit_form_recomputes_the_third_row(live_server: LiveServer, page: Page, taps: Taps) -> None:
    session = night_session(1)  # hand 1: the mano 5, the medio 3, the postre 1 (a won entrada)
    token, _ = seed_table(live_server, session, name="Corregir")
    hand = session["hands"][0]
    a, b, c = active_seats(4, hand["dealer"])
    page.goto(table_url(live_server, token) + "/mano/1/editar")
    taps(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="2", exact=True))
    expect(tricks_row(page, PLAYERS[c - 1]).get_by_role("radio", name="2", exact=True)).to_be_checked()
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="6", exact=True))
    expect(tricks_row(page, PLAYERS[c - 1]).get_by_role("radio", name="1", exact=True)).to_be_checked()
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status")).to_contain_text("Mano 1 corregida")
    assert stored_hands(live_server, token)[0]["tricks"] == {str(a): 6, str(b): 2, str(c): 1}


def test_todos_pasan_offers_deshacer(live_server: LiveServer, page: Page, taps: Taps) -> None:
    session = night_session(2)
    token, _ = seed_table(live_server, session, name="Deshacer")
    page.goto(table_url(live_server, token))
    taps(page.get_by_role("button", name="Todos pasan"))
    message = page.get_by_role("status")
    expect(message).to_contain_text("Mano 3: todos pasan")
    assert len(stored_hands(live_server, token)) == 3
    taps(message.get_by_role("button", name="Deshacer"))
    expect(page.get_by_role("status")).to_contain_text("Deshecho")
    assert len(stored_hands(live_server, token)) == 2
    assert_table_shows(page, session)


def test_every_hand_is_reached_from_the_table(live_server: LiveServer, page: Page, taps: Taps) -> None:
    session = night_session(12)
    token, _ = seed_table(live_server, session, name="Todas")
    page.goto(table_url(live_server, token))
    taps(page.get_by_role("link", name="Todas las manos (12)"))
    lines = page.get_by_role("region", name=re.compile("De la última")).get_by_role("link")
    expect(lines).to_have_count(12)
    expect(lines.last).to_have_text(re.compile(r"^1 · "))
    page.get_by_label("Resultado").select_option("codillo")
    taps(page.get_by_role("button", name="Filtrar"))
    codillos = page.get_by_role("list").get_by_role("link")
    expect(codillos).to_have_count(1)
    expect(codillos.first).to_contain_text("codillo de")
    taps(codillos.first)
    expect(page.get_by_role("heading", level=1)).to_have_text("Mano 3")


def test_new_table_names_the_seats(live_server: LiveServer, page: Page) -> None:
    page.goto(live_server.url("/nueva"))
    for seat, name in enumerate(PLAYERS, 1):
        page.get_by_label(re.compile(rf"^Asiento {seat}(\D|$)")).fill(name)
    keeper = page.get_by_label("Lleva la cuenta")
    expect(keeper.locator("option:checked")).to_have_text("el último asiento (Diego)")
    expect(page.get_by_label("Da la primera mano").locator("option:checked")).to_have_text("Ana (asiento 1)")
    assert page.locator("input[name=timezone]").input_value()  # the phone's zone, for the history's times


NAME_BREAKS = """
(names) => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.parentElement || node.parentElement.closest('.sr-only, [hidden]')) continue;
    for (const name of names) {
      for (let i = node.textContent.indexOf(name); i >= 0; i = node.textContent.indexOf(name, i + 1)) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + name.length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(`${name} in ${node.parentElement.tagName}.${node.parentElement.className}`);
      }
    }
  }
  return broken;
}
"""


@pytest.fixture(scope="module")
def tables(live_server: LiveServer) -> dict[str, str]:
    return seed_pages(live_server)


@pytest.mark.parametrize("name", list(PAGES))
def test_no_page_scrolls_sideways_with_large_text(
    name: str, live_server: LiveServer, narrow_page: Page, tables: dict[str, str], artifacts: pathlib.Path
) -> None:
    """At 200 % text (a 195-px-wide screen) nothing scrolls sideways and no name breaks inside a word."""
    PAGES[name](narrow_page, live_server, tables)
    folder = artifacts / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    narrow_page.screenshot(path=str(folder / f"{name}.195.png"), full_page=True)
    width = narrow_page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW_WIDTH, f"{name} scrolls sideways at {NARROW_WIDTH} px: {width} px"
    assert narrow_page.evaluate(NAME_BREAKS, PLAYERS) == [], name
    # and no name is wider than its button in the bar (kept whole, not spilling over the next one)
    spilled = narrow_page.evaluate(
        "[...document.querySelectorAll('.thumb-bar .quick .button')]"
        ".filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent.trim())"
    )
    assert spilled == [], name


def test_the_bottom_bar_never_hides_the_field_being_filled(
    live_server: LiveServer, page: Page, tables: dict[str, str]
) -> None:
    """Every control of the hand form, once focused (tab or tap), sits clear of the fixed bar."""
    page.goto(live_server.url(f"/t/{tables['edit']}/mano"))
    page.get_by_text(EXTRAS).tap()
    top = bar_top(page)
    hidden = []
    controls = page.locator("main input:not([type=hidden]), main summary, main a, main button:visible")
    for i in range(controls.count()):
        control = controls.nth(i)
        control.focus()
        target = control.locator("xpath=ancestor::label[1]") if control.get_attribute("type") == "radio" else control
        box = target.bounding_box()
        if box and box["y"] + box["height"] > top + 1:
            hidden.append(control.evaluate("e => e.name || e.textContent.trim()"))
    assert not hidden, f"under the bar once focused: {hidden}"


def test_the_form_works_without_javascript(live_server: LiveServer, browser: Any) -> None:
    """No JavaScript: the same taps, "Ver pagos" reloads with the payments, Guardar saves (two counts suffice)."""
    from .conftest import PHONE, TIMEOUT_MS

    session = night_session(2)
    token, _ = seed_table(live_server, session, name="Sin JavaScript")
    context = browser.new_context(**dict(PHONE, java_script_enabled=False))
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(table_url(live_server, token))
        a, b, c = active_seats(4, next_dealer(session))
        page.get_by_role("link", name=f"Juega {PLAYERS[a - 1]}", exact=True).tap()
        taps = Taps()
        taps(page.get_by_role("group", name="Triunfo").get_by_role("radio", name="copas", exact=True))
        taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="6", exact=True))
        taps(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="2", exact=True))
        taps(page.get_by_role("button", name="Ver pagos"))
        expect(page.get_by_role("region", name="Pagos de esta mano")).to_contain_text("Aún no se ha guardado")
        taps(page.get_by_role("button", name="Guardar"))
        expect(page.get_by_role("status")).to_contain_text("Mano 3 anotada")
        hand = {"jugador": a, "lance": "entrada", "trump": "copas", "tricks": {a: 6, b: 2, c: 1}}
        assert_table_shows(page, with_hand(session, hand))
    finally:
        context.close()


def test_the_sheet_is_readable_on_a_phone(live_server: LiveServer, page: Page, tables: dict[str, str]) -> None:
    """The sheet's HTML at 390 px: no column of the hand table is squeezed to nothing, no text runs over
    the next column; the table slides sideways inside its own (focusable) box, the page does not."""
    page.goto(live_server.url(f"/tables/{tables['edit']}/sheet"))
    header = page.locator("table.hand-table thead th")
    widths = [box["width"] for box in (header.nth(i).bounding_box() for i in range(header.count())) if box]
    assert widths and min(widths) >= 20, widths
    overlaps = page.evaluate(
        """() => [...document.querySelectorAll('table.hand-table tr')].flatMap(tr => {
          const cells = [...tr.children];
          return cells.slice(0, -1).filter((c, i) => c.scrollWidth > c.clientWidth + 1
            || c.getBoundingClientRect().right > cells[i + 1].getBoundingClientRect().left + 1)
            .map(c => c.textContent.trim());
        })"""
    )
    assert overlaps == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    scroller = page.get_by_role("region", name=re.compile("Mano a mano"))
    assert scroller.get_attribute("tabindex") == "0"
    expect(page.get_by_role("link", name="Descargar PDF")).to_be_visible()
