"""The hands of the table (blueprint ``tables``): a new hand, its live payments, "todos pasan" and
its undo, the list of hands, one hand, its correction, its deletion and restoration.

Parse the form, call a service, flash, redirect (POST/redirect/GET). The table of the link is
resolved once per request (scorer/web/common/table.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorer import store, words
from scorer.games import game_of, pots, tresillo_views
from scorer.games import views as present
from scorer.games.fields import HandFormBase
from scorer.web.common import messages
from scorer.web.common.forms import ConfirmForm, PassForm, read_hand
from scorer.web.common.hand_form import hand_form
from scorer.web.common.pages import Page
from scorer.web.common.table import is_keeper, keepers_table, linked_table
from scorer.web.tables import present as table_present
from scorer.web.tables.forms import (
    attach,
    hand_page,
    hand_preview,
    live_json,
    live_problem,
    preselect,
    stale_form,
    summary_of,
)
from scorer.web.tables.routes import bp


@dataclass(frozen=True)
class Deal:
    """A hand being entered or corrected: its table and link, the state it is judged against, its number."""

    table: Any
    token: str
    session: dict[str, Any]
    ledger: dict[str, Any]
    n: int

    def page(self, form: HandFormBase, status: int, preview: Any = None, *, editing: bool = False) -> tuple[str, int]:
        return hand_page(self.table, self.token, form, self.n if editing else None, preview, status)

    def back(self, endpoint: str = "tables.table", **args: Any) -> BaseResponse:
        return redirect(url_for(endpoint, token=self.token, **args))


def _table_page(token: str, message: str, category: str = "message") -> BaseResponse:
    flash(message, category)
    return redirect(url_for("tables.table", token=token))


# ------------------------------------------------------------------ new hand


def _no_new_hand(table: Any, token: str, posted: bool) -> BaseResponse | None:
    """Why no new hand is entered now: already saved (a second tap of Guardar), a closed table, a game over."""
    if posted:  # a second tap of Guardar after the first was saved: the form no longer fits (the deal moved on)
        saved = store.hand_for_request(table, request.form.get("request_id"))
        if saved is not None:
            return _table_page(token, _("La mano %(n)s ya estaba anotada.", n=saved))
    if table.closed:
        return _table_page(token, _("La partida está cerrada: no se anotan más manos."), "error")
    ledger = store.read(table).ledger
    if ledger.get("over") and not posted:  # Ombre O6, bandos B4: the game ended by itself
        return _table_page(token, game_of(table.ruleset).over_words(ledger), "error")
    return None


@bp.route("/t/<token>/mano", methods=["GET", "POST"])
def new_hand(token: str) -> Page:
    table = keepers_table()
    posted = request.method == "POST"
    refused = _no_new_hand(table, token, posted)
    if refused is not None:
        return refused
    session, ledger = store.read(table).session, store.read(table).ledger
    deal = Deal(table, token, session, ledger, len(ledger.get("hands", [])) + 1)
    dealer = int(ledger.get("next_dealer") or 1)
    form = hand_form(
        table, dealer, formdata=request.form if posted else None, deal=deal.n, table_revision=table.revision
    )
    if not posted:  # GET and HEAD
        preselect(form, request.args.get("jugador"))
        return deal.page(form, 200)
    return _post_new_hand(deal, form)


def _post_new_hand(deal: Deal, form: HandFormBase) -> Page:
    moved = stale_form(deal.table, deal.token, form, deal.n)
    if moved is not None:
        return moved
    hand = read_hand(form) if form.validate() else None
    if hand is None:
        return deal.page(form, 400)
    if form.preview.data:
        return _show_new_hand(deal, form, hand)
    try:
        number, entry = store.add_hand(deal.table, hand, request_id=form.request_id.data or None)
    except store.Invalid as exc:
        attach(form, exc, deal.n)
        return deal.page(form, 400)
    done = hand_preview(deal.table, deal.session, deal.ledger, entry, number, hand)  # the game's own words for it
    flash(_("Mano %(n)s anotada: %(summary)s.", n=number, summary=summary_of(done)))
    return deal.back()


def _show_new_hand(deal: Deal, form: HandFormBase, hand: dict[str, Any]) -> Page:
    """Ver pagos: what the hand would do, nothing saved."""
    try:
        entry = store.preview_hand(deal.table, hand)
    except store.Invalid as exc:
        attach(form, exc, deal.n)
        return deal.page(form, 400)
    return deal.page(form, 200, hand_preview(deal.table, deal.session, deal.ledger, entry, deal.n, hand))


@bp.post("/t/<token>/mano/pagos")
def new_hand_preview(token: str) -> Response:
    """The live preview of the new-hand form (static/app.js posts the form here as the keeper taps)."""
    g.quiet_session = True
    table = keepers_table()
    session, ledger = store.read(table).session_copy(), store.read(table).ledger_copy()
    dealer = int(ledger.get("next_dealer") or 1)
    n = len(ledger.get("hands", [])) + 1
    form = hand_form(table, dealer, formdata=request.form)
    if table.closed:
        return live_problem(_("La partida está cerrada: no se anotan más manos."))
    if stale_form(table, token, form, n) is not None:
        return live_problem(_("La partida ha cambiado: vuelve a la mesa."))
    return live_json(table, form, n, lambda hand: store.preview_hand(table, hand), session, ledger)


@bp.post("/t/<token>/mano/<int:n>/pagos")
def edit_hand_preview(token: str, n: int) -> Response:
    """The live preview of the edit form."""
    g.quiet_session = True
    table = keepers_table()
    session = store.read(table).session_copy()
    stored = _stored_hand(session, n)
    form = hand_form(table, int(stored.get("dealer") or 1), n, formdata=request.form)
    ledger = store.read(table).ledger_copy()
    return live_json(table, form, n, lambda hand: store.preview_replace(table, n, hand), session, ledger)


# ------------------------------------------------------------------ todos pasan


@bp.post("/t/<token>/pasan")
def all_pass(token: str) -> BaseResponse:
    table = keepers_table()
    form = PassForm()
    if not form.validate_on_submit():
        abort(400)
    if not game_of(table.ruleset).can_pass:  # B2
        return _table_page(token, messages.render("bandos_no_pass"), "error")
    try:
        number, _entry = store.add_hand(table, {"pass": True}, request_id=form.request_id.data or None)
    except store.Invalid as exc:
        return _table_page(token, _("No se ha anotado: %(reason)s", reason=messages.message(exc)), "error")
    return _table_page(token, _("Mano %(n)s: todos pasan.", n=number), f"undo:{number}")


@bp.post("/t/<token>/pasan/<int:n>/deshacer")
def undo_pass(token: str, n: int) -> BaseResponse:
    """ "Deshacer" of a "Todos pasan" just recorded: the pass is deleted (kept in the history, restorable)."""
    table = keepers_table()
    if not ConfirmForm().validate_on_submit():
        abort(400)
    hands = store.read(table).session_copy().get("hands", [])
    if n != len(hands) or "pass" not in hands[n - 1]:
        return _table_page(token, _("No se ha deshecho nada: esa mano ya no es el último «todos pasan»."), "error")
    try:
        store.delete_hand(table, n)
    except store.Invalid as exc:
        return _table_page(token, _("No se ha deshecho: %(reason)s", reason=messages.message(exc)), "error")
    return _table_page(token, _("Deshecho: la mano %(n)s (todos pasan) se ha quitado. Queda en el historial.", n=n))


# ------------------------------------------------------------------ the list of hands

HANDS_PER_PAGE = 50
# The pages of the hand list last shown, per revision and language: the same page asked again (the
# keeper going back and forth, the other players' phones) is not built again. Read-only, shared.
_listings = store.page_cache(64)  # (token, revision, language, jugador, resultado, página) → HandList


def _page_number(text: str) -> int:
    """``?pagina=`` as a page number; 1 for anything else."""
    return int(text) if text.isascii() and text.isdigit() and 0 < int(text) < 10**9 else 1


def _listing(table: Any, player: str, result: str, number: int) -> table_present.HandList:
    """A page of the hand list, built once per revision and language of the table."""
    key = (table.edit_token, table.revision, words.language(), player, result, number)
    listing = _listings.get(key)
    if listing is None:
        session = store.read(table).session  # read only, like the entries: no copy of a long session either
        # the engine's cached entries, read only: no copy of a long ledger for a page of 50 lines
        ledger = {"hands": store.read(table).settlement.entries}
        listing = table_present.hand_list(
            session, ledger, player=player or None, result=result or None, page=number, per_page=HANDS_PER_PAGE
        )
        if store.unchanged(table):
            _listings.put(key, listing)
    return listing


@bp.get("/t/<token>/manos")
def hands(token: str) -> str:
    """Every hand of the table, newest first, a page at a time; filtered by player and by result."""
    table = linked_table()
    player = request.args.get("jugador", "")
    result = request.args.get("resultado", "")
    listing = _listing(table, player, result, _page_number(request.args.get("pagina", "1")))

    def page_url(number: int) -> str:
        args = {k: v for k, v in (("jugador", player), ("resultado", result)) if v}
        return url_for("tables.hands", token=token, pagina=number, **args)

    return render_template(
        "hands.html",
        table=table,
        token=token,
        listing=listing,
        player=player,
        result=result,
        page_url=page_url,
        players=table.players,
    )


# ------------------------------------------------------------------ one hand


def _stored_hand(session: dict[str, Any], n: int) -> dict[str, Any]:
    """Hand ``n`` as the session stores it; NotFound when there is none."""
    hands = session.get("hands", [])
    if not 1 <= n <= len(hands):
        raise store.NotFound(f"hand {n}: no such hand")
    stored: dict[str, Any] = hands[n - 1]
    return stored


@bp.get("/t/<token>/mano/<int:n>")
def hand(token: str, n: int) -> str:
    table, can_edit = linked_table(), is_keeper()
    # shared with the cache, read-only: the pages only read them (scorer/store/settled.py)
    session, ledger = store.read(table).session, store.read(table).ledger
    if not 1 <= n <= len(ledger.get("hands", [])):
        raise store.NotFound(f"hand {n}: no such hand")
    view: tresillo_views.HandView | pots.GameHandView = present.game_hand_view(session, ledger, n)
    history = store.hand_history(table, n)
    return render_template(
        "hand.html",
        game=game_of(table.ruleset),
        table=table,
        token=token,
        view=view,
        history=[table_present.history_line(e, table.players, table.meta.get("timezone")) for e in history],
        can_edit=can_edit and not table.closed,
        is_close="close" in session["hands"][n - 1],
        confirm=ConfirmForm(),
    )


# entries corrected on their own screens, not the hand form (R32 ajuste, R33 cambio de jugador)
OWN_SCREENS = (("ajuste", "evening.ajuste"), ("sienta", "evening.cambio"))


def _not_by_hand_form(table: Any, token: str, stored: dict[str, Any], n: int) -> BaseResponse | None:
    """Where an entry that the hand form does not correct goes instead (or why it is not corrected)."""
    if not table.closed:
        for key, endpoint in OWN_SCREENS:
            if key in stored:
                return redirect(url_for(endpoint, token=token, n=n))
    if "favor" in stored and not table.closed:  # R34: undone by deleting it, then entered again
        flash(_("Un cambio de palo de favor no se corrige: bórralo y anota el bueno."), "error")
        return redirect(url_for("tables.hand", token=token, n=n))
    if "close" in stored or table.closed:
        flash(_("La partida está cerrada: ya no se puede cambiar."), "error")
        return redirect(url_for("tables.hand", token=token, n=n))
    return None


@bp.route("/t/<token>/mano/<int:n>/editar", methods=["GET", "POST"])
def edit_hand(token: str, n: int) -> Page:
    table = keepers_table()
    session = store.read(table).session_copy()
    stored = _stored_hand(session, n)
    elsewhere = _not_by_hand_form(table, token, stored, n)
    if elsewhere is not None:
        return elsewhere
    dealer = int(stored.get("dealer") or 1)
    deal = Deal(table, token, session, {}, n)
    if request.method != "POST":  # GET and HEAD
        form = hand_form(table, dealer, n, hand=stored, revision=store.hand_revision(table, n))
        return deal.page(form, 200, editing=True)
    form = hand_form(table, dealer, n, formdata=request.form)
    new = read_hand(form) if form.validate() else None
    if new is None:
        return deal.page(form, 400, editing=True)
    if form.preview.data:
        return _show_correction(deal, form, new)
    return _save_correction(deal, form, new)


def _revision_of(form: HandFormBase) -> int | None:
    """The hand's revision the form was opened at (its hidden field), None when absent or malformed."""
    text = form.revision.data or ""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def _show_correction(deal: Deal, form: HandFormBase, new: dict[str, Any]) -> Page:
    """Ver pagos of a correction: what the hand would do, nothing saved."""
    try:
        entry = store.preview_replace(deal.table, deal.n, new)
    except store.Invalid as exc:
        attach(form, exc, deal.n)
        return deal.page(form, 400, editing=True)
    ledger = store.read(deal.table).ledger_copy()
    return deal.page(form, 200, hand_preview(deal.table, deal.session, ledger, entry, deal.n, new), editing=True)


def _save_correction(deal: Deal, form: HandFormBase, new: dict[str, Any]) -> Page:
    try:
        store.replace_hand(deal.table, deal.n, new, revision=_revision_of(form))
    except store.Invalid as exc:
        attach(form, exc, deal.n)
        return deal.page(form, 400, editing=True)
    except store.Conflict:
        form.problem(
            "general", _("Alguien ha cambiado esta mano mientras la editabas: vuelve a abrirla y repite el cambio.")
        )
        return deal.page(form, 409, editing=True)
    flash(_("Mano %(n)s corregida; las manos siguientes se han vuelto a calcular.", n=deal.n))
    return deal.back("tables.hand", n=deal.n)


@bp.route("/t/<token>/mano/<int:n>/borrar", methods=["GET", "POST"])
def delete_hand(token: str, n: int) -> Page:
    table = keepers_table()
    form = ConfirmForm()
    if request.method != "POST":  # GET and HEAD
        store.hand_revision(table, n)  # NotFound for a hand that does not exist
        return render_template("confirm.html", table=table, token=token, form=form, what="delete", n=n)
    if not form.validate_on_submit():
        abort(400)
    try:
        store.delete_hand(table, n)
    except store.Invalid as exc:
        message = messages.message(exc)
        flash(
            _(
                "No se puede borrar la mano %(n)s: la mano %(hand)s dejaría de ser posible. %(reason)s",
                n=n,
                hand=exc.hand,
                reason=message,
            ),
            "error",
        )
        return redirect(url_for("tables.hand", token=token, n=n))
    return _table_page(token, _("Mano %(n)s borrada. Puedes restaurarla desde la partida.", n=n))


@bp.post("/t/<token>/restaurar/<int:hand_id>")
def restore_hand(token: str, hand_id: int) -> BaseResponse:
    table = keepers_table()
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        n = store.restore_hand(table, hand_id)
    except store.Invalid as exc:
        refused = _(
            "No se puede restaurar: la mano %(hand)s dejaría de ser posible. %(reason)s",
            hand=exc.hand,
            reason=messages.message(exc),
        )
        return _table_page(token, refused, "error")
    flash(_("Mano %(n)s restaurada.", n=n))
    return redirect(url_for("tables.hand", token=token, n=n))
