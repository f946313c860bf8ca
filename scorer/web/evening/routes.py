"""Pages of the events of an evening (Tresillo, blueprint ``evening``): ajuste (R32), cambio de jugador (R33),
the closing with its two choices (R30) and "jugar hasta que se gane el plato".

Every amount shown before confirming is the engine's answer to the entry previewed
(``services.preview_hand`` / ``preview_replace`` / ``closing_previews``): nothing is computed here.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers import Response as BaseResponse

from scorer import evening
from scorer.games import game_of
from scorer.games import views as present
from scorer.web import messages, services
from scorer.web.evening import favor as favor_page
from scorer.web.evening import services as evening_services
from scorer.web.evening.forms import (
    AjusteForm,
    CambioForm,
    ClosingForm,
    EndingForm,
    EventForm,
    ajuste_form,
    cambio_form,
    read_ajuste,
    read_cambio,
)
from scorer.web.forms import ConfirmForm
from scorer.web.pages import Page, refusals_as_pages
from scorer.web.pena import services as pena_services

bp = Blueprint("evening", __name__)
refusals_as_pages(bp)

# ------------------------------------------------------------- view-models


@dataclass(frozen=True)
class PersonLine:
    """A person's balance (R33: money belongs to people); ``seat`` None once they left the table."""

    name: str
    seat: int | None
    tantos: int
    text: str
    money: str | None
    change: int = 0
    change_text: str = ""


def people_lines(
    people: Mapping[str, int],
    seating: Mapping[int, str],
    tanto_value: Decimal | None,
    currency: str,
    before: Mapping[str, int] | None = None,
) -> list[PersonLine]:
    """Balances by person, those seated first in seat order, then those who left."""
    seat_of = {name: seat for seat, name in seating.items()}
    order = sorted(people, key=lambda name: (seat_of.get(name) is None, seat_of.get(name, 0)))
    lines = []
    for name in order:
        tantos = int(people[name])
        change = tantos - int((before or {}).get(name, 0)) if before is not None else 0
        lines.append(
            PersonLine(
                name=name,
                seat=seat_of.get(name),
                tantos=tantos,
                text=present.signed(tantos),
                money=present.money(tantos, tanto_value, currency),
                change=change,
                change_text=present.signed(change) if change else "",
            )
        )
    return lines


def _names_list(seating: Mapping[int, str]) -> list[str]:
    return [seating[s] for s in sorted(seating)]


@dataclass(frozen=True)
class EventPreview:
    """What an ajuste or a change of player does, as the engine settles it (nothing saved yet)."""

    summary: str
    transfers: list[present.TransferLine]
    people: list[PersonLine]
    cancelled: list[evening.Cancelled]
    plato: present.PlatoView


def _preview(
    session: Mapping[str, Any], ledger: Mapping[str, Any], hand: Mapping[str, Any], entry: Mapping[str, Any], n: int
) -> EventPreview:
    """The preview of entry ``n`` (1-based; the next one or one being corrected)."""
    players = session.get("players") or []
    hands = [*list(session.get("hands") or [])[: n - 1], hand]
    entries = [*list(ledger.get("hands") or [])[: n - 1], entry]
    seats = evening.seatings(players, entries, hands)
    before_seating, after_seating = seats[-2], seats[-1]
    series = evening.people_series(players, entries, hands)
    before_people = series[-2] if len(series) > 1 else {name: 0 for name in series[-1]}
    before_open = list(entries[-2].get("cartulina") or []) if len(entries) > 1 else []
    tanto_value, currency = present.tanto_of(session)
    names = _names_list(before_seating)
    return EventPreview(
        summary=present.summary(entry, before_open, names),
        transfers=present.transfer_lines(entry, names),
        people=people_lines(series[-1], after_seating, tanto_value, currency, before_people),
        cancelled=evening.cancelled_puestas(before_open, entry, before_seating),
        plato=present.plato_view(entry.get("plato"), entry.get("cartulina") or [], after_seating),
    )


@dataclass(frozen=True)
class ClosingChoice:
    """One closing (R30) previewed: what each person seated gets from the plato, and their final balance."""

    how: str
    title: str
    words: str
    gets: list[tuple[str, int]]
    people: list[PersonLine]
    cancelled: list[evening.Cancelled]


CLOSING_TITLES = {
    "devolver": (
        _l("Devolver el plato"),
        _l("Lo que hay en el plato vuelve a quien lo puso desde la última vez que se ganó."),
    ),
    "repartir": (
        _l("Repartir el plato"),
        _l("El plato se reparte a partes iguales; lo que no se puede dividir va, de uno en uno, a los asientos 1, 2…"),
    ),
}


def closing_choices(
    session: Mapping[str, Any], ledger: Mapping[str, Any], previews: Mapping[str, Mapping[str, Any]]
) -> list[ClosingChoice]:
    players = session.get("players") or []
    seating = evening.seating_now(session, ledger)
    before_open = list(ledger.get("cartulina") or [])
    open_now = [e for e in before_open if e.get("state") in ("pendiente", "en_plato")]
    tanto_value, currency = present.tanto_of(session)
    choices = []
    for how, entry in previews.items():
        hands = [*list(session.get("hands") or []), {"close": how}]
        series = evening.people_series(players, [*list(ledger.get("hands") or []), entry], hands)
        title, words = CLOSING_TITLES.get(how, (how, ""))
        choices.append(
            ClosingChoice(
                how=how,
                title=str(title),
                words=str(words),
                gets=list(evening.share_of_people(entry, seating).items()),
                people=people_lines(series[-1], seating, tanto_value, currency),
                cancelled=evening.cancelled_puestas(open_now, entry, seating),
            )
        )
    return choices


@dataclass(frozen=True)
class EveningState:
    """What the table page says about the end of the evening."""

    ending: bool  # the keeper said: play on until the plato is won
    ready: bool  # ending, and the plato is empty with nothing pending: the closing is offered
    can_events: bool  # the table takes ajustes and changes of player (Tresillo, open, keeper's link)
    people: list[PersonLine]
    changed: bool  # someone changed seat: balances by person differ from the seats'
    close_how: str | None  # R30: how the table was closed (devolver, repartir), None while open


def evening_state(table: Any, session: Mapping[str, Any], ledger: Mapping[str, Any], can_edit: bool) -> EveningState:
    plato = ledger.get("plato") or {}
    open_entries = [e for e in ledger.get("cartulina") or [] if e.get("state") in ("pendiente", "en_plato")]
    empty = int(plato.get("amount", 0) or 0) == 0 and not open_entries
    tanto_value, currency = present.tanto_of(session)
    tresillo = game_of(table.ruleset).evening
    people = evening.people_balances(session, ledger) if tresillo else {}
    return EveningState(
        ending=table.ending and tresillo,
        ready=table.ending and tresillo and empty and played_since_ending(table),
        can_events=tresillo and can_edit and not table.closed,
        people=people_lines(people, evening.seating_now(session, ledger), tanto_value, currency) if tresillo else [],
        changed=tresillo and evening.has_changes(ledger),
        close_how=_close_how(session) if table.closed else None,
    )


def played_since_ending(table: Any) -> bool:
    """Whether an entry was recorded after "última vuelta" was marked: an empty plato at the mark itself
    was not won yet, play goes on until someone takes it."""
    mark = table.ending_at
    return mark is not None and any(h.deleted_at is None and h.created_at >= mark for h in table.hands)


def _close_how(session: Mapping[str, Any]) -> str | None:
    hands = session.get("hands") or []
    last = hands[-1] if hands else {}
    return str(last["close"]) if isinstance(last, Mapping) and last.get("close") else None


# ------------------------------------------------------------------- helpers


def _tresillo_table(token: str) -> Any:
    """The keeper's open Tresillo table, or a redirect-worthy refusal (flashed)."""
    table = services.require_edit(token)
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
        replay = _already_saved(services.require_edit(token))
        if replay is not None:
            return replay
    table = _tresillo_table(token)
    if table is None:
        return redirect(url_for("tables.table", token=token))
    return table


def _refusal(form: EventForm, exc: services.Invalid, n: int) -> None:
    field, message = messages.explain(exc)
    if exc.hand is not None and exc.hand != n:
        form.problem(
            "general", _("Con este cambio la mano %(n)s dejaría de ser posible: %(reason)s", n=exc.hand, reason=message)
        )
    else:  # next to its control (payer, to, amount; seat, player) when the form has it
        form.problem(field if hasattr(form, field) else "general", message)


def _entry_at(table: Any, n: int, kind: str) -> dict[str, Any]:
    hands = services.session_of(table).get("hands") or []
    if not 1 <= n <= len(hands) or evening.entry_kind(hands[n - 1]) != kind:
        raise services.NotFound(f"hand {n}: no such {kind}")
    return dict(hands[n - 1])


def seating_for(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int | None) -> dict[int, str]:
    """The seating an entry is entered with: now, or the one in force at entry ``n`` (a correction)."""
    seats = evening.seatings(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])
    return seats[-1] if n is None else seats[n - 1]


def _fresh(form: EventForm, table: Any, n: int | None) -> None:
    """The hidden fields of the form a GET shows: a new request id and, correcting entry ``n``, its revision."""
    form.request_id.data = uuid.uuid4().hex
    if n is not None:
        form.revision.data = str(services.hand_revision(table, n))


def _saved(token: str, n: int | None, said: str) -> BaseResponse:
    """After an entry is saved: say so, and back to the table (a new entry) or to entry ``n``'s page (corrected)."""
    flash(said)
    return redirect(url_for("tables.table", token=token) if n is None else url_for("tables.hand", token=token, n=n))


def _save(table: Any, hand: dict[str, Any], n: int | None, form: EventForm) -> int | None:
    """Add (or replace entry ``n``); its number, or None with the engine's refusal next to the form."""
    try:
        if n is None:
            number, _entry = services.add_hand(table, hand, request_id=form.request_id.data or None)
            return number
        revision = int(form.revision.data) if (form.revision.data or "").isdigit() else None
        services.replace_hand(table, n, hand, revision=revision)
        return n
    except services.Invalid as exc:
        _refusal(form, exc, n or 0)
    except services.Conflict:
        form.problem(
            "general", _("Alguien ha cambiado la partida mientras tanto: vuelve a abrirla y repite el cambio.")
        )
    return None


def _preview_of(table: Any, hand: dict[str, Any], n: int | None, form: AjusteForm | CambioForm) -> EventPreview | None:
    session, ledger = services.session_of(table), services.ledger_of(table)
    number = len(ledger.get("hands") or []) + 1 if n is None else n
    try:
        entry = services.preview_hand(table, hand) if n is None else services.preview_replace(table, n, hand)
    except services.Invalid as exc:
        _refusal(form, exc, number)
        return None
    return _preview(session, ledger, hand, entry, number)


def _already_saved(table: Any) -> BaseResponse | None:
    saved = services.hand_for_request(table, request.form.get("request_id"))
    if saved is None:
        return None
    flash(_("La anotación %(n)s ya estaba guardada.", n=saved))
    return redirect(url_for("tables.hand", token=table.edit_token, n=saved))


# --------------------------------------------------------------------- ajuste


@bp.route("/t/<token>/ajuste", methods=["GET", "POST"])
@bp.route("/t/<token>/ajuste/<int:n>", methods=["GET", "POST"])
def ajuste(token: str, n: int | None = None) -> Page:
    """R32: a payment the table agrees outside the hands (renuncio, mal reparto, corrección)."""
    table = _event_table(token, n)
    if isinstance(table, BaseResponse):
        return table
    session, ledger = services.session_of(table), services.ledger_of(table)
    stored = _entry_at(table, n, "ajuste") if n is not None else None
    form = ajuste_form(
        seating_for(session, ledger, n), hand=stored, formdata=request.form if request.method == "POST" else None
    )
    if request.method == "GET":
        _fresh(form, table, n)
        return _page("ajuste.html", table, token, form, n, None, 200)
    hand = read_ajuste(form) if form.validate() else None
    if hand is None:
        return _page("ajuste.html", table, token, form, n, None, 400)
    if form.preview.data:
        preview = _preview_of(table, hand, n, form)
        return _page("ajuste.html", table, token, form, n, preview, 200 if preview else 400)
    number = _save(table, hand, n, form)
    if number is None:
        return _page("ajuste.html", table, token, form, n, None, 400)
    what = evening.ajuste_text(hand["ajuste"], form.seating)
    if n is None:
        return _saved(token, n, _("Ajuste anotado (%(n)s): %(what)s.", n=number, what=what))
    return _saved(token, n, _("Ajuste %(n)s corregido: %(what)s.", n=number, what=what))


# ----------------------------------------------------------- cambio de jugador


@bp.route("/t/<token>/cambio", methods=["GET", "POST"])
@bp.route("/t/<token>/cambio/<int:n>", methods=["GET", "POST"])
def cambio(token: str, n: int | None = None) -> Page:
    """R33: someone takes a seat from the next hand; the leaver's pending puestas are listed before confirming."""
    table = _event_table(token, n)
    if isinstance(table, BaseResponse):
        return table
    stored = _entry_at(table, n, "sienta") if n is not None else None
    form = cambio_form_for(table, n, hand=stored, formdata=request.form if request.method == "POST" else None)
    if request.method == "GET":
        _fresh(form, table, n)
        kept = pending_by_seat(table, form.seating) if n is None else []  # offline: shown before confirming
        return _page("cambio.html", table, token, form, n, None, 200, pending=kept)
    hand = read_cambio(form) if form.validate() else None
    if hand is None:
        return _page("cambio.html", table, token, form, n, None, 400)
    reviewed = f"{hand['sienta']['seat']}|{hand['sienta']['player']}"
    if not form.confirm.data or request.form.get("reviewed") != reviewed:
        # first step (or the choice changed since): show what the change does, then confirm
        preview = _preview_of(table, hand, n, form)
        return _page("cambio.html", table, token, form, n, preview, 200 if preview else 400, hand=hand)
    number = _save(table, hand, n, form)
    if number is None:
        return _page("cambio.html", table, token, form, n, None, 400)
    what = evening.sienta_text(hand["sienta"], form.seating)
    if n is None:
        return _saved(token, n, _("Cambio de jugador anotado (%(n)s): %(what)s.", n=number, what=what))
    return _saved(token, n, _("Cambio %(n)s corregido: %(what)s.", n=number, what=what))


def cambio_form_for(table: Any, n: int | None, **kwargs: Any) -> CambioForm:
    """The cambio form for the seating now (or at entry ``n``), offering the names already used at the
    table and its peña's people; the page's POST and the offline queue (api/entries.py) read it."""
    session, ledger = services.session_of(table), services.ledger_of(table)
    used = evening.names_used(session, ledger)
    used += [name for name in pena_services.roster_for_table(table) if name not in used]
    return cambio_form(seating_for(session, ledger, n), used, **kwargs)


@dataclass(frozen=True)
class SeatPending:
    """The pending puestas a change at ``seat`` would cancel (R33), as the engine settles it now."""

    seat: int
    name: str
    cancelled: list[evening.Cancelled]


def pending_by_seat(table: Any, seating: Mapping[int, str]) -> list[SeatPending]:
    """For every seat, what a change of player there would cancel, by the engine (a preview per seat,
    nothing saved). The cambio page carries it so that, offline, the keeper sees it before confirming
    (what the server knew when the page was made."""
    before = list(services.ledger_of(table).get("cartulina") or [])
    if not any(e.get("state") == "pendiente" for e in before):
        return [SeatPending(seat, seating[seat], []) for seat in sorted(seating)]
    taken = {name.casefold() for name in evening.names_used(services.session_of(table), services.ledger_of(table))}
    stranger = next(f"Nadie {k}" for k in range(len(taken) + 1) if f"nadie {k}" not in taken)
    out = []
    for seat in sorted(seating):
        try:
            entry = services.preview_hand(table, {"sienta": {"seat": seat, "player": stranger}})
        except services.Invalid:
            cancelled: list[evening.Cancelled] = []
        else:
            cancelled = evening.cancelled_puestas(before, entry, seating)
        out.append(SeatPending(seat, seating[seat], cancelled))
    return out


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


# -------------------------------------------------------------------- closing


@bp.route("/t/<token>/cerrar", methods=["GET", "POST"])
def close(token: str) -> Page:
    table = services.require_edit(token)
    form = ConfirmForm()
    if table.closed:
        flash(_("La partida ya estaba cerrada."))
        return redirect(url_for("tables.table", token=token))
    game = game_of(table.ruleset)
    if not game.closings:  # B4: the game ends by itself at the target
        flash(_("El juego de bandos no se cierra: termina solo cuando un equipo llega a la meta."), "error")
        return redirect(url_for("tables.table", token=token))
    if len(game.closings) > 1:  # R30: devolver or repartir, each previewed
        return closing(token, table)
    if request.method != "POST":  # GET and HEAD
        ledger = services.ledger_view(table)
        session = services.session_view(table)
        plato = present.plato_view(ledger.get("plato"), ledger.get("cartulina", []), present.seat_names(table.players))
        return render_template(
            "confirm.html",
            table=table,
            token=token,
            form=form,
            what="close",
            plato=plato,
            game=present.game_view(session, ledger),
        )
    if not form.validate_on_submit():
        abort(400)
    try:
        services.close_table(table)
    except services.Invalid as exc:
        flash(_("No se puede cerrar: %(reason)s", reason=messages.message(exc)), "error")
        return redirect(url_for("tables.table", token=token))
    flash(game.closed_words)
    return redirect(url_for("tables.table", token=token))


def closing(token: str, table: Any) -> Page:
    """R30 for Tresillo: devolver or repartir, each previewed by the engine person by person."""
    form = ClosingForm()
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        how = form.how.data or ""
        if how not in evening_services.CLOSE_HOWS:
            flash(_("Elige cómo se cierra: devolver o repartir el plato."), "error")
            return redirect(url_for("evening.close", token=token))
        try:
            services.close_table(table, how, request_id=form.request_id.data or None)
        except services.Invalid as exc:
            flash(_("No se puede cerrar: %(reason)s", reason=messages.message(exc)), "error")
            return redirect(url_for("tables.table", token=token))
        flash(_("Cierre guardado."))  # the table page itself says "Partida cerrada" and how
        return redirect(url_for("tables.table", token=token))
    session, ledger = services.session_of(table), services.ledger_of(table)
    try:
        previews = evening_services.closing_previews(table)
    except services.Invalid as exc:
        flash(_("No se puede cerrar: %(reason)s", reason=messages.message(exc)), "error")
        return redirect(url_for("tables.table", token=token))
    seating = evening.seating_now(session, ledger)
    plato = present.plato_view(ledger.get("plato"), ledger.get("cartulina") or [], seating)
    request_id = uuid.uuid4().hex
    return render_template(
        "closing.html",
        table=table,
        token=token,
        form=form,
        request_id=request_id,
        plato=plato,
        choices=closing_choices(session, ledger, previews),
        show_money=present.tanto_of(session)[0] is not None,
    )


@bp.post("/t/<token>/fin")
def ending(token: str) -> BaseResponse:
    """ "Jugar hasta que se gane el plato": mark the evening as ending, or take the mark back."""
    table = services.require_edit(token)
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
    evening_services.set_ending(table, on)
    if on:
        flash(_("Última vuelta: se juega hasta que alguien se lleve el plato; entonces se ofrece cerrar."))
    else:
        flash(_("Se sigue jugando con normalidad."))
    return redirect(url_for("tables.table", token=token))


def names_at(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> list[str]:
    """The names seated, in seat order, for entry ``n`` (1-based; the next one or one already settled)."""
    return _names_list(seating_for(session, ledger, n if n <= len(ledger.get("hands") or []) else None))


# ------------------------------------------------------- cambio de palo de favor


@bp.route("/t/<token>/favor", methods=["GET", "POST"])
def favor(token: str) -> Page:
    """R34: the table changes its palo de favor from the next hand on (form and words: evening/favor.py)."""
    if request.method == "POST":
        replay = _already_saved(services.require_edit(token))
        if replay is not None:
            return replay
        if services.require_edit(token).closed:
            flash(favor_page.closed_words(), "error")
            return redirect(url_for("tables.table", token=token))
    table = _tresillo_table(token)
    if table is None:
        return redirect(url_for("tables.table", token=token))
    current = favor_page.favor_in_force(table)
    form = favor_page.favor_form(current, formdata=request.form if request.method == "POST" else None)
    if request.method == "GET":
        form.request_id.data = uuid.uuid4().hex
        return favor_page.page(table, token, form, None, 200)
    hand = favor_page.read_favor(form) if form.validate() else None
    if hand is None:
        return favor_page.page(table, token, form, None, 400)
    if form.preview.data:
        try:
            services.preview_hand(table, hand)
        except services.Invalid as exc:
            _refusal(form, exc, 0)
            return favor_page.page(table, token, form, None, 400)
        first = len(services.ledger_of(table).get("hands") or []) + 2  # the entry after this one
        return favor_page.page(table, token, form, favor_page.FavorPreview(current, hand["favor"], first), 200)
    number = _save(table, hand, None, form)
    if number is None:
        return favor_page.page(table, token, form, None, 400)
    what = evening.favor_text(hand["favor"])
    return _saved(token, None, _("Cambio de palo de favor anotado (%(n)s): %(what)s.", n=number, what=what))


favor_page.register(bp)
