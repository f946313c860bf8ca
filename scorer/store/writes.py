"""The stored tables, shared by every blueprint: the one place where models meet the engine.

The pages (``scorer.web.tables``, ``evening``, ``pena``) and the API parse their input, call one
function here and present the answer; what only one of them uses lives in its own package
(``tables/services.py``, ``evening/services.py``, ``pena/services.py``).

Every write is one transaction that starts by bumping the table's ``revision`` (``UPDATE … SET
revision = revision + 1``): on PostgreSQL that locks the table's row, on SQLite it takes the
database's write lock, so two writers of one table run one after the other and each sees the hands
the other committed (the dealer rotation stays intact). Nothing is answered before the commit.

The settled state of each table is kept per revision (``scorer/web/settled.py``):
the table page reads it and the last few hands, a new hand costs one engine step,
an edit re-settles from the last checkpoint before the hand it changes.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from flask import current_app
from sqlalchemy import insert, select, update
from sqlalchemy.exc import OperationalError

from scorer import engine, limits
from scorer.catalogs import language_or_default
from scorer.engine import SessionError, Settlement
from scorer.limits import LimitError
from scorer.store import cache, settled
from scorer.store.db import db
from scorer.store.errors import Invalid
from scorer.store.links import new_token
from scorer.store.models import Hand, HandEvent, Table, utcnow
from scorer.store.settled import Settled, extend
from scorer.store.state import load

WRITE_ATTEMPTS = 4

T = TypeVar("T")


def check_hand(hand: object, n: int | None = None) -> dict[str, Any]:
    """A hand body within the limits; Invalid names hand ``n`` when known, nothing otherwise."""
    if not isinstance(hand, Mapping):
        raise Invalid(
            f"a hand must be an object, not {type(hand).__name__}",
            n,
            about="",
            code="hand_not_an_object",
            type=type(hand).__name__,
        )
    try:
        limits.check_hand(hand, n)
    except LimitError as exc:
        raise Invalid.limit(exc, about="") from None
    return dict(hand)


def body_hash(hand: Mapping[str, Any]) -> str:
    """The hash of a hand body, whatever its key order or spacing."""
    text = json.dumps(hand, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def with_dealer(hand: dict[str, Any], entry: Mapping[str, Any]) -> dict[str, Any]:
    """The hand as stored: it keeps the dealer it was played with (api.md)."""
    stored = dict(hand)
    dealer = entry.get("dealer")
    if dealer is not None:
        stored["dealer"] = dealer
    return stored


def write(table: Table, work: Callable[[Settled], tuple[T, Settled | None]]) -> T:
    """Run ``work`` as one transaction holding the table's write lock; commit before answering.

    ``work`` gets the table's state before the write and returns its result and the
    state after it (or None when nothing changed), cached under the revision this
    write made (read before the commit: later writers bump it again).
    """
    with settled.one_writer(current_app.instance_path, db.engine.dialect.name):
        return _write_once(table, work)


def _keep(table: Table, before: Settled, state: Settled) -> None:
    """After a write's commit: its state cached (unless a later writer's is there), its snapshot persisted
    when worth it or when a read settled the state before it from scratch (reads never write)."""
    newer = cache.states.get(table.edit_token)
    if newer is None or newer.revision <= state.revision:  # a later writer may have cached first
        cache.states.put(table.edit_token, state)
    if before.unsaved or settled.worth_saving(before, state):
        settled.save(table.id, state)  # for the next worker that opens this table


def _attempt(table: Table, work: Callable[[Settled], tuple[T, Settled | None]]) -> T:
    """One try of a write: the revision bumped (the lock), ``work``, the commit; rolled back on any error."""
    try:
        db.session.execute(
            update(Table).where(Table.id == table.id).values(revision=Table.revision + 1),
            execution_options={"synchronize_session": False},
        )
        db.session.refresh(table)
        before = _state_before_write(table)
        result, state = work(before)
        db.session.flush()
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    if state is not None:
        _keep(table, before, state)
    return result


def _write_once(table: Table, work: Callable[[Settled], tuple[T, Settled | None]]) -> T:
    for attempt in range(WRITE_ATTEMPTS):
        try:
            return _attempt(table, work)
        except OperationalError as exc:
            # SQLite answers "database is locked" when the busy timeout runs out; try again
            if "locked" not in str(exc).lower() or attempt == WRITE_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def same_hands(table: Table, state: Settled) -> Settled:
    """Inside a write that changes no hand: the same state under the revision it makes."""
    return Settled(table.revision, state.keys, state.hands, state.settlement, state.checkpoints)


def _state_before_write(table: Table) -> Settled:
    """Inside a write: the table's state before it (its revision already bumped by one)."""
    cached = cache.states.get(table.edit_token)
    if cached is not None and cached.revision == table.revision - 1:
        return cached
    return load(table, cached, table.revision - 1)


def event(table: Table, hand: Hand, action: str, before: dict[str, Any] | None, after: dict[str, Any] | None) -> None:
    db.session.add(
        HandEvent(table_id=table.id, hand_id=hand.id, action=action, at=utcnow(), before=before, after=after)
    )


def is_close(hand: Mapping[str, Any]) -> bool:
    return "close" in hand


def _default_name(session: Mapping[str, Any]) -> str:
    name = session.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()[:200]
    return "Partida del " + utcnow().strftime("%d/%m/%Y")


def _settle_new(session: Mapping[str, Any]) -> tuple[list[dict[str, Any]], Settlement, tuple[Settlement, ...]]:
    """A new table's session within the limits and settled (a checkpoint every CHECKPOINT_EVERY hands):
    its hands as stored (each with the dealer the engine gave it, R2), settlement and checkpoints."""
    if not isinstance(session, Mapping):
        raise Invalid("the session must be a JSON object", code="session_not_an_object")
    try:
        limits.check_session(session)
    except LimitError as exc:
        raise Invalid.limit(exc) from None
    hands = session.get("hands")
    hands = [] if hands is None else hands
    try:
        if not isinstance(hands, list):
            engine.start(session)  # the engine's own refusal ("hands must be a list")
        begin = engine.start({**session, "hands": []})
        settlement, checkpoints = extend(begin, (begin,), hands)
    except SessionError as exc:
        raise Invalid.of(exc) from None
    except RecursionError:
        raise Invalid("too deeply nested", code="too_deep") from None
    return [with_dealer(h, e) for h, e in zip(hands, settlement.entries, strict=True)], settlement, checkpoints


def create_table(session: dict[str, Any]) -> Table:
    """Store a new table from a session file; Invalid (nothing saved) unless the engine accepts it."""
    stored, settlement, checkpoints = _settle_new(session)
    header = copy.deepcopy({k: v for k, v in session.items() if k not in ("hands", "language")})
    table = Table(
        language=language_or_default(session.get("language")),
        edit_token=new_token(),
        view_token=new_token(),
        name=_default_name(session),
        header=header,
        created_at=utcnow(),
        closed_at=utcnow() if stored and is_close(stored[-1]) else None,
        revision=0,
    )
    # Settled once, before the first INSERT: the write lock is held only for the inserts. The stored
    # hands carry the dealer the engine gave each (R2), so they settle exactly as ``session`` did.
    try:
        db.session.add(table)
        db.session.flush()
        ids = _insert_hands(table, stored)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    state = Settled(0, tuple((i, 1) for i in ids), tuple(stored), settlement, checkpoints)
    cache.states.put(table.edit_token, state)
    settled.save(table.id, state)
    return table


def _insert_hands(table: Table, stored: Sequence[dict[str, Any]]) -> list[int]:
    """The hands of a new table and their "create" events, in two bulk INSERTs (D5: 10,000 hands < 2 s); their ids."""
    if not stored:
        return []
    rows = [
        {"table_id": table.id, "seq": seq, "data": data, "revision": 1, "created_at": table.created_at}
        for seq, data in enumerate(stored, 1)
    ]
    db.session.execute(insert(Hand.__table__), rows)  # one executemany (RETURNING goes row by row on SQLite)
    query = select(Hand.id).where(Hand.table_id == table.id).order_by(Hand.seq)
    ids = list(db.session.scalars(query))
    events = [
        {"table_id": table.id, "hand_id": i, "action": "create", "at": table.created_at, "before": None, "after": d}
        for i, d in zip(ids, stored, strict=True)
    ]
    db.session.execute(insert(HandEvent.__table__), events)
    return ids
