"""Within reach on every phone: the main actions and the balances on the first screen.

Screens: a 390×844 phone, a 320×568 one, a 280×653 one (a folding phone's cover screen), and the
390×844 phone with its text at 200 %. Large text is emulated as Chrome on Android applies it (its
accessibility "zoom"/text scaling enlarges the whole page): the same phone seen as a page twice the
size, i.e. a 195×422 CSS-px screen. That is harsher than doubling only the root font size (which
leaves px-sized text, borders and media queries as they are), and it is what a reader with 200 % text
gets.

In every state of an evening's table page (mid-evening with puestas, right after a save with its
message, *última vuelta*, the plato won with the closing offered, after a change of player with a
person who left, closed) the seated people's balances and the plato are wholly above the bottom bar
without scrolling, and the bar's actions (*Juega …*, *Todos pasan*, *Anotar mano*) are on the screen.
On the hand form *Guardar* and the live preview are. The footer (language, glossary) can be tapped
once scrolled to: nothing lies over it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorer.engine.tresillo import active_seats
from tests.conftest import EXAMPLES, load_json

from .conftest import ARTIFACTS, PHONE, TIMEOUT_MS, LiveServer
from .helpers import PLAYERS, next_dealer, night_session, seed_table, tricks_row

SCREENS = {
    "390": {"width": 390, "height": 844},
    "320": {"width": 320, "height": 568},
    "280": {"width": 280, "height": 653},
    "200%": {"width": 195, "height": 422},  # 390×844 at 200 % text (see the module's doc)
}
REAL = load_json(EXAMPLES / "real_evening.json")


@pytest.fixture(params=list(SCREENS))
def screen(request: pytest.FixtureRequest, browser: Any) -> Any:
    size = SCREENS[request.param]
    scale = 2 * 390 / size["width"] if request.param == "200%" else 2
    context = browser.new_context(**dict(PHONE, viewport=size, device_scale_factor=scale))
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.screen_name = request.param  # type: ignore[attr-defined]
        yield page
    finally:
        context.close()


def seeded(server: LiveServer) -> dict[str, str]:
    from scorer import store
    from scorer.store import set_ending
    from scorer.store.models import Table

    mid = night_session(8)
    edit, _ = seed_table(server, mid, name="Jueves en el casino", place="Casino", tanto_value="0.05", currency="€")
    ending, _ = seed_table(server, mid, name="Jueves en el casino", tanto_value="0.05", currency="€")
    first = night_session(1)
    ready, _ = seed_table(server, first, name="Última del jueves", tanto_value="0.05", currency="€")
    a, b, c = active_seats(4, next_dealer(first))
    won = {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {str(a): 5, str(b): 3, str(c): 1}}
    changed = copy.deepcopy(REAL)
    changed["hands"] = changed["hands"][:9]
    moved, _ = seed_table(server, changed, name="Noche con cambio", tanto_value="0.05", currency="€")
    closed = copy.deepcopy(REAL)
    shut, _ = seed_table(server, closed, name="Cerrada", tanto_value="0.05", currency="€")
    with server.app.app_context():
        for token in (ending, ready):
            table = Table.query.filter_by(edit_token=token).one()
            set_ending(table, True)
        store.add_hand(Table.query.filter_by(edit_token=ready).one(), won)  # the plato won: closing offered
    return {"mid": edit, "ending": ending, "ready": ready, "changed": moved, "closed": shut}


@pytest.fixture(scope="module")
def tables(live_server: LiveServer) -> dict[str, str]:
    return seeded(live_server)


def bar_top(page: Page) -> float:
    bar = page.locator(".thumb-bar")
    if bar.count() == 0:
        return float(page.viewport_size["height"])  # type: ignore[index]
    box = bar.bounding_box()
    assert box is not None
    return float(box["y"])


def above_bar(page: Page, selector: str, what: str) -> None:
    """Every element matching ``selector`` wholly on the first screen, above the bar, no scrolling."""
    assert page.evaluate("window.scrollY") == 0
    top = bar_top(page)
    items = page.locator(selector)
    assert items.count(), f"{what}: none on the page"
    for i in range(items.count()):
        box = items.nth(i).bounding_box()
        assert box is not None, what
        assert box["y"] >= 0 and box["y"] + box["height"] <= top + 0.5, (
            f"{page.screen_name}: {what} #{i} at {box['y']:.0f}–{box['y'] + box['height']:.0f}, "  # type: ignore[attr-defined]
            f"the bar at {top:.0f} ({page.url})"
        )


def bar_on_screen(page: Page, names: list[str]) -> None:
    """The bar is wholly on the screen and holds these actions, each tappable where it is."""
    height = page.viewport_size["height"]  # type: ignore[index]
    bar = page.locator(".thumb-bar").bounding_box()
    assert bar is not None and bar["y"] >= 0 and bar["y"] + bar["height"] <= height + 0.5, bar
    assert bar["height"] <= height / 3, f"{page.screen_name}: the bar takes {bar['height']:.0f} of {height}"  # type: ignore[attr-defined]
    for name in names:
        bar = page.locator(".thumb-bar")
        target = bar.get_by_role("link", name=name, exact=True).or_(bar.get_by_role("button", name=name, exact=True))
        on_top = target.evaluate(
            """e => { const r = e.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return r.width >= 40 && r.height >= 40 && !!hit && e.contains(hit); }"""
        )
        assert on_top, f"{page.screen_name}: {name} cannot be tapped in the bar"  # type: ignore[attr-defined]


def seated_rows(page: Page) -> str:
    """The balances rows of the people seated (those who left may fold away)."""
    return "#saldos-h ~ table.balances tbody tr:not(.left)"


def shot(page: Page, name: str) -> None:
    folder = ARTIFACTS / "reach"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.{page.screen_name.replace('%', 'pct')}.png"))  # type: ignore[attr-defined]


def check_table(page: Page, actions: bool = True) -> None:
    above_bar(page, ".plato-panel", "the plato")
    above_bar(page, seated_rows(page), "a seated person's balance")
    if actions:
        quick = page.evaluate(
            "() => [...document.querySelectorAll('.thumb-bar .quick a')].map(a => "
            "a.querySelector('.sr-only').textContent + a.querySelector('.name').textContent)"
        )
        assert len(quick) == 3, quick
        landmark = "e => !!e.closest('main, header, footer, nav, [role=region][aria-label]')"
        assert page.get_by_role("link", name="Anotar mano", exact=True).evaluate(landmark)  # axe-core's "region"
        bar_on_screen(page, ["Todos pasan", "Anotar mano", *quick])


def footer_tappable(page: Page) -> None:
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    links = page.locator(".site-footer a")
    assert links.count() >= 2
    for i in range(links.count()):
        free = links.nth(i).evaluate(
            """e => { const r = e.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return r.bottom <= innerHeight && !!hit && e.contains(hit); }"""
        )
        assert free, f"{page.screen_name}: footer link {i} is covered ({page.url})"  # type: ignore[attr-defined]
    page.evaluate("window.scrollTo(0, 0)")


def test_the_table_in_every_state(screen: Page, live_server: LiveServer, tables: dict[str, str]) -> None:
    page = screen
    for state in ("mid", "ending", "ready", "changed"):
        page.goto(live_server.url(f"/t/{tables[state]}"))
        if state == "ready":
            expect(page.get_by_role("heading", name="Se ganó el plato")).to_be_attached()
        shot(page, state)
        check_table(page)
        footer_tappable(page)
    page.goto(live_server.url(f"/t/{tables['closed']}"))
    shot(page, "closed")
    check_table(page, actions=False)
    footer_tappable(page)


def test_after_a_save_and_with_the_hand_form(screen: Page, live_server: LiveServer) -> None:
    """Right after Guardar (its message shown) and on the form with the preview filled in."""
    page = screen
    session = night_session(8)
    token, _ = seed_table(live_server, session, name="Guardar en pantalla", tanto_value="0.05", currency="€")
    a, b, _c = active_seats(4, next_dealer(session))
    page.goto(live_server.url(f"/t/{token}/mano?jugador={a}"))
    page.get_by_role("group", name="Triunfo").get_by_role("radio", name="copas", exact=True).check(force=True)
    tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="6", exact=True).check(force=True)
    tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="2", exact=True).check(force=True)
    live = page.locator(".hand-bar .live")
    expect(live).to_contain_text(PLAYERS[a - 1])
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "form")
    bar_on_screen(page, ["Guardar"])
    box = live.bounding_box()
    assert box is not None and box["y"] >= 0 and box["height"] >= 10, box
    footer_tappable(page)
    page.locator(".thumb-bar").get_by_role("button", name="Guardar", exact=True).tap()
    expect(page.get_by_role("status").first).to_contain_text("Mano 9 anotada")
    shot(page, "saved")
    check_table(page)
    footer_tappable(page)


def test_guardar_shows_work_on_a_slow_network(page: Page, live_server: LiveServer) -> None:
    """On a slow network (every request 1.5 s late, Chromium's own throttling) Guardar says it is at work."""
    session = night_session(2)
    token, _ = seed_table(live_server, session, name="Red lenta")
    a, b, _c = active_seats(4, next_dealer(session))
    page.goto(live_server.url(f"/t/{token}/mano?jugador={a}"))
    page.get_by_role("group", name="Triunfo").get_by_role("radio", name="copas", exact=True).check(force=True)
    tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="6", exact=True).check(force=True)
    tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="2", exact=True).check(force=True)
    cdp = page.context.new_cdp_session(page)
    slow = {"offline": False, "latency": 1500, "downloadThroughput": 50_000, "uploadThroughput": 50_000}
    cdp.send("Network.emulateNetworkConditions", slow)
    save = page.locator(".thumb-bar button.primary")
    save.tap()
    expect(save).to_have_attribute("aria-busy", "true")  # and it reads "Guardando…" (static/reach.js)
    expect(page.get_by_role("status").first).to_contain_text("Mano 3 anotada", timeout=20_000)


# a 30-character name is read whole (it wraps, it is never cut) on every screen
LONG = {2: "Benito Fernández de la Fuentes", 4: "Diego Alejandro Martínez Ortiz"}
NOT_CUT = """names => {
  const found = [];
  for (const e of document.querySelectorAll('body *')) {
    const text = e.textContent || '';
    const r = e.getBoundingClientRect();
    if (!r.width || e.closest('.sr-only, template, [hidden]')) continue;
    for (const name of names) {
      if (!text.includes(name.slice(0, 12))) continue;
      const cs = getComputedStyle(e);
      const leaf = ![...e.children].some(c => (c.textContent || '').includes(name.slice(0, 12)));
      if (leaf && !text.replace(/\\s+/g, ' ').includes(name)) found.push(`${e.tagName}: "${text.trim()}" is cut`);
      if (cs.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1)
        found.push(`${e.tagName}.${e.className}: "${name}" ends in an ellipsis`);
      if (leaf && !e.closest('.hand-scroll, svg') && (r.left < -0.5 || r.right > innerWidth + 0.5))
        found.push(`${e.tagName}: "${name}" runs off the screen (${Math.round(r.left)}–${Math.round(r.right)})`);
    }
  }
  return found;
}"""


def test_long_names_are_read_whole(screen: Page, live_server: LiveServer) -> None:
    page = screen
    session = night_session(8)
    for seat, name in LONG.items():
        assert len(name) == 30
        session["players"][seat - 1] = name
    token, _ = seed_table(live_server, session, name="Nombres largos", tanto_value="0.05", currency="€")
    for url in (f"/t/{token}", f"/t/{token}/mano", f"/t/{token}/mano/3", f"/tables/{token}/sheet"):
        page.goto(live_server.url(url))
        shot(page, "long-names" + url.replace(token, "").replace("/", "-"))
        cut = page.evaluate(NOT_CUT, list(LONG.values()))
        assert not cut, f"{page.screen_name} {url}:\n" + "\n".join(cut)  # type: ignore[attr-defined]
    # one person with a long name: the seated people's balances still on the first screen, the bar's actions on it
    session["players"][3] = PLAYERS[3]
    token, _ = seed_table(live_server, session, name="Un nombre largo", tanto_value="0.05", currency="€")
    page.goto(live_server.url(f"/t/{token}"))
    shot(page, "long-name-table")
    assert not page.evaluate(NOT_CUT, [LONG[2]])
    check_table(page)
