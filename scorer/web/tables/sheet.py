"""The printable session sheet: ``/tables/<token>/sheet.pdf`` and its HTML twin ``/tables/<token>/sheet``.

Both accept the edit or the view token (the sheet only reads). The HTML links its
stylesheet (``/sheet/sheet.css``) instead of inlining it, so it obeys the app's
``style-src 'self'`` Content-Security-Policy.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, url_for
from flask_babel import force_locale, get_translations
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.routing import BuildError

from scorer import store
from scorer.catalogs import language_or_default
from scorer.sheet.build import RenderTimeout, render_html, render_pdf_within, sheet_css
from scorer.web.common import answers_sheet
from scorer.web.common.table import is_keeper, linked_table, resolve_tables
from scorer.words import Catalog

bp = Blueprint("sheet", __name__)
resolve_tables(bp)  # the table of the link, once per request: g.table


def _load(token: str) -> tuple[dict[str, object], dict[str, object], str, Any]:
    """The session, the ledger (read-only), the language the table's sheet prints in, the table."""
    try:
        table = linked_table()
    except store.NotFound:
        abort(404)
    return store.read(table).session, store.read(table).ledger, language_or_default(table.language), table


def sheet_tongue(language: str) -> Catalog:
    """The table's language with this app's catalog of it: the sheet prints in it, not in the viewer's."""
    with force_locale(language):
        return Catalog(language, get_translations())


def _answers(table: Any, session: dict[str, Any], ledger: dict[str, Any], language: str) -> Markup:
    """The players' answers' section of the sheet (R31 and each hand's answers), in the table's language."""
    with force_locale(language):
        return answers_sheet.section(table, session, ledger)


def _filename(session: dict[str, object]) -> str:
    """An ASCII file name from the table's name: 'cartulina-casino-de-oviedo.pdf'."""
    name = str(session.get("name") or "mesa")
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^A-Za-z0-9]+", "-", ascii_name).strip("-").lower()[:60] or "mesa"
    return f"cartulina-{slug}.pdf"


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"  # the page links carry the token
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@bp.get("/tables/<token>/sheet.pdf")
def sheet_pdf(token: str) -> Response:
    session, ledger, language, table = _load(token)
    timeout = float(current_app.config.get("SHEET_PDF_TIMEOUT") or 0)
    try:
        # the sheet prints in the table's language, not the viewer's (its tongue is passed in)
        addenda = [_answers(table, session, ledger, language)]
        pdf = render_pdf_within(session, ledger, timeout, tongue=sheet_tongue(language), addenda=addenda)
    except RenderTimeout:
        message = _(
            "La hoja en PDF tarda demasiado en prepararse y se ha cancelado. Prueba dentro de un rato, "
            "o abre la hoja para imprimir desde el navegador."
        )
        page = render_template("error.html", message=message, status=503)
        return _private(Response(page, status=503, mimetype="text/html", headers={"Retry-After": "30"}))
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{_filename(session)}"'
    return _private(response)


def sheet_offer(token: str, language: str) -> dict[str, str]:
    """For a keeper whose pages are in another language than the sheet's: a link to print it in theirs."""
    from flask_babel import get_locale
    from flask_babel import gettext as _

    from scorer.web.common.i18n import LANGUAGE_NAMES, LANGUAGE_WORDS

    reader = str(get_locale() or language)
    can_edit = is_keeper()
    if not can_edit or reader == language or reader not in LANGUAGE_NAMES:
        return {}
    text = _(
        "Esta hoja se imprime en %(language)s: imprimirla en %(mine)s",
        language=LANGUAGE_WORDS[language],
        mine=LANGUAGE_WORDS[reader],
    )
    return {"offer": url_for("tables.table", token=token) + "#sheet-offer", "offer_text": text, "offer_lang": reader}


def _screen_words() -> dict[str, str]:
    """The sheet page's links and hint (never printed) in the reader's language, not the sheet's."""
    from scorer.web.common.i18n import current_language

    return {
        "screen_lang": current_language(),
        "back_text": _("← Volver a la mesa"),
        "pdf_text": _("Descargar PDF"),
        "print_text": _("Para imprimir, usa «Imprimir» del navegador."),
    }


@bp.get("/tables/<token>/sheet")
def sheet_html(token: str) -> Response:
    session, ledger, language, table = _load(token)
    try:
        back = url_for("tables.table", token=token)
    except BuildError:  # the HTML pages are not registered (API-only app)
        back = None
    links = {"pdf": url_for("sheet.sheet_pdf", token=token), "back": back, **_screen_words()}
    offer = sheet_offer(token, language)  # in the reader's language, before the table's takes over
    addenda = [_answers(table, session, ledger, language)]
    html = render_html(
        session,
        ledger,
        tongue=sheet_tongue(language),
        css_href=url_for("sheet.css"),
        links={**links, **offer},
        addenda=addenda,
    )
    return _private(current_app.response_class(html, mimetype="text/html"))  # SafeResponse (D2)


@bp.get("/sheet/sheet.css")
def css() -> Response:
    response = Response(sheet_css(), mimetype="text/css")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
