"""Payments offline by the same engine (issue 24): Pyodide runs scorer.engine in a worker on the phone.

A phone that never asked for it downloads nothing of it; a keeper who taps *Preparar para jugar sin
conexión* gets it kept by the service worker, and with no network the phone's engine settles the
table as the server then does.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Request, expect

from scorer.web.engine_files import PYODIDE_FILES, ROOT

from .conftest import LiveServer, Taps
from .helpers import new_session, seed_table, with_hand
from .test_offline import api_json, enter_offline, open_online, pending, plan, wait_until

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not all((ROOT / "node_modules" / "pyodide" / n).is_file() for n in PYODIDE_FILES),
        reason="node_modules/pyodide missing (scripts/bootstrap.sh installs it)",
    ),
]
ENGINE_URLS = re.compile(r"/offline/(pyodide|engine|motor)")


def engine_requests(context: BrowserContext) -> list[str]:
    seen: list[str] = []

    def record(request: Request) -> None:
        if ENGINE_URLS.search(request.url):
            seen.append(request.url)

    context.on("request", record)
    return seen


def test_a_phone_that_never_asked_downloads_nothing_of_it(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    seen = engine_requests(phone)
    open_online(page, live_server, token)
    offer = page.get_by_role("button", name=re.compile(r"Preparar para jugar sin conexión \(\d+(,\d)? MB\)"))
    expect(offer).to_be_visible()  # the size shown before anything is downloaded
    phone.set_offline(True)
    enter_offline(page, taps, plan(session, 1)[0], 0)
    page.reload()
    phone.set_offline(False)
    expect(pending(page)).to_have_count(0)
    assert seen == []
    assert not page.evaluate("caches.has('cartulina-engine')")


def test_a_prepared_phone_settles_offline_as_the_server_does(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    for hand in plan(session, 3):
        session = with_hand(session, hand)
    token, _view = seed_table(live_server, session)
    open_online(page, live_server, token)
    taps(page.get_by_role("button", name=re.compile("Preparar para jugar sin conexión")))
    state = page.locator("#motor [data-engine-state]")
    expect(state).to_have_text("Preparado para jugar sin conexión.", timeout=60_000)
    expect(page.get_by_role("button", name=re.compile("Preparar para jugar"))).to_be_hidden()
    assert wait_until(page, "caches.open('cartulina-engine').then(c => c.keys()).then(k => k.length)") >= 10

    phone.set_offline(True)  # the network goes: the worker starts (the engine warms up)
    hand = plan(session, 1)[0]
    enter_offline(page, taps, hand, 0)
    expected = with_hand(session, hand)
    answer: dict[str, Any] = page.evaluate("s => window.cartulinaEngine.settle(s)", expected)
    assert "ledger" in answer, answer
    page.reload()  # a new page offline: its own worker, from the phone's copy
    again: dict[str, Any] = page.evaluate("s => window.cartulinaEngine.settle(s)", expected)

    phone.set_offline(False)
    expect(pending(page)).to_have_count(0)
    server = api_json(live_server, f"/api/tables/{token}/ledger")
    assert answer["ledger"] == again["ledger"] == server
    assert [h["result"] for h in server["hands"]] == [h["result"] for h in answer["ledger"]["hands"]]
