"""The JSON API of the tables (docs/api.md, blueprint ``api``): thin handlers over :mod:`scorer.store`.

Writes need the edit token and ``Content-Type: application/json``. A POST of a
hand may carry an ``Idempotency-Key`` header: sent twice, the hand is saved
once (sent with another body, 422). A PUT may carry ``If-Match: <revision>``
(the hand's revision, as the ETag of a GET or PUT of the hand; ``*`` for any):
stale, it is refused with 409. Bodies obey :mod:`scorer.limits`.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request, url_for

from scorer import limits, store
from scorer.store import Invalid
from scorer.store import answers as answer_service
from scorer.web.api import present
from scorer.web.api.common import answer_errors_in_json, json_body, require_json
from scorer.web.common.extensions import create_limit
from scorer.web.common.table import keepers_table, linked_table, resolve_tables

bp = Blueprint("api", __name__, url_prefix="/api")
resolve_tables(bp)  # the table of the link, once per request: g.table
answer_errors_in_json(bp)


@bp.post("/tables")
@create_limit
def create_table() -> tuple[Response, int, dict[str, str]]:
    table = store.create_table(json_body())
    return jsonify(present.links(table)), 201, {"Location": url_for("api.get_table", token=table.edit_token)}


@bp.get("/tables/<token>")
def get_table(token: str) -> Response:
    table = linked_table()
    return present.json_text(store.read(table).session_json)


@bp.get("/tables/<token>/ledger")
def get_ledger(token: str) -> Response:
    table = linked_table()
    return present.json_text(store.read(table).ledger_json)


@bp.post("/tables/<token>/hands")
def add_hand(token: str) -> tuple[Response, int]:
    table = keepers_table()
    hand = json_body("", limits.HAND_BYTES_MAX)
    key = request.headers.get("Idempotency-Key") or request.headers.get("X-Request-Id") or None
    n, entry = store.add_hand(table, hand, request_id=key)
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


@bp.get("/tables/<token>/hands/<int:n>")
def get_hand(token: str, n: int) -> Response:
    """One hand's ledger entry, with its revision (ETag) for a later PUT's If-Match."""
    table = linked_table()
    store.hand_revision(table, n)  # NotFound for a hand that does not exist
    answers = [a.as_json() for a in answer_service.of_hand(table, n)]  # the players' answers
    return present.with_etag(table, n, store.read(table).ledger_copy()["hands"][n - 1], answers=answers)


@bp.put("/tables/<token>/hands/<int:n>")
def replace_hand(token: str, n: int) -> Response:
    table = keepers_table()
    revision = _if_match()
    hand = json_body(f"hand {n}", limits.HAND_BYTES_MAX)
    entry = store.replace_hand(table, n, hand, revision=revision)
    return present.with_etag(table, n, entry)


@bp.delete("/tables/<token>/hands/<int:n>")
def delete_hand(token: str, n: int) -> Response:
    table = keepers_table()
    store.delete_hand(table, n)
    return jsonify(deleted=n, restorable=[present.deleted_json(d) for d in store.deleted_hands(table)])


@bp.get("/tables/<token>/deleted")
def list_deleted(token: str) -> Response:
    table = linked_table()
    return jsonify(deleted=[present.deleted_json(d) for d in store.deleted_hands(table)])


@bp.post("/tables/<token>/deleted/<int:hand_id>")
def restore_hand(token: str, hand_id: int) -> Response:
    table = keepers_table()
    require_json()
    n = store.restore_hand(table, hand_id)
    return jsonify(n=n, hand=store.read(table).ledger["hands"][n - 1])
