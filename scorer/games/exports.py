"""Exports of a table: the hand table as CSV for a spreadsheet.

Numbers are written as numbers (a negative change stays ``-10``, never text); only text
cells are guarded against formula injection (a leading ``=``, ``+``, ``-``, ``@``, tab or
carriage return gets a ``'``). The header row is in the page's language; results are game words. Every entry
is a row: hands, passes, ajustes (R32), changes of player (R33) and the closing (R30),
each with its note. The tantos columns are by person (R33: money belongs to people), with
the same columns in money when the table has a tanto value, and a last row with each
person's final balance. After an empty row, the table's rules: the game, then every
option of its rule set with its value, defaults included (its name and value in words, then the
key and value as the session file writes them), and, when the table changed it, the favour suit
of each stretch of the evening (R34). Every row has as many cells as the header.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from scorer import evening
from scorer.games.text import CHOICE_WORDS, Lazy, _, _l
from scorer.words import GAME_NAMES, lance_word, result_word, suit_text, tanto_value

if TYPE_CHECKING:
    from scorer.games import Game

# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

KIND_WORDS = {
    "hand": "mano",
    "pass": "pasan",
    "ajuste": "ajuste",
    "sienta": "cambio de jugador",
    "favor": "cambio de palo de favor",
    "close": "cierre",
}
PRIMERAS_WORDS = {"jugador": "del jugador", "contra": "de la contra"}

# Each house rule as the new-table form labels it, by its form field (``option_fields`` of the games).
OPTION_LABELS: dict[str, Lazy] = {
    "favor_suit": _l("Palo de favor"),
    "vuelta_solera": _l("Vuelta solera"),
    "dealer_stake": _l("Puesta del que da"),
    "enchilada": _l("Enchilada"),
    "rounding": _l("Redondeo"),
    "favor_doubling": _l("Doblar a favor"),
    "vuelta_at_favor": _l("Vuelta a favor"),
    "solo_codillo": _l("Solo perdido por codillo"),
    "failed_bola": _l("Bola cortada"),
    "pv_favor_suit": _l("Palo de favor"),
    "pv_pozo_stake": _l("Puesta al pozo"),
    "pv_viuda_stake": _l("Puesta a la viuda"),
    "pv_pozo_cap": _l("Tope del pozo (en puestas)"),
    "pv_contrabola": _l("Contrabola"),
    "om_stake": _l("Pago de entrada y vuelta"),
    "om_solo_stake": _l("Pago del solo"),
    "om_vole_bonus": _l("Premio del vole (9 bazas)"),
    "om_matador_bonus": _l("Premio de matadores"),
    "om_outcome": _l("Quién gana la mano"),
    "om_codille": _l("Pago del codillo"),
    "om_deals": _l("Manos de la partida"),
    "om_target": _l("Meta (saldo que acaba la partida)"),
    "bd_target": _l("Meta (tantos)"),
    "bd_fuera_de_turno": _l("Falta: fuera de turno"),
    "bd_renuncio": _l("Falta: renuncio"),
    "bd_scoring": _l("Quién se apunta la mano"),
}
# What an option left empty (null) means, where null is a value of its own.
NO_VALUE: dict[str, Lazy] = {"favor_suit": _l("ninguno"), "deals": _l("sin límite"), "target": _l("sin meta")}


def _game(ruleset: object) -> Game:
    """:func:`scorer.games.game_of`, read when asked (the list of games imports this module)."""
    from scorer.games import game_of

    return game_of(ruleset)


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


def csv_writer() -> tuple[io.StringIO, Any]:
    out = io.StringIO()
    return out, csv.writer(out, lineterminator="\r\n")


def _seat(value: object) -> int | None:
    text = str(value) if value is not None else ""
    return int(text) if text.isdigit() else None


def name_cell(names: Mapping[int, str], seat: object) -> str:
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
    return ", ".join(f"{name_cell(names, s)} {tricks[s]}" for s in seats)


def _lance(hand: Mapping[str, Any]) -> str:
    lance = lance_word(hand.get("lance"))
    if hand.get("rendida"):
        lance += " rendida" if hand.get("defensor") is None else " rendida y defendida"
    return lance


def _result(hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], ruleset: str) -> str:
    """The result in words: "ganada", "bola cortada", "codillo de Ana", "ajuste: Benito paga 25 al plato"."""
    kind = evening.entry_kind(hand)
    if kind in ("ajuste", "sienta", "favor", "close"):
        return evening.event_text(hand, names, ruleset)
    result = str(entry.get("result", ""))
    word = result_word(result, ruleset)
    if result.endswith("codillo"):
        givers = [t.get("to") for t in entry.get("transfers") or () if t.get("concept") == "codillo"]
        if givers:
            word = f"{word} de {name_cell(names, givers[0])}" if result == "codillo" else word
    return word


def primeras_cell(hand: Mapping[str, Any], result: str) -> str:
    """R13: the flag, or what the tricks imply (5-0-0, a bola hecha or cortada)."""
    flag = hand.get("primeras")
    if flag in PRIMERAS_WORDS:
        return PRIMERAS_WORDS[flag]
    if result in ("bola", "bola_cortada") or _five_first(hand):
        return PRIMERAS_WORDS["jugador"]
    return ""


def _five_first(hand: Mapping[str, Any]) -> bool:
    """The jugador made five tricks and nobody else any (5-0-0: the five first)."""
    raw = hand.get("tricks")
    tricks: Mapping[Any, Any] = raw if isinstance(raw, Mapping) else {}
    jugador = hand.get("jugador")
    mine = tricks.get(str(jugador), tricks.get(jugador)) if tricks else None
    others = [v for k, v in tricks.items() if _seat(k) != _seat(jugador)]
    return mine == 5 and bool(others) and all(v == 0 for v in others)


def bola_cell(hand: Mapping[str, Any], result: str) -> str:
    """R19: what the engine read (a 9-0-0 is a bola hecha whether or not the hand says so)."""
    if result == "bola":
        return "hecha"
    if result == "bola_cortada":
        return "cortada"
    return ""


def played(hand: Mapping[str, Any]) -> bool:
    """A hand played (not a pass, a closing or an event of the evening): the game's own columns apply."""
    return evening.entry_kind(hand) == "hand"


def _money_of(value: Decimal) -> Callable[[int], Decimal]:
    """Tantos → money at the table's tanto value, with as many decimals as it has (at least two)."""
    exponent = value.normalize().as_tuple().exponent
    quantum = Decimal(1).scaleb(-max(2, -exponent if isinstance(exponent, int) else 2))
    return lambda tantos: (value * tantos).quantize(quantum)


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
    game = _game(str(ledger.get("ruleset", "tresillo")))
    own = game.csv(players, hands, ledger)
    if own is not None:
        return own
    columns = _HandColumns(game, players, hands, list(ledger.get("hands", [])), app_keys or {})
    out, writer = csv_writer()
    writer.writerow([escape_cell(c) for c in columns.header])
    for row in columns.rows():
        writer.writerow([cell(c) for c in row])
    return out.getvalue()


class _HandColumns:
    """The shared columns of the hands' CSV for a table: its header, a row per entry, the final balances."""

    def __init__(
        self,
        game: Game,
        players: Sequence[str],
        hands: Sequence[Mapping[str, Any]],
        entries: list[Mapping[str, Any]],
        app_keys: Mapping[str, Any],
    ) -> None:
        self.game, self.hands, self.entries = game, hands, entries
        self.seats = evening.seatings(players, entries, hands)
        self.series = evening.people_series(players, entries, hands)
        self.people = list(self.series[-1]) if self.series else list(players)
        value = tanto_value(app_keys.get("tanto_value"))
        self.money = _money_of(value) if value is not None else None
        self.header = self._header()

    def _header(self) -> list[str]:
        header = [_("Nº"), _("Tipo"), _("Da"), _("Jugador"), _("Lance"), _("Triunfo"), *self.game.game_columns]
        header += [_("Bazas"), _("Resultado"), _("Nota")]
        header += [_("%(name)s (tantos)", name=p) for p in self.people]
        if self.money is not None:
            header += [_("%(name)s (dinero)", name=p) for p in self.people]
        return header + list(self.game.pot_columns)

    def rows(self) -> list[list[Any]]:
        rows = []
        before = dict.fromkeys(self.people, 0)
        for i, (hand, entry) in enumerate(zip(self.hands, self.entries, strict=True)):
            rows.append(self._row(hand, entry, self.seats[i], self._changes(before, self.series[i], self.seats[i])))
            before = dict(self.series[i])
        if self.entries:
            rows.append(self._final_row())
        return rows

    def _changes(self, before: Mapping[str, int], after: Mapping[str, int], names: Mapping[int, str]) -> list[Any]:
        """Each person's change over an entry; blank for one not seated whose balance did not move."""
        seated = set(names.values())
        return [
            after.get(p, 0) - before.get(p, 0) if p in seated or after.get(p, 0) != before.get(p, 0) else ""
            for p in self.people
        ]

    def _row(
        self, hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], changes: list[Any]
    ) -> list[Any]:
        kind = evening.entry_kind(hand)
        row: list[Any] = [entry.get("n"), KIND_WORDS[kind], name_cell(names, entry.get("dealer"))]
        row += _played_cells(hand, names) if kind == "hand" else ["", "", ""]
        row += self.game.game_cells(hand, str(entry.get("result", "")), names)
        row += [_tricks(names, hand) if kind == "hand" else ""]
        row += [_result(hand, entry, names, self.game.ruleset), str(hand.get("note") or ""), *changes]
        if self.money is not None:
            row += [self.money(c) if isinstance(c, int) else "" for c in changes]
        return row + self.game.pots(entry)

    def _final_row(self) -> list[Any]:
        final = self.series[-1]
        own = len(self.people) * (2 if self.money is not None else 1) + len(self.game.pot_columns) + 2
        row: list[Any] = ["", _("saldo final"), *[""] * (len(self.header) - own), *(final[p] for p in self.people)]
        if self.money is not None:
            row += [self.money(final[p]) for p in self.people]
        return row + self.game.pots(self.entries[-1])


def _played_cells(hand: Mapping[str, Any], names: Mapping[int, str]) -> list[Any]:
    """Jugador, Lance, Triunfo of a played hand."""
    return [name_cell(names, hand.get("jugador")), _lance(hand), str(hand.get("trump") or "")]


def _option_words(key: str, value: object) -> str:
    """An option's value as the pages say it: a suit, a choice of the new-table form, sí/no, a number."""
    if value is None:
        return str(NO_VALUE.get(key, ""))
    if isinstance(value, bool):
        return _("sí") if value else _("no")
    if key == "favor_suit":
        return suit_text(str(value))
    known = CHOICE_WORDS.get(str(value))
    return str(known) if known is not None else str(value)


def _as_written(value: object) -> object:
    """The value as the session file writes it: numbers as numbers, true/false/null, words as they are."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return value


def rules_rows(session: Mapping[str, Any]) -> list[list[Any]]:
    """The table's rules: the game, every option of its rule set with its value (defaults included), and
    the favour suit of each stretch of the evening when the table changed it (R34)."""
    rules = session.get("rules") or {}
    ruleset = str(rules.get("ruleset") or "tresillo")
    spec = _game(ruleset)
    game = _(GAME_NAMES.get(ruleset, ruleset))
    rows: list[list[Any]] = [[_("Reglas de la mesa"), _("Juego"), game, "ruleset", ruleset]]
    for name, key in spec.option_fields:
        value = rules.get(key)
        if value is None:
            value = spec.option_defaults.get(key)
        label = str(OPTION_LABELS.get(name, key))
        rows.append(["", label, _option_words(key, value), key, _as_written(value)])
    for i, line in enumerate(evening.favor_lines(session)):
        rows.append([_("Cambios de palo de favor") if i == 0 else "", line])
    return rows


def with_rules(text: str, session: Mapping[str, Any]) -> str:
    """The hand table of :func:`hands_csv`, then an empty row and :func:`rules_rows`, as wide as its header."""
    header = next(csv.reader(io.StringIO(text)), [])
    out, writer = csv_writer()
    writer.writerow([])
    for row in rules_rows(session):
        writer.writerow([cell(c) for c in row] + [""] * max(0, len(header) - len(row)))
    return text + out.getvalue()
