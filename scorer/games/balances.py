"""The balances beside each name on a table's pages: by seat, or by person once a player changed (R33)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scorer import evening
from scorer import people as by_person
from scorer.games.text import _
from scorer.games.views import money, seat_names
from scorer.words import signed


@dataclass(frozen=True)
class BalanceLine:
    seat: int
    name: str
    tantos: int
    text: str
    money: str | None
    pending: int  # reserved puestas still owed (pendiente) by this player
    net: int  # balance once those puestas are paid
    net_money: str | None

    @property
    def net_text(self) -> str:
        """The net balance with its sign, as every other number ("−155", never "-155")."""
        return signed(self.net)


def balance_lines(
    players: Sequence[str],
    balances: Mapping[str, int],
    cartulina: Sequence[Mapping[str, Any]],
    tanto_value: Decimal | None,
    currency: str,
) -> list[BalanceLine]:
    """Each player's balance in tantos and money, and net of the puestas they still owe (R31), seat order."""
    lines = []
    for seat, name in seat_names(players).items():
        tantos = int(balances.get(str(seat), 0))
        pending = sum(int(e["amount"]) for e in cartulina if int(e["owner"]) == seat and e.get("state") == "pendiente")
        net = tantos - pending
        lines.append(
            BalanceLine(
                seat=seat,
                name=name,
                tantos=tantos,
                text=signed(tantos),
                money=money(tantos, tanto_value, currency),
                pending=pending,
                net=net,
                net_money=money(net, tanto_value, currency),
            )
        )
    return lines


def people_balance_lines(
    session: Mapping[str, Any],
    ledger: Mapping[str, Any],
    cartulina: Sequence[Mapping[str, Any]],
    tanto_value: Decimal | None,
    currency: str,
    *,
    owned: Sequence[Mapping[str, Any]] | None = None,
) -> list[BalanceLine]:
    """Balances by person (R33): those seated in seat order, then those who left (``seat`` 0).

    A seat's pending puestas are its present occupant's (the leaver's were cancelled). ``owned``:
    the cartulina's entries with their owners already read (:func:`scorer.people.with_owners`); its
    open ones are enough, only the pending puestas count.
    """
    seats = evening.seatings(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])
    return person_lines(
        evening.people_balances(session, ledger),
        seats[-1],
        owned if owned is not None else by_person.with_owners(cartulina, seats),
        tanto_value,
        currency,
    )


def person_lines(
    people: Mapping[str, int],
    seating: Mapping[int, str],
    cartulina: Sequence[Mapping[str, Any]],
    tanto_value: Decimal | None,
    currency: str,
) -> list[BalanceLine]:
    """Balances by person (R33), those seated first (cartulina entries carry ``person``)."""
    return [
        BalanceLine(
            seat=p.seat,
            name=p.name if p.seat else _("%(name)s (se fue)", name=p.name),
            tantos=p.tantos,
            text=signed(p.tantos),
            money=money(p.tantos, tanto_value, currency),
            pending=p.pending,
            net=p.tantos - p.pending,
            net_money=money(p.tantos - p.pending, tanto_value, currency),
        )
        for p in by_person.balances(people, seating, cartulina)
    ]
