"""What the tables' JSON API answers, shaped in one place: a new table's links, a stored body as
sent, a hand with its revision as the ETag, a deleted hand that can be restored."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, url_for

from scorer import store


def page_url(token: str) -> str:
    """The UI's table page; the API's own view of the table when the pages are not registered."""
    if "tables.table" in current_app.view_functions:
        return url_for("tables.table", token=token, _external=True)
    return url_for("api.get_table", token=token, _external=True)


def links(table: Any) -> dict[str, str]:
    """A new table's tokens and the addresses of its pages."""
    return {
        "edit_token": table.edit_token,
        "view_token": table.view_token,
        "edit_url": page_url(table.edit_token),
        "view_url": page_url(table.view_token),
    }


def json_text(body: store.JsonBody) -> Response:
    """A session or ledger as the store keeps its JSON text: sent as it is, never parsed again."""
    return current_app.response_class(body.sent, mimetype="application/json")


def with_etag(table: Any, n: int, entry: dict[str, Any], **extra: Any) -> Response:
    """A hand's answer: ``{"n", "hand", "revision"}`` and its revision as the ETag (for If-Match)."""
    revision = store.hand_revision(table, n)
    response = jsonify(n=n, hand=entry, revision=revision, **extra)
    response.headers["ETag"] = f'"{revision}"'
    return response


def deleted_json(item: store.DeletedHand) -> dict[str, Any]:
    """A deleted hand as the restorable list shows it."""
    return {"hand_id": item.hand_id, "n": item.n, "hand": item.hand}
