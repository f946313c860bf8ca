"""Two phones syncing the same deal at the same moment through two app servers (two gunicorn
processes, each with its own cache, one PostgreSQL database): one hand is recorded; the other phone
is told that another phone took the deal (409, ``taken_hand``); each phone's retry, through the other
server, gets its first try's answer. Runs when ``TEST_DATABASE_URL`` names PostgreSQL.
"""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from scorer.web import database_url
from tests.web.api.test_queue import PLAYED, won
from tests.web.conftest import sample_session

URL = os.environ.get("TEST_DATABASE_URL") or ""
ROOT = pathlib.Path(__file__).resolve().parents[3]
GUNICORN = pathlib.Path(sys.executable).with_name("gunicorn")
ROUNDS = 12
TAKEN = "la mano 3 ya la anotó otro teléfono: "

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not URL.startswith("postgres"), reason="TEST_DATABASE_URL does not name PostgreSQL"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """One gunicorn process (one worker) serving the app on 127.0.0.1, on the test schema."""

    def __init__(self, instance: pathlib.Path, schema: str) -> None:
        self.port = free_port()
        env = dict(
            os.environ,
            PYTHONPATH=str(ROOT),
            FLASK_INSTANCE_PATH=str(instance),
            FLASK_SECRET_KEY="two-servers-sync",
            FLASK_SQLALCHEMY_DATABASE_URI=URL,
            FLASK_SQLALCHEMY_ENGINE_OPTIONS=json.dumps({"connect_args": {"options": f"-csearch_path={schema}"}}),
            FLASK_RATELIMIT_ENABLED="false",
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

    def call(self, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            headers = {"Content-Type": "application/json", "Accept-Language": "es"}
            if key is not None:
                headers["Idempotency-Key"] = key
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
    schema = "test_" + secrets.token_hex(6)
    admin = sa.create_engine(database_url(URL))
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    started: list[Server] = []
    try:
        started.append(Server(tmp_path / "a", schema))  # migrates the schema first
        started.append(Server(tmp_path / "b", schema))
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def at_once(calls: list[tuple[Server, str, str, dict[str, Any]]]) -> list[tuple[int, Any]]:
    """Every (server, path, key, body) posted from its own thread, all released together."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def send(i: int) -> None:
        server, path, key, body = calls[i]
        barrier.wait()
        try:
            answers[i] = server.call("POST", path, body, key)
        except OSError as exc:  # the test shows it
            answers[i] = (0, repr(exc))

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def test_two_phones_through_two_servers_record_the_deal_once_and_the_loser_is_told(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    wrong: list[Any] = []
    for race in range(ROUNDS):
        status, made = a.call("POST", "/api/tables", sample_session(hands=PLAYED))
        assert status == 201, made
        token = made["edit_token"]
        path = f"/api/tables/{token}/entries/form"
        first = {"form": "hand", "fields": won(3, "oros"), "deal": 3, "revision": 0, "before": [], "dealer": 3}
        other = {**first, "fields": won(3, "espadas")}
        calls = [(a, path, f"a{race}", first), (b, path, f"b{race}", other)]
        calls += [(b, path, f"a{race}", first), (a, path, f"b{race}", other)]  # each one's retry, elsewhere
        answers = at_once(calls)
        status, session = b.call("GET", f"/api/tables/{token}")
        assert status == 200 and len(session["hands"]) == 3, (race, answers)
        won_by = "a" if session["hands"][2]["trump"] == "oros" else "b"
        for (_server, _path, key, _body), (code, said) in zip(calls, answers, strict=True):
            if key.startswith(won_by):
                ok = code in (200, 201) and isinstance(said, dict) and said.get("n") == 3
            else:
                ok = code == 409 and said["reason"].startswith(TAKEN) and said["taken_hand"]["n"] == 3
            if not ok:
                wrong.append((race, key, code, said))
    assert not wrong, f"{len(wrong)} answers of {ROUNDS * 4} otherwise: {wrong[:3]}"
