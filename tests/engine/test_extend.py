"""``Settlement.extend`` settles several hands as ``add`` one by one would, and as ``start`` does."""

from __future__ import annotations

import random

import pytest

from scorer.engine import SessionError, start
from tests.engine.strategies import random_session


@pytest.mark.parametrize("seed", range(5))
def test_extend_equals_adding_one_by_one_and_starting(seed: int) -> None:
    session = random_session(random.Random(seed), 60)
    hands = session.pop("hands")
    begin = start({**session, "hands": []})
    one_by_one = begin
    for hand in hands:
        one_by_one = one_by_one.add(hand)
    cut = 1 + seed * 11
    extended = begin.extend(hands[:cut]).extend(hands[cut:])
    assert extended.ledger() == one_by_one.ledger() == start({**session, "hands": hands}).ledger()
    assert begin.count == 0  # the states it started from are unchanged
    assert begin.extend([]).ledger() == begin.ledger()


def test_extend_names_the_hand_that_fails_by_its_number_in_the_session() -> None:
    session = random_session(random.Random(3), 12, closing=False)
    hands = session.pop("hands")
    settled = start({**session, "hands": hands[:10]})
    with pytest.raises(SessionError) as info:
        settled.extend([hands[10], {"jugador": 99}])
    assert info.value.hand == 12
    assert settled.count == 10
