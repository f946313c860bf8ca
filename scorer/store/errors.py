"""The refusals of the store: what a request cannot be served for, as data the API and the pages say.

``message`` (English) is the API's; ``code`` and ``params`` are rendered by the pages
(:mod:`scorer.web.common.messages`).
"""

from __future__ import annotations

from typing import Any

from scorer.engine import SessionError
from scorer.limits import LimitError


class ServiceError(Exception):
    """A request that cannot be served; ``message`` (English) is the API's, ``code`` and ``params`` the pages'.

    The pages render ``code`` through :mod:`scorer.web.common.messages`; they never read ``message``.
    """

    status: int = 500
    default_code = "failed"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.field: str | None = None
        self.params: dict[str, Any] = params


class NotFound(ServiceError):
    """Unknown token, hand or deleted hand."""

    status = 404
    default_code = "not_found"


class Forbidden(ServiceError):
    """A write with the view token (code ``view_link``), or to a closed table (``table_closed``)."""

    status = 403
    default_code = "view_link"


class Invalid(ServiceError):
    """Bad input, nothing saved; ``message`` is ``hand N: reason``, ``session: reason`` or, when about
    neither (a header, the request id, a body that is not JSON), just the reason (``about=""``).

    ``code``, ``field`` and ``params`` say the same as data (an engine code of
    :mod:`scorer.engine.errors`, a limits code or a service code): the pages render them
    with :mod:`scorer.web.common.messages`.
    """

    status = 400

    def __init__(
        self,
        reason: str,
        hand: int | None = None,
        *,
        about: str = "session",
        code: str = "invalid",
        field: str | None = None,
        **params: Any,
    ) -> None:
        prefix = f"hand {hand}" if hand is not None else about
        super().__init__(f"{prefix}: {reason}" if prefix else reason, code=code, **params)
        self.hand = hand
        self.reason = reason
        self.field = field

    @classmethod
    def limit(cls, exc: LimitError, *, about: str = "session") -> Invalid:
        """A value outside the limits (scorer.limits)."""
        return cls(exc.reason, exc.hand, about=about, code=exc.code, **exc.params)

    @classmethod
    def of(cls, exc: SessionError, *, hand: int | None = None, context: str = "") -> Invalid:
        """Wrap an engine error (its code, field and params too), optionally renumbering its hand."""
        number = exc.hand if hand is None else hand
        return cls(exc.reason + context, number, code=exc.code, field=exc.field, **exc.params)


class Conflict(ServiceError):
    """The hand changed since the form was opened."""

    status = 409
    default_code = "conflict"


class Unprocessable(ServiceError):
    """An Idempotency-Key sent again with another body."""

    status = 422
    default_code = "key_reused"


class Moved(ServiceError):
    """Another write came in between a caller's judging and its write: judge again (never answered as
    such by a caller that retries; 503 if it escapes)."""

    status = 503
    default_code = "moved"
