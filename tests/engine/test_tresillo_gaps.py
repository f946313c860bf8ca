"""Rule tests a mutation probe found missing (rules/tresillo.md).

- R12 with a bola: the old test's numbers were hidden by rounding (7 estuches: the capped
  111 and the uncapped 113 both round to 115); here rounding is 1, so they differ.
- R20 + R15 + R21: a lost hand a favor with conditions.
- R12 + R19: a bola hecha (9-0-0) with more than 5 contraestuches counts them all.

Expected numbers are worked out by hand from the rules in the comments, never read from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorer.engine import settle

NAMES = ["Ana", "Benito", "Carmen", "Diego"]  # four players: seat 1 deals the first hand and sits out (R3)


def ledger(hands: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    return settle({"format": "tresillo-session/1", "players": NAMES, "rules": rules, "first_dealer": 1, "hands": hands})


def bal(led: dict[str, Any]) -> list[int]:
    return [led["balances"][str(s)] for s in range(1, 5)]


def benito(lance: str, trump: str, tricks: tuple[int, int, int], **extra: Any) -> dict[str, Any]:
    """Benito (seat 2) plays; Carmen (3) and Diego (4) are the contra."""
    j, c, d = tricks
    return {"jugador": 2, "lance": lance, "trump": trump, "tricks": {"2": j, "3": c, "4": d}, **extra}


def ganada_balances(each: int) -> list[int]:
    """Case 1 ganada (R16, R17): every participant (the alcalde too, R4) pays ``each``; the Jugador also
    takes the plato, which holds the dealer's 5 (R5)."""
    return [-5 - each, 3 * each + 5, -each, -each]


def test_r12_a_bola_hecha_counts_all_seven_estuches_unrounded() -> None:
    led = ledger([benito("entrada", "oros", (9, 0, 0), estuches=7)], rounding=1)
    # R16: 5 + conditions; R11 bola 100, R12 all 7 estuches with the bola, R13 primeras 1 -> 113 each
    assert bal(led) == ganada_balances(5 + 100 + 7 + 1)
    assert bal(led) != ganada_balances(5 + 100 + 5 + 1)  # the cap of 5 (111 each) does not apply
    assert led["hands"][0]["result"] == "bola"


def test_r12_without_the_bola_estuches_stay_capped_at_five_unrounded() -> None:
    led = ledger([benito("entrada", "oros", (5, 2, 2), estuches=7)], rounding=1)
    assert bal(led) == ganada_balances(5 + 5)  # R12: at most 5 counted


@pytest.mark.parametrize("contra", [6, 7, 9])
def test_r12_r19_a_bola_hecha_with_more_than_five_contraestuches(contra: int) -> None:
    # R19: 9-0-0 is a bola hecha; R12: contraestuches count like estuches, all of them with the bola
    led = ledger([benito("entrada", "copas", (9, 0, 0), contraestuches=contra)], rounding=1)
    assert bal(led) == ganada_balances(5 + 100 + contra + 1)
    assert led["hands"][0]["result"] == "bola"
    # the default rounding of 5 (R14) on the same hand: 106 + contra rounded up
    rounded = ledger([benito("entrada", "copas", (9, 0, 0), contraestuches=contra)])
    assert bal(rounded) == ganada_balances(-(-(106 + contra) // 5) * 5)


def test_r20_r15_a_lost_entrada_a_favor_pays_doubled_conditions_and_the_puesta() -> None:
    # Benito plays oros, the favour suit, with 4 estuches and makes a puesta (4-4-1, case 1).
    led = ledger([benito("entrada", "oros", (4, 4, 1), estuches=4)], favor_suit="oros", rounding=1)
    entry = led["hands"][0]
    assert entry["result"] == "puesta"
    conditions = 2 * 4  # R20: round(conditions) to each participant, R15: doubled a favor
    puesta = 5 + 40  # R21: plato (the dealer's 5) + 40 a favor
    assert bal(led) == [-5 + conditions, -3 * conditions - puesta, conditions, conditions]
    assert led["plato"]["amount"] == 5 + puesta  # R22: into a plato sin puesta
    paid = [t["amount"] for t in entry["transfers"] if t["from"] == 2 and t["to"] in (1, 3, 4)]
    assert paid == [conditions] * 3


@pytest.mark.parametrize(("doubling", "each"), [("double_rounded", 2 * 5), ("round_doubled", 5)])
def test_r20_r15_a_lost_vuelta_a_favor_rounds_as_the_option_says(doubling: str, each: int) -> None:
    # a vuelta's condition is 2 (R11); a favor (R15, vuelta_at_favor): double_rounded = 2 × round(2) = 10,
    # round_doubled = round(2 × 2) = 5, with the default rounding of 5 (R14)
    led = ledger([benito("vuelta", "bastos", (4, 4, 1))], favor_suit="bastos", favor_doubling=doubling)
    puesta = 5 + 40  # R21
    assert bal(led) == [-5 + each, -3 * each - puesta, each, each]
