"""What the pages of a Tresillo table show of its evening (R30, R33, R34), shared by the blueprints:
the table page and its hand forms (tables), the offline pages and the entries endpoint (api), the
evening's own pages and Tresillo's hand preview.

The people seated for an entry, the balances by person, the end of the evening and the favour suit in
force: all read from the engine's session and ledger, nothing computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scorer import evening, store
from scorer.games import game_of
from scorer.games import views as present


@dataclass(frozen=True)
class PersonLine:
    """A person's balance (R33: money belongs to people); ``seat`` None once they left the table."""

    name: str
    seat: int | None
    tantos: int
    text: str
    money: str | None
    change: int = 0
    change_text: str = ""


def people_lines(
    people: Mapping[str, int],
    seating: Mapping[int, str],
    tanto_value: Decimal | None,
    currency: str,
    before: Mapping[str, int] | None = None,
) -> list[PersonLine]:
    """Balances by person, those seated first in seat order, then those who left."""
    seat_of = {name: seat for seat, name in seating.items()}
    order = sorted(people, key=lambda name: (seat_of.get(name) is None, seat_of.get(name, 0)))
    return [_person_line(name, int(people[name]), seat_of.get(name), tanto_value, currency, before) for name in order]


def _person_line(
    name: str,
    tantos: int,
    seat: int | None,
    tanto_value: Decimal | None,
    currency: str,
    before: Mapping[str, int] | None,
) -> PersonLine:
    change = tantos - int(before.get(name, 0)) if before is not None else 0
    return PersonLine(
        name=name,
        seat=seat,
        tantos=tantos,
        text=present.signed(tantos),
        money=present.money(tantos, tanto_value, currency),
        change=change,
        change_text=present.signed(change) if change else "",
    )


def names_list(seating: Mapping[int, str]) -> list[str]:
    """The names seated, in seat order."""
    return [seating[s] for s in sorted(seating)]


def seating_for(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int | None) -> dict[int, str]:
    """The seating an entry is entered with: now, or the one in force at entry ``n`` (a correction)."""
    seats = evening.seatings(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])
    return seats[-1] if n is None else seats[n - 1]


@dataclass(frozen=True)
class EveningState:
    """What the table page says about the end of the evening."""

    ending: bool  # the keeper said: play on until the plato is won
    ready: bool  # ending, and the plato is empty with nothing pending: the closing is offered
    can_events: bool  # the table takes ajustes and changes of player (Tresillo, open, keeper's link)
    people: list[PersonLine]
    changed: bool  # someone changed seat: balances by person differ from the seats'
    close_how: str | None  # R30: how the table was closed (devolver, repartir), None while open


def evening_state(table: Any, session: Mapping[str, Any], ledger: Mapping[str, Any], can_edit: bool) -> EveningState:
    """The end of the evening as the table page shows it; a game without evenings has none of it."""
    close_how = _close_how(session) if table.closed else None
    if not game_of(table.ruleset).evening:
        return EveningState(ending=False, ready=False, can_events=False, people=[], changed=False, close_how=close_how)
    tanto_value, currency = present.tanto_of(session)
    people = evening.people_balances(session, ledger)
    return EveningState(
        ending=table.ending,
        ready=table.ending and _plato_empty(ledger) and played_since_ending(table),
        can_events=can_edit and not table.closed,
        people=people_lines(people, evening.seating_now(session, ledger), tanto_value, currency),
        changed=evening.has_changes(ledger),
        close_how=close_how,
    )


def _plato_empty(ledger: Mapping[str, Any]) -> bool:
    """Nothing in the plato and no puesta pending or in it: what the closing waits for."""
    amount = int((ledger.get("plato") or {}).get("amount", 0) or 0)
    return amount == 0 and not any(e.get("state") in ("pendiente", "en_plato") for e in ledger.get("cartulina") or [])


def played_since_ending(table: Any) -> bool:
    """Whether an entry was recorded after "última vuelta" was marked: an empty plato at the mark itself
    was not won yet, play goes on until someone takes it."""
    mark = table.ending_at
    return mark is not None and any(h.deleted_at is None and h.created_at >= mark for h in table.hands)


def _close_how(session: Mapping[str, Any]) -> str | None:
    hands = session.get("hands") or []
    last = hands[-1] if hands else {}
    return str(last["close"]) if isinstance(last, Mapping) and last.get("close") else None


def favor_in_force(table: Any) -> str | None:
    """The favour suit in force after the last entry (the ledger's top-level ``favor_suit``, R34)."""
    suit = store.read(table).totals.get("favor_suit")  # the ledger's top keys, not a copy of every entry
    return str(suit) if suit else None
