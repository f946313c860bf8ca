"""The settled state kept per revision (scorer/store/settled.py) gives what a fresh settle gives.

Every check compares the app's ledger with ``engine.settle`` of the session as stored
(the independent reference), after changes that take the cached paths: a hand added
on top of the state, an edit / delete / restore in the middle (re-settled from a
checkpoint), a state left behind by another process's writes, an empty cache.
Checkpoints are made frequent (every 7 hands) so that short tables cross many.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from scorer import engine, store
from scorer.store import settled
from scorer.store.db import db
from scorer.store.models import Table
from tests.engine.strategies import random_session

EVERY = 7


@pytest.fixture(autouse=True)
def frequent_checkpoints(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(settled, "CHECKPOINT_EVERY", EVERY)
    store.forget()
    yield
    store.forget()


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def reload(table: Table) -> Table:
    """The table as a new request sees it."""
    token = table.edit_token
    db.session.remove()
    return store.open_table(token)[0]


def fresh(table: Table) -> dict[str, Any]:
    """The ledger of the session as stored, settled from scratch by the engine."""
    return engine.settle(store.read(table).session_copy())


def assert_consistent(table: Table) -> None:
    """The cached state, the ledger, and a settle from scratch all agree."""
    table = reload(table)
    ledger = store.read(table).ledger_copy()
    assert ledger == fresh(table)
    state = store.read(table).settled
    assert state.revision == table.revision
    assert [c.count for c in state.checkpoints] == list(range(0, state.count + 1, EVERY))
    for checkpoint in state.checkpoints:  # each checkpoint is the settlement of its prefix
        assert list(checkpoint.entries) == ledger["hands"][: checkpoint.count]
    store.forget()  # and a new worker, settling from the database, agrees too
    assert store.read(reload(table)).ledger_copy() == ledger


def long_table(hands: int = 40, seed: int = 7) -> Table:
    session = random_session(random.Random(seed), hands, closing=False, players=4)
    return store.create_table(session)


def a_pass() -> dict[str, Any]:
    return {"pass": True}


@pytest.mark.usefixtures("ctx")
class TestCachedPaths:
    def test_created_table_has_its_checkpoints(self) -> None:
        assert_consistent(long_table())

    @pytest.mark.parametrize("n", [1, EVERY, EVERY + 1, 20, 40])
    def test_edit_in_the_middle_equals_a_fresh_settle(self, n: int) -> None:
        table = long_table()
        before = store.read(reload(table)).ledger_copy()
        store.replace_hand(reload(table), n, a_pass())
        table = reload(table)
        after = store.read(table).ledger_copy()
        assert after == fresh(table)
        assert after["hands"][: n - 1] == before["hands"][: n - 1]  # the hands before it are untouched
        assert after["hands"][n - 1]["result"] == "paso"  # format.md
        assert_consistent(table)

    @pytest.mark.parametrize("n", [1, EVERY, EVERY + 1, 33, 40])
    def test_delete_then_restore_in_the_middle(self, n: int) -> None:
        table = long_table()
        original = store.read(reload(table)).ledger_copy()
        store.delete_hand(reload(table), n)
        table = reload(table)
        assert len(store.read(table).ledger_copy()["hands"]) == 39
        assert_consistent(table)
        (deleted,) = store.deleted_hands(reload(table))
        assert store.restore_hand(reload(table), deleted.hand_id) == n
        assert store.read(reload(table)).ledger_copy() == original
        assert_consistent(table)

    def test_added_hands_settle_on_top_of_the_state(self) -> None:
        table = long_table(EVERY * 2 - 1)
        for _ in range(EVERY + 2):  # crosses a checkpoint
            store.add_hand(reload(table), a_pass())
        assert_consistent(table)

    def test_a_state_left_behind_by_other_writers_is_brought_up_to_date(self) -> None:
        table = long_table()
        old = store.read(reload(table)).settled
        # another process edits hand 12, deletes hand 30 and adds two hands: this one sees none of it
        store.replace_hand(reload(table), 12, a_pass())
        store.delete_hand(reload(table), 30)
        store.add_hand(reload(table), a_pass())
        store.add_hand(reload(table), a_pass())
        store.cache.states.put(table.edit_token, old)
        table = reload(table)
        assert store.read(table).ledger_copy() == fresh(table)
        state = store.read(table).settled
        assert state.revision == table.revision and state.count == 41
        assert state.hands[11] == {"pass": True, "dealer": old.hands[11]["dealer"]}
        assert_consistent(table)

    def test_an_older_read_does_not_replace_a_newer_state(self) -> None:
        table = long_table(10)
        stale = reload(table)  # a request that read the table before the write below
        db.session.expunge(stale)
        store.add_hand(reload(table), a_pass())
        newer = store.cache.states.get(table.edit_token)
        assert newer is not None and newer.count == 11
        assert store.read(stale).settled.count >= 10
        assert store.cache.states.get(table.edit_token) is newer

    def test_a_write_on_a_stale_state_is_settled_on_the_database_hands(self) -> None:
        table = long_table(20)
        old = store.read(reload(table)).settled
        store.replace_hand(reload(table), 5, a_pass())
        store.cache.states.put(table.edit_token, old)  # this process missed the edit
        store.add_hand(reload(table), a_pass())
        table = reload(table)
        assert store.read(table).session_copy()["hands"][4]["pass"] is True
        assert_consistent(table)
