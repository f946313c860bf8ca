"""Property tests on random valid sessions (tests/engine/strategies.py) against the oracle."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.engine import SessionError, settle, start
from tests.engine import oracle_tresillo
from tests.engine.strategies import random_session, sessions

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KEYS = ("dealer", "result", "balances", "plato", "cartulina")


def same_as_oracle(session: dict[str, Any]) -> None:
    want = oracle_tresillo.settle(session)
    got = settle(session)
    assert len(got["hands"]) == len(want["hands"])
    for w, g in zip(want["hands"], got["hands"], strict=True):
        for key in KEYS:
            assert g[key] == w[key], f"hand {w['n']}: {key}\n{json.dumps(session)}"
        assert g.get("seating") == w.get("seating"), f"hand {w['n']}: seating"  # R33: only on a sienta
    for key in ("balances", "plato", "cartulina", "next_dealer", "players", "people"):
        assert got[key] == want[key], key
    assert list(got["people"]) == list(want["people"])  # in the order they first sat


@FAST
@given(sessions(max_hands=40))
def test_engine_equals_oracle(session: dict[str, Any]) -> None:
    same_as_oracle(session)


def test_engine_equals_oracle_on_long_seeded_sessions() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        same_as_oracle(random_session(rng, rng.randint(50, 200)))


@FAST
@given(sessions(max_hands=30))
def test_r31_after_every_hand(session: dict[str, Any]) -> None:
    led = settle(session)
    for entry in led["hands"]:
        assert sum(entry["balances"].values()) + entry["plato"]["amount"] == 0
        assert entry["plato"]["amount"] >= 0
    assert sum(led["people"].values()) + led["plato"]["amount"] == 0  # R31: the people too


@FAST
@given(sessions(max_hands=30))
def test_transfers_add_up_to_the_change(session: dict[str, Any]) -> None:
    led = settle(session)
    before = dict.fromkeys(led["players"], 0) | {"plato": 0}
    for entry in led["hands"]:
        moved = dict.fromkeys(before, 0)
        for t in entry["transfers"]:
            assert type(t["amount"]) is int and t["amount"] > 0
            assert t["from"] != t["to"]
            moved[str(t["from"])] -= t["amount"]
            moved[str(t["to"])] += t["amount"]
        after = dict(entry["balances"]) | {"plato": entry["plato"]["amount"]}
        assert {k: after[k] - before[k] for k in after} == moved
        before = after


@FAST
@given(sessions(max_hands=30))
def test_dealer_rotation(session: dict[str, Any]) -> None:
    led = settle(session)
    n = len(session["players"])
    dealer = session.get("first_dealer", 1)
    for hand, entry in zip(session["hands"], led["hands"], strict=True):
        if {"close", "ajuste", "sienta", "favor"} & set(hand):  # R30, R32, R33, R34: they use up no deal
            assert entry["dealer"] is None
            continue
        dealer = hand.get("dealer", dealer)  # R2: a named dealer corrects the rotation
        assert entry["dealer"] == dealer
        dealer = dealer % n + 1
    assert led["next_dealer"] == dealer


@FAST
@given(sessions(max_hands=25))
def test_determinism_and_input_untouched(session: dict[str, Any]) -> None:
    original = copy.deepcopy(session)
    first = settle(session)
    assert session == original
    assert settle(session) == first
    assert start(session).ledger() == first


@FAST
@given(sessions(max_hands=25))
def test_json_text_round_trip(session: dict[str, Any]) -> None:
    text = json.dumps(session, ensure_ascii=False)
    assert settle(json.loads(text)) == settle(session)
    ledger_text = json.dumps(settle(session))
    assert json.loads(ledger_text) == settle(session)


@FAST
@given(sessions(min_hands=1, max_hands=25, closing=False))
def test_start_add_equals_settling_with_the_hand_appended(session: dict[str, Any]) -> None:
    head = {**session, "hands": session["hands"][:-1]}
    base = start(head)
    before = base.ledger()
    preview = base.add(session["hands"][-1])
    assert preview.ledger() == settle(session)
    assert preview.entries[-1] == settle(session)["hands"][-1]
    assert base.ledger() == before  # the preview leaves the settled state alone


# ------------------------------------------------------------------ invalid input

BAD_VALUES: list[Any] = [None, True, 0, 1, 2, 3, 5, 9, 12, 13, -1, "1", "oros", "solo", "contra", "hecha", [], {}, 2.0,
                         "cortada", "jugador", "plato", "todos", "repartir", "Ana"]  # fmt: skip
HAND_KEYS = ["jugador", "lance", "trump", "estuches", "contraestuches", "tricks", "primeras", "bola", "rendida",
             "defensor", "dealer", "pass", "close", "ajuste", "sienta", "otro"]  # fmt: skip
BAD_AJUSTES: list[Any] = [
    {"from": 1, "to": 1, "amount": 5},  # R32: from = to
    {"from": 1, "to": 2, "amount": 0},  # a positive whole number
    {"from": 1, "to": 2, "amount": -5},
    {"from": 1, "to": 2, "amount": 2.5},
    {"from": 1, "to": 2, "amount": "10"},
    {"from": 1, "to": 2, "amount": True},
    {"from": 1, "to": "nadie", "amount": 5},
    {"from": "plato", "to": 2, "amount": 5},
    {"from": 5, "to": "todos", "amount": 5},
    {"from": 1, "to": 0, "amount": 5},
    {"from": 1, "to": 2},
    {"from": 1, "to": 2, "amount": 5, "otro": 1},
    {"from": 2, "to": "plato", "amount": 10},  # valid (unless it follows the closing or names seat 4 of 3)
    {"from": 3, "to": "todos", "amount": 1},
    [],
]
BAD_SIENTAS: list[Any] = [
    {"seat": 1, "player": "Ana"},  # R33: Ana sits at seat 1 until she leaves
    {"seat": 2, "player": "Carmen"},  # seated at another seat
    {"seat": 4, "player": ""},
    {"seat": 0, "player": "Zoe"},
    {"seat": 5, "player": "Zoe"},
    {"seat": "1", "player": "Zoe"},
    {"seat": 1, "player": 7},
    {"seat": 1},
    {"seat": 1, "player": "Zoe", "otro": True},
    {"seat": 3, "player": "Zoe"},  # valid (unless it follows the closing or Zoe is seated already)
    "Zoe",
]
AFTER_CLOSING: list[Any] = [
    {"pass": True},
    {"ajuste": {"from": 1, "to": 2, "amount": 5}},
    {"sienta": {"seat": 1, "player": "Zoe"}},
    {"favor": "copas"},
    {"close": "devolver"},
]
BAD_FAVORS: list[Any] = ["oros", "copas", "espadas", "bastos", "rosas", None, 3, ["oros"]]  # R34
SPLITS = [(5, 2, 2), (6, 0, 0), (7, 0, 0), (8, 0, 0), (5, 0, 0), (9, 0, 0), (6, 1, 0), (5, 3, 1), (8, 1, 0), (4, 4, 1),
          (6, 2, 1), (5, 1, 0), (4, 1, 0)]  # fmt: skip


@st.composite
def mutated(draw: Any) -> dict[str, Any]:
    session = copy.deepcopy(draw(sessions(min_hands=1, max_hands=8)))
    hands = session["hands"]
    i = draw(st.integers(0, len(hands) - 1))
    hand = hands[i]
    op = draw(st.integers(0, 9))
    if op == 0 and hand:
        hand.pop(draw(st.sampled_from(sorted(hand))))
    elif op == 1:
        hand[draw(st.sampled_from(HAND_KEYS))] = draw(st.sampled_from(BAD_VALUES))
    elif op == 2 and "tricks" in hand:
        hand["tricks"][draw(st.sampled_from(["1", "2", "3", "4", "5", "0"]))] = draw(st.integers(-1, 9))
    elif op == 3:
        session["rules"][draw(st.sampled_from([*oracle_tresillo.DEFAULTS, "otra"]))] = draw(st.sampled_from(BAD_VALUES))
    elif op == 4:  # R30: a closing anywhere (an entry after it is refused)
        hands.insert(draw(st.integers(0, len(hands))), {"close": draw(st.sampled_from(["devolver", "repartir", "x"]))})
    elif op == 5:  # R32
        hands.insert(draw(st.integers(0, len(hands))), {"ajuste": copy.deepcopy(draw(st.sampled_from(BAD_AJUSTES)))})
    elif op == 6:  # R33
        hands.insert(draw(st.integers(0, len(hands))), {"sienta": copy.deepcopy(draw(st.sampled_from(BAD_SIENTAS)))})
    elif op == 8:  # R34: a change of favour suit anywhere (the same suit again is refused)
        entry: dict[str, Any] = {"favor": draw(st.sampled_from(BAD_FAVORS))}
        if draw(st.booleans()):
            entry[draw(st.sampled_from(["dealer", "note", "jugador", "suit"]))] = draw(st.sampled_from(BAD_VALUES))
        hands.insert(draw(st.integers(0, len(hands))), entry)
    elif op == 7 and "tricks" in hand and "jugador" in hand and not hand.get("rendida"):
        # R13/R19: a split the flags contradict (or J-0-0 with J 6-8), or flags on a plain split
        seats = [hand["jugador"], *(int(k) for k in hand["tricks"] if int(k) != hand["jugador"])]
        split = draw(st.sampled_from(SPLITS))
        hand["tricks"] = {str(seat): c for seat, c in zip(seats, split, strict=True)}
        hand.pop("primeras", None)
        hand.pop("bola", None)
        flag = draw(st.sampled_from(["primeras", "bola", "both", "none"]))
        if flag in ("primeras", "both"):
            hand["primeras"] = draw(st.sampled_from(["jugador", "contra"]))
        if flag in ("bola", "both"):
            hand["bola"] = draw(st.sampled_from(["hecha", "cortada"]))
    else:  # an entry after the closing, or a closing followed by an entry
        hands.append({"close": "repartir"})
        hands.append(copy.deepcopy(draw(st.sampled_from(AFTER_CLOSING))))
    return session


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_engine_and_oracle_agree_on_what_is_invalid(session: dict[str, Any]) -> None:
    try:
        oracle_tresillo.settle(session)
        want: Any = "valid"
    except oracle_tresillo.OracleError as exc:
        want = exc.hand
    try:
        got = settle(session)
    except SessionError as exc:
        assert exc.hand == want, f"{exc} (oracle: {want})"
        assert str(exc).startswith("session: " if exc.hand is None else f"hand {exc.hand}: ")
        assert "\n" not in str(exc)
        return
    assert want == "valid", f"engine accepted, oracle rejects hand {want}"
    same_as_oracle(session)
    assert got["hands"]
