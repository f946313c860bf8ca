"""The JSON API of shared/api.md, through the test client."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorer import store
from tests.conftest import example_sessions, load_json
from tests.web.conftest import BANDOS_FAULT, sample_session
from tests.web.conftest import api_ledger as ledger
from tests.web.conftest import api_session as stored

ENTRADA_1 = {"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 5, "2": 2, "3": 2}}


def scorer_settle(session: dict[str, Any]) -> dict[str, Any]:
    """The ledger printed by the command line ``scorer settle -``."""
    done = subprocess.run(
        [sys.executable, "-m", "scorer", "settle", "-"],
        input=json.dumps(session),
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout))


def create(client: FlaskClient, session: dict[str, Any] | None = None) -> dict[str, str]:
    response = client.post("/api/tables", json=sample_session() if session is None else session)
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


@pytest.fixture
def tokens(client: FlaskClient) -> dict[str, str]:
    return create(client)


# ------------------------------------------------------------------ tables


def test_create_answers_tokens_and_page_urls(client: FlaskClient) -> None:
    answer = create(client)
    assert set(answer) == {"edit_token", "view_token", "edit_url", "view_url"}
    assert answer["edit_token"] != answer["view_token"]
    assert len(answer["edit_token"]) >= 22 and len(answer["view_token"]) >= 22
    assert answer["edit_url"] == f"http://localhost/t/{answer['edit_token']}"
    assert answer["view_url"] == f"http://localhost/t/{answer['view_token']}"
    assert client.get(answer["edit_url"]).status_code == 200


def test_get_table_is_the_session_as_stored(client: FlaskClient, tokens: dict[str, str]) -> None:
    session = sample_session()
    for token in (tokens["edit_token"], tokens["view_token"]):
        got = stored(client, token)
        assert list(got) == list(session)  # app keys kept, in their order
        assert {k: v for k, v in got.items() if k != "hands"} == {k: v for k, v in session.items() if k != "hands"}
        assert [h["dealer"] for h in got["hands"]] == [1, 2, 3]


@pytest.mark.parametrize("path", example_sessions(), ids=lambda p: p.stem)
def test_ledger_equals_scorer_settle(client: FlaskClient, path: Any) -> None:
    answer = create(client, load_json(path))
    for token in (answer["edit_token"], answer["view_token"]):
        assert ledger(client, token) == scorer_settle(stored(client, token))
    expected = load_json(path.with_suffix(".ledger.json"))
    got = ledger(client, answer["view_token"])
    for key in ("dealer", "result", "balances", "plato", "cartulina"):
        assert [h.get(key) for h in got["hands"]] == [h.get(key) for h in expected["hands"]]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"format": "tresillo-session/1", "players": ["Ana"]}, "session: tresillo needs 3 or 4 players, not 1"),
        (sample_session(rules={"dealer_stake": -5}), "session: rule dealer_stake must be at least 0, not -5 (R5)"),
        (sample_session(hands=[{"pass": True}, {"pass": False}]), "hand 2: pass must be true, not False"),
        ([], "session: the session must be a JSON object"),
    ],
)
def test_create_invalid_saves_nothing(client: FlaskClient, body: Any, error: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert response.get_json() == {"error": error}

    with client.application.app_context():
        assert store.list_tables() == []


def test_create_needs_json(client: FlaskClient) -> None:
    body = json.dumps(sample_session())
    response = client.post("/api/tables", data=body, content_type="text/plain")
    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]
    response = client.post("/api/tables", data={"format": "tresillo-session/1"})  # an HTML form
    assert response.status_code == 415


@pytest.mark.parametrize("body", ["{", '{"players": NaN}', "", "[1,"])
def test_create_bad_json_is_400(client: FlaskClient, body: str) -> None:
    response = client.post("/api/tables", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("session: not valid JSON")


@pytest.mark.parametrize("path", ["/api/tables/nope", "/api/tables/nope/ledger", "/api/tables/" + "A" * 32])
def test_unknown_token_is_404(client: FlaskClient, tokens: dict[str, str], path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "error" in response.get_json()


def test_api_answers_carry_security_headers(client: FlaskClient, tokens: dict[str, str]) -> None:
    response = client.get(f"/api/tables/{tokens['view_token']}")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.mimetype == "application/json"


# ------------------------------------------------------------------- hands


def test_add_hand(client: FlaskClient, tokens: dict[str, str]) -> None:
    response = client.post(f"/api/tables/{tokens['edit_token']}/hands", json=ENTRADA_1)
    assert response.status_code == 201
    answer = response.get_json()
    assert answer["n"] == 4
    full = ledger(client, tokens["edit_token"])
    assert answer["hand"] == full["hands"][3]
    assert answer["hand"]["dealer"] == 4 and answer["hand"]["result"] == "ganada"
    assert stored(client, tokens["view_token"])["hands"][3] == ENTRADA_1 | {"dealer": 4}
    assert full == scorer_settle(stored(client, tokens["view_token"]))


@pytest.mark.parametrize(
    ("hand", "error"),
    [
        ({"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 4, "2": 4, "3": 0}},
         "hand 4: tricks 4-4-0 do not decide the hand (R10)"),
        ({"jugador": 4, "lance": "entrada", "trump": "oros", "tricks": {"1": 5, "2": 2, "3": 2}},
         "hand 4: jugador 4 is the alcalde (dealer) and does not play"),
        ({"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 5, "2": 2, "4": 2}},
         "hand 4: tricks names seat '4', which is not active (active: 1, 2, 3)"),
        ({"pass": True, "bazas": 3}, "hand 4: unknown key 'bazas' in a passed hand"),
        ([1], "a hand must be an object, not list"),  # about no session
    ],
)  # fmt: skip
def test_add_invalid_hand_is_400_and_saves_nothing(
    client: FlaskClient, tokens: dict[str, str], hand: Any, error: str
) -> None:
    before = stored(client, tokens["edit_token"])
    response = client.post(f"/api/tables/{tokens['edit_token']}/hands", json=hand)
    assert response.status_code == 400
    assert response.get_json() == {"error": error}
    assert stored(client, tokens["edit_token"]) == before


def test_writes_with_the_view_token_are_403(client: FlaskClient, tokens: dict[str, str]) -> None:
    view = tokens["view_token"]
    before = stored(client, view)
    answers = [
        client.post(f"/api/tables/{view}/hands", json={"pass": True}),
        client.put(f"/api/tables/{view}/hands/1", json={"pass": True}),
        client.delete(f"/api/tables/{view}/hands/1"),
        client.post(f"/api/tables/{view}/deleted/1", json={}),
    ]
    assert [a.status_code for a in answers] == [403] * 4
    assert all("error" in a.get_json() for a in answers)
    assert stored(client, view) == before


def test_writes_with_an_unknown_token_are_404(client: FlaskClient, tokens: dict[str, str]) -> None:
    answers = [
        client.post("/api/tables/nope/hands", json={"pass": True}),
        client.put("/api/tables/nope/hands/1", json={"pass": True}),
        client.delete("/api/tables/nope/hands/1"),
    ]
    assert [a.status_code for a in answers] == [404] * 3


def test_hand_writes_need_json(client: FlaskClient, tokens: dict[str, str]) -> None:
    edit = tokens["edit_token"]
    before = stored(client, edit)
    answers = [
        client.post(f"/api/tables/{edit}/hands", data={"pass": "true"}),
        client.post(f"/api/tables/{edit}/hands", data='{"pass": true}', content_type="text/plain"),
        client.put(f"/api/tables/{edit}/hands/2", data='{"pass": true}', content_type="text/plain"),
    ]
    assert [a.status_code for a in answers] == [415] * 3
    assert stored(client, edit) == before


def test_double_submit_with_idempotency_key(client: FlaskClient, tokens: dict[str, str]) -> None:
    url = f"/api/tables/{tokens['edit_token']}/hands"
    headers = {"Idempotency-Key": "a1b2c3"}
    first = client.post(url, json=ENTRADA_1, headers=headers)
    second = client.post(url, json=ENTRADA_1, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.get_json() == second.get_json()
    assert len(stored(client, tokens["edit_token"])["hands"]) == 4
    third = client.post(url, json={"pass": True}, headers={"Idempotency-Key": "other"})
    assert third.get_json()["n"] == 5


def test_replace_hand_resettles_later_hands(client: FlaskClient, tokens: dict[str, str]) -> None:
    edit = tokens["edit_token"]
    before = ledger(client, edit)
    solo = {"jugador": 2, "lance": "solo", "trump": "bastos", "tricks": {"2": 6, "3": 2, "4": 1}}
    response = client.put(f"/api/tables/{edit}/hands/1", json=solo)
    assert response.status_code == 200
    assert response.get_json()["hand"]["n"] == 1 and response.get_json()["hand"]["dealer"] == 1
    session = stored(client, edit)
    assert session["hands"][0] == solo | {"dealer": 1}
    after = ledger(client, edit)
    assert after == scorer_settle(session)
    assert after["hands"][2]["balances"] != before["hands"][2]["balances"]
    assert response.get_json()["hand"] == after["hands"][0]


def test_replace_refused_when_a_later_hand_breaks(client: FlaskClient, tokens: dict[str, str]) -> None:
    edit = tokens["edit_token"]
    before = stored(client, edit)
    response = client.put(f"/api/tables/{edit}/hands/1", json={"close": "devolver"})
    assert response.status_code == 400
    assert response.get_json() == {"error": "hand 2: no hand may follow the closing (R30) (after the change to hand 1)"}
    assert stored(client, edit) == before


def test_replace_with_stale_revision_is_409(client: FlaskClient, tokens: dict[str, str]) -> None:
    url = f"/api/tables/{tokens['edit_token']}/hands/2"
    first = client.put(url, json={"pass": True}, headers={"If-Match": '"1"'})
    assert first.status_code == 200
    assert first.headers["ETag"] == '"2"'
    second = client.put(
        url, json=ENTRADA_1 | {"jugador": 3, "tricks": {"3": 5, "4": 2, "1": 2}}, headers={"If-Match": '"1"'}
    )
    assert second.status_code == 409
    assert stored(client, tokens["edit_token"])["hands"][1] == {"pass": True, "dealer": 2}
    bad = client.put(url, json={"pass": True}, headers={"If-Match": "yesterday"})
    assert bad.status_code == 400


@pytest.mark.parametrize("n", [0, 4, 99])
def test_unknown_hand_is_404(client: FlaskClient, tokens: dict[str, str], n: int) -> None:
    edit = tokens["edit_token"]
    assert client.put(f"/api/tables/{edit}/hands/{n}", json={"pass": True}).status_code == 404
    assert client.delete(f"/api/tables/{edit}/hands/{n}").status_code == 404


def test_delete_and_restore(client: FlaskClient, tokens: dict[str, str]) -> None:
    edit = tokens["edit_token"]
    full = ledger(client, edit)
    session = stored(client, edit)
    response = client.delete(f"/api/tables/{edit}/hands/1")
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["deleted"] == 1
    (restorable,) = answer["restorable"]
    assert restorable["n"] == 1 and restorable["hand"] == session["hands"][0]
    after = stored(client, edit)
    assert after["hands"] == session["hands"][1:]  # the later hands keep their dealers
    assert ledger(client, edit) == scorer_settle(after)
    listed = client.get(f"/api/tables/{tokens['view_token']}/deleted").get_json()
    assert listed == {"deleted": [restorable]}

    response = client.post(f"/api/tables/{edit}/deleted/{restorable['hand_id']}", json={})
    assert response.status_code == 200
    assert response.get_json()["n"] == 1
    assert stored(client, edit) == session
    assert ledger(client, edit) == full
    again = client.post(f"/api/tables/{edit}/deleted/{restorable['hand_id']}", json={})
    assert again.status_code == 404


def test_delete_refused_when_a_later_hand_breaks(client: FlaskClient) -> None:
    edit = create(client, copy.deepcopy(BANDOS_FAULT))["edit_token"]
    before = stored(client, edit)
    response = client.delete(f"/api/tables/{edit}/hands/2")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("hand 4: the game is over: team A won (B4)")
    assert stored(client, edit) == before


def test_closed_table_refuses_writes(client: FlaskClient, tokens: dict[str, str]) -> None:
    edit = tokens["edit_token"]
    assert client.post(f"/api/tables/{edit}/hands", json={"close": "devolver"}).status_code == 201
    assert ledger(client, edit)["hands"][-1]["result"] == "cierre"
    assert client.post(f"/api/tables/{edit}/hands", json={"pass": True}).status_code == 403
    assert client.delete(f"/api/tables/{edit}/hands/1").status_code == 403


def test_export_and_import_give_the_same_ledger(client: FlaskClient, tokens: dict[str, str]) -> None:
    edit = tokens["edit_token"]
    client.post(f"/api/tables/{edit}/hands", json=ENTRADA_1)
    client.delete(f"/api/tables/{edit}/hands/2")
    copy_tokens = create(client, stored(client, edit))
    assert stored(client, copy_tokens["edit_token"]) == stored(client, edit)
    assert ledger(client, copy_tokens["view_token"]) == ledger(client, edit)


def test_api_needs_no_csrf_token(make_app: Any) -> None:
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    answer = create(client)
    response = client.post(f"/api/tables/{answer['edit_token']}/hands", json={"pass": True})
    assert response.status_code == 201
