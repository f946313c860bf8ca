"""The arithmetic of conditions reads as a player would write it (R14–R16).

One condition alone is its amount ("5 por jugar"), never a sum of one ("5 por jugar = 5"); a
rounded one shows only the rounding ("2 vuelta → 5"); two or more are summed.
"""

from __future__ import annotations

from typing import Any

from scorer.engine import settle
from tests.conftest import EXAMPLES, load_json


def details(session: Any) -> list[str]:
    ledger = settle(session)
    return [str(t["detail"]) for hand in ledger["hands"] for t in hand.get("transfers", []) if t.get("detail")]


def test_one_condition_alone_is_not_summed() -> None:
    said = details(load_json(EXAMPLES / "walkthrough.json"))
    assert "5 por jugar" in said  # hand 1: an entrada won plainly
    assert "2 vuelta → 5" in said  # hand 7: a vuelta's 2, rounded up
    assert "2 vuelta + 1 primeras = 3 → 5" in said  # two conditions are summed
    assert not [d for d in said if "5 por jugar = 5" in d or "vuelta = 2" in d]
    for detail in said:
        if "=" in detail.split(";")[0]:
            assert "+" in detail.split("=")[0], detail  # a sum has at least two terms
