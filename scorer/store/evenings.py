"""What only the evening's pages use of the stored tables: the closing's previews (R30) and the
mark "jugar hasta que se gane el plato" (the shared store is :mod:`scorer.store`)."""

from __future__ import annotations

from typing import Any

from scorer.games import game_of
from scorer.store.hands import preview_hand
from scorer.store.links import check_open
from scorer.store.models import Table, utcnow
from scorer.store.settled import Settled
from scorer.store.writes import same_hands, write

CLOSE_HOWS = ("devolver", "repartir")  # R30


def closing_previews(table: Table) -> dict[str, dict[str, Any]]:
    """The ledger entry of each closing the table may choose (R30), computed by the engine; saves nothing."""
    hows = game_of(table.ruleset).closings or ("devolver",)
    return {how: preview_hand(table, {"close": how}) for how in hows}


def set_ending(table: Table, ending: bool) -> None:
    """Mark the evening as ending (play on until the plato is won, then close) or take the mark back."""
    check_open(table)

    def work(state: Settled) -> tuple[None, Settled]:
        check_open(table)
        table.ending_at = utcnow() if ending else None
        return None, same_hands(table, state)

    write(table, work)
