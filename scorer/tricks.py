"""How a hand's tricks read, everywhere they are written: "4-1-4" is the Jugador's tricks, then the
contra's in order of play (R3: from the dealer's right), as the engine counts them for the outcome
(R10) and names them in its refusals. The hand list, the hand's page and the sheet all read a hand
through here, so the same hand never reads two ways. Pure: no web app, no translation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.engine.tresillo import active_seats


def _seat(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def counts(tricks: Any) -> dict[int, Any]:
    """The tricks by seat number (keys "2" or 2), anything that is not a seat left out."""
    if not isinstance(tricks, Mapping):
        return {}
    return {s: v for s, v in ((_seat(k), v) for k, v in tricks.items()) if s is not None}


def order(tricks: Any, jugador: Any, dealer: Any, players: int) -> list[int]:
    """The seats of the tricks: the Jugador first, then the others in order of play from the dealer.

    Without a known dealer (a hand never settled) the others follow in seat order.
    """
    seats = list(counts(tricks))
    deal = _seat(dealer)
    if deal is not None and 1 <= deal <= players and players >= 3:
        played = [s for s in active_seats(players, deal) if s in seats]
        seats = played + sorted(s for s in seats if s not in played)
    else:
        seats.sort()
    first = _seat(jugador)
    if first in seats:
        seats.remove(first)
        seats.insert(0, first)
    return seats


def split(tricks: Any, jugador: Any, dealer: Any, players: int) -> str:
    """ "4-1-4": the counts in :func:`order`; "" for no tricks."""
    by_seat = counts(tricks)
    return "-".join(str(by_seat[s]) for s in order(tricks, jugador, dealer, players))


def of_hand(hand: Mapping[str, Any], players: int, dealer: Any = None) -> str:
    """A stored hand's split: its own dealer (every stored hand has one), else ``dealer`` (the ledger's)."""
    own = hand.get("dealer")
    return split(hand.get("tricks"), hand.get("jugador"), dealer if own is None else own, players)
