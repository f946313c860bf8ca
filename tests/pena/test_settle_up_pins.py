"""The settle-up's choices, pinned with figures worked out by hand."""

from __future__ import annotations

from decimal import Decimal

from scorer.pena.stats import Evening, lifetime_ledger
from scorer.sheet.settleup import Payment, settle_up


def evening(key: str, balances: dict[str, int], people: dict[str, str]) -> Evening:
    seats = {str(i): b for i, b in enumerate(balances.values(), 1)}
    ledger = {
        "balances": seats,
        "plato": {"amount": 0, "kind": "sin_puesta"},
        "hands": [{"result": "paso", "balances": seats}],
    }
    session = {"players": list(balances), "hands": [{"pass": True}]}
    return Evening(key, key, key, session, ledger, people, value=Decimal(1), currency="EUR")


def test_the_fewest_payments_pay_the_largest_creditor_first() -> None:
    """Two debtors, two creditors: the largest debtor pays the largest creditor, then the rest."""
    paid = settle_up({"A": -10, "B": -4, "C": 8, "D": 6})
    assert paid == [Payment("A", "C", 8), Payment("A", "D", 2), Payment("B", "D", 4)]


def test_the_penas_settle_up_leaves_out_an_evening_with_a_name_not_on_the_roster() -> None:
    linked = evening("2026-01-01", {"Ana": 10, "Ben": -10}, {"Ana": "Ana", "Ben": "Ben"})
    unlinked = evening("2026-01-08", {"Ana": 5, "Carl": -5}, {"Ana": "Ana"})  # Carl is nobody of the peña
    ledger = lifetime_ledger([linked, unlinked])
    assert ledger.settled_money == {"Ana": Decimal(10), "Ben": Decimal(-10)}
    assert ledger.payments == [Payment("Ben", "Ana", 1000)]  # in cents of the currency
