"""Tresillo's view-models: the plato and the cartulina (R5–R18, R30), a hand in one sentence, a hand's page.

What the table page, a hand's page and the live preview of Tresillo show (the people of R33 too),
built on the shared view-models of :mod:`scorer.games.views`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer import evening
from scorer import people as by_person
from scorer.games.balances import BalanceLine, balance_lines, person_lines
from scorer.games.text import _
from scorer.games.views import (
    HandPage,
    _who,
    hand_facts,
    hand_line,
    previous_balances,
    result_words,
    seat_names,
    tanto_of,
    transfer_lines,
)
from scorer.words import CARTULINA_WORDS, PLATO_WORDS, RESULT_WORDS


@dataclass(frozen=True)
class PlatoView:
    amount: int
    kind: str
    words: str


def plato_view(
    plato: Mapping[str, Any] | None, cartulina: Sequence[Mapping[str, Any]], names: Mapping[int, str]
) -> PlatoView:
    """The plato's amount and its state in words (R7)."""
    plato = plato or {}
    amount = int(plato.get("amount", 0))
    kind = str(plato.get("kind", "sin_puesta"))
    if kind == "reservada":
        inside = next((e for e in cartulina if e.get("state") == "en_plato"), None)
        if inside is not None:
            words = _(
                "%(plato)s de %(owner)s (%(amount)s)",
                plato=PLATO_WORDS["reservada"],
                owner=inside.get("person") or _who(inside["owner"], names),
                amount=inside["amount"],
            )
        else:
            words = PLATO_WORDS["reservada"]
    elif kind == "primera":
        words = PLATO_WORDS["primera"]
    elif amount == 0:
        words = _("vacío")
    else:
        words = PLATO_WORDS["sin_puesta"]
    return PlatoView(amount, kind, words)


@dataclass(frozen=True)
class Mark:
    """One reserved puesta written in its owner's box."""

    id: int
    amount: int
    hand: int
    state: str
    words: str

    @property
    def strokes(self) -> int:
        """0 written, 1 diagonal (went into the plato), 2 a full cross (collected or cancelled)."""
        return {"pendiente": 0, "en_plato": 1}.get(self.state, 2)


@dataclass(frozen=True)
class Box:
    seat: int
    name: str
    marks: tuple[Mark, ...]
    older: int = 0  # crossed-out marks before these, not drawn (a long history)


OPEN = ("pendiente", "en_plato")


# the table page draws every open puesta and this many of the latest crossed ones per box:
# its cost stays the same at hand 3,000 as at hand 30 (the sheet draws them all)
CROSSED_SHOWN = 5


def cartulina_view(
    players: Sequence[str],
    cartulina: Sequence[Mapping[str, Any]],
    *,
    crossed: int | None = None,
    seating: Mapping[int, str] | None = None,
    everyone: Sequence[str] = (),
    persons: Sequence[str] | None = None,
) -> list[Box]:
    """One box per player, each reserved puesta a mark in its owner's box, oldest first.

    With ``crossed``, only that many of the latest crossed-out marks of each box are kept
    (the open ones always are); ``older`` counts the others. With ``seating`` (after a change
    of player, R33) the boxes are people's: those seated, then whoever left and made a puesta
    (seat 0); the entries then carry ``person`` (:func:`scorer.people.with_owners`), or ``persons`` says
    it entry by entry (:func:`scorer.people.owners`).
    """
    if seating is not None:  # R33: a box per person, each puesta in its maker's
        owned = [(s, name, list(mine)) for s, name, mine in by_person.boxes(cartulina, seating, everyone, persons)]
    else:
        owned = _by_seat(sorted(cartulina, key=lambda e: int(e["id"])), players)
    boxes: list[Box] = []
    for seat, name, mine in owned:
        shown, older = _latest_crossed(mine, crossed)
        boxes.append(Box(seat, name, tuple(_mark(e) for e in shown), older))
    return boxes


Owned = list[tuple[int, str, list[Mapping[str, Any]]]]  # (seat, name, its puestas) of each box


def _by_seat(ordered: Sequence[Mapping[str, Any]], players: Sequence[str]) -> Owned:
    by_seat: dict[int, list[Mapping[str, Any]]] = {}
    for e in ordered:
        by_seat.setdefault(int(e["owner"]), []).append(e)
    return [(seat, name, by_seat.get(seat, [])) for seat, name in seat_names(players).items()]


def _latest_crossed(mine: list[Mapping[str, Any]], crossed: int | None) -> tuple[list[Mapping[str, Any]], int]:
    """A box's puestas with only the ``crossed`` latest crossed-out ones (the open ones always), and how many
    older ones were left out."""
    if crossed is None:
        return mine, 0
    closed = [i for i, e in enumerate(mine) if e.get("state") not in ("pendiente", "en_plato")]
    if len(closed) <= crossed:
        return mine, 0
    hidden = set(closed[: len(closed) - crossed])
    return [e for i, e in enumerate(mine) if i not in hidden], len(hidden)


def _mark(e: Mapping[str, Any]) -> Mark:
    state = str(e["state"])
    return Mark(
        id=int(e["id"]),
        amount=int(e["amount"]),
        hand=int(e["hand"]),
        state=state,
        words=CARTULINA_WORDS.get(state, state),
    )


def cartulina_then(
    entries: Sequence[Mapping[str, Any]], final: Sequence[Mapping[str, Any]], i: int
) -> list[dict[str, Any]]:
    """The cartulina as it was right after entry ``i`` (0-based; -1: before the first), as on paper:
    every puesta reserved by then, the open ones in their state then, the closed ones crossed as they
    ended (a closed puesta never opens again). The same marks the table page would have shown then."""
    if i < 0:
        return []
    open_then = {int(e["id"]): dict(e) for e in entries[i].get("cartulina", [])}
    upto = int(entries[i].get("n", i + 1))
    made = {
        int(e["id"]): open_then.pop(int(e["id"]), {}) or dict(e)
        for e in final
        if int(e["id"]) in open_then or int(e.get("hand", 0)) <= upto
    }
    made.update(open_then)  # open then, gone from the final cartulina (never, but shown all the same)
    return [made[k] for k in sorted(made)]


def codillo_giver(hand: Mapping[str, Any]) -> int | None:
    """The contra player who gave the codillo (R9): the one with more tricks than the Jugador and the other."""
    tricks = {int(s): int(c) for s, c in (hand.get("tricks") or {}).items()}
    jugador = hand.get("jugador")
    contra = sorted((c, s) for s, c in tricks.items() if s != jugador)
    return contra[-1][1] if contra else None


def result_phrase(hand: Mapping[str, Any], entry: Mapping[str, Any], players: Sequence[str]) -> str:
    """A Tresillo result as the table says it: "bola hecha", "bola cortada", "codillo de Ana",
    "ganada, primeras y se planta" (R9, R13, R19)."""
    result = str(entry.get("result", ""))
    names = seat_names(players)
    if result == "bola":
        return result_words("bola")
    if result == "bola_cortada" or (result == "ganada" and hand.get("bola") == "cortada"):
        return result_words("bola_cortada")
    if result == "codillo":
        giver = codillo_giver(hand)
        return _("codillo de %(name)s", name=_who(giver, names)) if giver is not None else "codillo"
    if result == "ganada" and sorted((hand.get("tricks") or {}).values()) == [0, 0, 5]:
        return _("ganada, primeras y se planta")
    return result_words(result)


def _each(payments: list[tuple[Any, Any, int]], names: Mapping[int, str], verb: str, key: int) -> tuple[str, str]:
    """("Benito", "cobra 10 de cada uno") when every amount is equal, else one by one."""
    who = _who(payments[0][key], names)
    collects = verb == "cobra"
    amounts = {p[2] for p in payments}
    if len(amounts) == 1 and len(payments) > 1:
        amount = amounts.pop()
        return who, _("cobra %(amount)s de cada uno", amount=amount) if collects else _(
            "paga %(amount)s a cada uno", amount=amount
        )
    other = 1 - key
    items = ", ".join(
        _("%(amount)s de %(name)s", amount=p[2], name=_who(p[other], names))
        if collects
        else _("%(amount)s a %(name)s", amount=p[2], name=_who(p[other], names))
        for p in payments
    )
    return who, _("cobra %(list)s", list=items) if collects else _("paga %(list)s", list=items)


def summary(
    entry: Mapping[str, Any],
    before_cartulina: Sequence[Mapping[str, Any]],
    players: Sequence[str],
) -> str:
    """One sentence of what a hand does: "Benito cobra 10 de cada uno y se lleva el plato: 35"."""
    names = seat_names(players)
    event = EVENTS.get(str(entry.get("result")))
    if event is not None:
        return event(entry, before_cartulina, names)
    phrases = _played(entry, before_cartulina, names)
    if not phrases:
        return str(RESULT_WORDS.get(str(entry.get("result")), str(entry.get("result")))).capitalize()
    said: list[str] = []
    subject = None
    for who, what in phrases:
        said.append(what if who == subject else f"{who} {what}")
        subject = who
    if len(said) == 1:
        return said[0]
    return _("%(list)s y %(last)s", list=", ".join(said[:-1]), last=said[-1])


Names = Mapping[int, str]
Phrase = tuple[str, str]  # (subject, predicate): a repeated subject is said once


def _passed(entry: Mapping[str, Any], before: Sequence[Mapping[str, Any]], names: Names) -> str:
    stake = sum(int(t["amount"]) for t in entry.get("transfers", []))
    return _("Todos pasan: %(name)s pone %(amount)s en el plato", name=_who(entry.get("dealer"), names), amount=stake)


def _closed(entry: Mapping[str, Any], before: Sequence[Mapping[str, Any]], names: Names) -> str:
    """R30: the plato given back or shared out."""
    back = [t for t in entry.get("transfers", []) if t.get("from") == "plato"]
    if not back:
        return _("Se cierra la partida: el plato estaba vacío")
    parts = ", ".join(f"{_who(t['to'], names)} {t['amount']}" for t in back)
    if any(t.get("concept") == "reparto" for t in back):
        return _("Se cierra la partida y el plato se reparte: %(list)s", list=parts)
    return _("Se cierra la partida y el plato se devuelve: %(list)s", list=parts)


def _ajuste(entry: Mapping[str, Any], before: Sequence[Mapping[str, Any]], names: Names) -> str:
    """R32: one paying each the same, else every payment."""
    transfers = list(entry.get("transfers", []))
    payers = {t["from"] for t in transfers}
    if len(payers) == 1 and len(transfers) > 1 and "plato" not in {t["to"] for t in transfers}:
        who, what = _each([(t["from"], t["to"], int(t["amount"])) for t in transfers], names, "paga", 0)
        return _("Ajuste: %(who)s %(what)s", who=who, what=what)
    return _("Ajuste: %(list)s", list=", ".join(_ajuste_payment(t, names) for t in transfers))


def _ajuste_payment(t: Mapping[str, Any], names: Names) -> str:
    payer = _who(t["from"], names)
    if t["to"] == "plato":
        return _("%(payer)s paga %(amount)s al plato", payer=payer, amount=t["amount"])
    return _("%(payer)s paga %(amount)s a %(payee)s", payer=payer, amount=t["amount"], payee=_who(t["to"], names))


def _sienta(entry: Mapping[str, Any], before: Sequence[Mapping[str, Any]], names: Names) -> str:
    """R33: who sits down instead of whom, and the pending puestas it cancels."""
    seating = {int(k): str(v) for k, v in (entry.get("seating") or {}).items()}
    changed = [s for s, name in seating.items() if names.get(s) != name]
    words = "; ".join(_("se sienta %(new)s en lugar de %(old)s", new=seating[s], old=names.get(s, s)) for s in changed)
    cancelled = evening.cancelled_puestas(before, entry, names)
    if cancelled:
        listed = ", ".join(
            _("la puesta pendiente de %(owner)s (%(amount)s)", owner=c.owner, amount=c.amount) for c in cancelled
        )
        words += "; " + _("se anula %(list)s", list=listed)
    words = words or _("Cambio de jugador")
    return words[:1].upper() + words[1:]


EVENTS = {"paso": _passed, "cierre": _closed, "ajuste": _ajuste, "sienta": _sienta}
Payments = list[tuple[Any, Any, int]]


def _played(entry: Mapping[str, Any], before: Sequence[Mapping[str, Any]], names: Names) -> list[Phrase]:
    """A played hand's payments by concept, in the order they are told; the new reserved puestas before the
    reserved puesta brought into the plato."""
    by_concept: dict[str, Payments] = {}
    for t in entry.get("transfers", []):
        by_concept.setdefault(str(t.get("concept")), []).append((t["from"], t["to"], int(t["amount"])))
    phrases: list[Phrase] = []
    for concept, say in TOLD:
        if concept in by_concept:
            phrases.extend(say(by_concept[concept], names))
    before_ids = {int(e["id"]) for e in before}
    phrases.extend(
        (_who(e["owner"], names), _("apunta una puesta reservada de %(amount)s en la cartulina", amount=e["amount"]))
        for e in entry.get("cartulina", [])
        if int(e["id"]) not in before_ids
    )
    phrases.extend(_reserved_in(by_concept.get("puesta_reservada", []), names))
    return phrases


def _juego(payments: Payments, names: Names) -> list[Phrase]:
    return [_each(payments, names, "cobra", 1)]


def _condiciones(payments: Payments, names: Names) -> list[Phrase]:
    return [_each(payments, names, "paga", 0)]


def _defended(payments: Payments, names: Names) -> list[Phrase]:
    return [
        (_who(s, names), _("paga la puesta a %(name)s: %(amount)s", name=_who(t, names), amount=a))
        for s, t, a in payments
    ]


def _plato_won(payments: Payments, names: Names) -> list[Phrase]:
    return [(_who(t, names), _("se lleva el plato: %(amount)s", amount=a)) for _s, t, a in payments]


def _bola_cortada(payments: Payments, names: Names) -> list[Phrase]:
    who, what = _each(payments, names, "paga", 0)
    return [(who, _("%(what)s por la bola cortada", what=what))]


def _puesta(payments: Payments, names: Names) -> list[Phrase]:
    return [(_who(s, names), _("pone una puesta de %(amount)s en el plato", amount=a)) for s, _t, a in payments]


def _codillo(payments: Payments, names: Names) -> list[Phrase]:
    return [
        (_who(s, names), _("paga el codillo a %(name)s: %(amount)s", name=_who(t, names), amount=a))
        for s, t, a in payments
    ]


def _reserved_in(payments: Payments, names: Names) -> list[Phrase]:
    return [(_who(s, names), _("pone su puesta reservada en el plato: %(amount)s", amount=a)) for s, _t, a in payments]


# the concepts of a played hand in the order a sentence tells them (the cartulina's new puestas come after)
TOLD = (
    ("juego", _juego),
    ("condiciones", _condiciones),
    ("puesta_defendida", _defended),
    ("plato", _plato_won),
    ("bola_cortada", _bola_cortada),
    ("puesta", _puesta),
    ("codillo", _codillo),
)


@dataclass(frozen=True)
class HandView(HandPage):
    """Everything a Tresillo hand's page shows."""

    plato_before: PlatoView
    plato_after: PlatoView
    cartulina_before: list[Box]
    cartulina_after: list[Box]
    balances_before: list[BalanceLine]
    balances_after: list[BalanceLine]


def hand_view(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> HandView:
    """The view-model of hand ``n`` (1-based): what was entered, transfers, state before and after."""
    hands = list(session.get("hands", []))
    entries = list(ledger.get("hands", []))
    i = n - 1
    hand, entry = hands[i], entries[i]
    at = _Hand(session, ledger, hands, entries, i)
    names = seat_names(at.players)
    before_plato = entries[i - 1].get("plato") if i > 0 else {"amount": 0, "kind": "sin_puesta"}
    previous = previous_balances(ledger, i) or {str(s): 0 for s in names}
    # R33: once a player changed, every number beside a name is that person's money, every puesta in its maker's box
    sides = at.by_person() if by_person.changed(at.everyone) else at.by_seat(previous)
    dealer = entry.get("dealer")
    return HandView(
        n=n,
        line=hand_line(hand, entry, previous, at.players),
        summary=summary(entry, sides.before_open, at.players),
        facts=hand_facts(hand, at.players),
        transfers=transfer_lines(entry, at.players),
        dealer=_who(dealer, names) if dealer is not None else None,
        plato_before=plato_view(before_plato, sides.before_open, names),
        plato_after=sides.plato_after,
        cartulina_before=sides.boxes_before,
        cartulina_after=sides.boxes_after,
        balances_before=sides.balances_before,
        balances_after=sides.balances_after,
    )


@dataclass(frozen=True)
class _Sides:
    """A hand's page before and after it: the plato, the cartulina's boxes and the balances."""

    before_open: Sequence[Mapping[str, Any]]
    plato_after: PlatoView
    boxes_before: list[Box]
    boxes_after: list[Box]
    balances_before: list[BalanceLine]
    balances_after: list[BalanceLine]


class _Hand:
    """Hand ``i`` (0-based) of a table: who sat before and after it, the cartulina then (R33)."""

    def __init__(
        self,
        session: Mapping[str, Any],
        ledger: Mapping[str, Any],
        hands: list[Mapping[str, Any]],
        entries: list[Mapping[str, Any]],
        i: int,
    ) -> None:
        self.session, self.entries, self.hands, self.i = session, entries, hands, i
        self.seats = evening.seatings(session.get("players", []), entries[: i + 1], hands[: i + 1])
        self.players = tuple(self.seats[i][s] for s in sorted(self.seats[i]))
        self.after_players = tuple(self.seats[i + 1][s] for s in sorted(self.seats[i + 1]))
        self.everyone = evening.seatings(session.get("players", []), entries, hands)
        self.before_open = list(entries[i - 1].get("cartulina", [])) if i > 0 else []
        # the cartulina as the table page showed it before the hand and would show it right after
        final = list(ledger.get("cartulina", []))
        self.before, self.after = cartulina_then(entries, final, i - 1), cartulina_then(entries, final, i)
        self.money = tanto_of(session)

    def by_seat(self, previous: Mapping[str, int]) -> _Sides:
        entry, names = self.entries[self.i], seat_names(self.players)
        return _Sides(
            self.before_open,
            plato_view(entry.get("plato"), entry.get("cartulina", []), names),
            cartulina_view(self.players, self.before, crossed=CROSSED_SHOWN),
            cartulina_view(self.after_players, self.after, crossed=CROSSED_SHOWN),
            balance_lines(self.players, previous, self.before, *self.money),
            balance_lines(self.after_players, entry.get("balances", {}), self.after, *self.money),
        )

    def by_person(self) -> _Sides:
        i, entry, everyone = self.i, self.entries[self.i], self.everyone
        before, after = by_person.with_owners(self.before, everyone), by_person.with_owners(self.after, everyone)
        people_before, people_after = by_person.people_before_after(
            self.session.get("players", []), self.entries, self.hands, i
        )
        open_after = [e for e in after if e.get("state") in OPEN]
        return _Sides(
            by_person.with_owners(self.before_open, everyone),
            plato_view(entry.get("plato"), open_after, seat_names(self.players)),
            cartulina_view(
                self.players, before, crossed=CROSSED_SHOWN, seating=self.seats[i], everyone=list(people_before)
            ),
            cartulina_view(
                self.after_players, after, crossed=CROSSED_SHOWN, seating=self.seats[i + 1], everyone=list(people_after)
            ),
            person_lines(people_before, self.seats[i], before, *self.money),
            person_lines(people_after, self.seats[i + 1], after, *self.money),
        )
