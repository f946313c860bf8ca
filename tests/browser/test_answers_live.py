"""The players' answers, live: the keeper's open table page shows a disagreement and its note within
the refresh interval, without a reload; a player agrees in two taps from his first screen (who he is,
then De acuerdo), both on that first screen of a 390×844 phone."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, night_session, report_taps, seed_table, table_url

HANDS = 3


def on_first_screen(page: Page, locator: Locator, what: str) -> None:
    """Seen without scrolling: the page is at its top and the element's box ends within the viewport."""
    assert page.evaluate("window.scrollY") == 0, f"{what}: the page was scrolled"
    box = locator.bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 844
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (
        f"{what} not on the first screen: {box}"
    )


def test_a_disagreement_reaches_the_keepers_open_page_and_agreeing_takes_two_taps(
    live_server: LiveServer, page: Page, new_phone: Any, taps: Taps, artifacts: Any
) -> None:
    token, view_token = seed_table(live_server, night_session(HANDS), name="En directo")
    page.goto(table_url(live_server, token))
    page.evaluate("window.notReloaded = true")  # gone if the page reloads
    keeper_line = page.get_by_role("region", name="Últimas manos").get_by_role("link", name=re.compile(rf"^{HANDS} "))
    expect(keeper_line).to_contain_text("0 de 4")
    expect(keeper_line).not_to_contain_text("✓")  # a tick only when everyone agrees
    expect(page.get_by_role("region", name="No es así")).to_have_count(0)

    # Ana, on her phone: who she is, then De acuerdo with the latest hand, both on the first screen
    ana = new_phone().new_page()
    ana.goto(table_url(live_server, view_token))
    taps.reset()
    who = ana.get_by_role("region", name="¿Quién eres?")
    on_first_screen(ana, who, "¿Quién eres?")
    soy = who.get_by_role("button", name=f"Soy {PLAYERS[0]}", exact=True)
    on_first_screen(ana, soy, f"Soy {PLAYERS[0]}")
    taps(soy)
    agree = ana.get_by_role("button", name=f"De acuerdo con la mano {HANDS}")
    expect(agree).to_be_visible()
    on_first_screen(ana, agree, "De acuerdo with the latest hand")
    taps(agree)
    expect(ana.get_by_role("status")).to_contain_text(f"Mano {HANDS}: de acuerdo.")
    report_taps(
        artifacts,
        f"taps for a player to agree with the latest hand from the first screen, saying who once: {taps.count}",
    )
    assert taps.count == 2
    # the next time, her choice is remembered: the latest hand is offered at once
    ana.reload()
    expect(ana.get_by_text(f"Respondes como {PLAYERS[0]}.")).to_be_visible()
    expect(ana.get_by_text("Dijiste: de acuerdo.")).to_be_visible()

    # the keeper's page, never reloaded, counts her within the interval
    expect(keeper_line).to_contain_text("1 de 4")

    # Benito, on his phone, says the latest hand is not right
    benito = new_phone().new_page()
    benito.goto(table_url(live_server, view_token))
    taps(benito.get_by_role("button", name=f"Soy {PLAYERS[1]}", exact=True))
    expect(benito.get_by_text(f"Respondes como {PLAYERS[1]}.")).to_be_visible()
    latest = benito.get_by_role("region", name=f"Última mano que jugaste: {HANDS}")
    no = latest.get_by_text("No es así", exact=False).first
    on_first_screen(benito, no, "No es así with the latest hand")
    taps(no)
    latest.get_by_label("¿Qué no es así?").fill("eran 6 bazas")
    taps(latest.get_by_role("button", name="Enviar"))
    expect(benito.get_by_role("status")).to_contain_text(f"Mano {HANDS}: anotado que no es así.")

    # … and the keeper sees it, with the note, within the refresh interval and without a reload
    disputes = page.get_by_role("region", name="No es así")
    expect(disputes).to_contain_text(f"Mano {HANDS}: {PLAYERS[1]} dice: «eran 6 bazas»")
    expect(keeper_line).to_contain_text("✗")
    assert page.evaluate("window.notReloaded === true"), "the keeper's page reloaded"
    on_first_screen(page, disputes, "the disagreement on the keeper's page")
