"""Everything the session sheet shows, as plain values for ``templates/sheet/sheet.html``.

``sheet_context(session, ledger)`` is a plain dict (strings, numbers, lists); only the chart is
trusted markup (built with escaping in :mod:`scorer.sheet.chart`). Rule sets other than Tresillo
degrade: a section whose ledger key is missing (``plato``, ``cartulina``, ``balances``) is left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from scorer import evening, limits
from scorer import people as by_person
from scorer.games import GameWords, game_words
from scorer.words import (
    CARTULINA_WORDS,
    Tongue,
    currency_sign,
    date_text,
    plain,
    signed,
    speaking,
    tanto_value,
)
from scorer.words import tongue as spoken
from scorer.words import translate as _

from .accounts import settle_context
from .chart import balance_chart
from .rows import Row, hand_maps, hand_rows, pot_headers
from .text import Money, ruleset_of, seat

# ---------------------------------------------------------------- names clean of what stored data may hold


def _name(value: object) -> str:
    return limits.clean(value, limits.NAME_MAX)


def _clean_hand(hand: Any) -> Any:
    """A hand whose change of player (R33) names who sits down within the limits."""
    change = hand.get("sienta") if isinstance(hand, Mapping) else None
    if isinstance(change, Mapping) and "player" in change:
        return {**hand, "sienta": {**change, "player": _name(change["player"])}}
    return hand


def _clean_entry(entry: Any) -> Any:
    """A ledger entry whose seating names everyone within the limits."""
    if isinstance(entry, Mapping) and isinstance(entry.get("seating"), Mapping):
        return {**entry, "seating": {k: _name(v) for k, v in entry["seating"].items()}}
    return entry


def _clean_session(session: dict[str, Any]) -> dict[str, Any]:
    session = dict(limits.clean_json(session))  # every text, D2 D8
    if isinstance(session.get("players"), list):
        session["players"] = [_name(p) for p in session["players"]]
    if isinstance(session.get("hands"), list):
        session["hands"] = [_clean_hand(hand) for hand in session["hands"]]
    return session


def _clean_ledger(ledger: dict[str, Any]) -> dict[str, Any]:
    ledger = dict(limits.clean_json(ledger))  # every text, D2 D8
    if isinstance(ledger.get("players"), Mapping):
        ledger["players"] = {k: _name(v) for k, v in ledger["players"].items()}
    if isinstance(ledger.get("people"), Mapping):
        ledger["people"] = {_name(k): v for k, v in ledger["people"].items()}
    if isinstance(ledger.get("hands"), list):
        ledger["hands"] = [_clean_entry(e) for e in ledger["hands"]]
    return ledger


# ---------------------------------------------------------------- what the sections share


def _meta(session: Mapping[str, Any]) -> Mapping[str, Any]:
    """The app's keys kept under ``meta`` (older files), {} without."""
    meta = session.get("meta")
    return meta if isinstance(meta, Mapping) else {}


def _app_key(session: Mapping[str, Any], *keys: str) -> Any:
    """The first of ``keys`` the session (or its ``meta``) gives a value."""
    meta = _meta(session)
    for key in keys:
        for source in (session, meta):
            value = source.get(key)
            if value not in (None, ""):
                return value
    return None


@dataclass(frozen=True)
class _Night:
    """The night as every section of the sheet reads it: names clean (D1, D2, D8), who sat where."""

    session: dict[str, Any]
    ledger: dict[str, Any]
    ruleset: str
    names: dict[int, str]  # who sat where at the start
    hands: list[Mapping[str, Any]]  # the session's hands (anything else as {})
    seatings: list[dict[int, str]]  # who sat where at each entry, and now (R33)
    people: dict[str, int]  # the balances by person (R33), when the ledger has balances
    money: Money

    @property
    def seats(self) -> list[int]:
        return sorted(self.names)

    @property
    def players(self) -> list[str]:
        return [self.names[s] for s in self.seats]

    @property
    def now(self) -> dict[int, str]:
        return self.seatings[-1]

    @property
    def entries(self) -> list[Mapping[str, Any]]:
        return self.ledger.get("hands") or []

    @property
    def teams(self) -> Mapping[str, Any]:
        teams = self.ledger.get("teams")
        return teams if isinstance(teams, Mapping) else {}

    @property
    def team_of(self) -> dict[int, str]:
        """Seat → team (the juego de bandos)."""
        return {int(s): t for t, members in self.teams.items() for s in members}


def _names(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> dict[int, str]:
    names = {int(k): str(v) for k, v in (ledger.get("players") or {}).items()}
    return names or {i: str(p) for i, p in enumerate(session.get("players") or [], 1)}


def _money(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> Money:
    """Money only with a tanto value and balances (a game of scores has none)."""
    value = tanto_value(_app_key(session, "tanto_value", "tanto"))
    currency = limits.clean(currency_sign(_app_key(session, "currency")), limits.CURRENCY_MAX)
    return Money(value, currency) if value is not None and "balances" in ledger else Money(None, "")


def _night(session: dict[str, Any], ledger: dict[str, Any]) -> _Night:
    """Copies whose every name is at most NAME_MAX printable characters (D1, D2, D8), wherever it appears
    (players, who sits down (R33), the ledger's players, seatings and people), and what they say.

    Data stored before the limits may hold longer or broken names; the layout never sees them.
    """
    session, ledger = _clean_session(session), _clean_ledger(ledger)
    names = _names(session, ledger)
    hands = hand_maps(session)
    seatings = evening.seatings([names[s] for s in sorted(names)], ledger.get("hands") or [], hands)
    people = evening.people_balances(session, ledger) if "balances" in ledger else {}  # R33: by person
    return _Night(session, ledger, ruleset_of(session, ledger), names, hands, seatings, people, _money(session, ledger))


# ---------------------------------------------------------------- the sections


def favor_changes(session: Mapping[str, Any]) -> list[str]:
    """R34: from which hand on which suit was favour, when the table changed it."""
    lines = evening.favor_lines(session)
    return [_("Cambios de palo de favor: %(changes)s", changes=" ".join(lines))] if lines else []


def _keeper(session: Mapping[str, Any], names: Mapping[int, str]) -> int | None:
    """Seat of whoever kept the cartulina (app key ``keeper``: a seat number or a name)."""
    value = session.get("keeper", _meta(session).get("keeper"))
    if value is None or isinstance(value, bool):
        return None
    if seat(value) in names:
        return seat(value)
    return _seat_named(value, names) if isinstance(value, str) else None


def _seat_named(name: str, names: Mapping[int, str]) -> int | None:
    """The first seat of that name (spaces around it aside)."""
    return next((s for s, sat in names.items() if name.strip() == sat.strip()), None)


def _joined(night: _Night) -> list[dict[str, Any]]:
    """Who sat down during the evening (R33): seat, name, the entry after which, and whom they replaced."""
    seats = night.seatings
    return [
        {"seat": s, "name": name, "n": i + 1, "replaced": seats[i].get(s, "")}
        for i in range(len(night.entries))
        for s, name in sorted(seats[i + 1].items())
        if seats[i].get(s) != name
    ]


def _header(night: _Night, game: GameWords) -> dict[str, Any]:
    """The table's name, date, place and notes; who played, who sat down, who kept the cartulina; the rules."""
    session, names = night.session, night.names
    title = _app_key(session, "name", "title", "table_name") or _("Mesa sin nombre")
    keeper = _keeper(session, names)
    team_of = night.team_of
    return {
        "title": limits.clean(title, limits.TITLE_MAX),
        # the page header's copy of the title: short enough to leave room for the right-hand header
        "running_title": limits.clean(title, 45),
        "date": limits.clean(date_text(_app_key(session, "date", "created_at", "created")), limits.DATE_MAX),
        "place": limits.clean(_app_key(session, "place") or "", limits.PLACE_MAX),
        "notes": limits.clean(_app_key(session, "notes") or "", limits.NOTES_MAX),
        "ruleset": night.ruleset,
        "ruleset_name": game.name,
        "players": [
            {"seat": s, "name": names[s], "keeper": s == keeper, "team": team_of.get(s, "")} for s in night.seats
        ],
        "joined": _joined(night),
        "keeper": names.get(keeper) if keeper else None,
        "house_rules": [*game.rules_lines(session.get("rules") or {}), *favor_changes(session)],
    }


def _closed(night: _Night) -> str | None:
    """How the table was closed (``devolver``, ``repartir``), None while it is open."""
    entries = night.entries
    if not entries or entries[-1].get("result") != "cierre":
        return None
    last = night.hands[len(entries) - 1] if len(night.hands) >= len(entries) else {}
    return str(last.get("close", "devolver"))


def _hand_table(night: _Night, game: GameWords, rows: Sequence[Row], closed: str | None) -> dict[str, Any]:
    balances = "balances" in night.ledger
    kinds = Counter(r["kind"] for r in rows)
    return {
        "tanto_value": night.money.text(1),
        "currency": night.money.currency,
        "extras_header": game.extras_header,
        "seat_names": list(night.people) if balances else night.players,
        "changed": evening.has_changes(night.ledger),
        "pot_headers": pot_headers(night.ledger),
        "hands": rows,
        "hand_count": kinds["played"] + kinds["pass"] + kinds["other"],
        "event_count": kinds["event"],
        "closed": closed is not None,
        "close_how": closed or "devolver",
        "over": bool(night.ledger.get("over")),
        "has_plato_kinds": isinstance(night.ledger.get("plato"), Mapping),
        "score_word": _("Saldo") if balances else _("Tantos"),
    }


def _balances(night: _Night, rows: Sequence[Row], closed: str | None) -> dict[str, Any]:
    """Each person's balance, as on the table: those seated in seat order, then whoever left; the settle-up."""
    people, now = night.people, night.now
    seat_of = {name: s for s, name in now.items()}
    balances = [
        {
            "seat": seat_of.get(person),
            "name": person,
            "left": person not in seat_of,
            "tantos": people[person],
            "tantos_text": signed(people[person]),
            "money_text": night.money.text(people[person], sign=True),
        }
        for _s, person in by_person.order(list(people), now)
    ]
    settle = settle_context(night.ledger, people, now, rows, ruleset=night.ruleset, closed=closed, money=night.money)
    return {"balances": balances, "settle": settle}


def _scores(night: _Night) -> dict[str, Any]:
    """A game of scores (the juego de bandos): each seat's tantos, the winning team, the teams."""
    names, ledger, team_of = night.names, night.ledger, night.team_of
    scores = {s: int((ledger.get("scores") or {}).get(str(s), 0)) for s in night.seats}
    winner = ledger.get("winner")
    return {
        "scores": [{"seat": s, "name": names[s], "tantos": scores[s], "team": team_of.get(s, "")} for s in night.seats],
        "winner": _("Gana el equipo %(team)s.", team=winner) if winner else "",
        "teams": [
            {"name": t, "members": [names[int(s)] for s in members if int(s) in names]}
            for t, members in night.teams.items()
        ],
    }


def _final_accounts(night: _Night, rows: Sequence[Row], closed: str | None) -> dict[str, Any]:
    if "balances" in night.ledger:
        return _balances(night, rows, closed)
    return _scores(night) if "scores" in night.ledger else {}


def _puesta(puesta: Mapping[str, Any]) -> dict[str, Any]:
    state = str(puesta.get("state", ""))
    return {
        "amount": plain(int(puesta.get("amount", 0))),
        "state": state,
        "state_word": CARTULINA_WORDS.get(str(puesta.get("state")), state),
        "hand": puesta.get("hand"),
    }


def _cartulina(night: _Night) -> dict[str, Any]:
    """The cartulina: each maker's box of puestas (R33: a person who left keeps theirs)."""
    cartulina = night.ledger.get("cartulina")
    if not isinstance(cartulina, list):
        return {}
    owned = by_person.with_owners([p for p in cartulina if isinstance(p, Mapping) and "id" in p], night.seatings)
    boxes = [
        {"seat": s, "name": person, "left": not s, "puestas": [_puesta(p) for p in mine]}
        for s, person, mine in by_person.boxes(owned, night.now, list(night.people) or night.players)
    ]
    return {"cartulina": boxes, "cartulina_empty": not any(b["puestas"] for b in boxes)}


# ---------------------------------------------------------------- the context


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
        night = _night(session, ledger)
        game = game or game_words(night.ruleset)
        rows, series = hand_rows(night.session, night.ledger, night.seats, night.names)
        closed = _closed(night)
        context = {
            **_header(night, game),
            **_hand_table(night, game, rows, closed),
            **_final_accounts(night, rows, closed),
            **_cartulina(night),
        }
        title = _("Saldos por mano") if "balances" in night.ledger else _("Tantos por mano")
        context["chart_svg"] = Markup(balance_chart(context["seat_names"], series, title=title))
        return context
