"""Random VALID sessions of the pozo_viuda, ombre and bandos rule sets, and invalid mutations of them.

Plain ``random.Random`` generators (``pozo_session(rng)``, ``ombre_session(rng)``,
``bandos_session(rng)``, ``mutate(rng, session)``) used both by the hypothesis strategies below and by
the big one-off comparison (``python -m tests.engine.strategies_others`` … see ``bench``-style script in
``tests/engine/compare_others.py``). Hand shapes are drawn so that every kind of hand and option of the
documents shows up: won/puesta/codillo splits (full and short but decided), primeras, bola
hecha/cortada, declared bola/contrabola won and lost, passes that overflow the pozo cap into reserves,
matadores 0–4 (0–3 with black trumps), favour and not, Ombre sacadas with vole, codilles, puestas,
``matadores_en``, deals/target endings, both ``outcome`` rules of O2 (with the short splits one decides
and the other leaves open), bandos primeras/capote/faults of both kinds. Mutations also insert the
Tresillo-only entries (ajuste, sienta) and switch the Ombre ``outcome``.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import strategies as st

from . import oracle_others as oracle

SUITS = ("oros", "copas", "espadas", "bastos")
FORMAT = "tresillo-session/1"
NAMES = ("Ana", "Benito", "Carmen", "Diego", "Elena", "Fermín")


def full_split(rng: random.Random) -> list[int]:
    """Three trick counts adding up to nine (the first is the Jugador's), biased to interesting cases."""
    shape = rng.random()
    if shape < 0.12:
        return list(rng.choice(((4, 4, 1), (4, 1, 4), (3, 3, 3), (1, 4, 4), (2, 4, 3), (0, 4, 5)[::-1], (3, 2, 4))))
    if shape < 0.15:
        j = 9
    elif shape < 0.3:
        j = rng.randint(5, 8)
    else:
        j = rng.randint(0, 9)
    a = rng.randint(0, 9 - j)
    return [j, a, 9 - j - a]


def shorten(rng: random.Random, counts: list[int], rule: Any) -> list[int]:
    """Sometimes take tricks away while the hand stays decided the same way (R10)."""
    if rng.random() < 0.6:
        return counts
    want = rule(*counts)
    out = list(counts)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(3)
        if out[i] == 0:
            continue
        out[i] -= 1
        if oracle.decided(rule, (out[0], out[1], out[2])) != want:
            out[i] += 1
    return out


def tricks_obj(rng: random.Random, seats: list[int], counts: list[int]) -> dict[str, int]:
    pairs = list(zip(seats, counts, strict=True))
    rng.shuffle(pairs)
    return {str(s): c for s, c in pairs}


def _first_dealer(rng: random.Random, session: dict[str, Any], count: int) -> int:
    if rng.random() < 0.5:
        session["first_dealer"] = rng.randint(1, count)
        return int(session["first_dealer"])
    return 1


def _dealer(rng: random.Random, hand: dict[str, Any], expected: int, count: int) -> int:
    """Sometimes a hand names its dealer (R2); return the dealer of the hand."""
    if rng.random() < 0.05:
        hand["dealer"] = rng.randint(1, count)
        return int(hand["dealer"])
    return expected


# ------------------------------------------------------------------------------------- pozo y viuda


def pozo_rules(rng: random.Random) -> dict[str, Any]:
    rules: dict[str, Any] = {"ruleset": "pozo_viuda"}
    if rng.random() < 0.5:
        rules["favor_suit"] = rng.choice((*SUITS, None))
    if rng.random() < 0.4:
        rules["pozo_stake"] = rng.randint(1, 10)
    if rng.random() < 0.4:
        rules["viuda_stake"] = rng.randint(1, 40)
    if rng.random() < 0.5:
        rules["pozo_cap"] = rng.randint(1, 5)
    if rng.random() < 0.6:
        rules["contrabola"] = rng.random() < 0.7
    return rules


def pozo_hand(rng: random.Random, n_players: int, dealer: int, rules: dict[str, Any]) -> dict[str, Any]:
    seats = list(range(1, n_players + 1))
    active = [s for s in seats if n_players == 3 or s != dealer]
    j = rng.choice(active)
    others = [s for s in active if s != j]
    lances = ["juego", "juego", "volteo", "roben", "roben", "bola"]
    if rules.get("contrabola"):
        lances.append("contrabola")
    lance = rng.choice(lances)
    favor = rules.get("favor_suit") or "oros"  # null = absent = oros
    trump = favor if rng.random() < 0.4 else rng.choice(SUITS)
    hand: dict[str, Any] = {"jugador": j, "lance": lance, "trump": trump}
    mat = 0 if lance == "contrabola" else rng.randint(0, 3 if trump in ("espadas", "bastos") else 4)
    if mat or rng.random() < 0.3:
        hand["matadores"] = mat
    if lance in ("bola", "contrabola"):
        target = 9 if lance == "bola" else 0
        if rng.random() < 0.5:
            counts = [target, *([9, 0] if target == 0 else [0, 0])]
            if target == 0:
                a = rng.randint(0, 9)
                counts = [0, a, 9 - a]
        else:
            counts = full_split(rng)
        hand["tricks"] = tricks_obj(rng, [j, *others], counts)
        return hand
    # P13: primeras and the bola are read from the tricks; the flags are written or not.
    shape = rng.random()
    if shape < 0.12:  # 5-0-0: he stops with primeras
        counts = [5, 0, 0]
        if rng.random() < 0.5:
            hand["primeras"] = "jugador"
    elif shape < 0.24:  # 9-0-0: a bola hecha
        counts = [9, 0, 0]
        flags = rng.random()
        if flags < 0.3:
            hand["bola"] = "hecha"
        elif flags < 0.5:
            hand["primeras"] = "jugador"
        elif flags < 0.65:
            hand["bola"] = "hecha"
            hand["primeras"] = "jugador"
    elif shape < 0.42:  # a cut bola: played out to nine, or stopped at the defenders' first trick
        jt = rng.randint(5, 8)
        if rng.random() < 0.5:
            d = 9 - jt
            a = rng.randint(0, d)
            counts = [jt, a, d - a]
        else:
            counts = [jt, 1, 0] if rng.random() < 0.5 else [jt, 0, 1]
        flags = rng.random()
        if flags < 0.4:
            hand["primeras"] = "jugador"
        elif flags < 0.7:
            hand["bola"] = "cortada"
        else:
            hand["bola"] = "cortada"
            hand["primeras"] = "jugador"
    else:  # an ordinary hand (no primeras): R9, short when R10 decides it
        counts = shorten(rng, full_split(rng), oracle.r9)
        if counts[1] + counts[2] == 0 and 6 <= counts[0] <= 8:  # J-0-0 with 6-8 is impossible (P13)
            counts = [counts[0], 9 - counts[0], 0]
    hand["tricks"] = tricks_obj(rng, [j, *others], counts)
    return hand


def pozo_session(rng: random.Random, max_hands: int = 25) -> dict[str, Any]:
    n_players = rng.choice((3, 4))
    rules = pozo_rules(rng)
    session: dict[str, Any] = {"format": FORMAT, "players": list(NAMES[:n_players]), "rules": rules, "hands": []}
    dealer = _first_dealer(rng, session, n_players)
    pass_rate = rng.choice((0.1, 0.3, 0.6))
    for _ in range(rng.randint(0, max_hands)):
        hand: dict[str, Any]
        if rng.random() < pass_rate:
            hand = {"pass": True}
            d = _dealer(rng, hand, dealer, n_players)
        else:
            probe: dict[str, Any] = {}
            d = _dealer(rng, probe, dealer, n_players)
            hand = {**pozo_hand(rng, n_players, d, rules), **probe}
        session["hands"].append(hand)
        dealer = d % n_players + 1
    if rng.random() < 0.3:
        session["hands"].append({"close": "repartir"})
    return session


# --------------------------------------------------------------------------------------------- ombre


def ombre_rules(rng: random.Random) -> dict[str, Any]:
    rules: dict[str, Any] = {"ruleset": "ombre"}
    for key, hi in (("stake", 30), ("solo_stake", 50), ("vole_bonus", 30), ("matador_bonus", 20)):
        if rng.random() < 0.3:
            rules[key] = rng.randint(1 if key.endswith("stake") else 0, hi)  # stakes >= 1, bonuses >= 0
    if rng.random() < 0.5:
        rules["deals"] = rng.choice((1, 3, 6, 12, 24, rng.randint(1, 30)))
    if rng.random() < 0.4:
        rules["target"] = rng.randint(1, 120)
    if rng.random() < 0.6:
        rules["outcome"] = rng.choice(("majority_five", "most_tricks"))  # O2
    if rng.random() < 0.6:
        rules["codille"] = rng.choice(("double_sacada", "double_stake", None))  # O4 (null = the default)
    return rules


# Short splits (Jugador first) that one rule of O2 decides and the other does not (R10).
ONLY_MAJORITY = ((3, 3, 2), (3, 2, 3), (2, 3, 3))  # every completion is a puesta by majority; R9 is open
ONLY_MOST_TRICKS = ((4, 2, 2), (2, 4, 2), (2, 2, 4))  # R9 decides (ganada, codille); majority is open


def ombre_hand(rng: random.Random, outcome: str = "majority_five") -> dict[str, Any]:
    j = rng.randint(1, 3)
    others = [s for s in (1, 2, 3) if s != j]
    rule = oracle.OMBRE_OUTCOMES[outcome]
    if rng.random() < 0.08:
        counts = list(rng.choice(ONLY_MAJORITY if outcome == "majority_five" else ONLY_MOST_TRICKS))
    else:
        counts = shorten(rng, full_split(rng), rule)
    hand: dict[str, Any] = {
        "jugador": j,
        "lance": rng.choice(("entrada", "entrada", "vuelta", "solo")),
        "trump": rng.choice(SUITS),
        "tricks": tricks_obj(rng, [j, *others], counts),
    }
    if rng.random() < 0.3:
        hand["matadores_en"] = rng.randint(1, 3)
    return hand


def _truncate_at_end(session: dict[str, Any]) -> None:
    """Keep the hands up to the one that ends the game (O6/B4): a further hand is refused."""
    while True:
        try:
            oracle.settle(session)
            return
        except oracle.OracleError as exc:
            assert exc.hand is not None and exc.reason.endswith("is over"), exc
            del session["hands"][exc.hand - 1 :]


def ombre_session(rng: random.Random, max_hands: int = 30) -> dict[str, Any]:
    session: dict[str, Any] = {"format": FORMAT, "players": list(NAMES[:3]), "rules": ombre_rules(rng), "hands": []}
    dealer = _first_dealer(rng, session, 3)
    outcome = session["rules"].get("outcome", "majority_five")
    for _ in range(rng.randint(0, max_hands)):
        hand = {"pass": True} if rng.random() < 0.15 else ombre_hand(rng, outcome)
        dealer = _dealer(rng, hand, dealer, 3) % 3 + 1
        session["hands"].append(hand)
    _truncate_at_end(session)
    over = bool(session["hands"]) and oracle.settle(session)["over"]
    if not over and rng.random() < 0.3:
        session["hands"].append({"close": "repartir"})
    return session


# -------------------------------------------------------------------------------------------- bandos


def bandos_rules(rng: random.Random) -> dict[str, Any]:
    rules: dict[str, Any] = {"ruleset": "bandos"}
    if rng.random() < 0.7:
        rules["target"] = rng.randint(1, 15)
    for key in ("fuera_de_turno", "renuncio"):
        if rng.random() < 0.3:
            rules[key] = rng.randint(0, 4)
    if rng.random() < 0.6:
        rules["scoring"] = rng.choice(("first_to_three", "first_three_tricks"))  # B2, B5
    return rules


def bandos_hand(rng: random.Random, literal: bool = False) -> dict[str, Any]:
    hand: dict[str, Any] = {}
    faults = rng.random() < 0.35
    if not faults or rng.random() < 0.5:
        hand["primeras"] = rng.choice("AB")
        if literal and rng.random() < 0.4:
            hand["primeras"] = "none"  # B5: the first three tricks were split
        elif rng.random() < 0.25:
            hand["capote"] = True
        elif rng.random() < 0.05:
            hand["capote"] = False
    if faults:
        faltas = []
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            f: dict[str, Any] = {"seat": rng.randint(1, 6), "falta": rng.choice(("fuera_de_turno", "renuncio"))}
            if rng.random() < 0.4:
                f["points"] = rng.randint(0, 5)
            faltas.append(f)
        hand["faltas"] = faltas
    return hand


def bandos_session(rng: random.Random, max_hands: int = 40) -> dict[str, Any]:
    session: dict[str, Any] = {"format": FORMAT, "players": list(NAMES), "rules": bandos_rules(rng), "hands": []}
    dealer = _first_dealer(rng, session, 6)
    for _ in range(rng.randint(0, max_hands)):
        hand = bandos_hand(rng, session["rules"].get("scoring") == "first_three_tricks")
        dealer = _dealer(rng, hand, dealer, 6) % 6 + 1
        session["hands"].append(hand)
    _truncate_at_end(session)
    return session


# ------------------------------------------------------------------------------------------ mutations

BAD_VALUES: tuple[Any, ...] = (None, -1, 0, 1, 2, 3, 4, 5, 7, 9, 10, "x", "", True, False, [], {}, 1.5, "A", "B")
HAND_KEYS = (
    "jugador", "lance", "trump", "matadores", "tricks", "primeras", "bola", "dealer", "pass", "close",
    "matadores_en", "capote", "faltas", "rendida", "estuches", "ajuste", "sienta", "favor", "zzz",
)  # fmt: skip
WORDS = ("juego", "volteo", "roben", "bola", "contrabola", "entrada", "vuelta", "solo", "hecha", "cortada",
         "jugador", "contra", "repartir", "devolver", "oros", "espadas", "renuncio", "fuera_de_turno",
         "majority_five", "most_tricks", "double_sacada", "double_stake", "first_to_three",
         "first_three_tricks", "none")  # fmt: skip


# R32/R33 entries of Tresillo: refused by the other rule sets (format.md: each has its own hand keys).
TRESILLO_ONLY: tuple[dict[str, Any], ...] = (
    {"ajuste": {"from": 1, "to": 2, "amount": 5}},
    {"ajuste": {"from": 2, "to": "todos", "amount": 1}, "note": "renuncio"},
    {"sienta": {"seat": 1, "player": "Zoe"}},
    {"favor": "copas"},
)


def _any_value(rng: random.Random) -> Any:
    return rng.choice((*BAD_VALUES, *WORDS))


def mutate(rng: random.Random, session: dict[str, Any]) -> dict[str, Any]:
    """A copy of a valid session with one or two small changes that usually make it invalid."""
    s = copy.deepcopy(session)
    for _ in range(rng.choice((1, 1, 2))):
        hands = s["hands"]
        choice = rng.random()
        if not hands or choice < 0.08:
            target = rng.choice(("rules", "players", "first_dealer", "format", "hands", "outcome"))
            if target == "rules":
                key = rng.choice(
                    (
                        *[k for k in s["rules"] if k != "ruleset"],
                        "pozo_stake",
                        "deals",
                        "target",
                        "codille",
                        "scoring",
                        "zz",
                    )
                )
                s["rules"][key] = _any_value(rng)
            elif target == "outcome":  # O2: the other rule may leave a short split open, or refuse the key
                other = {"majority_five": "most_tricks", "most_tricks": "majority_five"}
                s["rules"]["outcome"] = other.get(s["rules"].get("outcome", "majority_five"), "majority_five")
            elif target == "players":
                s["players"] = s["players"][: rng.randint(0, len(s["players"]))] + rng.choice(([], ["Zoe"], [""]))
            elif target == "first_dealer":
                s["first_dealer"] = _any_value(rng)
            elif target == "format":
                s["format"] = "tresillo-session/2"
            else:
                hands.append(
                    copy.deepcopy(
                        rng.choice(
                            (
                                {"pass": True},
                                {"close": "repartir"},
                                {},
                                {"primeras": "A"},
                                {"primeras": "none"},
                                *TRESILLO_ONLY,
                            )
                        )
                    )
                )
            continue
        i = rng.randrange(len(hands))
        hand = hands[i]
        if not isinstance(hand, dict):
            continue
        if choice < 0.25 and hand:
            del hand[rng.choice(list(hand))]
        elif choice < 0.55:
            hand[rng.choice(HAND_KEYS)] = _any_value(rng)
        elif choice < 0.75 and isinstance(hand.get("tricks"), dict) and hand["tricks"]:
            t = hand["tricks"]
            seat = rng.choice(list(t))
            op = rng.random()
            if op < 0.4:
                t[seat] = rng.randint(0, 9)
            elif op < 0.6:
                t[str(rng.randint(0, 7))] = t.pop(seat)
            elif op < 0.8:
                del t[seat]
            else:
                t[seat] = _any_value(rng)
        elif choice < 0.85 and isinstance(hand.get("faltas"), list) and hand["faltas"]:
            f = rng.choice(hand["faltas"])
            if isinstance(f, dict):
                f[rng.choice(("seat", "falta", "points", "x"))] = _any_value(rng)
        elif choice < 0.92:
            extra = ({"pass": True}, {"close": "repartir"}, {"pass": False}, [], {"note": "x"}, *TRESILLO_ONLY)
            hands.insert(i, copy.deepcopy(rng.choice(extra)))
        else:
            hands.append(copy.deepcopy(hand))
    return s


# ------------------------------------------------------------------------------------- hypothesis

GENERATORS = {"pozo_viuda": pozo_session, "ombre": ombre_session, "bandos": bandos_session}


def sessions(ruleset: str) -> st.SearchStrategy[dict[str, Any]]:
    """Hypothesis strategy of valid sessions of one rule set."""
    return st.randoms(use_true_random=False).map(GENERATORS[ruleset])


def mutated_sessions(ruleset: str) -> st.SearchStrategy[dict[str, Any]]:
    """Hypothesis strategy of sessions of one rule set with a small change (usually invalid)."""
    return st.randoms(use_true_random=False).map(lambda r: mutate(r, GENERATORS[ruleset](r)))
