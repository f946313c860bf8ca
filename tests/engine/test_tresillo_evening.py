"""The events of an evening in docs/rules/tresillo.md: R30 (both closings), R32 ajuste, R33 sienta.

Every expected figure is worked out by hand from the document, with the arithmetic in a comment.
Four players, first dealer seat 1 unless said otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorer.engine import SessionError, settle
from tests.engine.test_tresillo_rules import PASS, bal, cart, ledger, plato, played, rejects, session


def ajuste(source: int, target: int | str, amount: Any, **extra: Any) -> dict[str, Any]:
    return {"ajuste": {"from": source, "to": target, "amount": amount}, **extra}


def sienta(seat: int, player: Any, **extra: Any) -> dict[str, Any]:
    return {"sienta": {"seat": seat, "player": player}, **extra}


def check_r31(led: dict[str, Any]) -> None:
    """R31: seats + plato and people + plato are both 0 at the end; seats + plato after every entry."""
    for entry in led["hands"]:
        assert sum(bal(entry)) + entry["plato"]["amount"] == 0
    assert sum(led["people"].values()) + led["plato"]["amount"] == 0


# A reserved puesta en_plato and a pending one (worked below, used by several tests).
RESERVED = [
    played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1}),  # dealer 1: P = 5 + 20 = 25 into the plato (30 primera)
    played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}),  # dealer 2: plato 35, P = 55 on the cartulina (id 1, seat 3)
    played(4, "entrada", "oros", {4: 5, 1: 2, 2: 2}),  # dealer 3: 4 takes 40, 3's 55 goes in (reservada)
    played(1, "entrada", "oros", {1: 3, 2: 3, 3: 3}),  # dealer 4: plato 60, case 2: P = 60 pending (id 2, seat 1)
]
# balances: h1 [-5,-25,0,0]; h2 [-5,-30,0,0]; h3 1,2,3 pay 5 to 4 -> [-10,-35,-10,15], 4 takes 40 -> 55,
# 3 puts 55 in -> [-10,-35,-65,55]; h4 4 puts 5 -> [-10,-35,-65,50], plato 60


# -------------------------------------------------------------------- R30


def test_r30_repartir_shares_the_plato_and_the_puesta_in_it_is_repartida() -> None:
    led = ledger([*RESERVED, {"close": "repartir"}])
    assert bal(led["hands"][3]) == [-10, -35, -65, 50]
    assert plato(led["hands"][3]) == (60, "reservada")
    # 60 among 4 = 15 each
    assert bal(led) == [5, -20, -50, 65]
    assert plato(led) == (0, "sin_puesta")
    closing = led["hands"][4]
    assert closing["result"] == "cierre" and closing["dealer"] is None
    assert [(t["from"], t["to"], t["amount"]) for t in closing["transfers"]] == [
        ("plato", 1, 15),
        ("plato", 2, 15),
        ("plato", 3, 15),
        ("plato", 4, 15),
    ]
    assert cart(led) == [(3, 55, "repartida"), (1, 60, "anulada")]
    assert led["next_dealer"] == 1  # the closing uses up no deal


def test_r30_repartir_gives_the_odd_tantos_to_the_first_seats() -> None:
    led = ledger([PASS, PASS, PASS, {"close": "repartir"}])
    # plato 15 (dealers 1, 2, 3): 15 = 4 x 3 + 3, so seats 1, 2, 3 get 4 and seat 4 gets 3
    assert bal(led) == [-1, -1, -1, 3]
    three = ledger([PASS, PASS, {"close": "repartir"}], players=3)
    # plato 10 among 3: 3 each + 1 to seat 1
    assert bal(three) == [-1, -2, 3]


def test_r30_devolver_still_returns_each_contribution() -> None:
    led = ledger([*RESERVED, {"close": "devolver"}])
    # since 4 took the plato in hand 3: 3 put its 55, 4 its stake of 5
    assert bal(led) == [-10, -35, -10, 55]
    assert cart(led) == [(3, 55, "devuelta"), (1, 60, "anulada")]


def test_r30_nothing_follows_either_closing() -> None:
    for how in ("devolver", "repartir"):
        rejects([PASS, {"close": how}, PASS], 3)
        rejects([{"close": how}, ajuste(1, 2, 5)], 2)
        rejects([{"close": how}, sienta(1, "Elena")], 2)


# -------------------------------------------------------------------- R32


def test_r32_ajuste_between_seats_and_to_each_other_seat() -> None:
    led = ledger([ajuste(1, 3, 7, note="corrección de la mano 2"), ajuste(4, "todos", 5)])
    first, second = led["hands"]
    assert first["result"] == "ajuste" and first["dealer"] is None
    assert bal(first) == [-7, 0, 7, 0]
    # todos: 5 to each of the three other seats
    assert bal(second) == [-2, 5, 12, -15]
    assert [(t["from"], t["to"], t["amount"]) for t in second["transfers"]] == [(4, 1, 5), (4, 2, 5), (4, 3, 5)]
    assert plato(led) == (0, "sin_puesta")
    assert led["next_dealer"] == 1  # ajustes use up no deal


def test_r32_ajuste_into_the_plato_keeps_its_state_and_is_returned_by_devolver() -> None:
    hands = [ajuste(2, "plato", 10), PASS, played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}), {"close": "devolver"}]
    led = ledger(hands)
    # the ajuste: plato 10, still sin_puesta
    assert plato(led["hands"][0]) == (10, "sin_puesta")
    # pass (dealer 1): 15 sin_puesta; hand 3 (dealer 2): PL 20, P = 40 goes INTO the plato (it was sin_puesta)
    assert plato(led["hands"][2]) == (60, "primera")
    assert bal(led["hands"][2]) == [-5, -15, -40, 0]
    # devolver: 1 gets its 5, 2 its 10 + 5, 3 its 40
    assert bal(led) == [0, 0, 0, 0]
    check_r31(led)


def test_r32_ajuste_into_a_reserved_plato_is_taken_with_it() -> None:
    led = ledger([*RESERVED, ajuste(2, "plato", 25), played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2})])
    assert plato(led["hands"][4]) == (85, "reservada")
    # dealer 1 puts 5 (90); case 2, conditions 0: nothing from the others; 2 takes 90, then 1's 60 goes in
    assert bal(led) == [-75, 30, -65, 50]
    assert plato(led) == (60, "reservada")
    assert cart(led) == [(3, 55, "cobrada"), (1, 60, "en_plato")]


@pytest.mark.parametrize(
    "entry",
    [
        ajuste(2, 2, 5),  # to itself
        ajuste(2, "plato", 0),
        ajuste(2, "plato", -5),
        ajuste(2, "plato", "5"),
        ajuste(2, "plato", 2.5),
        ajuste(2, "plato", True),
        ajuste(2, "nadie", 5),
        ajuste(2, 5, 5),  # no seat 5 with four players
        ajuste(0, 1, 5),
        {"ajuste": {"from": 1, "amount": 5}},
        {"ajuste": {"from": 1, "to": 2, "amount": 5, "why": "x"}},
        {"ajuste": [1, 2, 5]},
        ajuste(1, 2, 5, dealer=2),
        ajuste(1, 2, 5, jugador=2),
    ],
)
def test_r32_invalid_ajustes_are_refused(entry: dict[str, Any]) -> None:
    rejects([PASS, entry], 2)


# -------------------------------------------------------------------- R33

EVENING = [
    played(2, "entrada", "oros", {2: 5, 3: 3, 4: 1}),  # dealer 1: 1, 3, 4 pay 5; 2 takes 5 -> [-10, 20, -5, -5]
    played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}),  # dealer 2: P 25 into the plato -> [-10, 15, -30, -5]
    played(4, "entrada", "oros", {4: 4, 1: 4, 2: 1}),  # dealer 3: plato 35, P 55 pending (Diego) -> [-10,15,-35,-5]
    sienta(4, "Elena", note="Diego se va"),  # Diego leaves with -5; his 55 is cancelled
    PASS,  # dealer 4 (Elena): [-10, 15, -35, -10], plato 40
    sienta(2, "Diego"),  # Diego comes back at seat 2; Benito leaves with 15
    played(2, "entrada", "copas", {2: 5, 3: 2, 4: 2}),  # dealer 1: 5 each from 1, 3, 4; 2 takes 45
]


def test_r33_money_belongs_to_people() -> None:
    led = ledger(EVENING)
    # hand 7: seats [-10-5-5, 15+15+45, -35-5, -10-5] = [-20, 75, -40, -15]
    assert bal(led) == [-20, 75, -40, -15]
    assert plato(led) == (0, "sin_puesta")
    # Diego: -5 at seat 4, then 75 - 15 at seat 2; Elena: -15 - (-5); in the order they first sat
    assert list(led["people"].items()) == [("Ana", -20), ("Benito", 15), ("Carmen", -40), ("Diego", 55), ("Elena", -10)]
    check_r31(led)
    assert led["players"] == {"1": "Ana", "2": "Benito", "3": "Carmen", "4": "Diego"}  # the session's players


def test_r33_the_change_is_an_entry_with_its_seating_and_the_leavers_pending_puestas_are_cancelled() -> None:
    led = ledger(EVENING)
    change = led["hands"][3]
    assert change["result"] == "sienta" and change["dealer"] is None and change["transfers"] == []
    assert change["seating"] == {"1": "Ana", "2": "Benito", "3": "Carmen", "4": "Elena"}
    assert change["cartulina"] == []  # Diego's pending 55 is gone
    assert led["hands"][5]["seating"] == {"1": "Ana", "2": "Diego", "3": "Carmen", "4": "Elena"}
    assert led["hands"][4]["dealer"] == 4  # the change used up no deal
    assert [(e["owner"], e["amount"], e["state"]) for e in led["cartulina"]] == [(4, 55, "anulada")]


def test_r33_a_puesta_already_in_the_plato_stays_there() -> None:
    led = ledger([*RESERVED[:3], sienta(3, "Elena"), {"close": "devolver"}])
    # after hand 3 Carmen's 55 is en_plato; she leaves: it stays, and devolver gives it to seat 3 (Elena)
    assert cart(led["hands"][3]) == [(3, 55, "en_plato")]
    assert bal(led) == [-10, -35, -10, 55]
    assert led["people"] == {"Ana": -10, "Benito": -35, "Carmen": -65, "Diego": 55, "Elena": 55}
    check_r31(led)


def test_r33_without_changes_people_are_the_balances_by_name() -> None:
    led = ledger(RESERVED)
    assert led["people"] == {"Ana": -10, "Benito": -35, "Carmen": -65, "Diego": 50}


@pytest.mark.parametrize(
    "entry",
    [
        sienta(4, "Ana"),  # seated at another seat
        sienta(4, "Diego"),  # seated there already
        sienta(4, " Ana "),
        sienta(5, "Elena"),
        sienta(4, ""),
        sienta(4, 7),
        {"sienta": {"seat": 4}},
        {"sienta": {"seat": 4, "player": "Elena", "since": 3}},
        {"sienta": "Elena"},
        sienta(4, "Elena", dealer=1),
    ],
)
def test_r33_invalid_changes_are_refused(entry: dict[str, Any]) -> None:
    assert rejects([PASS, entry], 2)


# -------------------------------------------------------------------- other rule sets


@pytest.mark.parametrize("ruleset", ["pozo_viuda", "ombre", "bandos"])
@pytest.mark.parametrize("entry", [ajuste(1, 2, 5), sienta(1, "Zoe")])
def test_other_rule_sets_refuse_ajustes_and_changes_of_player(ruleset: str, entry: dict[str, Any]) -> None:
    players = {"pozo_viuda": 4, "ombre": 3, "bandos": 6}[ruleset]
    s = session([entry], players=min(players, 4))
    s["players"] = [f"P{i}" for i in range(1, players + 1)]
    s["rules"] = {"ruleset": ruleset}
    with pytest.raises(SessionError) as info:
        settle(s)
    assert info.value.hand == 1
    assert "Tresillo" in info.value.reason and ruleset in info.value.reason
