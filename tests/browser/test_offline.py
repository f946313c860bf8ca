"""At the table with no network: the app installs, and no hand is lost offline.

The phone opens a table online (the service worker keeps it and the next deals' forms), the
network goes (``context.set_offline``), hands are entered and kept on the phone "pendiente de
guardar", and when the network returns they are saved in order, exactly once; the ledger the
server answers is then ``scorer settle`` of the exported session.
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from scorer.engine import settle
from scorer.engine.tresillo import active_seats
from tests.conftest import EXAMPLES, load_json
from tests.engine.cli import settle_cli

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, fill_hand, new_session, next_dealer, night, seed_table, table_url, tricks_row, with_hand
from .test_accessibility import AXE, audit

pytestmark = pytest.mark.browser

ENTRIES = "/entries/form"
# The phone asks the server again at most 30 s after its last try (static/offline-sync.js, retryDelay): a
# test waits for the outcome (entries saved, the note gone) up to this long, and goes on as soon as it is there.
BACK_MS = 45_000
# What a page the service worker served offline may see in a newer Chromium: navigator.onLine
# stays false and no `online` event arrives after the network returns. Injected before the page's scripts.
NEVER_TOLD = """
Object.defineProperty(Navigator.prototype, "onLine", { configurable: true, get: function () { return false; } });
window.addEventListener("online", function (event) { event.stopImmediatePropagation(); }, true);
"""


def plan(session: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """The next ``count`` hands of the night, by the roles of the deals they are played in."""
    hands = []
    for i in range(count):
        roles = active_seats(len(session["players"]), next_dealer(session))
        hand = night(*roles)[i]
        hands.append(hand)
        session = with_hand(session, hand)
    return hands


def evaluate_settled(page: Page, script: str, tries: int = 50) -> Any:
    """A JS expression's value on the page that is there: when the page reloads by itself meanwhile (the
    table moved on after a save), the expression is asked again of the new page once it has loaded."""
    for _ in range(tries):
        try:
            return page.evaluate(script)
        except PlaywrightError as error:
            if "context was destroyed" not in str(error) and "navigat" not in str(error):
                raise
            page.wait_for_load_state()
    raise AssertionError(f"the page never stayed long enough to ask: {script}")


def wait_until(page: Page, script: str, timeout_ms: int = 10_000) -> Any:
    """Poll a JS expression until it is truthy (wait_for_function would eval a string: the CSP forbids it)."""
    for _ in range(timeout_ms // 100):
        value = evaluate_settled(page, script)
        if value:
            return value
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {script}")


def open_online(page: Page, server: LiveServer, token: str) -> None:
    """Open the table with the network on, and wait until the phone has kept it for offline."""
    page.goto(table_url(server, token))
    wait_until(page, "navigator.serviceWorker.controller !== null")
    expect(page.locator("body")).to_have_attribute("data-offline-ready", "true")


def pending(page: Page) -> Any:
    return page.get_by_role("region", name=re.compile("sin guardar")).locator("li.pending-entry")


def enter_offline(page: Page, taps: Taps, hand: dict[str, Any], waiting: int) -> None:
    """Anotar mano → the hand → Guardar, with no network: back on the table, one more pending."""
    taps(page.get_by_role("link", name="Anotar mano"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    fill_hand(page, taps, PLAYERS, hand)
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(waiting + 1)
    expect(pending(page).last).to_contain_text("pendiente de guardar")


AJUSTE = {"ajuste": {"from": 2, "to": 3, "amount": 10}}  # Benito pays Carmen 10


def enter_ajuste_offline(page: Page, taps: Taps, waiting: int) -> None:
    """Ajuste → Benito pays Carmen 10 tantos → Guardar, with no network: one more pending."""
    taps(page.get_by_role("link", name="Ajuste", exact=True))
    expect(page.get_by_role("heading", level=1)).to_have_text("Ajuste")
    taps(page.get_by_role("group", name="¿Quién paga?").get_by_role("radio", name="Benito"))
    taps(page.get_by_role("group", name="¿A quién?").get_by_role("radio", name="Carmen"))
    page.get_by_label("¿Cuántos tantos?").fill("10")
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(waiting + 1)
    expect(pending(page).last).to_contain_text("Benito · Carmen")


def api_json(server: LiveServer, path: str) -> Any:
    with server.app.test_client() as client:
        response = client.get(path)
        assert response.status_code == 200, response.data
        return json.loads(response.data)


def assert_saved_once(server: LiveServer, token: str, expected_session: dict[str, Any]) -> None:
    """The table holds exactly the expected hands, in order, and the server's ledger is what
    ``scorer settle`` prints for the exported session file."""
    exported = api_json(server, f"/t/{token}/exportar.json")
    strip = [{k: v for k, v in h.items() if k != "dealer"} for h in exported["hands"]]
    wanted = [{k: v for k, v in h.items() if k != "dealer"} for h in expected_session["hands"]]
    assert strip == wanted
    assert [h.get("dealer") for h in exported["hands"]] == [h.get("dealer") for h in expected_session["hands"]]
    printed = settle_cli(exported)
    assert printed.returncode == 0, printed.stderr
    ledger = api_json(server, f"/api/tables/{token}/ledger")
    assert ledger == json.loads(printed.stdout)
    assert ledger["balances"] == settle(expected_session)["balances"]


def test_three_hands_an_ajuste_and_a_pass_offline_saved_once_in_order(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    hands = plan(session, 3)
    open_online(page, live_server, token)

    phone.set_offline(True)
    enter_offline(page, taps, hands[0], 0)
    enter_offline(page, taps, hands[1], 1)
    enter_ajuste_offline(page, taps, 2)  # R32: takes no deal, the next form is still the third deal's
    enter_offline(page, taps, hands[2], 3)
    taps(page.get_by_role("button", name="Todos pasan"))  # and a deal where everybody passed
    expect(pending(page)).to_have_count(5)
    expect(pending(page).last).to_contain_text("Todos pasan · pendiente de guardar")
    page.reload()  # the phone still has them, and says the page is its last copy
    expect(pending(page)).to_have_count(5)
    assert audit(page, AXE.read_text(encoding="utf-8")) == []
    expect(page.get_by_role("status").filter(has_text="sin conexión")).to_contain_text(
        re.compile(r"sin conexión · datos de las \d\d:\d\d")
    )
    assert api_json(live_server, f"/api/tables/{token}")["hands"] == []

    phone.set_offline(False)
    saved = page.get_by_role("status").filter(has_text="pendientes")
    expect(saved).to_contain_text("Guardadas las 5 anotaciones", timeout=BACK_MS)
    expect(pending(page)).to_have_count(0)
    for hand in hands[:2]:
        session = with_hand(session, hand)
    session["hands"].append(AJUSTE)  # an ajuste carries no dealer
    for hand in [hands[2], {"pass": True}]:
        session = with_hand(session, hand)
    assert_saved_once(live_server, token, session)


def test_saved_though_the_browser_never_says_the_network_is_back(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """navigator.onLine stays false and no `online` event comes; the phone finds out by
    asking the server, and the hand entered offline is saved, the note gone."""
    phone.add_init_script(NEVER_TOLD)
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    hand = plan(session, 1)[0]
    open_online(page, live_server, token)
    assert page.evaluate("navigator.onLine") is False
    expect(page.locator("#sin-conexion")).to_be_hidden()  # the server answered: not "sin conexión"

    phone.set_offline(True)
    enter_offline(page, taps, hand, 0)
    expect(page.locator("#sin-conexion")).to_contain_text("sin conexión")
    phone.set_offline(False)
    saved = page.get_by_role("status").filter(has_text="pendiente")
    expect(saved).to_contain_text("Guardada la anotación", timeout=BACK_MS)
    expect(pending(page)).to_have_count(0)
    expect(page.locator("#sin-conexion")).to_be_hidden()
    assert_saved_once(live_server, token, with_hand(session, hand))


# Counts the page's requests for the table's state (/estado: how offline.js asks whether the server
# is there), as the page starts them and as they end.
COUNT_ASKS = """
window.asked = 0; window.answered = 0;
var plainFetch = window.fetch;
window.fetch = function (url) {
  var asking = String(url).endsWith("/estado");
  if (asking) window.asked += 1;
  var answer = plainFetch.apply(this, arguments);
  if (asking) answer.then(function () { window.answered += 1; }, function () { window.answered += 1; });
  return answer;
};
"""


def test_the_phone_asks_again_after_2_4_8_16_then_every_30_seconds(
    live_server: LiveServer, phone: BrowserContext, page: Page
) -> None:
    """With no network, the page asks the server again 2 s after a failed try, then 4, 8, 16, and 30 s
    at most (the page's clock is Playwright's, moved by hand); it asks at once when the page is shown
    again, and when any other request of the page gets the server's answer. The browser never says
    the network is back (NEVER_TOLD)."""
    phone.add_init_script(NEVER_TOLD)
    phone.add_init_script(COUNT_ASKS)
    page.clock.install()
    token, view = seed_table(live_server, new_session(favor_suit="bastos"))
    open_online(page, live_server, token)
    note = page.locator("#sin-conexion")

    phone.set_offline(True)
    page.clock.pause_at(page.evaluate("Date.now()") + 1_000)  # time moves only when the test says
    page.reload()  # the worker's copy: asks once on opening, and the answer is no
    expect(note).to_contain_text("sin conexión")
    wait_until(page, "window.asked === 1 && window.answered === 1")
    for wait in (2_000, 4_000, 8_000, 16_000, 30_000, 30_000):
        asked = page.evaluate("window.asked")
        page.clock.run_for(wait - 1)
        assert page.evaluate("window.asked") == asked, f"asked before {wait} ms"
        page.clock.run_for(1)
        assert page.evaluate("window.asked") == asked + 1, f"not asked after {wait} ms"
        wait_until(page, f"window.answered === {asked + 1}")  # the answer (no) sets the next wait

    phone.set_offline(False)  # no `online` event, no timer due: shown again, the page asks
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(note).to_be_hidden()

    phone.set_offline(True)
    page.reload()
    expect(note).to_contain_text("sin conexión")
    wait_until(page, "window.asked === 1 && window.answered === 1")
    phone.set_offline(False)  # the page's own request (a watcher's refresh, a preview) is answered
    assert page.evaluate(f"fetch('/t/{view}/estado?mine').then(r => r.status)") == 200
    expect(note).to_be_hidden()


def test_a_hand_a_cambio_and_a_hand_offline_saved_once_in_order(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """R33 offline: the walkthrough's five hands leave Benito (seat 2) a pending reserved puesta of 55.
    With no network: a hand (Diego's puesta, reserved too), then Elena takes Benito's seat (the page
    shows what the server knew it cancels, one tap confirms it), then another hand. Reloaded, the
    three wait; online, they are saved once, in order, and the ledger is ``scorer settle``'s."""
    session = new_session(favor_suit="bastos")
    for hand in load_json(EXAMPLES / "walkthrough.json")["hands"][:5]:
        session = with_hand(session, hand)
    token, _view = seed_table(live_server, session)
    assert [e["owner"] for e in settle(session)["cartulina"] if e["state"] == "pendiente"] == [2]
    first = night(*active_seats(4, next_dealer(session)))[1]  # a puesta
    after_first = with_hand(session, first)
    cambio = {"sienta": {"seat": 2, "player": "Elena"}}
    after_cambio = copy.deepcopy(after_first)
    after_cambio["hands"].append(cambio)  # R33: takes no deal, carries no dealer
    second = night(*active_seats(4, next_dealer(after_cambio)))[0]  # a ganada
    open_online(page, live_server, token)

    phone.set_offline(True)
    enter_offline(page, taps, first, 0)
    taps(page.get_by_role("link", name="Cambio de jugador"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Cambio de jugador")
    taps(page.get_by_role("group", name="¿Qué asiento cambia?").get_by_role("radio", name="2 · Benito"))
    taps(page.get_by_role("group", name="¿Quién se sienta?").get_by_role("radio", name="Otro nombre"))
    page.get_by_label("Nombre de quien llega").fill("Elena")
    taps(page.get_by_role("button", name="Ver qué cambia"))
    shown = page.get_by_role("region", name="Sin conexión: antes de confirmar")
    expect(shown).to_contain_text(re.compile(r"según los datos de las \d\d:\d\d; se anularán al guardar \(R33\)"))
    expect(shown.get_by_role("listitem")).to_have_text(["Benito: 55 (mano 5)"])  # the engine's, when kept
    expect(shown).to_contain_text("pueden cambiar lo que se anula")  # a hand waits, entered after that
    expect(page).to_have_url(re.compile(r"/cambio$"))  # nothing queued before the confirming tap
    assert page.evaluate("document.body.getAttribute('data-pending')") == "1"
    taps(page.get_by_role("group", name="¿Qué asiento cambia?").get_by_role("radio", name="1 · Ana"))
    expect(shown).to_be_hidden()  # chosen again: shown again, for that seat
    taps(page.get_by_role("button", name="Ver qué cambia"))
    expect(shown).to_contain_text("Ana no tiene puestas pendientes")
    taps(page.get_by_role("group", name="¿Qué asiento cambia?").get_by_role("radio", name="2 · Benito"))
    taps(page.get_by_role("button", name="Ver qué cambia"))
    taps(shown.get_by_role("button", name="Confirmar el cambio"))
    expect(pending(page)).to_have_count(2)
    expect(pending(page).last).to_contain_text("2 · Benito · Otro nombre · Nombre de quien llega Elena")
    enter_offline(page, taps, second, 2)  # the form kept for that deal: the cambio took none
    page.reload()
    expect(pending(page)).to_have_count(3)
    assert len(api_json(live_server, f"/api/tables/{token}")["hands"]) == 5  # nothing reached the server

    phone.set_offline(False)
    saved = page.get_by_role("status").filter(has_text="pendientes")
    expect(saved).to_contain_text("Guardadas las 3 anotaciones", timeout=BACK_MS)
    expect(pending(page)).to_have_count(0)
    expected = with_hand(after_cambio, second)
    assert_saved_once(live_server, token, expected)
    ledger = api_json(live_server, f"/api/tables/{token}/ledger")
    assert ledger["hands"][6]["seating"] == {"1": "Ana", "2": "Elena", "3": "Carmen", "4": "Diego"}
    assert [e["owner"] for e in ledger["hands"][6]["cartulina"] if e["state"] == "pendiente"] == [4]  # R33
    assert set(ledger["people"]) == {*PLAYERS, "Elena"} and ledger["people"] == settle(expected)["people"]


def test_online_a_cambio_is_still_previewed_by_the_server_then_confirmed(
    live_server: LiveServer, page: Page, taps: Taps
) -> None:
    """With the network on, nothing changes: the server's preview, then the confirming tap (R33)."""
    session = new_session(favor_suit="bastos")
    for hand in load_json(EXAMPLES / "walkthrough.json")["hands"][:5]:
        session = with_hand(session, hand)
    token, _view = seed_table(live_server, session)
    open_online(page, live_server, token)
    taps(page.get_by_role("link", name="Cambio de jugador"))
    taps(page.get_by_role("group", name="¿Qué asiento cambia?").get_by_role("radio", name="2 · Benito"))
    taps(page.get_by_role("group", name="¿Quién se sienta?").get_by_role("radio", name="Otro nombre"))
    page.get_by_label("Nombre de quien llega").fill("Elena")
    taps(page.get_by_role("button", name="Ver qué cambia"))
    expect(page.locator("#pagos")).to_contain_text("Benito: 55")  # the server's own preview
    expect(page.locator("#offline-confirm")).to_have_count(0)
    assert len(api_json(live_server, f"/api/tables/{token}")["hands"]) == 5
    taps(page.get_by_role("button", name="Confirmar el cambio"))
    expect(page.get_by_role("status").filter(has_text="anotado")).to_contain_text("Cambio de jugador anotado (6)")
    session["hands"].append({"sienta": {"seat": 2, "player": "Elena"}})
    assert_saved_once(live_server, token, session)


def test_network_cut_in_the_middle_of_sending(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """The second hand reaches the server, but its answer is lost on the way back (the connection
    drops); the keeper closes the tab. Reopened, the phone sends again what it still has: each hand
    ends up recorded exactly once, in order (the Idempotency-Key answers the repeat)."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    hands = plan(session, 3)
    open_online(page, live_server, token)
    phone.set_offline(True)
    for i, hand in enumerate(hands):
        enter_offline(page, taps, hand, i)

    sent: list[str] = []
    line = {"down": False}

    def cut_the_second(route: Route) -> None:
        sent.append(route.request.headers["idempotency-key"])
        if line["down"]:
            route.abort("internetdisconnected")
        elif len(sent) == 2:
            route.fetch()  # the server records it...
            line["down"] = True  # ...and the connection drops before the answer arrives
            route.abort("internetdisconnected")
        else:
            route.continue_()

    phone.route(f"**/api/tables/{token}{ENTRIES}", cut_the_second)
    phone.set_offline(False)
    expect(pending(page)).to_have_count(2, timeout=BACK_MS)  # the first went; the second is not known to be saved
    expect(pending(page)).to_contain_text(["pendiente de guardar", "pendiente de guardar"])
    assert len(api_json(live_server, f"/api/tables/{token}")["hands"]) == 2
    page.close()  # the keeper closes the tab
    tries = len(sent)
    line["down"] = False

    again = phone.new_page()
    again.goto(table_url(live_server, token))
    expect(again.get_by_role("status").filter(has_text="pendientes")).to_contain_text("Guardadas las 2 anotaciones")
    expect(pending(again)).to_have_count(0)
    resent = sent[tries:]
    assert resent == [sent[1], sent[-1]] and len(set(sent)) == 3  # the second again, then the third
    for hand in hands:
        session = with_hand(session, hand)
    assert_saved_once(live_server, token, session)


def test_refused_entries_are_kept_to_fix_or_discard(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """An entry the server refuses stays on the phone with the server's reason: one saved empty by
    mistake is discarded; the next one, written on the form of the deal after it, is then refused
    (it was for another dealer) and corrected on its form, reopened with what was entered."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    open_online(page, live_server, token)
    phone.set_offline(True)

    taps(page.get_by_role("link", name="Anotar mano"))
    taps(page.get_by_role("button", name="Guardar"))  # nothing chosen: kept all the same, offline
    expect(pending(page)).to_have_count(1)
    # the next deal is Benito's (seat 2): Carmen plays, 5 tricks, Diego 3, Ana 1
    second = {"jugador": 3, "lance": "entrada", "trump": "oros", "tricks": {3: 5, 4: 3, 1: 1}}
    enter_offline(page, taps, second, 1)
    expect(page.get_by_text(re.compile("^da Benito"))).to_have_count(0)  # back on the table page

    phone.set_offline(False)
    first = pending(page).first
    expect(first).to_contain_text("no se ha guardado", timeout=BACK_MS)
    expect(first).to_contain_text("Elige quién es el jugador")
    expect(pending(page).nth(1)).to_contain_text("pendiente de guardar")  # waits behind, in order
    assert audit(page, AXE.read_text(encoding="utf-8")) == []
    page.set_viewport_size({"width": 195, "height": 844})  # 200 % text on a phone: no sideways scroll
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 390, "height": 844})
    taps(first.get_by_role("button", name="Descartar"))

    expect(pending(page)).to_have_count(1)
    refused = pending(page).first
    expect(refused).to_contain_text("se anotó para cuando daba Benito, y ahora da Ana")
    assert api_json(live_server, f"/api/tables/{token}")["hands"] == []
    taps(refused.get_by_role("link", name="Corregir"))

    expect(page.get_by_role("alert")).to_contain_text("daba Benito")
    expect(page.get_by_role("group", name="Jugador", exact=True).get_by_role("radio", name="Carmen")).to_be_checked()
    expect(page.get_by_role("group", name="Triunfo").get_by_role("radio", name="oros", exact=True)).to_be_checked()
    # Ana deals (seat 1 is the alcalde): her trick is marked, never given to Benito without a tap
    expect(page.locator("#f-tricks")).to_contain_text("Se anotó «Ana: 1»")
    expect(tricks_row(page, "Benito").locator("input:checked")).to_have_count(0)
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("alert")).to_contain_text("Antes de guardar, elige de nuevo lo marcado")
    taps(tricks_row(page, "Benito").get_by_role("radio", name="1", exact=True))
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status").filter(has_text="pendiente")).to_contain_text("Guardada la anotación")
    expect(pending(page)).to_have_count(0)
    fixed = {"jugador": 3, "lance": "entrada", "trump": "oros", "tricks": {3: 5, 4: 3, 2: 1}}
    assert_saved_once(live_server, token, with_hand(session, fixed))


def test_a_watcher_sees_the_last_copy_then_follows_again(
    live_server: LiveServer, phone: BrowserContext, page: Page
) -> None:
    """The view link with no network shows the last copy, marked with its time; when the network
    returns it refreshes by itself to the hands entered meanwhile."""
    session = new_session(favor_suit="bastos")
    hand = plan(session, 1)[0]
    token, view = seed_table(live_server, with_hand(session, hand))
    open_online(page, live_server, view)
    hands = page.get_by_role("region", name="Últimas manos").get_by_role("listitem")
    expect(hands).to_have_count(1)

    phone.set_offline(True)
    page.reload()
    expect(page.locator("#sin-conexion")).to_have_text(re.compile(r"^sin conexión · datos de las \d\d:\d\d$"))
    expect(hands).to_have_count(1)

    from scorer import store

    with live_server.app.app_context():  # meanwhile the keeper saves a pass
        store.add_hand(store.require_edit(token), {"pass": True})

    phone.set_offline(False)
    expect(hands).to_have_count(2, timeout=BACK_MS)  # reloaded by itself
    expect(page.locator("#sin-conexion")).to_have_count(0)


def test_installable_manifest_and_service_worker(live_server: LiveServer, phone: BrowserContext, page: Page) -> None:
    """Chromium reads the manifest without errors, its icons are there with the sizes it states, and
    the service worker registers for the whole app and keeps the shell."""
    page.goto(live_server.url("/"))
    scope = wait_until(page, "navigator.serviceWorker.getRegistration().then(r => r && r.active ? r.scope : null)")
    assert scope == live_server.url("/")
    assert wait_until(page, "caches.keys().then(k => k.some(n => n.startsWith('cartulina-shell-')))")

    cdp = phone.new_cdp_session(page)
    answer = cdp.send("Page.getAppManifest")
    assert answer["url"] == live_server.url("/static/manifest.webmanifest")
    assert answer["errors"] == []
    manifest = json.loads(answer["data"])
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["short_name"] == "Cartulina" and manifest["theme_color"]
    errors = {e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}  # a Playwright context is incognito; nothing else stands in the way

    kinds = set()
    for icon in manifest["icons"]:
        response = page.request.get(live_server.url(icon["src"]))
        assert response.ok and response.headers["content-type"].startswith(icon["type"]), icon
        body = response.body()
        if icon["type"] == "image/png":
            width, height = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
            assert body[:8] == b"\x89PNG\r\n\x1a\n" and f"{width}x{height}" == icon["sizes"]
        else:
            assert b"<svg" in body
        kinds.add(icon["type"])
    assert kinds == {"image/png", "image/svg+xml"}

    worker = page.request.get(live_server.url("/sw.js"))
    assert worker.ok and worker.headers["service-worker-allowed"] == "/"
    assert "worker-src 'self'" in worker.headers["content-security-policy"]


def test_the_server_out_of_reach_while_the_phone_is_online(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """A wifi with no way out (the phone believes it is online, navigator.onLine stays true): the
    hand is kept all the same, and saved by itself once the server answers again."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    hand = plan(session, 1)[0]
    open_online(page, live_server, token)
    refused: list[str] = []

    def out_of_reach(route: Route) -> None:
        refused.append(route.request.url)
        route.abort("connectionrefused")

    server_pages = re.compile(re.escape(live_server.url("/")) + r"(t|api)/")
    phone.route(server_pages, out_of_reach)
    taps(page.get_by_role("link", name="Anotar mano"))  # the form kept for the next deal
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    fill_hand(page, taps, PLAYERS, hand)
    taps(page.get_by_role("button", name="Guardar"))
    expect(pending(page)).to_have_count(1)
    expect(page.locator("#sin-conexion")).to_contain_text("sin conexión · datos de las")
    assert page.evaluate("navigator.onLine") is True
    assert api_json(live_server, f"/api/tables/{token}")["hands"] == []
    assert any(url.endswith("/estado") for url in refused)
    assert any(url.endswith(f"/t/{token}/mano") for url in refused)  # the worker served its kept form

    phone.unroute(server_pages)  # the way out is back: the phone retries by itself
    saved = page.get_by_role("status").filter(has_text="pendiente")
    expect(saved).to_contain_text("Guardada la anotación", timeout=BACK_MS)
    assert_saved_once(live_server, token, with_hand(session, hand))


def test_a_form_that_is_not_kept_says_it_needs_the_network(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """Correcting a saved hand is not queued: with no network its form says so and stays open."""
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, with_hand(session, plan(session, 1)[0]))
    open_online(page, live_server, token)
    page.goto(live_server.url(f"/t/{token}/mano/1/editar"))
    phone.set_offline(True)
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("alert")).to_contain_text("Sin conexión: esto no se puede guardar sin red")
    expect(page.get_by_role("heading", level=1)).to_have_text("Corregir la mano 1")


def test_a_slow_answer_replaces_the_kept_copy_with_its_message(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    """A slow network, not a dead one: the page after *Última vuelta* takes longer than the worker waits
    (static/sw.js NETWORK_WAIT_MS), so the kept copy is shown first; when the server's answer comes, the
    page opens it, with the message the server flashed for it (never shown otherwise)."""
    session = with_hand(new_session(favor_suit="bastos"), {"pass": True})
    token, _view = seed_table(live_server, session, name="Respuesta lenta")
    open_online(page, live_server, token)
    held: list[Route] = []
    answered: list[Route] = []
    slow = re.compile(re.escape(live_server.url(f"/t/{token}")) + r"(/estado)?(\?.*)?$")

    def hold(route: Route) -> None:  # answered only when the test says so
        held.append(route)

    phone.route(slow, hold)
    try:
        taps(page.get_by_role("button", name=re.compile("^Última vuelta")))
        # the worker gave up waiting and showed its copy (from before the tap), marked as a copy
        expect(page.locator("#sin-conexion")).to_contain_text("sin conexión · datos de las", timeout=30_000)
        expect(page.get_by_role("button", name=re.compile("^Última vuelta"))).to_be_visible()
        answered = [r for r in held if not r.request.url.split("?")[0].endswith("/estado")]
        assert answered, [r.request.url for r in held]
        for route in answered:  # the server answers at last (the /estado polls stay unanswered)
            route.continue_()
        expect(page.get_by_role("status").filter(has_text="Última vuelta")).to_be_visible(timeout=30_000)
        expect(page.get_by_role("button", name="Seguir jugando normal")).to_be_visible()
    finally:
        phone.unroute(slow)
        for route in held:
            if route not in answered:
                with contextlib.suppress(Exception):  # the page that asked for it is gone
                    route.continue_()
