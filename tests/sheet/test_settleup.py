"""The settle-up: payments that square every balance, and no more of them than needed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.sheet.settleup import Payment, settle_up


def apply(balances: dict[str, int], payments: list[Payment[str]]) -> dict[str, int]:
    after = dict(balances)
    for p in payments:
        assert p.amount > 0
        assert p.payer != p.payee
        after[p.payer] += p.amount
        after[p.payee] -= p.amount
    return after


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every set partition of a list (brute force, independent of the module under test)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions(rest):
        for i in range(len(smaller)):
            yield [*smaller[:i], [first, *smaller[i]], *smaller[i + 1 :]]
        yield [[first], *smaller]


def fewest_by_brute_force(values: list[int]) -> int:
    nonzero = [v for v in values if v]
    if not nonzero:
        return 0
    groups = max(len(p) for p in partitions(nonzero) if all(sum(g) == 0 for g in p))
    return len(nonzero) - groups


@st.composite
def zero_sum_balances(draw: st.DrawFn, max_players: int = 7) -> dict[str, int]:
    n = draw(st.integers(min_value=1, max_value=max_players))
    values = draw(st.lists(st.integers(-500, 500).map(lambda v: v * 5), min_size=n - 1, max_size=n - 1))
    values.append(-sum(values))
    return {f"p{i}": v for i, v in enumerate(values)}


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances())
def test_payments_square_every_balance(balances: dict[str, int]) -> None:
    payments = settle_up(balances)
    assert all(v == 0 for v in apply(balances, payments).values())
    assert len(payments) <= max(len(balances) - 1, 0)


@settings(max_examples=200, deadline=None)
@given(zero_sum_balances(max_players=6))
def test_number_of_payments_is_the_fewest(balances: dict[str, int]) -> None:
    assert len(settle_up(balances)) == fewest_by_brute_force(list(balances.values()))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=2, max_size=4))
def test_pairs_that_cancel_need_one_payment_each(halves: list[int]) -> None:
    # Balances built as pairs +a/-a: with small repeated values, zero-sum subgroups are common.
    balances: dict[str, int] = {}
    for i, a in enumerate(halves):
        balances[f"x{i}"] = a
        balances[f"y{i}"] = -a
    payments = settle_up(balances)
    assert all(v == 0 for v in apply(balances, payments).values())
    assert len(payments) == fewest_by_brute_force(list(balances.values()))
    assert len(payments) <= sum(1 for a in halves if a)


def test_many_parties_still_square() -> None:
    balances = {f"p{i}": (i - 9) * 7 for i in range(19)}
    assert sum(balances.values()) == 0
    payments = settle_up(balances)
    assert all(v == 0 for v in apply(balances, payments).values())
    assert len(payments) <= len(balances) - 1


def test_two_cancelling_pairs_take_two_payments_not_three() -> None:
    balances = {"Ana": -30, "Benito": 30, "Carmen": -70, "Diego": 70}
    payments = settle_up(balances)
    assert sorted((p.payer, p.payee, p.amount) for p in payments) == [("Ana", "Benito", 30), ("Carmen", "Diego", 70)]


def test_all_square_needs_no_payment() -> None:
    assert settle_up({"Ana": 0, "Benito": 0, "Carmen": 0}) == []
    assert settle_up({}) == []


def test_keys_of_any_kind_are_kept() -> None:
    payments = settle_up({1: -145, 2: -20, 3: -10, 4: 100, "plato": 75})
    assert {p.payer for p in payments} <= {1, 2, 3}
    assert {p.payee for p in payments} <= {4, "plato"}
    assert sum(p.amount for p in payments if p.payee == "plato") == 75


def test_balances_that_do_not_add_up_are_refused() -> None:
    with pytest.raises(ValueError, match="add up to -5"):
        settle_up({"Ana": -10, "Benito": 5})
