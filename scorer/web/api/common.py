"""What the API's blueprints share: a JSON body read within the limits, and every error as JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from scorer import limits
from scorer.store import Invalid, ServiceError
from scorer.web.common import strict_json


def service_error(exc: ServiceError) -> tuple[Response, int]:
    return jsonify(error=exc.message), exc.status


def json_error(exc: HTTPException) -> tuple[Response, int]:
    """An HTTP error as ``{"error": …}``."""
    return jsonify(error=exc.description or exc.name), exc.code or 500


def answer_errors_in_json(blueprint: Blueprint) -> None:
    """Every error of an API blueprint, 404 and 405 included, answered as ``{"error": …}``."""
    blueprint.register_error_handler(ServiceError, service_error)
    blueprint.register_error_handler(HTTPException, json_error)


class UnsupportedMediaType(ServiceError):
    status = 415


class BodyKey(ServiceError):
    """A key repeated in the body, or one its shape does not have (scorer/web/common/strict_json.py)."""

    status = 422
    default_code = "body_key"


def only(body: Any, allowed: Sequence[str], what: str) -> None:
    """422 naming the first top-level key of ``body`` that is not ``allowed`` ("a peña has name and people")."""
    try:
        strict_json.only(body, allowed, what)
    except strict_json.BodyKeyError as exc:
        raise BodyKey(exc.message, key=exc.key) from None


def require_json() -> None:
    if request.mimetype != "application/json":
        raise UnsupportedMediaType("writes need Content-Type: application/json")


def json_body(about: str = "session", limit: int = limits.SESSION_BYTES_MAX) -> Any:
    """The request's JSON body; 415 unless it is declared as JSON, 400 unless it parses within the limits,
    422 for a key repeated in any of its objects (scorer/web/common/strict_json.py).

    ``about`` prefixes the errors ("session" for a session file, "" for a hand: its number is not known yet).
    """
    require_json()
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
        return strict_json.loads(text, parse_constant=limits.reject_constant)
    except strict_json.BodyKeyError as exc:
        raise BodyKey(f"{about}: {exc.message}" if about else exc.message, key=exc.key) from None
    except RecursionError:
        raise Invalid("too deeply nested", about=about, code="too_deep") from None
    except ValueError as exc:
        raise Invalid(f"not valid JSON: {exc}", about=about, code="not_json") from None
