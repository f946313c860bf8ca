"""Every cache of the stored tables, in one registry with one :func:`forget`.

What a process keeps of a table is derived from its hands and rebuilt when missing: the
settled state per table (:data:`states`, with the views the pages built from it once per
revision in its ``derived``), the JSON of its ledger and session file per revision
(:data:`texts`), the persisted snapshot a worker shows a table from (:data:`windows`, with
its ``derived`` too), the peña pages' parsed documents (:data:`documents`) and the pages' own
(:func:`page_cache`: the hand list's pages, the scripts' words). Each is a :class:`Cache`,
registered here when made; an ``lru_cache`` of table data registers with :func:`register`. So
:func:`forget` empties them all, as in a freshly started worker (tests and benchmarks use it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from scorer.store.settled import JsonBody, Settled, Window

K = TypeVar("K")
V = TypeVar("V")


class Clearable(Protocol):
    """Anything :func:`forget` can empty: a :class:`Cache`, an ``lru_cache``'d function."""

    def cache_clear(self) -> None: ...


_registry: list[Clearable] = []


def register(cache: Clearable) -> None:
    """Empty ``cache`` with the others on :func:`forget`."""
    _registry.append(cache)


def forget() -> None:
    """Empty every cache of this process (as in a freshly started worker)."""
    for cache in _registry:
        cache.cache_clear()


class Cache(Generic[K, V]):
    """A small LRU shared by the threads of a process, registered with :func:`forget`."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        register(self)

    def __len__(self) -> int:
        return len(self._items)

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

    def made(self, key: K, make: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``make()`` kept there (two threads may both make it)."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    cache_clear = clear


def page_cache(size: int) -> Cache[Any, Any]:
    """A process-wide LRU of the pages' own (the hand list's pages, the scripts' words)."""
    return Cache(size)


# Tables whose state a worker keeps: a busy night's tables all stay settled (a table of
# a few hundred hands takes well under 1 MB; a 3,000-hand one a few MB).
TABLES_KEPT = 512

# The latest settled state of each table (scorer/store/settled.py). Another process's write
# leaves this one's state a prefix of the new hands, or shares the hands before the one it
# changed: only what follows is settled again.
states: Cache[str, Settled] = Cache(TABLES_KEPT)
# JSON of the ledger and the session file per revision, as UTF-8 bytes: a json.loads of one is a
# fresh copy for the caller, many times cheaper than deep-copying the settled state, and the API
# sends them as they are (a 3,000-hand ledger is 3 MB: encoding it for every request cost 4 ms of
# CPU, more than the rest of the request; kept as bytes it also takes half the memory of a str).
texts: Cache[tuple[str, int, str], JsonBody] = Cache(128)
# Tables shown from their persisted snapshot (a worker that has not settled them itself)
windows: Cache[str, Window] = Cache(TABLES_KEPT)
# (edit token, revision) → (session, ledger) as parsed JSON, shared read-only by the peña's pages:
# a peña page reads every evening, and parsing dozens of ledgers on each request adds up.
documents: Cache[tuple[str, int], tuple[dict[str, Any], dict[str, Any]]] = Cache(256)
