"""The settled state kept per revision (scorer/web/settled.py) gives what a fresh settle gives.

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

from scorer import engine
from scorer.web import services, settled
from scorer.web.extensions import db
from scorer.web.models import Table
from tests.engine.strategies import random_session

EVERY = 7


@pytest.fixture(autouse=True)
def frequent_checkpoints(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(settled, "CHECKPOINT_EVERY", EVERY)
    services.forget_caches()
    yield
    services.forget_caches()


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def reload(table: Table) -> Table:
    """The table as a new request sees it."""
    token = table.edit_token
    db.session.remove()
    return services.open_table(token)[0]


def fresh(table: Table) -> dict[str, Any]:
    """The ledger of the session as stored, settled from scratch by the engine."""
    return engine.settle(services.session_of(table))


def assert_consistent(table: Table) -> None:
    """The cached state, the ledger, and a settle from scratch all agree."""
    table = reload(table)
    ledger = services.ledger_of(table)
    assert ledger == fresh(table)
    state = services.state_of(table)
    assert state.revision == table.revision
    assert [c.count for c in state.checkpoints] == list(range(0, state.count + 1, EVERY))
    for checkpoint in state.checkpoints:  # each checkpoint is the settlement of its prefix
        assert list(checkpoint.entries) == ledger["hands"][: checkpoint.count]
    services.forget_caches()  # and a new worker, settling from the database, agrees too
    assert services.ledger_of(reload(table)) == ledger


def long_table(hands: int = 40, seed: int = 7) -> Table:
    session = random_session(random.Random(seed), hands, closing=False, players=4)
    return services.create_table(session)


def a_pass() -> dict[str, Any]:
    return {"pass": True}


@pytest.mark.usefixtures("ctx")
class TestCachedPaths:
    def test_created_table_has_its_checkpoints(self) -> None:
        assert_consistent(long_table())

    @pytest.mark.parametrize("n", [1, EVERY, EVERY + 1, 20, 40])
    def test_edit_in_the_middle_equals_a_fresh_settle(self, n: int) -> None:
        table = long_table()
        before = services.ledger_of(reload(table))
        services.replace_hand(reload(table), n, a_pass())
        table = reload(table)
        after = services.ledger_of(table)
        assert after == fresh(table)
        assert after["hands"][: n - 1] == before["hands"][: n - 1]  # the hands before it are untouched
        assert after["hands"][n - 1]["result"] == "paso"  # format.md
        assert_consistent(table)

    @pytest.mark.parametrize("n", [1, EVERY, EVERY + 1, 33, 40])
    def test_delete_then_restore_in_the_middle(self, n: int) -> None:
        table = long_table()
        original = services.ledger_of(reload(table))
        services.delete_hand(reload(table), n)
        table = reload(table)
        assert len(services.ledger_of(table)["hands"]) == 39
        assert_consistent(table)
        (deleted,) = services.deleted_hands(reload(table))
        assert services.restore_hand(reload(table), deleted.hand_id) == n
        assert services.ledger_of(reload(table)) == original
        assert_consistent(table)

    def test_added_hands_settle_on_top_of_the_state(self) -> None:
        table = long_table(EVERY * 2 - 1)
        for _ in range(EVERY + 2):  # crosses a checkpoint
            services.add_hand(reload(table), a_pass())
        assert_consistent(table)

    def test_a_state_left_behind_by_other_writers_is_brought_up_to_date(self) -> None:
        table = long_table()
        old = services.state_of(reload(table))
        # another process edits hand 12, deletes hand 30 and adds two hands: this one sees none of it
        services.replace_hand(reload(table), 12, a_pass())
        services.delete_hand(reload(table), 30)
        services.add_hand(reload(table), a_pass())
        services.add_hand(reload(table), a_pass())
        services._cache.put(table.edit_token, old)
        table = reload(table)
        assert services.ledger_of(table) == fresh(table)
        state = services.state_of(table)
        assert state.revision == table.revision and state.count == 41
        assert state.hands[11] == {"pass": True, "dealer": old.hands[11]["dealer"]}
        assert_consistent(table)

    def test_an_older_read_does_not_replace_a_newer_state(self) -> None:
        table = long_table(10)
        stale = reload(table)  # a request that read the table before the write below
        db.session.expunge(stale)
        services.add_hand(reload(table), a_pass())
        newer = services._cache.get(table.edit_token)
        assert newer is not None and newer.count == 11
        assert services.state_of(stale).count >= 10
        assert services._cache.get(table.edit_token) is newer

    def test_a_write_on_a_stale_state_is_settled_on_the_database_hands(self) -> None:
        table = long_table(20)
        old = services.state_of(reload(table))
        services.replace_hand(reload(table), 5, a_pass())
        services._cache.put(table.edit_token, old)  # this process missed the edit
        services.add_hand(reload(table), a_pass())
        table = reload(table)
        assert services.session_of(table)["hands"][4]["pass"] is True
        assert_consistent(table)
