"""The settled state of each table per revision, for ``services`` (nothing else imports it).

A table's state at one revision is the (id, revision) key and the stored data of each
live hand, the engine's :class:`~scorer.engine.Settlement` of them, and checkpoints: the
settlement after 0, K, 2K … hands (K = ``CHECKPOINT_EVERY``). Entries and hands are
shared, never copied: whoever reads them treats them as read-only. With it:

- a new hand costs one engine step on top of the latest state;
- an edit, delete or restore of hand n re-settles from the last checkpoint before n;
- a write made by another process (a newer revision in the database) re-settles from
  the last checkpoint before the first hand that changed;
- the table page reads the state and the last few hands, whatever the history's length.

Everything here is derived from the hands and rebuilt when missing: it is never trusted
over them (the keys are compared with the database's before any reuse).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from scorer.engine import Settlement

CHECKPOINT_EVERY = 250

Key = tuple[int, int]  # (hand id, hand revision)
K = TypeVar("K")
V = TypeVar("V")


class Cache(Generic[K, V]):
    """A small LRU shared by the threads of a process."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


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
