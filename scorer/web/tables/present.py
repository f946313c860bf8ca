"""The view-models only the table's pages use: the table page, the list of hands, a hand's history,
the settle-up of a closed table, the preview of a hand of another rule set. What the pages and the
games' modules share is in :mod:`scorer.games.views`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorer import evening
from scorer import people as by_person
from scorer.games import game_of
from scorer.games.balances import BalanceLine, balance_lines, people_balance_lines
from scorer.games.tresillo_views import CROSSED_SHOWN, OPEN, Box, PlatoView, cartulina_view, plato_view
from scorer.games.views import (
    FIELD_WORDS,
    HandLine,
    Roles,
    TeamView,
    TransferLine,
    _who,
    game_summary,
    hand_line,
    money,
    previous_balances,
    roles,
    ruleset_of,
    seat_names,
    split_text,
    state_words,
    tanto_of,
    teams_view,
    transfer_lines,
)
from scorer.sheet.settleup import settle_up
from scorer.words import N_, lance_word, suit_text, time_text

# the results a hand list can be filtered by: (value, words, ledger results)
# (the words are read in the page's language: "ganadas" is "won" in English; the game words stay)
RESULT_FILTERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("ganada", N_("ganadas"), ("ganada",)),
    ("bola", N_("bola hecha"), ("bola",)),
    ("bola_cortada", N_("bola cortada"), ("bola_cortada",)),
    ("puesta", "puestas", ("puesta",)),
    ("codillo", "codillos", ("codillo",)),
    ("rendida", "rendidas", ("rendida",)),
    ("defendida", "defendidas", ("defendida_ganada", "defendida_puesta", "defendida_codillo",
                                 "defendida_codillo_pobre")),
    ("paso", N_("todos pasan"), ("paso",)),
)  # fmt: skip


def _result_key(hand: Mapping[str, Any], entry: Mapping[str, Any]) -> str:
    result = str(entry.get("result", ""))
    if result == "ganada" and hand.get("bola") == "cortada":
        return "bola_cortada"
    for value, _words, results in RESULT_FILTERS:
        if result in results:
            return value
    return result


@dataclass(frozen=True)
class HandList:
    """A page of the full list of hands (newest first) and what it was filtered by."""

    lines: list[HandLine]
    total: int  # entries in the ledger
    matching: int  # entries that pass the filters
    page: int
    pages: int
    player: str | None
    result: str | None
    people: list[str]  # everyone who sat at the table (R33), the player filter's choices
    results: list[tuple[str, str]]  # the result filters this table's rule set offers


def _result_filters(ruleset: str) -> list[tuple[str, str]]:
    """The result filters this rule set offers: (value, words in the page's language)."""
    return [(v, _(w)) for v, w, _r in RESULT_FILTERS] if game_of(ruleset).result_filters else []


def _wanted(
    hands: Sequence[Mapping[str, Any]],
    entries: Sequence[Mapping[str, Any]],
    seats: Sequence[Mapping[int, str]],
    player: str | None,
    result: str | None,
) -> list[int]:
    """The indexes of the entries that pass the filters, newest first."""
    wanted = []
    for i in range(len(entries) - 1, -1, -1):
        hand = hands[i] if i < len(hands) else {}
        if player is not None and seats[i].get(hand.get("jugador")) != player:  # type: ignore[arg-type]
            continue
        if result is not None and _result_key(hand, entries[i]) != result:
            continue
        wanted.append(i)
    return wanted


def _page_of(wanted: list[int], page: int, per_page: int) -> tuple[list[int], int, int]:
    """The indexes shown on ``page`` (brought within the pages there are), the page and the number of pages."""
    pages = max(1, -(-len(wanted) // per_page))
    page = min(max(1, page), pages)
    return wanted[(page - 1) * per_page : page * per_page], page, pages


def hand_list(
    session: Mapping[str, Any],
    ledger: Mapping[str, Any],
    *,
    player: str | None = None,
    result: str | None = None,
    page: int = 1,
    per_page: int = 50,
) -> HandList:
    """Every hand, newest first, ``per_page`` at a time; only the lines of the page shown are built.

    ``player`` keeps the hands that person played as Jugador (by name: a seat may change hands, R33);
    ``result`` one of :data:`RESULT_FILTERS`.
    """
    players = list(session.get("players", []))
    hands = list(session.get("hands", []))
    entries = list(ledger.get("hands", []))
    ruleset = ruleset_of(session)
    seats = evening.seatings(players, entries, hands)  # who sat where at each entry
    people = list(dict.fromkeys(name for seating in seats for _seat, name in sorted(seating.items())))
    player = player if player in people else None
    offered = _result_filters(ruleset)
    result = result if any(v == result for v, _w in offered) else None
    wanted = _wanted(hands, entries, seats, player, result)
    shown, page, pages = _page_of(wanted, page, per_page)
    lines = [
        hand_line(
            hands[i] if i < len(hands) else {},
            entries[i],
            previous_balances(ledger, i),
            [seats[i][s] for s in sorted(seats[i])],
            ruleset,
        )
        for i in shown
    ]
    return HandList(lines, len(entries), len(wanted), page, pages, player, result, people, offered)


# -------------------------------------------------------------- whole page


@dataclass(frozen=True)
class TableView:
    """Everything the table page shows."""

    players: tuple[str, ...]
    roles: Roles | None  # None once the table is closed
    plato: PlatoView
    cartulina: list[Box]
    balances: list[BalanceLine]
    pending_total: int
    hands: list[HandLine]
    hand_count: int
    closed: bool
    keeper: str | None
    tanto_value: Decimal | None
    currency: str
    ruleset: str
    extras: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PaymentLine:
    payer: str
    payee: str
    tantos: int
    money: str | None


def settle_up_lines(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> list[PaymentLine]:
    """Who pays whom to square the money once the table is closed: the fewest payments, by person
    (the ledger's ``people`` when it has them, R33), else by the names at the table."""
    people = ledger.get("people")
    if isinstance(people, Mapping) and people:
        balances = {str(name): int(v) for name, v in people.items()}
    else:
        names = seat_names(list(session.get("players", [])))
        balances = {names.get(int(seat), str(seat)): int(v) for seat, v in (ledger.get("balances") or {}).items()}
    try:
        payments = settle_up(balances)
    except ValueError:  # tantos still on the plato: nothing to square yet
        return []
    tanto_value, currency = tanto_of(session)
    return [
        PaymentLine(p.payer, p.payee, p.amount, money(p.amount, tanto_value, currency, sign=False)) for p in payments
    ]


def _roles_now(players: Sequence[str], now: list[str], ledger: Mapping[str, Any], closed: bool) -> Roles | None:
    """Who deals and who plays the next hand; None once closed, or with no dealer to name."""
    next_dealer = ledger.get("next_dealer")
    if not closed and isinstance(next_dealer, int) and len(players) in (3, 4):
        return roles(now, next_dealer)
    return None


def _last_lines(
    session: Mapping[str, Any], ledger: Mapping[str, Any], seats: Sequence[Mapping[int, str]], last: int
) -> list[HandLine]:
    """The ``last`` hands, newest first, each with the names seated at it (R33)."""
    hands = list(session.get("hands", []))
    entries = list(ledger.get("hands", []))
    lines = []
    for i in range(len(entries) - 1, max(0, len(entries) - last) - 1, -1):
        hand = hands[i] if i < len(hands) else {}
        during = [seats[i][s] for s in sorted(seats[i])]
        lines.append(hand_line(hand, entries[i], previous_balances(ledger, i), during, ruleset_of(session)))
    return lines


@dataclass(frozen=True)
class _Owned:
    """The cartulina with whose each puesta is (R33), read once for the whole page."""

    moved: bool  # someone changed seat
    changes: bool  # the ledger has changes of player: balances by person
    final: list[dict[str, Any]]  # the final cartulina as the ledger has it
    persons: list[str] | None  # whose each of its puestas is, when any of the above
    open_people: list[dict[str, Any]]  # its open puestas, each with ``person`` when any of the above

    @property
    def open(self) -> list[dict[str, Any]]:
        """The open puestas as the plato shows them (their owners only when someone moved)."""
        if self.moved:
            return self.open_people
        return [e for e in self.final if e.get("state") in OPEN]


def _owned(ledger: Mapping[str, Any], seats: Sequence[Mapping[int, str]]) -> _Owned:
    final_cartulina = list(ledger.get("cartulina", []))
    moved = by_person.changed(seats)
    changes = evening.has_changes(ledger)
    if not (moved or changes):
        return _Owned(moved, changes, final_cartulina, None, [])
    # whose each puesta is, read once for the whole cartulina; only the open ones are copied with it (a
    # long evening's hundreds of crossed-out puestas are grouped by it, never copied)
    persons = by_person.owners(final_cartulina, seats)
    open_people = [
        {**e, "person": person} for e, person in zip(final_cartulina, persons, strict=True) if e.get("state") in OPEN
    ]
    return _Owned(moved, changes, final_cartulina, persons, open_people)


def _balances(
    session: Mapping[str, Any], ledger: Mapping[str, Any], now: list[str], owned: _Owned
) -> list[BalanceLine]:
    """The balances: by person once someone changed places (R33: money belongs to people), else by seat."""
    tanto_value, currency = tanto_of(session)
    final_cartulina = list(ledger.get("cartulina", []))
    if owned.changes:
        return people_balance_lines(session, ledger, final_cartulina, tanto_value, currency, owned=owned.open_people)
    return balance_lines(now, ledger.get("balances", {}), final_cartulina, tanto_value, currency)


def table_view(session: Mapping[str, Any], ledger: Mapping[str, Any], *, last: int = 8) -> TableView:
    """The view-model of the table page: roles, plato, cartulina, balances and the last hands."""
    players = tuple(session.get("players", []))
    entries = list(ledger.get("hands", []))
    closed = bool(entries) and entries[-1].get("result") == "cierre"
    tanto_value, currency = tanto_of(session)
    # R33: who sat where at each entry (the ledger's and the session's own lists: asked again by other views)
    seats = evening.seatings(players, ledger.get("hands") or entries, session.get("hands") or [])
    now = [seats[-1][s] for s in sorted(seats[-1])] if players else []
    names = seat_names(now)
    owned = _owned(ledger, seats)
    balances = _balances(session, ledger, now, owned)
    keeper = session.get("keeper")
    rules = session.get("rules") or {}
    return TableView(
        players=players,
        roles=_roles_now(players, now, ledger, closed),
        plato=plato_view(ledger.get("plato"), owned.open, names),
        cartulina=cartulina_view(
            now,
            owned.final,
            crossed=CROSSED_SHOWN,
            seating=seats[-1] if owned.moved else None,
            persons=owned.persons,
        ),
        balances=balances,
        pending_total=sum(b.pending for b in balances),
        hands=_last_lines(session, ledger, seats, last),
        hand_count=len(entries),
        closed=closed,
        keeper=names.get(keeper) if isinstance(keeper, int) else None,
        tanto_value=tanto_value,
        currency=currency,
        ruleset=str(rules.get("ruleset", "tresillo")),
    )


# ------------------------------------------------------------------ history

ACTION_WORDS = {"create": _l("anotada"), "edit": _l("corregida"), "delete": _l("borrada"), "restore": _l("restaurada")}


def _mapping_text(key: str, value: Any, names: Mapping[int, str]) -> str | None:
    """An ajuste (R32) or a change of player (R33) in words; None for another field."""
    if key == "ajuste" and isinstance(value, Mapping):
        return evening.ajuste_text(value, names)
    if key == "sienta" and isinstance(value, Mapping):
        return _("%(player)s en el asiento %(seat)s", player=value.get("player", ""), seat=value.get("seat", ""))
    return None


def _seat_words(value: Any, _hand: Mapping[str, Any], names: Mapping[int, str], _count: int) -> str:
    return _who(value, names)


def _suit_words(value: Any, _hand: Mapping[str, Any], _names: Mapping[int, str], _count: int) -> str:
    return suit_text(str(value))


def _lance_words(value: Any, _hand: Mapping[str, Any], _names: Mapping[int, str], _count: int) -> str:
    return lance_word(value)


def _tricks_words(_value: Any, hand: Mapping[str, Any], _names: Mapping[int, str], count: int) -> str:
    return split_text(hand, count) or "—"


# a stored field's value in words, by field: (value, the hand, its players' names by seat, how many play)
VALUE_WORDS = {
    "jugador": _seat_words,
    "defensor": _seat_words,
    "dealer": _seat_words,
    "trump": _suit_words,
    "favor": _suit_words,
    "lance": _lance_words,
    "tricks": _tricks_words,
}


def _value_text(key: str, value: Any, hand: Mapping[str, Any], players: Sequence[str]) -> str:
    names = seat_names(players)
    if value is None:
        return "—"
    if key in VALUE_WORDS:
        return VALUE_WORDS[key](value, hand, names, len(players))
    said = _mapping_text(key, value, names)
    if said is not None:
        return said
    return _("sí") if value is True else str(value)


@dataclass(frozen=True)
class HistoryLine:
    action: str
    at: str
    changes: list[str]


def history_line(event: Any, players: Sequence[str], timezone: str | None = None) -> HistoryLine:
    """One change of a hand: what, when (the table's local time if known, else UTC) and which fields changed."""
    before = dict(event.before or {})
    after = dict(event.after or {})
    changes: list[str] = []
    if event.action == "edit":
        for key in [*before, *(k for k in after if k not in before)]:
            if before.get(key) != after.get(key):
                label = FIELD_WORDS.get(key, key)
                old = _value_text(key, before.get(key), before, players)
                new = _value_text(key, after.get(key), after, players)
                changes.append(f"{label}: {old} → {new}")
    at = time_text(event.at, timezone) if isinstance(event.at, dt.datetime) else str(event.at)
    return HistoryLine(str(ACTION_WORDS.get(event.action, str(event.action))), at, changes)


@dataclass(frozen=True)
class GamePreview:
    """What the hand form shows before saving a hand of another rule set."""

    summary: str
    transfers: list[TransferLine]
    after: str
    scores: list[TeamView]


def game_preview(
    session: Mapping[str, Any], hand: Mapping[str, Any], entry: Mapping[str, Any], previous: Mapping[str, Any] | None
) -> GamePreview:
    """The engine's entry for a hand not yet saved, in words."""
    players = list(session.get("players", []))
    ruleset = ruleset_of(session)
    rules = session.get("rules") or {}
    teams = teams_view(players, entry.get("scores", {}), entry.get("winner")) if game_of(ruleset).teams else []
    return GamePreview(
        summary=game_summary(session, hand, entry, previous),
        transfers=transfer_lines(entry, players),
        after=state_words(ruleset, entry, rules, players),
        scores=teams,
    )
