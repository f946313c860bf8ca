"""Two phones that sync the same deal at the same moment (their queues sent the instant the network
returns): one is recorded, the other is told that another phone took the deal (409 with the hand
that took it), never a field error of a deal it was not made for ("El que da no juega…") nor "alguien
la cambió mientras tanto"; a retry that races its own first try gets the first try's answer.

Threads against the app (one test client each), on the test database: SQLite, and PostgreSQL when
``TEST_DATABASE_URL`` names it (marker ``postgres``). Each round is a race; 30 rounds, as a table's
phones would meet over a night.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from scorer import store
from scorer.store.models import Table
from tests.web.api.test_queue import PLAYED, won

pytestmark = pytest.mark.postgres

ROUNDS = 30
TAKEN = "la mano 3 ya la anotó otro teléfono: "


def at_once(app: Flask, calls: list[tuple[str, dict[str, Any]]], token: str) -> list[tuple[int, dict[str, Any]]]:
    """Send every (Idempotency-Key, body) from its own thread, all released together; their answers."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def send(i: int) -> None:
        key, body = calls[i]
        client = app.test_client()
        barrier.wait()
        try:
            response = client.post(
                f"/api/tables/{token}/entries/form",
                json=body,
                headers={"Idempotency-Key": key, "Accept-Language": "es"},
            )
            answers[i] = (response.status_code, response.get_json())
        except Exception as exc:  # the test shows it
            answers[i] = (0, {"exception": repr(exc)})

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def hands_of(app: Flask, token: str) -> list[dict[str, Any]]:
    with app.app_context():
        return list(store.read(store.require_edit(token)).session_copy()["hands"])


def entry(fields: dict[str, str], revision: int = 0) -> dict[str, Any]:
    """A hand queued offline for deal 3 (Carmen deals it), made against the table as created."""
    return {"form": "hand", "fields": fields, "deal": 3, "revision": revision, "before": [], "dealer": 3}


@pytest.fixture
def tables(make_table: Callable[..., Table]) -> Callable[[], str]:
    return lambda: make_table(hands=PLAYED).edit_token


def test_the_phone_that_loses_the_race_is_told_the_other_phone_took_the_deal(
    app: Flask, tables: Callable[[], str]
) -> None:
    """Phones A and B both entered deal 3 offline (each its own hand) and sync at once."""
    wrong: list[Any] = []
    for race in range(ROUNDS):
        token = tables()
        a, b = entry(won(3, "oros")), entry(won(3, "copas"))
        answers = at_once(app, [(f"a{race}", a), (f"b{race}", b)], token)
        codes = sorted(code for code, _ in answers)
        recorded = hands_of(app, token)
        assert len(recorded) == 3, (race, answers)  # the deal recorded once
        if codes != [201, 409]:
            wrong.append((race, answers))
            continue
        (_, saved), (_, lost) = sorted(answers, key=lambda a: a[0])
        winner, loser = ("oros", b) if saved is answers[0][1] else ("copas", a)
        told = lost["taken_hand"] or {}
        if not lost["reason"].startswith(TAKEN) or told.get("n") != 3 or told.get("entry") != loser:
            wrong.append((race, answers))
        assert told.get("hand") in (None, recorded[2]) and recorded[2]["trump"] == winner
    assert not wrong, f"{len(wrong)} of {ROUNDS} races answered otherwise: {wrong[:3]}"


def test_a_retry_racing_its_own_first_try_gets_its_answer(app: Flask, tables: Callable[[], str]) -> None:
    """The phone sent its entry, the answer was slow, it sent it again: one hand, both answers say it."""
    wrong: list[Any] = []
    for race in range(ROUNDS):
        token = tables()
        body = entry(won(3))
        answers = at_once(app, [(f"k{race}", body), (f"k{race}", body)], token)
        codes = sorted(code for code, _ in answers)
        if codes not in ([200, 201], [201, 201]) or {a["n"] for _, a in answers} != {3}:
            wrong.append((race, answers))
        assert len(hands_of(app, token)) == 3, (race, answers)
    assert not wrong, f"{len(wrong)} of {ROUNDS} retries answered otherwise: {wrong[:3]}"


def test_two_phones_each_with_a_retry(app: Flask, tables: Callable[[], str]) -> None:
    """Both phones send their deal 3 twice (a retry each), all four at once: one hand recorded; its
    phone is answered that it is saved, twice; the other phone is told the deal was taken, twice."""
    wrong: list[Any] = []
    for race in range(ROUNDS // 3):
        token = tables()
        a, b = entry(won(3, "oros")), entry(won(3, "espadas"))
        calls = [(f"a{race}", a), (f"b{race}", b), (f"a{race}", a), (f"b{race}", b)]
        answers = at_once(app, calls, token)
        recorded = hands_of(app, token)
        assert len(recorded) == 3
        won_by = "a" if recorded[2]["trump"] == "oros" else "b"
        for (key, _), (code, said) in zip(calls, answers, strict=True):
            if key.startswith(won_by):
                ok = code in (200, 201) and said.get("n") == 3
            else:
                ok = code == 409 and said["reason"].startswith(TAKEN) and said["taken_hand"]["n"] == 3
            if not ok:
                wrong.append((race, key, code, said))
    assert not wrong, wrong[:3]


def post(app: Flask, token: str, key: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = app.test_client().post(
        f"/api/tables/{token}/entries/form", json=body, headers={"Idempotency-Key": key, "Accept-Language": "es"}
    )
    return response.status_code, response.get_json()


def waiting_point(reached: threading.Event, done: threading.Event) -> Callable[[], None]:
    """What a patch calls at the point where the thread named "late" stops, once, until ``done``."""

    def wait() -> None:
        if threading.current_thread().name == "late" and not reached.is_set():
            reached.set()
            assert done.wait(timeout=60)

    return wait


def test_the_other_phone_writing_between_judging_and_writing_is_told_as_taken(
    app: Flask, tables: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """B's entry was judged for deal 3 (Carmen deals: Diego may play); A's deal 3 is recorded; then B's
    write: not "El que da no juega" (Diego deals deal 4), but that another phone took deal 3."""
    token = tables()
    reached, done = threading.Event(), threading.Event()
    wait = waiting_point(reached, done)
    add_hand = store.add_hand

    def judged_then_wait(*args: Any, **kwargs: Any) -> Any:
        wait()  # B has judged and read its form: A records deal 3 now
        return add_hand(*args, **kwargs)

    monkeypatch.setattr(store, "add_hand", judged_then_wait)
    b, a = entry(won(3, "copas")), entry(won(3, "oros"))
    first, late = in_between(app, token, ("b", b), ("a", a), reached, done)
    assert first[0] == 201
    code, said = late
    assert code == 409, said
    assert said["reason"].startswith(TAKEN) and said["taken_hand"]["hand"]["trump"] == "oros"
    assert said["taken_hand"]["entry"] == b
    assert [h.get("trump") for h in hands_of(app, token)][2] == "oros"


def test_a_retry_that_meets_its_first_try_committing_is_a_replay(
    app: Flask, tables: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The retry looked for its key (not there yet), then its first try was recorded, then the retry
    judged the deal: taken, by itself. It is answered with the first try's hand, not refused."""
    token = tables()
    reached, done = threading.Event(), threading.Event()
    wait = waiting_point(reached, done)
    replay_request = store.replay_request

    def looked_then_wait(*args: Any, **kwargs: Any) -> Any:
        found = replay_request(*args, **kwargs)
        wait()  # the retry found nothing: its first try is recorded now
        return found

    monkeypatch.setattr(store, "replay_request", looked_then_wait)
    body = entry(won(3))
    first, late = in_between(app, token, ("k", body), ("k", body), reached, done)
    assert first[0] == 201 and first[1]["n"] == 3
    code, said = late
    assert code == 200, said
    assert said["replayed"] is True and said["n"] == 3
    assert len(hands_of(app, token)) == 3


def in_between(
    app: Flask,
    token: str,
    late: tuple[str, dict[str, Any]],
    first: tuple[str, dict[str, Any]],
    reached: threading.Event,
    done: threading.Event,
) -> Any:
    """Send ``late`` from a thread named "late" that stops where the test's patch calls ``wait()``
    (it sets ``reached``, then waits for ``done``); meanwhile send ``first`` to the end. Both answers."""
    answers: dict[str, Any] = {}

    def send_late() -> None:
        answers["late"] = post(app, token, *late)

    thread = threading.Thread(target=send_late, name="late")
    thread.start()
    assert reached.wait(timeout=60), "the late request never reached its point"
    answers["first"] = post(app, token, *first)
    done.set()
    thread.join(timeout=60)
    return answers["first"], answers["late"]


def test_a_table_too_busy_to_judge_answers_503_and_saves_nothing(
    app: Flask, tables: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another write comes in between every judging and its write: after 8 tries, a clear 503."""
    token = tables()
    tries: list[int] = []

    def never_still(_table: Any, _revision: int) -> bool:
        tries.append(1)
        return False

    monkeypatch.setattr(store, "revision_is", never_still)
    body = {**entry(won(3)), "deal": 4}  # refused (its deal is not the next): a refusal backed by no revision
    response = app.test_client().post(
        f"/api/tables/{token}/entries/form", json=body, headers={"Idempotency-Key": "busy"}
    )
    assert response.status_code == 503
    assert response.get_json()["reason"] == (
        "La partida está recibiendo muchas anotaciones a la vez: no se ha guardado; se reintentará."
    )
    assert len(tries) == 8
    assert len(hands_of(app, token)) == 2
