"""Exports of a table: the hand table as CSV for a spreadsheet.

Numbers are written as numbers (a negative change stays ``-10``, never text); only text
cells are guarded against formula injection (a leading ``=``, ``+``, ``-``, ``@``, tab or
carriage return gets a ``'``). The header row is Spanish; results are words. Every entry
is a row: hands, passes, ajustes (R32), changes of player (R33) and the closing (R30),
each with its note. The tantos columns are by person (R33: money belongs to people), with
the same columns in money when the table has a tanto value, and a last row with each
person's final balance.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from scorer import evening
from scorer.words import FALTA_WORDS, lance_word, result_word, tanto_value

# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

KIND_WORDS = {
    "hand": "mano",
    "pass": "pasan",
    "ajuste": "ajuste",
    "sienta": "cambio de jugador",
    "close": "cierre",
}
PRIMERAS_WORDS = {"jugador": "del jugador", "contra": "de la contra"}


def escape_cell(value: object) -> str:
    """A TEXT cell, prefixed with ``'`` when a spreadsheet would read it as a formula."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def cell(value: object) -> str:
    """Any cell: whole numbers and decimals as they are (so ``-10`` stays a number), text escaped."""
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        return str(value)
    return escape_cell(value)


def _writer() -> tuple[io.StringIO, Any]:
    out = io.StringIO()
    return out, csv.writer(out, lineterminator="\r\n")


def _seat(value: object) -> int | None:
    text = str(value) if value is not None else ""
    return int(text) if text.isdigit() else None


def _name(names: Mapping[int, str], seat: object) -> str:
    number = _seat(seat)
    if number is not None and number in names:
        return names[number]
    return "" if seat is None else str(seat)


def _tricks(names: Mapping[int, str], hand: Mapping[str, Any]) -> str:
    tricks = hand.get("tricks")
    if not isinstance(tricks, Mapping) or (hand.get("rendida") and hand.get("defensor") is None):
        return ""
    jugador = _seat(hand.get("jugador"))
    seats = sorted(tricks, key=lambda s: (_seat(s) != jugador, _seat(s) or 0))
    return ", ".join(f"{_name(names, s)} {tricks[s]}" for s in seats)


def _lance(hand: Mapping[str, Any]) -> str:
    lance = lance_word(hand.get("lance"))
    if hand.get("rendida"):
        lance += " rendida" if hand.get("defensor") is None else " rendida y defendida"
    return lance


def _faltas(names: Mapping[int, str], hand: Mapping[str, Any]) -> str:
    faltas = hand.get("faltas")
    if not isinstance(faltas, list):
        return ""
    parts = []
    for f in faltas:
        if isinstance(f, Mapping):
            kind = str(f.get("falta", ""))
            points = f" {f['points']}" if f.get("points") is not None else ""
            parts.append(f"{_name(names, f.get('seat'))} {FALTA_WORDS.get(kind, kind.replace('_', ' '))}{points}")
    return ", ".join(parts)


def _result(hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], ruleset: str) -> str:
    """The result in words: "ganada", "bola cortada", "codillo de Ana", "ajuste: Benito paga 25 al plato"."""
    kind = evening.entry_kind(hand)
    if kind in ("ajuste", "sienta", "close"):
        return evening.event_text(hand, names)
    result = str(entry.get("result", ""))
    word = result_word(result, ruleset)
    if result.endswith("codillo"):
        givers = [t.get("to") for t in entry.get("transfers") or () if t.get("concept") == "codillo"]
        if givers:
            word = f"{word} de {_name(names, givers[0])}" if result == "codillo" else word
    return word


def _primeras(hand: Mapping[str, Any], result: str) -> str:
    """R13: the flag, or what the tricks imply (5-0-0, a bola hecha or cortada)."""
    flag = hand.get("primeras")
    if flag in PRIMERAS_WORDS:
        return PRIMERAS_WORDS[flag]
    raw = hand.get("tricks")
    tricks: Mapping[Any, Any] = raw if isinstance(raw, Mapping) else {}
    jugador = hand.get("jugador")
    mine = tricks.get(str(jugador), tricks.get(jugador)) if tricks else None
    others = [v for k, v in tricks.items() if _seat(k) != _seat(jugador)]
    if result in ("bola", "bola_cortada") or (mine == 5 and others and all(v == 0 for v in others)):
        return PRIMERAS_WORDS["jugador"]
    return ""


def _bola(hand: Mapping[str, Any], result: str) -> str:
    """R19: what the engine read (a 9-0-0 is a bola hecha whether or not the hand says so)."""
    if result == "bola":
        return "hecha"
    if result == "bola_cortada":
        return "cortada"
    return ""


def _pots(ruleset: str, entry: Mapping[str, Any]) -> list[Any]:
    """The pot columns after an entry: plato (Tresillo), pozo, reservas, viuda (pozo y viuda), bote (Ombre)."""
    if ruleset == "pozo_viuda":
        raw = entry.get("pozo")
        pozo: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        reserves = " + ".join(str(r) for r in pozo.get("reserves", []))
        return [pozo.get("amount", ""), reserves, entry.get("viuda", "")]
    if ruleset == "ombre":
        return [entry.get("bote", "")]
    plato = entry.get("plato")
    return [plato.get("amount", "") if isinstance(plato, Mapping) else ""]


POT_COLUMNS = {"pozo_viuda": ["Pozo", "Reservas", "Viuda"], "ombre": ["Bote"]}
GAME_COLUMNS = {
    "tresillo": ["Estuches", "Contraestuches", "Primeras", "Bola"],
    "pozo_viuda": ["Matadores", "Primeras", "Bola"],
    "ombre": ["Matadores en"],
}


def _game_cells(ruleset: str, hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[Any]:
    played = evening.entry_kind(hand) == "hand"
    if ruleset == "ombre":
        return [_name(names, hand.get("matadores_en")) if played else ""]
    if not played:
        return [""] * len(GAME_COLUMNS.get(ruleset, GAME_COLUMNS["tresillo"]))
    if ruleset == "pozo_viuda":
        return [int(hand.get("matadores") or 0), _primeras(hand, result), _bola(hand, result)]
    return [
        int(hand.get("estuches") or 0),
        int(hand.get("contraestuches") or 0),
        _primeras(hand, result),
        _bola(hand, result),
    ]


def _money_of(value: Decimal) -> Callable[[int], Decimal]:
    """Tantos → money at the table's tanto value, with as many decimals as it has (at least two)."""
    exponent = value.normalize().as_tuple().exponent
    quantum = Decimal(1).scaleb(-max(2, -exponent if isinstance(exponent, int) else 2))
    return lambda tantos: (value * tantos).quantize(quantum)


def bandos_csv(players: Sequence[str], hands: Sequence[Mapping[str, Any]], ledger: Mapping[str, Any]) -> str:
    """Juego de bandos: Nº, Da, Primeras, Capote, Faltas, Resultado, each player's tantos after it, Ganador."""
    names = dict(enumerate(players, 1))
    out, writer = _writer()
    header = ["Nº", "Da", "Primeras", "Capote", "Faltas", "Resultado", *players, "Ganador"]
    writer.writerow([escape_cell(c) for c in header])
    for hand, entry in zip(hands, ledger.get("hands", []), strict=True):
        scores = entry.get("scores") or {}
        primeras = hand.get("primeras")
        winner = entry.get("winner")
        row = [
            entry.get("n"),
            _name(names, entry.get("dealer")),
            f"equipo {primeras}" if primeras else "",
            "capote" if hand.get("capote") else "",
            _faltas(names, hand),
            result_word(entry.get("result", ""), "bandos"),
            *(int(scores.get(str(seat), 0)) for seat in range(1, len(players) + 1)),
            f"equipo {winner}" if winner else "",
        ]
        writer.writerow([cell(c) for c in row])
    return out.getvalue()


def hands_csv(
    players: Sequence[str],
    hands: Sequence[Mapping[str, Any]],
    ledger: Mapping[str, Any],
    app_keys: Mapping[str, Any] | None = None,
) -> str:
    """One row per entry, then each person's final balance.

    Columns: Nº, Tipo, Da, Jugador, Lance, Triunfo, the game's own (estuches, contraestuches,
    primeras, bola for Tresillo), Bazas, Resultado, Nota, each person's change in tantos (and in
    money with the table's tanto value), the pots after the entry.
    """
    ruleset = str(ledger.get("ruleset", "tresillo"))
    if ruleset == "bandos":
        return bandos_csv(players, hands, ledger)
    entries = list(ledger.get("hands", []))
    seats = evening.seatings(players, entries, hands)
    series = evening.people_series(players, entries, hands)
    people = list(series[-1]) if series else list(players)
    value = tanto_value((app_keys or {}).get("tanto_value"))
    money = _money_of(value) if value is not None else None
    out, writer = _writer()
    game = GAME_COLUMNS.get(ruleset, GAME_COLUMNS["tresillo"])
    pots = POT_COLUMNS.get(ruleset, ["Plato"])
    header = ["Nº", "Tipo", "Da", "Jugador", "Lance", "Triunfo", *game, "Bazas", "Resultado", "Nota"]
    header += [f"{p} (tantos)" for p in people]
    if value is not None:
        header += [f"{p} (dinero)" for p in people]
    header += pots
    writer.writerow([escape_cell(c) for c in header])
    before = dict.fromkeys(people, 0)
    for i, (hand, entry) in enumerate(zip(hands, entries, strict=True)):
        names = seats[i]
        seated = set(names.values())
        after = series[i]
        changes = [
            after.get(p, 0) - before.get(p, 0) if p in seated or after.get(p, 0) != before.get(p, 0) else ""
            for p in people
        ]
        before = dict(after)
        kind = evening.entry_kind(hand)
        result = str(entry.get("result", ""))
        played = kind == "hand"
        row: list[Any] = [
            entry.get("n"),
            KIND_WORDS[kind],
            _name(names, entry.get("dealer")),
            _name(names, hand.get("jugador")) if played else "",
            _lance(hand) if played else "",
            str(hand.get("trump") or "") if played else "",
            *_game_cells(ruleset, hand, result, names),
            _tricks(names, hand) if played else "",
            _result(hand, entry, names, ruleset),
            str(hand.get("note") or ""),
            *changes,
        ]
        if money is not None:
            row += [money(c) if isinstance(c, int) else "" for c in changes]
        row += _pots(ruleset, entry)
        writer.writerow([cell(c) for c in row])
    if entries:
        final = series[-1]
        blank = [""] * (len(header) - len(people) * (2 if value is not None else 1) - len(pots) - 2)
        row = ["", "saldo final", *blank, *(final[p] for p in people)]
        if money is not None:
            row += [money(final[p]) for p in people]
        row += _pots(ruleset, entries[-1])
        writer.writerow([cell(c) for c in row])
    return out.getvalue()
