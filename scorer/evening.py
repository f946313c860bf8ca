"""The events of a real evening, read from a session and its ledger (pure, standard library only).

Tresillo's entries that use up no deal — an ajuste (R32), a change of player (R33,
``sienta``) and the closing (R30, ``devolver`` or ``repartir``) — and the people
behind the seats: money belongs to people (R33), so balances and the settle-up are
by name. Everything here is derived from what the engine answered (``seating`` of a
``sienta`` entry, the top-level ``people``), never stored. The pages
(:mod:`scorer.games.views`), the sheet (:mod:`scorer.sheet.build`) and the CSV
(:mod:`scorer.games.exports`) all read the evening through these functions.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer.words import AJUSTE_REASONS, N_, suit_text
from scorer.words import translate as _

PLATO = "plato"
TODOS = "todos"


def entry_kind(hand: Mapping[str, Any]) -> str:
    """What an entry of the session is: ``hand``, ``pass``, ``ajuste``, ``sienta``, ``favor`` or ``close``."""
    for key in ("ajuste", "sienta", "favor", "close", "pass"):
        if hand.get(key) is not None:
            return key
    return "hand"


def is_event(hand: Mapping[str, Any]) -> bool:
    """An entry that uses up no deal and is not a hand of cards (R30, R32, R33, R34)."""
    return entry_kind(hand) in ("ajuste", "sienta", "favor", "close")


# ------------------------------------------------------------------ seating


def _seat_key(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


_SEATINGS_KEPT = 8
Kept = tuple[tuple[str, ...], tuple[object, ...], tuple[object, ...], list[dict[int, str]]]
_seatings_kept: list[Kept] = []


def seatings(
    players: Sequence[str], entries: Sequence[Mapping[str, Any]], hands: Sequence[Mapping[str, Any]] = ()
) -> list[dict[int, str]]:
    """Who sat where for each entry, and after the last one (see :func:`_seatings`), read-only.

    The views of a table ask it several times of one history, each with its own copy of the lists
    but the very same entry and hand objects in them (a settled entry is never changed: an edit
    settles new ones). The last answers are kept with those objects: the same history again is
    answered at once, and one that only adds entries to a kept one (a hand just saved) walks only
    the new entries. Checking the objects one by one costs far less than reading each entry; and the
    very same lists again (the views of one page share the revision's ledger and hands) are known
    without even that.
    """
    names = tuple(players)
    for asked in tuple(_asked):  # the very lists of a history just asked about (the views of one page)
        if asked[0] is entries and asked[1] is hands and asked[2] == (len(entries), len(hands), names):
            return asked[3]
    made = _kept_or_made(names, players, entries, hands)
    _asked.insert(0, (entries, hands, (len(entries), len(hands), names), made))
    del _asked[_SEATINGS_KEPT:]
    return made


# the lists last asked about, kept alive with their lengths (a list grown since is not the one answered)
_asked: list[tuple[object, object, tuple[int, int, tuple[str, ...]], list[dict[int, str]]]] = []


def _kept_or_made(
    names: tuple[str, ...],
    players: Sequence[str],
    entries: Sequence[Mapping[str, Any]],
    hands: Sequence[Mapping[str, Any]],
) -> list[dict[int, str]]:
    """:func:`seatings` from the longest kept history that ``entries`` begins with, else from the start."""
    cut = hands[: len(entries)]  # a hand beyond the last entry changes no seating
    found = _longest_kept(names, entries, cut)
    if found is None:
        made = _seatings(players, entries, hands)
    elif len(found[1]) == len(entries):
        return found[3]
    else:
        start = len(found[1])
        made = _seatings(players, entries, hands, start=start, before=found[3][:start], current=found[3][start])
    _seatings_kept.insert(0, (names, tuple(entries), tuple(cut), made))
    del _seatings_kept[_SEATINGS_KEPT:]
    return made


def _longest_kept(
    names: tuple[str, ...], entries: Sequence[Mapping[str, Any]], cut: Sequence[Mapping[str, Any]]
) -> Kept | None:
    """The longest kept answer whose history ``entries`` (and ``cut``, their hands) begin with, if any."""
    fitting = [kept for kept in tuple(_seatings_kept) if _may_fit(kept, names, entries, len(cut))]
    for kept in sorted(fitting, key=lambda kept: -len(kept[1])):  # the longest kept history first
        if _same(kept[1], entries) and _same(kept[2], cut):
            return kept
    return None


def _may_fit(kept: Kept, names: tuple[str, ...], entries: Sequence[Mapping[str, Any]], cut: int) -> bool:
    """The cheap tests first: the same players, not longer, ending in the entry at its place."""
    length = len(kept[1])
    return (
        length <= len(entries)
        and kept[0] == names
        and min(cut, length) == len(kept[2])
        and (not length or kept[1][-1] is entries[length - 1])
    )


def _same(kept: tuple[object, ...], now: Sequence[object]) -> bool:
    """Whether ``now`` starts with ``kept``: the very objects (a tuple compares each pair by identity
    first, in C), or failing that equal ones, which seat the same people all the same."""
    return kept == tuple(now[: len(kept)])


def _seatings(
    players: Sequence[str],
    entries: Sequence[Mapping[str, Any]],
    hands: Sequence[Mapping[str, Any]] = (),
    *,
    start: int = 0,
    before: list[dict[int, str]] | None = None,
    current: dict[int, str] | None = None,
) -> list[dict[int, str]]:
    """Who sat where for each entry (the seating its money counts for), and after the last one.

    ``result[i]`` is the seating in force during entry ``i``; ``result[len(entries)]`` the
    seating now. A ``sienta`` entry changes the seating from the next entry on (R33): its
    ledger ``seating`` says the new one (or, failing that, the session entry itself).

    Read-only: the entries between two changes share one seating (one dict per change, not one
    per entry). From ``start`` on, given the answer ``before`` it and the seating ``current`` then.
    """
    if current is None:
        current = {seat: str(name) for seat, name in enumerate(players, 1)}
    out: list[dict[int, str]] = before if before is not None else []
    append = out.append
    for i in range(start, len(entries)):
        entry = entries[i]
        append(current)
        if entry.get("result") == "sienta":
            current = _seated(entry, hands[i] if i < len(hands) else None, current)
    append(current)
    return out


def _seated(entry: Mapping[str, Any], hand: Mapping[str, Any] | None, current: dict[int, str]) -> dict[int, str]:
    """R33: the seating after a ``sienta`` entry: its ledger ``seating`` (or, failing that, its session entry)."""
    seating = entry.get("seating")
    if isinstance(seating, Mapping):
        return {s: str(n) for s, n in ((_seat_key(k), v) for k, v in seating.items()) if s is not None}
    change = hand.get("sienta") if hand is not None else None
    if isinstance(change, Mapping) and _seat_key(change.get("seat")) is not None:
        return {**current, int(str(change["seat"])): str(change.get("player", ""))}
    return current


def seating_now(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> dict[int, str]:
    """Who sits where now (after every change of player): the caller's own dict."""
    return dict(seatings(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])[-1])


def names_used(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> list[str]:
    """Every person who has sat at this table, in the order they first sat."""
    seen: dict[str, None] = {}
    every = seatings(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])
    for seating, _same_one in itertools.groupby(every):  # shared until someone changes seat: nobody new
        for seat in sorted(seating):
            seen.setdefault(seating[seat], None)
    return list(seen)


# ------------------------------------------------------------------- people


def people_series(
    players: Sequence[str], entries: Sequence[Mapping[str, Any]], hands: Sequence[Mapping[str, Any]] = ()
) -> list[dict[str, int]]:
    """Each person's balance after each entry (R33: a seat's tantos count for whoever sits there then).

    Persons appear in the order they first sat; one who left keeps their balance.
    """
    seats = seatings(players, entries, hands)
    people: dict[str, int] = {}
    for seating in seats:
        for seat in sorted(seating):
            people.setdefault(seating[seat], 0)
    before: dict[int, int] = {seat: 0 for seat in seats[0]}
    series = []
    for i, entry in enumerate(entries):
        balances = entry.get("balances")
        if isinstance(balances, Mapping):
            for seat, name in seats[i].items():
                after = int(balances.get(str(seat), before.get(seat, 0)))
                people[name] += after - before.get(seat, 0)
                before[seat] = after
        series.append(dict(people))
    return series


def people_balances(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> dict[str, int]:
    """Each person's final balance: the engine's ``people`` (R33), else the seats' balances by name."""
    people = ledger.get("people")
    if isinstance(people, Mapping):
        return {str(k): int(v) for k, v in people.items()}
    series = people_series(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])
    if series:
        return series[-1]
    return {str(name): 0 for name in session.get("players") or []}


def has_changes(ledger: Mapping[str, Any]) -> bool:
    """Whether anyone changed seat: then balances by person differ from balances by seat."""
    return any(e.get("result") == "sienta" for e in ledger.get("hands") or [])


# ------------------------------------------------------------------- ajuste


def split_note(note: object) -> tuple[str, str]:
    """(quick reason, the rest) of an ajuste's note: "renuncio: de Benito" → ("renuncio", "de Benito")."""
    text = str(note or "").strip()
    folded = text.casefold()
    for reason in AJUSTE_REASONS:
        if folded == reason.casefold():
            return reason, ""
        if folded.startswith(reason.casefold() + ":"):
            return reason, text[len(reason) + 1 :].strip()
    return "", text


def join_note(reason: str, text: str) -> str:
    """The note stored for a quick reason and a free text (R32's "why")."""
    reason, text = reason.strip(), " ".join(text.split())
    if reason and text:
        return f"{reason}: {text}"
    return reason or text


def _who(seat: object, seating: Mapping[int, str]) -> str:
    key = _seat_key(seat)
    return seating.get(key, str(seat)) if key is not None else str(seat)


def ajuste_text(ajuste: Mapping[str, Any], seating: Mapping[int, str]) -> str:
    """ "Benito paga 25 al plato", "Ana paga 10 a cada uno de los demás", "Carmen paga 5 a Diego"."""
    payer = _who(ajuste.get("from"), seating)
    amount = ajuste.get("amount")
    to = ajuste.get("to")
    if to == PLATO:
        return _("%(payer)s paga %(amount)s al plato", payer=payer, amount=amount)
    if to == TODOS:
        return _("%(payer)s paga %(amount)s a cada uno de los demás", payer=payer, amount=amount)
    return _("%(payer)s paga %(amount)s a %(payee)s", payer=payer, amount=amount, payee=_who(to, seating))


def sienta_text(change: Mapping[str, Any], seating_before: Mapping[int, str]) -> str:
    """ "Diego deja el asiento 4; se sienta Elena"."""
    seat = _seat_key(change.get("seat"))
    player = str(change.get("player", ""))
    leaver = seating_before.get(seat) if seat is not None else None
    if leaver:
        return _("%(leaver)s deja el asiento %(seat)s; se sienta %(player)s", leaver=leaver, seat=seat, player=player)
    return _("se sienta %(player)s en el asiento %(seat)s", player=player, seat=seat)


# P11, O7: the games whose closing shares out pots of their own (Tresillo's R30 says which way, below)
CLOSE_SHARES = {"pozo_viuda": N_("cierre: se reparten el pozo y la viuda"), "ombre": N_("cierre: se reparte el bote")}


def close_text(how: object, ruleset: str = "tresillo") -> str:
    """The closing in words (R30; P11 and O7 share out their own pots)."""
    if ruleset in CLOSE_SHARES:
        return _(CLOSE_SHARES[ruleset])
    return _("cierre: se reparte el plato") if how == "repartir" else _("cierre: se devuelve el plato")


def event_text(hand: Mapping[str, Any], seating_before: Mapping[int, str], ruleset: str = "tresillo") -> str:
    """One entry that is not a hand of cards, in words (its note not included)."""
    kind = entry_kind(hand)
    if kind == "ajuste" and isinstance(hand.get("ajuste"), Mapping):
        return _("ajuste: %(what)s", what=ajuste_text(hand["ajuste"], seating_before))
    if kind == "sienta" and isinstance(hand.get("sienta"), Mapping):
        return _("cambio de jugador: %(what)s", what=sienta_text(hand["sienta"], seating_before))
    if kind == "favor":
        return favor_text(hand.get("favor"))
    if kind == "close":
        return close_text(hand.get("close"), ruleset)
    return ""


def favor_text(suit: object) -> str:
    """A change of favour suit in words (R34)."""
    return _("cambio de palo de favor: desde la mano siguiente, %(suit)s", suit=suit_text(str(suit)))


@dataclass(frozen=True, slots=True)
class FavorSpan:
    """One favour suit of the evening (R34): from which entry on (1 = the start) it was in force."""

    since: int  # the number of the first entry it applies to
    suit: str | None  # None: no favour suit


def favor_history(session: Mapping[str, Any]) -> list[FavorSpan]:
    """The favour suits of the evening in order: the table's, then each change (R34), from the entry after it."""
    rules = session.get("rules") or {}
    return _favor_spans(rules.get("favor_suit") or None, tuple(session.get("hands") or ()), 0, [])


def _favor_spans(first: Any, hands: tuple[object, ...], start: int, spans: list[FavorSpan]) -> list[FavorSpan]:
    """The spans of ``hands`` from ``start`` on, after ``spans`` (those of the hands before it)."""
    spans = spans or [FavorSpan(1, first or None)]
    for n in range(start, len(hands)):
        hand = hands[n]
        if (type(hand) is dict or isinstance(hand, Mapping)) and hand.get("favor") is not None:
            spans.append(FavorSpan(n + 2, str(hand["favor"])))
    return spans


_FAVOR_KEPT = 8
_favor_kept: list[tuple[object, tuple[object, ...], tuple[FavorSpan, ...]]] = []  # (table's suit, hands, spans)


def favor_history_shared(session: Mapping[str, Any]) -> tuple[FavorSpan, ...]:
    """:func:`favor_history` of a session whose hands are never changed in place (a table's settled state,
    shared read-only by the pages). As :func:`seatings`, the last answers are kept with their hands: a
    history that only adds hands to a kept one (a hand just saved) reads only the new ones."""
    rules = session.get("rules") or {}
    first = rules.get("favor_suit") or None
    hands = tuple(session.get("hands") or ())
    start, spans = 0, []
    for suit, kept, kept_spans in tuple(_favor_kept):
        if suit == first and start < len(kept) <= len(hands) and kept == hands[: len(kept)]:
            start, spans = len(kept), list(kept_spans)
    if start == len(hands) and spans:
        return tuple(spans)
    made = tuple(_favor_spans(first, hands, start, spans))
    _favor_kept.insert(0, (first, hands, made))
    del _favor_kept[_FAVOR_KEPT:]
    return made


def favor_lines(session: Mapping[str, Any]) -> list[str]:
    """The favour suits of the evening in words when the table changed it (R34): the table page, the sheet."""
    return span_lines(favor_history(session))


def span_lines(spans: Sequence[FavorSpan]) -> list[str]:
    """:func:`favor_lines` of the spans :func:`favor_history` read."""
    if len(spans) < 2:
        return []
    none = _("ninguno")
    return [
        _("Desde la mano %(n)s: %(suit)s.", n=span.since, suit=suit_text(span.suit) if span.suit else none)
        if span.since > 1
        else _("Al empezar: %(suit)s.", suit=suit_text(span.suit) if span.suit else none)
        for span in spans
    ]


# ---------------------------------------------------------------- previews


@dataclass(frozen=True, slots=True)
class Cancelled:
    """A reserved puesta a change of player or a closing cancels (R30, R33)."""

    id: int
    owner: str
    amount: int
    hand: int


def cancelled_puestas(
    before: Sequence[Mapping[str, Any]], entry: Mapping[str, Any], seating: Mapping[int, str]
) -> list[Cancelled]:
    """The pending puestas open before an entry that the entry takes off the cartulina (become ``anulada``)."""
    still = {int(e["id"]) for e in entry.get("cartulina") or ()}
    return [
        Cancelled(int(e["id"]), _who(e.get("owner"), seating), int(e.get("amount", 0)), int(e.get("hand", 0)))
        for e in before
        if e.get("state") == "pendiente" and int(e["id"]) not in still
    ]


def share_of_people(entry: Mapping[str, Any], seating: Mapping[int, str]) -> dict[str, int]:
    """What each person seated gets from the plato in an entry (a closing's preview), seat order."""
    got = {seating[seat]: 0 for seat in sorted(seating)}
    for t in entry.get("transfers") or ():
        seat = _seat_key(t.get("to"))
        if t.get("from") == PLATO and seat is not None and seat in seating:
            got[seating[seat]] += int(t.get("amount", 0))
    return got
