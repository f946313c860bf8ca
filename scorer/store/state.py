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


def load(table: Table, cached: Settled | None, revision: int) -> Settled:
    """The table's live hands settled, reusing what ``cached`` shares with them (a prefix of hands)."""
    keys = _keys(table)
    common = cached.common(keys) if cached is not None else 0
    if cached is not None and common == len(keys) == cached.count:
        return Settled(revision, cached.keys, cached.hands, cached.settlement, cached.checkpoints)
    if cached is not None and common > 0:
        base = cached.before(common + 1)
        checkpoints = cached.checkpoints_before(base)
        known = cached.hands[: base.count]
    else:
        base = _begin(table)
        checkpoints, known = (base,), ()
    ids = [i for i, _ in keys[len(known) :]]
    query = select(Hand.id, Hand.revision, Hand.data).where(Hand.table_id == table.id, Hand.deleted_at.is_(None))
    if len(ids) <= 50:  # a few new hands: by id; many: the table's live hands (a long IN list is slow)
        query = query.where(Hand.id.in_(ids))
    rows = {int(i): ((int(i), int(r)), d) for i, r, d in db.session.execute(query)} if ids else {}
    # keys and data read together (a write committed between two reads is not mixed in; the
    # revision check of the caller then keeps such a state out of the cache)
    fresh = [rows[i] for i in ids if i in rows]
    hands = known + tuple(d for _, d in fresh)
    settlement, checkpoints = extend(base, checkpoints, hands[base.count :])
    return Settled(revision, tuple(keys[: len(known)]) + tuple(k for k, _ in fresh), hands, settlement, checkpoints)


def state_of(table: Table) -> Settled:
    """The table's settled state at its revision (cached): shared, treat it as read-only."""
    cached = cache.states.get(table.edit_token)
    if cached is not None and cached.revision == table.revision:
        return cached
    state = load(table, cached, table.revision)
    if (cached is None or cached.revision < table.revision) and unchanged(table):
        cache.states.put(table.edit_token, state)
        if cached is None:
            settled.save(table.id, state)  # settled from scratch: the next worker need not
    return state


def _session(table: Table, state: Settled) -> dict[str, Any]:
    session = dict(table.header)
    session.pop("hands", None)
    if table.language != DEFAULT_LANGUAGE:  # the app key of the sheet's language; absent: Spanish
        session["language"] = table.language
    session["hands"] = list(state.hands)
    return session


def session_view(table: Table) -> dict[str, Any]:
    """The session file, sharing the cached hands: read-only (``session_of`` gives a copy)."""
    return _session(table, state_of(table))


def derived(table: Table, name: str, build: Callable[[dict[str, Any], dict[str, Any]], T]) -> T:
    """``build(session, ledger)``, made once per revision of the table (read-only, shared).

    For the view-models of the pages: a page shown again costs no more at hand 3,000 than at hand 30.
    Kept per language too: the view-models hold words, numbers and money in the page's language.
    """
    source = _page_source(table)

    def make() -> T:
        if isinstance(source, Window):
            session, ledger = source.session_and_ledger(table.header)
        else:
            session, ledger = _session(table, source), source.ledger()
        return build(session, ledger)

    return kept(table, name, make)


def kept(table: Table, name: str, make: Callable[[], T]) -> T:
    """``make()``, made once per revision of the table and language of the page (read-only, shared)."""
    source = _page_source(table)
    name = f"{name}@{words.language()}"
    if name not in source.derived:
        source.derived[name] = make()
    value: T = source.derived[name]
    return value


def totals_of(table: Table) -> Mapping[str, Any]:
    """The ledger's keys but its hands (balances, plato, next_dealer, over …), read-only.

    As cheap as the table page: from the cached state, else the persisted snapshot.
    """
    source = _page_source(table)
    if isinstance(source, Window):
        if "totals" not in source.derived:
            source.derived["totals"] = source.settlement.totals()
        totals: Mapping[str, Any] = source.derived["totals"]
        return totals
    return source.ledger()  # its "hands" too: shared, never copied


def favor_session(table: Table) -> dict[str, Any]:
    """The session as far as its favour changes go (R34): the header, and the hands with the entries that
    change the favour suit in their places (the others may be empty). From the cached state, else from
    two small queries: a page shown from a snapshot settles nothing, and still says every change."""
    source = _page_source(table)
    if not isinstance(source, Window):
        return _session(table, source)
    live = (Hand.table_id == table.id, Hand.deleted_at.is_(None))
    seqs = list(db.session.scalars(select(Hand.seq).where(*live).order_by(Hand.seq)))
    hands: list[dict[str, Any]] = [{}] * len(seqs)
    changes = select(Hand.seq, Hand.data).where(*live, Hand.data["favor"].as_string().is_not(None))
    for seq, data in db.session.execute(changes):
        hands[bisect.bisect_left(seqs, seq)] = dict(data)
    return {**table.header, "hands": hands}


def page_settlement(table: Table) -> Settlement:
    """The settlement the table page is built from (the cached state's, else the persisted snapshot's):
    its ``count`` and ``totals()`` are the table's, its entries perhaps only the last ones; read-only."""
    return _page_source(table).settlement


def _page_source(table: Table) -> Settled | Window:
    """What the table page is built from: the cached state, else the persisted snapshot, else a settle."""
    cached = cache.states.get(table.edit_token)
    if cached is not None and cached.revision == table.revision:
        return cached
    if cached is None and game_of(table.ruleset).windowed:
        shown = cache.windows.get(table.edit_token)
        if shown is not None and shown.revision == table.revision:
            return shown
        shown = settled.window(table.id, table.header, table.revision, _keys(table))
        if shown is not None:
            if unchanged(table):
                cache.windows.put(table.edit_token, shown)
            return shown
    return state_of(table)


def ledger_view(table: Table) -> dict[str, Any]:
    """The ledger, sharing the cached entries: read-only (``ledger_of`` gives a copy)."""
    return state_of(table).ledger()


def _cached_json(table: Table, name: str, view: Callable[[Table], dict[str, Any]]) -> JsonBody:
    """``view(table)`` as JSON with a final newline, cached per revision under ``name``."""
    key = (table.edit_token, table.revision, name)
    body = cache.texts.get(key)
    if body is None:
        text = json.dumps(view(table), ensure_ascii=False) + "\n"
        try:
            raw = sent = text.encode("utf-8")
        except UnicodeEncodeError:
            raw, sent = text.encode("utf-8", "surrogatepass"), text.encode("utf-8", "replace")
        body = JsonBody(raw, sent)
        if unchanged(table):
            cache.texts.put(key, body)
    return body


def session_json(table: Table) -> JsonBody:
    """The session file as JSON (cached per revision)."""
    return _cached_json(table, "session", session_view)


def session_of(table: Table) -> dict[str, Any]:
    """The session file as stored: app keys kept, every hand with its dealer; a fresh copy."""
    return dict(json.loads(session_json(table).raw))


def settlement_of(table: Table) -> Settlement:
    """The table settled by the engine (cached per revision); treat it as read-only."""
    return state_of(table).settlement


def ledger_json(table: Table) -> JsonBody:
    """The ledger as JSON (cached per revision)."""
    return _cached_json(table, "ledger", ledger_view)


def ledger_of(table: Table) -> dict[str, Any]:
    """The ledger, identical to ``scorer settle`` on ``session_of(table)``; a fresh copy."""
    return dict(json.loads(ledger_json(table).raw))


def number(state: Settled, hand_id: int) -> int | None:
    """The number of a live hand in the table's state, None when it is not live."""
    return next((n for n, (i, _) in enumerate(state.keys, 1) if i == hand_id), None)


def live_at(table: Table, n: int, state: Settled | None = None) -> Hand:
    """The row of live hand ``n`` (NotFound otherwise), found through the table's state."""
    keys = (state or state_of(table)).keys
    if not isinstance(n, int) or not 1 <= n <= min(len(keys), limits.ID_MAX):
        raise NotFound(f"hand {n}: no such hand")
    hand = db.session.get(Hand, keys[n - 1][0])
    if hand is None or hand.deleted:  # gone since the state was read: never a wrong hand
        raise NotFound(f"hand {n}: no such hand")
    return hand


def deleted_hands(table: Table) -> list[DeletedHand]:
    """The hands out of the ledger, with the number each would take back."""
    query = select(Hand).where(Hand.table_id == table.id, Hand.deleted_at.is_not(None)).order_by(Hand.seq)
    deleted = list(db.session.scalars(query))
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
