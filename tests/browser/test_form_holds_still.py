"""The new-hand form does not move once drawn: a tap lands on the chip the eye aimed at.

Chromium's Layout Instability API (``PerformanceObserver('layout-shift', buffered)``) adds up every
shift of the page's content not caused by the reader's own input, from the first paint until the
page is settled (its network idle, its fonts loaded, two frames drawn with nothing pending): the
Cumulative Layout Shift that Lighthouse reports. Measured on the form as the keeper opens it (from
*Juega …*, the Jugador chosen) and as *Anotar mano* opens it (no Jugador yet), on a 390×844 phone and
a 320×640 one, it stays under 0.02 (Lighthouse's "good" is 0.1; the form measured 0.117: the tricks
rows jumped 45 px when the script hid the help, and *Guardar* widened when the bar's live line came).
A chip tapped afterwards moves nothing above it either (the quick buttons and the reading of the
tricks have their room from the start).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorer.engine.tresillo import active_seats

from .conftest import PHONE, TIMEOUT_MS, LiveServer
from .helpers import PLAYERS, next_dealer, night_session, seed_table, tricks_row

SCREENS = {"390x844": {"width": 390, "height": 844}, "320x640": {"width": 320, "height": 640}}
LIMIT = 0.02
# registered before the page's own scripts: every shift from the first paint on, with what moved
WATCH = """
window.__shifts = [];
const named = n => !n ? '?' : n.nodeType !== 1 ? '#text ' + (n.textContent || '').trim().slice(0, 20)
  : n.tagName + (n.id ? '#' + n.id : '') + '.' + String(n.getAttribute('class') || '').trim().split(/\\s+/).join('.');
const box = r => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
new PerformanceObserver(list => {
  for (const e of list.getEntries()) {
    window.__shifts.push({value: e.value, input: e.hadRecentInput, at: Math.round(e.startTime),
      moved: (e.sources || []).map(s => `${named(s.node)} ${box(s.previousRect)} -> ${box(s.currentRect)}`)});
  }
}).observe({type: 'layout-shift', buffered: true});
"""
SETTLED = """() => new Promise(done => document.fonts.ready.then(() =>
  requestAnimationFrame(() => requestAnimationFrame(() => done(true)))))"""


@pytest.fixture(params=list(SCREENS))
def phone_page(request: pytest.FixtureRequest, browser: Any) -> Any:
    # a first visit, as Lighthouse's: no service worker answers from its cache before the hold below
    context = browser.new_context(**dict(PHONE, viewport=SCREENS[request.param], service_workers="block"))
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(WATCH)
    try:
        page = context.new_page()
        page.screen_name = request.param  # type: ignore[attr-defined]
        yield page
    finally:
        context.close()


# what a tap aims at: every chip group, the tricks rows, the extras and the bar's buttons
AIMED = "#hand-form fieldset, .tricks-row, details.extras, .thumb-bar button"
BOXES = """sel => [...document.querySelectorAll(sel)]
  .filter(e => e.offsetParent !== null || getComputedStyle(e).position === 'fixed')
  .map(e => {
    const r = e.getBoundingClientRect(), fixed = !!e.closest('.thumb-bar');
    const what = e.tagName + (e.id ? '#' + e.id : '') + '.' + String(e.getAttribute('class') || '').trim()
      + ' ' + (e.textContent || '').trim().slice(0, 12);
    return {what, x: r.x + (fixed ? 0 : scrollX), y: r.y + (fixed ? 0 : scrollY), width: r.width, height: r.height};
  })"""


def drawn_before_scripts(page: Page, url: str) -> Page:
    """Open ``url`` as a slow phone meets it: the page is painted before its deferred scripts arrive
    (they are held until the first contentful paint, then let through), so whatever they change
    after the first paint counts, as it does for Lighthouse on a throttled phone. Besides the
    browser's own layout-shift entries (whose frames depend on timing), every element a tap aims at
    must be where it was painted first, to the pixel."""
    name = page.screen_name  # type: ignore[attr-defined]
    page = page.context.new_page()  # a page of its own: nothing from the memory cache skips the hold
    page.screen_name = name  # type: ignore[attr-defined]
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page.route("**/static/*.js", hold)
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => performance.getEntriesByType('paint').some(e => e.name === 'first-contentful-paint')")
    painted = page.evaluate(BOXES, AIMED)
    assert held, "the page's scripts were not held"
    for route in held:
        route.continue_()
    page.unroute("**/static/*.js", hold)
    settle(page)
    drawn = page.evaluate(BOXES, AIMED)
    before = {b["what"]: b for b in painted}  # what the script shows or hides is not compared, only what stays
    moved = [
        f"{new['what']}: {before[new['what']]} -> {new}"
        for new in drawn
        if new["what"] in before
        and max(abs(before[new["what"]][k] - new[k]) for k in ("x", "y", "width", "height")) >= 1
    ]
    assert not moved, f"{name} {url}: moved once the scripts ran:\n" + "\n".join(moved)
    return page


def page_box(locator: Any) -> dict[str, float]:
    """Where an element is on the page (not on the screen: a tap may scroll)."""
    return dict(
        locator.evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }"
        )
    )


def settle(page: Page) -> None:
    page.wait_for_load_state("networkidle")
    assert page.evaluate(SETTLED)


def shifted(page: Page) -> tuple[float, list[Any]]:
    shifts = [s for s in page.evaluate("window.__shifts") if not s["input"]]
    return sum(s["value"] for s in shifts), shifts


def assert_still(page: Page, what: str) -> None:
    cls, shifts = shifted(page)
    assert cls < LIMIT, f"{page.screen_name} {what}: CLS {cls:.3f}\n" + "\n".join(  # type: ignore[attr-defined]
        f"  {s['value']:.3f} at {s['at']} ms: " + "; ".join(s["moved"]) for s in shifts
    )


def test_the_new_hand_form_holds_still_once_drawn(phone_page: Page, live_server: LiveServer) -> None:
    session = night_session(8)
    token, _ = seed_table(live_server, session, name="Quieta", tanto_value="0.05", currency="€")
    a, b, c = active_seats(4, next_dealer(session))
    page = drawn_before_scripts(phone_page, live_server.url(f"/t/{token}/mano"))  # Anotar mano: no Jugador yet
    assert_still(page, "Anotar mano")
    page = drawn_before_scripts(
        phone_page, live_server.url(f"/t/{token}/mano?jugador={a}")
    )  # Juega …: the Jugador chosen
    assert_still(page, "Juega")
    # the keeper's taps: the tricks' reading, the quick buttons and the live preview come into their room
    rows = [tricks_row(page, PLAYERS[seat - 1]) for seat in (a, b, c)]
    save = page.locator(".thumb-bar").get_by_role("button", name="Guardar", exact=True)
    before = [page_box(r) for r in rows] + [save.bounding_box()]  # Guardar is on the screen, fixed
    page.get_by_role("group", name="Triunfo").get_by_role("radio", name="copas", exact=True).check(force=True)
    rows[0].get_by_role("radio", name="5", exact=True).check(force=True)
    rows[1].get_by_role("radio", name="3", exact=True).check(force=True)
    expect(page.locator(".hand-bar .live")).to_contain_text(PLAYERS[a - 1])
    settle(page)
    after = [page_box(r) for r in rows] + [save.bounding_box()]
    for what, old, new in zip(
        ("Jugador's tricks", "a contra's tricks", "the third's tricks", "Guardar"), before, after, strict=True
    ):
        assert old is not None and new is not None
        moved = max(abs(old[k] - new[k]) for k in ("x", "y", "width", "height"))
        assert moved < 1, f"{page.screen_name}: {what} moved {old} -> {new}"  # type: ignore[attr-defined]
    assert_still(page, "after the first taps")
