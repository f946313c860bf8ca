"""The small formatters every part of the session sheet shares: an isolated name, a seat number,
a suit, the red suits of a sentence, money (when the table gave a tanto value)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from markupsafe import Markup

from scorer.words import RED_SUITS, SUIT_SYMBOLS, money_text

FSI, PDI = "\u2068", "\u2069"  # first-strong isolate … pop directional isolate


def iso(name: str) -> str:
    """A name isolated from the text around it (D8): a right-to-left name cannot reorder "(65)" after it.

    Names come out of :func:`scorer.sheet.context.sheet_context` clean of bidi controls; the template
    isolates the names it shows on their own with ``<bdi>``, this is for names inside sentences.
    """
    return f"{FSI}{name}{PDI}"


def seat(value: Any) -> int | None:
    """A seat number as the session or the ledger gives it (an int or its digits), else None."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def listed(*parts: str) -> str:
    """The parts that say something, with commas: a row's notes."""
    return ", ".join(part for part in parts if part)


def ruleset_of(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> str:
    """The rule set of the night: the ledger's, else the session's rules', else Tresillo."""
    return str(ledger.get("ruleset") or (session.get("rules") or {}).get("ruleset") or "tresillo")


def suit_html(trump: Any) -> dict[str, Any] | None:
    if not isinstance(trump, str):
        return None
    return {"name": trump, "symbol": SUIT_SYMBOLS.get(trump, ""), "red": trump in RED_SUITS}


RED_SUIT_WORDS = re.compile("(" + "|".join(f"{suit} {SUIT_SYMBOLS[suit]}" for suit in RED_SUITS) + ")")


def red_suits(text: object) -> Markup:
    """A sentence (house rules, a change of favour suit) with its "oros ♦", "copas ♥" red as on screen."""
    parts = RED_SUIT_WORDS.split(str(text))  # the suit and its symbol: never a name's ♥
    out = Markup()
    for i, part in enumerate(parts):
        if i % 2:
            name, symbol = part.split(" ")
            out += Markup('{} <span class="suit red">{}</span>').format(name, symbol)
        else:
            out += Markup.escape(part)
    return out


@dataclass(frozen=True)
class Money:
    """What tantos are worth on this sheet: shown only when the table gave a tanto value and the
    ledger has balances (a game of scores has no money)."""

    value: Decimal | None
    currency: str

    @property
    def shown(self) -> bool:
        return self.value is not None

    def text(self, tantos: int, sign: bool = False) -> str:
        """``tantos`` as money ("1.234,50 €"), or "" on a sheet without money."""
        return money_text(tantos, self.value, self.currency, sign=sign) if self.value is not None else ""
