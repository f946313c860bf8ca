"""What the API's blueprints share: a JSON body read within the limits, and every error as JSON."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from scorer import limits
from scorer.web.services import Invalid, ServiceError


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


def require_json() -> None:
    if request.mimetype != "application/json":
        raise UnsupportedMediaType("writes need Content-Type: application/json")


def json_body(about: str = "session", limit: int = limits.SESSION_BYTES_MAX) -> Any:
    """The request's JSON body; 415 unless it is declared as JSON, 400 unless it parses within the limits.

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
        return json.loads(text, parse_constant=limits.reject_constant)
    except RecursionError:
        raise Invalid("too deeply nested", about=about, code="too_deep") from None
    except ValueError as exc:
        raise Invalid(f"not valid JSON: {exc}", about=about, code="not_json") from None
