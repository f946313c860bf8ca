"""The main pages of the app, each opened in a telling state, for the accessibility and screenshot checks.

``seed_pages(server)`` makes a table in the middle of a night (puestas in the
cartulina, a reserved one in the plato); each opener takes the page there.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from playwright.sync_api import Page, expect

from scorer.engine.tresillo import active_seats
from tests.conftest import EXAMPLES, load_json

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, fill_hand, next_dealer, night, night_session, seat_field, seed_table

SEEDED_HANDS = 8


def seed_pages(server: LiveServer) -> dict[str, str]:
    """The tokens of a table of eight hands (see :func:`helpers.night`)."""
    session = night_session(SEEDED_HANDS)
    edit, view = seed_table(
        server, session, name="Jueves en el casino", place="Casino", tanto_value="0.05", currency="€"
    )
    ombre = load_json(EXAMPLES / "ombre_three.json")  # eight deals of eight: over, the bote still to share
    ombre_edit, _ = seed_table(server, ombre, name="Ombre del domingo", date="2025-03-09")
    closed = copy.deepcopy(session)
    closed["hands"].append({"close": "devolver"})
    closed_edit, _ = seed_table(server, closed, name="Cerrada el martes", tanto_value="0.05", currency="€")
    return {"edit": edit, "view": view, "ombre": ombre_edit, "closed": closed_edit}


def open_home(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """The home page of a phone that opened the seeded table with its edit link (it lists only those)."""
    page.goto(server.url(f"/t/{tables['edit']}"))
    page.goto(server.url("/"))
    expect(page.locator(f'a[href="/t/{tables["edit"]}"]')).to_be_visible()


def open_new_table(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url("/nueva"))
    page.get_by_text("Reglas de la casa").tap()  # the folded house rules too


def open_new_table_with_errors(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url("/nueva"))
    seat_field(page, 1).fill("Ana")
    seat_field(page, 2).fill("Ana")
    page.get_by_role("button", name="Empezar la partida").tap()
    expect(page.get_by_role("alert").first).to_be_visible()


def open_table_edit(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}"))
    page.get_by_text("Compartir: enlaces y códigos QR").tap()  # links and QR codes too


def open_table_view(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['view']}"))


def open_hand_form(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}/mano"))
    page.get_by_text("Estuches, primeras, bola, rendida").tap()


def open_hand_form_quick(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """The form from the table's "Juega <name>": the Jugador chosen, the tricks with their one-tap buttons."""
    page.goto(server.url(f"/t/{tables['edit']}"))
    page.locator(".thumb-bar .quick a").first.tap()
    expect(page.get_by_role("button", name="Bola cortada")).to_be_visible()


def open_hand_form_refused(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """The hand form after an impossible hand: the message next to the tricks."""
    page.goto(server.url(f"/t/{tables['edit']}/mano"))
    session = night_session(SEEDED_HANDS)
    a, b, c = active_seats(4, next_dealer(session))
    hand = {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {a: 4, b: 4, c: 0}}
    fill_hand(page, Taps(), PLAYERS, hand)
    page.get_by_role("button", name="Guardar").tap()
    # the server's page (the live preview shows the same alert before the form is posted: wait for the
    # page that only the server writes, or the audit may start on the page being left)
    expect(page.locator("p[role=alert]").filter(has_text="No se ha guardado")).to_have_count(1)
    expect(page.get_by_role("group", name="Bazas").get_by_role("alert")).to_be_visible()


def open_hand_preview(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """The hand form once a hand is tapped in: the live preview in the bottom bar (the server's engine)."""
    page.goto(server.url(f"/t/{tables['edit']}/mano"))
    session = night_session(SEEDED_HANDS)
    fill_hand(page, Taps(), PLAYERS, night(*active_seats(4, next_dealer(session)))[0])
    expect(page.locator("#live")).to_contain_text("Después: plato")


def open_hand_preview_nojs(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """Without JavaScript, "Ver pagos" reloads the form with the payments (the form works without JS)."""
    page.goto(server.url(f"/t/{tables['edit']}/mano"))
    session = night_session(SEEDED_HANDS)
    fill_hand(page, Taps(), PLAYERS, night(*active_seats(4, next_dealer(session)))[0])
    page.locator("button[name=preview]").evaluate("b => { b.hidden = false; b.click(); }")
    expect(page.get_by_role("region", name="Pagos de esta mano")).to_be_visible()


def open_hand_list(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}/manos"))


def open_sheet(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/tables/{tables['edit']}/sheet"))


def open_table_closed(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """A closed table: the balances and who pays whom."""
    page.goto(server.url(f"/t/{tables['closed']}"))
    expect(page.get_by_role("region", name="Quién paga a quién")).to_be_visible()


def open_hand_detail(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}/mano/6"))


def open_hand_detail_view(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['view']}/mano/5"))


def open_edit_hand(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}/mano/5/editar"))


def open_delete_confirm(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}/mano/3/borrar"))


def open_close_confirm(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}/cerrar"))


def open_ombre_over(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['ombre']}"))
    expect(page.get_by_role("link", name="Repartir el bote y cerrar")).to_have_count(0)  # O6: nothing follows


def open_ombre_close_confirm(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['ombre']}/cerrar"))


def open_import(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url("/importar"))


def open_not_found(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url("/t/no-such-token-at-all-here"))


# the events of an evening (R30, R32, R33): each screen in the state a keeper sees before confirming


def open_ajuste_preview(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}/ajuste"))
    page.get_by_role("group", name="¿Quién paga?").get_by_role("radio", name=PLAYERS[1]).check(force=True)
    page.get_by_role("group", name="¿A quién?").get_by_role("radio", name="Cada uno de los demás").check(force=True)
    page.get_by_label("¿Cuántos tantos?").fill("10")
    page.get_by_role("button", name="Ver pagos").click()
    expect(page.locator("#pagos")).to_be_visible()


def open_cambio_preview(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    page.goto(server.url(f"/t/{tables['edit']}/cambio"))
    page.get_by_role("group", name="¿Qué asiento cambia?").get_by_role("radio", name=f"1 · {PLAYERS[0]}").check(
        force=True
    )
    page.get_by_label("Nombre de quien llega").fill("Elena")
    page.get_by_role("button", name="Ver qué cambia").click()
    expect(page.get_by_role("button", name="Confirmar el cambio")).to_be_visible()


def _disagree(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """Carmen says hand 8 is not right; answering again replaces, so any page may do it."""
    body = {"person": "Carmen", "agrees": False, "note": "eran 4 estuches"}
    answer = page.request.post(server.url(f"/api/tables/{tables['view']}/hands/8/answers"), data=body)
    assert answer.status == 201, answer.text()


def open_table_view_answering(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """The view link once the phone said who it is: De acuerdo / No es así on each hand, one note open."""
    _disagree(page, server, tables)
    page.goto(server.url(f"/t/{tables['view']}"))
    page.get_by_role("button", name="Soy Benito", exact=True).click()
    expect(page.get_by_text("Respondes como Benito.")).to_be_visible()
    page.get_by_role("button", name="De acuerdo con la mano 7").click()
    expect(page.get_by_role("status")).to_contain_text("Mano 7: de acuerdo.")
    page.locator("details.answer-no summary").first.click()
    expect(page.get_by_label("¿Qué no es así?").first).to_be_visible()


def open_table_edit_disputed(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """The keeper's page with a disagreement standing at the top, and ✓ n of m on each hand."""
    _disagree(page, server, tables)
    page.goto(server.url(f"/t/{tables['edit']}"))
    expect(page.get_by_role("region", name="No es así")).to_be_visible()


def open_hand_detail_answered(page: Page, server: LiveServer, tables: dict[str, str]) -> None:
    """A hand's page with the table's answers to it."""
    _disagree(page, server, tables)
    page.goto(server.url(f"/t/{tables['view']}/mano/8"))
    expect(page.get_by_role("region", name="Respuestas de la mesa")).to_contain_text("eran 4 estuches")


PAGES: dict[str, Callable[[Page, LiveServer, dict[str, str]], None]] = {
    "home": open_home,
    "new_table": open_new_table,
    "new_table_errors": open_new_table_with_errors,
    "table_edit": open_table_edit,
    "table_view": open_table_view,
    "hand_form": open_hand_form,
    "hand_form_quick": open_hand_form_quick,
    "hand_form_refused": open_hand_form_refused,
    "hand_preview": open_hand_preview,
    "hand_preview_nojs": open_hand_preview_nojs,
    "hand_list": open_hand_list,
    "table_closed": open_table_closed,
    "sheet": open_sheet,
    "hand_detail": open_hand_detail,
    "hand_detail_view": open_hand_detail_view,
    "edit_hand": open_edit_hand,
    "delete_confirm": open_delete_confirm,
    "close_confirm": open_close_confirm,
    "ajuste_preview": open_ajuste_preview,
    "cambio_preview": open_cambio_preview,
    "table_ombre_over": open_ombre_over,
    "ombre_close_confirm": open_ombre_close_confirm,
    "import": open_import,
    "not_found": open_not_found,
    "table_view_answering": open_table_view_answering,
    "table_edit_disputed": open_table_edit_disputed,
    "hand_detail_answered": open_hand_detail_answered,
}
