"""The engine against the independent oracle of ``oracle_others`` (pozo_viuda, ombre, bandos).

- the oracle reproduces the shared examples' ledgers (so it is a fair judge);
- on random valid sessions, every hand of the engine's ledger equals the oracle's (and the
  engine's transfers add up to the change of balances and pots);
- on mutated sessions both accept or both refuse, naming the same hand;
- a table of edge cases, each with the verdict the documents give, is settled by both.

The big one-off comparison is ``.venv/bin/python -m tests.engine.compare_others 5000``.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from scorer.engine import SessionError, settle
from tests.conftest import EXAMPLES, load_json

from . import oracle_others as oracle
from . import strategies_others as strategies
from .compare_others import HAND_KEYS, compare

RULESETS = ("pozo_viuda", "ombre", "bandos")
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", ["pozo_viuda_seed", "pozo_viuda_table", "ombre_three", "bandos_game"])
def test_oracle_reproduces_the_shared_examples(name: str) -> None:
    want = load_json(EXAMPLES / f"{name}.ledger.json")
    got = oracle.settle(load_json(EXAMPLES / f"{name}.json"))
    ruleset = want["ruleset"]
    assert len(got["hands"]) == len(want["hands"])
    for w, g in zip(want["hands"], got["hands"], strict=True):
        for key in HAND_KEYS[ruleset]:
            if key == "dealer" and w["result"] == "cierre":
                continue
            assert g[key] == w[key], (w["n"], key)
    for key in ("balances", "pozo", "viuda", "bote", "over", "scores", "winner", "next_dealer"):
        if key in want:
            assert got[key] == want[key], key


@pytest.mark.parametrize("ruleset", RULESETS)
def test_generators_make_valid_sessions_with_every_kind_of_hand(ruleset: str) -> None:
    rng = random.Random(5)
    results: set[str] = set()
    for _ in range(300):
        ledger = oracle.settle(strategies.GENERATORS[ruleset](rng))  # raises if invalid
        results |= {h["result"] for h in ledger["hands"]}
    expected = {
        "pozo_viuda": {"paso", "ganada", "puesta", "codillo", "bola", "contrabola", "perdida", "cierre"},
        "ombre": {"paso", "ganada", "puesta", "codillo", "cierre"},
        "bandos": {"mano", "fin"},
    }[ruleset]
    assert results == expected


def test_ombre_generator_uses_both_outcome_rules() -> None:
    """O2: random sessions under each rule, with the short splits only that rule decides."""
    rng = random.Random(11)
    seen: set[tuple[str, str]] = set()
    for _ in range(300):
        session = strategies.ombre_session(rng)
        outcome = session["rules"].get("outcome", "default")
        ledger = oracle.settle(session)  # raises if invalid
        for hand, entry in zip(session["hands"], ledger["hands"], strict=True):
            if "tricks" not in hand:
                continue
            j = str(hand["jugador"])
            split = (hand["tricks"][j], *(hand["tricks"][str(seat)] for seat in (1, 2, 3) if str(seat) != j))
            if split in strategies.ONLY_MAJORITY:
                seen.add((outcome, "only majority"))
            if split in strategies.ONLY_MOST_TRICKS:
                seen.add((outcome, "only most_tricks"))
            if sorted(split[1:]) == [2, 3] and split[0] == 4:
                seen.add((outcome, f"4-3-2 {entry['result']}"))
    assert seen == {
        ("default", "only majority"), ("majority_five", "only majority"), ("most_tricks", "only most_tricks"),
        ("default", "4-3-2 puesta"), ("majority_five", "4-3-2 puesta"), ("most_tricks", "4-3-2 ganada"),
    }  # fmt: skip


def test_oracle_ombre_outcome_amounts() -> None:
    """O2-O4 worked by hand (stake 10, solo_stake 20), Jugador seat 1, dealer seat 1.

    O4: a codille costs twice the sacada (2 x 2S = 40) by default, 2 x S = 20 with ``double_stake``.
    """
    cases = [
        ("most_tricks", h(1, "entrada", "oros", (4, 3, 2), (2, 3)), "ganada", {"1": 20, "2": -10, "3": -10}, 0),
        ("majority_five", h(1, "entrada", "oros", (4, 3, 2), (2, 3)), "puesta", {"1": -20, "2": 0, "3": 0}, 20),
        ("most_tricks", h(1, "entrada", "oros", (2, 4, 3), (2, 3)), "codillo", {"1": -40, "2": 40, "3": 0}, 0),
        ("majority_five", h(1, "solo", "oros", (2, 5, 2), (2, 3)), "codillo", {"1": -80, "2": 80, "3": 0}, 0),
        ("majority_five", h(1, "entrada", "oros", (2, 4, 3), (2, 3)), "puesta", {"1": -20, "2": 0, "3": 0}, 20),
        ("most_tricks", h(1, "solo", "oros", (4, 2, 2), (2, 3)), "ganada", {"1": 40, "2": -20, "3": -20}, 0),
        ("majority_five", h(1, "solo", "oros", (3, 3, 2), (2, 3)), "puesta", {"1": -40, "2": 0, "3": 0}, 40),
        ("most_tricks", h(1, "entrada", "oros", (9, 0, 0), (2, 3)), "ganada", {"1": 40, "2": -20, "3": -20}, 0),
    ]
    for outcome, hand, result, balances, bote in cases:
        ledger = oracle.settle(s(OM, [hand], outcome=outcome))
        assert (ledger["hands"][0]["result"], ledger["balances"], ledger["bote"]) == (result, balances, bote), hand
    for codille, paid in (("double_sacada", 40), (None, 40), ("double_stake", 20)):
        hand = h(1, "entrada", "oros", (2, 5, 2), (2, 3))
        for judge in (oracle.settle, settle):
            ledger = judge(s(OM, [hand], codille=codille))
            assert ledger["balances"] == {"1": -paid, "2": paid, "3": 0}, (codille, judge)


@pytest.mark.parametrize("ruleset", RULESETS)
@PROPERTY
@given(data=strategies.st.data())
def test_engine_equals_oracle_on_valid_sessions(ruleset: str, data: Any) -> None:
    session = data.draw(strategies.sessions(ruleset))
    oracle.settle(session)  # the generator makes valid sessions only
    assert compare(session) is None


@pytest.mark.parametrize("ruleset", RULESETS)
@PROPERTY
@given(data=strategies.st.data())
def test_engine_and_oracle_refuse_the_same_mutated_sessions(ruleset: str, data: Any) -> None:
    assert compare(data.draw(strategies.mutated_sessions(ruleset))) is None


# ----------------------------------------------------------------------------------- edge cases

PV = {"format": "tresillo-session/1", "players": ["A", "B", "C", "D"], "rules": {"ruleset": "pozo_viuda"}}
PV3 = {**PV, "players": ["A", "B", "C"]}
OM = {"format": "tresillo-session/1", "players": ["A", "B", "C"], "rules": {"ruleset": "ombre"}}
BA = {"format": "tresillo-session/1", "players": list("ABCDEF"), "rules": {"ruleset": "bandos"}}


def s(base: dict[str, Any], hands: list[Any], **rules: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    out["rules"].update(rules)
    out["hands"] = hands
    return out


def h(j: int, lance: str, trump: str, split: tuple[int, int, int], seats: tuple[int, int], **extra: Any) -> Any:
    """A played hand: Jugador ``j`` and the two other active seats, in that order of ``split``."""
    return {
        "jugador": j,
        "lance": lance,
        "trump": trump,
        "tricks": dict(zip(map(str, (j, *seats)), split, strict=True)),
        **extra,
    }


# dealer of hand 1 is seat 1: with four players the active seats are 2, 3, 4.
EDGES: list[tuple[str, dict[str, Any], int | None]] = [
    # (what, session, hand the documents refuse or None when valid)
    ("pv favor_suit null", s(PV, [h(2, "roben", "oros", (5, 2, 2), (3, 4))], favor_suit=None), None),
    ("pv pozo_stake 0", s(PV, [], pozo_stake=0), 0),
    ("pv viuda_stake 0", s(PV, [{"pass": True}], viuda_stake=0), 0),
    ("pv viuda_stake null", s(PV, [{"pass": True}], viuda_stake=None), None),
    ("pv unknown rule", s(PV, [], zz=1), 0),
    # P13: primeras and the bola from the tricks, with or without the flags
    ("pv 5-0-0 unflagged", s(PV, [h(2, "juego", "oros", (5, 0, 0), (3, 4))]), None),
    ("pv 9-0-0 unflagged", s(PV, [h(2, "juego", "oros", (9, 0, 0), (3, 4))]), None),
    ("pv 9-0-0 primeras only", s(PV, [h(2, "volteo", "copas", (9, 0, 0), (3, 4), primeras="jugador")]), None),
    ("pv 6-0-0 unflagged", s(PV, [h(2, "juego", "oros", (6, 0, 0), (3, 4))]), 1),
    ("pv 8-0-0 primeras", s(PV, [h(2, "juego", "oros", (8, 0, 0), (3, 4), primeras="jugador")]), 1),
    ("pv cut 7-2-0 primeras", s(PV, [h(2, "juego", "oros", (7, 2, 0), (3, 4), primeras="jugador")]), None),
    ("pv cut 5-2-2 cortada", s(PV, [h(2, "roben", "copas", (5, 2, 2), (3, 4), bola="cortada")]), None),
    ("pv cut 5-4-0 primeras", s(PV, [h(2, "juego", "oros", (5, 4, 0), (3, 4), primeras="jugador")]), None),
    ("pv cut 8-0-1 primeras", s(PV, [h(2, "juego", "oros", (8, 0, 1), (3, 4), primeras="jugador")]), None),
    ("pv cut 5-1-0 stopped", s(PV, [h(2, "juego", "oros", (5, 1, 0), (3, 4), bola="cortada")]), None),
    ("pv cut 5-2-1 refused", s(PV, [h(2, "juego", "oros", (5, 2, 1), (3, 4), primeras="jugador")]), 1),
    ("pv cut 6-2-0 refused", s(PV, [h(2, "juego", "oros", (6, 2, 0), (3, 4), bola="cortada")]), 1),
    ("pv 5-0-0 cortada refused", s(PV, [h(2, "juego", "oros", (5, 0, 0), (3, 4), bola="cortada")]), 1),
    ("pv 6-1-0 plain", s(PV, [h(2, "juego", "oros", (6, 1, 0), (3, 4))]), None),
    ("pv 7-2-0 plain", s(PV, [h(2, "juego", "oros", (7, 2, 0), (3, 4))]), None),
    (
        "pv pozo_cap 1 overflow",
        s(PV, [{"pass": True}] * 3 + [h(3, "juego", "oros", (2, 2, 5), (1, 2))], pozo_cap=1),
        None,
    ),
    ("pv jugador is the dealer", s(PV, [h(1, "juego", "oros", (5, 2, 2), (2, 3))]), 1),
    ("pv 3 players dealer plays", s(PV3, [h(1, "juego", "oros", (5, 2, 2), (2, 3))]), None),
    ("pv matadores 4 black", s(PV, [h(2, "juego", "espadas", (5, 2, 2), (3, 4), matadores=4)]), 1),
    ("pv matadores 4 red", s(PV, [h(2, "juego", "copas", (5, 2, 2), (3, 4), matadores=4)]), None),
    ("pv matadores null", s(PV, [h(2, "juego", "copas", (5, 2, 2), (3, 4), matadores=None)]), None),
    ("pv contrabola not admitted", s(PV, [h(2, "contrabola", "copas", (0, 5, 4), (3, 4))]), 1),
    ("pv contrabola won", s(PV, [h(2, "contrabola", "oros", (0, 5, 4), (3, 4))], contrabola=True), None),
    (
        "pv contrabola matadores",
        s(PV, [h(2, "contrabola", "copas", (0, 5, 4), (3, 4), matadores=1)], contrabola=True),
        1,
    ),
    ("pv contrabola lost", s(PV, [h(2, "contrabola", "copas", (1, 4, 4), (3, 4))], contrabola=True), None),
    ("pv declared bola short", s(PV, [h(2, "bola", "copas", (8, 0, 0), (3, 4))]), 1),
    ("pv declared bola primeras", s(PV, [h(2, "bola", "copas", (9, 0, 0), (3, 4), primeras="jugador")]), 1),
    ("pv declared bola bola key", s(PV, [h(2, "bola", "copas", (9, 0, 0), (3, 4), bola="hecha")]), 1),
    ("pv declared bola lost", s(PV, [h(2, "bola", "oros", (7, 1, 1), (3, 4), matadores=2)]), None),
    ("pv bola hecha without primeras key", s(PV, [h(2, "juego", "oros", (9, 0, 0), (3, 4), bola="hecha")]), None),
    ("pv bola hecha 8 tricks", s(PV, [h(2, "juego", "oros", (8, 1, 0), (3, 4), bola="hecha")]), 1),
    ("pv bola cortada 9 tricks", s(PV, [h(2, "juego", "oros", (9, 0, 0), (3, 4), bola="cortada")]), 1),
    ("pv bola cortada short", s(PV, [h(2, "roben", "oros", (6, 1, 0), (3, 4), bola="cortada")]), None),
    ("pv bola cortada 4 tricks", s(PV, [h(2, "juego", "oros", (4, 3, 2), (3, 4), bola="cortada")]), 1),
    ("pv primeras contra", s(PV, [h(2, "juego", "oros", (4, 4, 1), (3, 4), primeras="contra")]), 1),
    ("pv primeras on a puesta", s(PV, [h(2, "juego", "oros", (4, 4, 1), (3, 4), primeras="jugador")]), 1),
    ("pv primeras with 4 tricks", s(PV, [h(2, "juego", "oros", (4, 3, 2), (3, 4), primeras="jugador")]), 1),
    ("pv primeras short 5-0-0", s(PV, [h(2, "volteo", "oros", (5, 0, 0), (3, 4), primeras="jugador")]), None),
    ("pv undecided 4-4-0", s(PV, [h(2, "juego", "oros", (4, 4, 0), (3, 4))]), 1),
    ("pv endose 4-3-2 wins", s(PV, [h(2, "juego", "oros", (4, 3, 2), (3, 4))]), None),
    ("pv roben a favor puesta", s(PV, [h(2, "roben", "oros", (3, 3, 3), (3, 4), matadores=1)]), None),
    ("pv pass after the pozo was won", s(PV, [h(2, "juego", "oros", (5, 2, 2), (3, 4)), {"pass": True}]), None),
    ("pv pass false", s(PV, [{"pass": False}]), 1),
    ("pv pass with dealer", s(PV, [{"pass": True, "dealer": 3}, h(1, "juego", "oros", (5, 2, 2), (2, 3))]), None),
    ("pv close devolver", s(PV, [{"close": "devolver"}]), 1),
    ("pv close first", s(PV, [{"close": "repartir"}]), None),
    ("pv close with dealer", s(PV, [{"pass": True}, {"close": "repartir", "dealer": 2}]), 2),
    ("pv hand after close", s(PV, [{"close": "repartir"}, {"pass": True}]), 2),
    (
        "pv close odd points",
        s(PV3, [h(1, "juego", "copas", (2, 2, 5), (2, 3), matadores=1), {"close": "repartir"}]),
        None,
    ),
    ("pv ombre key", s(PV, [h(2, "juego", "oros", (5, 2, 2), (3, 4), matadores_en=2)]), 1),
    ("om vole", s(OM, [h(1, "solo", "oros", (9, 0, 0), (2, 3), matadores_en=2)]), None),
    ("om no vole short", s(OM, [h(1, "solo", "oros", (8, 0, 0), (2, 3))]), None),
    ("om majority 4-3-2 puesta", s(OM, [h(1, "entrada", "oros", (4, 3, 2), (2, 3))]), None),
    ("om undecided", s(OM, [h(1, "entrada", "oros", (4, 4, 0), (2, 3))]), 1),
    ("om codille short", s(OM, [h(1, "entrada", "oros", (0, 5, 0), (2, 3))]), None),
    ("om primeras key", s(OM, [h(1, "entrada", "oros", (5, 2, 2), (2, 3), primeras="jugador")]), 1),
    ("om primeras null", s(OM, [h(1, "entrada", "oros", (5, 2, 2), (2, 3), primeras=None)]), 1),
    ("om vuelta_solera", s(OM, [h(1, "vuelta_solera", "oros", (5, 2, 2), (2, 3))]), 1),
    ("om 4 players", {**s(OM, []), "players": list("ABCD")}, 0),
    ("om deals end", s(OM, [{"pass": True}, {"pass": True}], deals=1), 2),
    (
        "om closing after the end",
        s(OM, [h(1, "entrada", "oros", (3, 3, 3), (2, 3)), {"close": "repartir"}], deals=1),
        2,
    ),
    (
        "om pass after the end",
        s(OM, [h(1, "entrada", "oros", (3, 3, 3), (2, 3)), {"pass": True}], deals=1),
        2,
    ),
    ("om target reached", s(OM, [h(1, "entrada", "oros", (5, 3, 1), (2, 3)), {"pass": True}], target=20), 2),
    ("om target not reached", s(OM, [h(1, "entrada", "oros", (5, 3, 1), (2, 3)), {"pass": True}], target=21), None),
    ("om deals 0", s(OM, [], deals=0), 0),
    (
        "om matador bonus on a codille",
        s(OM, [h(1, "entrada", "oros", (3, 3, 3), (2, 3)), h(2, "entrada", "oros", (2, 5, 2), (3, 1), matadores_en=2)]),
        None,
    ),
    # O2: the outcome rule decides the verdict and which short splits are decided (R10 with that rule)
    ("om most_tricks 4-3-2 sacada", s(OM, [h(1, "entrada", "oros", (4, 3, 2), (2, 3))], outcome="most_tricks"), None),
    ("om most_tricks 1-4-4 puesta", s(OM, [h(1, "entrada", "oros", (1, 4, 4), (2, 3))], outcome="most_tricks"), None),
    ("om most_tricks short 4-2-2", s(OM, [h(1, "entrada", "oros", (4, 2, 2), (2, 3))], outcome="most_tricks"), None),
    ("om majority short 4-2-2", s(OM, [h(1, "entrada", "oros", (4, 2, 2), (2, 3))], outcome="majority_five"), 1),
    ("om default short 4-2-2", s(OM, [{"pass": True}, h(1, "entrada", "oros", (4, 2, 2), (2, 3))]), 2),
    ("om most_tricks short 2-4-2", s(OM, [h(1, "entrada", "oros", (2, 4, 2), (2, 3))], outcome="most_tricks"), None),
    ("om majority short 2-4-2", s(OM, [h(1, "entrada", "oros", (2, 4, 2), (2, 3))]), 1),
    ("om majority short 3-3-2", s(OM, [h(1, "entrada", "oros", (3, 3, 2), (2, 3))], outcome="majority_five"), None),
    ("om most_tricks short 3-3-2", s(OM, [h(1, "entrada", "oros", (3, 3, 2), (2, 3))], outcome="most_tricks"), 1),
    ("om outcome unknown", s(OM, [], outcome="r9"), 0),
    ("om codille double_stake", s(OM, [h(1, "entrada", "oros", (2, 5, 2), (2, 3))], codille="double_stake"), None),
    ("om codille unknown", s(OM, [], codille="double"), 0),
    ("om codille null", s(OM, [h(1, "entrada", "oros", (2, 5, 2), (2, 3))], codille=None), None),
    ("om stake 0", s(OM, [], stake=0), 0),
    ("om vole_bonus 0", s(OM, [h(1, "entrada", "oros", (9, 0, 0), (2, 3))], vole_bonus=0), None),
    # R32/R33 are Tresillo entries: the other rule sets have no such hand keys (format.md)
    ("pv ajuste", s(PV, [{"ajuste": {"from": 2, "to": "plato", "amount": 10}}]), 1),
    ("pv sienta", s(PV, [{"pass": True}, {"sienta": {"seat": 4, "player": "E"}}]), 2),
    ("om ajuste", s(OM, [{"ajuste": {"from": 2, "to": 1, "amount": 10}, "note": "renuncio"}]), 1),
    ("om sienta", s(OM, [{"sienta": {"seat": 1, "player": "E"}}]), 1),
    ("ba ajuste", s(BA, [{"primeras": "A"}, {"ajuste": {"from": 2, "to": "todos", "amount": 1}}]), 2),
    ("ba sienta", s(BA, [{"sienta": {"seat": 6, "player": "G"}}]), 1),
    ("ba capote without primeras", s(BA, [{"capote": True, "faltas": [{"seat": 1, "falta": "renuncio"}]}]), 1),
    ("ba capote false", s(BA, [{"primeras": "A", "capote": False}]), None),
    ("ba empty hand", s(BA, [{}]), 1),
    ("ba empty faltas", s(BA, [{"faltas": []}]), 1),
    ("ba fault without tantos", s(BA, [{"faltas": [{"seat": 2, "falta": "fuera_de_turno", "points": 3}]}]), None),
    ("ba fault after primeras", s(BA, [{"primeras": "B", "faltas": [{"seat": 2, "falta": "renuncio"}]}]), None),
    ("ba points negative", s(BA, [{"faltas": [{"seat": 2, "falta": "renuncio", "points": -1}]}]), 1),
    ("ba pass", s(BA, [{"pass": True}]), 1),
    ("ba close", s(BA, [{"primeras": "A"}, {"close": "repartir"}]), 2),
    ("ba target reached", s(BA, [{"primeras": "A"}, {"primeras": "B"}, {"primeras": "A"}], target=2), None),
    (
        "ba zero-offender faults",
        s(
            BA,
            [
                {
                    "primeras": "A",
                    "faltas": [{"seat": 1, "falta": "renuncio", "points": 1}, {"seat": 3, "falta": "fuera_de_turno"}],
                }
            ],
        ),
        None,
    ),
    ("ba after the end", s(BA, [{"primeras": "A"}, {"primeras": "B"}], target=1), 2),
    ("ba 5 players", {**s(BA, []), "players": list("ABCDE")}, 0),
    # B5: the literal reading of the first three tricks
    ("ba none literal", s(BA, [{"primeras": "none"}], scoring="first_three_tricks"), None),
    (
        "ba none with a fault",
        s(BA, [{"primeras": "none", "faltas": [{"seat": 2, "falta": "renuncio"}]}], scoring="first_three_tricks"),
        None,
    ),
    ("ba none by default", s(BA, [{"primeras": "none"}]), 1),
    ("ba none first_to_three", s(BA, [{"primeras": "none"}], scoring="first_to_three"), 1),
    ("ba none with capote", s(BA, [{"primeras": "none", "capote": True}], scoring="first_three_tricks"), 1),
    ("ba literal team", s(BA, [{"primeras": "B", "capote": True}], scoring="first_three_tricks"), None),
    ("ba scoring unknown", s(BA, [], scoring="literal"), 0),
    ("ba falta unknown key", s(BA, [{"faltas": [{"seat": 2, "falta": "renuncio", "why": "x"}]}]), 1),
    ("ba target null", s(BA, [{"primeras": "A"}], target=None), None),
]


@pytest.mark.parametrize(("what", "session", "refused_at"), EDGES, ids=[e[0] for e in EDGES])
def test_edge_cases_as_the_documents_say(what: str, session: dict[str, Any], refused_at: int | None) -> None:
    try:
        oracle.settle(session)
        oracle_hand: int | None = -1
    except oracle.OracleError as exc:
        oracle_hand = 0 if exc.hand is None else exc.hand
    try:
        settle(session)
        engine_hand: int | None = -1
    except SessionError as exc:
        engine_hand = 0 if exc.hand is None else exc.hand
    want = -1 if refused_at is None else refused_at
    assert (oracle_hand, engine_hand) == (want, want)
    assert compare(session) is None


def test_edge_case_amounts() -> None:
    """A few amounts worked by hand from the documents (not from either program)."""
    # P2 + P3: pass right after the pozo was won (4 players, stake 5): restake 20, then 20 more.
    ledger = settle(s(PV, [h(2, "juego", "copas", (5, 2, 2), (3, 4)), {"pass": True}]))
    assert ledger["hands"][1]["pozo"] == {"amount": 40, "reserves": []}
    # P9 contrabola lost (3 players, jugador 1): pozo 15 doubled, viuda 75 doubled, 40 to each of 2.
    ledger = settle(s(PV3, [h(1, "contrabola", "copas", (1, 4, 4), (2, 3))], contrabola=True))
    assert ledger["hands"][0]["balances"]["1"] == -5 - 25 - 15 - 75 - 80
    assert ledger["hands"][0]["pozo"]["amount"] == 30 and ledger["hands"][0]["viuda"] == 150
    # O5 + O4: seat 2 gives codille to seat 1 after a puesta of 20: 2 takes 5 from the bote, pays 20.
    ledger = settle(
        s(OM, [h(3, "entrada", "oros", (3, 3, 3), (1, 2)), h(1, "entrada", "oros", (2, 5, 2), (2, 3), matadores_en=2)])
    )
    assert ledger["hands"][1]["balances"] == {"1": -40, "2": 45, "3": -20} and ledger["bote"] == 15
    # P13, seed 002 read literally (3 players, stake 5, viuda 25, jugador 2, dealer 1, oros a favor,
    # juego, no matadores): P1 puts 15 in the pozo and 75 in the viuda.
    # 5-0-0 unflagged: primeras: each of the two others pays 0 + 0 + 1; he takes the pozo (15).
    ledger = settle(s(PV3, [h(2, "juego", "oros", (5, 0, 0), (1, 3))]))
    assert ledger["balances"] == {"1": -31, "2": -13, "3": -31} and ledger["pozo"]["amount"] == 0
    # 9-0-0 unflagged: a bola hecha (P8): each pays 0 + 1 + 40; he takes pozo 15 and viuda 75,
    # then all restake the viuda (25 each).
    ledger = settle(s(PV3, [h(2, "juego", "oros", (9, 0, 0), (1, 3))]))
    assert ledger["hands"][0]["result"] == "bola"
    assert ledger["balances"] == {"1": -30 - 41 - 25, "2": -30 + 82 + 90 - 25, "3": -30 - 41 - 25}
    # 7-2-0 with primeras: a cut bola (P10): wins 1 from each and the pozo (15), then doubles the
    # viuda (75) and pays 40 to each.
    ledger = settle(s(PV3, [h(2, "juego", "oros", (7, 2, 0), (1, 3), primeras="jugador")]))
    assert ledger["hands"][0]["result"] == "ganada" and ledger["viuda"] == 150
    assert ledger["balances"]["2"] == -30 + 2 + 15 - 75 - 80


def test_generators_make_the_bola_codille_and_nadie_cases() -> None:
    """P13 (unflagged 5-0-0 and 9-0-0, a cut bola played out and stopped), O4 both ways, B5 "none"."""
    rng = random.Random(22)
    seen: set[str] = set()
    for _ in range(300):
        session = strategies.pozo_session(rng)
        oracle.settle(session)  # raises if invalid
        for hand in session["hands"]:
            if "tricks" not in hand or hand["lance"] in ("bola", "contrabola"):
                continue
            j = str(hand["jugador"])
            jt = hand["tricks"][j]
            dt = sum(v for k, v in hand["tricks"].items() if k != j)
            flagged = "primeras" in hand or "bola" in hand
            if (jt, dt) == (5, 0) and not flagged:
                seen.add("5-0-0 unflagged")
            if jt == 9 and not flagged:
                seen.add("9-0-0 unflagged")
            if flagged and 5 <= jt <= 8 and dt >= 1:
                seen.add("cut bola played out" if jt + dt == 9 else "cut bola stopped")
        ombre = strategies.ombre_session(rng)
        ledger = oracle.settle(ombre)
        if any(h["result"] == "codillo" for h in ledger["hands"]):
            seen.add(f"codille {ombre['rules'].get('codille') or 'default'}")
        bandos = strategies.bandos_session(rng)
        oracle.settle(bandos)
        if any(h.get("primeras") == "none" for h in bandos["hands"]):
            seen.add("bandos none")
    assert seen == {
        "5-0-0 unflagged", "9-0-0 unflagged", "cut bola played out", "cut bola stopped",
        "codille double_sacada", "codille double_stake", "codille default", "bandos none",
    }  # fmt: skip
