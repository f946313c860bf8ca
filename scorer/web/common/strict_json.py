"""The API's JSON bodies read strictly, in one place: a key repeated in any object, or a top-level
key a body of that shape does not have, is refused (422) naming the key, never read by guessing.

``{"jugador": 2, "jugador": 3}`` would otherwise be read as its last value, and ``{"form": "hand",
"fieldz": …}`` saved as a form without fields: a client's mistake that must be told, not
recorded. A session file is the exception for unknown keys (docs/format.md: an imported file's
extra keys are kept), not for repeated ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

# how a refusal shows a key: short, on one line
KEY_SHOWN_MAX = 40


class BodyKeyError(ValueError):
    """A repeated or unknown key; ``message`` names it (English, as the API's other errors)."""

    status = 422

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.message = message
        self.key = key


def shown(key: str) -> str:
    """The key as a refusal names it: quoted, cut to ``KEY_SHOWN_MAX`` characters."""
    short = key if len(key) <= KEY_SHOWN_MAX else key[:KEY_SHOWN_MAX] + "…"
    return repr(short)


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made: dict[str, Any] = {}
    for key, value in pairs:
        if key in made:
            raise BodyKeyError(f"repeated key {shown(key)}: each key is sent once", key)
        made[key] = value
    return made


def loads(text: str, parse_constant: Callable[[str], Any] | None = None) -> Any:
    """``json.loads`` refusing a key repeated in any object (BodyKeyError); ValueError otherwise as json's."""
    if parse_constant is None:
        return json.loads(text, object_pairs_hook=_no_repeats)
    return json.loads(text, object_pairs_hook=_no_repeats, parse_constant=parse_constant)


def only(body: Any, allowed: Sequence[str], what: str) -> None:
    """Refuse the first top-level key (in sorted order) of ``body`` that is not ``allowed``.

    ``what`` names the body in the message: "an answer has person, agrees and note". A body that
    is not an object is left to its reader (which says what it should be).
    """
    if not isinstance(body, Mapping):
        return
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        names = list(allowed)
        listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        raise BodyKeyError(f"unknown key {shown(unknown[0])}: {what} has {listed}", unknown[0])
