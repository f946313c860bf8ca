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


def _faltas(players: Sequence[str], hand: Mapping[str, Any]) -> str:
    faltas = hand.get("faltas")
    if not isinstance(faltas, list):
        return ""
    parts = []
    for f in faltas:
        if isinstance(f, Mapping):
            points = f" {f['points']}" if f.get("points") is not None else ""
            parts.append(f"{_name(players, f.get('seat'))} {f.get('falta', '')}{points}")
    return ", ".join(parts)


def bandos_csv(players: Sequence[str], hands: Sequence[Mapping[str, Any]], ledger: Mapping[str, Any]) -> str:
    """Juego de bandos: n, dealer, primeras, capote, faltas, result, each player's tantos after it, winner."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    header = ["n", "dealer", "primeras", "capote", "faltas", "result", *players, "winner"]
    writer.writerow([escape_cell(c) for c in header])
    for hand, entry in zip(hands, ledger.get("hands", []), strict=True):
        scores = entry.get("scores") or {}
        row = [
            entry.get("n"),
            _name(players, entry.get("dealer")),
            hand.get("primeras", ""),
            "capote" if hand.get("capote") else "",
            _faltas(players, hand),
            entry.get("result", ""),
            *(scores.get(str(seat), 0) for seat in range(1, len(players) + 1)),
            entry.get("winner") or "",
        ]
        writer.writerow([escape_cell(c) for c in row])
    return out.getvalue()


def _pots(ruleset: str, entry: Mapping[str, Any]) -> list[Any]:
    """The pot columns after a hand: plato (Tresillo), pozo, reservas, viuda (pozo y viuda), bote (Ombre)."""
    if ruleset == "pozo_viuda":
        pozo = entry.get("pozo")
        pozo = pozo if isinstance(pozo, Mapping) else {}
        reserves = " + ".join(str(r) for r in pozo.get("reserves", []))
        return [pozo.get("amount", ""), reserves, entry.get("viuda", "")]
    if ruleset == "ombre":
        return [entry.get("bote", "")]
    plato = entry.get("plato")
    return [plato.get("amount", "") if isinstance(plato, Mapping) else ""]


POT_COLUMNS = {"pozo_viuda": ["pozo", "reservas", "viuda"], "ombre": ["bote"]}


def hands_csv(players: Sequence[str], hands: Sequence[Mapping[str, Any]], ledger: Mapping[str, Any]) -> str:
    """One row per hand: n, dealer, jugador, lance, trump, tricks, result, each seat's change, pots after.

    The pots are the rule set's (plato; pozo, reservas, viuda; bote); pozo y viuda adds the
    matadores, Ombre who held the three matadores; the juego de bandos has its own columns.
    """
    ruleset = str(ledger.get("ruleset", "tresillo"))
    if ruleset == "bandos":
        return bandos_csv(players, hands, ledger)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    extra = {"pozo_viuda": ["matadores"], "ombre": ["matadores_en"]}.get(ruleset, [])
    pots = POT_COLUMNS.get(ruleset, ["plato"])
    header = ["n", "dealer", "jugador", "lance", "trump", *extra, "tricks", "result", *players, *pots]
    writer.writerow([escape_cell(c) for c in header])
    before = {str(seat): 0 for seat in range(1, len(players) + 1)}
    for hand, entry in zip(hands, ledger.get("hands", []), strict=True):
        balances = entry.get("balances") or before
        changes = [int(balances.get(seat, 0)) - int(before.get(seat, 0)) for seat in before]
        before = {seat: int(balances.get(seat, 0)) for seat in before}
        extras = []
        if ruleset == "pozo_viuda":
            extras = [hand.get("matadores", 0) if "jugador" in hand else ""]
        elif ruleset == "ombre":
            extras = [_name(players, hand.get("matadores_en"))]
        row = [
            entry.get("n"),
            _name(players, entry.get("dealer")),
            _name(players, hand.get("jugador")),
            _lance(hand),
            hand.get("trump", ""),
            *extras,
            _tricks(players, hand),
            entry.get("result", ""),
            *changes,
            *_pots(ruleset, entry),
        ]
        writer.writerow([escape_cell(c) for c in row])
    return out.getvalue()
