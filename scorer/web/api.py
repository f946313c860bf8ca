"""The JSON API of shared/api.md: thin handlers over :mod:`scorer.web.services`.

Writes need the edit token and ``Content-Type: application/json``. A POST of a
hand may carry an ``Idempotency-Key`` header: sent twice, the hand is saved
once (sent with another body, 422). A PUT may carry ``If-Match: <revision>``
(the hand's revision, as the ETag of a GET or PUT of the hand; ``*`` for any):
stale, it is refused with 409. Bodies obey :mod:`scorer.web.limits`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from scorer.web import evening_views, limits, messages, offline_queue, services, views
from scorer.web.evening_forms import ajuste_form, read_ajuste, read_cambio
from scorer.web.extensions import create_limit
from scorer.web.games import game_of
from scorer.web.offline_queue import Refused
from scorer.web.services import Invalid, ServiceError

bp = Blueprint("api", __name__, url_prefix="/api")


def service_error(exc: ServiceError) -> tuple[Response, int]:
    return jsonify(error=exc.message), exc.status


def json_error(exc: HTTPException) -> tuple[Response, int]:
    """An HTTP error as ``{"error": …}``."""
    return jsonify(error=exc.description or exc.name), exc.code or 500


def answer_errors_in_json(blueprint: Blueprint) -> None:
    """Every error of an API blueprint, 404 and 405 included, answered as ``{"error": …}``."""
    blueprint.register_error_handler(ServiceError, service_error)
    blueprint.register_error_handler(HTTPException, json_error)


answer_errors_in_json(bp)


class UnsupportedMediaType(ServiceError):
    status = 415


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _require_json() -> None:
    if request.mimetype != "application/json":
        raise UnsupportedMediaType("writes need Content-Type: application/json")


def _body(about: str = "session", limit: int = limits.SESSION_BYTES_MAX) -> Any:
    """The request's JSON body; 415 unless it is declared as JSON, 400 unless it parses within the limits.

    ``about`` prefixes the errors ("session" for a session file, "" for a hand: its number is not known yet).
    """
    _require_json()
    error = limits.too_large(request.content_length, limit)
    if error is not None:
        raise Invalid.limit(error, about=about)
    raw = request.get_data(cache=True)
    error = limits.too_large(len(raw), limit)
    if error is not None:
        raise Invalid.limit(error, about=about)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid("not valid JSON: the body is not UTF-8", about=about, code="not_json") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise Invalid("too deeply nested", about=about, code="too_deep") from None
    except ValueError as exc:
        raise Invalid(f"not valid JSON: {exc}", about=about, code="not_json") from None


def _page_url(token: str) -> str:
    # the UI's table page; the API's own view of the table until the UI blueprint is there
    if "main.table" in current_app.view_functions:
        return url_for("main.table", token=token, _external=True)
    return url_for("api.get_table", token=token, _external=True)


def _json_text(text: str) -> Response:
    return current_app.response_class(text + "\n", mimetype="application/json")


@bp.post("/tables")
@create_limit
def create_table() -> tuple[Response, int, dict[str, str]]:
    table = services.create_table(_body())
    answer = {
        "edit_token": table.edit_token,
        "view_token": table.view_token,
        "edit_url": _page_url(table.edit_token),
        "view_url": _page_url(table.view_token),
    }
    return jsonify(answer), 201, {"Location": url_for("api.get_table", token=table.edit_token)}


@bp.get("/tables/<token>")
def get_table(token: str) -> Response:
    table, _ = services.open_table(token)
    return _json_text(services.session_text(table))


@bp.get("/tables/<token>/ledger")
def get_ledger(token: str) -> Response:
    table, _ = services.open_table(token)
    return _json_text(services.ledger_text(table))


@bp.post("/tables/<token>/hands")
def add_hand(token: str) -> tuple[Response, int]:
    table = services.require_edit(token)
    hand = _body("", limits.HAND_BYTES_MAX)
    key = request.headers.get("Idempotency-Key") or request.headers.get("X-Request-Id") or None
    n, entry = services.add_hand(table, hand, request_id=key)
    return jsonify(n=n, hand=entry), 201


def _if_match() -> int | None:
    """The revision of If-Match (``"3"``, ``W/"3"``, ``3``); None when absent or ``*`` (any revision)."""
    value = request.headers.get("If-Match")
    if value is None or value.strip() == "*":
        return None
    text = value.strip().removeprefix("W/").strip('"')
    if not (text.isascii() and text.isdigit() and len(text) <= limits.REVISION_DIGITS_MAX):
        shown = value if len(value) <= 40 else value[:40] + "…"
        raise Invalid(f"If-Match must be the hand's revision number or *, not {shown!r}", about="", code="if_match")
    return int(text)


def _with_etag(table: Any, n: int, entry: dict[str, Any]) -> Response:
    """A hand's answer: ``{"n", "hand", "revision"}`` and its revision as the ETag (for If-Match)."""
    revision = services.hand_revision(table, n)
    response = jsonify(n=n, hand=entry, revision=revision)
    response.headers["ETag"] = f'"{revision}"'
    return response


@bp.get("/tables/<token>/hands/<int:n>")
def get_hand(token: str, n: int) -> Response:
    """One hand's ledger entry, with its revision (ETag) for a later PUT's If-Match."""
    table, _ = services.open_table(token)
    services.hand_revision(table, n)  # NotFound for a hand that does not exist
    return _with_etag(table, n, services.ledger_of(table)["hands"][n - 1])


@bp.put("/tables/<token>/hands/<int:n>")
def replace_hand(token: str, n: int) -> Response:
    table = services.require_edit(token)
    revision = _if_match()
    hand = _body(f"hand {n}", limits.HAND_BYTES_MAX)
    entry = services.replace_hand(table, n, hand, revision=revision)
    return _with_etag(table, n, entry)


@bp.delete("/tables/<token>/hands/<int:n>")
def delete_hand(token: str, n: int) -> Response:
    table = services.require_edit(token)
    services.delete_hand(table, n)
    return jsonify(deleted=n, restorable=[_deleted_json(d) for d in services.deleted_hands(table)])


def _deleted_json(item: services.DeletedHand) -> dict[str, Any]:
    return {"hand_id": item.hand_id, "n": item.n, "hand": item.hand}


@bp.get("/tables/<token>/deleted")
def list_deleted(token: str) -> Response:
    table, _ = services.open_table(token)
    return jsonify(deleted=[_deleted_json(d) for d in services.deleted_hands(table)])


@bp.post("/tables/<token>/deleted/<int:hand_id>")
def restore_hand(token: str, hand_id: int) -> Response:
    table = services.require_edit(token)
    _require_json()
    n = services.restore_hand(table, hand_id)
    return jsonify(n=n, hand=services.ledger_view(table)["hands"][n - 1])


# ------------------------------------------------------------ forms kept offline (issue 15)
# A form saved with no network is kept by the phone (static/offline.js) as its fields, exactly as
# the form had them, with an Idempotency-Key; when the network returns the queue is sent here in
# order. The fields are read by the very code of the form's own POST (views.py, forms.py): the
# phone knows nothing of the game. A refusal answers 4xx with the Spanish reason per field, and
# the entry stays on the phone to be corrected or discarded.
#
# Body: {"form": "hand" | "pass" | …, "fields": {name: value or [values]} or [[name, value], …],
#        "deal", "revision", "before": the state the entry was made against (issue 24: never two
#        copies of a deal), "dealer": the seat the form was made for (its data-dealer), or null}.
# Where an entry may go, and what a malformed body gets: scorer/web/offline_queue.py.


def _form_problems(form: Any) -> dict[str, list[str]]:
    """Every message the form attached, per field (what its page would show next to each)."""
    problems: dict[str, list[str]] = {}

    def flat(errors: Any) -> list[str]:
        if isinstance(errors, dict):
            return [m for v in errors.values() for m in flat(v)]
        if isinstance(errors, (list, tuple)):
            return [m for v in errors for m in flat(v)]
        return [str(errors)]

    for field in form:
        if field.errors:
            problems.setdefault(field.name, []).extend(flat(field.errors))
    for name, said in form.problems.items():
        problems.setdefault(name, []).extend(said)
    return problems


def read_form(form: Any, read: Callable[[Any], dict[str, Any] | None]) -> dict[str, Any]:
    """What a page's form (made with the posted fields) records, read by that page's own reader;
    refused with the messages the page would show next to each field. A new queueable form needs
    only its reader in OFFLINE_FORMS, e.g. ``lambda table, fields: read_form(ajuste_form(…,
    formdata=fields), read_ajuste)``."""
    entry = read(form) if form.validate() else None
    if entry is None:
        problems = _form_problems(form)
        first = next(iter(problems.values()), [gettext("Revisa lo anotado.")])[0]
        raise Refused(gettext("No se ha guardado: %(reason)s", reason=first), 422, problems, reason=first)
    return entry


def _read_hand_form(table: Any, fields: MultiDict[str, str]) -> dict[str, Any]:
    """The new-hand form (any game), read exactly as ``views.new_hand`` reads its POST."""
    dealer = int(services.ledger_of(table).get("next_dealer") or 1)
    return read_form(views._hand_form(table, dealer, formdata=fields), views.read_hand)


def _read_pass_form(_table: Any, _fields: MultiDict[str, str]) -> dict[str, Any]:
    """ "Todos pasan": the form carries nothing but its ids (views.all_pass)."""
    return {"pass": True}


def _read_ajuste_form(table: Any, fields: MultiDict[str, str]) -> dict[str, Any]:
    """An ajuste (R32), read as ``evening_views.ajuste`` reads its POST, for the seating now."""
    if not game_of(table.ruleset).evening:  # R32: Tresillo's
        raise Refused(gettext("Esta partida no admite ajustes: sus reglas no los tienen."), 422)
    seating = evening_views._seating_for(services.session_of(table), services.ledger_of(table), None)
    return read_form(ajuste_form(seating, formdata=fields), read_ajuste)


def _read_cambio_form(table: Any, fields: MultiDict[str, str]) -> dict[str, Any]:
    """A change of player (R33), read as ``evening_views.cambio`` reads its POST, for the seating now.
    Offline its page showed, before the confirming tap, what the server knew the change cancels."""
    if not game_of(table.ruleset).evening:  # R33: Tresillo's
        raise Refused(gettext("Esta partida no admite cambios de jugador: sus reglas no los tienen."), 422)
    return read_form(evening_views.cambio_form_for(table, None, formdata=fields), read_cambio)


# The queueable forms: the value of the form's data-offline attribute → its reader. An ajuste and a
# cambio de jugador use up no deal (R32, R33): static/offline.js counts only "hand" and "pass".
OFFLINE_FORMS: dict[str, Callable[[Any, MultiDict[str, str]], dict[str, Any]]] = {
    "hand": _read_hand_form,
    "pass": _read_pass_form,
    "ajuste": _read_ajuste_form,
    "cambio": _read_cambio_form,
}


@bp.errorhandler(Refused)
def refused(exc: Refused) -> tuple[Response, int]:
    return jsonify(error=exc.message, reason=exc.reason, problems=exc.problems, taken=exc.taken), exc.status


@bp.post("/tables/<token>/entries/form")
def add_form_entry(token: str) -> tuple[Response, int]:
    body = _body("", limits.HAND_BYTES_MAX)
    key = request.headers.get("Idempotency-Key") or ""
    if not 0 < len(key) <= limits.REQUEST_ID_MAX:
        raise Invalid(f"an Idempotency-Key header of 1 to {limits.REQUEST_ID_MAX} characters is needed", about="")
    entry = offline_queue.parse(body, OFFLINE_FORMS)  # 400 with what is wrong for any other shape
    fields = entry.fields
    try:
        table = services.require_edit(token)
        try:  # sent again after the answer was lost: already recorded, once (422 with other fields)
            saved = services.replay_request(table, key, entry.digest())
        except services.Unprocessable:
            reused = gettext("Esta clave ya se usó para guardar otra anotación: no se ha guardado.")
            raise Refused(reused, 422) from None
        if saved is not None:
            return jsonify(n=saved[0], replayed=True, revision=table.revision), 200
        offline_queue.check_place(table, entry)
        fields.poplist("preview")  # the queue saves; "Ver pagos" needs the network
        fields["request_id"] = key
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            fields["csrf_token"] = generate_csrf()  # the API's own protection: edit token + JSON
        hand = OFFLINE_FORMS[entry.form](table, fields)
        n, answer = services.add_hand(table, hand, request_id=key, digest=entry.digest())
    except services.Invalid as exc:
        field, message = messages.explain(exc)
        count = services.settlement_of(table).count
        if exc.hand is not None and exc.hand != count + 1:
            field = "general"
            message = gettext("La mano %(n)s dejaría de ser posible: %(reason)s", n=exc.hand, reason=message)
        said = gettext("No se ha guardado: %(reason)s", reason=message)
        raise Refused(said, 422, {field: [message]}, reason=message) from None
    except services.Conflict:  # the key's hand was saved, then deleted at the table: not again
        raise Refused(gettext("Ya se había guardado y después se borró en la partida: descártala."), 409) from None
    except (services.NotFound, services.Forbidden) as exc:
        raise Refused(views._spanish(exc), exc.status) from None
    return jsonify(n=n, hand=answer, revision=table.revision, message=gettext("Mano %(n)s anotada.", n=n)), 201
