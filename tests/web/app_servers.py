"""Real app servers for the tests that need more than one process: gunicorn (one worker each, on
127.0.0.1 and a free port, its own instance folder) on one PostgreSQL schema made for the test and
dropped afterwards, and Debian's redis-server when the servers share a Redis. Every process started
here is stopped by the context manager that started it.
"""

from __future__ import annotations

import contextlib
import http.client
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

import sqlalchemy as sa

from scorer.web import database_url

URL = os.environ.get("TEST_DATABASE_URL") or ""
ROOT = pathlib.Path(__file__).resolve().parents[2]
GUNICORN = pathlib.Path(sys.executable).with_name("gunicorn")
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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
    """One gunicorn process (one worker) serving the app on 127.0.0.1, on the test schema."""

    def __init__(self, instance: pathlib.Path, schema: str, settings: dict[str, str]) -> None:
        self.port = free_port()
        env = dict(
            os.environ,
            PYTHONPATH=str(ROOT),
            FLASK_INSTANCE_PATH=str(instance),
            FLASK_SECRET_KEY="app-servers",
            FLASK_SQLALCHEMY_DATABASE_URI=URL,
            FLASK_SQLALCHEMY_ENGINE_OPTIONS=json.dumps({"connect_args": {"options": f"-csearch_path={schema}"}}),
            **settings,
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
        """One request in Spanish (JSON body, optional Idempotency-Key): the status and the JSON or text."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            headers = {"Accept-Language": "es"}
            if body is not None:
                headers["Content-Type"] = "application/json"
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


@contextlib.contextmanager
def two_servers(folder: pathlib.Path, settings: dict[str, str]) -> Iterator[tuple[Server, Server]]:
    """Two servers on a fresh schema of TEST_DATABASE_URL; the first migrates it."""
    schema = "test_" + secrets.token_hex(6)
    admin = sa.create_engine(database_url(URL))
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    started: list[Server] = []
    try:
        started.append(Server(folder / "a", schema, settings))  # migrates the schema first
        started.append(Server(folder / "b", schema, settings))
        yield started[0], started[1]
    finally:
        for server in started:
            server.stop()
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
