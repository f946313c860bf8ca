"""R31, the sum that squares: the balances plus what lies in the pots add up to zero (the players' check
with the chips). Shown on the table page under the answers and on the sheet's answers section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from scorer import words


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
    pots: list[tuple[str, int]] = []
    plato = totals.get("plato")
    if isinstance(plato, Mapping):
        pots.append((_("plato"), int(plato.get("amount", 0))))
    pozo = totals.get("pozo")
    if isinstance(pozo, Mapping):
        pots.append((_("pozo"), int(pozo.get("amount", 0)) + sum(int(r) for r in pozo.get("reserves", ()) or ())))
    if "viuda" in totals:
        pots.append((_("viuda"), int(totals.get("viuda") or 0)))
    if "bote" in totals:
        pots.append((_("bote"), int(totals.get("bote") or 0)))
    return Square(tuple(int(v) for v in balances.values()), tuple(pots))
