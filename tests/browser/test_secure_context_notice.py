"""At a plain-http LAN address the keeper is told why offline play and the home-screen app are missing.

Browsers give a service worker (offline, install) only to secure contexts: https, or the machine
itself (localhost, 127.0.0.1). The server here listens on 127.0.0.1 only; Chromium reaches it as
``http://mesa.test:PORT`` (``--host-resolver-rules``), an address it treats as any LAN address:
not secure. There the keeper's table page says so where *Preparar para jugar sin conexión* would be,
and how to get it; at 127.0.0.1 it says nothing, and neither does the view page anywhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, TIMEOUT_MS, LiveServer
from .helpers import new_session, seed_table

LAN_NAME = "mesa.test"


@pytest.fixture
def lan_page(browser: Any) -> Iterator[Page]:
    """A phone whose browser reaches the test server by a LAN-like name over plain http."""
    rules = f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"
    lan = browser.browser_type.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, rules], headless=True)
    try:
        context = lan.new_context(**PHONE)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        yield page
        assert not problems, problems
    finally:
        lan.close()


def lan_url(server: LiveServer, path: str) -> str:
    return server.url(path).replace("127.0.0.1", LAN_NAME, 1)


def test_at_a_lan_address_over_http_the_keeper_is_told_offline_needs_https(
    lan_page: Page, live_server: LiveServer
) -> None:
    edit, _view = seed_table(live_server, new_session())
    lan_page.goto(lan_url(live_server, f"/t/{edit}"))
    assert lan_page.evaluate("window.isSecureContext") is False
    notice = lan_page.locator("[data-insecure-notice]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("esta dirección no es segura")
    expect(notice).to_contain_text("scripts/run --https")
    expect(notice).to_contain_text("docs/deploy.md")
    # where the offline engine's button would be: it could not work here, so it is not offered
    expect(lan_page.locator("[data-engine-prepare]:visible")).to_have_count(0)
    # the service worker could not register: nothing pretends otherwise
    assert lan_page.evaluate("'serviceWorker' in navigator") is False


def test_the_view_page_at_a_lan_address_says_nothing_of_it(lan_page: Page, live_server: LiveServer) -> None:
    _edit, view = seed_table(live_server, new_session())
    lan_page.goto(lan_url(live_server, f"/t/{view}"))
    expect(lan_page.locator("h1")).to_be_visible()
    expect(lan_page.locator("[data-insecure-notice]")).to_have_count(0)


def test_at_localhost_the_keeper_is_told_nothing(page: Page, live_server: LiveServer) -> None:
    edit, _view = seed_table(live_server, new_session())
    page.goto(live_server.url(f"/t/{edit}"))
    assert page.evaluate("window.isSecureContext") is True
    expect(page.locator("h1")).to_be_visible()
    page.wait_for_function("document.readyState === 'complete'")
    expect(page.locator("[data-insecure-notice]")).to_be_hidden()
