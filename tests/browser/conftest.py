"""Fixtures of the browser journeys: a real server, Debian's Chromium on a phone-sized screen.

- ``live_server`` (session): the Flask app on a temporary SQLite file, served by
  gunicorn in a child process on 127.0.0.1 and a free port (``live.py`` says why not
  werkzeug's development server), CSRF on (the browser posts real forms).
  Each xdist worker gets its own server and database.
- ``browser`` (session): ``/usr/bin/chromium`` through Playwright (never a
  downloaded browser). A missing Chromium is a failure, not a skip.
- ``phone`` (function): a fresh browser context of 390×844 CSS px, touch, scale 2;
  ``page`` is a page in it. ``new_phone()`` makes more (the other players).
- ``taps``: a :class:`Taps` that counts every tap/click a test performs.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .live import LiveServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "es-ES",
    "accept_downloads": True,
}
REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
TIMEOUT_MS = 10_000
# Playwright's assertions (expect) give up after 5 s by default: as long as every other wait here
# instead, for a fresh machine of 2 cores that other work shares. They end as soon as true.
expect.set_options(timeout=TIMEOUT_MS)
NARROW_WIDTH = 195  # CSS px: the 390-px phone with its text at 200 %


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of this folder is a browser test."""
    here = pathlib.Path(__file__).parent
    for item in items:
        if here in pathlib.Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    from scorer.store.db import db
    from scorer.web import create_app

    folder = pathlib.Path(tempfile.mkdtemp(prefix="cartulina-browser-"))
    config = {
        "SECRET_KEY": "browser-tests",
        "INSTANCE_PATH": str(folder / "instance"),
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'cartulina.db'}",
        "RATELIMIT_ENABLED": False,  # the journeys create many tables from one address
        "CARTULINA_REFRESH_SECONDS": 1,  # the keeper's page asks for new answers every second
        # WTF_CSRF_ENABLED stays on: the browser posts the real forms with their tokens.
    }
    app = create_app(config)  # in-process: creates the database; the tests seed and read it through it
    assert app.config.get("WTF_CSRF_ENABLED", True), "the browser journeys need CSRF on"
    server = LiveServer(app, config, folder / "gunicorn.log")
    try:
        server.start()
        yield server
    finally:
        server.stop()
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"{CHROMIUM} is missing: the browser journeys run Debian's Chromium "
            "(apt-get install chromium, or scripts/bootstrap.sh --dev as root); never `playwright install`.",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_phone(browser: Any) -> Iterator[Callable[[], Any]]:
    """A factory of phone-sized browser contexts; all are closed after the test."""
    contexts: list[Any] = []

    def factory() -> Any:
        context = browser.new_context(**PHONE)
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield factory
    for context in contexts:
        # a route's handler may still be fetching for a page the test is done with (the service worker
        # keeping a copy): its "context disposed" would otherwise surface in the next test
        with contextlib.suppress(PlaywrightError):  # a context the test closed itself
            context.unroute_all(behavior="ignoreErrors")
        context.close()


@pytest.fixture
def narrow_page(browser: Any) -> Iterator[Any]:
    """A page on the same phone with its text at 200 %: 195 CSS px wide (closed after the test)."""
    context = browser.new_context(**dict(PHONE, viewport={"width": NARROW_WIDTH, "height": 844}))
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def phone(new_phone: Callable[[], Any]) -> Any:
    return new_phone()


@pytest.fixture
def page(phone: Any) -> Any:
    """A page on the phone that fails the test on any JavaScript error or CSP violation."""
    page = phone.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.on(
        "console",
        lambda msg: (
            problems.append(f"console {msg.type}: {msg.text}")
            if msg.type == "error" and "Content Security Policy" in msg.text
            else None
        ),
    )
    yield page
    if not page.is_closed():  # as the phone's routes (new_phone)
        page.unroute_all(behavior="ignoreErrors")
    assert not problems, problems


class Taps:
    """Every tap a test makes goes through here, so a journey can count them."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, locator: Any) -> None:
        self.count += 1
        # A thumb taps what the eye sees: a chip's label rather than its 1-px radio, brought to the middle
        # of the screen first, clear of the fixed bar at the bottom.
        if locator.evaluate("e => e.tagName === 'INPUT' && !!e.closest('label.chip')"):
            locator = locator.locator("xpath=ancestor::label[1]")
        locator.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
        locator.tap()

    def reset(self) -> None:
        self.count = 0


@pytest.fixture
def taps() -> Taps:
    return Taps()


@pytest.fixture(scope="session")
def artifacts() -> pathlib.Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
