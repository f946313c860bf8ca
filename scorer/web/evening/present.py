"""What the evening's pages show before confirming (Tresillo): an ajuste or a change of player previewed
(R32, R33), the two closings (R30), the puestas a change at each seat would cancel.

Every amount is the engine's answer to the entry previewed (``store.preview_hand`` /
``preview_replace`` / ``closing_previews``): nothing is computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from scorer import evening, store
from scorer.games import tresillo_views
from scorer.games import views as present
from scorer.web.common.evening import PersonLine, names_list, people_lines


@dataclass(frozen=True)
class EventPreview:
    """What an ajuste or a change of player does, as the engine settles it (nothing saved yet)."""

    summary: str
    transfers: list[present.TransferLine]
    people: list[PersonLine]
    cancelled: list[evening.Cancelled]
    plato: tresillo_views.PlatoView


def event_preview(
    session: Mapping[str, Any], ledger: Mapping[str, Any], hand: Mapping[str, Any], entry: Mapping[str, Any], n: int
) -> EventPreview:
    """The preview of entry ``n`` (1-based; the next one or one being corrected)."""
    players = session.get("players") or []
    hands = [*list(session.get("hands") or [])[: n - 1], hand]
    entries = [*list(ledger.get("hands") or [])[: n - 1], entry]
    before_seating, after_seating = evening.seatings(players, entries, hands)[-2:]
    before_people, after_people = _people_around(evening.people_series(players, entries, hands))
    before_open = list(entries[-2].get("cartulina") or []) if len(entries) > 1 else []
    tanto_value, currency = present.tanto_of(session)
    names = names_list(before_seating)
    return EventPreview(
        summary=tresillo_views.summary(entry, before_open, names),
        transfers=present.transfer_lines(entry, names),
        people=people_lines(after_people, after_seating, tanto_value, currency, before_people),
        cancelled=evening.cancelled_puestas(before_open, entry, before_seating),
        plato=tresillo_views.plato_view(entry.get("plato"), entry.get("cartulina") or [], after_seating),
    )


def _people_around(series: list[dict[str, int]]) -> tuple[dict[str, int], dict[str, int]]:
    """The balances by person before the entry and after it (before the first entry, everyone at zero)."""
    after = series[-1]
    return (series[-2] if len(series) > 1 else {name: 0 for name in after}), after


@dataclass(frozen=True)
class ClosingChoice:
    """One closing (R30) previewed: what each person seated gets from the plato, and their final balance."""

    how: str
    title: str
    words: str
    gets: list[tuple[str, int]]
    people: list[PersonLine]
    cancelled: list[evening.Cancelled]


CLOSING_TITLES = {
    "devolver": (
        _l("Devolver el plato"),
        _l("Lo que hay en el plato vuelve a quien lo puso desde la última vez que se ganó."),
    ),
    "repartir": (
        _l("Repartir el plato"),
        _l("El plato se reparte a partes iguales; lo que no se puede dividir va, de uno en uno, a los asientos 1, 2…"),
    ),
}


def closing_choices(
    session: Mapping[str, Any], ledger: Mapping[str, Any], previews: Mapping[str, Mapping[str, Any]]
) -> list[ClosingChoice]:
    """Each closing previewed, person by person, in the order the engine gave them."""
    seating = evening.seating_now(session, ledger)
    open_now = [e for e in ledger.get("cartulina") or [] if e.get("state") in ("pendiente", "en_plato")]
    return [_closing_choice(session, ledger, how, entry, seating, open_now) for how, entry in previews.items()]


def _closing_choice(
    session: Mapping[str, Any],
    ledger: Mapping[str, Any],
    how: str,
    entry: Mapping[str, Any],
    seating: Mapping[int, str],
    open_now: list[Any],
) -> ClosingChoice:
    """One closing: what each person seated gets from the plato, and everyone's balance after it."""
    hands = [*list(session.get("hands") or []), {"close": how}]
    entries = [*list(ledger.get("hands") or []), entry]
    after = evening.people_series(session.get("players") or [], entries, hands)[-1]
    tanto_value, currency = present.tanto_of(session)
    title, words = CLOSING_TITLES.get(how, (how, ""))
    return ClosingChoice(
        how=how,
        title=str(title),
        words=str(words),
        gets=list(evening.share_of_people(entry, seating).items()),
        people=people_lines(after, seating, tanto_value, currency),
        cancelled=evening.cancelled_puestas(open_now, entry, seating),
    )


@dataclass(frozen=True)
class SeatPending:
    """The pending puestas a change at ``seat`` would cancel (R33), as the engine settles it now."""

    seat: int
    name: str
    cancelled: list[evening.Cancelled]


def pending_by_seat(table: Any, seating: Mapping[int, str]) -> list[SeatPending]:
    """For every seat, what a change of player there would cancel, by the engine (a preview per seat,
    nothing saved). The cambio page carries it so that, offline, the keeper sees it before confirming
    (what the server knew when the page was made)."""
    before = list(store.read(table).ledger_copy().get("cartulina") or [])
    if not any(e.get("state") == "pendiente" for e in before):
        return [SeatPending(seat, seating[seat], []) for seat in sorted(seating)]
    stranger = _stranger(table)
    return [
        SeatPending(seat, seating[seat], _cancelled_by(table, before, seat, stranger, seating))
        for seat in sorted(seating)
    ]


def _stranger(table: Any) -> str:
    """A name never used at the table ("Nadie 0", "Nadie 1"…): who sits down in the previews."""
    taken = {
        name.casefold()
        for name in evening.names_used(store.read(table).session_copy(), store.read(table).ledger_copy())
    }
    return next(f"Nadie {k}" for k in range(len(taken) + 1) if f"nadie {k}" not in taken)


def _cancelled_by(
    table: Any, before: list[Any], seat: int, stranger: str, seating: Mapping[int, str]
) -> list[evening.Cancelled]:
    """What a stranger sitting at ``seat`` would cancel; nothing when the engine refuses the change."""
    try:
        entry = store.preview_hand(table, {"sienta": {"seat": seat, "player": stranger}})
    except store.Invalid:
        return []
    return evening.cancelled_puestas(before, entry, seating)
