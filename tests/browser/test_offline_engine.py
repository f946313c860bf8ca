"""Payments offline by the same engine: Pyodide runs scorer.engine in a worker on the phone.

A phone that never asked for it downloads nothing of it; a keeper who taps *Preparar para jugar sin
conexión* gets it kept by the service worker, and with no network the phone's engine settles the
table as the server then does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Request, Route, expect

from scorer.engine import settle
from scorer.engine.tresillo import active_seats
from scorer.web.tables.engine_files import PYODIDE_FILES, ROOT
from scorer.words import result_word

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, fill_hand, new_session, next_dealer, seed_table, tricks_row, with_hand
from .test_languages import words
from .test_offline import (
    BACK_MS,
    api_json,
    enter_offline,
    evaluate_settled,
    open_online,
    pending,
    plan,
    wait_until,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not all((ROOT / "node_modules" / "pyodide" / n).is_file() for n in PYODIDE_FILES),
        reason="node_modules/pyodide missing (scripts/bootstrap.sh installs it)",
    ),
]
ENGINE_URLS = re.compile(r"/offline/(pyodide|engine|motor)")
# The service worker's engine caches ("cartulina-engine-<version>-<time>"): name, files, complete (motor.json kept)
ENGINE_CACHES = (
    "caches.keys().then(names => Promise.all(names.filter(n => n.startsWith('cartulina-engine')).map(n =>"
    " caches.open(n).then(c => Promise.all([c.keys(), c.match('/offline/motor.json')]))"
    ".then(([keys, motor]) => ({name: n, files: keys.length, complete: !!motor})))))"
)


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
    expect(pending(page)).to_have_count(0, timeout=BACK_MS)
    assert seen == []
    # once saved, the page may reload by itself (the table moved on): ask the page that is there then
    assert evaluate_settled(page, ENGINE_CACHES) == []


def nets(entry: dict[str, Any], names: list[str]) -> list[str]:
    """A ledger entry's money per person, as the offline preview lists it ("Benito +20")."""
    moved: dict[str, int] = {}
    for t in entry["transfers"]:
        if t["from"] != "plato":
            moved[str(t["from"])] = moved.get(str(t["from"]), 0) - t["amount"]
        if t["to"] != "plato":
            moved[str(t["to"])] = moved.get(str(t["to"]), 0) + t["amount"]
    return [f"{names[int(s) - 1]} {'+' if v > 0 else '−'}{abs(v)}" for s, v in moved.items() if v]


def prepare(page: Page, live_server: LiveServer, token: str, taps: Taps, say: Callable[..., str] | None = None) -> None:
    """*Preparar para jugar sin conexión* on the table page, in the page's language (``say``; Spanish)."""
    say = say or words("es")
    open_online(page, live_server, token)
    button = page.locator("#motor").get_by_role("button")
    taps(button)
    state = page.locator("#motor [data-engine-state]")
    expect(state).to_have_text(say("Preparado para jugar sin conexión."), timeout=60_000)
    expect(button).to_be_hidden()
    kept = wait_until(page, ENGINE_CACHES)
    assert len(kept) == 1 and kept[0]["complete"] and kept[0]["files"] >= 10
    wait_until(page, f"localStorage.getItem('cartulina-session-{token}') !== null")


def test_a_prepared_phone_shows_the_payments_offline_as_the_server_records_them(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    for hand in plan(session, 3):
        session = with_hand(session, hand)
    token, _view = seed_table(live_server, session)
    prepare(page, live_server, token, taps)

    phone.set_offline(True)  # the network goes: the worker starts (the engine warms up)
    first, second = plan(session, 2)
    enter_offline(page, taps, first, 0)
    after_first = with_hand(session, first)
    taps(page.get_by_role("link", name="Anotar mano"))
    fill_hand(page, taps, PLAYERS, second)
    bar = page.locator("#live")
    expected = settle(with_hand(after_first, second))["hands"][-1]
    expect(bar).to_contain_text("calculado sin conexión", timeout=60_000)
    expect(bar).to_contain_text(f"Mano 5 · {result_word(expected['result'])}")
    for said in nets(expected, PLAYERS):
        expect(bar).to_contain_text(said)
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(2)
    answer: dict[str, Any] = page.evaluate("s => window.cartulinaEngine.settle(s)", with_hand(after_first, second))
    page.reload()  # a new page offline: its own worker, from the phone's copy
    again: dict[str, Any] = page.evaluate("s => window.cartulinaEngine.settle(s)", with_hand(after_first, second))

    phone.set_offline(False)
    note = page.get_by_role("status").filter(has_text="pendientes")
    expect(note).to_contain_text("Guardadas las 2 anotaciones", timeout=BACK_MS)
    expect(note).not_to_contain_text("no son los que se vieron")
    server = api_json(live_server, f"/api/tables/{token}/ledger")
    assert answer["ledger"] == again["ledger"] == server
    assert server["hands"][-1]["transfers"] == expected["transfers"]


def test_the_keeper_is_told_which_hands_pay_otherwise_than_shown(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """The phone's copy of the table is older than the table the entry is saved on (here: it lost its
    last hand): what it showed offline is not what the server records, and the keeper is told."""
    session = new_session(favor_suit="bastos")
    for hand in plan(session, 2):
        session = with_hand(session, hand)
    token, _view = seed_table(live_server, session)
    prepare(page, live_server, token, taps)
    older = {**session, "hands": session["hands"][:1]}
    page.evaluate("([k, s]) => localStorage.setItem(k, JSON.stringify(s))", [f"cartulina-session-{token}", older])
    phone.set_offline(True)
    taps(page.get_by_role("link", name="Anotar mano"))
    hand = plan(session, 1)[0]
    fill_hand(page, taps, PLAYERS, hand)
    expect(page.locator("#live")).to_contain_text("Mano 2", timeout=60_000)  # the copy's count
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(1)
    phone.set_offline(False)
    note = page.get_by_role("status").filter(has_text="pendiente")
    expect(note).to_contain_text("Los pagos de la mano 3 no son los que se vieron sin conexión", timeout=BACK_MS)


def test_an_english_page_stays_english_offline(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """The form reader's messages and the result word come in the page's language (data-offline-words)."""
    say = words("en")
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    phone.add_cookies([{"name": "lang", "value": "en", "url": live_server.url("/")}])
    prepare(page, live_server, token, taps, say)
    expect(page.locator("html")).to_have_attribute("lang", "en")

    phone.set_offline(True)
    a, b, _c = active_seats(4, next_dealer(session))
    taps(page.get_by_role("link", name=say("Anotar mano")))
    expect(page.get_by_role("heading", level=1)).to_have_text(say("Anotar mano"))
    jugador = page.get_by_role("group", name=say("Jugador"), exact=True)
    taps(jugador.get_by_role("radio", name=PLAYERS[a - 1]))
    taps(page.get_by_role("group", name=say("Triunfo")).get_by_role("radio", name="oros", exact=True))
    taps(tricks_row(page, PLAYERS[a - 1]).get_by_role("radio", name="5", exact=True))
    bar = page.locator("#live")
    missing = say("Faltan las bazas: marca las del jugador y las de uno de la contra.")
    expect(bar).to_have_text(missing, timeout=60_000)  # the phone's engine, in English
    taps(tricks_row(page, PLAYERS[b - 1]).get_by_role("radio", name="3", exact=True))
    expect(bar).to_contain_text(say("calculado sin conexión"), timeout=60_000)
    expect(bar).to_contain_text(f"{say('Mano %(n)s', n=1)} · {say('ganada')} · ")
    expect(bar).not_to_contain_text("ganada")
    phone.set_offline(False)


def test_an_update_cut_off_midway_leaves_the_engine_the_phone_had(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """A new version of the app lists a newer engine; its download is cut off midway. The phone keeps
    the engine it had, complete, and offline the hand form shows the payments with it and says so;
    with the network back the new engine is downloaded beside it and only then the old one goes."""
    session = new_session(favor_suit="bastos")
    for hand in plan(session, 2):
        session = with_hand(session, hand)
    token, _view = seed_table(live_server, session)
    prepare(page, live_server, token, taps)
    [had] = page.evaluate(ENGINE_CACHES)
    version = page.locator("#motor").get_attribute("data-engine-version") or ""
    newer = f"{version}-nueva"

    def new_version(route: Route) -> None:  # the app as updated: its pages and its list name the newer engine
        answer = route.fetch()
        body = answer.text().replace(f'data-engine-version="{version}"', f'data-engine-version="{newer}"')
        if route.request.url.endswith("/offline/motor.json"):
            body = json.dumps({**json.loads(body), "version": newer})
        route.fulfill(response=answer, body=body)

    cut: list[str] = []

    def cut_off(route: Route) -> None:  # the network goes in the middle of the download
        cut.append(route.request.url)
        route.abort("connectionreset")

    updated = re.compile(rf"/t/{token}(/mano(/tras/\d+)?)?(\?.*)?$|/offline/motor\.json$")
    phone.route(updated, new_version)
    phone.route("**/offline/pyodide/pyodide.asm.wasm", cut_off)
    page.reload()  # the page of the new version: the phone asks for the newer engine, behind
    state = page.locator("#motor [data-engine-state]")
    expect(state).to_have_text("No se ha podido descargar: inténtalo con conexión.", timeout=60_000)
    assert cut, "the download was never cut"
    assert page.evaluate(ENGINE_CACHES) == [had]  # the engine it had, whole; nothing half-downloaded

    phone.set_offline(True)
    hand = plan(session, 1)[0]
    taps(page.get_by_role("link", name="Anotar mano"))
    fill_hand(page, taps, PLAYERS, hand)
    bar = page.locator("#live")
    expected = settle(with_hand(session, hand))["hands"][-1]
    expect(bar).to_contain_text("calculado sin conexión", timeout=60_000)
    expect(bar).to_contain_text("con el motor que ya tenía este teléfono")
    for said in nets(expected, PLAYERS):
        expect(bar).to_contain_text(said)
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(1)

    phone.unroute("**/offline/pyodide/pyodide.asm.wasm")  # the network is whole again
    phone.set_offline(False)
    expect(pending(page)).to_have_count(0, timeout=BACK_MS)
    page.reload()  # online: the newer engine, downloaded whole beside the old one, then the old one goes
    expect(page.locator("#motor [data-engine-state]")).to_have_text(
        "Preparado para jugar sin conexión.", timeout=60_000
    )
    newest = f"{ENGINE_CACHES}.then(k => k.length === 1 && k[0].name !== '{had['name']}' && k)"
    [now] = wait_until(page, newest, timeout_ms=60_000)
    assert now["complete"] and now["files"] == had["files"] and newer.replace("-", "_") in now["name"].replace("-", "_")


def test_a_phone_whose_engine_is_gone_says_the_payments_come_with_the_network(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """The browser emptied the phone's kept engine: offline, the hand form says in words that the
    payments will be seen when the network returns, instead of an empty bar."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    prepare(page, live_server, token, taps)
    page.evaluate(
        "caches.keys().then(k => Promise.all("
        "k.filter(n => n.startsWith('cartulina-engine')).map(n => caches.delete(n))))"
    )
    phone.set_offline(True)
    taps(page.get_by_role("link", name="Anotar mano"))
    fill_hand(page, taps, PLAYERS, plan(session, 1)[0])
    bar = page.locator("#live")
    expect(bar).to_have_text(
        "Sin conexión no se pueden calcular estos pagos: se verán cuando vuelva la red.", timeout=60_000
    )
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(1)
    phone.set_offline(False)
    expect(pending(page)).to_have_count(0, timeout=BACK_MS)
