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


def ledger_context(pena: Pena, evenings: list[stats.Evening], can_edit: bool) -> dict[str, Any]:
    """The standings, the evening table, the settle-up and the open pots, as texts."""
    ledger = stats.lifetime_ledger(evenings)
    names = people_names(pena)
    currency = ledger.currency
    tables = {t.id: t for _link, t in ps.tables_of(pena)}
    standings = [
        {
            "id": s.person,
            "name": names.get(int(str(s.person)), "?"),
            "evenings": s.evenings,
            "money": "" if ledger.tantos_only else money_text(s.money, currency),
            "tantos": None if s.tantos is None else words.signed(s.tantos),
            "sign": "pos" if s.money > 0 else "neg" if s.money < 0 else "",
        }
        for s in ledger.standings
    ]
    columns = [s.person for s in ledger.standings]
    rows = []
    for line in ledger.lines:
        e = line.evening
        table = tables.get(int(str(e.key)))
        rows.append(
            {
                "name": e.name,
                "date": e.date,
                "game": words.GAME_SHORT_NAMES.get(e.ruleset, e.ruleset),
                "url": url_for("tables.table", token=table_token(table, can_edit)) if table is not None else "",
                "value": words.decimal_text(e.value) if e.value is not None else "",
                "cells": [
                    {
                        "tantos": words.signed(line.tantos[p]) if p in line.tantos else "",
                        "money": money_text(line.money.get(p), e.currency) if p in line.tantos else "",
                    }
                    for p in columns
                ],
                "pot": line.pot,
                "unmatched": line.unmatched,
                "confirm": url_for("pena.confirm", token=pena.edit_token, table=table.edit_token)
                if can_edit and table is not None and line.unmatched
                else "",
                "open": not e.closed,
            }
        )
    payments = [
        {
            "payer": names.get(int(str(p.payer)), "?"),
            "payee": names.get(int(str(p.payee)), "?"),
            "money": _("%(n)s tantos", n=words.plain(p.amount))
            if ledger.tantos_only
            else money_text(stats.payment_money(p.amount, ledger.places), currency, sign=False),
        }
        for p in ledger.payments
    ]
    pots = [
        {
            "name": line.evening.name,
            "date": line.evening.date,
            "pot": words.plain(line.pot),
            "money": money_text(stats.money(line.evening, line.pot), line.evening.currency, sign=False),
            "word": words.GAME_POT_WORDS.get(line.evening.ruleset, _("el plato")),
        }
        for line in ledger.open_pots
    ]
    others = [e for e in evenings if not e.money_game]
    return {
        "standings": standings,
        "columns": [names.get(int(str(p)), "?") for p in columns],
        "rows": rows,
        "payments": payments,
        "pots": pots,
        "same_value": words.decimal_text(ledger.same_value) if ledger.same_value is not None else None,
        "show_tantos": ledger.same_value is not None or ledger.tantos_only,
        "tantos_only": ledger.tantos_only,
        "currency": currency,
        "others": [
            {
                "name": e.name,
                "date": e.date,
                "game": words.GAME_NAMES.get(e.ruleset, e.ruleset),
                "url": url_for("tables.table", token=table_token(tables[int(str(e.key))], can_edit))
                if int(str(e.key)) in tables
                else "",
            }
            for e in others
        ],
        "chart": balance_chart(ledger, names),
        "ledger": ledger,
    }


def balance_chart(ledger: stats.Ledger, names: dict[int, str]) -> str | None:
    """Each person's running balance after each evening: in tantos when they mean one thing, else in money."""
    people = [s.person for s in ledger.standings][:8]
    if not people or not ledger.lines:
        return None
    use_tantos = ledger.same_value is not None or ledger.tantos_only
    running: list[list[Decimal]] = []
    for person in people:
        total = Decimal(0)
        points = [total]
        for line in ledger.lines:
            total += Decimal(line.tantos.get(person, 0)) if use_tantos else line.money.get(person, Decimal(0))
            points.append(total)
        running.append(points)
    unit = "tantos" if use_tantos else (ledger.currency or _("dinero"))
    largest = max((abs(v) for points in running for v in points), default=Decimal(0))
    scale = Decimal(1)
    if not use_tantos and largest < 50:  # small sums: whole units would flatten every line
        scale, unit = Decimal(100), _("céntimos de %(unit)s", unit=unit) if ledger.currency else _("céntimos")
    series = [[int((v * scale).to_integral_value()) for v in points] for points in running]
    dates = [_("inicio")] + [words.date_text(line.evening.date) or "?" for line in ledger.lines]
    return charts.evenings_chart([names.get(int(str(p)), "?") for p in people], series, unit=unit, labels=dates)


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
    data = result.as_dict()
    lines = []
    for key, label, games in STAT_ROWS:
        if games is not None and not result.games & set(games):
            continue
        if whole and key == "jugador":
            continue
        value = str(data[key])
        rate = data.get(RATES.get(key, ""))
        if rate is not None:
            value += f" ({rate} %)"
        lines.append({"key": key, "label": str(label), "value": value})
    if result.games & set(stats.JUGADOR_GAMES):
        money = money_text(result.biggest_plato_money, currency, sign=False)
        lines.append(
            {
                "key": "biggest_plato",
                "label": _("Mayor plato cobrado"),
                "value": _("%(n)s tantos (%(money)s)", n=words.plain(result.biggest_plato), money=money)
                if money
                else _("%(n)s tantos", n=words.plain(result.biggest_plato)),
            }
        )
    if result.money_evenings:
        lines.append({"key": "money", "label": _("Saldo total"), "value": money_text(result.money, currency)})
        lines.append(
            {
                "key": "average_money",
                "label": _("Media por noche"),
                "value": money_text(cents(result.average_money), currency) if result.average_money is not None else "",
            }
        )
    lances = sorted(result.by_lance.items(), key=lambda kv: (-kv[1], kv[0]))
    outcomes = [(_("ganadas"), result.won), ("puestas", result.puesta), ("codillos", result.codillo)]
    if result.games & set(STAT_GAMES["rendidas"]):  # the games that have rendidas (R25)
        outcomes.append(("rendidas", result.rendidas))
    trumps = sorted(result.by_trump.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "lines": lines,
        "lances": [(words.lance_word(k), v) for k, v in lances],
        "trumps": [(words.suit_text(k), v) for k, v in trumps],
        "games": [
            ngettext("%(game)s: %(num)d noche", "%(game)s: %(num)d noches", n, game=words.GAME_NAMES.get(g, g))
            for g, n in sorted(result.evenings_by_game.items())
        ],
        "lance_chart": charts.mix_chart([(words.lance_word(k), v) for k, v in lances], title=_("Lances como jugador"))
        if lances
        else None,
        "trump_chart": charts.mix_chart([(words.suit_text(k), v) for k, v in trumps], title=_("Triunfos como jugador"))
        if trumps
        else None,
        "outcome_chart": charts.mix_chart(outcomes, title=_("Resultados como jugador")) if result.jugador else None,
    }
