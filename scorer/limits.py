"""The input limits of Cartulina: one set, the same for the HTML forms, the JSON API and import.

Everything a table stores passes :func:`check_session` (a new table, an import) or
:func:`check_hand` (a hand added or replaced) in :mod:`scorer.store`; the
forms use the same numbers and :func:`char_problem` to put a Spanish message next
to the field. A value outside the limits raises :class:`LimitError` with a code and
parameters (the pages render them with :mod:`scorer.web.common.messages`) and its English
reason (the API's ``error``); nothing is saved.
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
ANSWER_NOTE_MAX = 200  # a player's note on a hand he disagrees with: one line
ANSWER_BYTES_MAX = 4_096  # the body of one answer (POST …/hands/<n>/answers)
TANTO_MIN = Decimal("0.01")
TANTO_MAX = Decimal("1000")
TANTO_PLACES = 2

# Bidi embeddings, overrides and isolates (LRE RLE PDF LRO RLO, LRI RLI FSI PDI): they reorder
# whatever follows them on the line (D8). Marks (LRM, RLM) and joiners stay allowed.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
MULTILINE = frozenset("\n\r\t")

# The English reason of each limits code (the API's ``error``); the pages' Spanish is in
# scorer.web.common.messages. ``what`` names the value checked (WHAT_WORDS).
ENGLISH = {
    "text_not_a_string": "{what} must be a string",
    "text_too_long": "{what} is longer than {limit} characters",
    "text_bad_char": "{what} contains {problem}",
    "tanto_value_range": "tanto_value must be an amount from {low} to {high} with at most {places} decimals",
    "number_not_finite": "{where} is not a finite number",
    "number_too_large": "{where} is out of range (at most {limit} in absolute value)",
    "too_deep": "too deeply nested (more than {depth} levels)",
    "too_many_items": "{where} has more than {limit} items",
    "not_a_json_value": "{where} is not a JSON value",
    "too_many_hands": "more than {limit} hands",
    "body_too_large": "the body is larger than {limit} bytes",
}
WHAT_WORDS = {"player_name": "the name of player {seat}", "sienta_player": "sienta.player", "key": "a key",
              "text": "the text of {where}"}  # fmt: skip
CHAR_WORDS = {
    "surrogate": "a lone surrogate",
    "bidi": "a bidi control",
    "control": "a control character",
    "unprintable": "a character that is not printable",
}


class LimitError(ValueError):
    """A value outside the limits: ``code`` and ``params`` (the pages), ``reason`` in English, ``hand`` its number."""

    field: str | None = None

    def __init__(self, code: str, hand: int | None = None, **params: Any) -> None:
        self.code = code
        self.params: dict[str, Any] = params
        values = dict(params)
        if "what" in values:
            values["what"] = WHAT_WORDS.get(values["what"], values["what"]).format(**params)
        if "kind" in values:
            values["problem"] = f"{CHAR_WORDS[values['kind']]} {values['char']}"
        self.reason = ENGLISH[code].format(**values)
        self.hand = hand
        super().__init__(self.reason)


# ------------------------------------------------------------------------ texts


def char_kind(char: str, multiline: bool = False) -> tuple[str, str] | None:
    """Why one character may not be stored, as (kind of CHAR_WORDS, "U+XXXX"), or None."""
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        kind = "surrogate"
    elif char in BIDI_CONTROLS:
        kind = "bidi"
    else:
        category = unicodedata.category(char)
        if category == "Cc" and not (multiline and char in MULTILINE):
            kind = "control"
        elif category in ("Co", "Zl", "Zp"):
            kind = "unprintable"
        else:
            return None
    return kind, f"U+{code:04X}"


def char_problem(char: str, multiline: bool = False) -> str | None:
    """Why one character may not be stored (English), or None."""
    problem = char_kind(char, multiline)
    return None if problem is None else f"{CHAR_WORDS[problem[0]]} {problem[1]}"


# A quick first look (C speed) for what char_problem may refuse: control characters, surrogates,
# bidi controls, line/paragraph separators, private use; char_problem then says which one it is.
_SUSPECT = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\uf8ff\U000f0000-\U0010ffff]")


def text_problem(text: str, limit: int, multiline: bool = False) -> tuple[str, dict[str, Any]] | None:
    """What is wrong with a text, as a code and its params (``text_too_long``, ``text_bad_char``); None if fine."""
    if len(text) > limit:
        return "text_too_long", {"limit": limit}
    if _SUSPECT.search(text) is None:
        return None
    for char in text:
        problem = char_kind(char, multiline)
        if problem is not None:
            return "text_bad_char", {"kind": problem[0], "char": problem[1]}
    return None


# Letters that draw nothing: the Hangul fillers, the braille blank (a note of them reads as empty).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Unicode categories that draw nothing alone: spaces and separators, format characters (zero-width
# space and joiners, word joiner, BOM, soft hyphen, marks LRM/RLM), controls, combining marks.
_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cf", "Cc", "Mn", "Me"})


def shows_nothing(text: str) -> bool:
    """True when ``text`` would show as empty: only spaces, zero-width and other invisible characters."""
    return all(c in BLANK_LETTERS or unicodedata.category(c) in _INVISIBLE_CATEGORIES for c in text)


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


def _check_text(value: object, limit: int, what: str, hand: int | None, multiline: bool, **params: Any) -> None:
    if not isinstance(value, str):
        raise LimitError("text_not_a_string", hand, what=what, **params)
    problem = text_problem(value, limit, multiline)
    if problem is not None:
        raise LimitError(problem[0], hand, what=what, **params, **problem[1])


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
        raise LimitError("tanto_value_range", low=str(TANTO_MIN), high=str(TANTO_MAX), places=TANTO_PLACES)
    return number


def _number(value: float, where: str, hand: int | None) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise LimitError("number_not_finite", hand, where=where)
    if abs(value) > NUMBER_MAX:
        raise LimitError("number_too_large", hand, where=where, limit=NUMBER_MAX)


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
            _open_container(item, depth, depth_max, hand, path, stack)
        elif isinstance(item, str):
            _check_text(item, TEXT_MAX, "text", hand, multiline=True, where=path)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int | float):
            _number(item, path, hand)
        else:  # pragma: no cover - json.loads makes nothing else
            raise LimitError("not_a_json_value", hand, where=path)


def _open_container(
    item: Mapping[Any, Any] | list[Any],
    depth: int,
    depth_max: int,
    hand: int | None,
    path: str,
    stack: list[tuple[Any, int, str]],
) -> None:
    """D3: a list or object not too deep nor too long (its keys short texts); its items go on ``stack``."""
    if depth > depth_max:
        raise LimitError("too_deep", hand, depth=depth_max)
    if len(item) > ITEMS_MAX:
        raise LimitError("too_many_items", hand, where=path, limit=ITEMS_MAX)
    if isinstance(item, Mapping):
        for key, sub in item.items():
            _check_text(key, KEY_MAX, "key", hand, multiline=False)
            stack.append((sub, depth + 1, f"{path}.{key}"))
    else:
        stack.extend((sub, depth + 1, f"{path}[]") for sub in item)


def check_hand(hand: object, n: int | None = None) -> None:
    """The limits of one hand (numbered ``n`` when known): structure and a plain-string ``note``."""
    if not isinstance(hand, Mapping):
        return  # the services and the engine say "a hand must be an object"
    if "note" in hand:
        _check_text(hand["note"], NOTES_MAX, "note", n, multiline=True)
    change = hand.get("sienta")  # R33: the name of who sits down is a player's name
    if isinstance(change, Mapping) and "player" in change:
        _check_text(change["player"], NAME_MAX, "sienta_player", n, multiline=False)
    check_structure(hand, HAND_DEPTH_MAX, n, "hand")


# the texts of a session's header: (key, most characters, whether it may hold newlines), checked in this order
SESSION_TEXTS = (
    ("name", TITLE_MAX, False),
    ("place", PLACE_MAX, False),
    ("currency", CURRENCY_MAX, False),
    ("timezone", TIMEZONE_MAX, False),
    ("notes", NOTES_MAX, True),
    ("date", DATE_MAX, False),
)


def check_session(session: object) -> None:
    """The limits of a session file (a new table or an import); LimitError names what is wrong."""
    if not isinstance(session, Mapping):
        return  # the engine says "the session must be a JSON object"
    hands = session.get("hands")
    if isinstance(hands, list) and len(hands) > HANDS_MAX:
        raise LimitError("too_many_hands", limit=HANDS_MAX)
    _check_header(session)
    # the known keys first (their own messages), then everything else but the hands
    check_structure({k: v for k, v in session.items() if k != "hands"}, DEPTH_MAX, None, "session")
    _check_hands(hands)


def _check_header(session: Mapping[str, Any]) -> None:
    """D2, D4: the players' names, the header's texts and the value of a tanto."""
    players = session.get("players")
    if isinstance(players, list):
        for seat, name in enumerate(players, 1):
            _check_text(name, NAME_MAX, "player_name", None, False, seat=seat)
    for key, limit, multiline in SESSION_TEXTS:
        if session.get(key) not in (None, ""):
            _check_text(session[key], limit, key, None, multiline=multiline)
    for key in ("tanto_value", "tanto"):
        if session.get(key) not in (None, ""):
            check_tanto_value(session[key])


def _check_hands(hands: object) -> None:
    """Each hand of a session apart (its number in the message), or whatever stands in their place."""
    if isinstance(hands, list):
        for n, hand in enumerate(hands, 1):
            check_hand(hand, n)
    elif hands is not None:
        check_structure(hands, DEPTH_MAX - 1, None, "session.hands")


def too_large(size: int | None, limit: int) -> LimitError | None:
    """A body of ``size`` bytes over ``limit``: the error to raise, or None."""
    if size is not None and size > limit:
        return LimitError("body_too_large", limit=limit)
    return None


def reject_constant(name: str) -> None:
    """``json.loads(…, parse_constant=reject_constant)``: NaN and Infinity are no numbers JSON allows."""
    raise ValueError(f"{name} is not a number JSON allows")
