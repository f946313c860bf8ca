"""What only the table's pages use of the stored tables: the home page's list, a hand's history,
the sheet's language, import and export (the shared store is :mod:`scorer.store`)."""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, cast, func, select

from scorer import limits
from scorer.catalogs import LANGUAGES
from scorer.store.db import db
from scorer.store.errors import Invalid
from scorer.store.links import token_shaped
from scorer.store.models import Hand, HandEvent, Table
from scorer.store.settled import Settled
from scorer.store.state import NOT_HANDS, live_at, read
from scorer.store.writes import create_table, same_hands, write


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One line of the home page."""

    id: int
    name: str
    players: list[str]
    created_at: dt.datetime
    closed: bool
    hands: int
    edit_token: str
    view_token: str
    ruleset: str = "tresillo"
    date: str = ""  # the app key "date" (ISO) when the table has one


@dataclass(frozen=True, slots=True)
class HistoryEvent:
    """One change of one hand; ``n`` is the hand's number now (None while deleted)."""

    id: int
    hand_id: int
    n: int | None
    action: str  # create, edit, delete, restore
    at: dt.datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None


def list_tables(edit_tokens: Sequence[str] | None = None) -> list[TableSummary]:
    """The tables of this instance, open ones first, newest first; only those of ``edit_tokens`` when given."""
    # hands, not entries: the closing (and an ajuste or a sienta, R32/R33) is no hand; a key of the stored JSON
    # text, quoted, cannot come from inside a string value (its quotes would be escaped)
    text = cast(Hand.data, String)
    counts = (
        select(Hand.table_id, func.count(Hand.id).label("n"))
        .where(Hand.deleted_at.is_(None))
        .where(*(~text.contains(f'"{key}"') for key in NOT_HANDS))
        .group_by(Hand.table_id)
        .subquery()
    )
    query = (
        select(Table, func.coalesce(counts.c.n, 0))
        .outerjoin(counts, counts.c.table_id == Table.id)
        .order_by(Table.closed_at.is_not(None), Table.created_at.desc(), Table.id.desc())
    )
    if edit_tokens is not None:
        wanted = [t for t in edit_tokens if token_shaped(t)]
        if not wanted:
            return []
        query = query.where(Table.edit_token.in_(wanted))
    return [
        TableSummary(
            id=t.id,
            name=limits.clean(t.name, limits.TITLE_MAX),
            players=[limits.clean(p, limits.NAME_MAX) for p in t.players],
            created_at=t.created_at,
            closed=t.closed,
            hands=int(n),
            edit_token=t.edit_token,
            view_token=t.view_token,
            ruleset=t.ruleset,
            date=str(t.header.get("date") or ""),
        )
        for t, n in db.session.execute(query)
    ]


def _numbers(table: Table) -> dict[int, int]:
    return {i: n for n, (i, _) in enumerate(read(table).settled.keys, 1)}


def _history(table: Table, hand_id: int | None) -> list[HistoryEvent]:
    query = select(HandEvent).where(HandEvent.table_id == table.id)
    if hand_id is not None:
        query = query.where(HandEvent.hand_id == hand_id)
    numbers = _numbers(table)
    return [
        HistoryEvent(
            id=e.id,
            hand_id=e.hand_id,
            n=numbers.get(e.hand_id),
            action=e.action,
            at=e.at,
            before=copy.deepcopy(e.before),
            after=copy.deepcopy(e.after),
        )
        for e in db.session.scalars(query.order_by(HandEvent.id))
    ]


def hand_history(table: Table, n: int) -> list[HistoryEvent]:
    """Every change of hand ``n``, oldest first."""
    return _history(table, live_at(table, n).id)


def table_history(table: Table) -> list[HistoryEvent]:
    """Every change of every hand of the table, oldest first."""
    return _history(table, None)


def set_language(table: Table, language: str) -> None:
    """The language the table's sheet prints in; a closed table may change it too (it is no game data)."""
    if language not in LANGUAGES:
        raise Invalid(f"unknown language {language!r}", code="invalid")

    def work(state: Settled) -> tuple[None, Settled]:
        table.language = language
        return None, same_hands(table, state)  # a new revision: the cached exports say the new language

    write(table, work)


def import_session(text: str) -> Table:
    """A new table from the JSON text of a session file; Invalid with a clear message."""
    error = limits.too_large(len(text.encode("utf-8", "surrogatepass")), limits.SESSION_BYTES_MAX)
    if error is not None:
        raise Invalid.limit(error)
    try:
        session = json.loads(text, parse_constant=limits.reject_constant)
    except RecursionError:
        raise Invalid("too deeply nested", code="too_deep") from None
    except ValueError as exc:  # JSONDecodeError too
        raise Invalid(f"not valid JSON: {exc}", code="not_json") from None
    if not isinstance(session, dict):
        raise Invalid("a session file must be a JSON object", code="session_not_an_object")
    return create_table(session)


def export_session(table: Table) -> str:
    """The session file as JSON text."""
    return json.dumps(read(table).session_copy(), ensure_ascii=False, indent=2) + "\n"
