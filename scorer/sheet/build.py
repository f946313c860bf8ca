"""Everything the session sheet shows, from the session file and its ledger; HTML and PDF.

The sheet takes what it draws as arguments: the session, its ledger, the game's words
(:class:`scorer.games.GameWords`, by default the session's rule set's) and the tongue to print in
(:class:`scorer.words.Tongue`, by default the one being spoken): the web app and the command line
(``scorer sheet``) call the same functions. Nothing here imports the web app.

``sheet_context(session, ledger)`` is a plain dict (strings, numbers, lists) for the
template ``templates/sheet/sheet.html``; only the chart is trusted markup (built with
escaping in :mod:`scorer.sheet.chart`). Rule sets other than Tresillo degrade: a
section whose ledger key is missing (``plato``, ``cartulina``, ``balances``) is left out.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import re
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import jinja2
from markupsafe import Markup

from scorer import evening, limits, resources
from scorer import people as by_person
from scorer import tricks as read_tricks
from scorer.games import GameWords, game_words
from scorer.words import (
    CARTULINA_WORDS,
    FALTA_WORDS,
    GAME_POT_WORDS,
    PLATO_MARKS,
    PLATO_WORDS,
    RED_SUITS,
    SUIT_SYMBOLS,
    Tongue,
    currency_sign,
    date_text,
    lance_word,
    money_text,
    plain,
    result_word,
    signed,
    speaking,
    tanto_value,
)
from scorer.words import (
    tongue as spoken,
)
from scorer.words import translate as _

from .chart import balance_chart
from .settleup import settle_up

TEMPLATES = resources.TEMPLATES
CSS_PATH = TEMPLATES / "sheet" / "sheet.css"

# ---------------------------------------------------------------- small formatters

FSI, PDI = "\u2068", "\u2069"  # first-strong isolate … pop directional isolate


def iso(name: str) -> str:
    """A name isolated from the text around it (D8): a right-to-left name cannot reorder "(65)" after it.

    Names come out of :func:`sheet_context` clean of bidi controls; the template isolates
    the names it shows on their own with ``<bdi>``, this is for names inside sentences.
    """
    return f"{FSI}{name}{PDI}"


def suit_html(trump: Any) -> dict[str, Any] | None:
    if not isinstance(trump, str):
        return None
    return {"name": trump, "symbol": SUIT_SYMBOLS.get(trump, ""), "red": trump in RED_SUITS}


# ---------------------------------------------------------------- house rules in words


def favor_changes(session: Mapping[str, Any]) -> list[str]:
    """R34: from which hand on which suit was favour, when the table changed it."""
    lines = evening.favor_lines(session)
    return [_("Cambios de palo de favor: %(changes)s", changes=" ".join(lines))] if lines else []


# ---------------------------------------------------------------- the hand table


def _seat(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _extras(hand: Mapping[str, Any], names: Mapping[int, str]) -> str:
    parts = []
    if hand.get("estuches"):
        parts.append(f"{hand['estuches']}")
    if hand.get("contraestuches"):
        parts.append(_("%(n)s contra", n=hand["contraestuches"]))
    if hand.get("matadores"):
        parts.append(_("%(n)s mat.", n=hand["matadores"]))
    holder = _seat(hand.get("matadores_en"))
    if holder is not None and holder in names:
        parts.append(_("mat. %(name)s", name=iso(names[holder])))
    return " ".join(parts)


def _result_text(
    hand: Mapping[str, Any], entry: Mapping[str, Any], names: Mapping[int, str], ruleset: str = "tresillo"
) -> tuple[str, str]:
    """(result word, note) for one row."""
    result = str(entry.get("result", ""))
    word = result_word(result, ruleset)
    notes: list[str] = []
    if result == "codillo":
        givers = [t.get("to") for t in entry.get("transfers", ()) if t.get("concept") == "codillo"]
        if givers and givers[0] in names:
            word = _("codillo de %(name)s", name=iso(names[givers[0]]))
    defensor = _seat(hand.get("defensor"))
    if result.startswith("defendida") and defensor is not None and defensor in names:
        notes.append(_("defiende %(name)s", name=iso(names[defensor])))
    if hand.get("primeras") == "jugador" and not hand.get("bola") and result not in ("bola", "bola_cortada"):
        notes.append("primeras")
    elif hand.get("primeras") == "contra":
        notes.append(_("primeras de la contra"))
    elif hand.get("primeras") in ("A", "B"):
        notes.append(_("primeras del equipo %(team)s", team=hand["primeras"]))
    if hand.get("bola") == "hecha" and result != "bola":
        notes.append(_("bola hecha"))
    elif hand.get("bola") == "cortada" and result != "bola_cortada":  # R19: the result already says it
        notes.append(_("bola cortada"))
    if hand.get("capote"):
        notes.append("capote")
    for falta in hand.get("faltas", ()) or ():
        if isinstance(falta, Mapping):
            who = names.get(_seat(falta.get("seat")) or 0, "?")
            kind = str(falta.get("falta", ""))
            notes.append(
                _("falta de %(name)s (%(falta)s)", name=iso(who), falta=FALTA_WORDS.get(kind, kind.replace("_", " ")))
            )
    return word, ", ".join(notes)


def _to(phrase: str) -> str:
    """'a' + phrase, contracted: 'al plato', 'a la mesa'."""
    return "al " + phrase[3:] if phrase.startswith("el ") else "a " + phrase


def _pots(entry: Mapping[str, Any]) -> list[str]:
    """The pot cells of a row, in the order of :func:`_pot_headers`."""
    cells: list[str] = []
    plato = entry.get("plato")
    if isinstance(plato, Mapping):
        cells.append(f"{plain(int(plato.get('amount', 0)))}{PLATO_MARKS.get(str(plato.get('kind')), '')}")
    pozo = entry.get("pozo")
    if isinstance(pozo, Mapping):
        reserves = sum(int(r) for r in pozo.get("reserves", ()) or ())
        cells.append(plain(int(pozo.get("amount", 0))) + (f"+{reserves}" if reserves else ""))
    if "viuda" in entry:
        cells.append(plain(int(entry["viuda"])))
    if "bote" in entry:
        cells.append(plain(int(entry["bote"])))
    return cells


def _pot_headers(ledger: Mapping[str, Any]) -> list[str]:
    headers = []
    if isinstance(ledger.get("plato"), Mapping):
        headers.append("Plato")
    if isinstance(ledger.get("pozo"), Mapping):
        headers.append("Pozo")
    if "viuda" in ledger:
        headers.append("Viuda")
    if "bote" in ledger:
        headers.append("Bote")
    return headers


def _pot_total(ledger: Mapping[str, Any]) -> int:
    total = 0
    plato = ledger.get("plato")
    if isinstance(plato, Mapping):
        total += int(plato.get("amount", 0))
    pozo = ledger.get("pozo")
    if isinstance(pozo, Mapping):
        total += int(pozo.get("amount", 0)) + sum(int(r) for r in pozo.get("reserves", ()) or ())
    total += int(ledger.get("viuda", 0) or 0) + int(ledger.get("bote", 0) or 0)
    return total


def hand_rows(
    session: Mapping[str, Any], ledger: Mapping[str, Any], seats: Sequence[int], names: Mapping[int, str]
) -> tuple[list[dict[str, Any]], list[list[int]]]:
    """One row per ledger entry, and each column's running score (for the chart).

    With balances the columns are the people who sat (R33); the juego de bandos keeps its seats.
    """
    hands = session.get("hands") or []
    entries = ledger.get("hands") or []
    by_people = "balances" in ledger
    ruleset = str(ledger.get("ruleset") or (session.get("rules") or {}).get("ruleset") or "tresillo")
    players = [names[s] for s in seats]
    seatings = evening.seatings(players, entries, [h if isinstance(h, Mapping) else {} for h in hands])
    if by_people:
        people_after = evening.people_series(players, entries, [h if isinstance(h, Mapping) else {} for h in hands])
        columns: list[Any] = list(people_after[-1]) if people_after else list(players)
    else:
        columns = list(seats)
    previous = dict.fromkeys(columns, 0)
    series = [[0] for _col in columns]
    rows: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        hand = hands[index] if index < len(hands) and isinstance(hands[index], Mapping) else {}
        if by_people:
            after = {c: int(people_after[index].get(c, previous[c])) for c in columns}
        else:
            scores = entry.get("scores") or {}
            after = {s: int(scores.get(str(s), previous[s])) for s in columns}
        names = seatings[index]  # R33: who sat where during this entry
        jugador = _seat(hand.get("jugador"))
        dealer = _seat(entry.get("dealer"))
        result = str(entry.get("result", ""))
        word, note = _result_text(hand, entry, names, ruleset)
        row: dict[str, Any] = {
            "n": entry.get("n", index + 1),
            "dealer": names.get(dealer, "") if dealer else "",
            "result": result,
            "result_word": word,
            "note": note,
            "deltas": [
                {
                    "text": signed(after[s] - previous[s]) if after[s] != previous[s] else "",
                    "sign": after[s] - previous[s],
                }
                for s in columns
            ],
            "pots": _pots(entry),
        }
        if result == "cierre" or "close" in hand:
            row["kind"] = "close"
            how = hand.get("close", "devolver")
            row["text"] = _("Cierre: se devuelve el plato") if how == "devolver" else _("Cierre: se reparte lo que hay")
            row["note"] = str(hand.get("note") or "")
        elif evening.is_event(hand):  # R32 ajuste, R33 cambio de jugador: their own lines with their note
            row["kind"] = "event"
            text = evening.event_text(hand, names)
            row["text"] = text[:1].upper() + text[1:]
            row["note"] = str(hand.get("note") or "")
        elif result == "paso" or hand.get("pass"):
            row["kind"] = "pass"
            row["text"] = _("Todos pasan")
        elif jugador is not None:
            lance = str(hand.get("lance", ""))
            row.update(
                kind="played",
                jugador=names.get(jugador, str(jugador)),
                lance=lance_word(lance),
                suit=suit_html(hand.get("trump")),
                extras=_extras(hand, names),
                tricks="\u2014"
                if hand.get("rendida") and not hand.get("tricks")
                else read_tricks.of_hand(hand, len(seats), dealer),
            )
            if hand.get("rendida") and hand.get("tricks"):
                row["note"] = ", ".join(x for x in ("rendida", row["note"]) if x)
        else:
            row["kind"] = "other"
            row["text"] = note or word
            row["note"] = ""
        if row["kind"] == "played" and hand.get("note"):
            row["note"] = ", ".join(x for x in (row["note"], str(hand["note"])) if x)
        rows.append(row)
        for i, s in enumerate(columns):
            series[i].append(after[s])
        previous = after
    return rows, series


# ---------------------------------------------------------------- the context


def _keeper(session: Mapping[str, Any], names: Mapping[int, str]) -> int | None:
    """Seat of whoever kept the cartulina (app key ``keeper``: a seat number or a name)."""
    meta = session.get("meta") if isinstance(session.get("meta"), Mapping) else {}
    value = session.get("keeper", meta.get("keeper") if meta else None)
    if value is None or isinstance(value, bool):
        return None
    seat = _seat(value)
    if seat in names:
        return seat
    for s, name in names.items():
        if isinstance(value, str) and value.strip() == name.strip():
            return s
    return None


def _app_key(session: Mapping[str, Any], *keys: str) -> Any:
    meta = session.get("meta") if isinstance(session.get("meta"), Mapping) else {}
    for key in keys:
        for source in (session, meta or {}):
            value = source.get(key)
            if value not in (None, ""):
                return value
    return None


def _name(value: object) -> str:
    return limits.clean(value, limits.NAME_MAX)


def _clean_names(session: dict[str, Any], ledger: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Copies whose every name is at most NAME_MAX printable characters (D1, D2, D8), wherever it appears:
    players, who sits down (R33), the ledger's players, seatings and people.

    Data stored before the limits may hold longer or broken names; the layout never sees them.
    """
    session, ledger = dict(limits.clean_json(session)), dict(limits.clean_json(ledger))  # every text, D2 D8
    if isinstance(session.get("players"), list):
        session["players"] = [_name(p) for p in session["players"]]
    if isinstance(session.get("hands"), list):
        hands = []
        for hand in session["hands"]:
            change = hand.get("sienta") if isinstance(hand, Mapping) else None
            if isinstance(change, Mapping) and "player" in change:
                hand = {**hand, "sienta": {**change, "player": _name(change["player"])}}
            hands.append(hand)
        session["hands"] = hands
    if isinstance(ledger.get("players"), Mapping):
        ledger["players"] = {k: _name(v) for k, v in ledger["players"].items()}
    if isinstance(ledger.get("people"), Mapping):
        ledger["people"] = {_name(k): v for k, v in ledger["people"].items()}
    if isinstance(ledger.get("hands"), list):
        ledger["hands"] = [
            {**e, "seating": {k: _name(v) for k, v in e["seating"].items()}}
            if isinstance(e, Mapping) and isinstance(e.get("seating"), Mapping)
            else e
            for e in ledger["hands"]
        ]
    return session, ledger


def sheet_context(
    session: dict[str, Any],
    ledger: dict[str, Any],
    *,
    game: GameWords | None = None,
    tongue: Tongue | None = None,
) -> dict[str, Any]:
    """Everything the sheet shows, as plain values (the template escapes every string).

    ``game``: the game's words (by default its rule set's); ``tongue``: the language to print in
    (by default the one being spoken).
    """
    with speaking(tongue or spoken()):
        return _sheet_context(session, ledger, game)


def _sheet_context(session: dict[str, Any], ledger: dict[str, Any], game: GameWords | None) -> dict[str, Any]:
    session, ledger = _clean_names(session, ledger)
    ruleset = str(ledger.get("ruleset") or (session.get("rules") or {}).get("ruleset") or "tresillo")
    game = game or game_words(ruleset)
    names = {int(k): str(v) for k, v in (ledger.get("players") or {}).items()}
    if not names:
        names = {i: str(p) for i, p in enumerate(session.get("players") or [], 1)}
    seats = sorted(names)
    keeper = _keeper(session, names)
    teams = ledger.get("teams") if isinstance(ledger.get("teams"), Mapping) else None
    team_of = {int(s): t for t, members in (teams or {}).items() for s in members}

    value = tanto_value(_app_key(session, "tanto_value", "tanto"))
    currency = limits.clean(currency_sign(_app_key(session, "currency")), limits.CURRENCY_MAX)
    has_money = value is not None and "balances" in ledger

    def money(tantos: int, sign: bool = False) -> str:
        return money_text(tantos, value, currency, sign=sign) if value is not None else ""

    rows, series = hand_rows(session, ledger, seats, names)
    players = [names[s] for s in seats]
    hands_list = [h if isinstance(h, Mapping) else {} for h in session.get("hands") or []]
    now = evening.seatings(players, ledger.get("hands") or [], hands_list)[-1]  # R33: who sits where now
    if "balances" in ledger:
        people = evening.people_balances(session, ledger)  # R33: balances and settle-up by person
        columns = list(people)
    else:
        people, columns = {}, players
    entries = ledger.get("hands") or []
    closed = bool(entries) and entries[-1].get("result") == "cierre"
    close_how = "devolver"
    if closed:
        hands = session.get("hands") or []
        last = hands[len(entries) - 1] if len(hands) >= len(entries) else {}
        close_how = str(last.get("close", "devolver")) if isinstance(last, Mapping) else "devolver"

    context: dict[str, Any] = {
        "title": limits.clean(
            _app_key(session, "name", "title", "table_name") or _("Mesa sin nombre"), limits.TITLE_MAX
        ),
        # the page header's copy of the title: short enough to leave room for the right-hand header
        "running_title": limits.clean(_app_key(session, "name", "title", "table_name") or _("Mesa sin nombre"), 45),
        "date": limits.clean(date_text(_app_key(session, "date", "created_at", "created")), limits.DATE_MAX),
        "place": limits.clean(_app_key(session, "place") or "", limits.PLACE_MAX),
        "notes": limits.clean(_app_key(session, "notes") or "", limits.NOTES_MAX),
        "ruleset": ruleset,
        "ruleset_name": game.name,
        "players": [{"seat": s, "name": names[s], "keeper": s == keeper, "team": team_of.get(s, "")} for s in seats],
        "joined": _joined(players, ledger.get("hands") or [], hands_list),
        "keeper": names.get(keeper) if keeper else None,
        "house_rules": [*game.rules_lines(session.get("rules") or {}), *favor_changes(session)],
        "tanto_value": money(1) if has_money else "",
        "currency": currency if has_money else "",
        "extras_header": game.extras_header,
        "seat_names": columns,
        "changed": evening.has_changes(ledger),
        "pot_headers": _pot_headers(ledger),
        "hands": rows,
        "hand_count": sum(1 for r in rows if r["kind"] in ("played", "pass", "other")),
        "event_count": sum(1 for r in rows if r["kind"] == "event"),
        "closed": closed,
        "close_how": close_how,
        "over": bool(ledger.get("over")),
        "has_plato_kinds": isinstance(ledger.get("plato"), Mapping),
        "score_word": _("Saldo") if "balances" in ledger else _("Tantos"),
    }

    # final balances (or scores) ---------------------------------------------
    if "balances" in ledger:
        seat_of = {name: seat for seat, name in now.items()}
        context["balances"] = [
            {
                "seat": seat_of.get(person),
                "name": person,
                "left": person not in seat_of,
                "tantos": tantos,
                "tantos_text": signed(tantos),
                "money_text": money(tantos, sign=True) if has_money else "",
            }
            for person, tantos in ((p, people[p]) for _s, p in by_person.order(list(people), now))
        ]  # as on the table: those seated in seat order, then whoever left
        context["settle"] = _settle_context(ruleset, ledger, people, now, closed, close_how, money, has_money, rows)
    elif "scores" in ledger:
        scores = {s: int((ledger.get("scores") or {}).get(str(s), 0)) for s in seats}
        context["scores"] = [
            {"seat": s, "name": names[s], "tantos": scores[s], "team": team_of.get(s, "")} for s in seats
        ]
        winner = ledger.get("winner")
        context["winner"] = _("Gana el equipo %(team)s.", team=winner) if winner else ""
        context["teams"] = [
            {"name": t, "members": [names[int(s)] for s in members if int(s) in names]}
            for t, members in (teams or {}).items()
        ]

    # the cartulina ----------------------------------------------------------
    cartulina = ledger.get("cartulina")
    if isinstance(cartulina, list):
        boxes = []
        all_seats = evening.seatings(players, ledger.get("hands") or [], hands_list)
        owned = by_person.with_owners([p for p in cartulina if isinstance(p, Mapping) and "id" in p], all_seats)
        for s, person, mine in by_person.boxes(owned, now, list(people) or players):  # R33: the maker's box
            puestas = [
                {
                    "amount": plain(int(p.get("amount", 0))),
                    "state": str(p.get("state", "")),
                    "state_word": CARTULINA_WORDS.get(str(p.get("state")), str(p.get("state", ""))),
                    "hand": p.get("hand"),
                }
                for p in mine
            ]
            boxes.append({"seat": s, "name": person, "left": not s, "puestas": puestas})
        context["cartulina"] = boxes
        context["cartulina_empty"] = not any(b["puestas"] for b in boxes)

    context["chart_svg"] = Markup(
        balance_chart(columns, series, title=_("Saldos por mano") if "balances" in ledger else _("Tantos por mano"))
    )
    return context


def _joined(
    players: Sequence[str], entries: Sequence[Mapping[str, Any]], hands: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Who sat down during the evening (R33): seat, name, the entry after which, and whom they replaced."""
    seats = evening.seatings(players, entries, hands)
    out = []
    for i in range(len(entries)):
        for seat, name in sorted(seats[i + 1].items()):
            if seats[i].get(seat) != name:
                out.append({"seat": seat, "name": name, "n": i + 1, "replaced": seats[i].get(seat, "")})
    return out


def _settle_context(
    ruleset: str,
    ledger: Mapping[str, Any],
    bal: Mapping[str, int],
    names: Mapping[int, str],
    closed: bool,
    close_how: str,
    money: Any,
    has_money: bool,
    rows: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    pot = _pot_total(ledger)
    missing = -sum(bal.values())
    pot_word = str(GAME_POT_WORDS.get(ruleset, _("la mesa")))
    # by person (R33): a person who left is settled too; the pot is a party of its own
    parties: dict[Any, int] = {("person", name): tantos for name, tantos in bal.items()}
    if missing:
        parties[("pot", "")] = missing
    payments = settle_up(parties)

    def who(key: Any) -> str:
        return pot_word if key[0] == "pot" else str(key[1])

    statements: list[str] = []
    coverage: list[str] = []
    on_table: list[str] = []
    if closed:
        where = next((r["n"] for r in rows if r["kind"] == "close"), len(rows))
        if close_how == "devolver":
            statements.append(
                _(
                    "La mesa se cerró en la mano %(n)s (R30): lo que había en el plato volvió a quien lo puso "
                    "y las puestas pendientes de la cartulina quedaron anuladas.",
                    n=where,
                )
            )
        else:
            statements.append(
                _("La mesa se cerró en la mano %(n)s: se repartió lo que había en %(pot)s.", n=where, pot=pot_word)
            )
        statements.append(_("No queda nada en la mesa: la liquidación cuadra todos los saldos."))
    else:
        statements.append(_("La mesa no está cerrada."))
        plato = ledger.get("plato")
        if isinstance(plato, Mapping):
            amount = int(plato.get("amount", 0))
            kind = PLATO_WORDS.get(str(plato.get("kind")), str(plato.get("kind")))
            in_plato = [
                p for p in ledger.get("cartulina") or () if isinstance(p, Mapping) and p.get("state") == "en_plato"
            ]
            if amount:
                tantos = _("%(n)s tantos", n=plain(amount))
                if has_money:
                    tantos = _("%(tantos)s (%(money)s)", tantos=tantos, money=money(amount))
                if in_plato:
                    owner = names.get(_seat(in_plato[0].get("owner")) or 0, "?")
                    text = _(
                        "En el plato quedan %(tantos)s, con la puesta reservada de %(owner)s (%(amount)s).",
                        tantos=tantos,
                        owner=iso(owner),
                        amount=plain(int(in_plato[0].get("amount", 0))),
                    )
                elif kind:
                    text = _("En el plato quedan %(tantos)s, %(kind)s.", tantos=tantos, kind=kind)
                else:
                    text = _("En el plato quedan %(tantos)s.", tantos=tantos)
                on_table.append(text)
            else:
                on_table.append(_("El plato está vacío."))
        pozo = ledger.get("pozo")
        if isinstance(pozo, Mapping):
            reserves = [int(r) for r in pozo.get("reserves", ()) or ()]
            in_pozo = plain(int(pozo.get("amount", 0)))
            if reserves:
                reserve_list = ", ".join(plain(r) for r in reserves)
                on_table.append(
                    _("En el pozo quedan %(n)s tantos y en reserva %(list)s.", n=in_pozo, list=reserve_list)
                )
            else:
                on_table.append(_("En el pozo quedan %(n)s tantos.", n=in_pozo))
        if "viuda" in ledger:
            on_table.append(_("En la viuda quedan %(n)s tantos.", n=plain(int(ledger["viuda"]))))
        if "bote" in ledger:
            on_table.append(_("En el bote quedan %(n)s tantos.", n=plain(int(ledger["bote"]))))
        pending = [p for p in ledger.get("cartulina") or () if isinstance(p, Mapping) and p.get("state") == "pendiente"]
        if pending:
            items = ", ".join(
                _(
                    "%(owner)s %(amount)s (mano %(n)s)",
                    owner=iso(names.get(_seat(p.get("owner")) or 0, "?")),
                    amount=plain(int(p.get("amount", 0))),
                    n=p.get("hand"),
                )
                for p in pending
            )
            on_table.append(
                _(
                    "Puestas pendientes en la cartulina: %(list)s. "
                    "No cuentan en los saldos: se pagan al entrar en el plato.",
                    list=items,
                )
            )
        if isinstance(ledger.get("cartulina"), list) and not pending:
            on_table.append(_("No hay puestas pendientes en la cartulina."))
        coverage.append(_("La liquidación cubre solo los saldos."))
        if missing:
            coverage.append(
                _(
                    "Lo que hay en %(pot)s (%(n)s tantos) lo pusieron los jugadores y sigue en la mesa: "
                    "lo que se paga %(to_pot)s es ese dinero, "
                    "que guarda quien lleve la cartulina hasta la próxima partida.",
                    pot=pot_word,
                    n=plain(missing),
                    to_pot=_to(pot_word),
                )
            )
    if pot != missing:  # pragma: no cover - a ledger that breaks R31
        statements.append(
            _(
                "Atención: los saldos y %(pot)s no cuadran (%(pot_amount)s frente a %(missing)s).",
                pot=pot_word,
                pot_amount=plain(pot),
                missing=plain(missing),
            )
        )
    return {
        "payments": [
            {
                "payer": who(p.payer),
                "payee": who(p.payee),
                "to_pot": p.payee[0] == "pot",
                "tantos": plain(p.amount),
                "money": money(p.amount) if has_money else "",
            }
            for p in payments
        ],
        "statements": statements,
        "on_table": on_table,
        "coverage": coverage,
        "square": not payments,
    }


# ---------------------------------------------------------------- rendering


def install_i18n(environment: jinja2.Environment) -> jinja2.Environment:
    """``_()`` and ``ngettext()`` in a printed sheet's templates, in the language being spoken
    (:func:`scorer.words.speaking`: the sheet's tongue; Spanish, the msgids, by default)."""
    environment.add_extension("jinja2.ext.i18n")
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: spoken().gettext(s),
        ngettext=lambda s, p, n: spoken().ngettext(s, p, n),
        newstyle=True,
    )
    environment.globals["page_lang"] = page_lang
    environment.globals["margins_css"] = margins_css
    return environment


def page_lang() -> str:
    """The language the sheet is printed in, for ``<html lang>``: the one being spoken, else Spanish."""
    return spoken().language or "es"


def _css_text(text: str) -> str:
    """``text`` as the inside of a CSS string."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ").replace("\n", " ")


def margins_css(header: bool = True) -> Markup:
    """The PDF's running header and page numbers in the printed language (the stylesheets say them in
    Spanish): an ``@page`` rule after them, nothing when the sheet prints in Spanish."""
    if page_lang() == "es":
        return Markup("")
    page, pages = "\ue000", "\ue001"  # where the counters go, whatever the words' order
    numbers = _css_text(_("Página %(page)s de %(pages)s", page=page, pages=pages))
    numbers = numbers.replace(page, '" counter(page) "').replace(pages, '" counter(pages) "')
    rules = f'@bottom-center {{ content: "{numbers}"; }}'
    if header:
        title = _css_text(_("Cartulina · hoja de la sesión"))
        rules = f'@top-right {{ content: "{title}"; }} ' + rules
    return Markup(f"\n@page {{ {rules} }}")


def printed_environment() -> jinja2.Environment:
    """A Jinja environment of the printed sheets' templates (this sheet, the peña's season), speaking
    the language being spoken (:func:`install_i18n`)."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    return install_i18n(environment)


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    environment = printed_environment()
    environment.filters["red_suits"] = red_suits
    return environment


RED_SUIT_WORDS = re.compile("(" + "|".join(f"{suit} {SUIT_SYMBOLS[suit]}" for suit in RED_SUITS) + ")")


def red_suits(text: object) -> Markup:
    """A sentence (house rules, a change of favour suit) with its "oros ♦", "copas ♥" red as on screen."""
    parts = RED_SUIT_WORDS.split(str(text))  # the suit and its symbol: never a name's ♥
    out = Markup()
    for i, part in enumerate(parts):
        if i % 2:
            name, symbol = part.split(" ")
            out += Markup('{} <span class="suit red">{}</span>').format(name, symbol)
        else:
            out += Markup.escape(part)
    return out


def sheet_css() -> str:
    return CSS_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=2)
def _parsed_sheet_css(_changed: int) -> Any:
    """sheet.css parsed by WeasyPrint once per process (and per change of the file): parsing it took
    about a sixth of a 200-hand sheet's CPU. Given to ``write_pdf`` as a user stylesheet, so the
    ``@page`` words of :func:`margins_css`, in the page itself, still come after it. Read-only once
    made: every render (and every forked renderer, :func:`_warm_up`) shares it."""
    import weasyprint  # type: ignore[import-untyped]

    return weasyprint.CSS(string=sheet_css(), base_url=str(TEMPLATES / "sheet"))


def render_html(
    session: dict[str, Any],
    ledger: dict[str, Any],
    *,
    game: GameWords | None = None,
    tongue: Tongue | None = None,
    css_href: str | None = None,
    links: Mapping[str, str | None] | None = None,
    addenda: Sequence[Markup] = (),
) -> str:
    """The sheet as a complete HTML page, in ``tongue`` (by default the language being spoken).

    The CSS is inlined unless ``css_href`` links it (for a strict Content-Security-Policy);
    ``links`` (``pdf``, ``back``) add a screen-only navigation line, hidden when printed;
    ``addenda`` are sections made elsewhere, printed after the final accounts (the players' answers).
    """
    with speaking(tongue or spoken()):
        context = _sheet_context(session, ledger, game)
        template = _environment().get_template("sheet/sheet.html")
        return template.render(
            sheet=context,
            css_href=css_href,
            css=None if css_href else Markup(sheet_css()),
            links=dict(links or {}),
            pdf_lines=None,
            addenda=addenda,
        )


def _fit(text: str, width: int, right: bool = False, isolate: bool = False) -> str:
    """Pad or cut a cell of the monospaced hand table to ``width`` characters (isolated: a name, D8)."""
    text = " ".join(text.split())
    visible = len(text) - text.count(FSI) - text.count(PDI)  # the marks take no room
    if isolate or visible > width:
        text = text.replace(FSI, "").replace(PDI, "")
        visible = len(text)
    if visible > width:
        text = text[: width - 1] + "…"
        visible = width
    pad = " " * (width - visible)
    if isolate and text:
        text = iso(text)
    return pad + text if right else text + pad


def hand_lines(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The hand-by-hand table as fixed-width text lines, for the PDF.

    WeasyPrint lays out every table cell separately, which made a 200-hand sheet take
    seconds; one line of monospaced text per hand keeps the columns aligned at a
    fraction of the cost (bench/sheet.py). The HTML page keeps the real table.
    """
    seat_w = max(6, min(9, max((len(n) for n in sheet["seat_names"]), default=6)))
    pot_w = 7
    n_w = max([3, *(len(str(r["n"])) for r in sheet["hands"])])  # hand 1,000 and on keep their number whole
    columns = [
        (_("Nº"), n_w, True, False),
        (_("Da"), 8, False, False),
        (_("Jugador"), 8, False, False),
        (_("Lance"), 12, False, False),
        (sheet["extras_header"], 8, False, False),
        (_("Bazas"), 5, False, False),
        (_("Resultado"), 22, False, False),
    ]
    columns += [(name, seat_w, True, True) for name in sheet["seat_names"]]
    columns += [(h, pot_w, True, False) for h in sheet["pot_headers"]]
    header = " ".join(_fit(title, width, right, isolate) for title, width, right, isolate in columns)
    lines = []
    for r in sheet["hands"]:
        cells = [_fit(str(r["n"]), n_w, True), _fit(r["dealer"], 8, isolate=True)]
        red = ""
        if r["kind"] == "played":
            suit = r.get("suit") or {}
            lance = f"{r['lance']} {suit.get('symbol') or suit.get('name', '')}".strip()
            red = suit.get("symbol", "") if suit.get("red") else ""
            cells += [
                _fit(r["jugador"], 8, isolate=True),
                _fit(lance, 12),
                _fit(str(r["extras"]), 8),
                _fit(str(r["tricks"]), 5),
                _fit(r["result_word"], 22),
            ]
        else:
            cells.append(_fit(r["text"], 8 + 12 + 8 + 5 + 22 + 4))
        cells += [_fit(d["text"], seat_w, True) for d in r["deltas"]]
        cells += [_fit(str(p), pot_w, True) for p in r["pots"]]
        text = " ".join(cells)
        lines.append(
            {
                "text": text,
                "html": _red_suit(text, cells, red) if red else red_suits(text),
                "kind": r["kind"],
                "note": r.get("note") or "",
            }
        )
    return {"header": header, "lines": lines, "fit": page_fit(len(header) - header.count(FSI) - header.count(PDI))}


def _red_suit(text: str, cells: Sequence[str], symbol: str) -> Markup:
    """A hand line as HTML: its lance's ♥ or ♦ red as on screen (one inline box, only on red hands)."""
    if symbol not in cells[3]:
        return Markup.escape(text)
    start = len(" ".join(cells[:3])) + 1 + cells[3].index(symbol)  # the lance cell's symbol, not a name's
    red = Markup('<span class="suit red">{}</span>').format(symbol)
    return Markup.escape(text[:start]) + red + Markup.escape(text[start + len(symbol) :])


# characters of the hand lines' 6.9 pt DejaVu Sans Mono (0.602 em each) across A4's 182 mm, upright
# and turned (269 mm); a wider table (many people sat down, R33) also takes a smaller font (sheet.css)
PAGE_FITS = ((124, ""), (183, "wide"), (226, "wider"))


def page_fit(chars: int) -> str:
    """The class of the hands section whose page and font hold a hand line of ``chars`` characters."""
    return next((fit for most, fit in PAGE_FITS if chars <= most), "widest")


BAND = 10  # hand lines per block of the PDF's hand table


def _banded(table: dict[str, Any]) -> dict[str, Any]:
    return {**table, "lines": _bands(table["lines"])}


def _groups(lines: Sequence[Mapping[str, str]]) -> list[list[Mapping[str, str]]]:
    """The hand lines in bands of up to BAND lines (shaded in turn, as a ledger's rows).

    A band ends after a line with a note (the note follows it); a closing stands alone (bold).
    """
    groups: list[list[Mapping[str, str]]] = []
    current: list[Mapping[str, str]] = []
    for line in lines:
        if line["kind"] == "close":
            if current:
                groups.append(current)
            groups.append([line])
            current = []
            continue
        current.append(line)
        if len(current) == BAND or line["note"]:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def _bands(lines: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The bands of :func:`_groups`, one block of text each, for WeasyPrint's layout of the hand lines.

    WeasyPrint's cost grows with the number of boxes: one block per 10 hands, whose only inline boxes
    are the red suits (♥ ♦ as on screen), lays out a 5,000-hand sheet in well under half the
    time of one block per hand.
    """
    return [
        {
            "text": Markup("\n").join(x.get("html") or Markup.escape(x["text"]) for x in group),
            "kind": "close" if group[-1]["kind"] == "close" else "band",
            "note": group[-1]["note"],
        }
        for group in _groups(lines)
    ]


PDF_CROSSED_MARKS = 16  # crossed-out puestas drawn per box in the PDF; older ones are listed as text


def _pdf_cartulina(boxes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cartulina of the PDF: every open puesta drawn, and the latest crossed ones; older ones as one line.

    Each drawn puesta is a few nested boxes for WeasyPrint (~10 ms each): a long night's
    hundreds of collected puestas are written as text instead, still every one of them.
    """
    out = []
    for box in boxes:
        puestas = box["puestas"]
        crossed = [i for i, p in enumerate(puestas) if p["state"] not in ("pendiente", "en_plato")]
        older = set(crossed[: max(0, len(crossed) - PDF_CROSSED_MARKS)])
        text = " · ".join(
            _("%(amount)s (m. %(n)s, %(state)s)", amount=p["amount"], n=p["hand"], state=p["state_word"])
            for i, p in enumerate(puestas)
            if i in older
        )
        out.append({**box, "puestas": [p for i, p in enumerate(puestas) if i not in older], "older": text})
    return out


def render_pdf(
    session: dict[str, Any],
    ledger: dict[str, Any],
    *,
    game: GameWords | None = None,
    tongue: Tongue | None = None,
    addenda: Sequence[Markup] = (),
) -> bytes:
    """The sheet as an A4 PDF (WeasyPrint lays out every page), in ``tongue`` (by default the one being spoken);
    ``addenda`` as in :func:`render_html`."""
    import weasyprint  # imported lazily: heavy, and only the sheet needs it

    with speaking(tongue or spoken()):
        context = _sheet_context(session, ledger, game)
        if "cartulina" in context:
            context["cartulina"] = _pdf_cartulina(context["cartulina"])
        template = _environment().get_template("sheet/sheet.html")
        html = template.render(
            sheet=context,
            css_href=None,
            css=Markup(""),  # sheet.css comes parsed (below); the page keeps only its @page words (margins_css)
            links={},
            pdf_lines=_banded(hand_lines(context)),
            addenda=addenda,
        )
    with _collector_paused():
        document = weasyprint.HTML(string=html, base_url=str(TEMPLATES / "sheet"))
        pdf = document.write_pdf(stylesheets=[_parsed_sheet_css(CSS_PATH.stat().st_mtime_ns)])
    assert pdf is not None
    return bytes(pdf)


@contextlib.contextmanager
def _collector_paused() -> Any:
    """Python's cycle collector off while WeasyPrint lays out and writes the PDF.

    WeasyPrint makes hundreds of thousands of small objects (boxes, styles, text runs): each
    allocation burst starts a collection that walks them, and every third one walks the whole
    process too (a web worker's caches included). Paused, a 200-hand sheet takes 10–20 % less CPU
    (bench/sheet.py). What it leaves for the collector is freed once it is back on; the web app
    renders in a child process that ends after the sheet anyway (:func:`render_pdf_within`)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


# ---------------------------------------------------------------- a budget for the PDF (D1)


class RenderTimeout(Exception):
    """The PDF took longer than its budget; its renderer was killed."""


_warm_lock = threading.Lock()
_warm = False


def _warm_up() -> None:
    """Import WeasyPrint and load its fonts once in this process, so that every forked renderer starts warm."""
    global _warm
    with _warm_lock:
        if not _warm:
            render_pdf({"format": "tresillo-session/1", "players": ["Ana", "Benito", "Carmen"], "hands": []}, {})
            _warm = True


def _render_child(connection: Any, session: dict[str, Any], ledger: dict[str, Any], options: dict[str, Any]) -> None:
    try:
        connection.send((True, render_pdf(session, ledger, **options)))
    except Exception as exc:  # the parent raises it again
        connection.send((False, f"{type(exc).__name__}: {exc}"))
    finally:
        connection.close()


def render_pdf_within(
    session: dict[str, Any],
    ledger: dict[str, Any],
    timeout: float,
    *,
    game: GameWords | None = None,
    tongue: Tongue | None = None,
    addenda: Sequence[Markup] = (),
) -> bytes:
    """:func:`render_pdf` in a child process killed after ``timeout`` seconds (RenderTimeout).

    A sheet that cannot be drawn in time never holds a web worker for longer than that;
    ``timeout`` 0 (or less) renders in this process without a limit.
    """
    options = {"game": game, "tongue": tongue or spoken(), "addenda": tuple(addenda)}
    if timeout <= 0:
        return render_pdf(session, ledger, game=game, tongue=tongue or spoken(), addenda=tuple(addenda))
    _warm_up()
    context = multiprocessing.get_context("fork")  # a copy of this warm process; nothing to import again
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_render_child, args=(send, session, ledger, options), daemon=True)
    process.start()
    send.close()
    try:
        if not receive.poll(timeout):
            raise RenderTimeout(f"the sheet took more than {timeout:g} s")
        ok, payload = receive.recv()
    except EOFError:
        raise RuntimeError("the sheet's renderer died") from None
    finally:
        receive.close()
        if process.is_alive():
            process.kill()
        process.join(5)
    if not ok:
        raise RuntimeError(payload)
    return bytes(payload)
