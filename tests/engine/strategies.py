"""Random VALID Tresillo sessions, for property tests (hypothesis) and benchmarks (plain ``random``).

One generator, two sources of choices: :func:`random_session` draws from a ``random.Random``
(no hypothesis import, so ``bench/`` can use it), :func:`sessions` draws from hypothesis so
failures shrink. Every hand kind of ``rules/tresillo.md`` is produced: passes, ganadas with
estuches / contraestuches / primeras, bola hecha and cortada, puestas with primeras contra,
codillos, solo codillos, rendidas of entrada and vuelta, defended rendidas in the four cases,
short decided splits (R10), explicit ``dealer`` corrections and an optional closing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from tests.engine.oracle_tresillo import SUITS, all_splits, decided, defended_case, outcome

T = TypeVar("T")


class Chooser(Protocol):
    def integer(self, low: int, high: int) -> int: ...

    def pick(self, items: Sequence[T]) -> T: ...

    def chance(self, percent: int) -> bool: ...


class RandomChooser:
    """Choices from a ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def pick(self, items: Sequence[T]) -> T:
        return items[self.rng.randrange(len(items))]

    def chance(self, percent: int) -> bool:
        return self.rng.randrange(100) < percent


# ------------------------------------------------------------------ split tables (R9, R10, R28)


def _tables() -> tuple[dict[str, list[tuple[int, int, int]]], dict[str, list[tuple[int, int, int]]]]:
    played: dict[str, list[tuple[int, int, int]]] = {}
    defended: dict[str, list[tuple[int, int, int]]] = {}
    for split in all_splits():
        res = decided(outcome, split)
        if res is not None:
            kind, _ = res
            played.setdefault(kind, []).append(split)
            if kind == "ganada" and split[0] >= 5:
                played.setdefault("ganada5", []).append(split)
                if split[0] <= 8:
                    played.setdefault("cortada", []).append(split)
        letter = decided(defended_case, split)
        if letter is not None:
            defended.setdefault(letter, []).append(split)
    return played, defended


PLAYED_SPLITS, DEFENDED_SPLITS = _tables()
# A short split now and then, a full one most of the time (tables mostly write all nine).
_FULL = {k: [s for s in v if sum(s) == 9] for k, v in PLAYED_SPLITS.items()}
_FULL_DEF = {k: [s for s in v if sum(s) == 9] for k, v in DEFENDED_SPLITS.items()}


def _split(ch: Chooser, table: dict[str, list[tuple[int, int, int]]], full: dict[str, Any], key: str) -> Any:
    if ch.chance(20) or not full.get(key):
        return ch.pick(table[key])
    return ch.pick(full[key])


# ------------------------------------------------------------------ options and hands


def random_rules(ch: Chooser) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    if ch.chance(70):
        rules["favor_suit"] = ch.pick([None, *SUITS])
    if ch.chance(25):
        rules["vuelta_solera"] = ch.pick([True, False])
    if ch.chance(30):
        rules["dealer_stake"] = ch.pick([1, 2, 3, 5, 10, 7])
    if ch.chance(30):
        rules["enchilada"] = ch.pick([0, 5, 10, 25, 13])
    if ch.chance(30):
        rules["rounding"] = ch.pick([1, 5, 10, 3, 7])
    if ch.chance(30):
        rules["favor_doubling"] = ch.pick(["double_rounded", "round_doubled"])
    if ch.chance(25):
        rules["vuelta_at_favor"] = ch.pick([True, False])
    if ch.chance(30):
        rules["solo_codillo"] = ch.pick(["codillo_and_conditions", "codillo_only"])
    if ch.chance(30):
        rules["failed_bola"] = ch.pick(["pays_bola", "free"])
    return rules


def _estuches(ch: Chooser, hand: dict[str, Any], bola: bool) -> None:
    roll = ch.integer(0, 9)
    if roll >= 7:
        top = 12 if hand["trump"] in ("oros", "copas") else 11
        count = ch.integer(3, top if (bola or ch.chance(15)) else min(top, 6))
        hand["estuches" if roll != 9 else "contraestuches"] = count


def _tricks(seats: tuple[int, int, int], split: tuple[int, int, int]) -> dict[str, int]:
    return {str(seat): count for seat, count in zip(seats, split, strict=True)}


def random_hand(ch: Chooser, n_players: int, dealer: int, rules: dict[str, Any]) -> dict[str, Any]:
    """One valid played or passed hand dealt by ``dealer`` (no ``dealer`` key)."""
    if ch.chance(8):
        return {"pass": True}
    active = [s for s in range(1, n_players + 1) if n_players == 3 or s != dealer]
    jugador = ch.pick(active)
    contra = [s for s in active if s != jugador]
    if ch.chance(50):
        contra.reverse()
    a, b = contra
    lances = ["entrada", "entrada", "vuelta", "solo"]
    if rules.get("vuelta_solera", True):
        lances.append("vuelta_solera")
    favor = rules.get("favor_suit")
    trumps = [*SUITS, favor] if favor else list(SUITS)
    hand: dict[str, Any] = {"jugador": jugador, "lance": ch.pick(lances), "trump": ch.pick(trumps)}
    kind = ch.integer(0, 99)
    # Weights near a real table: the Jugador wins most hands, so the cartulina stays short.
    if kind < 10 and hand["lance"] in ("entrada", "vuelta"):
        hand["rendida"] = True
        if hand["lance"] == "entrada" and ch.chance(55):
            letter = ch.pick(["a", "b", "c", "d"])
            d, s, m = _split(ch, DEFENDED_SPLITS, _FULL_DEF, letter)
            hand["defensor"] = a
            hand["tricks"] = _tricks((a, jugador, b), (d, s, m))
        return hand
    if kind < 68:
        variant = ch.integer(0, 9)
        if variant == 0:
            hand["tricks"] = _tricks((jugador, a, b), (9, 0, 0))
            hand["bola"] = "hecha"
        elif variant == 1:
            hand["tricks"] = _tricks((jugador, a, b), _split(ch, PLAYED_SPLITS, _FULL, "cortada"))
            hand["bola"] = "cortada"
        elif variant <= 4:
            hand["tricks"] = _tricks((jugador, a, b), _split(ch, PLAYED_SPLITS, _FULL, "ganada5"))
            hand["primeras"] = "jugador"
        else:
            hand["tricks"] = _tricks((jugador, a, b), _split(ch, PLAYED_SPLITS, _FULL, "ganada"))
        _estuches(ch, hand, hand.get("bola") == "hecha")
        return hand
    if kind < 85:
        hand["tricks"] = _tricks((jugador, a, b), ch.pick(PLAYED_SPLITS["puesta"]))
        if ch.chance(40):
            hand["primeras"] = "contra"
    else:
        hand["tricks"] = _tricks((jugador, a, b), _split(ch, PLAYED_SPLITS, _FULL, "codillo"))
    _estuches(ch, hand, False)
    return hand


def build_session(ch: Chooser, hands: int, closing: bool | None = None, players: int | None = None) -> dict[str, Any]:
    """A valid session of ``hands`` entries (the closing, when there is one, counts as one)."""
    n_players = players or ch.pick([3, 4])
    names = ["Ana", "Benito", "Carmen", "Diego"][:n_players]
    rules = random_rules(ch)
    session: dict[str, Any] = {"format": "tresillo-session/1", "players": names, "rules": rules}
    dealer = 1
    if ch.chance(50):
        dealer = ch.integer(1, n_players)
        session["first_dealer"] = dealer
    if closing is None:
        closing = ch.chance(30)
    out: list[dict[str, Any]] = []
    for _ in range(hands - 1 if closing and hands > 0 else hands):
        named: int | None = None
        if ch.chance(4):
            named = ch.integer(1, n_players)
            dealer = named
        hand = random_hand(ch, n_players, dealer, rules)
        if named is not None:
            hand["dealer"] = named
        out.append(hand)
        dealer = dealer % n_players + 1
    if closing and hands > 0:
        out.append({"close": "devolver"})
    session["hands"] = out
    return session


def random_session(
    rng: random.Random, hands: int, closing: bool | None = None, players: int | None = None
) -> dict[str, Any]:
    """A random valid Tresillo session of ``hands`` entries (plain ``random``; used by ``bench/``)."""
    return build_session(RandomChooser(rng), hands, closing, players)


# ------------------------------------------------------------------ hypothesis


def sessions(min_hands: int = 0, max_hands: int = 30, closing: bool | None = None) -> Any:
    """Hypothesis strategy of valid Tresillo sessions."""
    from hypothesis import strategies as st

    class DrawChooser:
        def __init__(self, draw: Callable[[Any], Any]) -> None:
            self.draw = draw

        def integer(self, low: int, high: int) -> int:
            return int(self.draw(st.integers(low, high)))

        def pick(self, items: Sequence[T]) -> T:
            return items[self.draw(st.integers(0, len(items) - 1))]

        def chance(self, percent: int) -> bool:
            return bool(self.draw(st.integers(0, 99)) >= 100 - percent)

    @st.composite
    def _session(draw: Callable[[Any], Any]) -> dict[str, Any]:
        count = draw(st.integers(min_hands, max_hands))
        return build_session(DrawChooser(draw), count, closing)

    return _session()
