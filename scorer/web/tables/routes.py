"""The table's pages (blueprint ``tables``): the home page, a new table, the table page, its hands
(new, edit, delete, restore, the live payments), import and export, the sheet's language.

Parse the form, call a service, flash, redirect (POST/redirect/GET)."""

from __future__ import annotations

import functools
import re
import uuid
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorer import words
from scorer.games import all_games, game_of, pots, shared, tresillo_views
from scorer.games import views as present
from scorer.games.fields import HandFormBase
from scorer.web import messages, services
from scorer.web.answers import service as answer_service
from scorer.web.common.evening import evening_state, names_at
from scorer.web.common.evening_forms import EndingForm
from scorer.web.common.extensions import create_limit
from scorer.web.common.i18n import LANGUAGE_NAMES
from scorer.web.common.pages import Page, refusals_as_pages
from scorer.web.common.table import is_keeper, keepers_table, linked_table, resolve_tables
from scorer.web.forms import (
    GAME_LABELS,
    RULE_HELP,
    ConfirmForm,
    ImportForm,
    NewTableForm,
    PassForm,
    game_hand_form,
    read_hand,
    session_from_form,
)
from scorer.web.pena import services as pena_services
from scorer.web.pena import tables as pena_tables
from scorer.web.tables import present as table_present
from scorer.web.tables import services as table_services
from scorer.web.tables.remember import import_text, known_names, my_tables, remember

bp = Blueprint("tables", __name__)
resolve_tables(bp)  # the table of the link, once per request: g.table
refusals_as_pages(bp)


def _table_context(token: str) -> tuple[Any, bool, dict[str, Any], dict[str, Any]]:
    table, can_edit = linked_table(), is_keeper()
    # shared with the cache, read-only: the pages only read them (scorer/web/settled.py)
    return table, can_edit, services.session_view(table), services.ledger_view(table)


@functools.lru_cache(maxsize=256)  # a table's links never change; encoding one costs ~10 ms
def _qr(url: str) -> Markup:
    """A QR code of a link as inline SVG (no script, no inline style: fits the CSP)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff")
    return Markup(svg)  # segno's own SVG; the URL is escaped by it


def _filename(table: Any, ext: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", table.name).strip("-").lower()[:40] or "partida"
    return f"{slug}.{ext}"


def _attach(form: HandFormBase, exc: services.Invalid, n: int) -> None:
    """An engine refusal as a Spanish message next to the field it concerns."""
    field, message = messages.explain(exc)
    if exc.hand is not None and exc.hand != n:
        form.problem(
            "general", _("Con este cambio la mano %(n)s dejaría de ser posible: %(reason)s", n=exc.hand, reason=message)
        )
    else:
        form.problem(field, message)


# -------------------------------------------------------------------- pages


@bp.get("/")
def home() -> str:
    return render_template(
        "home.html",
        tables=my_tables(),
        lists_all=bool(current_app.config.get("CARTULINA_HOME_LISTS_ALL")),
        games=words.GAME_SHORT_NAMES,
    )


@bp.route("/nueva", methods=["GET", "POST"])
@create_limit
def new_table() -> Page:
    form = NewTableForm(data=pena_tables.new_table_prefill())
    error = None
    if form.validate_on_submit():
        try:
            table = services.create_table(session_from_form(form))
        except services.Invalid as exc:
            error = messages.message(exc)
        else:
            remember(table)
            pena_tables.after_table_created(table)
            flash(_("Partida creada. Guarda este enlace: es el que permite anotar."))
            return redirect(url_for("tables.table", token=table.edit_token))
    status = 400 if form.is_submitted() else 200
    if error is None and form.is_submitted():
        error = form.count_error()
    form.name_seats()
    page = render_template(
        "new_table.html",
        form=form,
        error=error,
        names=sorted(set(known_names()) | set(pena_tables.pena_names()), key=str.casefold),
        help=RULE_HELP,
        games=GAME_LABELS,
        registry=all_games(),  # each game's options, seats and words (templates/games/<game>/)
        games_by_name={g.ruleset: g for g in all_games()},
        seats_help=shared("seats_help"),
        chosen=form.chosen_game(),
    )
    return page, status


@bp.get("/t/<token>")
def table(token: str) -> str:
    table, can_edit = linked_table(), is_keeper()
    view = services.derived(table, "table_view", table_present.table_view)
    game = services.derived(table, "game_view", present.game_view)
    share = None
    if can_edit:
        remember(table)
        edit_url = url_for("tables.table", token=table.edit_token, _external=True)
        view_url = url_for("tables.table", token=table.view_token, _external=True)
        share = {"edit": edit_url, "view": view_url, "edit_qr": _qr(edit_url), "view_qr": _qr(view_url)}
    pass_form = PassForm()
    pass_form.request_id.data = uuid.uuid4().hex
    return render_template(
        "table.html",
        table=table,
        token=token,
        can_edit=can_edit and not table.closed,
        is_editor=can_edit,
        view=view,
        game=game,
        meta=table.meta,
        share=share,
        pass_form=pass_form,
        # the deleted hands change only with the table's revision (a delete or a restore): read once per revision
        deleted=services.kept(table, "deleted_hands", lambda: services.deleted_hands(table)) if can_edit else [],
        players=table.players,
        revision=table.revision,
        # the evening's state and the small forms it posts, its view-model built once per revision like the others
        evening=services.derived(
            table, f"evening_state:{can_edit}", lambda s, le: evening_state(table, s, le, can_edit)
        ),
        ending_form=EndingForm(),
        settle=(
            services.derived(table, "settle_up", table_present.settle_up_lines)
            if table.closed and game_of(table.ruleset).money
            else None
        ),
        pena=pena_services.pena_of_table(table),  # the way back to the peña's standings
    )


@bp.get("/t/<token>/estado")
def state(token: str) -> Response:
    """What the view page polls: the table's revision changes with every write."""
    g.quiet_session = True
    table = linked_table()
    # an answer changes no revision (a keeper's open form stays good); the page reloads for it too
    answers = answer_service.stamp(table)
    response = jsonify(revision=table.revision, closed=table.closed, ending=table.ending, answers=answers)
    response.headers["Cache-Control"] = "no-store"
    return response


def hand_page(table: Any, token: str, form: HandFormBase, n: int | None, preview: Any, status: int) -> tuple[str, int]:
    game = game_of(table.ruleset)
    return (
        render_template(game.hand_template, table=table, token=token, form=form, n=n, preview=preview, game=game),
        status,
    )


def hand_form(table: Any, dealer: int, n: int | None = None, **kwargs: Any) -> HandFormBase:
    players = table.players
    if game_of(table.ruleset).evening:  # R33: the people seated for that hand (the next one unless ``n``)
        session, ledger = services.session_of(table), services.ledger_of(table)
        players = names_at(session, ledger, n or len(ledger.get("hands") or []) + 1)
    return game_hand_form(table.ruleset, players, dealer, table.rules, **kwargs)


def _preselect(form: HandFormBase, jugador: str | None) -> None:
    """``?jugador=2`` from the table page's name buttons: the Jugador is already chosen (one tap saved)."""
    field = getattr(form, "jugador", None)
    if field is not None and jugador and jugador.isdigit() and int(jugador) in form.seats:
        field.data = jugador


def _deal_moved_on(table: Any, token: str, form: HandFormBase, n: int) -> Page | None:
    """A hand form opened for an earlier state of the table (Back after Guardar, another phone wrote
    meanwhile) is refused with an explanation and a way back: nothing is saved. A form without the
    hidden fields (an API-like client) is judged on its content alone."""
    deal, revision = (form.deal.data or "").strip(), (form.table_revision.data or "").strip()
    if (not deal or deal == str(n)) and (not revision or revision == str(table.revision)):
        return None
    if deal and deal != str(n):
        message = _(
            "Este formulario era para la mano %(deal)s, pero la partida ya va por la mano %(n)s"
            " (quizá volviste atrás después de guardar): no se ha guardado nada."
            " Vuelve a la mesa y anota la mano desde allí.",
            deal=deal,
            n=n,
        )
    else:
        message = _(
            "La partida ha cambiado desde que abriste este formulario de la mano %(n)s: no se ha guardado nada,"
            " para no anotar una mano con datos viejos. Vuelve a la mesa y anota la mano desde allí.",
            n=n,
        )
    page = render_template(
        "error.html",
        message=message,
        status=409,
        back=url_for("tables.table", token=token),
        back_label=_("Volver a la mesa"),
        title=_("Formulario caducado"),
    )
    return page, 409


def _preview(
    table: Any,
    session: dict[str, Any],
    ledger: dict[str, Any],
    entry: dict[str, Any],
    n: int,
    hand: dict[str, Any] | None = None,
) -> Any:
    """What the hand does, in words: the game's own preview (Tresillo: the plato) or the pots or teams."""
    game = game_of(table.ruleset)
    if game.preview is not None:
        return game.preview(session, ledger, entry, n)
    entries = ledger.get("hands", [])
    previous = entries[n - 2] if 2 <= n <= len(entries) + 1 else None
    return table_present.game_preview(session, hand or {}, entry, previous)


@bp.route("/t/<token>/mano", methods=["GET", "POST"])
def new_hand(token: str) -> Page:
    table = keepers_table()
    if request.method == "POST":
        # a second tap of Guardar after the first was saved: the form no longer fits (the deal moved on)
        saved = services.hand_for_request(table, request.form.get("request_id"))
        if saved is not None:
            flash(_("La mano %(n)s ya estaba anotada.", n=saved))
            return redirect(url_for("tables.table", token=token))
    if table.closed:
        flash(_("La partida está cerrada: no se anotan más manos."), "error")
        return redirect(url_for("tables.table", token=token))
    session, ledger = services.session_view(table), services.ledger_view(table)
    if ledger.get("over") and request.method != "POST":
        flash(_over_words(table, ledger), "error")
        return redirect(url_for("tables.table", token=token))
    dealer = int(ledger.get("next_dealer") or 1)
    n = len(ledger.get("hands", [])) + 1
    posted = request.method == "POST"
    form = hand_form(table, dealer, formdata=request.form if posted else None, deal=n, table_revision=table.revision)
    if not posted:  # GET and HEAD
        _preselect(form, request.args.get("jugador"))
        return hand_page(table, token, form, None, None, 200)
    moved = _deal_moved_on(table, token, form, n)
    if moved is not None:
        return moved
    hand = read_hand(form) if form.validate() else None
    if hand is None:
        return hand_page(table, token, form, None, None, 400)
    if form.preview.data:
        try:
            entry = services.preview_hand(table, hand)
        except services.Invalid as exc:
            _attach(form, exc, n)
            return hand_page(table, token, form, None, None, 400)
        return hand_page(table, token, form, None, _preview(table, session, ledger, entry, n, hand), 200)
    try:
        number, entry = services.add_hand(table, hand, request_id=form.request_id.data or None)
    except services.Invalid as exc:
        _attach(form, exc, n)
        return hand_page(table, token, form, None, None, 400)
    done = _preview(table, session, ledger, entry, number, hand)  # the game's own words for it
    flash(
        _(
            "Mano %(n)s anotada: %(summary)s.",
            n=number,
            summary=done["summary"] if isinstance(done, dict) else done.summary,
        )
    )
    return redirect(url_for("tables.table", token=token))


def _live_json(
    table: Any, form: HandFormBase, n: int, entry_of: Any, session: dict[str, Any], ledger: dict[str, Any]
) -> Response:
    """What the hand form shows as the keeper taps: the engine's payments, or what is missing or wrong."""
    hand = read_hand(form) if form.validate() else None
    problems: dict[str, list[str]] = {}
    missing: list[str] = []
    names = ("jugador", "trump", "lance", "tricks", "estuches", "contraestuches", "primeras", "bola", "rendida",
             "defensor", "matadores", "matadores_en", "capote", "faltas", "general")  # fmt: skip
    for name in names:  # a field not filled in yet is a form still being filled in, not a mistake
        gaps = form.missing(name)
        for message in form.messages(name):
            (missing if message in gaps else problems.setdefault(name, [])).append(message)
    if getattr(getattr(form, "csrf_token", None), "errors", None):
        problems["general"] = [_("El formulario ha caducado: vuelve a cargar la página.")]
    if hand is None or problems:
        return jsonify(ok=False, missing=missing, problems=problems)
    try:
        entry = entry_of(hand)
    except services.Invalid as exc:
        field, message = messages.explain(exc)
        if exc.hand is not None and exc.hand != n:
            field, message = (
                "general",
                _("Con este cambio la mano %(n)s dejaría de ser posible: %(reason)s", n=exc.hand, reason=message),
            )
        return jsonify(ok=False, missing=[], problems={field: [message]})
    preview = _preview(table, session, ledger, entry, n, hand)
    if isinstance(preview, dict):
        after = _("Después: plato %(amount)s, %(words)s.", amount=preview["plato"].amount, words=preview["plato"].words)
        summary, transfers = preview["summary"], preview["transfers"]
    else:
        after, summary, transfers = _("Después: %(after)s.", after=preview.after), preview.summary, preview.transfers
    return jsonify(
        ok=True,
        summary=summary,
        after=after,
        result=tresillo_views.result_phrase(
            hand,
            entry,
            names_at(session, ledger, n) if game_of(table.ruleset).evening else table.players,
        ),
        transfers=[
            {"source": t.source, "target": t.target, "amount": t.amount, "concept": t.concept, "detail": t.detail}
            for t in transfers
        ],
    )


@bp.post("/t/<token>/mano/pagos")
def new_hand_preview(token: str) -> Response:
    """The live preview of the new-hand form (static/app.js posts the form here as the keeper taps)."""
    g.quiet_session = True
    table = keepers_table()
    session, ledger = services.session_of(table), services.ledger_of(table)
    dealer = int(ledger.get("next_dealer") or 1)
    n = len(ledger.get("hands", [])) + 1
    form = hand_form(table, dealer, formdata=request.form)
    if table.closed:
        return jsonify(
            ok=False, missing=[], problems={"general": [_("La partida está cerrada: no se anotan más manos.")]}
        )
    if _deal_moved_on(table, token, form, n) is not None:
        return jsonify(ok=False, missing=[], problems={"general": [_("La partida ha cambiado: vuelve a la mesa.")]})
    return _live_json(table, form, n, lambda hand: services.preview_hand(table, hand), session, ledger)


@bp.post("/t/<token>/mano/<int:n>/pagos")
def edit_hand_preview(token: str, n: int) -> Response:
    """The live preview of the edit form."""
    g.quiet_session = True
    table = keepers_table()
    session = services.session_of(table)
    hands = session.get("hands", [])
    if not 1 <= n <= len(hands):
        raise services.NotFound(f"hand {n}: no such hand")
    form = hand_form(table, int(hands[n - 1].get("dealer") or 1), n, formdata=request.form)
    ledger = services.ledger_of(table)
    return _live_json(table, form, n, lambda hand: services.preview_replace(table, n, hand), session, ledger)


def _over_words(table: Any, ledger: dict[str, Any]) -> str:
    """Why no more hands are entered in a game that ended by itself (Ombre O6, bandos B4)."""
    return game_of(table.ruleset).over_words(ledger)


@bp.post("/t/<token>/pasan")
def all_pass(token: str) -> BaseResponse:
    table = keepers_table()
    form = PassForm()
    if not form.validate_on_submit():
        abort(400)
    if not game_of(table.ruleset).can_pass:  # B2
        flash(messages.render("bandos_no_pass"), "error")
        return redirect(url_for("tables.table", token=token))
    try:
        number, _entry = services.add_hand(table, {"pass": True}, request_id=form.request_id.data or None)
    except services.Invalid as exc:
        flash(_("No se ha anotado: %(reason)s", reason=messages.message(exc)), "error")
        return redirect(url_for("tables.table", token=token))
    flash(_("Mano %(n)s: todos pasan.", n=number), f"undo:{number}")
    return redirect(url_for("tables.table", token=token))


@bp.post("/t/<token>/pasan/<int:n>/deshacer")
def undo_pass(token: str, n: int) -> BaseResponse:
    """ "Deshacer" of a "Todos pasan" just recorded: the pass is deleted (kept in the history, restorable)."""
    table = keepers_table()
    if not ConfirmForm().validate_on_submit():
        abort(400)
    hands = services.session_of(table).get("hands", [])
    if n != len(hands) or "pass" not in hands[n - 1]:
        flash(_("No se ha deshecho nada: esa mano ya no es el último «todos pasan»."), "error")
        return redirect(url_for("tables.table", token=token))
    try:
        services.delete_hand(table, n)
    except services.Invalid as exc:
        flash(_("No se ha deshecho: %(reason)s", reason=messages.message(exc)), "error")
        return redirect(url_for("tables.table", token=token))
    flash(_("Deshecho: la mano %(n)s (todos pasan) se ha quitado. Queda en el historial.", n=n))
    return redirect(url_for("tables.table", token=token))


HANDS_PER_PAGE = 50
# The pages of the hand list last shown, per revision and language: the same page asked again (the
# keeper going back and forth, the other players' phones) is not built again. Read-only, shared.
_listings = services.page_cache(64)  # (token, revision, language, jugador, resultado, página) → HandList


@bp.get("/t/<token>/manos")
def hands(token: str) -> str:
    """Every hand of the table, newest first, a page at a time; filtered by player and by result."""
    table = linked_table()
    player = request.args.get("jugador", "")
    result = request.args.get("resultado", "")
    page = request.args.get("pagina", "1")
    number = int(page) if page.isascii() and page.isdigit() and 0 < int(page) < 10**9 else 1
    listing = _listings.get(key := (table.edit_token, table.revision, words.language(), player, result, number))
    if listing is None:
        session = services.session_view(table)  # read only, like the entries: no copy of a long session either
        # the engine's cached entries, read only: no copy of a long ledger for a page of 50 lines
        ledger = {"hands": services.settlement_of(table).entries}
        listing = table_present.hand_list(
            session, ledger, player=player or None, result=result or None, page=number, per_page=HANDS_PER_PAGE
        )
        if services.unchanged(table):
            _listings.put(key, listing)

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


@bp.get("/t/<token>/mano/<int:n>")
def hand(token: str, n: int) -> str:
    table, can_edit, session, ledger = _table_context(token)
    if not 1 <= n <= len(ledger.get("hands", [])):
        raise services.NotFound(f"hand {n}: no such hand")
    view: tresillo_views.HandView | pots.GameHandView = present.game_hand_view(session, ledger, n)
    history = table_services.hand_history(table, n)
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


@bp.route("/t/<token>/mano/<int:n>/editar", methods=["GET", "POST"])
def edit_hand(token: str, n: int) -> Page:
    table = keepers_table()
    session = services.session_of(table)
    hands = session.get("hands", [])
    if not 1 <= n <= len(hands):
        raise services.NotFound(f"hand {n}: no such hand")
    stored = hands[n - 1]
    if "ajuste" in stored and not table.closed:  # R32, R33: their own screens
        return redirect(url_for("evening.ajuste", token=token, n=n))
    if "sienta" in stored and not table.closed:
        return redirect(url_for("evening.cambio", token=token, n=n))
    if "favor" in stored and not table.closed:  # R34: undone by deleting it, then entered again
        flash(_("Un cambio de palo de favor no se corrige: bórralo y anota el bueno."), "error")
        return redirect(url_for("tables.hand", token=token, n=n))
    if "close" in stored or table.closed:
        flash(_("La partida está cerrada: ya no se puede cambiar."), "error")
        return redirect(url_for("tables.hand", token=token, n=n))
    dealer = int(stored.get("dealer") or 1)
    if request.method != "POST":  # GET and HEAD
        form = hand_form(table, dealer, n, hand=stored, revision=services.hand_revision(table, n))
        return hand_page(table, token, form, n, None, 200)
    form = hand_form(table, dealer, n, formdata=request.form)
    if not form.validate():
        return hand_page(table, token, form, n, None, 400)
    new = read_hand(form)
    if new is None:
        return hand_page(table, token, form, n, None, 400)
    text = form.revision.data or ""
    revision = int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None
    if form.preview.data:
        try:
            entry = services.preview_replace(table, n, new)
        except services.Invalid as exc:
            _attach(form, exc, n)
            return hand_page(table, token, form, n, None, 400)
        ledger = services.ledger_of(table)
        return hand_page(table, token, form, n, _preview(table, session, ledger, entry, n, new), 200)
    try:
        services.replace_hand(table, n, new, revision=revision)
    except services.Invalid as exc:
        _attach(form, exc, n)
        return hand_page(table, token, form, n, None, 400)
    except services.Conflict:
        form.problem(
            "general", _("Alguien ha cambiado esta mano mientras la editabas: vuelve a abrirla y repite el cambio.")
        )
        return hand_page(table, token, form, n, None, 409)
    flash(_("Mano %(n)s corregida; las manos siguientes se han vuelto a calcular.", n=n))
    return redirect(url_for("tables.hand", token=token, n=n))


@bp.route("/t/<token>/mano/<int:n>/borrar", methods=["GET", "POST"])
def delete_hand(token: str, n: int) -> Page:
    table = keepers_table()
    form = ConfirmForm()
    if request.method != "POST":  # GET and HEAD
        services.hand_revision(table, n)  # NotFound for a hand that does not exist
        return render_template("confirm.html", table=table, token=token, form=form, what="delete", n=n)
    if not form.validate_on_submit():
        abort(400)
    try:
        services.delete_hand(table, n)
    except services.Invalid as exc:
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
    flash(_("Mano %(n)s borrada. Puedes restaurarla desde la partida.", n=n))
    return redirect(url_for("tables.table", token=token))


@bp.post("/t/<token>/restaurar/<int:hand_id>")
def restore_hand(token: str, hand_id: int) -> BaseResponse:
    table = keepers_table()
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        n = services.restore_hand(table, hand_id)
    except services.Invalid as exc:
        flash(
            _(
                "No se puede restaurar: la mano %(hand)s dejaría de ser posible. %(reason)s",
                hand=exc.hand,
                reason=messages.message(exc),
            ),
            "error",
        )
        return redirect(url_for("tables.table", token=token))
    flash(_("Mano %(n)s restaurada.", n=n))
    return redirect(url_for("tables.hand", token=token, n=n))


@bp.get("/t/<token>/exportar.json")
def export_json(token: str) -> Response:
    table = linked_table()
    response = current_app.response_class(table_services.export_session(table), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{_filename(table, "json")}"'
    return response


@bp.get("/t/<token>/exportar.csv")
def export_csv(token: str) -> Response:
    table = linked_table()
    response = current_app.response_class(
        table_services.export_csv(table), content_type="text/csv; charset=utf-8"
    )  # charset once
    response.headers["Content-Disposition"] = f'attachment; filename="{_filename(table, "csv")}"'
    return response


@bp.route("/importar", methods=["GET", "POST"])
@create_limit
def import_table() -> Page:
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        text = form.content()
        if text is not None:
            table, error = import_text(text)
            if table is not None:
                flash(_("Partida importada."))
                return redirect(url_for("tables.table", token=table.edit_token))
    status = 400 if form.is_submitted() else 200
    return render_template("import.html", form=form, error=error), status


@bp.post("/t/<token>/idioma")
def table_language(token: str) -> BaseResponse:
    """The keeper chooses the language the table's sheet prints in (edit link only; CSRF-checked)."""
    try:
        table = keepers_table()
        table_services.set_language(table, request.form.get("language", ""))
    except services.NotFound:
        abort(404)
    except services.Forbidden:
        abort(403)
    except services.Invalid:
        abort(400)
    flash(_("La hoja de la partida se imprimirá en %(language)s.", language=LANGUAGE_NAMES[table.language]))
    return redirect(url_for("tables.table", token=token), 303)
