"""Pages of the events of an evening (Tresillo, blueprint ``evening``): ajuste (R32), cambio de jugador (R33),
the closing with its two choices (R30) and "jugar hasta que se gane el plato".

Every amount shown before confirming is the engine's answer to the entry previewed
(``store.preview_hand`` / ``preview_replace`` / ``closing_previews``): nothing is computed here.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorer import evening, store
from scorer.games import game_of, tresillo_views
from scorer.games import views as present
from scorer.web.common import messages
from scorer.web.common.evening import favor_in_force, seating_for
from scorer.web.common.evening_forms import (
    AjusteForm,
    CambioForm,
    EndingForm,
    EventForm,
    FavorForm,
    ajuste_form,
    cambio_form_for,
    favor_closed_words,
    favor_form,
    read_ajuste,
    read_cambio,
    read_favor,
)
from scorer.web.common.forms import ConfirmForm
from scorer.web.common.pages import Page, refusals_as_pages
from scorer.web.common.table import keepers_table, resolve_tables
from scorer.web.evening import favor as favor_page
from scorer.web.evening.forms import ClosingForm
from scorer.web.evening.present import EventPreview, SeatPending, closing_choices, event_preview, pending_by_seat

bp = Blueprint("evening", __name__)
refusals_as_pages(bp)
resolve_tables(bp)  # the table of the link, once per request: g.table

# ------------------------------------------------------------------- helpers


def _tresillo_table() -> Any:
    """The keeper's open Tresillo table, or a redirect-worthy refusal (flashed)."""
    table = keepers_table()
    if not game_of(table.ruleset).evening:
        flash(_("Esta partida no admite ajustes ni cambios de jugador: sus reglas no los tienen."), "error")
        return None
    if table.closed:
        flash(_("La partida está cerrada: ya no se puede cambiar."), "error")
        return None
    return table


def _event_table(token: str, n: int | None) -> Any:
    """The table of the ajuste and cambio screens, or where to go instead: a new entry sent twice
    answers as the first time; a table of another game, or a closed one, goes back to its page."""
    if request.method == "POST" and n is None:
        replay = _already_saved(keepers_table())
        if replay is not None:
            return replay
    table = _tresillo_table()
    if table is None:
        return redirect(url_for("tables.table", token=token))
    return table


def _posted() -> Any:
    """The form data of a POST, None for a GET (the form then shows the stored entry or nothing)."""
    return request.form if request.method == "POST" else None


def _refusal(form: EventForm, exc: store.Invalid, n: int) -> None:
    field, message = messages.explain(exc)
    if exc.hand is not None and exc.hand != n:
        form.problem(
            "general", _("Con este cambio la mano %(n)s dejaría de ser posible: %(reason)s", n=exc.hand, reason=message)
        )
    else:  # next to its control (payer, to, amount; seat, player) when the form has it
        form.problem(field if hasattr(form, field) else "general", message)


def _entry_at(table: Any, n: int | None, kind: str) -> dict[str, Any] | None:
    """The stored entry ``n`` being corrected (None for a new one); NotFound when it is not a ``kind``."""
    if n is None:
        return None
    hands = store.read(table).session_copy().get("hands") or []
    if not 1 <= n <= len(hands) or evening.entry_kind(hands[n - 1]) != kind:
        raise store.NotFound(f"hand {n}: no such {kind}")
    return dict(hands[n - 1])


def _fresh(form: EventForm, table: Any, n: int | None) -> None:
    """The hidden fields of the form a GET shows: a new request id and, correcting entry ``n``, its revision."""
    form.request_id.data = uuid.uuid4().hex
    if n is not None:
        form.revision.data = str(store.hand_revision(table, n))


def _saved(token: str, n: int | None, said: str) -> BaseResponse:
    """After an entry is saved: say so, and back to the table (a new entry) or to entry ``n``'s page (corrected)."""
    flash(said)
    return redirect(url_for("tables.table", token=token) if n is None else url_for("tables.hand", token=token, n=n))


def _store(table: Any, hand: dict[str, Any], n: int | None, form: EventForm) -> int:
    """Add the entry (or replace entry ``n`` at the revision the form was shown with); its number."""
    if n is None:
        number, _entry = store.add_hand(table, hand, request_id=form.request_id.data or None)
        return number
    revision = int(form.revision.data) if (form.revision.data or "").isdigit() else None
    store.replace_hand(table, n, hand, revision=revision)
    return n


def _save(table: Any, hand: dict[str, Any], n: int | None, form: EventForm) -> int | None:
    """Add (or replace entry ``n``); its number, or None with the engine's refusal next to the form."""
    try:
        return _store(table, hand, n, form)
    except store.Invalid as exc:
        _refusal(form, exc, n or 0)
    except store.Conflict:
        form.problem(
            "general", _("Alguien ha cambiado la partida mientras tanto: vuelve a abrirla y repite el cambio.")
        )
    return None


def _preview_of(table: Any, hand: dict[str, Any], n: int | None, form: AjusteForm | CambioForm) -> EventPreview | None:
    session, ledger = store.read(table).session_copy(), store.read(table).ledger_copy()
    number = len(ledger.get("hands") or []) + 1 if n is None else n
    try:
        entry = store.preview_hand(table, hand) if n is None else store.preview_replace(table, n, hand)
    except store.Invalid as exc:
        _refusal(form, exc, number)
        return None
    return event_preview(session, ledger, hand, entry, number)


def _already_saved(table: Any) -> BaseResponse | None:
    saved = store.hand_for_request(table, request.form.get("request_id"))
    if saved is None:
        return None
    flash(_("La anotación %(n)s ya estaba guardada.", n=saved))
    return redirect(url_for("tables.hand", token=table.edit_token, n=saved))


def _page(
    template: str,
    table: Any,
    token: str,
    form: AjusteForm | CambioForm,
    n: int | None,
    preview: EventPreview | None,
    status: int,
    hand: Mapping[str, Any] | None = None,
    pending: list[SeatPending] | None = None,
) -> tuple[str, int]:
    page = render_template(
        template, table=table, token=token, form=form, n=n, preview=preview, hand=hand, pending=pending or []
    )
    return page, status


def _save_and_say(
    template: str, table: Any, token: str, form: AjusteForm | CambioForm, n: int | None, hand: dict[str, Any]
) -> Page:
    """Save the entry read from the form: back to where it belongs, saying what was saved; or the form
    again with the engine's refusal."""
    number = _save(table, hand, n, form)
    if number is None:
        return _page(template, table, token, form, n, None, 400)
    return _saved(token, n, _said(hand, form.seating, number, corrected=n is not None))


def _said(hand: Mapping[str, Any], seating: Mapping[int, str], number: int, *, corrected: bool) -> str:
    """What the flash says after an ajuste or a change of player is saved (or corrected)."""
    if "ajuste" in hand:
        what = evening.ajuste_text(hand["ajuste"], seating)
        if corrected:
            return _("Ajuste %(n)s corregido: %(what)s.", n=number, what=what)
        return _("Ajuste anotado (%(n)s): %(what)s.", n=number, what=what)
    what = evening.sienta_text(hand["sienta"], seating)
    if corrected:
        return _("Cambio %(n)s corregido: %(what)s.", n=number, what=what)
    return _("Cambio de jugador anotado (%(n)s): %(what)s.", n=number, what=what)


# --------------------------------------------------------------------- ajuste


@bp.route("/t/<token>/ajuste", methods=["GET", "POST"])
@bp.route("/t/<token>/ajuste/<int:n>", methods=["GET", "POST"])
def ajuste(token: str, n: int | None = None) -> Page:
    """R32: a payment the table agrees outside the hands (renuncio, mal reparto, corrección)."""
    table = _event_table(token, n)
    if isinstance(table, BaseResponse):
        return table
    stored = _entry_at(table, n, "ajuste")  # first: an entry that is not an ajuste is refused before anything else
    session, ledger = store.read(table).session_copy(), store.read(table).ledger_copy()
    form = ajuste_form(seating_for(session, ledger, n), hand=stored, formdata=_posted())
    if request.method == "GET":
        _fresh(form, table, n)
        return _page("ajuste.html", table, token, form, n, None, 200)
    return _posted_ajuste(table, token, form, n)


def _posted_ajuste(table: Any, token: str, form: AjusteForm, n: int | None) -> Page:
    """The ajuste sent: its problems next to the form, its payments previewed, or saved."""
    hand = read_ajuste(form) if form.validate() else None
    if hand is None:
        return _page("ajuste.html", table, token, form, n, None, 400)
    if form.preview.data:
        preview = _preview_of(table, hand, n, form)
        return _page("ajuste.html", table, token, form, n, preview, 200 if preview else 400)
    return _save_and_say("ajuste.html", table, token, form, n, hand)


# ----------------------------------------------------------- cambio de jugador


@bp.route("/t/<token>/cambio", methods=["GET", "POST"])
@bp.route("/t/<token>/cambio/<int:n>", methods=["GET", "POST"])
def cambio(token: str, n: int | None = None) -> Page:
    """R33: someone takes a seat from the next hand; the leaver's pending puestas are listed before confirming."""
    table = _event_table(token, n)
    if isinstance(table, BaseResponse):
        return table
    form = cambio_form_for(table, n, hand=_entry_at(table, n, "sienta"), formdata=_posted())
    if request.method == "GET":
        _fresh(form, table, n)
        kept = pending_by_seat(table, form.seating) if n is None else []  # offline: shown before confirming
        return _page("cambio.html", table, token, form, n, None, 200, pending=kept)
    return _posted_cambio(table, token, form, n)


def _posted_cambio(table: Any, token: str, form: CambioForm, n: int | None) -> Page:
    """The change sent: its problems next to the form, what it does (to confirm), or saved once confirmed
    for the very seat and person reviewed."""
    hand = read_cambio(form) if form.validate() else None
    if hand is None:
        return _page("cambio.html", table, token, form, n, None, 400)
    reviewed = f"{hand['sienta']['seat']}|{hand['sienta']['player']}"
    if not form.confirm.data or request.form.get("reviewed") != reviewed:
        # first step (or the choice changed since): show what the change does, then confirm
        preview = _preview_of(table, hand, n, form)
        return _page("cambio.html", table, token, form, n, preview, 200 if preview else 400, hand=hand)
    return _save_and_say("cambio.html", table, token, form, n, hand)


# -------------------------------------------------------------------- closing


def _not_closable(token: str, table: Any) -> BaseResponse | None:
    """Back to the table page, saying why, when it is closed already or its game ends by itself."""
    if table.closed:
        flash(_("La partida ya estaba cerrada."))
        return redirect(url_for("tables.table", token=token))
    if not game_of(table.ruleset).closings:  # B4: the game ends by itself at the target
        flash(_("El juego de bandos no se cierra: termina solo cuando un equipo llega a la meta."), "error")
        return redirect(url_for("tables.table", token=token))
    return None


@bp.route("/t/<token>/cerrar", methods=["GET", "POST"])
def close(token: str) -> Page:
    table = keepers_table()
    refused = _not_closable(token, table)
    if refused is not None:
        return refused
    if len(game_of(table.ruleset).closings) > 1:  # R30: devolver or repartir, each previewed
        return closing(token, table)
    form = ConfirmForm()
    if request.method != "POST":  # GET and HEAD
        return _confirm_close(token, table, form)
    if not form.validate_on_submit():
        abort(400)
    return _close_table(token, table, game_of(table.ruleset).closed_words)


def _confirm_close(token: str, table: Any, form: ConfirmForm) -> str:
    """The one closing of the game, to confirm, with the pots it leaves."""
    ledger = store.read(table).ledger
    session = store.read(table).session
    plato = tresillo_views.plato_view(
        ledger.get("plato"), ledger.get("cartulina", []), present.seat_names(table.players)
    )
    return render_template(
        "confirm.html",
        table=table,
        token=token,
        form=form,
        what="close",
        plato=plato,
        game=present.game_view(session, ledger),
    )


def _close_table(token: str, table: Any, said: str, how: str | None = None, request_id: str | None = None) -> Page:
    """Close the table (``how``: R30's choice, for a game with several); back to its page saying so or why not."""
    try:
        if how is None:
            store.close_table(table)
        else:
            store.close_table(table, how, request_id=request_id)
    except store.Invalid as exc:
        flash(_("No se puede cerrar: %(reason)s", reason=messages.message(exc)), "error")
        return redirect(url_for("tables.table", token=token))
    flash(said)
    return redirect(url_for("tables.table", token=token))


def closing(token: str, table: Any) -> Page:
    """R30 for Tresillo: devolver or repartir, each previewed by the engine person by person."""
    form = ClosingForm()
    if request.method != "POST":
        return _closing_choices(token, table, form)
    if not form.validate_on_submit():
        abort(400)
    how = form.how.data or ""
    if how not in store.CLOSE_HOWS:
        flash(_("Elige cómo se cierra: devolver o repartir el plato."), "error")
        return redirect(url_for("evening.close", token=token))
    # the table page itself says "Partida cerrada" and how
    return _close_table(token, table, _("Cierre guardado."), how, form.request_id.data or None)


def _closing_choices(token: str, table: Any, form: ClosingForm) -> Page:
    """The two closings previewed by the engine, to choose one."""
    session, ledger = store.read(table).session_copy(), store.read(table).ledger_copy()
    try:
        previews = store.closing_previews(table)
    except store.Invalid as exc:
        flash(_("No se puede cerrar: %(reason)s", reason=messages.message(exc)), "error")
        return redirect(url_for("tables.table", token=token))
    seating = evening.seating_now(session, ledger)
    return render_template(
        "closing.html",
        table=table,
        token=token,
        form=form,
        request_id=uuid.uuid4().hex,
        plato=tresillo_views.plato_view(ledger.get("plato"), ledger.get("cartulina") or [], seating),
        choices=closing_choices(session, ledger, previews),
        show_money=present.tanto_of(session)[0] is not None,
    )


@bp.post("/t/<token>/fin")
def ending(token: str) -> BaseResponse:
    """ "Jugar hasta que se gane el plato": mark the evening as ending, or take the mark back."""
    table = keepers_table()
    form = EndingForm()
    if not form.validate_on_submit():
        abort(400)
    if not game_of(table.ruleset).evening:
        flash(_("Solo en el Tresillo se juega hasta que se gane el plato."), "error")
        return redirect(url_for("tables.table", token=token))
    if table.closed:
        flash(_("La partida ya está cerrada."), "error")
        return redirect(url_for("tables.table", token=token))
    on = form.ending.data == "1"
    store.set_ending(table, on)
    if on:
        flash(_("Última vuelta: se juega hasta que alguien se lleve el plato; entonces se ofrece cerrar."))
    else:
        flash(_("Se sigue jugando con normalidad."))
    return redirect(url_for("tables.table", token=token))


# ------------------------------------------------------- cambio de palo de favor


def _favor_refused(token: str) -> BaseResponse | None:
    """A POST of the favour form that is not saved again: sent twice (answered as the first time), or
    the table closed meanwhile."""
    table = keepers_table()
    replay = _already_saved(table)
    if replay is not None:
        return replay
    if table.closed:
        flash(favor_closed_words(), "error")
        return redirect(url_for("tables.table", token=token))
    return None


@bp.route("/t/<token>/favor", methods=["GET", "POST"])
def favor(token: str) -> Page:
    """R34: the table changes its palo de favor from the next hand on (form and words: evening/favor.py)."""
    refused = _favor_refused(token) if request.method == "POST" else None
    if refused is not None:
        return refused
    table = _tresillo_table()
    if table is None:
        return redirect(url_for("tables.table", token=token))
    current = favor_in_force(table)
    form = favor_form(current, formdata=_posted())
    if request.method == "GET":
        form.request_id.data = uuid.uuid4().hex
        return favor_page.page(table, token, form, None, 200)
    return _posted_favor(table, token, form, current)


def _posted_favor(table: Any, token: str, form: FavorForm, current: str | None) -> Page:
    """The change of favour suit sent: its problem next to the suit, previewed, or saved."""
    hand = read_favor(form) if form.validate() else None
    if hand is None:
        return favor_page.page(table, token, form, None, 400)
    if form.preview.data:
        return _favor_preview(table, token, form, current, hand)
    number = _save(table, hand, None, form)
    if number is None:
        return favor_page.page(table, token, form, None, 400)
    what = evening.favor_text(hand["favor"])
    return _saved(token, None, _("Cambio de palo de favor anotado (%(n)s): %(what)s.", n=number, what=what))


def _favor_preview(table: Any, token: str, form: FavorForm, current: str | None, hand: dict[str, Any]) -> Page:
    """From which entry on the new suit is favour, once the engine takes the change (nothing saved)."""
    try:
        store.preview_hand(table, hand)
    except store.Invalid as exc:
        _refusal(form, exc, 0)
        return favor_page.page(table, token, form, None, 400)
    first = len(store.read(table).ledger_copy().get("hands") or []) + 2  # the entry after this one
    return favor_page.page(table, token, form, favor_page.FavorPreview(current, hand["favor"], first), 200)


favor_page.register(bp)
