"""The players' answers through the API: a hand the whole table agrees on (POST …/hands/<n>/answers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import sample_session

EDITED = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 6, "3": 2, "4": 1}}


@pytest.fixture
def tokens(client: FlaskClient) -> dict[str, str]:
    response = client.post("/api/tables", json=sample_session())
    assert response.status_code == 201
    return dict(response.get_json())


def answer(client: FlaskClient, token: str, n: int, body: Any, **kwargs: Any) -> Any:
    return client.post(f"/api/tables/{token}/hands/{n}/answers", json=body, **kwargs)


def answers_of(client: FlaskClient, token: str, n: int) -> list[dict[str, Any]]:
    response = client.get(f"/api/tables/{token}/hands/{n}")
    assert response.status_code == 200
    return list(response.get_json()["answers"])


def test_a_view_token_answer_is_stored_and_shown(client: FlaskClient, tokens: dict[str, str]) -> None:
    response = answer(client, tokens["view_token"], 1, {"person": "Carmen", "agrees": False, "note": "eran 4 estuches"})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["n"] == 1
    assert [(a["person"], a["agrees"], a["note"]) for a in body["answers"]] == [("Carmen", False, "eran 4 estuches")]
    assert body["answers"][0]["at"].endswith("Z")
    # both tokens read it back with the hand
    for token in (tokens["view_token"], tokens["edit_token"]):
        shown = answers_of(client, token, 1)
        assert [(a["person"], a["agrees"], a["note"]) for a in shown] == [("Carmen", False, "eran 4 estuches")]
    assert answers_of(client, tokens["view_token"], 2) == []


def test_answering_again_replaces_and_the_edit_token_may_answer(client: FlaskClient, tokens: dict[str, str]) -> None:
    view, edit = tokens["view_token"], tokens["edit_token"]
    assert answer(client, view, 1, {"person": "Ana", "agrees": False, "note": "no"}).status_code == 201
    assert answer(client, edit, 1, {"person": "Benito", "agrees": True}).status_code == 201
    response = answer(client, view, 1, {"person": "Ana", "agrees": True, "note": ""})
    assert response.status_code == 201
    assert sorted((a["person"], a["agrees"]) for a in response.get_json()["answers"]) == [
        ("Ana", True),
        ("Benito", True),
    ]


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"person": "Zoe", "agrees": True}, 422, "'Zoe' was not seated at hand 1"),
        ({"person": "Ana", "agrees": "yes"}, 422, "agrees must be true or false"),
        ({"agrees": True}, 422, "person must be the name of someone seated"),
        ({"person": "Ana", "agrees": False}, 422, "a disagreement needs a note"),
        ({"person": "Ana", "agrees": False, "note": "x" * 201}, 422, "note is longer than 200 characters"),
        ({"person": "Ana", "agrees": False, "note": "a\nb"}, 422, "note contains a control character U+000A"),
        ({"person": "Ana", "agrees": True, "who": 1}, 422, "unknown key 'who'"),
        (["Ana"], 422, "an answer is an object"),
    ],
)
def test_a_bad_answer_is_refused_with_its_reason_and_nothing_saved(
    client: FlaskClient, tokens: dict[str, str], body: Any, status: int, reason: str
) -> None:
    response = answer(client, tokens["view_token"], 1, body)
    assert response.status_code == status
    assert reason in response.get_json()["error"]
    assert answers_of(client, tokens["edit_token"], 1) == []


def test_no_such_hand_or_table_is_404_and_not_json_is_415(client: FlaskClient, tokens: dict[str, str]) -> None:
    view = tokens["view_token"]
    response = answer(client, view, 9, {"person": "Ana", "agrees": True})
    assert response.status_code == 404
    assert response.get_json() == {"error": "hand 9: no such hand"}
    assert answer(client, "x" * 32, 1, {"person": "Ana", "agrees": True}).status_code == 404
    response = client.post(f"/api/tables/{view}/hands/1/answers", data='{"person": "Ana", "agrees": true}')
    assert response.status_code == 415
    assert response.get_json() == {"error": "writes need Content-Type: application/json"}
    response = client.post(
        f"/api/tables/{view}/hands/1/answers", data="{", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    response = client.post(
        f"/api/tables/{view}/hands/1/answers", data=b"{" + b" " * 5000 + b"}", content_type="application/json"
    )
    assert response.status_code == 422
    assert answers_of(client, view, 1) == []


def test_only_people_seated_at_that_hand_answer(client: FlaskClient) -> None:
    """R33: who sat down after hand 1 may answer hand 2, not hand 1; who left may answer hand 1 only."""
    session = sample_session(hands=[{"pass": True}, {"sienta": {"seat": 3, "player": "Elena"}}, {"pass": True}])
    tokens = client.post("/api/tables", json=session).get_json()
    view = tokens["view_token"]
    assert answer(client, view, 1, {"person": "Elena", "agrees": True}).status_code == 422
    assert answer(client, view, 3, {"person": "Elena", "agrees": True}).status_code == 201
    assert answer(client, view, 3, {"person": "Carmen", "agrees": True}).status_code == 422
    assert answer(client, view, 1, {"person": "Carmen", "agrees": True}).status_code == 201


def test_an_edit_clears_the_answers_and_the_history_keeps_them(
    app: Flask, client: FlaskClient, tokens: dict[str, str]
) -> None:
    view, edit = tokens["view_token"], tokens["edit_token"]
    answer(client, view, 1, {"person": "Carmen", "agrees": False, "note": "eran 6 bazas"})
    answer(client, view, 2, {"person": "Ana", "agrees": True})
    response = client.put(f"/api/tables/{edit}/hands/1", json=EDITED)
    assert response.status_code == 200
    assert answers_of(client, view, 1) == []  # asked again
    assert [a["person"] for a in answers_of(client, view, 2)] == ["Ana"]  # another hand keeps its answers
    answer(client, view, 1, {"person": "Carmen", "agrees": True})
    assert [(a["person"], a["agrees"]) for a in answers_of(client, view, 1)] == [("Carmen", True)]

    from scorer import store
    from scorer.store import answers as service

    with app.app_context():
        table, _ = store.open_table(edit)
        kept = service.history(table, service.live_ids(table)[0])
    assert [(a.person, a.agrees, a.current, a.hand_revision) for a in kept] == [
        ("Carmen", False, False, 1),
        ("Carmen", True, True, 2),
    ]
    assert kept[0].hand["tricks"] == {"2": 5, "3": 3, "4": 1}  # what was answered, as it was


def test_delete_and_restore_ask_again(client: FlaskClient, tokens: dict[str, str]) -> None:
    view, edit = tokens["view_token"], tokens["edit_token"]
    answer(client, view, 3, {"person": "Diego", "agrees": True})
    deleted = client.delete(f"/api/tables/{edit}/hands/3").get_json()
    hand_id = deleted["restorable"][0]["hand_id"]
    response = client.post(f"/api/tables/{edit}/deleted/{hand_id}", headers={"Content-Type": "application/json"})
    assert response.status_code == 200
    assert answers_of(client, view, 3) == []


def test_the_view_token_gets_403_on_every_other_write(app: Flask, client: FlaskClient, tokens: dict[str, str]) -> None:
    view, edit = tokens["view_token"], tokens["edit_token"]
    deleted = client.delete(f"/api/tables/{edit}/hands/3").get_json()
    hand_id = deleted["restorable"][0]["hand_id"]
    writes = [
        ("POST", f"/api/tables/{view}/hands", {"pass": True}),
        ("PUT", f"/api/tables/{view}/hands/1", EDITED),
        ("DELETE", f"/api/tables/{view}/hands/1", None),
        ("POST", f"/api/tables/{view}/deleted/{hand_id}", None),
        ("POST", f"/api/tables/{view}/entries/form", {"form": "pass", "fields": {}}),
    ]
    headers = {"Content-Type": "application/json", "Idempotency-Key": "k1"}
    for method, path, body in writes:
        response = client.open(path, method=method, json=body, headers=headers)
        assert response.status_code == 403, (method, path, response.get_json())
    # every write route of the API is in the list above, but the answers
    routes = {
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/tables/<")
        for method in rule.methods - {"GET", "HEAD", "OPTIONS"}
    }
    assert len(routes) == len(writes) + 1, sorted(routes)
    assert len(client.get(f"/api/tables/{edit}").get_json()["hands"]) == 2  # nothing changed


def test_a_closed_table_takes_no_answers(client: FlaskClient, tokens: dict[str, str]) -> None:
    assert client.post(f"/api/tables/{tokens['edit_token']}/hands", json={"close": "devolver"}).status_code == 201
    response = answer(client, tokens["view_token"], 1, {"person": "Ana", "agrees": True})
    assert response.status_code == 403
    assert "closed" in response.get_json()["error"]


def test_answers_are_rate_limited_per_address(make_app: Callable[..., Flask]) -> None:
    client = make_app(RATELIMIT_ENABLED=True, CARTULINA_ANSWER_LIMIT="5 per minute").test_client()
    view = client.post("/api/tables", json=sample_session()).get_json()["view_token"]
    statuses = [answer(client, view, 1, {"person": "Ana", "agrees": True}).status_code for _ in range(6)]
    assert statuses == [201] * 5 + [429]
    response = answer(client, view, 1, {"person": "Ana", "agrees": True})
    assert response.get_json()["error"]
    assert response.headers["Retry-After"]
