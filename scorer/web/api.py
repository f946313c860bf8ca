"""The JSON API of shared/api.md: thin handlers over :mod:`scorer.web.services`.

Writes need the edit token and ``Content-Type: application/json``. A POST of a
hand may carry an ``Idempotency-Key`` header: sent twice, the hand is saved
once (sent with another body, 422). A PUT may carry ``If-Match: <revision>``
(the hand's revision, as the ETag of a GET or PUT of the hand; ``*`` for any):
stale, it is refused with 409. Bodies obey :mod:`scorer.web.limits`.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from scorer.web import limits, services
from scorer.web.extensions import create_limit
from scorer.web.services import Invalid, ServiceError

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.errorhandler(ServiceError)
def service_error(exc: ServiceError) -> tuple[Response, int]:
    return jsonify(error=exc.message), exc.status


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException) -> tuple[Response, int]:
    return json_error(exc)


def json_error(exc: HTTPException) -> tuple[Response, int]:
    """An HTTP error as ``{"error": …}``."""
    return jsonify(error=exc.description or exc.name), exc.code or 500


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
    return jsonify(n=n, hand=services.ledger_of(table)["hands"][n - 1])
