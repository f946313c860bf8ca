"""Random VALID Tresillo sessions, for property tests (hypothesis) and benchmarks (plain ``random``).

One generator, two sources of choices: :func:`random_session` draws from a ``random.Random``
(no hypothesis import, so ``bench/`` can use it), :func:`sessions` draws from hypothesis so
failures shrink. Every entry kind of ``rules/tresillo.md`` is produced: passes, ganadas with
estuches / contraestuches, primeras and bola read from the tricks (R13/R19: 5-0-0 with and without
the flag, 9-0-0 with and without ``bola``, J-1-0 with ``primeras`` only, with ``bola: "cortada"``
or both), puestas with primeras contra, codillos, solo codillos (``solo_codillo`` both ways),
rendidas of entrada and vuelta, defended rendidas in the four cases, short decided splits (R10),
explicit ``dealer`` corrections, ajustes to a seat, to the plato and to ``todos`` (R32), changes
of player with new and returning people (R33), changes of favour suit (R34, also naming one where
the table had none) and an optional closing, ``devolver`` or
``repartir`` (R30).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from tests.engine.oracle_tresillo import SUITS, all_splits, decided, defended_case, outcome, read_split

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
            if kind != "ganada":
                played.setdefault(kind, []).append(split)
            elif read_split(split, None, None) == (False, None):
                played.setdefault("ganada", []).append(split)  # a plain ganada (J-1-0 without flags too)
            if kind == "ganada" and sorted(split[1:]) == [0, 1] and 5 <= split[0] <= 8:
                played.setdefault("cortada", []).append(split)  # J-1-0, J 5-8 (R19)
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
    if ch.chance(45):
        rules["solo_codillo"] = ch.pick(["codillo_and_conditions", "codillo_only"])  # R24
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
        if variant == 0:  # R19: 9-0-0 is a bola hecha with or without the flags
            hand["tricks"] = _tricks((jugador, a, b), (9, 0, 0))
            flags = ch.integer(0, 3)
            if flags in (1, 3):
                hand["bola"] = "hecha"
            if flags in (2, 3):
                hand["primeras"] = "jugador"
        elif variant == 1:  # R19: J-1-0 with primeras, or bola cortada, or both
            hand["tricks"] = _tricks((jugador, a, b), ch.pick(PLAYED_SPLITS["cortada"]))
            flags = ch.integer(0, 2)
            if flags != 1:
                hand["bola"] = "cortada"
            if flags != 0:
                hand["primeras"] = "jugador"
        elif variant == 2:  # R13: 5-0-0 has primeras with or without the flag
            hand["tricks"] = _tricks((jugador, a, b), (5, 0, 0))
            if ch.chance(50):
                hand["primeras"] = "jugador"
        else:
            hand["tricks"] = _tricks((jugador, a, b), _split(ch, PLAYED_SPLITS, _FULL, "ganada"))
        _estuches(ch, hand, hand["tricks"][str(jugador)] == 9)  # a bola hecha counts every estuche
        return hand
    if kind < 85:
        hand["tricks"] = _tricks((jugador, a, b), ch.pick(PLAYED_SPLITS["puesta"]))
        if ch.chance(40):
            hand["primeras"] = "contra"
    else:
        hand["tricks"] = _tricks((jugador, a, b), _split(ch, PLAYED_SPLITS, _FULL, "codillo"))
    _estuches(ch, hand, False)
    return hand


NEW_NAMES = ["Elena", "Fermín", "Gloria", "Héctor", "Inés", "Julio", "Lola", "Manolo"]


def random_ajuste(ch: Chooser, n_players: int) -> dict[str, Any]:
    """R32: a payment from a seat to another seat, to the plato or to every other seat."""
    src = ch.integer(1, n_players)
    to: Any = ch.pick(["plato", "todos", "seat", "seat"])
    if to == "seat":
        to = ch.pick([s for s in range(1, n_players + 1) if s != src])
    entry: dict[str, Any] = {"ajuste": {"from": src, "to": to, "amount": ch.pick([1, 5, 10, 25, ch.integer(1, 60)])}}
    if ch.chance(50):
        entry["note"] = ch.pick(["renuncio", "mal dado", "corrección"])
    return entry


def random_sienta(ch: Chooser, seating: list[str], known: list[str]) -> dict[str, Any]:
    """R33: a new person or one who sat before (and is not seated now) takes a seat."""
    seat = ch.integer(1, len(seating))
    returning = [p for p in known if p not in seating]
    fresh = [p for p in NEW_NAMES if p not in known]
    if returning and (ch.chance(45) or not fresh):
        name = ch.pick(returning)
    else:
        name = fresh[0] if fresh else f"Invitado {len(known) + 1}"
        known.append(name)
    seating[seat - 1] = name
    entry: dict[str, Any] = {"sienta": {"seat": seat, "player": name}}
    if ch.chance(30):
        entry["note"] = "cambio de jugador"
    return entry


def random_favor(ch: Chooser, current: str | None) -> dict[str, Any]:
    """R34: a change of favour suit to any suit but the one in force (any suit when there is none)."""
    entry: dict[str, Any] = {"favor": ch.pick([s for s in SUITS if s != current])}
    if ch.chance(30):
        entry["note"] = "cambio de palo de favor"
    return entry


def build_session(ch: Chooser, hands: int, closing: bool | None = None, players: int | None = None) -> dict[str, Any]:
    """A valid session of ``hands`` entries (ajustes, changes of player and the closing count as entries)."""
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
    seating = list(names)
    known = list(names)
    evening = ch.chance(40)  # some sessions have ajustes and changes of player, most have few
    in_force = dict(rules)  # the rules as the hands see them: favor_suit changes with R34
    out: list[dict[str, Any]] = []
    for _ in range(hands - 1 if closing and hands > 0 else hands):
        roll = ch.integer(0, 99)
        if evening and roll < 6:
            out.append(random_ajuste(ch, n_players))
            continue
        if evening and roll < 10:
            out.append(random_sienta(ch, seating, known))
            continue
        if evening and roll < 13:
            entry = random_favor(ch, in_force.get("favor_suit"))
            in_force["favor_suit"] = entry["favor"]
            out.append(entry)
            continue
        named: int | None = None
        if ch.chance(4):
            named = ch.integer(1, n_players)
            dealer = named
        hand = random_hand(ch, n_players, dealer, in_force)
        if named is not None:
            hand["dealer"] = named
        out.append(hand)
        dealer = dealer % n_players + 1
    if closing and hands > 0:
        out.append({"close": ch.pick(["devolver", "repartir"])})
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
