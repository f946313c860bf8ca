"""The input limits of Cartulina: one set, the same for the HTML forms, the JSON API and import.

Everything a table stores passes :func:`check_session` (a new table, an import) or
:func:`check_hand` (a hand added or replaced) in :mod:`scorer.web.services`; the
forms use the same numbers and :func:`char_problem` to put a Spanish message next
to the field. A value outside the limits raises :class:`LimitError` with an English
reason (the API's ``error``) and its Spanish twin (the pages); nothing is saved.
``docs/limits.md`` lists them.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from scorer.words import parse_decimal

# ----------------------------------------------------------------------- numbers

NAME_MAX = 40  # a player's name
TITLE_MAX = 80  # the table's name
PLACE_MAX = 80
CURRENCY_MAX = 8
NOTES_MAX = 500  # the table's notes and a hand's note
TIMEZONE_MAX = 64
DATE_MAX = 32
TEXT_MAX = 500  # any other string of a session file (app keys the app does not know)
KEY_MAX = 64  # a key of a JSON object
ITEMS_MAX = 100  # keys of an object, items of a list (but the hands)
# bench/hostile.py: 10,000 hands import in 1.5 s, 20,000 in 3.4 s (write lock 1.6 s) on the busy 2-core machine.
HANDS_MAX = 20_000
SESSION_BYTES_MAX = 2_000_000  # a session file (API body, import upload or paste)
HAND_BYTES_MAX = 16_384  # the body of one hand
DEPTH_MAX = 8  # nesting of a session file (session → hands → hand → faltas → falta is 5)
HAND_DEPTH_MAX = 4  # nesting of one hand (hand → faltas → falta is 3)
NUMBER_MAX = 10**9  # any number of a session file, in absolute value
ID_MAX = 2**31 - 1  # hand numbers and hand ids in URLs (PostgreSQL's integer)
REVISION_DIGITS_MAX = 18  # If-Match
REQUEST_ID_MAX = 100  # Idempotency-Key, the forms' request id
TANTO_MIN = Decimal("0.01")
TANTO_MAX = Decimal("1000")
TANTO_PLACES = 2

# Bidi embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI): they reorder
# whatever follows them on the line (D8). Marks (LRM, RLM) and joiners stay allowed.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
MULTILINE = frozenset("\n\r\t")

# Spanish names of the keys of a session file, for the pages.
SPANISH_KEYS = {
    "name": "El nombre de la partida",
    "place": "El lugar",
    "currency": "La moneda",
    "notes": "El texto de las notas",
    "note": "La nota",
    "timezone": "La zona horaria",
    "date": "La fecha",
}


class LimitError(ValueError):
    """A value outside the limits: ``reason`` in English, ``spanish`` for the pages, ``hand`` its number."""

    def __init__(self, reason: str, spanish: str, hand: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.spanish = spanish
        self.hand = hand


# ------------------------------------------------------------------------ texts


def char_problem(char: str, multiline: bool = False) -> str | None:
    """Why one character may not be stored (English), or None."""
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate U+{code:04X}"
    if char in BIDI_CONTROLS:
        return f"a bidi control U+{code:04X}"
    category = unicodedata.category(char)
    if category == "Cc" and not (multiline and char in MULTILINE):
        return f"a control character U+{code:04X}"
    if category in ("Co", "Zl", "Zp"):
        return f"a character that is not printable U+{code:04X}"
    return None


# A quick first look (C speed) for what char_problem may refuse: control characters, surrogates,
# bidi controls, line/paragraph separators, private use; char_problem then says which one it is.
_SUSPECT = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\uf8ff\U000f0000-\U0010ffff]")


def text_problem(text: str, limit: int, multiline: bool = False) -> tuple[str, str] | None:
    """What is wrong with a text, as (English, Spanish) phrases; None when it may be stored."""
    if len(text) > limit:
        return f"is longer than {limit} characters", f"tiene más de {limit} caracteres"
    if _SUSPECT.search(text) is None:
        return None
    for char in text:
        problem = char_problem(char, multiline)
        if problem is not None:
            return f"contains {problem}", f"tiene un carácter no permitido ({problem.rsplit(' ', 1)[-1]})"
    return None


def clean(text: object, limit: int | None = None) -> str:
    """A stored text made safe to show: refused characters become U+FFFD, clipped to ``limit`` with "…".

    For data stored before the limits existed; new data never needs it.
    """
    value = str(text)
    if _SUSPECT.search(value) and any(char_problem(c, multiline=True) for c in value):
        value = "".join("\ufffd" if char_problem(c, multiline=True) else c for c in value)
    if limit is not None and len(value) > limit:
        value = value[: limit - 1] + "…"
    return value


# In JSON written with ensure_ascii: an escaped backslash, or one or two \\uXXXX escapes (a surrogate pair).
_ESCAPE = re.compile(r"(\\\\)|(\\u[0-9a-fA-F]{4})(\\u[dD][c-fC-F][0-9a-fA-F]{2})?")


def _clean_escape(match: re.Match[str]) -> str:
    if match.group(1) or (match.group(3) and 0xD800 <= int(match.group(2)[2:], 16) <= 0xDBFF):
        return match.group(0)  # a backslash, or a high and a low surrogate: one real character
    char = chr(int(match.group(2)[2:], 16))
    rest = "\\ufffd" if match.group(3) else ""  # a low surrogate after something that was not a high one
    return ("\\ufffd" if char_problem(char, multiline=True) else match.group(2)) + rest


def clean_json(value: Any) -> Any:
    """A copy of a JSON value whose every string is made safe to show (refused characters become U+FFFD).

    For data stored before the limits existed (D2, D8): the sheet and the exports read it through this.
    """
    text = json.dumps(value, ensure_ascii=True)
    cleaned = _ESCAPE.sub(_clean_escape, text)
    return value if cleaned == text else json.loads(cleaned)


def _check_text(value: object, limit: int, english: str, spanish: str, hand: int | None, multiline: bool) -> None:
    if not isinstance(value, str):
        raise LimitError(f"{english} must be a string", f"{spanish} ha de ser un texto.", hand)
    problem = text_problem(value, limit, multiline)
    if problem is not None:
        raise LimitError(f"{english} {problem[0]}", f"{spanish} {problem[1]}.", hand)


# ---------------------------------------------------------------------- numbers


def check_tanto_value(value: object) -> Decimal:
    """The value of a tanto as a Decimal: 0.01 to 1000 with at most two decimals (D4)."""
    number = None
    if isinstance(value, str | int | float | Decimal) and not isinstance(value, bool):
        try:
            number = parse_decimal(value)  # a float 0.05 reads as "0.05", as typed
        except ValueError:  # an int of more than 4,300 digits
            number = None
    sane = number is not None and TANTO_MIN <= number <= TANTO_MAX
    if not sane or number is None or number != number.quantize(Decimal(1).scaleb(-TANTO_PLACES)):
        raise LimitError(
            f"tanto_value must be an amount from {TANTO_MIN} to {TANTO_MAX} with at most {TANTO_PLACES} decimals",
            "El valor del tanto ha de ser una cantidad de 0,01 a 1000, con dos decimales como mucho.",
        )
    return number


def _number(value: float, where: str, hand: int | None) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise LimitError(f"{where} is not a finite number", "Hay un número que no es finito.", hand)
    if abs(value) > NUMBER_MAX:
        raise LimitError(
            f"{where} is out of range (at most {NUMBER_MAX} in absolute value)",
            "Hay un número demasiado grande.",
            hand,
        )


# -------------------------------------------------------------------- structure


def check_structure(value: Any, depth_max: int, hand: int | None = None, where: str = "") -> None:
    """Nesting, sizes, keys, strings and numbers of a JSON value, without recursion (D3, D7).

    Lists and objects have at most ITEMS_MAX items (the hands of a session are checked apart).
    Every string is printable (newlines and tabs allowed) and at most TEXT_MAX characters.
    """
    stack: list[tuple[Any, int, str]] = [(value, 1, where or "the value")]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, Mapping | list):
            if depth > depth_max:
                raise LimitError(
                    f"too deeply nested (more than {depth_max} levels)",
                    "Hay datos anidados a demasiada profundidad.",
                    hand,
                )
            limit = ITEMS_MAX
            if len(item) > limit:
                raise LimitError(
                    f"{path} has more than {limit} items",
                    f"Hay demasiados elementos (más de {limit}).",
                    hand,
                )
            if isinstance(item, Mapping):
                for key, sub in item.items():
                    _check_text(key, KEY_MAX, "a key", "Una clave", hand, multiline=False)
                    stack.append((sub, depth + 1, f"{path}.{key}"))
            else:
                stack.extend((sub, depth + 1, f"{path}[]") for sub in item)
        elif isinstance(item, str):
            _check_text(item, TEXT_MAX, f"the text of {path}", "Un texto", hand, multiline=True)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int | float):
            _number(item, path, hand)
        else:  # pragma: no cover - json.loads makes nothing else
            raise LimitError(f"{path} is not a JSON value", "Hay un valor que no es JSON.", hand)


def check_hand(hand: object, n: int | None = None) -> None:
    """The limits of one hand (numbered ``n`` when known): structure and a plain-string ``note``."""
    if not isinstance(hand, Mapping):
        return  # the services and the engine say "a hand must be an object"
    if "note" in hand:
        _check_text(hand["note"], NOTES_MAX, "note", "La nota", n, multiline=True)
    change = hand.get("sienta")  # R33: the name of who sits down is a player's name
    if isinstance(change, Mapping) and "player" in change:
        _check_text(change["player"], NAME_MAX, "sienta.player", "El nombre de quien se sienta", n, multiline=False)
    check_structure(hand, HAND_DEPTH_MAX, n, "hand")


SINGLE_LINE_KEYS = {"name": TITLE_MAX, "place": PLACE_MAX, "currency": CURRENCY_MAX, "timezone": TIMEZONE_MAX}


def check_session(session: object) -> None:
    """The limits of a session file (a new table or an import); LimitError names what is wrong."""
    if not isinstance(session, Mapping):
        return  # the engine says "the session must be a JSON object"
    hands = session.get("hands")
    if isinstance(hands, list) and len(hands) > HANDS_MAX:
        raise LimitError(
            f"more than {HANDS_MAX} hands", f"Demasiadas manos: como mucho {HANDS_MAX:,}.".replace(",", ".")
        )
    players = session.get("players")
    if isinstance(players, list):
        for seat, name in enumerate(players, 1):
            _check_text(name, NAME_MAX, f"the name of player {seat}", f"El nombre del asiento {seat}", None, False)
    for key, limit in SINGLE_LINE_KEYS.items():
        if session.get(key) not in (None, ""):
            _check_text(session[key], limit, key, SPANISH_KEYS[key], None, multiline=False)
    if session.get("notes") not in (None, ""):
        _check_text(session["notes"], NOTES_MAX, "notes", SPANISH_KEYS["notes"], None, multiline=True)
    if session.get("date") not in (None, ""):
        _check_text(session["date"], DATE_MAX, "date", SPANISH_KEYS["date"], None, multiline=False)
    for key in ("tanto_value", "tanto"):
        if session.get(key) not in (None, ""):
            check_tanto_value(session[key])
    # the known keys first (their own messages), then everything else but the hands
    check_structure({k: v for k, v in session.items() if k != "hands"}, DEPTH_MAX, None, "session")
    if isinstance(hands, list):
        for n, hand in enumerate(hands, 1):
            check_hand(hand, n)
    elif hands is not None:
        check_structure(hands, DEPTH_MAX - 1, None, "session.hands")


def too_large(size: int | None, limit: int) -> LimitError | None:
    """A body of ``size`` bytes over ``limit``: the error to raise, or None."""
    if size is not None and size > limit:
        return LimitError(
            f"the body is larger than {limit} bytes",
            f"Es demasiado grande: como mucho {limit // 1000:,} KB.".replace(",", "."),
        )
    return None
