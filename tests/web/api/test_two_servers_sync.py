"""Two phones syncing the same deal at the same moment through two app servers (two gunicorn
processes, each with its own cache, one PostgreSQL database): one hand is recorded; the other phone
is told that another phone took the deal (409, ``taken_hand``); each phone's retry, through the other
server, gets its first try's answer. Runs when ``TEST_DATABASE_URL`` names PostgreSQL.
"""

from __future__ import annotations

import pathlib
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.api.test_queue import PLAYED, won
from tests.web.app_servers import URL, Server, two_servers
from tests.web.conftest import sample_session

ROUNDS = 12
TAKEN = "la mano 3 ya la anotó otro teléfono: "

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not URL.startswith("postgres"), reason="TEST_DATABASE_URL does not name PostgreSQL"),
]


@pytest.fixture
def servers(tmp_path: pathlib.Path) -> Iterator[tuple[Server, Server]]:
    with two_servers(tmp_path, {"FLASK_RATELIMIT_ENABLED": "false"}) as both:
        yield both


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
