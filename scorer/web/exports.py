"""Exports of a table: the hand table as CSV (escaped against formula injection)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def escape_cell(value: object) -> str:
    """The cell's text, prefixed with ``'`` when a spreadsheet would read it as a formula."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def _name(players: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 1 <= seat <= len(players):
        return players[seat - 1]
    return "" if seat is None else str(seat)


def _tricks(players: Sequence[str], hand: Mapping[str, Any]) -> str:
    tricks = hand.get("tricks")
    if not isinstance(tricks, Mapping) or (hand.get("rendida") and hand.get("defensor") is None):
        return ""
    parts = []
    for seat, count in sorted(tricks.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 0):
        seat_no = int(seat) if str(seat).isdigit() else seat
        parts.append(f"{_name(players, seat_no)} {count}")
    return ", ".join(parts)


def _lance(hand: Mapping[str, Any]) -> str:
    if "pass" in hand:
        return "pasan"
    if "close" in hand:
        return "cierre"
    lance = str(hand.get("lance") or "")
    if hand.get("rendida"):
        lance += " rendida" if hand.get("defensor") is None else " rendida defendida"
    return lance


def hands_csv(players: Sequence[str], hands: Sequence[Mapping[str, Any]], ledger: Mapping[str, Any]) -> str:
    """One row per hand: n, dealer, jugador, lance, trump, tricks, result, each seat's change, plato after."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    header = ["n", "dealer", "jugador", "lance", "trump", "tricks", "result", *players, "plato"]
    writer.writerow([escape_cell(c) for c in header])
    before = {str(seat): 0 for seat in range(1, len(players) + 1)}
    for hand, entry in zip(hands, ledger.get("hands", []), strict=True):
        balances = entry.get("balances") or before
        changes = [int(balances.get(seat, 0)) - int(before.get(seat, 0)) for seat in before]
        before = {seat: int(balances.get(seat, 0)) for seat in before}
        plato = entry.get("plato")
        row = [
            entry.get("n"),
            _name(players, entry.get("dealer")),
            _name(players, hand.get("jugador")),
            _lance(hand),
            hand.get("trump", ""),
            _tricks(players, hand),
            entry.get("result", ""),
            *changes,
            plato.get("amount", "") if isinstance(plato, Mapping) else "",
        ]
        writer.writerow([escape_cell(c) for c in row])
    return out.getvalue()
