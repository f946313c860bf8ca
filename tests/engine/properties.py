"""What the property tests of every rule set share: their Hypothesis settings and the check that
settling is deterministic and incremental (one hand at a time gives the whole session's ledger)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, settings

from scorer.engine import settle, start

PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_deterministic_and_incremental(s: dict[str, Any]) -> dict[str, Any]:
    """The session settles to the same ledger twice, from ``start`` and hand by hand; that ledger."""
    ledger = settle(s)
    assert settle(copy.deepcopy(s)) == ledger
    assert start(s).ledger() == ledger
    step = start({**s, "hands": []})
    for hand in s["hands"]:
        step = step.add(hand)
    assert step.ledger() == ledger
    return ledger
