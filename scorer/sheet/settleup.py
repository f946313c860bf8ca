"""Settle up: the fewest payments that square every balance.

A balance is what a party is owed (positive) or owes (negative); they add up to 0.
The fewest payments that square n non-zero balances is n - g, where g is the largest
number of disjoint groups into which the parties can be split so that every group
adds up to 0 (each group needs one payment fewer than its size, and no fewer).
For up to ``EXACT_LIMIT`` parties g is found exactly (dynamic programming over the
subsets); beyond that a single group is assumed, which still needs at most n - 1
payments. Within a group the largest debtor pays the largest creditor, repeatedly.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

EXACT_LIMIT = 12


@dataclass(frozen=True, slots=True)
class Payment(Generic[K]):
    """``payer`` gives ``amount`` (> 0) to ``payee``."""

    payer: K
    payee: K
    amount: int


def settle_up(balances: Mapping[K, int]) -> list[Payment[K]]:
    """The fewest payments after which every balance is 0; ValueError if they do not add up to 0."""
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"the balances add up to {total}, not 0")
    order = {key: i for i, key in enumerate(balances)}
    people = [(key, amount) for key, amount in balances.items() if amount != 0]
    payments: list[Payment[K]] = []
    for group in _zero_sum_groups(people):
        payments.extend(_pay_within(group, order))
    payments.sort(key=lambda p: (order[p.payer], order[p.payee]))
    return payments


def _zero_sum_groups(people: list[tuple[K, int]]) -> list[list[tuple[K, int]]]:
    """Split the parties into as many groups adding up to 0 as possible."""
    n = len(people)
    if n == 0:
        return []
    if n > EXACT_LIMIT:
        return [people]
    sums = _subset_sums(people)
    best = _most_zero_prefixes(sums)
    return _groups_in_order(people, _removal_order(best, sums))


def _subset_sums(people: list[tuple[K, int]]) -> list[int]:
    """sums[mask]: what the parties in ``mask`` (a bit per party) add up to."""
    full = (1 << len(people)) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + people[low.bit_length() - 1][1]
    return sums


def _most_zero_prefixes(sums: list[int]) -> list[int]:
    """best[mask]: the most zero-sum prefixes of some ordering of mask (= most zero-sum groups when sum is 0)."""
    best = [0] * len(sums)
    for mask in range(1, len(sums)):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            value = best[mask ^ low]
            if value > top:
                top = value
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    return best


def _removal_order(best: list[int], sums: list[int]) -> list[int]:
    """Walk back from the full set, removing one party at a time along an optimal path: their indices."""
    removed: list[int] = []
    mask = len(sums) - 1
    while mask:
        rest = mask
        choice = -1
        target = best[mask] - (1 if sums[mask] == 0 else 0)
        while rest:
            low = rest & -rest
            rest ^= low
            if best[mask ^ low] == target:
                choice = low
                break
        removed.append(choice.bit_length() - 1)
        mask ^= choice
    return removed


def _groups_in_order(people: list[tuple[K, int]], removed: list[int]) -> list[list[tuple[K, int]]]:
    """The parties in the reverse order of removal, cut wherever the running sum comes back to 0."""
    groups: list[list[tuple[K, int]]] = []
    current: list[tuple[K, int]] = []
    running = 0
    for index in reversed(removed):
        current.append(people[index])
        running += people[index][1]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _pay_within(group: list[tuple[K, int]], order: Mapping[K, int]) -> list[Payment[K]]:
    """Largest debtor pays largest creditor until the group is square: at most len(group) - 1 payments."""
    remaining = dict(group)
    payments: list[Payment[K]] = []
    while True:
        debtors = sorted((k for k, v in remaining.items() if v < 0), key=lambda k: (remaining[k], order[k]))
        creditors = sorted((k for k, v in remaining.items() if v > 0), key=lambda k: (-remaining[k], order[k]))
        if not debtors or not creditors:
            return payments
        debtor, creditor = debtors[0], creditors[0]
        amount = min(-remaining[debtor], remaining[creditor])
        payments.append(Payment(debtor, creditor, amount))
        remaining[debtor] += amount
        remaining[creditor] -= amount
