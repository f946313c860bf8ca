"""Tresillo: the plato and the cartulina of docs/rules/tresillo.md (R1–R34).

Besides the hands, a session may hold events of the evening that use up no deal: an
*ajuste* (R32), a change of player (*sienta*, R33) and the closing (R30, ``devolver`` or
``repartir``). Money belongs to people: the state keeps who sits where and what each
person has won or lost in earlier stints, so the ledger's ``people`` is derived at the end.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Final, NamedTuple

from .core import (
    JSON,
    HandError,
    bool_value,
    check_keys,
    check_pass,
    decided,
    describe,
    hand_entry,
    int_value,
    is_int,
    next_seat,
    option_values,
    others,
    required,
    resolve_dealer,
    rule_number,
    rule_word,
    seat_map,
    seat_value,
    tricks_value,
    word_value,
)
from .details import Detail, Moved
from .tresillo_hand import (
    BOLA_VALUE,
    LANCE_VALUE,
    RESULT_OF_CASE,
    SUITS,
    Played,
    Tricks,
    condition_parts,
    contra_pair,
    defended_outcome,
    per_participant,
    puesta_amount,
    read_played,
    read_tricks,
    rendida_defensor,
    split_text,
)

SIN_PUESTA: Final = "sin_puesta"
PRIMERA: Final = "primera"
RESERVADA: Final = "reservada"

PLAYED_KEYS: Final = (
    "jugador", "lance", "trump", "estuches", "contraestuches", "tricks",
    "primeras", "bola", "rendida", "defensor", "dealer", "note",
)  # fmt: skip

OPTION_DEFAULTS: Final[dict[str, Any]] = {
    "favor_suit": None,
    "vuelta_solera": True,
    "dealer_stake": 5,
    "enchilada": 0,
    "rounding": 5,
    "favor_doubling": "double_rounded",
    "vuelta_at_favor": True,
    "solo_codillo": "codillo_only",
    "failed_bola": "pays_bola",
}
CLOSINGS: Final = ("devolver", "repartir")  # R30
EVENT_KEYS: Final = ("ajuste", "sienta", "favor")  # R32, R33, R34


@dataclass(frozen=True, slots=True)
class Options:
    """The house rules of format.md, checked."""

    favor_suit: str | None = None
    vuelta_solera: bool = True
    dealer_stake: int = 5
    enchilada: int = 0
    rounding: int = 5
    favor_doubling: str = "double_rounded"
    vuelta_at_favor: bool = True
    solo_codillo: str = "codillo_only"  # R24
    failed_bola: str = "pays_bola"


def parse_options(rules: Mapping[str, Any]) -> Options:
    """Check every option of the session's rules; HandError names the bad one."""
    values = option_values(rules, OPTION_DEFAULTS, None)
    favor = values["favor_suit"]
    return Options(
        favor_suit=None if favor is None else rule_word(values, "favor_suit", SUITS, "R15"),
        vuelta_solera=bool_value(values["vuelta_solera"], "rule vuelta_solera", "vuelta_solera"),
        dealer_stake=rule_number(values, "dealer_stake", 0, "R5"),
        enchilada=rule_number(values, "enchilada", 0, "R6"),
        rounding=rule_number(values, "rounding", 1, "R14"),
        favor_doubling=rule_word(values, "favor_doubling", ("double_rounded", "round_doubled"), "R15"),
        vuelta_at_favor=bool_value(values["vuelta_at_favor"], "rule vuelta_at_favor", "vuelta_at_favor"),
        solo_codillo=rule_word(values, "solo_codillo", ("codillo_only", "codillo_and_conditions"), "R24"),
        failed_bola=rule_word(values, "failed_bola", ("pays_bola", "free"), "R19"),
    )


class Puesta(NamedTuple):
    """A reserved puesta written on the cartulina."""

    id: int
    owner: int
    amount: int
    hand: int
    state: str  # pendiente, en_plato, cobrada, anulada, devuelta, repartida

    def as_json(self) -> JSON:
        return {"id": self.id, "owner": self.owner, "amount": self.amount, "hand": self.hand, "state": self.state}


_by_id = operator.itemgetter(0)  # a Puesta's id


class Closed(NamedTuple):
    """Persistent list of cartulina entries that reached a final state (newest first)."""

    puesta: Puesta
    rest: Closed | None


class State(NamedTuple):
    """Everything the next hand needs to know; balances are derived from transfers."""

    options: Options
    seats: int
    balances: tuple[int, ...]
    plato: int
    kind: str
    contributions: tuple[int, ...]  # per seat, into the current plato since it was last taken (R30)
    open: tuple[Puesta, ...]  # pendiente and en_plato entries, by id
    closed: Closed | None
    next_id: int
    next_dealer: int
    finished: bool = False
    # R33: who sits at each seat, each sitter's seat balance when they sat down, and the
    # money of earlier stints (name, tantos) in the order people first sat.
    seating: tuple[str, ...] = ()
    sat_at: tuple[int, ...] = ()
    stints: tuple[tuple[str, int], ...] = ()


def people_balances(state: State) -> dict[str, int]:
    """R33: each person's balance by name, in the order they first sat (R31 holds for it too)."""
    people: dict[str, int] = {}
    for name, amount in state.stints:
        people[name] = people.get(name, 0) + amount
    for seat, name in enumerate(state.seating):
        people[name] = people.get(name, 0) + state.balances[seat] - state.sat_at[seat]
    return people


@lru_cache(maxsize=64)
def active_seats(seats: int, dealer: int) -> tuple[int, ...]:
    """R3: the three seats that receive cards, in order of play from the dealer's right."""
    order = []
    seat = dealer
    for _ in range(seats):
        seat = next_seat(seat, seats)
        order.append(seat)
    return tuple(s for s in order if seats == 3 or s != dealer)


# ---------------------------------------------------------- one hand's work


class _Desk:
    """The mutable scratch pad of one hand; the result is frozen into a new State."""

    def __init__(self, state: State, n: int) -> None:
        self.state = state
        self.n = n
        self.balances = list(state.balances)
        self.plato = state.plato
        self.kind = state.kind
        self.contributions = list(state.contributions)
        self.open = list(state.open)
        self.closed = state.closed
        self.next_id = state.next_id
        self.transfers: list[JSON] = []

    def pay(self, source: int, target: int | str, amount: int, concept: str, detail: Detail) -> None:
        """Seat ``source`` pays a seat or the plato."""
        if amount <= 0:
            return
        self.balances[source - 1] -= amount
        if target == "plato":
            self.plato += amount
            self.contributions[source - 1] += amount
        else:
            assert isinstance(target, int)
            self.balances[target - 1] += amount
        self.transfers.append(Moved.of(source, target, amount, concept, detail))

    def give_back(self, target: int, amount: int, concept: str, detail: Detail) -> None:
        """The plato pays a seat."""
        if amount <= 0:
            return
        self.plato -= amount
        self.balances[target - 1] += amount
        self.transfers.append(Moved.of("plato", target, amount, concept, detail))

    def close_puesta(self, index: int, final: str) -> None:
        entry = self.open.pop(index)
        self.closed = Closed(_with_state(entry, final), self.closed)

    def place_puesta(self, owner: int, amount: int, into_plato: bool, detail: Detail) -> None:
        """R22: a puesta goes into a plato sin_puesta, else onto the cartulina."""
        if into_plato:
            self.pay(owner, "plato", amount, "puesta", detail)
            self.kind = PRIMERA
        else:
            self.open.append(Puesta(self.next_id, owner, amount, self.n, "pendiente"))
            self.next_id += 1

    def take_plato(self, winner: int) -> None:
        """R17–R18: the winner takes the plato; the largest pending puesta goes in."""
        amount = self.plato
        for i, entry in enumerate(self.open):
            if entry.state == "en_plato":
                self.close_puesta(i, "cobrada")
                break
        self.give_back(winner, amount, "plato", Detail("plato", amount=amount))
        self.contributions = [0] * len(self.contributions)
        self.kind = SIN_PUESTA
        pending = [(i, e) for i, e in enumerate(self.open) if e.state == "pendiente"]
        if pending:
            # R18: the largest, ties the oldest (lowest id; open is kept by id)
            i, entry = max(pending, key=lambda pair: (pair[1].amount, -pair[1].id))
            self.open[i] = _with_state(entry, "en_plato")
            self.pay(
                entry.owner,
                "plato",
                entry.amount,
                "puesta_reservada",
                Detail("puesta_reservada", hand=entry.hand, amount=entry.amount),
            )
            self.kind = RESERVADA

    def freeze(self, dealer: int | None, result: str, next_dealer: int, finished: bool = False) -> tuple[State, JSON]:
        s = self.state
        new = State(  # in the order of State's fields (by position: once a hand, keywords cost more)
            s.options,
            s.seats,
            tuple(self.balances),
            self.plato,
            self.kind,
            tuple(self.contributions),
            tuple(self.open),
            self.closed,
            self.next_id,
            next_dealer,
            finished,
            s.seating,
            s.sat_at,
            s.stints,
        )
        entry = hand_entry(dealer, result, self.transfers, new.balances)
        entry["plato"] = {"amount": new.plato, "kind": new.kind}
        entry["cartulina"] = [e.as_json() for e in new.open]
        return new, entry


def _no_dealer(hand: Mapping[str, Any], what: str, rule: str) -> None:
    """Events of the evening use up no deal: their dealer is null (R30, R32, R33); ``what`` is an entry kind."""
    if hand.get("dealer") is not None:
        raise HandError("entry_has_dealer", "dealer", entry=what, rule=rule)


def _event_body(hand: Mapping[str, Any], what: str, rule: str) -> object:
    """The body of an evening's event (``what``: ajuste, sienta): its only other keys are a null dealer and a note."""
    check_keys(hand, (what, "dealer", "note"), what)
    _no_dealer(hand, what, rule)
    return hand[what]


def _share_plato(desk: _Desk, seats: int) -> None:
    """R30 repartir: the plato in equal shares, the odd tantos one each to seats 1, 2, …"""
    total = desk.plato
    share, odd = divmod(total, seats)
    for seat in range(1, seats + 1):
        extra = 1 if seat <= odd else 0
        why = Detail("reparto_resto" if extra else "reparto", total=total, seats=seats, share=share)
        desk.give_back(seat, share + extra, "reparto", why)


def _ajuste_target(raw: object, seats: int) -> int | str:
    """R32: an ajuste goes to a seat, to the plato or to every other seat (``todos``)."""
    if raw in ("plato", "todos"):
        return str(raw)
    if is_int(raw):
        return seat_value(raw, "ajuste to", seats, "to")
    raise HandError("ajuste_bad_target", "to", value=describe(raw))


def _sienta_change(state: State, hand: Mapping[str, Any]) -> tuple[int, str]:
    """R33: the seat and the name of who sits down there, nobody seated already."""
    body = _event_body(hand, "sienta", "R33")
    if not isinstance(body, Mapping):
        raise HandError("sienta_not_an_object", "sienta")
    check_keys(body, ("seat", "player"), "sienta_body")
    seat = seat_value(required(body, "seat"), "sienta seat", state.seats, "seat")
    name = required(body, "player")
    if not isinstance(name, str) or not name.strip():
        raise HandError("sienta_player_not_a_name", "player", value=describe(name))
    for other, seated in enumerate(state.seating, 1):
        if seated.strip() == name.strip():
            raise HandError("player_already_seated", "player", name=name.strip(), seat=other)
    return seat, name


def _with_state(entry: Puesta, state: str) -> Puesta:
    return Puesta(entry.id, entry.owner, entry.amount, entry.hand, state)  # what _replace makes, at a call's cost


# ----------------------------------------------------------------- rule set


class Tresillo:
    """The rule set of docs/rules/tresillo.md."""

    name: str = "tresillo"
    player_counts: tuple[int, ...] = (3, 4)

    events: tuple[str, ...] = EVENT_KEYS

    def begin(self, players: tuple[str, ...], rules: Mapping[str, Any], first_dealer: int) -> State:
        count = len(players)
        return State(
            options=parse_options(rules),
            seats=count,
            balances=(0,) * count,
            plato=0,
            kind=SIN_PUESTA,
            contributions=(0,) * count,
            open=(),
            closed=None,
            next_id=1,
            next_dealer=first_dealer,
            seating=players,
            sat_at=(0,) * count,
            stints=tuple((name, 0) for name in players),
        )

    def header(self, state: State) -> JSON:
        return {}

    def summary(self, state: State) -> JSON:
        every: list[Puesta] = list(state.open)
        node = state.closed
        while node is not None:
            every.append(node.puesta)
            node = node.rest
        every.sort(key=_by_id)
        return {
            "balances": seat_map(state.balances),
            "plato": {"amount": state.plato, "kind": state.kind},
            "cartulina": [e.as_json() for e in every],
            "next_dealer": state.next_dealer,
            "people": people_balances(state),
            "favor_suit": state.options.favor_suit,  # R34: the one in force after the last entry
        }

    def play(self, state: State, hand: Mapping[str, Any], n: int) -> tuple[State, JSON]:
        if state.finished:
            raise HandError("after_closing", None, rule="R30")
        if "close" in hand:
            return self._close(state, hand, n)
        if "ajuste" in hand:
            return self._ajuste(state, hand, n)
        if "sienta" in hand:
            return self._sienta(state, hand, n)
        if "favor" in hand:
            return self._favor(state, hand, n)
        dealer = resolve_dealer(hand, state.next_dealer, state.seats)
        if "pass" in hand:
            check_pass(hand)
            desk = self._deal(state, n, dealer)
            return desk.freeze(dealer, "paso", next_seat(dealer, state.seats))  # R29
        check_keys(hand, PLAYED_KEYS, "played")
        return self._played(state, hand, n, dealer)

    # R5–R6
    def _deal(self, state: State, n: int, dealer: int) -> _Desk:
        desk = _Desk(state, n)
        stake = state.options.dealer_stake
        desk.pay(dealer, "plato", stake, "dar", Detail("dar", amount=stake))
        enchilada = state.options.enchilada
        if enchilada and desk.kind == SIN_PUESTA:
            desk.pay(dealer, "plato", enchilada, "enchilada", Detail("enchilada", amount=enchilada))
            desk.kind = PRIMERA
        return desk

    # R30
    def _close(self, state: State, hand: Mapping[str, Any], n: int) -> tuple[State, JSON]:
        check_keys(hand, ("close", "dealer", "note"), "closing")
        how = word_value(hand["close"], "close", CLOSINGS)
        _no_dealer(hand, "closing", "R30")
        desk = _Desk(state, n)
        if how == "devolver":
            # every contribution since the plato was last taken goes back to the seat (R33: to
            # whoever sits there now)
            for seat, amount in enumerate(state.contributions, 1):
                desk.give_back(seat, amount, "devolucion", Detail("devolucion", amount=amount))
        else:
            _share_plato(desk, state.seats)
        in_plato = "devuelta" if how == "devolver" else "repartida"
        while desk.open:
            entry = desk.open[0]
            desk.close_puesta(0, in_plato if entry.state == "en_plato" else "anulada")
        desk.kind = SIN_PUESTA
        return desk.freeze(None, "cierre", state.next_dealer, finished=True)

    # R32
    def _ajuste(self, state: State, hand: Mapping[str, Any], n: int) -> tuple[State, JSON]:
        body = _event_body(hand, "ajuste", "R32")
        if not isinstance(body, Mapping):
            raise HandError("ajuste_not_an_object", "ajuste")
        check_keys(body, ("from", "to", "amount"), "ajuste_body")
        source = seat_value(required(body, "from"), "ajuste from", state.seats, "from")
        target = _ajuste_target(required(body, "to"), state.seats)
        if target == source:
            raise HandError("ajuste_to_itself", "to", seat=source)
        amount = int_value(required(body, "amount"), "ajuste amount", 1, field="amount")
        desk = _Desk(state, n)
        kind = desk.kind  # R32: a payment into the plato does not change its state
        if target == "todos":
            for seat in others(state.seats, source):
                desk.pay(source, seat, amount, "ajuste", Detail("ajuste_cada", amount=amount))
        elif target == "plato":
            desk.pay(source, "plato", amount, "ajuste", Detail("ajuste_plato", amount=amount))
        else:
            desk.pay(source, target, amount, "ajuste", Detail("ajuste", amount=amount))
        desk.kind = kind
        return desk.freeze(None, "ajuste", state.next_dealer)

    # R34
    def _favor(self, state: State, hand: Mapping[str, Any], n: int) -> tuple[State, JSON]:
        check_keys(hand, ("favor", "dealer", "note"), "favor")
        _no_dealer(hand, "favor", "R34")
        suit = word_value(required(hand, "favor"), "favor", SUITS)
        if suit == state.options.favor_suit:
            raise HandError("favor_same_suit", "favor", suit=suit)
        new, entry = _Desk(state, n).freeze(None, "favor", state.next_dealer)  # no money, no deal
        new = new._replace(options=replace(state.options, favor_suit=suit))
        entry["favor_suit"] = suit
        return new, entry

    # R33
    def _sienta(self, state: State, hand: Mapping[str, Any], n: int) -> tuple[State, JSON]:
        seat, name = _sienta_change(state, hand)
        desk = _Desk(state, n)
        for i in range(len(desk.open) - 1, -1, -1):  # the leaver's pending puestas are cancelled
            entry = desk.open[i]
            if entry.owner == seat and entry.state == "pendiente":
                desk.close_puesta(i, "anulada")
        leaver = state.seating[seat - 1]
        stint = (leaver, state.balances[seat - 1] - state.sat_at[seat - 1])
        new, entry_json = desk.freeze(None, "sienta", state.next_dealer)
        seating = (*state.seating[: seat - 1], name, *state.seating[seat:])
        sat_at = (*state.sat_at[: seat - 1], state.balances[seat - 1], *state.sat_at[seat:])
        known = {person for person, _ in state.stints}
        stints = (*state.stints, stint) if name in known else (*state.stints, stint, (name, 0))
        new = new._replace(seating=seating, sat_at=sat_at, stints=stints)
        entry_json["seating"] = {str(i): person for i, person in enumerate(seating, 1)}
        return new, entry_json

    def _played(self, state: State, hand: Mapping[str, Any], n: int, dealer: int) -> tuple[State, JSON]:
        """R7–R28: a hand played out, or surrendered (rendida, R25–R28)."""
        active = active_seats(state.seats, dealer)
        played = read_played(hand, state.options, state.seats, active)
        contra = contra_pair(active, played.jugador)
        if played.rendida:
            defensor = rendida_defensor(played, state.seats, contra)
            if defensor is None:
                return self._surrendered(state, n, dealer, played)
            return self._defended(state, hand, n, dealer, played, defensor, contra)
        tricks = read_tricks(hand, active, played, contra)
        desk = self._deal(state, n, dealer)
        if tricks.result == "ganada":
            self._ganada(desk, state, played, tricks)
            final = "bola" if tricks.bola_hecha else "bola_cortada" if tricks.bola_cortada else "ganada"
        else:
            self._perdida(desk, state, played, tricks, contra)
            final = tricks.result
        return desk.freeze(dealer, final, next_seat(dealer, state.seats))

    @staticmethod
    def _ganada(desk: _Desk, state: State, played: Played, tricks: Tricks) -> None:
        """R16–R19: the participants pay the Jugador, who takes the plato; a bola cortada pays the bola."""
        opts, jugador = state.options, played.jugador
        parts = condition_parts(
            played.lance, played.estuches, played.contraestuches, tricks.has_primeras, tricks.bola_hecha
        )
        if desk.kind != RESERVADA:  # R8, case 1
            parts.insert(0, (5, "por jugar"))
        amount = per_participant(tuple(parts), opts.rounding, opts.favor_doubling, played.favor)  # R16
        participants = others(state.seats, jugador)  # R4
        for seat in participants:
            desk.pay(seat, jugador, amount.value, "juego", amount.detail)
        desk.take_plato(jugador)  # R17-R18
        if tricks.bola_cortada and opts.failed_bola == "pays_bola":  # R19
            lost = per_participant(((BOLA_VALUE, "bola cortada"),), opts.rounding, opts.favor_doubling, played.favor)
            for seat in participants:
                desk.pay(jugador, seat, lost.value, "bola_cortada", lost.detail)

    @staticmethod
    def _perdida(desk: _Desk, state: State, played: Played, tricks: Tricks, contra: tuple[int, ...]) -> None:
        """R20–R24: a lost hand pays its conditions and makes a puesta; a codillo pays it to the giver.

        R24: a solo or vuelta solera lost by codillo makes no puesta and, by default, pays only the codillo.
        """
        opts, jugador = state.options, played.jugador
        case1 = desk.kind != RESERVADA  # R8
        solo_codillo = tricks.result == "codillo" and played.lance in ("solo", "vuelta_solera")
        if not (solo_codillo and opts.solo_codillo == "codillo_only"):
            parts = condition_parts(
                played.lance, played.estuches, played.contraestuches, played.primeras == "contra", False
            )
            amount = per_participant(tuple(parts), opts.rounding, opts.favor_doubling, played.favor)
            for seat in others(state.seats, jugador):
                desk.pay(jugador, seat, amount.value, "condiciones", amount.detail)
        puesta, why = puesta_amount(desk.plato, case1, played.favor)
        if not solo_codillo:
            desk.place_puesta(jugador, puesta, desk.kind == SIN_PUESTA, why)
        if tricks.result == "codillo":
            giver = contra[tricks.giver - 1]
            desk.pay(jugador, giver, puesta, "codillo", Detail("codillo", puesta=why))

    def _surrendered(self, state: State, n: int, dealer: int, played: Played) -> tuple[State, JSON]:
        """R25–R27: a rendida nobody defends makes a puesta; a vuelta pays its 2 first."""
        opts = state.options
        desk = self._deal(state, n, dealer)
        case1 = desk.kind != RESERVADA
        if played.lance == "vuelta":  # R26
            amount = per_participant(
                ((LANCE_VALUE["vuelta"], "vuelta"),), opts.rounding, opts.favor_doubling, played.favor
            )
            for seat in others(state.seats, played.jugador):
                desk.pay(played.jugador, seat, amount.value, "condiciones", amount.detail)
        puesta, why = puesta_amount(desk.plato, case1, played.favor)  # R25, R27
        desk.place_puesta(played.jugador, puesta, desk.kind == SIN_PUESTA, why)
        return desk.freeze(dealer, "rendida", next_seat(dealer, state.seats))

    def _defended(
        self,
        state: State,
        hand: Mapping[str, Any],
        n: int,
        dealer: int,
        played: Played,
        defensor: int,
        contra: tuple[int, ...],
    ) -> tuple[State, JSON]:
        """R28: a defended rendida, played out between the defensor and the surrenderer."""
        jugador = played.jugador
        active = active_seats(state.seats, dealer)
        pobre = contra[0] if contra[1] == defensor else contra[1]
        tricks = tricks_value(hand, active)
        counts = (tricks[jugador], tricks[defensor], tricks[pobre])
        case = decided(defended_outcome, counts)  # R28 with R10
        if case is None:
            raise HandError("defended_tricks_undecided", "tricks", split=split_text(counts))
        desk = self._deal(state, n, dealer)
        puesta, why = puesta_amount(desk.plato, desk.kind != RESERVADA, played.favor)
        into = desk.kind == SIN_PUESTA
        if case == "a":
            desk.pay(jugador, defensor, puesta, "puesta_defendida", Detail("defensor_gana", puesta=why))
        elif case == "b":
            desk.place_puesta(jugador, puesta, into, why)
            desk.place_puesta(defensor, puesta, into, why)
        elif case == "c":
            desk.place_puesta(defensor, puesta, into, why)
        else:
            desk.place_puesta(jugador, puesta, into, why)
            desk.pay(defensor, pobre, puesta, "codillo", Detail("codillo_pobre", puesta=why))
        return desk.freeze(dealer, RESULT_OF_CASE[str(case)], next_seat(dealer, state.seats))


TRESILLO: Final = Tresillo()
