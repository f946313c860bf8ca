"""The sheet's hand table: one row per ledger entry (a played hand, a pass, an ajuste or a change of
player, the closing), its result in words, its notes and its pot cells; and each column's running
score, for the chart."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorer import evening
from scorer import tricks as read_tricks
from scorer.words import FALTA_WORDS, PLATO_MARKS, lance_word, plain, result_word, signed
from scorer.words import translate as _

from .text import iso, listed, ruleset_of, seat, suit_html

Row = dict[str, Any]


def hand_maps(session: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The session's hands, anything that is not one read as an empty hand."""
    return [h if isinstance(h, Mapping) else {} for h in session.get("hands") or []]


# ---------------------------------------------------------------- a row's result and notes


def _extras(hand: Mapping[str, Any], names: Mapping[int, str]) -> str:
    parts = []
    if hand.get("estuches"):
        parts.append(f"{hand['estuches']}")
    if hand.get("contraestuches"):
        parts.append(_("%(n)s contra", n=hand["contraestuches"]))
    if hand.get("matadores"):
        parts.append(_("%(n)s mat.", n=hand["matadores"]))
    holder = seat(hand.get("matadores_en"))
    if holder is not None and holder in names:
        parts.append(_("mat. %(name)s", name=iso(names[holder])))
    return " ".join(parts)


def _result_word(result: str, entry: Mapping[str, Any], names: Mapping[int, str], ruleset: str) -> str:
    """The result in words; a codillo names who made it."""
    if result == "codillo":
        givers = [t.get("to") for t in entry.get("transfers", ()) if t.get("concept") == "codillo"]
        if givers and givers[0] in names:
            return _("codillo de %(name)s", name=iso(names[givers[0]]))
    return result_word(result, ruleset)


def _defensor_note(hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[str]:
    defensor = seat(hand.get("defensor"))
    if result.startswith("defendida") and defensor is not None and defensor in names:
        return [_("defiende %(name)s", name=iso(names[defensor]))]
    return []


def _primeras_note(hand: Mapping[str, Any], result: str) -> list[str]:
    """Who took the first tricks, unless the result already says it (a bola)."""
    primeras = hand.get("primeras")
    if primeras == "jugador":
        return [] if hand.get("bola") or result in ("bola", "bola_cortada") else ["primeras"]
    if primeras == "contra":
        return [_("primeras de la contra")]
    if primeras in ("A", "B"):
        return [_("primeras del equipo %(team)s", team=primeras)]
    return []


def _bola_note(hand: Mapping[str, Any], result: str) -> list[str]:
    """A bola made or cut, unless the result already says it (R19)."""
    bola = hand.get("bola")
    if bola == "hecha" and result != "bola":
        return [_("bola hecha")]
    if bola == "cortada" and result != "bola_cortada":
        return [_("bola cortada")]
    return []


def _falta_notes(hand: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    notes = []
    for falta in hand.get("faltas", ()) or ():
        if isinstance(falta, Mapping):
            who = names.get(seat(falta.get("seat")) or 0, "?")
            kind = str(falta.get("falta", ""))
            said = FALTA_WORDS.get(kind, kind.replace("_", " "))
            notes.append(_("falta de %(name)s (%(falta)s)", name=iso(who), falta=said))
    return notes


def result_text(
    hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], ruleset: str = "tresillo"
) -> tuple[str, str]:
    """(result word, note) for one row."""
    result = str(entry.get("result", ""))
    notes = [
        *_defensor_note(hand, result, names),
        *_primeras_note(hand, result),
        *_bola_note(hand, result),
        *(["capote"] if hand.get("capote") else []),
        *_falta_notes(hand, names),
    ]
    return _result_word(result, entry, names, ruleset), ", ".join(notes)


# ---------------------------------------------------------------- the pots


def _reserves(pozo: Mapping[str, Any]) -> int:
    return sum(int(r) for r in pozo.get("reserves", ()) or ())


def _plato_cell(plato: Mapping[str, Any]) -> str:
    """The plato's tantos and the mark of what it holds."""
    return f"{plain(int(plato.get('amount', 0)))}{PLATO_MARKS.get(str(plato.get('kind')), '')}"


def _pozo_cell(pozo: Mapping[str, Any]) -> str:
    """The pozo's tantos, "+" its reserves."""
    reserves = _reserves(pozo)
    return plain(int(pozo.get("amount", 0))) + (f"+{reserves}" if reserves else "")


POT_CELLS = (("plato", _plato_cell), ("pozo", _pozo_cell))


def _pots(entry: Mapping[str, Any]) -> list[str]:
    """The pot cells of a row, in the order of :func:`pot_headers`."""
    cells = [cell(entry[key]) for key, cell in POT_CELLS if isinstance(entry.get(key), Mapping)]
    return cells + [plain(int(entry[key])) for key in ("viuda", "bote") if key in entry]


def pot_headers(ledger: Mapping[str, Any]) -> list[str]:
    headers = [title for key, title in (("plato", "Plato"), ("pozo", "Pozo")) if isinstance(ledger.get(key), Mapping)]
    return headers + [title for key, title in (("viuda", "Viuda"), ("bote", "Bote")) if key in ledger]


def pot_total(ledger: Mapping[str, Any]) -> int:
    """Every tanto still on the table: the plato, the pozo and its reserves, the viuda, the bote."""
    plato, pozo = ledger.get("plato"), ledger.get("pozo")
    total = int(plato.get("amount", 0)) if isinstance(plato, Mapping) else 0
    if isinstance(pozo, Mapping):
        total += int(pozo.get("amount", 0)) + _reserves(pozo)
    return total + int(ledger.get("viuda", 0) or 0) + int(ledger.get("bote", 0) or 0)


# ---------------------------------------------------------------- one row, by its kind


def _kind(hand: Mapping[str, Any], entry: Mapping[str, Any]) -> str:
    """What a row is: the closing, an event (an ajuste, a change of player), a pass, a played hand, or
    another entry (its result in words)."""
    result = str(entry.get("result", ""))
    if result == "cierre" or "close" in hand:
        return "close"
    if evening.is_event(hand):  # R32 ajuste, R33 cambio de jugador: their own lines with their note
        return "event"
    if result == "paso" or hand.get("pass"):
        return "pass"
    return "other" if seat(hand.get("jugador")) is None else "played"


# Each kind fills in its own cells: (the row, the session's hand, the ledger's entry, who sat where then,
# how many seats the table has).


def _close(row: Row, hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], size: int) -> None:
    how = hand.get("close", "devolver")
    row["text"] = _("Cierre: se devuelve el plato") if how == "devolver" else _("Cierre: se reparte lo que hay")
    row["note"] = str(hand.get("note") or "")


def _event(row: Row, hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], size: int) -> None:
    text = evening.event_text(hand, names)
    row["text"] = text[:1].upper() + text[1:]
    row["note"] = str(hand.get("note") or "")


def _pass(row: Row, hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], size: int) -> None:
    row["text"] = _("Todos pasan")


def _other(row: Row, hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], size: int) -> None:
    row["text"] = row["note"] or row["result_word"]
    row["note"] = ""


def _played(row: Row, hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], size: int) -> None:
    """A played hand: who played what in which suit, the extras, the tricks (a dash for a rendida
    whose tricks nobody wrote down); a rendida and the hand's own note join the row's notes."""
    jugador = seat(hand.get("jugador"))
    assert jugador is not None  # what made it a played hand (_kind)
    rendida = bool(hand.get("rendida"))
    dealer = seat(entry.get("dealer"))
    tricks = "\u2014" if rendida and not hand.get("tricks") else read_tricks.of_hand(hand, size, dealer)
    row.update(
        jugador=names.get(jugador, str(jugador)),
        lance=lance_word(str(hand.get("lance", ""))),
        suit=suit_html(hand.get("trump")),
        extras=_extras(hand, names),
        tricks=tricks,
    )
    if rendida and hand.get("tricks"):
        row["note"] = listed("rendida", row["note"])
    row["note"] = listed(row["note"], str(hand.get("note") or ""))


Fill = Callable[[Row, Mapping[str, Any], Mapping[str, Any], Mapping[int, str], int], None]
FILLS: dict[str, Fill] = {"close": _close, "event": _event, "pass": _pass, "played": _played, "other": _other}


def _row(
    index: int, entry: Mapping[str, Any], hand: Mapping[str, Any], names: Mapping[int, str], ruleset: str, size: int
) -> Row:
    """One entry's row (its deltas are added by :func:`hand_rows`); ``names``: who sat where then (R33)."""
    dealer = seat(entry.get("dealer"))
    word, note = result_text(hand, entry, names, ruleset)
    row: Row = {
        "n": entry.get("n", index + 1),
        "dealer": names.get(dealer, "") if dealer else "",
        "result": str(entry.get("result", "")),
        "result_word": word,
        "note": note,
        "deltas": [],
        "pots": _pots(entry),
    }
    kind = _kind(hand, entry)
    row["kind"] = kind
    FILLS[kind](row, hand, entry, names, size)
    return row


# ---------------------------------------------------------------- the table


def _columns(
    ledger: Mapping[str, Any],
    seats: Sequence[int],
    players: Sequence[str],
    entries: Sequence[Mapping[str, Any]],
    hands: Sequence[Mapping[str, Any]],
) -> tuple[list[Any], list[dict[str, int]] | None]:
    """The score columns and, with balances, each entry's balances by person (R33); else the seats."""
    if "balances" not in ledger:
        return list(seats), None
    people_after = evening.people_series(list(players), entries, hands)
    return (list(people_after[-1]) if people_after else list(players)), people_after


def _after(
    index: int,
    entry: Mapping[str, Any],
    columns: Sequence[Any],
    previous: Mapping[Any, int],
    people_after: Sequence[Mapping[str, int]] | None,
) -> dict[Any, int]:
    """Each column's score after an entry (a column it leaves out keeps its score)."""
    if people_after is not None:
        return {c: int(people_after[index].get(c, previous[c])) for c in columns}
    scores = entry.get("scores") or {}
    return {s: int(scores.get(str(s), previous[s])) for s in columns}


def _running(
    entries: Sequence[Mapping[str, Any]], columns: Sequence[Any], people_after: Sequence[Mapping[str, int]] | None
) -> list[dict[Any, int]]:
    """Each column's score before the first entry (0) and after each one."""
    scores: list[dict[Any, int]] = [dict.fromkeys(columns, 0)]
    for index, entry in enumerate(entries):
        scores.append(_after(index, entry, columns, scores[-1], people_after))
    return scores


def _deltas(columns: Sequence[Any], previous: Mapping[Any, int], after: Mapping[Any, int]) -> list[dict[str, Any]]:
    return [
        {"text": signed(after[c] - previous[c]) if after[c] != previous[c] else "", "sign": after[c] - previous[c]}
        for c in columns
    ]


def hand_rows(
    session: Mapping[str, Any], ledger: Mapping[str, Any], seats: Sequence[int], names: Mapping[int, str]
) -> tuple[list[Row], list[list[int]]]:
    """One row per ledger entry, and each column's running score (for the chart).

    With balances the columns are the people who sat (R33); the juego de bandos keeps its seats.
    """
    hands = hand_maps(session)
    entries = ledger.get("hands") or []
    ruleset = ruleset_of(session, ledger)
    players = [names[s] for s in seats]
    seatings = evening.seatings(players, entries, hands)
    columns, people_after = _columns(ledger, seats, players, entries, hands)
    scores = _running(entries, columns, people_after)
    rows: list[Row] = []
    for index, entry in enumerate(entries):
        row = _row(index, entry, hands[index] if index < len(hands) else {}, seatings[index], ruleset, len(seats))
        row["deltas"] = _deltas(columns, scores[index], scores[index + 1])
        rows.append(row)
    return rows, [[after[column] for after in scores] for column in columns]
