"""Whole journeys of a night of Tresillo in a real browser on a phone-sized screen.

The journeys tap through the real pages (CSRF on, JavaScript on) and build, next
to their taps, the session file they mean to enter; after every step the numbers
on the screen must be the engine's (``scorer.engine.settle``) for that session.
"""

from __future__ import annotations

import copy
import io
import json
import pathlib
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from scorer.engine import settle
from scorer.engine.tresillo import active_seats

from .conftest import LiveServer, Taps
from .helpers import (
    PLAYERS,
    TOKEN_URL,
    assert_table_shows,
    create_table_from_home,
    enter_hand,
    expected,
    fill_hand,
    new_session,
    next_dealer,
    night,
    night_session,
    read_balances,
    report_taps,
    seed_table,
    table_url,
    tricks_row,
    with_hand,
)

pytestmark = pytest.mark.browser

TAP_BUDGET = 5  # "Juega <name>" on the table page, triunfo, his tricks, one contra's tricks, Guardar


def test_the_night_plan_covers_every_result() -> None:
    """The hands the journeys enter are valid and show ganada, puesta, codillo, rendida, defendida, bola hecha
    and cortada (read from the tricks, R13/R19), paso."""
    results = {entry["result"] for entry in settle(night_session())["hands"]}
    assert {"ganada", "puesta", "codillo", "rendida", "defendida_ganada", "bola", "bola_cortada", "paso"} <= results


def test_create_a_table_and_enter_a_night(
    live_server: LiveServer, page: Page, taps: Taps, artifacts: pathlib.Path
) -> None:
    """Journeys 1 and 2 (and the tap count): a 4-player table from the home page, then 12 hands;
    after each one the page shows the engine's balances and plato."""
    token = create_table_from_home(page, taps, live_server, "Noche del viernes", PLAYERS)
    expect(page.get_by_role("status")).to_contain_text("Partida creada")
    session = new_session(favor_suit="bastos")
    assert_table_shows(page, session)  # all at zero, empty plato
    expect(page.get_by_text("Aún no hay manos.")).to_be_visible()

    for i in range(12):
        dealer = next_dealer(session)
        roles = active_seats(4, dealer)
        hand = night(*roles)[i]
        # the page names who deals (big, at the top): the engine's dealer
        expect(page.locator(".roles dd.dealer")).to_contain_text(PLAYERS[dealer - 1])
        taps.reset()
        enter_hand(page, taps, PLAYERS, hand, i + 1)
        if i == 0:  # a typical won entrada: count the taps from the table page back to it
            typical = taps.count
        session = with_hand(session, hand)
        assert_table_shows(page, session)
        assert (
            page.get_by_role("region", name="Últimas manos")
            .get_by_role("link")
            .first.inner_text()
            .startswith(f"{i + 1} ")
        )

    results = [e["result"] for e in settle(session)["hands"]]
    assert {"ganada", "puesta", "codillo", "rendida", "defendida_ganada", "bola", "bola_cortada", "paso"} <= set(
        results
    )
    assert TOKEN_URL.search(page.url).group(1) == token  # type: ignore[union-attr]

    report = f"taps for a typical won entrada (table page → table page, hand saved): {typical}"
    report_taps(artifacts, report)
    assert typical <= TAP_BUDGET, report

    # the home page lists the table with its hands
    page.goto(live_server.url("/"))
    listed = page.locator(f'a[href="/t/{token}"]')
    expect(listed).to_contain_text("Noche del viernes")
    expect(listed).to_contain_text("12 manos")


def test_edit_a_hand_then_delete_and_restore_one(live_server: LiveServer, page: Page, taps: Taps) -> None:
    """Journey 3: correct hand 3 and see the later balances change; delete a hand and restore it."""
    session = night_session(8)
    token, _view = seed_table(live_server, session, name="Para corregir")
    page.goto(table_url(live_server, token))
    assert_table_shows(page, session)
    before = read_balances(page.get_by_role("region", name="Saldos"))

    # hand 3 was a codillo; make it a ganada for its Jugador
    taps(page.get_by_role("region", name="Últimas manos").get_by_role("link", name=re.compile(r"^3 ")))
    expect(page.get_by_role("heading", level=1)).to_have_text("Mano 3")
    taps(page.get_by_role("link", name="Corregir"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Corregir la mano 3")
    old = session["hands"][2]
    jugador = old["jugador"]
    a, b, _c = active_seats(4, old["dealer"])
    corrected = {k: v for k, v in old.items() if k != "tricks"}
    corrected["tricks"] = {str(jugador): 5, str(a): 3, str(b): 1}
    # the form comes filled in with the stored hand
    players_row = tricks_row(page, PLAYERS[jugador - 1])
    expect(players_row.get_by_role("radio", name=str(old["tricks"][str(jugador)]), exact=True)).to_be_checked()
    for seat in (jugador, a, b):
        row = tricks_row(page, PLAYERS[seat - 1])
        taps(row.get_by_role("radio", name=str(corrected["tricks"][str(seat)]), exact=True))
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status")).to_contain_text("Mano 3 corregida")

    edited = copy.deepcopy(session)
    edited["hands"][2] = corrected
    # a later hand's own page shows the recomputed balances after it
    page.goto(table_url(live_server, token) + "/mano/5")
    after_5 = settle(edited)["hands"][4]["balances"]
    later = read_balances(page.locator(".split section").nth(1))
    assert later == {PLAYERS[int(s) - 1]: v for s, v in after_5.items()}
    assert after_5 != settle(session)["hands"][4]["balances"]
    taps(page.get_by_role("link", name="Volver a la partida"))
    expect(page).to_have_url(table_url(live_server, token))
    assert_table_shows(page, edited)
    assert read_balances(page.get_by_role("region", name="Saldos")) != before

    # delete hand 6 (the bola): the later hands keep their dealers
    page.goto(table_url(live_server, token) + "/mano/6")
    taps(page.get_by_role("link", name="Borrar"))
    taps(page.get_by_role("button", name="Sí, borrar la mano 6"))
    expect(page.get_by_role("status")).to_contain_text("Mano 6 borrada")
    without = copy.deepcopy(edited)
    del without["hands"][5]
    assert_table_shows(page, without)

    # and put it back
    deleted = page.get_by_role("region", name="Manos borradas")
    expect(deleted).to_contain_text("mano 6")
    taps(deleted.get_by_role("button", name="Restaurar"))
    expect(page.get_by_role("status")).to_contain_text("Mano 6 restaurada")
    taps(page.get_by_role("link", name="Volver a la partida"))
    expect(page).to_have_url(table_url(live_server, token))
    assert_table_shows(page, edited)
    expect(page.get_by_role("region", name="Manos borradas")).to_have_count(0)


def test_view_link_follows_the_table_and_cannot_change_it(
    live_server: LiveServer, page: Page, new_phone: Any, taps: Taps
) -> None:
    """Journey 4: another player's phone on the view link sees a new hand appear, and can change nothing."""
    session = night_session(3)
    token, view_token = seed_table(live_server, session, name="Para mirar")
    page.goto(table_url(live_server, token))
    taps(page.get_by_text("Compartir: enlaces y códigos QR"))
    view_url = page.get_by_label("Enlace para mirar").input_value()
    assert view_url.endswith(f"/t/{view_token}")

    other = new_phone().new_page()
    other.goto(view_url)
    expect(other.get_by_text("solo para mirar")).to_be_visible()
    assert_table_shows(other, session)

    def assert_read_only(viewer: Page) -> None:
        # the only forms: who I am and my answers to the hands, never a change of the table
        answers = ":not([action$='/yo']):not([action$='/respuesta'])"
        assert viewer.locator(f"form[method=post i]{answers}, form[method=POST]{answers}").count() == 0
        writers = "a[href$='/mano'], a[href*='/editar'], a[href*='/borrar'], a[href$='/cerrar'], a[href*='/restaurar']"
        assert viewer.locator(writers).count() == 0
        for name in ("Anotar mano", "Todos pasan", "Corregir", "Borrar", "Restaurar", "Cerrar la partida"):
            expect(viewer.get_by_role("link", name=name, exact=True)).to_have_count(0)
            expect(viewer.get_by_role("button", name=name, exact=True)).to_have_count(0)
        expect(viewer.get_by_label("Enlace para anotar")).to_have_count(0)

    assert_read_only(other)

    # the keeper enters hand 4 on their phone …
    hand = night(*active_seats(4, next_dealer(session)))[3]
    enter_hand(page, taps, PLAYERS, hand, 4)
    session = with_hand(session, hand)
    # … and it shows up on the other phone without anyone reloading it
    lines = other.get_by_role("region", name="Últimas manos").get_by_role("link")
    expect(lines.first).to_have_text(re.compile(r"^4 "), timeout=15_000)
    assert_table_shows(other, session)
    assert_read_only(other)

    # the hand's detail through the view link has no controls either
    lines.first.tap()
    expect(other.get_by_role("heading", level=1)).to_have_text("Mano 4")
    assert_read_only(other)
    # and writing with the view token is refused by the server
    refused = other.request.get(live_server.url(f"/t/{view_token}/mano"))
    assert refused.status == 403
    refused = other.request.post(live_server.url(f"/t/{view_token}/pasan"), form={"request_id": "x"})
    assert refused.status in (400, 403)
    other.goto(view_url)
    assert_table_shows(other, session)

    # the watcher's home page lists nothing: a view link never reveals the edit link
    other.goto(live_server.url("/"))
    expect(other.get_by_text("Aún no hay partidas en este dispositivo")).to_be_visible()
    assert other.locator(f'a[href*="{token}"]').count() == 0
    expect(other.get_by_role("link", name=re.compile("Para mirar"))).to_have_count(0)
    # while the keeper's phone lists the table it opened with the edit link
    page.goto(live_server.url("/"))
    expect(page.locator(f'a[href="/t/{token}"]')).to_contain_text("Para mirar")


def test_sheet_and_session_file_then_import(
    live_server: LiveServer, page: Page, taps: Taps, tmp_path: pathlib.Path
) -> None:
    """Journey 5: the PDF sheet and the session file download; importing the file makes an equal table."""
    session = night_session(6)
    token, _view = seed_table(live_server, session, name="Para exportar")
    page.goto(table_url(live_server, token))
    balances, _plato = expected(session)

    # the printable sheet (PDF)
    sheet = page.get_by_role("link", name=re.compile("Hoja para imprimir"))
    href = sheet.get_attribute("href")
    assert href
    # The first PDF of a fresh server first loads WeasyPrint and its fonts in the worker, with no limit
    # (scorer/sheet/build.py _warm_up: measured 7.3 s + 8.4 s in a fresh Debian at load 17-32 on 2
    # cores), then renders within SHEET_PDF_TIMEOUT (else 503): waited for up to both, and more.
    wait_ms = (float(live_server.app.config["SHEET_PDF_TIMEOUT"]) + 60) * 1000
    response = page.request.get(live_server.url(href) if href.startswith("/") else href, timeout=wait_ms)
    assert response.status == 200, f"{href}: {response.status}"
    assert response.headers["content-type"].startswith("application/pdf")
    body = response.body()
    assert body.startswith(b"%PDF")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages)
    for name in PLAYERS:
        assert name in text

    # the session file
    with page.expect_download() as info:
        taps(page.get_by_role("link", name="Archivo de partida"))
    download = info.value
    assert download.suggested_filename.endswith(".json")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    exported = json.loads(saved.read_text(encoding="utf-8"))
    assert exported["players"] == PLAYERS
    assert len(exported["hands"]) == len(session["hands"])
    assert settle(exported)["balances"] == settle(session)["balances"]

    # import it as a new table
    page.goto(live_server.url("/"))
    taps(page.get_by_role("link", name="Importar"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Importar una partida")
    page.get_by_label("Archivo de partida (.json)").set_input_files(str(saved))
    taps(page.get_by_role("button", name="Importar"))
    expect(page.get_by_role("status")).to_contain_text("Partida importada")
    match = TOKEN_URL.search(page.url)
    assert match and match.group(1) != token
    assert_table_shows(page, session)
    assert read_balances(page.get_by_role("region", name="Saldos")) == balances


def test_an_impossible_hand_is_refused_next_to_its_field(live_server: LiveServer, page: Page, taps: Taps) -> None:
    """Journey 6: tricks 4-4-0 get a message next to the tricks and nothing is saved."""
    session = night_session(2)
    token, _view = seed_table(live_server, session, name="Mano imposible")
    page.goto(table_url(live_server, token))
    a, b, c = active_seats(4, next_dealer(session))
    hand = {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {str(a): 4, str(b): 4, str(c): 0}}
    taps(page.get_by_role("link", name="Anotar mano"))
    fill_hand(page, taps, PLAYERS, hand)
    taps(page.get_by_role("button", name="Guardar"))

    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")  # still on the form
    message = page.get_by_role("group", name="Bazas").get_by_role("alert")
    expect(message).to_contain_text("4-4-0")
    expect(message).to_contain_text("no está decidida")
    # the three counts are still there to fix
    for seat, count in hand["tricks"].items():
        row = tricks_row(page, PLAYERS[int(seat) - 1])
        expect(row.get_by_role("radio", name=str(count), exact=True)).to_be_checked()

    # fixing one count saves the hand (as 4-4-1, a puesta)
    row = tricks_row(page, PLAYERS[c - 1])
    taps(row.get_by_role("radio", name="1", exact=True))
    page.goto(table_url(live_server, token))
    assert_table_shows(page, session)  # nothing was saved by the refused hand …
    expect(
        page.get_by_role("region", name="Últimas manos").get_by_role("link", name=re.compile(r"^\d+ "))
    ).to_have_count(2)

    taps(page.get_by_role("link", name="Anotar mano"))
    fill_hand(page, taps, PLAYERS, dict(hand, tricks={str(a): 4, str(b): 4, str(c): 1}))
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status")).to_contain_text("Mano 3 anotada")
    session = with_hand(session, {**hand, "tricks": {a: 4, b: 4, c: 1}})
    assert settle(session)["hands"][-1]["result"] == "puesta"
    assert_table_shows(page, session)


def test_preview_before_saving(live_server: LiveServer, page: Page, taps: Taps) -> None:
    """What the hand will pay shows live as the keeper taps (the server's engine), saving nothing; Guardar saves."""
    session = night_session(1)
    token, _view = seed_table(live_server, session, name="Vista previa")
    page.goto(table_url(live_server, token))
    hand = night(*active_seats(4, next_dealer(session)))[1]
    taps(page.get_by_role("link", name="Anotar mano"))
    expect(page.get_by_role("button", name="Ver pagos")).to_be_hidden()  # no extra tap: it shows by itself
    fill_hand(page, taps, PLAYERS, hand)
    after = with_hand(session, hand)
    entry = settle(after)["hands"][-1]
    preview = page.locator("#live")
    expect(preview).to_contain_text(f"plato {settle(after)['plato']['amount']}")
    expect(preview).to_contain_text(entry["result"].capitalize())
    url = page.url
    glance = page.context.new_page()  # the same phone, another tab: the preview saved nothing
    glance.goto(table_url(live_server, token))
    assert_table_shows(glance, session)
    glance.close()
    assert page.url == url  # no reload either
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status")).to_contain_text("Mano 2 anotada")
    assert_table_shows(page, after)


def test_todos_pasan_twice_in_a_row_uses_one_tap_each(live_server: LiveServer, page: Page, taps: Taps) -> None:
    session = new_session()
    token, _view = seed_table(live_server, session, name="Pasan")
    page.goto(table_url(live_server, token))
    for n in (1, 2):
        taps.reset()
        enter_hand(page, taps, PLAYERS, {"pass": True}, n)
        assert taps.count == 1
        session = with_hand(session, {"pass": True})
        assert_table_shows(page, session)


def test_close_the_table_at_the_end_of_the_night(live_server: LiveServer, page: Page, taps: Taps) -> None:
    """Cerrar la partida: the plato goes back (R30), the balances are the engine's, nothing can be entered."""
    session = night_session(8)  # ends with a reserved puesta in the plato
    token, _view = seed_table(live_server, session, name="Para cerrar")
    page.goto(table_url(live_server, token))
    taps(page.get_by_role("link", name="Cerrar la partida"))
    expect(page.get_by_role("heading", level=1)).to_have_text("¿Cómo se cierra?")  # R30: devolver or repartir
    taps(page.get_by_role("button", name="Cerrar y devolver"))
    expect(page.get_by_role("status")).to_contain_text("Cierre guardado")  # the page says "Partida cerrada" once
    expect(page.get_by_role("main")).to_contain_text("Partida cerrada")
    closed = copy.deepcopy(session)
    closed["hands"].append({"close": "devolver"})
    assert_table_shows(page, closed)
    assert settle(closed)["plato"]["amount"] == 0
    for name in ("Anotar mano", "Todos pasan", "Cerrar la partida"):
        expect(page.get_by_role("link", name=name, exact=True)).to_have_count(0)
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)
    # the hand form is refused for a closed table
    page.goto(table_url(live_server, token) + "/mano")
    expect(page.get_by_role("status")).to_contain_text("cerrada")
    expect(page).to_have_url(table_url(live_server, token))


def test_the_new_table_form_follows_the_chosen_game(live_server: LiveServer, page: Page) -> None:
    """The seats, options and words of the new-table form follow the chosen game, from the data the
    page carries (data-for lists and each game's data-seats, built from scorer.games): Ombre is for
    three (O1), bandos for six in two teams and without money (B1), Tresillo for three or four (R1)."""
    page.goto(live_server.url("/nueva"))
    seat = {n: page.locator(f'.seat-row[data-seat="{n}"]') for n in range(1, 7)}
    dealer_option = page.locator("#first_dealer option")
    money = page.locator("#tanto_value")

    page.locator('input[name=game][value="ombre"]').check()
    expect(seat[3]).to_be_visible()
    expect(seat[4]).to_be_hidden()
    expect(page.locator('fieldset.game-opts[data-for="ombre"]')).to_be_visible()
    expect(page.locator('fieldset.game-opts[data-for="tresillo"]')).to_be_hidden()
    assert [o.is_disabled() for o in dealer_option.all()] == [False] * 3 + [True] * (dealer_option.count() - 3)
    expect(money).to_be_visible()

    page.locator('input[name=game][value="bandos"]').check()
    for n in range(1, 7):
        expect(seat[n]).to_be_visible()
    expect(seat[1].locator(".team-tag")).to_be_visible()
    expect(money).to_be_hidden()  # tantos only
    assert not any(o.is_disabled() for o in dealer_option.all())

    page.locator('input[name=game][value="tresillo"]').check()
    expect(seat[4]).to_be_visible()
    expect(seat[5]).to_be_hidden()
    expect(seat[4].locator("input")).not_to_have_attribute("placeholder", "")  # "vacío si sois tres"
    expect(seat[1].locator(".team-tag")).to_be_hidden()
    assert [o.is_disabled() for o in dealer_option.all()][:4] == [False] * 4
