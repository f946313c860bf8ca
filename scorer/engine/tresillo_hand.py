"""A played hand of Tresillo (docs/rules/tresillo.md): what it says, who won it, what it is worth.

Reading checks the hand's words one by one (R7, R11–R13, R19, R25–R28) in a fixed order, so a hand
with two mistakes is always refused for the same one; the outcome is R9–R10 (R28 for a defended
rendida); the amounts are R11–R16 and R21. The rule set itself, its state and the money's moves
are in :mod:`scorer.engine.tresillo`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, NamedTuple, NoReturn, Protocol

from .core import (
    HandError,
    bool_value,
    decided,
    describe,
    is_int,
    required,
    round_up,
    seat_value,
    tricks_value,
    word_value,
)
from .details import Conditions, Detail


class Options(Protocol):
    """What a played hand reads of the table's house rules (``tresillo.Options`` has them): this module
    sits under ``tresillo`` and never imports it back."""

    @property
    def favor_suit(self) -> str | None: ...

    @property
    def vuelta_at_favor(self) -> bool: ...

    @property
    def vuelta_solera(self) -> bool: ...


SUITS: Final = ("oros", "copas", "espadas", "bastos")
LONG_SUITS: Final = ("oros", "copas")  # 12 trumps; the short suits have 11
LANCES: Final = ("entrada", "vuelta", "vuelta_solera", "solo")
LANCE_VALUE: Final = {"entrada": 0, "vuelta": 2, "vuelta_solera": 20, "solo": 20}  # R11
LANCE_WORDS: Final = {"entrada": "entrada", "vuelta": "vuelta", "vuelta_solera": "vuelta solera", "solo": "solo"}
BOLA_VALUE: Final = 100  # R11, R19
PUESTA_EXTRA: Final = 20  # R21
ESTUCHES_CAP: Final = 5  # R12


# --------------------------------------------------------------- outcomes


def played_outcome(j: int, a: int, b: int) -> tuple[str, int]:
    """R9 on (Jugador, first contra, second contra): result and codillo giver (0, 1 or 2)."""
    if j > a and j > b:
        return ("ganada", 0)
    if a > j and a > b:
        return ("codillo", 1)
    if b > j and b > a:
        return ("codillo", 2)
    return ("puesta", 0)


def defended_outcome(s: int, d: int, m: int) -> str:
    """R28 on (surrenderer, defensor, mano pobre): case a, b, c or d."""
    if d > s and d > m:
        return "a"
    if d == max(s, m):
        return "b"
    if m > d and m > s:
        return "d"
    return "c"


RESULT_OF_CASE: Final = {
    "a": "defendida_ganada",
    "b": "defendida_puesta",
    "c": "defendida_codillo",
    "d": "defendida_codillo_pobre",
}


def split_text(counts: tuple[int, ...]) -> str:
    return "-".join(str(c) for c in counts)


@lru_cache(maxsize=64)
def contra_pair(active: tuple[int, ...], jugador: int) -> tuple[int, ...]:
    """The two contra players among the active seats, in order of play."""
    return tuple(s for s in active if s != jugador)


def is_favor(options: Options, lance: str, trump: str) -> bool:
    """R15: a favor when the trump is the favour suit (vueltas per vuelta_at_favor)."""
    if options.favor_suit is None or trump != options.favor_suit:
        return False
    return lance in ("entrada", "solo") or options.vuelta_at_favor


# ------------------------------------------------------------ reading a hand


class Played(NamedTuple):
    """The words of a played hand, each checked (the tricks are read by :func:`read_tricks`)."""

    jugador: int
    lance: str
    trump: str
    estuches: int
    contraestuches: int
    rendida: bool
    defensor: object  # the raw seat of R28's defensor, or None
    primeras: object  # None, "jugador" or "contra"
    bola: object  # None, "hecha" or "cortada"
    favor: bool


def read_played(hand: Mapping[str, Any], options: Options, seats: int, active: tuple[int, ...]) -> Played:
    """R7, R11–R13, R15, R19, R25: the hand's words in a fixed order; HandError names the first bad one."""
    jugador = hand.get("jugador")
    if jugador not in active or type(jugador) is not int:  # the checks of the valid case first: no call
        jugador = _jugador(hand, seats)
    lance = hand.get("lance")
    if type(lance) is not str or lance not in LANCE_VALUE:  # a list or object must not reach the dict lookup
        lance = word_value(required(hand, "lance"), "lance", LANCES)
    if lance == "vuelta_solera" and not options.vuelta_solera:
        raise HandError("vuelta_solera_not_admitted", "lance")
    trump = hand.get("trump")
    if trump not in SUITS or type(trump) is not str:
        trump = word_value(required(hand, "trump"), "trump", SUITS)
    estuches, contra_est = _estuches_pair(hand, trump)
    rendida = bool_value(hand["rendida"], "rendida") if hand.get("rendida") is not None else False
    primeras, bola = _flags(hand)
    defensor = hand.get("defensor")
    if defensor is not None and not rendida:
        raise HandError("defensor_without_rendida", "defensor")
    favor = is_favor(options, lance, trump)
    return Played(jugador, lance, trump, estuches, contra_est, rendida, defensor, primeras, bola, favor)


def _jugador(hand: Mapping[str, Any], seats: int) -> NoReturn:
    """R7: refuse a Jugador who is no seat, or the alcalde (dealt no cards)."""
    jugador = seat_value(required(hand, "jugador"), "jugador", seats)
    raise HandError("jugador_is_alcalde", "jugador", seat=jugador)


def _estuches_pair(hand: Mapping[str, Any], trump: str) -> tuple[int, int]:
    """R12: the Jugador's estuches or the contra's (never both), up to the trump suit's count."""
    top = 12 if trump in LONG_SUITS else 11
    estuches = _estuches(hand, "estuches", top, trump) if "estuches" in hand else 0
    contra = _estuches(hand, "contraestuches", top, trump) if "contraestuches" in hand else 0
    if estuches and contra:
        raise HandError("estuches_and_contraestuches", "estuches")
    return estuches, contra


def _estuches(hand: Mapping[str, Any], key: str, top: int, trump: str) -> int:
    """R12: no estuches, or from 3 up to the trump suit's count."""
    value = hand.get(key)
    if value is None:
        return 0
    if not is_int(value):
        raise HandError("not_a_whole_number", key, key=key, value=describe(value))
    if value != 0 and not 3 <= value <= top:
        raise HandError("estuches_impossible", key, key=key, value=value, top=top, trump=trump)
    return int(value)


def _flags(hand: Mapping[str, Any]) -> tuple[object, object]:
    """R13, R19: who had primeras (``jugador``, ``contra``) and the bola (``hecha``, ``cortada``), each optional."""
    primeras = hand.get("primeras")
    if primeras is not None:
        word_value(primeras, "primeras", ("jugador", "contra"))
    bola = hand.get("bola")
    if bola is not None:
        word_value(bola, "bola", ("hecha", "cortada"))
    return primeras, bola


def rendida_defensor(played: Played, seats: int, contra: tuple[int, ...]) -> int | None:
    """R25–R28: what a rendida may say; the defensor's seat (R28), or None when nobody defends."""
    if played.bola is not None:
        raise HandError("rendida_with_bola", "bola")
    if played.primeras is not None:
        raise HandError("rendida_with_primeras", "primeras")
    if played.lance not in ("entrada", "vuelta"):
        raise HandError("rendida_lance", "rendida", lance=played.lance)
    if played.defensor is None:
        return None
    if played.lance != "entrada":
        raise HandError("vuelta_rendida_defended", "defensor")
    defensor = seat_value(played.defensor, "defensor", seats)
    if defensor not in contra:
        raise HandError("defensor_not_contra", "defensor", seat=defensor, contra=list(contra))
    return defensor


class Tricks(NamedTuple):
    """R9–R10, R13, R19: what the tricks of a played hand say."""

    counts: tuple[int, int, int]  # Jugador, first contra, second contra
    result: str  # ganada, puesta or codillo
    giver: int  # the contra who gives codillo (1 or 2), else 0
    bola_hecha: bool
    bola_cortada: bool
    has_primeras: bool


def read_tricks(hand: Mapping[str, Any], active: tuple[int, ...], played: Played, contra: tuple[int, ...]) -> Tricks:
    """R9–R10 decide the hand; R13 and R19 read primeras and the bola from the split and the flags."""
    tricks = tricks_value(hand, active)
    counts = (tricks[played.jugador], tricks[contra[0]], tricks[contra[1]])
    outcome = played_outcome(*counts) if sum(counts) == 9 else decided(played_outcome, counts)
    if outcome is None:
        raise HandError("tricks_undecided", "tricks", split=split_text(counts), rule="R10")
    assert isinstance(outcome, tuple)
    result, giver = outcome
    bola_cortada, has_primeras = _read_split(played, counts, result)
    return Tricks(counts, result, giver, counts[0] == 9, bola_cortada, has_primeras)


def _read_split(played: Played, counts: tuple[int, int, int], result: str) -> tuple[bool, bool]:
    """R13, R19 on the split: whether the bola was cut, whether the Jugador has primeras.

    9-0-0 is a bola hecha with or without the flag; 5-0-0 and 9-0-0 have primeras without it.
    """
    j, a, b = counts
    clean = a == 0 and b == 0  # the Jugador took every trick played
    cut = a + b == 1 and 5 <= j <= 8  # J-1-0: the play stopped at the contra's first trick
    if clean and 6 <= j <= 8:
        raise HandError("tricks_after_primeras", "tricks", split=split_text(counts))
    if played.bola is not None:
        _check_bola(played.bola, counts, cut)
    if played.primeras is not None:
        _check_primeras(played.primeras, counts, result, clean or cut)
    bola_cortada = cut and (played.bola == "cortada" or played.primeras == "jugador")  # R19
    return bola_cortada, clean or bola_cortada


def _check_bola(bola: object, counts: tuple[int, int, int], cut: bool) -> None:
    """R19: a bola hecha is 9-0-0, a bola cortada stopped at the contra's first trick."""
    if bola == "hecha" and counts[0] != 9:
        raise HandError("bola_hecha_not_nine", "bola", split=split_text(counts), rule="R19")
    if bola == "cortada" and not cut:
        raise HandError("bola_cortada_split", "bola", split=split_text(counts))


def _check_primeras(primeras: object, counts: tuple[int, int, int], result: str, jugador_took_first: bool) -> None:
    """R13: the Jugador's primeras are the first five tricks; the contra's, five tricks of a puesta."""
    if primeras == "jugador" and not jugador_took_first:
        raise HandError("primeras_jugador_split", "primeras", split=split_text(counts))
    if primeras == "contra" and not (result == "puesta" and counts[1] + counts[2] >= 5):
        raise HandError("primeras_contra_split", "primeras", split=split_text(counts))


# ------------------------------------------------------------- amounts


@dataclass(frozen=True, slots=True)
class Amount:
    """A per-participant amount and the words that explain it."""

    value: int
    detail: Detail


@lru_cache(maxsize=4096)
def per_participant(parts: tuple[tuple[int, str], ...], rounding: int, doubling: str, favor: bool) -> Amount:
    """R14–R15: add the conditions, round up (``rounding``: R14), double a favor (``doubling``: R15's
    ``favor_doubling``). Cached on the two house rules, not the Options: hashing those costs more than the sum."""
    simple = sum(v for v, _ in parts)
    rounded = round_up(simple, rounding)
    changed = rounded if rounded != simple else None
    if not favor:
        return Amount(rounded, Conditions(parts, simple, changed))
    if doubling == "double_rounded":
        return Amount(2 * rounded, Conditions(parts, simple, changed, 2 * rounded))
    doubled = round_up(2 * simple, rounding)
    return Amount(doubled, Conditions(parts, simple, changed, 2 * simple, doubled if doubled != 2 * simple else None))


def condition_parts(lance: str, estuches: int, contra: int, primeras: bool, bola_hecha: bool) -> list[tuple[int, str]]:
    """R11–R13: the conditions of a hand as (tantos, words)."""
    parts: list[tuple[int, str]] = []
    if LANCE_VALUE[lance]:
        parts.append((LANCE_VALUE[lance], LANCE_WORDS[lance]))
    if bola_hecha:
        parts.append((BOLA_VALUE, "bola"))
    cap = estuches if bola_hecha else min(estuches, ESTUCHES_CAP)  # R12
    if cap:
        parts.append((cap, "estuches"))
    ccap = contra if bola_hecha else min(contra, ESTUCHES_CAP)
    if ccap:
        parts.append((ccap, "contraestuches"))
    if primeras:
        parts.append((1, "primeras"))
    return parts


def puesta_amount(plato: int, case1: bool, favor: bool) -> tuple[int, Detail]:
    """R21: P = PL + 20 (40 a favor) in case 1, PL in case 2."""
    if not case1:
        return plato, Detail("plato_entero", plato=plato)
    extra = 2 * PUESTA_EXTRA if favor else PUESTA_EXTRA
    code = "plato_mas_favor" if favor else "plato_mas"
    return plato + extra, Detail(code, plato=plato, extra=extra, total=plato + extra)
