"""R33: two people, one after the other, in the same seat; each keeps only the money of their own stint."""

from __future__ import annotations

from scorer import engine


def test_two_people_one_after_the_other_in_one_seat_r33() -> None:
    session = {
        "format": "tresillo-session/1",
        "players": ["Ana", "Benito", "Carmen", "Diego"],
        "first_dealer": 1,
        "hands": [
            {"ajuste": {"from": 4, "to": 1, "amount": 10}},  # Diego pays Ana 10
            {"sienta": {"seat": 4, "player": "Elena"}},
            {"ajuste": {"from": 4, "to": 2, "amount": 3}},  # Elena pays Benito 3
            {"sienta": {"seat": 4, "player": "Felipe"}},
            {"ajuste": {"from": 1, "to": 4, "amount": 7}},  # Ana pays Felipe 7
        ],
    }
    ledger = engine.settle(session)
    assert ledger["balances"] == {"1": 3, "2": 3, "3": 0, "4": -6}  # seat 4 kept all three stints
    assert ledger["people"] == {"Ana": 3, "Benito": 3, "Carmen": 0, "Diego": -10, "Elena": -3, "Felipe": 7}
    assert ledger["hands"][3]["seating"] == {"1": "Ana", "2": "Benito", "3": "Carmen", "4": "Felipe"}
