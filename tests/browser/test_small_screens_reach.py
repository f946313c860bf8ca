"""Small screens and large text: what the thumb needs is on the first screen, and nothing hides under the bar.

- At 320×640 the four lance chips sit two by two (not one per row), so that *Bazas* and the first
  tricks row are on the first screen of the new-hand form, above the bottom bar.
- A hand's page has a bottom bar with *Corregir* (and *Borrar*), on the screen and tappable at 390×844
  and at 200 % text (the 390 phone seen as a 195×422 page, as tests/browser/test_reach.py emulates it).
- At 200 % text no balances row can be left under the bar: each, brought to the end of the screen,
  ends above the bar's top (the page keeps a bottom room as tall as the bar).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.conftest import EXAMPLES, load_json

from .conftest import PHONE, TIMEOUT_MS, LiveServer
from .helpers import next_dealer, night_session, seed_table
from .test_reach import bar_on_screen, bar_top

REAL = load_json(EXAMPLES / "real_evening.json")
SCREENS = {
    "390": {"width": 390, "height": 844},
    "320": {"width": 320, "height": 640},
    "200%": {"width": 195, "height": 422},  # 390×844 at 200 % text
}


def open_screen(browser: Any, name: str) -> Any:
    size = SCREENS[name]
    scale = 4 if name == "200%" else 2
    context = browser.new_context(**dict(PHONE, viewport=size, device_scale_factor=scale))
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.screen_name = name
    return page


@pytest.fixture
def screens(browser: Any) -> Any:
    opened: list[Any] = []

    def make(name: str) -> Page:
        page = open_screen(browser, name)
        opened.append(page)
        return page  # type: ignore[no-any-return]

    yield make
    for page in opened:
        page.context.close()


def test_the_lance_chips_sit_two_by_two_and_bazas_is_on_the_first_screen(screens: Any, live_server: LiveServer) -> None:
    page = screens("320")
    session = night_session(4)
    token, _ = seed_table(live_server, session, name="Pequeña", tanto_value="0.05", currency="€")
    page.goto(live_server.url(f"/t/{token}/mano?jugador={next_dealer(session) % 4 + 1}"))
    chips = page.locator("#f-lance .chip")
    assert chips.count() == 4
    boxes = [chips.nth(i).bounding_box() for i in range(4)]
    rows = sorted({round(b["y"]) for b in boxes if b is not None})
    assert len(rows) == 2, f"the lance chips sit in {len(rows)} rows: {boxes}"
    top = bar_top(page)
    legend = page.locator("#f-tricks legend").bounding_box()
    first_row = page.locator(".tricks-row").first.bounding_box()
    assert legend is not None and first_row is not None
    assert legend["y"] + legend["height"] <= top, f"Bazas at {legend}, the bar at {top}"
    assert first_row["y"] + first_row["height"] <= top, f"the first tricks row at {first_row}, the bar at {top}"


@pytest.mark.parametrize("name", ["390", "200%"])
def test_a_hands_page_has_corregir_in_its_bottom_bar(screens: Any, live_server: LiveServer, name: str) -> None:
    page = screens(name)
    token, _ = seed_table(live_server, night_session(8), name="Corregir a mano", tanto_value="0.05", currency="€")
    page.goto(live_server.url(f"/t/{token}/mano/3"))
    assert page.evaluate("window.scrollY") == 0
    bar_on_screen(page, ["Corregir", "Borrar"])


BEHIND_BAR = """rows => rows.map(row => {
  row.scrollIntoView({block: 'end'});
  const bar = document.querySelector('body > .thumb-bar');
  const top = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;
  const r = row.getBoundingClientRect();
  const what = row.textContent.trim().replace(/\\s+/g, ' ');
  return r.bottom <= top + 0.5 ? '' : `${what}: ends at ${Math.round(r.bottom)}, the bar at ${Math.round(top)}`;
}).filter(Boolean)"""


@pytest.mark.parametrize("how", ["zoom", "root font"])
def test_at_200_percent_no_balances_row_stays_under_the_bar(screens: Any, live_server: LiveServer, how: str) -> None:
    """200 % as Chrome on Android applies it (the whole page, a 195×422 screen) and as a desktop browser's
    text size does (the root font size doubled on the 390×844 phone: every rem doubles, the bar too)."""
    page = screens("200%" if how == "zoom" else "390")
    changed = copy.deepcopy(REAL)
    changed["hands"] = changed["hands"][:9]  # a person who left: one more row
    token, _ = seed_table(live_server, changed, name="Filas", tanto_value="0.05", currency="€")
    for url in (f"/t/{token}", f"/t/{token}/mano/3", f"/t/{token}/mano/7"):
        page.goto(live_server.url(url))
        if how == "root font":
            page.evaluate("document.documentElement.style.fontSize = '200%'")
            page.wait_for_function(
                "() => { const bar = document.querySelector('body > .thumb-bar');"
                " return !bar || getComputedStyle(document.documentElement).getPropertyValue('--bar-h').trim()"
                " === bar.offsetHeight + 'px'; }"
            )
        rows = page.locator("table.balances tbody tr")
        assert rows.count(), url
        covered = rows.evaluate_all(BEHIND_BAR)
        assert not covered, f"{url}:\n" + "\n".join(covered)
