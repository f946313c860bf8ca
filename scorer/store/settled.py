"""The settled state of each table per revision, for the store's reads and writes.

A table's state at one revision is the (id, revision) key and the stored data of each
live hand, the engine's :class:`~scorer.engine.Settlement` of them, and checkpoints: the
settlement after 0, K, 2K … hands (K = ``CHECKPOINT_EVERY``). Entries and hands are
shared, never copied: whoever reads them treats them as read-only. With it:

- a new hand costs one engine step on top of the latest state;
- an edit, delete or restore of hand n re-settles from the last checkpoint before n;
- a write made by another process (a newer revision in the database) re-settles from
  the last checkpoint before the first hand that changed;
- the table page reads the state and the last few hands, whatever the history's length.

The state is also persisted (table ``snapshots``): after every write, the engine's
snapshot of the latest settlement with the last few entries and hands. A freshly
started worker, or another machine, shows the table page from it (a :class:`Window`)
without reading or settling the history.

Everything here is derived from the hands and rebuilt when missing: it is never trusted
over them (the keys are compared with the database's before any reuse; a persisted
snapshot must match the digest of the live hands' keys and its own checksum).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import pathlib
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select

from scorer import engine, evening
from scorer.engine import SessionError, Settlement, SnapshotError
from scorer.store.db import db
from scorer.store.models import Hand, Snapshot

CHECKPOINT_EVERY = 250
TAIL = 16  # entries and hands a persisted snapshot keeps: the table page shows 8 and the one before

log = logging.getLogger(__name__)

Key = tuple[int, int]  # (hand id, hand revision)


@dataclass(slots=True, eq=False)
class Settled:
    """A table settled at ``revision``: its live hands (keys and stored data) and their settlement."""

    revision: int
    keys: tuple[Key, ...]
    hands: tuple[dict[str, Any], ...]
    settlement: Settlement
    checkpoints: tuple[Settlement, ...]  # checkpoints[i] settled the first i * CHECKPOINT_EVERY hands
    _ledger: dict[str, Any] | None = field(default=None, repr=False)
    derived: dict[str, Any] = field(default_factory=dict, repr=False)  # what pages build from it, once
    unsaved: bool = False  # settled from scratch by a read: the next write persists its snapshot

    @property
    def count(self) -> int:
        return len(self.keys)

    def ledger(self) -> dict[str, Any]:
        """The ledger, built once per state; shared: read-only."""
        if self._ledger is None:
            self._ledger = self.settlement.ledger()
        return self._ledger

    def before(self, n: int) -> Settlement:
        """The last checkpoint that settled no hand from ``n`` on (1-based), or this settlement itself."""
        if n > self.count:
            return self.settlement
        return self.checkpoints[min((n - 1) // CHECKPOINT_EVERY, len(self.checkpoints) - 1)]

    def checkpoints_before(self, base: Settlement) -> tuple[Settlement, ...]:
        """The checkpoints up to ``base`` (one of them, or the settlement itself)."""
        return self.checkpoints[: base.count // CHECKPOINT_EVERY + 1]

    def common(self, keys: Sequence[Key]) -> int:
        """How many first hands this state shares with ``keys`` (the database's live hands now)."""
        mine = self.keys
        if len(keys) >= len(mine) and tuple(keys[: len(mine)]) == mine:
            return len(mine)
        n = 0
        for a, b in zip(mine, keys, strict=False):
            if a != b:
                break
            n += 1
        return n


def extend(
    settlement: Settlement, checkpoints: tuple[Settlement, ...], hands: Iterable[dict[str, Any]]
) -> tuple[Settlement, tuple[Settlement, ...]]:
    """Settle ``hands`` on top of ``settlement``, adding a checkpoint every CHECKPOINT_EVERY hands.

    ``checkpoints`` are those up to ``settlement``; SessionError names the hand by its number in the table.
    """
    more = list(checkpoints)
    pending = list(hands)
    done = 0
    while done < len(pending):
        step = CHECKPOINT_EVERY - settlement.count % CHECKPOINT_EVERY  # hands up to the next checkpoint
        settlement = settlement.extend(pending[done : done + step])
        done += step
        if settlement.count % CHECKPOINT_EVERY == 0:
            more.append(settlement)
    return settlement, tuple(more)


def resettled(state: Settled, n: int, hands: Sequence[dict[str, Any]]) -> tuple[Settlement, tuple[Settlement, ...]]:
    """Settle ``hands`` (the live hands after a change at hand ``n``) from the last checkpoint of ``state`` before n."""
    base = state.before(n)
    return extend(base, state.checkpoints_before(base), hands[base.count :])


@dataclass(frozen=True, slots=True)
class JsonBody:
    """A view as JSON: ``raw`` gives back the very same data to ``json.loads`` (a lone surrogate of
    data stored before the input limits included), ``sent`` is what the API answers, valid UTF-8
    (D2: such a surrogate goes as ``?``). Both are one object unless the data has a surrogate."""

    raw: bytes
    sent: bytes


# ------------------------------------------------------------ persisted snapshots


def digest(keys: Sequence[Key]) -> str:
    """What identifies the hands a snapshot settled: every (id, revision), in order."""
    return hashlib.sha256(";".join(f"{i}.{r}" for i, r in keys).encode()).hexdigest()


def checksum(table_id: int, count: int, digest: str, data: str) -> str:
    """Binds a snapshot's data to its table, count and digest: a damaged or misplaced row is caught."""
    return hashlib.sha256(f"{table_id}:{count}:{digest}:{data}".encode()).hexdigest()


Change = tuple[int, tuple[str, ...]]  # (entries before the first one seated so, who sits in each seat)


def changes_of_player(seatings: Sequence[Mapping[int, str]], offset: int = 0) -> list[Change]:
    """The changes of player of :func:`scorer.evening.seatings`, as (``offset`` + the index of the first
    entry seated anew, who sits in each seat then)."""
    found: list[Change] = []
    for i in range(1, len(seatings)):
        if seatings[i] is not seatings[i - 1] and dict(seatings[i]) != dict(seatings[i - 1]):
            found.append((offset + i, tuple(seatings[i][seat] for seat in sorted(seatings[i]))))
    return found


@dataclass(slots=True, eq=False)
class Window:
    """A table at one revision as a persisted snapshot gives it: its totals and last hands only."""

    revision: int
    count: int
    hands: tuple[dict[str, Any], ...]  # the last stored hands
    settlement: Settlement  # resumed: its entries are the last ones (offset before them)
    # R33: every change of player before them, as (the number of entries before the first one seated so,
    # who sat where from then on): whose each old puesta is, and everyone who sat, as the whole ledger says
    changes: tuple[Change, ...] = ()
    derived: dict[str, Any] = field(default_factory=dict, repr=False)

    def session_and_ledger(self, header: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """The session and ledger with the earlier hands as empty objects but for the changes of player
        (an entry ``sienta`` with its ``seating`` in the place of each): enough for the table page."""
        session = {k: v for k, v in header.items() if k != "hands"}
        session["hands"] = [{}] * (self.count - len(self.hands)) + list(self.hands)
        ledger = self.settlement.totals()
        earlier: list[dict[str, Any]] = [{}] * self.settlement.offset
        for since, names in self.changes:
            if 0 < since <= len(earlier):  # the change of player is the entry before the first one seated so
                earlier[since - 1] = {"result": "sienta", "seating": {str(s): n for s, n in enumerate(names, 1)}}
        ledger["hands"] = earlier + list(self.settlement.entries)
        return session, ledger


SAVE_EVERY = 8  # hands added between two persisted snapshots (a worker settles the few after it)


def worth_saving(before: Settled, after: Settled) -> bool:
    """Whether a write should persist the new state: every SAVE_EVERY hands added, and any other change.

    An edit, delete or restore makes the persisted snapshot stale (its digest no longer
    matches); hands added on top of it leave it usable.
    """
    if after.keys == before.keys:  # no hand changed (e.g. the evening marked as ending): still valid
        return False
    appended = after.count == before.count + 1 and after.keys[:-1] == before.keys
    return not appended or after.count % SAVE_EVERY == 0


def save(table_id: int, state: Settled) -> None:
    """Persist ``state`` as the table's snapshot (in its own transaction); older ones are dropped.

    Derived data: a failure is logged, never raised (the hands are saved already).
    """
    try:
        entries = state.settlement.entries
        first = max(0, len(entries) - TAIL)
        seatings = evening.seatings(state.settlement.players, entries[:first], state.hands[:first])
        text = json.dumps(
            {
                "engine": state.settlement.snapshot(),
                "entries": list(entries[first:]),
                "hands": list(state.hands[first:]),
                "seating": [seatings[-1][s] for s in sorted(seatings[-1])],  # during entries[first]
                "changes": [[since, list(names)] for since, names in changes_of_player(seatings)],  # before it
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )
        db.session.execute(delete(Snapshot).where(Snapshot.table_id == table_id))
        db.session.add(
            Snapshot(
                table_id=table_id,
                count=state.count,
                revision=state.revision,
                digest=digest(state.keys),
                checksum=checksum(table_id, state.count, digest(state.keys), text),
                data=text,
            )
        )
        db.session.commit()
    except Exception as exc:  # derived data: e.g. two workers saving at once
        db.session.rollback()
        log.warning("snapshot of table %s not saved: %s", table_id, exc)


def _trusted_row(table_id: int, keys: Sequence[Key]) -> Snapshot | None:
    """The table's persisted snapshot when it settled a prefix of ``keys`` and is intact, else None."""
    row = db.session.scalars(select(Snapshot).where(Snapshot.table_id == table_id)).first()
    if row is None or row.count > len(keys) or row.digest != digest(keys[: row.count]):
        return None
    if checksum(table_id, row.count, row.digest, row.data) != row.checksum:
        log.warning("snapshot of table %s damaged: ignored", table_id)
        return None
    return row


Resumed = tuple[Settlement, tuple[dict[str, Any], ...], list[str], list[Change]]


def _resumed(row: Snapshot, header: Mapping[str, Any]) -> Resumed:
    """The snapshot's settlement, last hands, seating and earlier changes of player; ValueError (or the
    engine's errors) when they differ. A snapshot saved before it kept the changes (KeyError) is not used."""
    data = json.loads(row.data)
    settlement = engine.resume(header, data["engine"], data["entries"])
    hands = tuple(data["hands"])
    seating = [str(n) for n in data["seating"]]
    changes = [(int(since), tuple(str(n) for n in names)) for since, names in data["changes"]]
    if settlement.count != row.count or len(hands) != len(settlement.entries):
        raise ValueError("entries and hands differ")
    if len(seating) != len(settlement.players) or any(len(names) != len(seating) for _, names in changes):
        raise ValueError("a seating of other seats")
    return settlement, hands, seating, changes


def _hands_since(table_id: int, keys: Sequence[Key]) -> list[Any]:
    """The stored data of the hands ``keys`` (written since the snapshot), in their order."""
    ids = [i for i, _ in keys]
    query = select(Hand.id, Hand.data).where(Hand.table_id == table_id, Hand.id.in_(ids))
    found: dict[int, Any] = {int(i): d for i, d in db.session.execute(query)}
    return [found[i] for i in ids]


def _tail(
    revision: int, settlement: Settlement, hands: tuple[dict[str, Any], ...], seating: list[str], changes: list[Change]
) -> Window:
    """The window of the last TAIL entries, with every change of player before the first of them (R33);
    ``seating``: who sat where during the snapshot's first entry."""
    entries = settlement.entries[-TAIL:]
    skipped = len(settlement.entries) - len(entries)  # hands added since pushed the first ones out
    if skipped:  # the changes of player among the entries pushed out, from the seating the snapshot began with
        seats = evening.seatings(seating, settlement.entries[:skipped], hands)
        changes = [*changes, *changes_of_player(seats, settlement.offset)]
    settlement = Settlement(
        settlement.ruleset, settlement.players, settlement.state, entries, settlement.count - len(entries)
    )
    kept = hands[-len(entries) :] if entries else ()
    return Window(revision, settlement.count, kept, settlement, tuple(changes))


def window(table_id: int, header: Mapping[str, Any], revision: int, keys: Sequence[Key]) -> Window | None:
    """The table from its persisted snapshot and the hands after it, or None (missing, stale or damaged)."""
    row = _trusted_row(table_id, keys)
    if row is None:
        return None
    try:
        settlement, hands, seating, changes = _resumed(row, header)
        if row.count < len(keys):  # hands written since: settled on top of it
            more = _hands_since(table_id, keys[row.count :])
            settlement = settlement.extend(more)
            hands = (*hands, *more)
    except (SnapshotError, SessionError, ValueError, TypeError, KeyError) as exc:
        log.warning("snapshot of table %s not usable: %s", table_id, exc)
        return None
    return _tail(revision, settlement, hands, seating, changes)


# ------------------------------------------------------------------ writers

_writer = threading.local()
_writers = threading.Lock()


@contextlib.contextmanager
def one_writer(instance_path: str, dialect: str) -> Iterator[None]:
    """On SQLite, the writers of every thread and process of an instance take turns on a lock.

    SQLite lets one writer in at a time and makes the others poll, sleeping up to
    100 ms between tries: under load most of a hand POST's time was that sleep. Queued
    on a blocking file lock, the next writer goes in the moment the last one commits.
    PostgreSQL queues writers itself (the table row's lock): nothing to do there.
    """
    if dialect != "sqlite" or getattr(_writer, "held", False):
        yield
        return
    with _writers, open(pathlib.Path(instance_path) / "write.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        _writer.held = True
        try:
            yield
        finally:
            _writer.held = False
            fcntl.flock(handle, fcntl.LOCK_UN)
