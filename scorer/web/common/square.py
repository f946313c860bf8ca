"""R31, the sum that squares: the balances plus what lies in the pots add up to zero (the players' check
with the chips). Shown on the table page under the answers and on the sheet's answers section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from scorer import words
from scorer.words import N_


@dataclass(frozen=True, slots=True)
class Square:
    """R31: the balances plus what lies in the pots add up to zero (the players' check with the chips)."""

    balances: tuple[int, ...]
    pots: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(self.balances) + sum(amount for _word, amount in self.pots)

    @property
    def squares(self) -> bool:
        return self.total == 0

    @property
    def balances_text(self) -> str:
        return words.signed(sum(self.balances))

    @property
    def pots_text(self) -> str:
        return " + ".join(f"{words.plain(amount)} ({word})" for word, amount in self.pots)


def square(totals: Mapping[str, Any]) -> Square | None:
    """The R31 check of a ledger's totals; None for a game without balances (bandos counts tantos per team)."""
    balances = totals.get("balances")
    if not isinstance(balances, Mapping) or not balances:
        return None
    return Square(tuple(int(v) for v in balances.values()), tuple(_pots(totals)))


def _pots(totals: Mapping[str, Any]) -> list[tuple[str, int]]:
    """What lies in the game's pots, each named: the plato, the pozo (with its reserves), the viuda, the bote."""
    found = [
        (N_("plato"), _pot(totals.get("plato"))),
        (N_("pozo"), _pozo(totals.get("pozo"))),
        (N_("viuda"), _count(totals, "viuda")),
        (N_("bote"), _count(totals, "bote")),
    ]
    return [(_(word), amount) for word, amount in found if amount is not None]  # only the pots the game has


def _pot(pot: object) -> int | None:
    return int(pot.get("amount", 0)) if isinstance(pot, Mapping) else None


def _pozo(pozo: object) -> int | None:
    if not isinstance(pozo, Mapping):
        return None
    return int(pozo.get("amount", 0)) + sum(int(r) for r in pozo.get("reserves", ()) or ())


def _count(totals: Mapping[str, Any], key: str) -> int | None:
    return int(totals.get(key) or 0) if key in totals else None
