"""A phone that trusts the local root gets everything at https://NAME that it gets at localhost.

``scripts/run --https cartulina.test`` (scripts/serve-https) runs here as a keeper runs it, on high
ports (HTTPS_PORT, HTTP_PORT) and a temporary instance folder: gunicorn behind Caddy, whose own
authority certifies the local name. Chromium reaches the name through ``--host-resolver-rules``
(everything listens on 127.0.0.1 only) and trusts the root from a throw-away NSS store
(``certutil``, Debian's libnss3-tools) in a temporary HOME, as a phone trusts it once installed from
/certificado. Checked: a secure context, the service worker, https share links, a Secure session
cookie, HSTS, compressed answers, http → https, and a hand queued offline with its payments shown
and then saved. The servers are stopped at the end, whatever happens.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorer.engine import settle
from scorer.web.tables.engine_files import PYODIDE_FILES
from scorer.web.tables.engine_files import ROOT as ENGINE_ROOT
from tests.web.app_servers import free_port

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, TIMEOUT_MS, Taps
from .helpers import PLAYERS, fill_hand, new_session, seed_table, with_hand
from .test_offline import BACK_MS, api_json, pending, plan, wait_until
from .test_offline_engine import nets, prepare

ROOT = pathlib.Path(__file__).resolve().parents[2]
NAME = "cartulina.test"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
CERTUTIL = shutil.which("certutil") or "/usr/bin/certutil"
START_SECONDS = 90

pytestmark = pytest.mark.browser


class HttpsServer:
    """scripts/serve-https NAME in a child process; ``url()`` gives https://NAME:PORT/…, ``app`` the app in-process."""

    def __init__(self, folder: pathlib.Path) -> None:
        from scorer.web import create_app

        self.https_port, self.http_port = free_port(), free_port()
        instance = folder / "instance"
        config = {
            "SECRET_KEY": "https-journey",
            "INSTANCE_PATH": str(instance),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'cartulina.db'}",
            "RATELIMIT_ENABLED": False,
        }
        self.app = create_app(config)  # creates the database; the test seeds and reads it through it
        env = dict(os.environ, HTTPS_PORT=str(self.https_port), HTTP_PORT=str(self.http_port))
        env.update(
            {f"FLASK_{key}": str(value).lower() if value is False else str(value) for key, value in config.items()}
        )
        self.log = folder / "serve-https.log"
        command = [sys.executable, str(ROOT / "scripts" / "serve-https"), NAME]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
        self.root = instance / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            if "Cartulina está en marcha" in self.log.read_text(errors="replace") and self.ready():
                return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"scripts/run --https did not start:\n{self.log.read_text(errors='replace')[-4000:]}")

    def ready(self) -> bool:
        """Caddy answers over https with the certificate its root signs, and over http with its redirect."""
        if not self.root.exists():
            return False
        try:
            context = ssl.create_default_context(cafile=str(self.root))
            with (
                socket.create_connection(("127.0.0.1", self.https_port), timeout=5) as raw,
                context.wrap_socket(raw, server_hostname=NAME) as tls,
            ):
                tls.sendall(f"GET /static/favicon.svg HTTP/1.1\r\nHost: {NAME}\r\nConnection: close\r\n\r\n".encode())
                if not tls.recv(64).startswith(b"HTTP/1.1 200"):
                    return False
            with socket.create_connection(("127.0.0.1", self.http_port), timeout=5) as plain:
                plain.sendall(f"GET / HTTP/1.1\r\nHost: {NAME}\r\nConnection: close\r\n\r\n".encode())
                return plain.recv(64).startswith(b"HTTP/1.1 308")
        except (OSError, ssl.SSLError):
            return False

    def url(self, path: str = "/") -> str:
        return f"https://{NAME}:{self.https_port}{path}"

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # the script stops gunicorn and Caddy, then itself
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def folder() -> Iterator[pathlib.Path]:
    place = pathlib.Path(tempfile.mkdtemp(prefix="cartulina-https-"))
    try:
        yield place
    finally:
        shutil.rmtree(place, ignore_errors=True)


@pytest.fixture(scope="module")
def server(folder: pathlib.Path) -> Iterator[HttpsServer]:
    for tool, package in ((CADDY, "caddy"), (CERTUTIL, "libnss3-tools")):
        if not os.path.exists(tool):
            pytest.fail(f"{tool} is missing: apt-get install {package} (scripts/bootstrap.sh --dev)", pytrace=False)
    started = HttpsServer(folder)
    try:
        yield started
    finally:
        started.stop()
        with started.app.app_context():
            from scorer.store.db import db

            db.session.remove()
            db.engine.dispose()


@pytest.fixture(scope="module")
def trusting_browser(browser: Any, server: HttpsServer, folder: pathlib.Path) -> Iterator[Any]:
    """Chromium with the local root in its NSS store (a temporary HOME) and NAME mapped to 127.0.0.1."""
    home = folder / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    store = f"sql:{nssdb}"
    subprocess.run([CERTUTIL, "-N", "-d", store, "--empty-password"], check=True, capture_output=True)
    add = [CERTUTIL, "-A", "-d", store, "-n", "cartulina-test-root", "-t", "C,,", "-i", str(server.root)]
    subprocess.run(add, check=True, capture_output=True)
    rules = f"--host-resolver-rules=MAP {NAME} 127.0.0.1"
    env = {k: v for k, v in os.environ.items() if k != "HOME"}
    env["HOME"] = str(home)
    trusting = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, rules], headless=True, env=env
    )
    try:
        yield trusting
    finally:
        trusting.close()


@pytest.fixture
def phone(trusting_browser: Any) -> Iterator[BrowserContext]:
    context = trusting_browser.new_context(**PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def page(phone: BrowserContext) -> Iterator[Page]:
    page = phone.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    yield page
    assert not problems, problems


def test_http_goes_to_https(page: Page, server: HttpsServer) -> None:
    edit, _view = seed_table(server, new_session())
    answer = page.goto(f"http://{NAME}:{server.http_port}/t/{edit}")
    assert answer is not None
    assert page.url == server.url(f"/t/{edit}")
    assert answer.status == 200


def test_at_https_name_the_phone_gets_a_secure_context_and_what_https_asks(
    page: Page, phone: BrowserContext, server: HttpsServer
) -> None:
    edit, view = seed_table(server, new_session())
    answer = page.goto(server.url(f"/t/{edit}"))
    assert answer is not None
    assert answer.status == 200
    assert page.evaluate("window.isSecureContext") is True
    # what https asks: HSTS, a Secure session cookie, compressed answers
    headers = answer.all_headers()
    assert headers["strict-transport-security"] == "max-age=31536000"
    assert headers.get("content-encoding") in ("gzip", "zstd", "br")
    session = [c for c in phone.cookies() if c["name"] == "session"]
    assert session
    assert session[0]["secure"] is True
    # the share links (and their QR codes) say https://NAME
    text = page.content()
    assert server.url(f"/t/{view}") in text
    assert server.url(f"/t/{edit}") in text
    # no notice: offline works here
    expect(page.locator("[data-insecure-notice]")).to_be_hidden()
    # the service worker runs and controls the page
    assert wait_until(page, "navigator.serviceWorker.controller !== null", 30_000) is True
    style = page.evaluate("fetch('/static/app.css').then(r => [r.status, r.headers.get('cache-control') || ''])")
    assert style == [200, "public, max-age=86400"]  # /static cached by Caddy's rule


def test_the_root_is_offered_at_certificado(page: Page, server: HttpsServer) -> None:
    edit, _view = seed_table(server, new_session())
    page.goto(server.url(f"/t/{edit}"))
    link = page.locator("[data-local-root]")
    expect(link).to_be_visible()
    link.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Certificado para los teléfonos")
    href = page.locator("[data-root-certificate]").get_attribute("href")
    assert href == f"http://{NAME}:{server.http_port}/certificado/cartulina-raiz.crt"
    body = page.evaluate("fetch('/certificado/cartulina-raiz.crt').then(r => r.text())")
    assert body == server.root.read_text()


@pytest.mark.skipif(
    not all((ENGINE_ROOT / "node_modules" / "pyodide" / n).is_file() for n in PYODIDE_FILES),
    reason="node_modules/pyodide missing (scripts/bootstrap.sh installs it)",
)
def test_a_hand_queued_offline_shows_its_payments_and_is_saved(
    page: Page, phone: BrowserContext, server: HttpsServer, taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(server, session)
    prepare(page, server, token, taps)  # type: ignore[arg-type]  # anything with url() and app

    phone.set_offline(True)
    hand = plan(session, 1)[0]
    taps(page.get_by_role("link", name="Anotar mano"))
    fill_hand(page, taps, PLAYERS, hand)
    bar = page.locator("#live")
    expected = settle(with_hand(session, hand))["hands"][-1]
    expect(bar).to_contain_text("calculado sin conexión", timeout=60_000)
    for said in nets(expected, PLAYERS):
        expect(bar).to_contain_text(said)
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(1)

    phone.set_offline(False)
    note = page.get_by_role("status").filter(has_text=re.compile("pendiente"))
    expect(note).to_contain_text("Guardada", timeout=BACK_MS)
    ledger = api_json(server, f"/api/tables/{token}/ledger")  # type: ignore[arg-type]
    assert len(ledger["hands"]) == 1
    assert ledger["hands"][0]["transfers"] == expected["transfers"]


def test_online_a_hand_is_saved_by_its_form(page: Page, server: HttpsServer, taps: Taps) -> None:
    """A plain form POST over https (the pages send no Referer: the CSRF check must not want one)."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(server, session)
    page.goto(server.url(f"/t/{token}"))
    hand = plan(session, 1)[0]
    taps(page.get_by_role("link", name="Anotar mano"))
    fill_hand(page, taps, PLAYERS, hand)
    taps(page.get_by_role("button", name="Guardar"))
    page.wait_for_url(re.compile(rf"/t/{re.escape(token)}(\?|#|$)"))
    ledger = api_json(server, f"/api/tables/{token}/ledger")  # type: ignore[arg-type]
    assert len(ledger["hands"]) == 1
    expected = settle(with_hand(session, hand))["hands"][-1]
    assert ledger["hands"][0]["transfers"] == expected["transfers"]
