"""Every main page passes axe-core without serious or critical violations, on the phone screen.

axe-core comes from ``node_modules/axe-core`` (``npm ci``, see package.json). It is
evaluated in the page through the DevTools protocol, so the app's strict
Content-Security-Policy (no inline scripts) stays on while it runs.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import REPO, LiveServer
from .pages import PAGES, seed_pages

pytestmark = pytest.mark.browser

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(
            f"{AXE} is missing: run `npm ci` at the repository root (scripts/bootstrap.sh --dev)", pytrace=False
        )
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def tables(live_server: LiveServer) -> dict[str, str]:
    """A table in the middle of a night (puestas in the cartulina, a reserved one in the plato)."""
    return seed_pages(live_server)


def audit(page: Page, axe_source: str) -> list[str]:
    """axe-core's serious and critical violations of the page, one readable line each."""
    page.evaluate(axe_source)
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag', "
        "values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})"
    )
    problems = []
    for violation in result["violations"]:
        if violation["impact"] in BLOCKING:
            targets = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
            problems.append(f"{violation['impact']} {violation['id']}: {violation['help']} — {targets}")
    return problems


def check_page(page: Page, axe_source: str) -> None:
    assert page.locator("html").get_attribute("lang") == "es"
    expect(page.locator("h1")).to_have_count(1)
    assert page.title().strip()
    problems = audit(page, axe_source)
    assert not problems, f"{page.url}:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", list(PAGES))
def test_page_is_accessible(
    name: str, live_server: LiveServer, page: Page, tables: dict[str, str], axe_source: str
) -> None:
    PAGES[name](page, live_server, tables)
    check_page(page, axe_source)


def test_axe_finds_what_it_should(live_server: LiveServer, page: Page, axe_source: str) -> None:
    """The audit itself works: an unlabelled input and grey-on-grey text are reported."""
    page.goto(live_server.url("/importar"))
    page.evaluate(
        """() => {
        const input = document.createElement('input'); input.type = 'text';
        document.querySelector('main').appendChild(input);
        const p = document.createElement('p'); p.textContent = 'casi invisible';
        p.style.color = '#222'; p.style.background = '#1e1e1e';
        document.querySelector('main').appendChild(p);
    }"""
    )
    found = "\n".join(audit(page, axe_source))
    assert "label" in found
    assert "color-contrast" in found
