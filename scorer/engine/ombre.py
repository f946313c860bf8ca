"""Ombre sencillo: the fixed stakes and the bote of docs/rules/ombre.md (O1–O8).

Readings chosen where the document leaves room (see also the comments at each rule):

- O2 with R10: ``outcome`` picks the seed's majority rule (``majority_five``, the default)
  or Tresillo's R9 (``most_tricks``); a short split is accepted when the outcome (sacada, codille and its
  giver, puesta) is decided; the vole bonus is paid only when the hombre's recorded
  tricks are all nine (8-0-0 is a sacada without vole).
- O6: once the session is over every further entry is refused, the closing
  ``{"close": "repartir"}`` included (the document says so: the bote stays).
- O4 ``codille``: ``double_sacada`` (default) pays twice the sacada, 2 × 2S = 4 × S;
  ``double_stake`` pays 2 × S.
- O6 ``target``: a player's balance *reaches* the target when it is at least the
  target. Both ``deals`` and ``target`` may be set: whichever comes first ends it.
- O5 applies to puestas and codilles too (it is paid before the hand is settled).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .core import (
    JSON,
    HandError,
    check_keys,
    check_pass,
    decided,
    describe,
    hand_entry,
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
from .tresillo_hand import SUITS, played_outcome, split_text

LANCES: Final = ("entrada", "vuelta", "solo")
SEATS: Final = (1, 2, 3)
BOTE: Final = "bote"
PLAYED_KEYS: Final = ("jugador", "lance", "trump", "tricks", "matadores_en", "dealer", "note")

OPTION_DEFAULTS: Final[dict[str, Any]] = {
    "stake": 10,
    "solo_stake": 20,
    "vole_bonus": 10,
    "matador_bonus": 5,
    "deals": None,
    "target": None,
    "outcome": "majority_five",
    "codille": "double_sacada",
}
OUTCOMES: Final = ("majority_five", "most_tricks")  # O2
CODILLES: Final = ("double_sacada", "double_stake")  # O4: 4 × S or 2 × S


@dataclass(frozen=True, slots=True)
class Options:
    """The options of the document, checked."""

    stake: int = 10
    solo_stake: int = 20
    vole_bonus: int = 10
    matador_bonus: int = 5
    deals: int | None = None
    target: int | None = None
    outcome: str = "majority_five"  # O2
    codille: str = "double_sacada"  # O4


def parse_options(rules: Mapping[str, Any]) -> Options:
    """Check every option of the session's rules; HandError names the bad one."""
    values = option_values(rules, OPTION_DEFAULTS, "ombre")
    deals = values["deals"]
    target = values["target"]
    return Options(
        stake=rule_number(values, "stake", 1, "O2"),
        solo_stake=rule_number(values, "solo_stake", 1, "O2"),
        vole_bonus=rule_number(values, "vole_bonus", 0, "O2"),
        matador_bonus=rule_number(values, "matador_bonus", 0, "O5"),
        deals=None if deals is None else rule_number(values, "deals", 1, "O6"),
        target=None if target is None else rule_number(values, "target", 1, "O6"),
        outcome=rule_word(values, "outcome", OUTCOMES, "O2"),
        codille=rule_word(values, "codille", CODILLES, "O4"),
    )


def ombre_outcome(j: int, a: int, b: int) -> tuple[str, int]:
    """O2, the majority rule: sacada with 5, codille by a defender with 5, else puesta."""
    if j >= 5:
        return ("ganada", 0)
    if a >= 5:
        return ("codillo", 1)
    if b >= 5:
        return ("codillo", 2)
    return ("puesta", 0)


@dataclass(frozen=True, slots=True)
class State:
    """Everything the next hand needs; balances are derived from the transfers."""

    options: Options
    balances: tuple[int, ...]
    bote: int
    next_dealer: int
    deals: int = 0  # deals played so far, passed ones included (O6)
    over: bool = False  # O6 or O7
    closed: bool = False  # O7


class _Desk:
    """The mutable scratch pad of one hand."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.balances = list(state.balances)
        self.bote = state.bote
        self.transfers: list[JSON] = []

    def pay(self, source: int | str, target: int | str, amount: int, concept: str, detail: Detail) -> None:
        """A seat or the bote pays a seat or the bote."""
        # O8: every movement goes through here, so balances + bote stay at 0
        if amount <= 0:
            return
        if source == BOTE:
            self.bote -= amount
        else:
            assert isinstance(source, int)
            self.balances[source - 1] -= amount
        if target == BOTE:
            self.bote += amount
        else:
            assert isinstance(target, int)
            self.balances[target - 1] += amount
        self.transfers.append(transfer(source, target, amount, concept, detail))

    def freeze(self, dealer: int | None, result: str, next_dealer: int, deals: int, closed: bool) -> tuple[State, JSON]:
        opts = self.state.options
        over = closed or (opts.deals is not None and deals >= opts.deals)  # O6 deals, O7
        if opts.target is not None and max(self.balances) >= opts.target:  # O6 target
            over = True
        new = State(
            options=opts,
            balances=tuple(self.balances),
            bote=self.bote,
            next_dealer=next_dealer,
            deals=deals,
            over=over or self.state.over,
            closed=closed,
        )
        entry: JSON = {
            **hand_entry(dealer, result, self.transfers, new.balances),
            "bote": new.bote,
            "over": new.over,
        }
        return new, entry


def _read_played(hand: Mapping[str, Any]) -> tuple[int, str, int | None]:
    """The hombre's seat, the lance (the trump is checked, not used) and who held the matadores (O5)."""
    jugador = seat_value(required(hand, "jugador"), "jugador", 3)
    lance = word_value(required(hand, "lance"), "lance", LANCES)
    word_value(required(hand, "trump"), "trump", SUITS)
    holder_raw = hand.get("matadores_en")
    holder = None if holder_raw is None else seat_value(holder_raw, "matadores_en", 3)
    return jugador, lance, holder


def _decide(opts: Options, counts: tuple[int, int, int]) -> tuple[str, int]:
    """O2 with R10: the seed's majority rule, or R9's (more tricks than each defender)."""
    outcome = decided(ombre_outcome if opts.outcome == "majority_five" else played_outcome, counts)
    if outcome is None:
        raise HandError("tricks_undecided", "tricks", split=split_text(counts), rule="O2")
    assert isinstance(outcome, tuple)
    return outcome


class Ombre:
    """The rule set of docs/rules/ombre.md."""

    name: str = "ombre"
    player_counts: tuple[int, ...] = (3,)  # O1
    events: tuple[str, ...] = ()  # no ajuste or sienta: those are Tresillo's (R32, R33)

    def begin(self, players: tuple[str, ...], rules: Mapping[str, Any], first_dealer: int) -> State:
        return State(options=parse_options(rules), balances=(0,) * len(players), bote=0, next_dealer=first_dealer)

    def header(self, state: State) -> JSON:
        return {}

    def summary(self, state: State) -> JSON:
        return {
            "balances": seat_map(state.balances),
            "bote": state.bote,
            "over": state.over,
            "next_dealer": state.next_dealer,
        }

    def play(self, state: State, hand: Mapping[str, Any], n: int) -> tuple[State, JSON]:
        if state.closed:
            raise HandError("after_closing", None, rule="O7")
        if state.over:  # O6: every further entry, the closing included, is refused; the bote stays
            raise HandError("session_over")
        if "close" in hand:
            return self._close(state, hand)
        dealer = resolve_dealer(hand, state.next_dealer, 3)  # O1: R2
        deals = state.deals + 1
        if "pass" in hand:
            check_pass(hand)
            return _Desk(state).freeze(dealer, "paso", next_seat(dealer, 3), deals, False)  # O1: nothing is paid
        return self._played(state, hand, dealer, deals)

    def _played(self, state: State, hand: Mapping[str, Any], dealer: int, deals: int) -> tuple[State, JSON]:
        """O2–O5: a played hand is a sacada, a puesta or a codille."""
        for key in ("primeras", "bola"):
            if key in hand:
                raise HandError("ombre_key", key, key=key)
        check_keys(hand, PLAYED_KEYS, "played")
        opts = state.options
        jugador, lance, holder = _read_played(hand)
        tricks = tricks_value(hand, SEATS)
        defenders = tuple(s for s in SEATS if s != jugador)
        counts = (tricks[jugador], tricks[defenders[0]], tricks[defenders[1]])
        result, giver_index = _decide(opts, counts)
        desk = _Desk(state)
        if holder is not None:  # O5, before the hand is settled
            bonus = min(opts.matador_bonus, desk.bote)
            desk.pay(BOTE, holder, bonus, "matadores", Detail("om_matadores", amount=bonus))
        s = opts.solo_stake if lance == "solo" else opts.stake
        if result == "ganada":  # O2 sacada
            self._sacada(desk, jugador, defenders, lance, s, counts[0] == 9)
        elif result == "puesta":  # O3
            desk.pay(jugador, BOTE, 2 * s, "puesta", Detail("om_puesta", lance=lance, stake=s, amount=2 * s))
        else:
            self._codille(desk, jugador, defenders[giver_index - 1], lance, s)
        return desk.freeze(dealer, result, next_seat(dealer, 3), deals, False)

    @staticmethod
    def _sacada(desk: _Desk, jugador: int, defenders: tuple[int, ...], lance: str, s: int, vole: bool) -> None:
        """O2: each defender pays the stake (plus the vole's bonus on 9-0-0, O2) and the Jugador takes the bote."""
        bonus = desk.state.options.vole_bonus if vole else 0
        amount = s + bonus
        if bonus:
            why = Detail("om_sacada_vole", lance=lance, stake=s, vole=bonus, amount=amount)
        else:
            why = Detail("om_sacada", lance=lance, stake=s)
        for seat in defenders:
            desk.pay(seat, jugador, amount, "sacada", why)
        desk.pay(BOTE, jugador, desk.bote, "bote", Detail("om_bote", amount=desk.bote))

    @staticmethod
    def _codille(desk: _Desk, jugador: int, giver: int, lance: str, s: int) -> None:
        """O4: twice the sacada (2 × 2S) by default, or twice one defender's stake, to the defender who won."""
        if desk.state.options.codille == "double_sacada":
            why = Detail("om_codille_sacada", lance=lance, stake=s, amount=4 * s)
            desk.pay(jugador, giver, 4 * s, "codillo", why)
        else:
            desk.pay(jugador, giver, 2 * s, "codillo", Detail("om_codille", lance=lance, stake=s, amount=2 * s))

    # O7
    @staticmethod
    def _close(state: State, hand: Mapping[str, Any]) -> tuple[State, JSON]:
        check_keys(hand, ("close", "dealer", "note"), "closing")
        if hand["close"] != "repartir":
            raise HandError("unknown_word", "close", key="close", value=describe(hand["close"]), choices=["repartir"])
        if hand.get("dealer") is not None:
            raise HandError("entry_has_dealer", "dealer", entry="closing", rule="O7")
        desk = _Desk(state)
        total = desk.bote
        share, odd = divmod(total, 3)
        for seat in SEATS:
            owed = share + (1 if seat <= odd else 0)  # the odd points one each to seats 1, 2, …
            why = Detail("om_reparto_resto" if seat <= odd else "om_reparto", total=total, seats=3, share=share)
            desk.pay(BOTE, seat, owed, "reparto", why)
        return desk.freeze(None, "cierre", state.next_dealer, state.deals, True)


OMBRE: Final = Ombre()
