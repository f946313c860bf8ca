"""The JSON API of shared/api.md: thin handlers over :mod:`scorer.web.services`.

Writes need the edit token and ``Content-Type: application/json``. A POST of a
hand may carry an ``Idempotency-Key`` header: sent twice, the hand is saved
once. A PUT may carry ``If-Match: <revision>`` (the hand's revision): stale,
it is refused with 409.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from scorer.web import services
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


def _body() -> Any:
    """The request's JSON body; 415 unless it is declared as JSON, 400 unless it parses."""
    _require_json()
    text = request.get_data(as_text=True)
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise Invalid("too deeply nested") from None
    except ValueError as exc:
        raise Invalid(f"not valid JSON: {exc}") from None


def _page_url(token: str) -> str:
    # the UI's table page; the API's own view of the table until the UI blueprint is there
    if "main.table" in current_app.view_functions:
        return url_for("main.table", token=token, _external=True)
    return url_for("api.get_table", token=token, _external=True)


def _json_text(text: str) -> Response:
    return current_app.response_class(text + "\n", mimetype="application/json")


@bp.post("/tables")
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
    hand = _body()
    key = request.headers.get("Idempotency-Key") or request.headers.get("X-Request-Id") or None
    n, entry = services.add_hand(table, hand, request_id=key)
    return jsonify(n=n, hand=entry), 201


def _if_match() -> int | None:
    value = request.headers.get("If-Match")
    if value is None:
        return None
    text = value.strip().removeprefix("W/").strip('"')
    if not text.isdigit():
        raise Invalid(f"If-Match must be the hand's revision number, not {value!r}")
    return int(text)


@bp.put("/tables/<token>/hands/<int:n>")
def replace_hand(token: str, n: int) -> Response:
    table = services.require_edit(token)
    hand = _body()
    entry = services.replace_hand(table, n, hand, revision=_if_match())
    response = jsonify(n=n, hand=entry)
    response.headers["ETag"] = f'"{services.hand_revision(table, n)}"'
    return response


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
