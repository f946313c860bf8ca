"""Pozo y viuda: the two pots of docs/rules/pozo-viuda.md (P1–P13).

The same game of Tresillo (tricks, matadores, R9–R10 for the outcome of a split)
settled with a pozo (won by every successful contract, with reserve pozos when it
is full) and a viuda (the prize fund of the great contracts).

Readings chosen where the document leaves room (see also the comments at each rule):

- P2 applies to passed hands too: a pass right after the pozo was won first
  restakes the empty pozo (P2), then every player puts the pass stake (P3).
- P1 is paid with the first entry that deals (a played or passed hand); a session
  whose first entry is the closing has nothing to share.
- ``primeras`` and ``bola`` belong to juego, volteo and roben only; a declared bola
  or contrabola refuses them (P9 pays no primeras).
- P13: primeras and the bola are read from the tricks (``tricks_shape``): 5-0-0 is
  primeras, 9-0-0 a bola hecha, primeras (or ``bola: "cortada"``) with 5–8 tricks and
  a trick to the defenders a cut bola, played out to nine or stopped at J-1-0.
- ``favor_suit`` null means the default, oros (this rule set always has a favour suit).
- ``pozo_stake`` and ``pozo_cap`` must be at least 1 (a cap of 0 would make P4
  open reserves without end).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

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
    next_seat,
    option_values,
    required,
    resolve_dealer,
    rule_number,
    rule_word,
    seat_map,
    seat_value,
    transfer,
    tricks_value,
    word_value,
)
from .details import Detail
from .tresillo import active_seats
from .tresillo_hand import SUITS, played_outcome, split_text

LANCES: Final = ("juego", "volteo", "roben", "bola", "contrabola")
DECLARED: Final = ("bola", "contrabola")  # P9
RED_SUITS: Final = ("oros", "copas")  # the punto is a fourth matador only in red trumps
BOLA_PREMIO: Final = 40  # P8, P9, P10
POZO: Final = "pozo"
VIUDA: Final = "viuda"

PLAYED_KEYS: Final = ("jugador", "lance", "trump", "matadores", "tricks", "primeras", "bola", "dealer", "note")

OPTION_DEFAULTS: Final[dict[str, Any]] = {
    "favor_suit": "oros",
    "pozo_stake": 5,
    "viuda_stake": 25,
    "pozo_cap": 4,
    "contrabola": False,
}


@dataclass(frozen=True, slots=True)
class Options:
    """The options of the document, checked."""

    favor_suit: str | None = "oros"
    pozo_stake: int = 5
    viuda_stake: int = 25
    pozo_cap: int = 4
    contrabola: bool = False


def parse_options(rules: Mapping[str, Any]) -> Options:
    """Check every option of the session's rules; HandError names the bad one."""
    values = option_values(rules, OPTION_DEFAULTS, "pozo_viuda")  # null = absent: favor_suit oros
    return Options(
        favor_suit=rule_word(values, "favor_suit", SUITS, "P5"),  # P5, P6: where a favor pays
        pozo_stake=rule_number(values, "pozo_stake", 1, "P1"),
        viuda_stake=rule_number(values, "viuda_stake", 1, "P1"),
        pozo_cap=rule_number(values, "pozo_cap", 1, "P4"),
        contrabola=bool_value(values["contrabola"], "rule contrabola", "contrabola"),
    )


def tricks_shape(counts: tuple[int, int, int], primeras: object, bola: object) -> str:
    """P13: what the tricks (and the flags) say of a juego, volteo or roben.

    ``primeras`` (5-0-0), ``bola`` (9-0-0, a bola hecha), ``cortada`` (a cut bola: 5–8 tricks
    with a trick to the defenders, played out to nine or stopped at J-1-0), or ``plain`` (an
    ordinary hand, read by R9–R10). Refuses the splits P13 calls invalid.
    """
    j, d = counts[0], counts[1] + counts[2]
    split = split_text(counts)
    if bola == "hecha" and j != 9:
        raise HandError("bola_hecha_not_nine", "bola", split=split, rule="P13")
    whole = WHOLE_SHAPES.get((j, d))
    if whole is not None:
        if bola == "cortada":
            raise HandError("bola_cortada_not_won", "bola", split=split)
        return whole
    if d == 0 and 6 <= j <= 8:
        raise HandError("tricks_after_five", "tricks", split=split)
    if bola == "cortada" or primeras == "jugador":
        return _cut_shape(j, d, bola, split)
    return "plain"


WHOLE_SHAPES: Final = {(9, 0): "bola", (5, 0): "primeras"}  # P13: the Jugador took every trick played


def _cut_shape(j: int, d: int, bola: object, split: str) -> str:
    """P10, P13: a cut bola (or primeras said) needs 5–8 tricks and a trick to the defenders."""
    if 5 <= j <= 8 and d >= 1 and (j + d == 9 or d == 1):
        return "cortada"
    if bola == "cortada":
        raise HandError("bola_cortada_not_won", "bola", split=split)
    raise HandError("primeras_not_won", "primeras", split=split)


def premio(lance: str, favor: bool) -> int:
    """The premio por jugador of the Words table."""
    if lance == "roben":
        return 20 if favor else 10
    return {"juego": 0, "volteo": 5, "bola": BOLA_PREMIO, "contrabola": BOLA_PREMIO}[lance]


def fill(pozo: int, reserves: tuple[int, ...], amount: int, cap: int) -> tuple[int, tuple[int, ...]]:
    """P4: add to the pozo up to its cap, then to the last reserve, then open new reserves."""
    put = min(max(cap - pozo, 0), amount)
    pozo += put
    amount -= put
    rest = list(reserves)
    if amount and rest:
        put = min(max(cap - rest[-1], 0), amount)
        rest[-1] += put
        amount -= put
    while amount:
        put = min(cap, amount)
        rest.append(put)
        amount -= put
    return pozo, tuple(rest)


@dataclass(frozen=True, slots=True)
class State:
    """Everything the next hand needs; balances are derived from the transfers."""

    options: Options
    seats: int
    balances: tuple[int, ...]
    pozo: int
    reserves: tuple[int, ...]
    viuda: int
    next_dealer: int
    started: bool = False  # P1 paid
    finished: bool = False  # P11 done

    @property
    def cap(self) -> int:
        """P4: the most the pozo (and each reserve) holds."""
        return self.options.pozo_cap * self.options.pozo_stake * self.seats


class _Desk:
    """The mutable scratch pad of one hand; frozen into a new State at the end."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.balances = list(state.balances)
        self.pozo = state.pozo
        self.reserves = state.reserves
        self.viuda = state.viuda
        self.transfers: list[JSON] = []

    @property
    def seats(self) -> range:
        return range(1, self.state.seats + 1)

    def pay(self, source: int, target: int | str, amount: int, concept: str, detail: Detail) -> None:
        """Seat ``source`` pays a seat, the pozo (P4 overflow) or the viuda."""
        # P12: every movement goes through here or pot_pays, so balances + pots stay at 0
        if amount <= 0:
            return
        self.balances[source - 1] -= amount
        if target == POZO:
            self.pozo, self.reserves = fill(self.pozo, self.reserves, amount, self.state.cap)
        elif target == VIUDA:
            self.viuda += amount
        else:
            assert isinstance(target, int)
            self.balances[target - 1] += amount
        self.transfers.append(transfer(source, target, amount, concept, detail))

    def pot_pays(self, pot: str, target: int, amount: int, concept: str, detail: Detail) -> None:
        """A pot pays a seat (the pozo here means pozo and reserves together)."""
        if amount <= 0:
            return
        if pot == VIUDA:
            self.viuda -= amount
        else:
            self.pozo -= amount  # the pozo proper (the closing merges the reserves into it first)
        self.balances[target - 1] += amount
        self.transfers.append(transfer(pot, target, amount, concept, detail))

    def everyone(self, target: str, amount: int, concept: str, detail: Detail) -> None:
        for seat in self.seats:
            self.pay(seat, target, amount, concept, detail)

    def take_pozo(self, winner: int) -> None:
        """P5: the winner takes the pozo; the first reserve becomes the pozo (P4, first in first out)."""
        amount = self.pozo
        self.pot_pays(POZO, winner, amount, "pozo", Detail("pv_pozo", amount=amount))
        if self.reserves:
            self.pozo, self.reserves = self.reserves[0], self.reserves[1:]
        else:
            self.pozo = 0

    def take_viuda(self, winner: int) -> None:
        """P5: the winner takes the whole viuda and every player restakes it."""
        amount = self.viuda
        self.pot_pays(VIUDA, winner, amount, "viuda", Detail("pv_viuda", amount=amount))
        stake = self.state.options.viuda_stake
        self.everyone(VIUDA, stake, "viuda_nueva", Detail("pv_viuda_nueva", amount=stake))

    def takes_all(self, jugador: int, others: list[int], amount: int, why: Detail) -> None:
        """A bola or contrabola made (P8, P9): every other player pays it, the jugador takes pozo and viuda."""
        for seat in others:
            self.pay(seat, jugador, amount, "bola", why)
        self.take_pozo(jugador)
        self.take_viuda(jugador)

    def freeze(self, dealer: int | None, result: str, next_dealer: int, finished: bool = False) -> tuple[State, JSON]:
        s = self.state
        new = State(
            options=s.options,
            seats=s.seats,
            balances=tuple(self.balances),
            pozo=self.pozo,
            reserves=self.reserves,
            viuda=self.viuda,
            next_dealer=next_dealer,
            started=s.started or not finished,
            finished=finished,
        )
        entry: JSON = {
            **hand_entry(dealer, result, self.transfers, new.balances),
            **pots_json(new),
        }
        return new, entry


def pots_json(state: State) -> JSON:
    """The ledger's ``pozo`` and ``viuda`` keys."""
    return {"pozo": {"amount": state.pozo, "reserves": list(state.reserves)}, "viuda": state.viuda}


class _Contract:
    """What a played hand's payments need of its words (P5–P10): M and its words, who pays."""

    __slots__ = ("favor", "jugador", "lance", "m", "m_text", "others")

    def __init__(self, jugador: int, lance: str, favor: bool, matadores: int, seats: int) -> None:
        self.jugador = jugador
        self.lance = lance
        self.favor = favor
        self.m = matadores * (2 if favor else 1)  # M = matadores × 2 a favor
        self.m_text = Detail("pv_matadores_favor" if favor else "pv_matadores", matadores=matadores)
        self.others = [s for s in range(1, seats + 1) if s != jugador]  # participants, the dealer too


def _read_contract(
    hand: Mapping[str, Any], opts: Options, seats: int, active: tuple[int, ...]
) -> tuple[int, str, str, int]:
    """The Jugador (never the dealer), the lance, the trump and the matadores (a contrabola has none)."""
    jugador = seat_value(required(hand, "jugador"), "jugador", seats)
    if jugador not in active:
        raise HandError("jugador_is_dealer", "jugador", seat=jugador)
    lance = word_value(required(hand, "lance"), "lance", LANCES)
    trump = word_value(required(hand, "trump"), "trump", SUITS)
    top = 4 if trump in RED_SUITS else 3
    raw = hand.get("matadores")
    matadores = 0 if raw is None else int_value(raw, f"matadores with {trump}", 0, top, "matadores")
    if lance == "contrabola":
        if not opts.contrabola:
            raise HandError("contrabola_not_admitted", "lance")
        if matadores:
            raise HandError("contrabola_matadores", "matadores", value=matadores)
    return jugador, lance, trump, matadores


def _read_flags(hand: Mapping[str, Any], lance: str) -> tuple[object, object]:
    """``primeras`` and ``bola``, which a declared bola or contrabola refuses (P9)."""
    primeras = hand.get("primeras")
    bola = hand.get("bola")
    if lance in DECLARED:
        if primeras is not None:
            raise HandError("declared_with_primeras", "primeras", lance=lance)
        if bola is not None:
            raise HandError("declared_with_bola", "bola", lance=lance)
    if primeras is not None:
        word_value(primeras, "primeras", ("jugador",))
    if bola is not None:
        word_value(bola, "bola", ("hecha", "cortada"))
    return primeras, bola


def _cut_bola(desk: _Desk, contract: _Contract) -> None:
    """P10: a cut bola, after winning as P5, doubles the viuda and pays the bola's premio to each other player."""
    jugador = contract.jugador
    doubled = desk.viuda
    desk.pay(jugador, VIUDA, doubled, "bola_cortada", Detail("pv_cortada_viuda", amount=doubled))
    for seat in contract.others:
        desk.pay(jugador, seat, BOLA_PREMIO, "bola_cortada", Detail("pv_cortada_paga", amount=BOLA_PREMIO))


def _decide(shape: str, counts: tuple[int, int, int]) -> tuple[str, int]:
    """Result and codillo giver: primeras and a bola (cut or not) are won (P13), else R9–R10."""
    if shape != "plain":
        return "ganada", 0
    outcome = decided(played_outcome, counts)
    if outcome is None:
        raise HandError("tricks_undecided", "tricks", split=split_text(counts), rule="R10")
    assert isinstance(outcome, tuple)
    return outcome


# ----------------------------------------------------------------- rule set


class PozoViuda:
    """The rule set of docs/rules/pozo-viuda.md."""

    name: str = "pozo_viuda"
    player_counts: tuple[int, ...] = (3, 4)
    events: tuple[str, ...] = ()  # no ajuste or sienta: those are Tresillo's (R32, R33)

    def begin(self, players: tuple[str, ...], rules: Mapping[str, Any], first_dealer: int) -> State:
        count = len(players)
        return State(
            options=parse_options(rules),
            seats=count,
            balances=(0,) * count,
            pozo=0,
            reserves=(),
            viuda=0,
            next_dealer=first_dealer,
        )

    def header(self, state: State) -> JSON:
        return {}

    def summary(self, state: State) -> JSON:
        return {"balances": seat_map(state.balances), **pots_json(state), "next_dealer": state.next_dealer}

    def play(self, state: State, hand: Mapping[str, Any], n: int) -> tuple[State, JSON]:
        if state.finished:
            raise HandError("after_closing", None, rule="P11")
        if "close" in hand:
            return self._close(state, hand)
        dealer = resolve_dealer(hand, state.next_dealer, state.seats)
        if "pass" in hand:
            check_pass(hand)
            desk = self._deal(state)
            stake = state.options.pozo_stake
            desk.everyone(POZO, stake, "pase", Detail("pv_pase", amount=stake))  # P3
            return desk.freeze(dealer, "paso", next_seat(dealer, state.seats))
        check_keys(hand, PLAYED_KEYS, "played")
        return self._played(state, hand, dealer)

    @staticmethod
    def _deal(state: State) -> _Desk:
        """P1 before the first hand; P2 at the start of a hand whose pozo is empty."""
        desk = _Desk(state)
        opts = state.options
        if not state.started:  # P1
            desk.everyone(POZO, opts.pozo_stake, "pozo_inicial", Detail("pv_pozo_inicial", amount=opts.pozo_stake))
            desk.everyone(VIUDA, opts.viuda_stake, "viuda_inicial", Detail("pv_viuda_inicial", amount=opts.viuda_stake))
        elif desk.pozo == 0 and not desk.reserves:  # P2 (passed hands too: a pass stakes on top, P3)
            desk.everyone(POZO, opts.pozo_stake, "pozo_nuevo", Detail("pv_pozo_nuevo", amount=opts.pozo_stake))
        return desk

    # P11
    def _close(self, state: State, hand: Mapping[str, Any]) -> tuple[State, JSON]:
        check_keys(hand, ("close", "dealer", "note"), "closing")
        if hand["close"] != "repartir":
            raise HandError("unknown_word", "close", key="close", value=describe(hand["close"]), choices=["repartir"])
        if hand.get("dealer") is not None:
            raise HandError("entry_has_dealer", "dealer", entry="closing", rule="P11")
        desk = _Desk(state)
        pozo_total = desk.pozo + sum(desk.reserves)
        desk.pozo, desk.reserves = pozo_total, ()  # the pozo and its reserves are shared together
        total = pozo_total + desk.viuda
        share, odd = divmod(total, state.seats)
        for seat in desk.seats:
            # P11: equal shares, the odd points one each to seats 1, 2, …; taken from the pozo first
            owed = share + (1 if seat <= odd else 0)
            from_pozo = min(owed, pozo_total)
            pozo_total -= from_pozo
            code = "pv_reparto_resto" if seat <= odd else "pv_reparto"
            why = Detail(code, total=total, seats=state.seats, share=share)
            desk.pot_pays(POZO, seat, from_pozo, "reparto", why)
            desk.pot_pays(VIUDA, seat, owed - from_pozo, "reparto", why)
        assert desk.pozo == 0 and desk.viuda == 0
        return desk.freeze(None, "cierre", state.next_dealer, finished=True)

    def _played(self, state: State, hand: Mapping[str, Any], dealer: int) -> tuple[State, JSON]:
        """P5–P10, P13: a played hand; R9–R10 decide an ordinary split."""
        active = active_seats(state.seats, dealer)
        jugador, lance, trump, matadores = _read_contract(hand, state.options, state.seats, active)
        primeras, bola = _read_flags(hand, lance)
        tricks = tricks_value(hand, active)
        contra = tuple(s for s in active if s != jugador)
        counts = (tricks[jugador], tricks[contra[0]], tricks[contra[1]])
        favor = state.options.favor_suit is not None and trump == state.options.favor_suit
        contract = _Contract(jugador, lance, favor, matadores, state.seats)
        if lance in DECLARED:
            return self._declared(state, dealer, contract, counts)
        shape = tricks_shape(counts, primeras, bola)  # P13: primeras and the bola from the tricks
        result, giver_index = _decide(shape, counts)
        desk = self._deal(state)
        if shape == "bola":
            self._bola(desk, contract)
            result = "bola"
        elif result == "ganada":
            self._won(desk, contract, shape)
        else:
            self._lost(desk, contract, contra[giver_index - 1] if result == "codillo" else None)
        return desk.freeze(dealer, result, next_seat(dealer, state.seats))

    @staticmethod
    def _bola(desk: _Desk, contract: _Contract) -> None:
        """P8: M + 1 + 40, the bola's premio replacing the contract's; pozo and viuda."""
        amount = contract.m + 1 + BOLA_PREMIO
        why = Detail("pv_bola", mat=contract.m_text, m=contract.m, premio=BOLA_PREMIO, amount=amount)
        desk.takes_all(contract.jugador, contract.others, amount, why)

    @staticmethod
    def _won(desk: _Desk, contract: _Contract, shape: str) -> None:
        """P5: M + premio (+ 1 primeras) from every other player, the pozo, the viuda on a roben a favor.

        P10: a bola cortada wins first as P5 with primeras, then pays the viuda again and 40 to each.
        """
        jugador, m, favor = contract.jugador, contract.m, contract.favor
        has_primeras = shape != "plain"
        prize = premio(contract.lance, favor)
        amount = m + prize + (1 if has_primeras else 0)
        said = Detail("pv_premio_favor" if favor else "pv_premio", lance=contract.lance, amount=prize)
        code = "pv_dulces_primeras" if has_primeras else "pv_dulces"
        why = Detail(code, mat=contract.m_text, m=m, premio=said, amount=amount)
        for seat in contract.others:
            desk.pay(seat, jugador, amount, "dulces", why)
        desk.take_pozo(jugador)
        if contract.lance == "roben" and favor:
            desk.take_viuda(jugador)
        if shape == "cortada":
            _cut_bola(desk, contract)

    @staticmethod
    def _lost(desk: _Desk, contract: _Contract, giver: int | None) -> None:
        """P6 puesta: the pozo again, M to the viuda, the premio to each; P7 codillo: the pozo to the giver."""
        jugador, favor, lance = contract.jugador, contract.favor, contract.lance
        before = desk.pozo
        desk.pay(jugador, POZO, before, "puesta", Detail("pv_puesta", amount=before))
        if lance == "roben" and favor:
            held = desk.viuda  # before the M is added
            desk.pay(jugador, VIUDA, held, "viuda_doble", Detail("pv_roben_favor", amount=held))
        desk.pay(
            jugador, VIUDA, contract.m, "matadores", Detail("pv_matadores_viuda", mat=contract.m_text, m=contract.m)
        )
        prize = premio(lance, favor)
        said = Detail("pv_paga_premio_favor" if favor else "pv_paga_premio", lance=lance, amount=prize)
        for seat in contract.others:
            desk.pay(jugador, seat, prize, "premio", said)
        if giver is not None:
            desk.pay(jugador, giver, before, "codillo", Detail("pv_codillo", amount=before))

    def _declared(
        self, state: State, dealer: int, contract: _Contract, counts: tuple[int, int, int]
    ) -> tuple[State, JSON]:
        """P9: a declared bola or contrabola is only won or lost, on all nine tricks."""
        jugador, lance, m, m_text = contract.jugador, contract.lance, contract.m, contract.m_text
        if sum(counts) != 9:
            raise HandError("declared_tricks_not_nine", "tricks", lance=lance, count=sum(counts))
        won = counts[0] == 9 if lance == "bola" else counts[0] == 0
        desk = self._deal(state)
        if won:
            amount = m + BOLA_PREMIO
            why = Detail("pv_declarada", mat=m_text, m=m, premio=BOLA_PREMIO, lance=lance, amount=amount)
            desk.takes_all(jugador, contract.others, amount, why)
            return desk.freeze(dealer, lance, next_seat(dealer, state.seats))
        held = desk.pozo
        desk.pay(jugador, POZO, held, "puesta", Detail("pv_perdida_pozo", lance=lance, amount=held))
        held = desk.viuda
        desk.pay(jugador, VIUDA, held, "viuda_doble", Detail("pv_perdida_viuda", lance=lance, amount=held))
        desk.pay(jugador, VIUDA, m, "matadores", Detail("pv_matadores_viuda", mat=m_text, m=m))
        for seat in contract.others:
            desk.pay(jugador, seat, BOLA_PREMIO, "bola", Detail("pv_perdida_paga", lance=lance, amount=BOLA_PREMIO))
        return desk.freeze(dealer, "perdida", next_seat(dealer, state.seats))


POZO_VIUDA: Final = PozoViuda()
