"""Reads of one table: its settled state at its revision and what the pages and the API read of it.

The settled state is kept per revision (:mod:`scorer.store.settled`, :mod:`scorer.store.cache`):
the table page reads it and the last few hands, a page shown again costs no more at hand 3,000
than at hand 30.
"""

from __future__ import annotations

import bisect
import copy
import datetime as dt
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import select

from scorer import engine, limits, words
from scorer.catalogs import DEFAULT_LANGUAGE
from scorer.engine import Settlement
from scorer.games import game_of
from scorer.store import cache, settled
from scorer.store.db import db
from scorer.store.errors import NotFound
from scorer.store.links import unchanged
from scorer.store.models import Hand, Table
from scorer.store.settled import JsonBody, Key, Settled, Window, extend

NOT_HANDS = ("close", "ajuste", "sienta", "favor")  # entries of the ledger that are not hands played

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DeletedHand:
    """A hand out of the ledger that can be restored; ``n`` is the number it would take back."""

    hand_id: int
    n: int
    hand: dict[str, Any]
    deleted_at: dt.datetime | None


def _header_session(table: Table, hands: list[dict[str, Any]]) -> dict[str, Any]:
    session = copy.deepcopy(dict(table.header))
    session.pop("hands", None)
    session["hands"] = hands
    return session


def _begin(table: Table) -> Settlement:
    """The table settled with no hand (its header checked by the engine)."""
    return engine.start(_header_session(table, []))


def _keys(table: Table) -> list[Key]:
    query = select(Hand.id, Hand.revision).where(Hand.table_id == table.id, Hand.deleted_at.is_(None))
    return [(int(i), int(r)) for i, r in db.session.execute(query.order_by(Hand.seq))]


def _start(
    table: Table, cached: Settled | None, common: int
) -> tuple[Settlement, tuple[Settlement, ...], tuple[Any, ...]]:
    """Where to settle from: the last checkpoint of ``cached`` before the first hand it does not share
    (``common`` hands shared), its checkpoints and hands up to there; else the table with no hand."""
    if cached is not None and common > 0:
        base = cached.before(common + 1)
        return base, cached.checkpoints_before(base), cached.hands[: base.count]
    base = _begin(table)
    return base, (base,), ()


def _rows(table: Table, ids: list[int]) -> dict[int, tuple[Key, Any]]:
    """The key and data of the live hands ``ids`` by id, read together (a write committed between two reads
    is not mixed in; the revision check of the caller then keeps such a state out of the cache)."""
    if not ids:
        return {}
    query = select(Hand.id, Hand.revision, Hand.data).where(Hand.table_id == table.id, Hand.deleted_at.is_(None))
    if len(ids) <= 50:  # a few new hands: by id; many: the table's live hands (a long IN list is slow)
        query = query.where(Hand.id.in_(ids))
    return {int(i): ((int(i), int(r)), d) for i, r, d in db.session.execute(query)}


def load(table: Table, cached: Settled | None, revision: int) -> Settled:
    """The table's live hands settled, reusing what ``cached`` shares with them (a prefix of hands)."""
    keys = _keys(table)
    common = cached.common(keys) if cached is not None else 0
    if cached is not None and common == len(keys) == cached.count:
        return Settled(revision, cached.keys, cached.hands, cached.settlement, cached.checkpoints)
    base, checkpoints, known = _start(table, cached, common)
    ids = [i for i, _ in keys[len(known) :]]
    rows = _rows(table, ids)
    fresh = [rows[i] for i in ids if i in rows]
    hands = known + tuple(d for _, d in fresh)
    settlement, checkpoints = extend(base, checkpoints, hands[base.count :])
    return Settled(revision, tuple(keys[: len(known)]) + tuple(k for k, _ in fresh), hands, settlement, checkpoints)


def _settled(table: Table) -> Settled:
    """The table's settled state at its revision (cached): shared, treat it as read-only.

    A read never writes: a state settled from scratch is marked ``unsaved`` and the next write
    persists its snapshot for the next worker (:func:`scorer.store.writes.write`).
    """
    cached = cache.states.get(table.edit_token)
    if cached is not None and cached.revision == table.revision:
        return cached
    state = load(table, cached, table.revision)
    if (cached is None or cached.revision < table.revision) and unchanged(table):
        state.unsaved = cached is None or cached.unsaved
        cache.states.put(table.edit_token, state)
    return state


def _session(table: Table, state: Settled) -> dict[str, Any]:
    session = dict(table.header)
    session.pop("hands", None)
    if table.language != DEFAULT_LANGUAGE:  # the app key of the sheet's language; absent: Spanish
        session["language"] = table.language
    # the state's own tuple, shared read-only: the views of one revision are handed the very same hands
    # (evening.seatings answers a history it was just asked about at once)
    session["hands"] = state.hands
    return session


def _window(table: Table) -> Window | None:
    """The table from its persisted snapshot (kept per revision), for a worker that has not settled it."""
    shown = cache.windows.get(table.edit_token)
    if shown is not None and shown.revision == table.revision:
        return shown
    shown = settled.window(table.id, table.header, table.revision, _keys(table))
    if shown is not None and unchanged(table):
        cache.windows.put(table.edit_token, shown)
    return shown


def _page_source(table: Table) -> Settled | Window:
    """What the table page is built from: the cached state, else the persisted snapshot, else a settle."""
    cached = cache.states.get(table.edit_token)
    if cached is not None and cached.revision == table.revision:
        return cached
    shown = _window(table) if cached is None and game_of(table.ruleset).windowed else None
    return shown if shown is not None else _settled(table)


def _json(table: Table, name: str, view: Callable[[], dict[str, Any]]) -> JsonBody:
    """``view()`` as JSON with a final newline, cached per revision of the table under ``name``."""
    key = (table.edit_token, table.revision, name)
    body = cache.texts.get(key)
    if body is None:
        text = json.dumps(view(), ensure_ascii=False) + "\n"
        try:
            raw = sent = text.encode("utf-8")
        except UnicodeEncodeError:
            raw, sent = text.encode("utf-8", "surrogatepass"), text.encode("utf-8", "replace")
        body = JsonBody(raw, sent)
        if unchanged(table):
            cache.texts.put(key, body)
    return body


class TableState:
    """One table read at its revision: its session, ledger and settlement, the JSON the API sends,
    and the views the pages build from them once per revision. Everything shared is read-only
    (``session_copy()`` and ``ledger_copy()`` give fresh copies); nothing here writes.

    ``store.read(table)`` gives it; each attribute is looked up in the caches of
    :mod:`scorer.store.cache` (settled at most once per revision and process).
    """

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def settled(self) -> Settled:
        """The live hands (keys and stored data), their settlement and checkpoints."""
        return _settled(self.table)

    @property
    def settlement(self) -> Settlement:
        """The table settled by the engine."""
        return self.settled.settlement

    @property
    def session(self) -> dict[str, Any]:
        """The session file, sharing the cached hands."""
        return _session(self.table, self.settled)

    @property
    def ledger(self) -> dict[str, Any]:
        """The ledger, sharing the cached entries."""
        return self.settled.ledger()

    @property
    def session_json(self) -> JsonBody:
        """The session file as JSON."""
        return _json(self.table, "session", lambda: self.session)

    @property
    def ledger_json(self) -> JsonBody:
        """The ledger as JSON."""
        return _json(self.table, "ledger", lambda: self.ledger)

    def session_copy(self) -> dict[str, Any]:
        """The session file as stored: app keys kept, every hand with its dealer; a fresh copy."""
        return dict(json.loads(self.session_json.raw))

    def ledger_copy(self) -> dict[str, Any]:
        """The ledger, identical to ``scorer settle`` on ``session_copy()``; a fresh copy."""
        return dict(json.loads(self.ledger_json.raw))

    @property
    def page_settlement(self) -> Settlement:
        """The settlement the table page is built from (the cached state's, else the persisted snapshot's):
        its ``count`` and ``totals()`` are the table's, its entries perhaps only the last ones."""
        return _page_source(self.table).settlement

    @property
    def totals(self) -> Mapping[str, Any]:
        """The ledger's keys but its hands (balances, plato, next_dealer, over …), as cheap as the table page."""
        source = _page_source(self.table)
        if isinstance(source, Window):
            if "totals" not in source.derived:
                source.derived["totals"] = source.settlement.totals()
            totals: Mapping[str, Any] = source.derived["totals"]
            return totals
        return source.ledger()  # its "hands" too: shared, never copied

    @property
    def favor_session(self) -> dict[str, Any]:
        """The session as far as its favour changes go (R34): the header, and the hands with the entries
        that change the favour suit in their places (the others may be empty). From the cached state, else
        from two small queries: a page shown from a snapshot settles nothing, and still says every change."""
        source = _page_source(self.table)
        if not isinstance(source, Window):
            return _session(self.table, source)
        return _favor_changes(self.table)

    def derived(self, name: str, build: Callable[[dict[str, Any], dict[str, Any]], T]) -> T:
        """``build(session, ledger)``, made once per revision of the table and language of the page.

        For the view-models of the pages: a page shown again costs no more at hand 3,000 than at hand 30.
        """
        source = _page_source(self.table)

        def make() -> T:
            if isinstance(source, Window):
                session, ledger = source.session_and_ledger(self.table.header)
            else:
                session, ledger = _session(self.table, source), source.ledger()
            return build(session, ledger)

        return self.kept(name, make)

    def kept(self, name: str, make: Callable[[], T]) -> T:
        """``make()``, made once per revision of the table and language of the page (read-only, shared)."""
        source = _page_source(self.table)
        name = f"{name}@{words.language()}"
        if name not in source.derived:
            source.derived[name] = make()
        value: T = source.derived[name]
        return value


def read(table: Table) -> TableState:
    """The table as read at its revision (:class:`TableState`)."""
    return TableState(table)


def _favor_changes(table: Table) -> dict[str, Any]:
    live = (Hand.table_id == table.id, Hand.deleted_at.is_(None))
    seqs = list(db.session.scalars(select(Hand.seq).where(*live).order_by(Hand.seq)))
    hands: list[dict[str, Any]] = [{}] * len(seqs)
    changes = select(Hand.seq, Hand.data).where(*live, Hand.data["favor"].as_string().is_not(None))
    for seq, data in db.session.execute(changes):
        hands[bisect.bisect_left(seqs, seq)] = dict(data)
    return {**table.header, "hands": hands}


def number(state: Settled, hand_id: int) -> int | None:
    """The number of a live hand in the table's state, None when it is not live."""
    return next((n for n, (i, _) in enumerate(state.keys, 1) if i == hand_id), None)


def live_at(table: Table, n: int, state: Settled | None = None) -> Hand:
    """The row of live hand ``n`` (NotFound otherwise), found through the table's state."""
    keys = (state or _settled(table)).keys
    if not isinstance(n, int) or not 1 <= n <= min(len(keys), limits.ID_MAX):
        raise NotFound(f"hand {n}: no such hand")
    hand = db.session.get(Hand, keys[n - 1][0])
    if hand is None or hand.deleted:  # gone since the state was read: never a wrong hand
        raise NotFound(f"hand {n}: no such hand")
    return hand


def deleted_hands(table: Table) -> list[DeletedHand]:
    """The hands out of the ledger, with the number each would take back."""
    # sorted here, not by the query: with ORDER BY seq SQLite walks the table's every hand by the (table_id,
    # seq) key to skip the live ones (0.5 ms at 3,000 hands on every table page); without it, it reads only
    # the deleted ones through ix_hands_table_deleted_seq
    query = select(Hand).where(Hand.table_id == table.id, Hand.deleted_at.is_not(None))
    deleted = sorted(db.session.scalars(query), key=lambda hand: hand.seq)
    if not deleted:
        return []
    live = list(db.session.scalars(select(Hand.seq).where(Hand.table_id == table.id, Hand.deleted_at.is_(None))))
    return [
        DeletedHand(hand.id, bisect.bisect_left(sorted(live), hand.seq) + 1, copy.deepcopy(hand.data), hand.deleted_at)
        for hand in deleted
    ]


def hand_revision(table: Table, n: int) -> int:
    """The revision of hand ``n``, for the edit form's optimistic concurrency."""
    return live_at(table, n).revision
