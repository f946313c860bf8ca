"""Screenshots of every main page at phone size, and the layout rules a thumb needs.

The PNGs land in ``artifacts/screenshots/`` (git-ignored) for a person to look at.
What a machine can see is asserted: nothing wider than the screen (no sideways
scrolling, no text running off the edge) and every control at least 44×44 CSS px.
"""

from __future__ import annotations

import pathlib

import pytest
from playwright.sync_api import Page, expect

from .conftest import LiveServer
from .pages import PAGES, seed_pages

pytestmark = pytest.mark.browser

MIN_TARGET = 44  # CSS px: the smallest thing a thumb is asked to hit

LAYOUT_PROBLEMS = """
(minTarget) => {
  const doc = document.documentElement;
  const width = doc.clientWidth;
  const problems = [];
  if (doc.scrollWidth > width + 1) problems.push(`the page scrolls sideways: ${doc.scrollWidth} px > ${width} px`);
  const hidden = (e) => {
    if (e.closest('.sr-only, [aria-hidden=true]')) return true;
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    return r.width === 0 || r.height === 0 || s.visibility === 'hidden' || s.display === 'none' || s.opacity === '0';
  };
  const name = (e) => {
    const classes = typeof e.className === 'string' ? e.className.trim() : '';
    const cls = classes ? '.' + classes.split(/\\s+/).join('.') : '';
    const text = (e.innerText || e.value || e.getAttribute('aria-label') || e.getAttribute('name') || '').trim();
    return `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${cls} «${text.replace(/\\s+/g, ' ').slice(0, 40)}»`;
  };
  // inside a box that scrolls sideways by itself (the sheet's hand table), the page does not
  const inScroller = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  for (const e of document.body.querySelectorAll('*')) {
    if (hidden(e) || e.closest('svg')) continue;
    const r = e.getBoundingClientRect();
    if ((r.right > width + 1 || r.left < -1) && !inScroller(e)) {
      problems.push(`${name(e)} runs off the screen (${Math.round(r.left)}..${Math.round(r.right)} px of ${width})`);
    }
    const s = getComputedStyle(e);
    const clips = ['hidden', 'clip'].includes(s.overflowX) || s.textOverflow === 'ellipsis';
    if (clips && !['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName) && e.scrollWidth > e.clientWidth + 1) {
      problems.push(`${name(e)} cuts its text (${e.scrollWidth} px in ${e.clientWidth} px)`);
    }
  }
  const controls = 'button, a, select, textarea, summary, label.checkbox, .chip > span, '
    + 'input:not([type=hidden]):not([type=radio]):not([type=checkbox])';
  for (const e of document.body.querySelectorAll(controls)) {
    if (hidden(e)) continue;
    // a link inside a sentence is exempt (WCAG 2.5.8); a link alone in its paragraph is a control
    const p = e.tagName === 'A' ? e.parentElement.closest('p, li:not(:has(> a:only-child)), dd, td') : null;
    if (p && p.innerText.trim() !== e.innerText.trim()) continue;
    const r = e.getBoundingClientRect();
    if (r.width < minTarget - 0.5 || r.height < minTarget - 0.5) {
      problems.push(`${name(e)} is ${Math.round(r.width)}×${Math.round(r.height)} px, under ${minTarget}×${minTarget}`);
    }
  }
  return [...new Set(problems)];
}
"""


@pytest.fixture(scope="module")
def tables(live_server: LiveServer) -> dict[str, str]:
    return seed_pages(live_server)


@pytest.fixture(scope="module")
def shots(artifacts: pathlib.Path) -> pathlib.Path:
    folder = artifacts / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("name", list(PAGES))
def test_page_at_phone_size(
    name: str, live_server: LiveServer, page: Page, tables: dict[str, str], shots: pathlib.Path
) -> None:
    PAGES[name](page, live_server, tables)
    page.evaluate("document.fonts.ready")
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"{name}.fold.png"))  # what shows before any scrolling
    assert (shots / f"{name}.png").stat().st_size > 0
    problems = page.evaluate(LAYOUT_PROBLEMS, MIN_TARGET)
    assert not problems, f"{name} ({page.url}):\n" + "\n".join(problems)


def test_save_is_within_thumb_reach(live_server: LiveServer, page: Page, tables: dict[str, str]) -> None:
    """On the table and the hand form, the main action sits in the bottom third, on screen, without scrolling."""
    height = page.viewport_size["height"] if page.viewport_size else 844
    for path, button in ((f"/t/{tables['edit']}", "Anotar mano"), (f"/t/{tables['edit']}/mano", "Guardar")):
        page.goto(live_server.url(path))
        target = page.get_by_role("link", name=button).or_(page.get_by_role("button", name=button))
        expect(target).to_be_in_viewport()
        box = target.bounding_box()
        assert box is not None
        assert box["y"] >= height * 2 / 3, f"{button} at y={box['y']}: out of thumb reach"
        assert box["y"] + box["height"] <= height
        assert box["height"] >= MIN_TARGET


def test_layout_check_sees_small_and_wide_things(live_server: LiveServer, page: Page) -> None:
    """The layout rules themselves work: a tiny button and a too-wide line are reported."""
    page.goto(live_server.url("/importar"))
    assert page.evaluate(LAYOUT_PROBLEMS, MIN_TARGET) == []
    page.evaluate(
        """() => {
        const main = document.querySelector('main');
        const tiny = document.createElement('button'); tiny.textContent = 'x';
        tiny.style.minHeight = '0'; tiny.style.minWidth = '0'; tiny.style.padding = '0'; tiny.style.height = '20px';
        main.appendChild(tiny);
        const wide = document.createElement('div'); wide.textContent = 'cartulina'; wide.style.width = '600px';
        main.appendChild(wide);
    }"""
    )
    found = "\n".join(page.evaluate(LAYOUT_PROBLEMS, MIN_TARGET))
    assert "button «x» is" in found
    assert "runs off the screen" in found
    assert "scrolls sideways" in found


def test_new_table_fields_stay_put_and_suits_fit_one_row(live_server: LiveServer, page: Page) -> None:
    """A seat marked wrong keeps its field where it was; the four suits of the palo de favor share one row."""
    from .helpers import seat_field

    page.goto(live_server.url("/nueva"))
    before = [seat_field(page, seat).bounding_box() for seat in (1, 2, 3)]
    seat_field(page, 1).fill("Ana")
    seat_field(page, 2).fill("Ana")
    page.get_by_role("button", name="Empezar la partida").tap()
    expect(page.locator(".seat-row.field-error").first).to_be_visible()
    after = [seat_field(page, seat).bounding_box() for seat in (1, 2, 3)]
    for old, new in zip(before, after, strict=True):
        assert old is not None and new is not None
        assert (round(new["x"]), round(new["width"])) == (round(old["x"]), round(old["width"]))

    suits = page.locator("fieldset.game-opts[data-for~=tresillo] .chips.suits .chip > span")
    expect(suits).to_have_count(5)
    boxes = [suits.nth(i).bounding_box() for i in range(5)]
    assert all(b is not None for b in boxes)
    tops = {round(b["y"]) for b in boxes[:4] if b}
    assert len(tops) == 1, f"the suits wrap: {boxes}"
    for suit in ("oros", "copas", "espadas", "bastos"):
        chip = suits.filter(has_text=suit)
        symbol = chip.locator(".symbol").bounding_box()
        word = chip.bounding_box()
        assert symbol and word and symbol["y"] < word["y"] + word["height"] / 2  # the symbol above the word
    none, first = boxes[4], boxes[0]
    assert none and first and none["y"] > first["y"]  # "ninguno" on a row of its own


def test_the_bottom_bar_never_hides_a_focused_control(
    live_server: LiveServer, page: Page, tables: dict[str, str]
) -> None:
    """Tabbing or tapping into a control low on the page scrolls it clear of the fixed bar (scroll-padding)."""
    page.goto(live_server.url(f"/t/{tables['edit']}"))
    bar = page.locator(".thumb-bar").bounding_box()
    assert bar is not None
    hidden = []
    for link in page.locator("main a, main summary").all():
        link.focus()
        box = link.bounding_box()
        if box and box["y"] + box["height"] > bar["y"] + 1:
            hidden.append(link.inner_text())
    assert not hidden, f"under the bar once focused: {hidden}"
