"""People, not seats (R33): whose money and whose puesta each number on a page is.

After a change of player a seat's balance mixes two people's money, and a puesta written
in seat 4's box may belong to someone who has left. Every page (the hand detail, the
table, the closing, the sheet) reads who is who through these functions, derived from the
ledger the engine answered (``seating`` of a ``sienta`` entry, ``people``), never stored.

Standard library only; the words ("se fue") stay with the pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer import evening

Seating = Mapping[int, str]


def changed(seats: Sequence[Seating]) -> bool:
    """Whether anyone changed seat over these seatings (then seats and people differ)."""
    first = seats[0] if seats else None
    return any(s is not first and dict(s) != dict(first or {}) for s in seats[1:])


def _int(value: object) -> int | None:
    if type(value) is int:  # as the ledger writes it (a bool is not a seat: it goes the long way)
        return value
    try:
        return int(str(value))
    except ValueError:
        return None


def puesta_owner(puesta: Mapping[str, Any], seats: Sequence[Seating]) -> str:
    """The person who made a reserved puesta: whoever sat in its ``owner`` seat during hand ``hand``.

    ``seats`` is :func:`scorer.evening.seatings` (one seating per entry, then the one now).
    """
    seat = _int(puesta.get("owner"))
    hand = _int(puesta.get("hand"))
    if not seats:
        return str(puesta.get("owner", ""))
    index = hand - 1 if hand is not None and 0 < hand <= len(seats) else len(seats) - 1
    seating = seats[index]
    return seating.get(seat, str(puesta.get("owner", ""))) if seat is not None else str(puesta.get("owner", ""))


def owners(cartulina: Sequence[Mapping[str, Any]], seats: Sequence[Seating]) -> list[str]:
    """The name of whoever made each cartulina entry, in the same order (:func:`puesta_owner`)."""
    count = len(seats)
    out = []
    for e in cartulina:
        seat, hand = e.get("owner"), e.get("hand")
        if type(seat) is int and type(hand) is int and 0 < hand <= count:  # as the ledger writes them
            out.append(seats[hand - 1].get(seat) or puesta_owner(e, seats))
        else:
            out.append(puesta_owner(e, seats))
    return out


def with_owners(cartulina: Sequence[Mapping[str, Any]], seats: Sequence[Seating]) -> list[dict[str, Any]]:
    """Copies of cartulina entries, each with ``person``: the name of whoever made it."""
    return [{**e, "person": person} for e, person in zip(cartulina, owners(cartulina, seats), strict=True)]


def order(names: Sequence[str], seating: Seating) -> list[tuple[int, str]]:
    """People as (seat, name): those seated in seat order, then those who left (seat 0) in first-sat order."""
    seat_of = {name: seat for seat, name in seating.items()}
    seated = [(seat, seating[seat]) for seat in sorted(seating)]
    return seated + [(0, name) for name in dict.fromkeys(names) if name not in seat_of]


@dataclass(frozen=True, slots=True)
class PersonBalance:
    seat: int  # 0: has left the table
    name: str
    tantos: int
    pending: int  # their reserved puestas still owed (pendiente)


def balances(
    people: Mapping[str, int], seating: Seating, cartulina: Sequence[Mapping[str, Any]]
) -> list[PersonBalance]:
    """Each person's balance and pending puestas (``cartulina`` entries carry ``person``)."""
    pending: dict[object, int] = {}
    for e in cartulina:  # one pass, not one per person
        if e.get("state") == "pendiente":
            person = e.get("person")
            pending[person] = pending.get(person, 0) + int(e.get("amount", 0))
    return [
        PersonBalance(seat, name, int(people.get(name, 0)), pending.get(name, 0))
        for seat, name in order(list(people), seating)
    ]


def people_before_after(
    players: Sequence[str], entries: Sequence[Mapping[str, Any]], hands: Sequence[Mapping[str, Any]], index: int
) -> tuple[dict[str, int], dict[str, int]]:
    """Each person's balance before and after entry ``index`` (0-based), R33."""
    after = evening.people_series(players, entries[: index + 1], hands[: index + 1])
    before = evening.people_series(players, entries[:index], hands[:index]) if index > 0 else []
    return (dict(before[-1]) if before else {str(p): 0 for p in players}), (dict(after[-1]) if after else {})


def boxes(
    cartulina: Sequence[Mapping[str, Any]],
    seating: Seating,
    everyone: Sequence[str] = (),
    persons: Sequence[str] | None = None,
) -> list[tuple[int, str, list[Mapping[str, Any]]]]:
    """One cartulina box per person: (seat, name, their entries). Seated people in seat order, each
    with a box; then whoever left, only if they made a puesta (entries carry ``person``, or ``persons``
    says it entry by entry: :func:`owners`)."""
    mine: dict[str, list[Mapping[str, Any]]] = {}
    if persons is None:
        persons = [str(e.get("person", "")) for e in cartulina]
    for e, person in sorted(zip(cartulina, persons, strict=True), key=lambda pair: int(pair[0]["id"])):
        mine.setdefault(str(person), []).append(e)
    out = []
    for seat, name in order([*everyone, *mine], seating):
        if seat or mine.get(name):
            out.append((seat, name, mine.get(name, [])))
    return out
