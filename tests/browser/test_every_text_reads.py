"""Every text reads at 4.5:1 or more against what is behind it (WCAG 1.4.3), in a dim room too.

axe-core's ``color-contrast`` rule, at any impact, on the pages of an evening that has everything the
cartulina can show: a puesta in the plato, a change of player (the leaver's box says "(se fue)"),
the closing (puestas cancelled or returned), on the phone screen in Spanish and English. The dark
pages hold a cream cartulina: a grey meant for the dark background (``--muted``) read 1.53:1 there.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.conftest import EXAMPLES, load_json

from .conftest import LiveServer
from .helpers import seed_table
from .test_accessibility import AXE

REAL = load_json(EXAMPLES / "real_evening.json")


@pytest.fixture(scope="module")
def evening(live_server: LiveServer) -> dict[str, str]:
    opened = copy.deepcopy(REAL)
    opened["hands"] = opened["hands"][:9]  # after the change of player: Diego se fue
    edit, view = seed_table(live_server, opened, name="Con cambio", tanto_value="0.05", currency="€")
    returned = copy.deepcopy(REAL)
    returned["hands"][-1] = {"close": "devolver"}
    closed, _ = seed_table(live_server, returned, name="Cerrada", tanto_value="0.05", currency="€")
    shared, _ = seed_table(live_server, copy.deepcopy(REAL), name="Repartida", tanto_value="0.05", currency="€")
    return {"edit": edit, "view": view, "closed": closed, "shared": shared}


def urls(t: dict[str, str]) -> list[str]:
    edit = t["edit"]
    return [
        f"/t/{edit}",
        f"/t/{t['view']}",
        f"/t/{edit}/manos",
        f"/t/{edit}/mano",
        f"/t/{edit}/mano/3",
        f"/t/{edit}/mano/6",
        f"/t/{edit}/ajuste",
        f"/t/{edit}/cambio",
        f"/t/{edit}/cerrar",
        f"/t/{t['closed']}",
        f"/t/{t['closed']}/mano/10",
        f"/t/{t['shared']}",
        f"/tables/{t['closed']}/sheet",
    ]


def low_contrast(page: Page, axe: str) -> list[str]:
    page.evaluate(axe)
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations'], "
        "runOnly: {type: 'rule', values: ['color-contrast']}})"
    )
    return [
        f"{' '.join(node['target'])}: {node.get('failureSummary', '').splitlines()[-1].strip()}"
        for violation in result["violations"]
        for node in violation["nodes"]
    ]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_text_meets_four_and_a_half_to_one(
    page: Page, live_server: LiveServer, evening: dict[str, str], lang: str
) -> None:
    axe = AXE.read_text(encoding="utf-8")
    page.context.add_cookies([{"name": "lang", "value": lang, "url": live_server.url("/")}])
    found = {}
    for url in urls(evening):
        page.goto(live_server.url(url))
        problems = low_contrast(page, axe)
        if problems:
            found[url] = problems
    assert not found, "\n".join(f"{url}:\n  " + "\n  ".join(lines) for url, lines in found.items())
