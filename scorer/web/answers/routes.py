"""The watchers' forms (blueprint ``answers``) and the API call (blueprint ``api_answers``).

Pages: ``POST /t/<token>/yo`` (who I am, remembered in a cookie for that table) and
``POST /t/<token>/mano/<n>/respuesta`` (De acuerdo / No es así + note); plain forms with
CSRF, each answered by a redirect back to the page it came from (POST/redirect/GET).
API: ``POST /api/tables/<token>/hands/<n>/answers``, JSON only, with either token.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from flask import Blueprint, Response, current_app, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from scorer import limits, store
from scorer.store import answers as service
from scorer.store.answers import Refused
from scorer.store.models import Table
from scorer.web.common import messages, strict_json
from scorer.web.common.extensions import limiter
from scorer.web.common.table import linked_table, resolve_tables

from . import present

bp = Blueprint("answers", __name__)
api = Blueprint("api_answers", __name__, url_prefix="/api")
resolve_tables(bp)  # the table of the link (either one), once per request: g.table
resolve_tables(api)

COOKIE = "cartulina_yo"  # who this phone is at one table; its path is the table's pages (/t/<token>)
COOKIE_AGE = 60 * 60 * 24 * 365


def _answer_limit() -> str:
    return str(current_app.config["CARTULINA_ANSWER_LIMIT"])


# One budget per client address for every answer, from the page or the API (limits.md, Rates).
answer_limit = limiter.shared_limit(_answer_limit, scope="answer", methods=["POST"])


# ------------------------------------------------------------------ who am I


def me(token: str) -> str | None:
    """The person this phone said it is at this table, or None."""
    raw = request.cookies.get(COOKIE)
    if not raw:
        return None
    name = urllib.parse.unquote(raw)
    return name if 0 < len(name) <= limits.NAME_MAX * 2 else None


def page_of(table: Table, token: str) -> present.Page:
    """The answers' view-model of this request's page, built once (templates call ``answers_page``)."""
    cached: dict[tuple[int, str], present.Page] = g.setdefault("answers_pages", {})
    key = (table.id, token)
    if key not in cached:
        cached[key] = present.page(table, token, me(token))
    return cached[key]


def _back(token: str) -> str:
    """Where a form goes back to: its ``next`` when it is one of this table's pages, else the table."""
    target = request.form.get("next", "")
    return target if _among_table_pages(target, token) else url_for("tables.table", token=token)


def _among_table_pages(target: str, token: str) -> bool:
    """Whether ``target`` is a plain path to one of this table's pages (no other site, no way out of it)."""
    table_pages = f"/t/{token}"
    path = urllib.parse.urlsplit(target)
    if path.scheme or path.netloc or "\\" in target or ".." in target:
        return False
    return target == table_pages or target.startswith((table_pages + "/", table_pages + "?"))


@bp.post("/t/<token>/yo")
def who_am_i(token: str) -> BaseResponse:
    """Remember (or forget) which of the people seated this phone is, for this table only."""
    table = linked_table()
    response = redirect(_back(token))
    path = f"/t/{token}"
    if request.form.get("olvidar"):
        response.delete_cookie(COOKIE, path=path)
        return response
    name = (request.form.get("persona") or "").strip()
    if name not in page_of(table, token).people:
        flash(_("Elige quién eres entre los que están sentados."), "error")
        return response
    value = urllib.parse.quote(name, safe="")
    response.set_cookie(COOKIE, value, max_age=COOKIE_AGE, path=path, samesite="Lax", httponly=True)
    return response


@bp.post("/t/<token>/mano/<int:n>/respuesta")
@answer_limit
def answer(token: str, n: int) -> BaseResponse:
    """De acuerdo / No es así from a page's form: saved, or the reason at the top of the page it came from."""
    table = linked_table()
    said = request.form.get("acuerdo")
    agrees: object = {"si": True, "no": False}.get(said or "", said)
    try:
        service.record(
            table,
            n,
            request.form.get("persona", ""),
            agrees,
            request.form.get("nota", ""),
            version=_number(request.form.get("version", "")),
        )
    except Refused as exc:
        flash(_("No se ha guardado tu respuesta: %(reason)s", reason=exc.spanish), "error")
    else:
        flash(_("Mano %(n)s: de acuerdo.", n=n) if agrees is True else _("Mano %(n)s: anotado que no es así.", n=n))
    return redirect(_back(token))


# ------------------------------------------------------------------ live on the keeper's page

MARKS_MAX = 60  # a page shows at most 50 hands (the hand list), the table page the last 8


def _number(text: str) -> int | None:
    """A revision, a version or a hand number written in a form or a query: digits, not too many.
    Ascii only: "²" is a digit to isdigit, and int() refuses it."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= limits.REVISION_DIGITS_MAX else None


def _numbers(raw: str) -> list[int]:
    """``manos=1,2,3``: the hands whose marks the page shows; anything else in it is left out."""
    found: list[int] = []
    for n in map(_number, raw.split(",")[: MARKS_MAX * 2]):
        if n is not None and n not in found:
            found.append(n)
    return found[:MARKS_MAX]


@bp.get("/t/<token>/respuestas")
def live(token: str) -> BaseResponse:
    """What an open page polls: 204 while no answer came since ``sello``, else the disagreements and the marks."""
    g.quiet_session = True
    table = linked_table()
    known = _number(request.args.get("sello", ""))
    if known is not None and known == service.stamp(table):
        response = Response(status=204)  # the usual answer: one query for the table, one for the stamp
    else:
        hands = len(service.live_ids(table))
        numbers = [n for n in _numbers(request.args.get("manos", "")) if 1 <= n <= hands]
        A = page_of(table, token)
        response = Response(render_template("answers/_live.html", table=table, token=token, A=A, numbers=numbers))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.errorhandler(store.ServiceError)
def _page_error(exc: store.ServiceError) -> tuple[str, int]:
    message = messages.render("not_found") if isinstance(exc, store.NotFound) else messages.message(exc)
    return render_template("error.html", message=message, status=exc.status), exc.status


@bp.errorhandler(429)
def _too_many(_exc: HTTPException) -> tuple[str, int]:
    message = _("Demasiadas respuestas desde esta dirección en poco tiempo: espera un poco y vuelve a probar.")
    return render_template("error.html", message=message, status=429), 429


# ------------------------------------------------------------------ the API


@api.post("/tables/<token>/hands/<int:n>/answers")
@answer_limit
def post_answer(token: str, n: int) -> tuple[Response, int]:
    """One person's answer to hand ``n``, with the view or the edit token: 201 and the hand's answers."""
    table = linked_table()
    body = _body()
    try:
        strict_json.only(body, ("person", "agrees", "note"), "an answer")
    except strict_json.BodyKeyError as exc:
        raise Refused(exc.status, exc.message, "") from None
    answers = service.record(table, n, body.get("person"), body.get("agrees"), body.get("note"))
    return jsonify(n=n, answers=[a.as_json() for a in answers]), 201


def _raw_body() -> bytes:
    """The bytes of a JSON body: refused before reading when it says it is too large, and after reading."""
    if request.mimetype != "application/json":
        raise Refused(415, "writes need Content-Type: application/json", "")
    size = request.content_length
    if size is not None and size > limits.ANSWER_BYTES_MAX:
        raise _too_large()
    raw = request.get_data(cache=True)
    if len(raw) > limits.ANSWER_BYTES_MAX:
        raise _too_large()
    return raw


def _too_large() -> Refused:
    return Refused(422, f"the body is larger than {limits.ANSWER_BYTES_MAX} bytes", "")


def _body() -> dict[str, Any]:
    raw = _raw_body()
    try:
        body = strict_json.loads(raw.decode("utf-8"))
    except strict_json.BodyKeyError as exc:
        raise Refused(exc.status, exc.message, "") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "not valid JSON", "") from None
    if not isinstance(body, dict):
        raise Refused(422, 'an answer is an object: {"person", "agrees", "note"}', "")
    return body


@api.errorhandler(Refused)
def _refused(exc: Refused) -> tuple[Response, int]:
    return jsonify(error=exc.message), exc.status


@api.errorhandler(store.ServiceError)
def _api_service_error(exc: store.ServiceError) -> tuple[Response, int]:
    return jsonify(error=exc.message), exc.status


@api.errorhandler(HTTPException)
def _api_http_error(exc: HTTPException) -> tuple[Response, int]:
    response = jsonify(error=exc.description or exc.name)
    retry = exc.get_response().headers.get("Retry-After")
    if retry:
        response.headers["Retry-After"] = retry
    return response, exc.code or 500
