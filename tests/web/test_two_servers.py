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

import http.client
import itertools
import json
import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from scorer import engine
from scorer.web import database_url
from tests.web.conftest import sample_session

URL = os.environ.get("TEST_DATABASE_URL") or ""
ROOT = pathlib.Path(__file__).resolve().parents[2]
GUNICORN = pathlib.Path(sys.executable).with_name("gunicorn")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not URL.startswith("postgres"), reason="TEST_DATABASE_URL does not name PostgreSQL"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
CREATE_LIMIT = "3 per minute"


class Redis:
    """Debian's redis-server on 127.0.0.1 and a free port, nothing kept on disk."""

    def __init__(self, folder: pathlib.Path) -> None:
        self.port = free_port()
        command = [REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"]
        command += ["--dir", str(folder)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=30)


class Server:
    """One gunicorn process serving the app on 127.0.0.1."""

    def __init__(self, instance: pathlib.Path, schema: str, redis: Redis) -> None:
        self.port = free_port()
        env = dict(
            os.environ,
            PYTHONPATH=str(ROOT),
            FLASK_INSTANCE_PATH=str(instance),
            FLASK_SECRET_KEY="two-servers",
            FLASK_SQLALCHEMY_DATABASE_URI=URL,
            FLASK_SQLALCHEMY_ENGINE_OPTIONS=json.dumps({"connect_args": {"options": f"-csearch_path={schema}"}}),
            FLASK_RATELIMIT_STORAGE_URI=redis.url,
            FLASK_CARTULINA_CREATE_LIMIT=CREATE_LIMIT,
        )
        command = [str(GUNICORN), "--workers", "1", "--bind", f"127.0.0.1:{self.port}", "--log-level", "warning"]
        self.process = subprocess.Popen([*command, "scorer:create_app()"], cwd=ROOT, env=env, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.call("GET", "/api/tables/unknown")[0] == 404:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {"Content-Type": "application/json"} if body is not None else {}
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = connection.getresponse()
            data = response.read()
            kind = response.getheader("Content-Type") or ""
            return response.status, json.loads(data) if kind.startswith("application/json") else data.decode()
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


@pytest.fixture
def servers(tmp_path: pathlib.Path) -> Iterator[tuple[Server, Server]]:
    if not os.path.exists(REDIS_SERVER):
        pytest.fail(f"{REDIS_SERVER} is missing: apt-get install redis-server (scripts/bootstrap.sh --dev)")
    schema = "test_" + secrets.token_hex(6)
    admin = sa.create_engine(database_url(URL))
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    redis = Redis(tmp_path)
    started: list[Server] = []
    try:
        started.append(Server(tmp_path / "a", schema, redis))  # migrates the schema first
        started.append(Server(tmp_path / "b", schema, redis))
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()
        redis.stop()
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


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
