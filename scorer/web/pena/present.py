"""The peña's view-models: its standings, evenings, settle-up and open pots, a person's statistics,
as the texts and charts the pages (and the season's PDF) show."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from flask import url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from scorer import words
from scorer.pena import charts, stats
from scorer.store import penas as ps
from scorer.store.models import Pena, Table


def money_text(amount: Decimal | None, currency: str, *, sign: bool = True) -> str:
    if amount is None:
        return ""
    return words.money_text(1, amount, currency, sign=sign)


def people_names(pena: Pena) -> dict[int, str]:
    return {p.id: ps.label(p) for p in pena.people}


def table_token(table: Table, can_edit: bool) -> str:
    return table.edit_token if can_edit else table.view_token


def _name(names: dict[int, str], key: object) -> str:
    return names.get(int(str(key)), "?")


def ledger_context(pena: Pena, evenings: list[stats.Evening], can_edit: bool) -> dict[str, Any]:
    """The standings, the evening table, the settle-up and the open pots, as texts."""
    ledger = stats.lifetime_ledger(evenings)
    names = people_names(pena)
    tables = {t.id: t for _link, t in ps.tables_of(pena)}
    return {
        "standings": [_standing(s, ledger, names) for s in ledger.standings],
        **_evenings_table(ledger, names, tables, pena, can_edit),
        "payments": [_payment(p, ledger, names) for p in ledger.payments],
        "pots": [_open_pot(line) for line in ledger.open_pots],
        "others": [_other_evening(e, tables, can_edit) for e in evenings if not e.money_game],
        "chart": balance_chart(ledger, names),
        "ledger": ledger,
    }


def _in_tantos(ledger: stats.Ledger) -> bool:
    """Whether the peña's sums read in tantos: one value of the tanto for every evening, or none at all."""
    return ledger.same_value is not None or ledger.tantos_only


def _evenings_table(
    ledger: stats.Ledger, names: dict[int, str], tables: dict[int, Table], pena: Pena, can_edit: bool
) -> dict[str, Any]:
    """The table of evenings: a column per person, a row per evening."""
    columns = [s.person for s in ledger.standings]
    return {
        "columns": [_name(names, p) for p in columns],
        "rows": [
            _evening_row(line, columns, tables.get(int(str(line.evening.key))), pena, can_edit) for line in ledger.lines
        ],
        "same_value": words.decimal_text(ledger.same_value) if ledger.same_value is not None else None,
        "show_tantos": _in_tantos(ledger),
        "tantos_only": ledger.tantos_only,
        "currency": ledger.currency,
    }


def _standing(s: Any, ledger: stats.Ledger, names: dict[int, str]) -> dict[str, Any]:
    """A person's line of the standings: evenings, money (or only tantos), its sign for the colour."""
    return {
        "id": s.person,
        "name": _name(names, s.person),
        "evenings": s.evenings,
        "money": "" if ledger.tantos_only else money_text(s.money, ledger.currency),
        "tantos": None if s.tantos is None else words.signed(s.tantos),
        "sign": "pos" if s.money > 0 else "neg" if s.money < 0 else "",
    }


def _evening_row(line: Any, columns: list[Any], table: Table | None, pena: Pena, can_edit: bool) -> dict[str, Any]:
    """An evening of the table of evenings: its cells by person, its pot, the people not matched yet."""
    e = line.evening
    return {
        "name": e.name,
        "date": e.date,
        "game": words.GAME_SHORT_NAMES.get(e.ruleset, e.ruleset),
        "url": url_for("tables.table", token=table_token(table, can_edit)) if table is not None else "",
        "value": words.decimal_text(e.value) if e.value is not None else "",
        "cells": [_cell(line, p) for p in columns],
        "pot": line.pot,
        "unmatched": line.unmatched,
        "confirm": _confirm_url(line, table, pena) if can_edit else "",
        "open": not e.closed,
    }


def _cell(line: Any, person: Any) -> dict[str, str]:
    """What ``person`` won or lost that evening; empty when they did not sit."""
    if person not in line.tantos:
        return {"tantos": "", "money": ""}
    return {
        "tantos": words.signed(line.tantos[person]),
        "money": money_text(line.money.get(person), line.evening.currency),
    }


def _confirm_url(line: Any, table: Table | None, pena: Pena) -> str:
    """Where the keeper says who is who at an evening with names not matched to people yet."""
    if table is None or not line.unmatched:
        return ""
    return url_for("pena.confirm", token=pena.edit_token, table=table.edit_token)


def _payment(p: Any, ledger: stats.Ledger, names: dict[int, str]) -> dict[str, str]:
    """One payment of the settle-up, in tantos when the peña only counts tantos."""
    if ledger.tantos_only:
        money = _("%(n)s tantos", n=words.plain(p.amount))
    else:
        money = money_text(stats.payment_money(p.amount, ledger.places), ledger.currency, sign=False)
    return {"payer": _name(names, p.payer), "payee": _name(names, p.payee), "money": money}


def _open_pot(line: Any) -> dict[str, Any]:
    """A pot still on the table at an evening not closed."""
    e = line.evening
    return {
        "name": e.name,
        "date": e.date,
        "pot": words.plain(line.pot),
        "money": money_text(stats.money(e, line.pot), e.currency, sign=False),
        "word": words.GAME_POT_WORDS.get(e.ruleset, _("el plato")),
    }


def _other_evening(e: stats.Evening, tables: dict[int, Table], can_edit: bool) -> dict[str, Any]:
    """An evening of a game without money (bandos), listed apart."""
    table = tables.get(int(str(e.key)))
    return {
        "name": e.name,
        "date": e.date,
        "game": words.GAME_NAMES.get(e.ruleset, e.ruleset),
        "url": url_for("tables.table", token=table_token(table, can_edit)) if table is not None else "",
    }


def balance_chart(ledger: stats.Ledger, names: dict[int, str]) -> str | None:
    """Each person's running balance after each evening: in tantos when they mean one thing, else in money."""
    people = [s.person for s in ledger.standings][:8]
    if not people or not ledger.lines:
        return None
    use_tantos = _in_tantos(ledger)
    running = [_running(ledger, person, use_tantos) for person in people]
    scale, unit = _chart_unit(ledger, running, use_tantos)
    series = [[int((v * scale).to_integral_value()) for v in points] for points in running]
    return charts.evenings_chart([_name(names, p) for p in people], series, unit=unit, labels=_chart_dates(ledger))


def _chart_dates(ledger: stats.Ledger) -> list[str]:
    """The chart's points: the start, then each evening's date."""
    return [_("inicio")] + [words.date_text(line.evening.date) or "?" for line in ledger.lines]


def _running(ledger: stats.Ledger, person: Any, use_tantos: bool) -> list[Decimal]:
    """A person's balance from zero, after each evening."""
    total = Decimal(0)
    points = [total]
    for line in ledger.lines:
        total += Decimal(line.tantos.get(person, 0)) if use_tantos else line.money.get(person, Decimal(0))
        points.append(total)
    return points


def _chart_unit(ledger: stats.Ledger, running: list[list[Decimal]], use_tantos: bool) -> tuple[Decimal, str]:
    """The chart's scale and unit: tantos, the currency, or its cents when the sums are small."""
    if use_tantos:
        return Decimal(1), "tantos"
    largest = max((abs(v) for points in running for v in points), default=Decimal(0))
    if largest >= 50:
        return Decimal(1), ledger.currency or _("dinero")
    # small sums: whole units would flatten every line
    if ledger.currency:
        return Decimal(100), _("céntimos de %(unit)s", unit=ledger.currency)
    return Decimal(100), _("céntimos")


def person_nights(pena: Pena, ledger: stats.Ledger, person_id: int, can_edit: bool) -> list[dict[str, Any]]:
    """A person's evenings: what they won or lost at each, with the link to its table."""
    tables = {t.id: t for _link, t in ps.tables_of(pena)}
    return [_night(line, person_id, tables, can_edit) for line in ledger.lines if person_id in line.tantos]


def _night(line: Any, person_id: int, tables: dict[int, Table], can_edit: bool) -> dict[str, Any]:
    e = line.evening
    table = tables.get(int(str(e.key)))
    return {
        "name": e.name,
        "date": e.date,
        "game": words.GAME_SHORT_NAMES.get(e.ruleset, e.ruleset),
        "tantos": words.signed(line.tantos[person_id]),
        "money": money_text(line.money.get(person_id), e.currency),
        "url": url_for("tables.table", token=table_token(table, can_edit)) if table else "",
    }


def person_chart(pena: Pena, ledger: stats.Ledger, person_id: int) -> str | None:
    """A person's running balance, evening after evening (the peña's chart with one line)."""
    alone = stats.Ledger(
        lines=ledger.lines,
        standings=[s for s in ledger.standings if s.person == person_id],
        same_value=ledger.same_value,
        currency=ledger.currency,
    )
    return balance_chart(alone, people_names(pena))


def confirm_rows(pena: Pena, table: Table, posted: Any) -> list[dict[str, Any]]:
    """Each name of the table with the person chosen for it: what was posted, the sure match, or a new
    person when the roster has no one like it."""
    rows = []
    for i, match in enumerate(ps.matches(pena, table), 1):
        chosen = posted.get(f"name-{i}") or (str(match.person.id) if match.person else "")
        if not chosen and not match.candidates:
            chosen = ps.NEW
        rows.append({"i": i, "match": match, "chosen": chosen})
    return rows


STAT_ROWS = [
    ("evenings", _l("Noches jugadas"), None),
    ("hands", _l("Manos en juego"), ("tresillo", "pozo_viuda", "ombre")),
    ("jugador", _l("Manos de jugador"), ("tresillo", "pozo_viuda", "ombre")),
    ("won", _l("Ganadas"), ("tresillo", "pozo_viuda", "ombre")),
    ("puesta", "Puestas", ("tresillo", "pozo_viuda", "ombre")),
    ("codillo", _l("Codillos recibidos"), ("tresillo", "pozo_viuda", "ombre")),
    ("codillos_given", _l("Codillos dados"), ("tresillo", "pozo_viuda", "ombre")),
    ("rendidas", "Rendidas", ("tresillo",)),
    ("defences", _l("Defensas"), ("tresillo",)),
    ("defences_won", _l("Defensas ganadas"), ("tresillo",)),
    ("bolas_made", _l("Bolas hechas"), ("tresillo", "pozo_viuda")),
    ("bolas_cut", _l("Bolas cortadas"), ("tresillo", "pozo_viuda")),
    ("bandos_won", _l("Partidas de bandos ganadas"), ("bandos",)),
]
STAT_GAMES = {key: games for key, _label, games in STAT_ROWS if games is not None}
RATES = {"won": "won_rate", "puesta": "puesta_rate", "codillo": "codillo_rate"}


def cents(amount: Decimal) -> Decimal:
    """Money rounds half up, to the cent (8.125 → 8.13, −21.625 → −21.63)."""
    return amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def stats_context(result: stats.Stats, currency: str, *, whole: bool = False) -> dict[str, Any]:
    """The statistics as labelled lines: only those of the games played. For the ``whole`` peña every
    hand in play has one jugador, so "Manos de jugador" would repeat "Manos en juego": said once."""
    lances = [(words.lance_word(k), v) for k, v in sorted(result.by_lance.items(), key=_most_first)]
    trumps = [(words.suit_text(k), v) for k, v in sorted(result.by_trump.items(), key=_most_first)]
    return {
        "lines": [*_count_lines(result, whole), *_plato_lines(result, currency), *_money_lines(result, currency)],
        "lances": lances,
        "trumps": trumps,
        "games": [
            ngettext("%(game)s: %(num)d noche", "%(game)s: %(num)d noches", n, game=words.GAME_NAMES.get(g, g))
            for g, n in sorted(result.evenings_by_game.items())
        ],
        "lance_chart": _mix(lances, _("Lances como jugador")),
        "trump_chart": _mix(trumps, _("Triunfos como jugador")),
        "outcome_chart": _mix(_outcomes(result), _("Resultados como jugador")) if result.jugador else None,
    }


def _most_first(kv: tuple[str, int]) -> tuple[int, str]:
    """Counts from the largest down; equal counts by their key."""
    return -kv[1], kv[0]


def _count_lines(result: stats.Stats, whole: bool) -> list[dict[str, str]]:
    """The counted lines (STAT_ROWS) of the games played, each with its rate when it has one."""
    data = result.as_dict()
    lines = []
    for key, label, games in STAT_ROWS:
        if not _row_shown(key, games, result, whole):
            continue
        rate = data.get(RATES.get(key, ""))
        value = str(data[key]) if rate is None else f"{data[key]} ({rate} %)"
        lines.append({"key": key, "label": str(label), "value": value})
    return lines


def _row_shown(key: str, games: tuple[str, ...] | None, result: stats.Stats, whole: bool) -> bool:
    """A line of the games played only; for the ``whole`` peña, no "Manos de jugador" (it repeats the hands)."""
    if whole and key == "jugador":
        return False
    return games is None or bool(result.games & set(games))


def _plato_lines(result: stats.Stats, currency: str) -> list[dict[str, str]]:
    """The biggest plato taken, in the games with a jugador; with its money when the tanto has a value."""
    if not result.games & set(stats.JUGADOR_GAMES):
        return []
    money = money_text(result.biggest_plato_money, currency, sign=False)
    tantos = words.plain(result.biggest_plato)
    value = _("%(n)s tantos (%(money)s)", n=tantos, money=money) if money else _("%(n)s tantos", n=tantos)
    return [{"key": "biggest_plato", "label": _("Mayor plato cobrado"), "value": value}]


def _money_lines(result: stats.Stats, currency: str) -> list[dict[str, str]]:
    """The total balance and the average per evening, when some evening had money."""
    if not result.money_evenings:
        return []
    average = money_text(cents(result.average_money), currency) if result.average_money is not None else ""
    return [
        {"key": "money", "label": _("Saldo total"), "value": money_text(result.money, currency)},
        {"key": "average_money", "label": _("Media por noche"), "value": average},
    ]


def _outcomes(result: stats.Stats) -> list[tuple[str, int]]:
    """How the hands as jugador ended; rendidas only in the games that have them (R25)."""
    outcomes = [(_("ganadas"), result.won), ("puestas", result.puesta), ("codillos", result.codillo)]
    if result.games & set(STAT_GAMES["rendidas"]):
        outcomes.append(("rendidas", result.rendidas))
    return outcomes


def _mix(parts: list[tuple[str, int]], title: str) -> str | None:
    """A mix chart of ``parts``; none when there is nothing to show."""
    return charts.mix_chart(parts, title=title) if parts else None
