"""An over-long Idempotency-Key, through a real gunicorn with Cartulina's settings
(``gunicorn -c python:scorer.web.gunicorn_settings``, as ``make serve`` starts it): the app reads
it and answers its own JSON 400 naming the limit, not gunicorn's HTML 431. A field longer than the
settings allow is still gunicorn's to refuse.

The server runs on 127.0.0.1 on a socket made here and handed to it (as tests/browser/live.py
does): a request made while it starts waits in the socket's queue, so nothing polls or sleeps. It
is stopped after the module's tests.
"""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from scorer import limits
from scorer.web import gunicorn_settings
from tests.web.conftest import sample_session

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUNICORN = pathlib.Path(sys.executable).with_name("gunicorn")
LONG_KEY = "k" * 10 * 1024


class Gunicorn:
    """gunicorn with the project's settings module, one worker, on a socket of 127.0.0.1."""

    def __init__(self, folder: pathlib.Path) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(16)
        self.port = int(self.socket.getsockname()[1])
        env = dict(
            os.environ,
            PYTHONPATH=str(ROOT),
            FLASK_INSTANCE_PATH=str(folder / "instance"),
            FLASK_SECRET_KEY="long-headers",
            FLASK_SQLALCHEMY_DATABASE_URI=f"sqlite:///{folder / 'cartulina.db'}",
        )
        fd = self.socket.fileno()
        command = [str(GUNICORN), "-c", "python:scorer.web.gunicorn_settings", "--bind", f"fd://{fd}"]
        command += ["--workers", "1", "--log-level", "warning", "--error-logfile", str(folder / "gunicorn.log")]
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, pass_fds=(fd,), start_new_session=True)

    def call(self, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, str, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)  # the first waits for the boot
        try:
            sent = {"Content-Type": "application/json", **headers} if body is not None else dict(headers)
            connection.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
            response = connection.getresponse()
            return response.status, response.getheader("Content-Type") or "", response.read()
        finally:
            connection.close()

    def stop(self) -> None:
        try:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        finally:
            self.socket.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gunicorn]:
    started = Gunicorn(tmp_path_factory.mktemp("long-headers"))
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def token(server: Gunicorn) -> str:
    status, _kind, body = server.call("POST", "/api/tables", sample_session(hands=[]))
    assert status == 201, body
    return str(json.loads(body)["edit_token"])


def test_the_settings_leave_room_for_a_long_header() -> None:
    assert gunicorn_settings.limit_request_field_size >= 32 * 1024
    assert gunicorn_settings.wsgi_app == "scorer:create_app()"


def test_a_10_kb_idempotency_key_gets_the_apis_json_error(server: Gunicorn, token: str) -> None:
    status, kind, body = server.call(
        "POST", f"/api/tables/{token}/hands", {"pass": True}, **{"Idempotency-Key": LONG_KEY}
    )
    assert (status, kind) == (400, "application/json")
    assert json.loads(body) == {"error": f"request id must be 1 to {limits.REQUEST_ID_MAX} characters"}
    entry = {"form": "pass", "fields": {}}
    status, kind, body = server.call(
        "POST", f"/api/tables/{token}/entries/form", entry, **{"Idempotency-Key": LONG_KEY}
    )
    assert (status, kind) == (400, "application/json")
    assert (
        json.loads(body)["error"] == f"an Idempotency-Key header of 1 to {limits.REQUEST_ID_MAX} characters is needed"
    )
    status, _kind, body = server.call("GET", f"/api/tables/{token}")
    assert status == 200 and json.loads(body)["hands"] == []  # nothing saved


def test_a_field_longer_than_the_settings_allow_is_still_refused(server: Gunicorn, token: str) -> None:
    too_long = "k" * (gunicorn_settings.limit_request_field_size + 1)
    status, _kind, _body = server.call("GET", f"/api/tables/{token}", **{"X-Filler": too_long})
    assert status in (400, 431)  # gunicorn's own refusal, before the app
    status, _kind, _body = server.call("GET", f"/api/tables/{token}")
    assert status == 200  # and the server goes on
