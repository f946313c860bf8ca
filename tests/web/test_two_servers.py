"""Two app servers on one PostgreSQL database and one Redis: a write through one is seen at once
through the other, and the creation limit counts the tables made through both.

Each server is its own process (gunicorn, one worker, 127.0.0.1, its own port and
instance folder), so each has its own cache of settled states; they share only the
database, whose table revision keys those caches, and the Redis that keeps the creation
limit's counts (Flask-Limiter's storage; the ``redis`` extra). Runs when ``TEST_DATABASE_URL``
names PostgreSQL (CI: scripts/ci-postgres.sh), on a fresh schema dropped afterwards; the Redis
is Debian's ``redis-server``, started here on 127.0.0.1 and a free port, stopped afterwards.
"""

from __future__ import annotations

import itertools
import os
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from scorer import engine
from tests.web.app_servers import REDIS_SERVER, URL, Redis, Server, two_servers
from tests.web.conftest import sample_session

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not URL.startswith("postgres"), reason="TEST_DATABASE_URL does not name PostgreSQL"),
]


CREATE_LIMIT = "3 per minute"


@pytest.fixture
def servers(tmp_path: pathlib.Path) -> Iterator[tuple[Server, Server]]:
    if not os.path.exists(REDIS_SERVER):
        pytest.fail(f"{REDIS_SERVER} is missing: apt-get install redis-server (scripts/bootstrap.sh --dev)")
    redis = Redis(tmp_path)
    try:
        limit = {"FLASK_RATELIMIT_STORAGE_URI": redis.url, "FLASK_CARTULINA_CREATE_LIMIT": CREATE_LIMIT}
        with two_servers(tmp_path, limit) as both:
            yield both
    finally:
        redis.stop()


def ledger(server: Server, token: str) -> dict[str, Any]:
    status, body = server.call("GET", f"/api/tables/{token}/ledger")
    assert status == 200, body
    return dict(body)


def agree(a: Server, b: Server, token: str) -> dict[str, Any]:
    """Both servers give the same ledger, the engine's for the session as stored."""
    status, session = a.call("GET", f"/api/tables/{token}")
    assert status == 200
    expected = engine.settle(session)
    assert ledger(a, token) == expected
    assert ledger(b, token) == expected
    return expected


def test_a_write_through_one_server_is_seen_at_once_through_the_other(servers: tuple[Server, Server]) -> None:
    a, b = servers
    status, answer = a.call("POST", "/api/tables", sample_session())
    assert status == 201, answer
    token, view = answer["edit_token"], answer["view_token"]
    assert len(agree(a, b, token)["hands"]) == 3  # both caches now hold revision 0

    # a hand added through A: B's very next read has it (no waiting, no expiry)
    status, added = a.call("POST", f"/api/tables/{token}/hands", {"pass": True})
    assert (status, added["n"]) == (201, 4)
    assert len(ledger(b, token)["hands"]) == 4
    status, page = b.call("GET", f"/t/{view}")
    assert status == 200
    assert "Próxima mano: la 5" in page  # the view page B serves counts the hand A wrote

    # an edit through B in the middle, then a delete through A: each seen through the other
    status, edited = b.call("PUT", f"/api/tables/{token}/hands/2", {"pass": True})
    assert status == 200, edited
    status, _ = a.call("DELETE", f"/api/tables/{token}/hands/1")
    assert status in (200, 204)
    final = agree(b, a, token)
    assert len(final["hands"]) == 3
    assert [h["result"] for h in final["hands"]][:1] == ["paso"]  # the former hand 2, now hand 1

    # writers alternate between the servers: the rotation stays whole on both
    for i in range(6):
        server = (a, b)[i % 2]
        status, body = server.call("POST", f"/api/tables/{token}/hands", {"pass": True})
        assert status == 201, body
        assert len(ledger((b, a)[i % 2], token)["hands"]) == 4 + i
    final = agree(a, b, token)
    dealers = [h["dealer"] for h in final["hands"][-6:]]
    assert all(d2 == d1 % 4 + 1 for d1, d2 in itertools.pairwise(dealers))


def test_the_creation_limit_counts_the_tables_made_through_both_servers(servers: tuple[Server, Server]) -> None:
    a, b = servers
    made = [server.call("POST", "/api/tables", sample_session())[0] for server in (a, b, a)]
    assert made == [201, 201, 201]  # three: the limit (one client address, 127.0.0.1)
    status, answer = b.call("POST", "/api/tables", sample_session())
    assert status == 429, answer  # B counted A's two: one count, in the shared Redis
    status, answer = a.call("POST", "/api/tables", sample_session())
    assert status == 429, answer
