"""The hand form of a table for one deal, made for the people seated at it (R33): the table's pages
(new hand, correction, the forms kept offline) and the offline queue of the API read a posted hand
with the very same form."""

from __future__ import annotations

from typing import Any

from scorer import store
from scorer.games import game_of
from scorer.games.fields import HandFormBase
from scorer.games.views import names_at
from scorer.web.common.forms import game_hand_form


def hand_form(table: Any, dealer: int, n: int | None = None, **kwargs: Any) -> HandFormBase:
    """The game's hand form for hand ``n`` (the next one unless given), dealt by seat ``dealer``."""
    players = table.players
    if game_of(table.ruleset).evening:  # R33: the people seated for that hand (the next one unless ``n``)
        session, ledger = store.read(table).session_copy(), store.read(table).ledger_copy()
        players = names_at(session, ledger, n or len(ledger.get("hands") or []) + 1)
    return game_hand_form(table.ruleset, players, dealer, table.rules, **kwargs)
