"""The table's pages (blueprint ``tables``): the home page, a new table, the table page, its poll,
import and export, the sheet's language. Its hands' pages are on the same blueprint
(scorer/web/tables/hands.py).

Parse the form, call a service, flash, redirect (POST/redirect/GET). The table of the link is
resolved once per request (scorer/web/common/table.py)."""

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

from scorer import store, words
from scorer.games import all_games, game_of, shared
from scorer.games import views as present
from scorer.store import answers as answer_service
from scorer.store import penas as pena_services
from scorer.web.common import messages, pena_tables
from scorer.web.common.evening import evening_state
from scorer.web.common.evening_forms import EndingForm
from scorer.web.common.extensions import create_limit
from scorer.web.common.forms import (
    GAME_LABELS,
    RULE_HELP,
    ImportForm,
    NewTableForm,
    PassForm,
    session_from_form,
)
from scorer.web.common.i18n import LANGUAGE_NAMES
from scorer.web.common.pages import Page, refusals_as_pages
from scorer.web.common.remember import import_text, known_names, my_tables, remember
from scorer.web.common.table import is_keeper, keepers_table, linked_table, resolve_tables
from scorer.web.tables import exports
from scorer.web.tables import present as table_present

bp = Blueprint("tables", __name__)
resolve_tables(bp)  # the table of the link, once per request: g.table
refusals_as_pages(bp)


@functools.lru_cache(maxsize=256)  # a table's links never change; encoding one costs ~10 ms
def _qr(url: str) -> Markup:
    """A QR code of a link as inline SVG (no script, no inline style: fits the CSP)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff")
    return Markup(svg)  # segno's own SVG; the URL is escaped by it


store.cache.register(_qr)  # a table's links: emptied with the store's caches


def _filename(table: Any, ext: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", table.name).strip("-").lower()[:40] or "partida"
    return f"{slug}.{ext}"


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
            table = store.create_table(session_from_form(form))
        except store.Invalid as exc:
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


def _share(table: Any) -> dict[str, Any]:
    """The keeper's share box: both links and their QR codes."""
    edit_url = url_for("tables.table", token=table.edit_token, _external=True)
    view_url = url_for("tables.table", token=table.view_token, _external=True)
    return {"edit": edit_url, "view": view_url, "edit_qr": _qr(edit_url), "view_qr": _qr(view_url)}


def _settle_up(table: Any) -> Any:
    """Who pays whom, once a table played for money is closed (built once per revision)."""
    if table.closed and game_of(table.ruleset).money:
        return store.read(table).derived("settle_up", table_present.settle_up_lines)
    return None


@bp.get("/t/<token>")
def table(token: str) -> str:
    table, can_edit = linked_table(), is_keeper()
    view = store.read(table).derived("table_view", table_present.table_view)
    game = store.read(table).derived("game_view", present.game_view)
    share = None
    if can_edit:
        remember(table)
        share = _share(table)
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
        deleted=store.read(table).kept("deleted_hands", lambda: store.deleted_hands(table)) if can_edit else [],
        players=table.players,
        revision=table.revision,
        # the evening's state and the small forms it posts, its view-model built once per revision like the others
        evening=store.read(table).derived(
            f"evening_state:{can_edit}", lambda s, le: evening_state(table, s, le, can_edit)
        ),
        ending_form=EndingForm(),
        settle=_settle_up(table),
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


@bp.get("/t/<token>/exportar.json")
def export_json(token: str) -> Response:
    table = linked_table()
    response = current_app.response_class(store.export_session(table), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{_filename(table, "json")}"'
    return response


@bp.get("/t/<token>/exportar.csv")
def export_csv(token: str) -> Response:
    table = linked_table()
    response = current_app.response_class(
        exports.export_csv(table), content_type="text/csv; charset=utf-8"
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
        store.set_language(table, request.form.get("language", ""))
    except store.NotFound:
        abort(404)
    except store.Forbidden:
        abort(403)
    except store.Invalid:
        abort(400)
    flash(_("La hoja de la partida se imprimirá en %(language)s.", language=LANGUAGE_NAMES[table.language]))
    return redirect(url_for("tables.table", token=token), 303)
