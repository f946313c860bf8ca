"""Hostile but well-formed JSON bodies (scorer/web/common/strict_json.py): a key repeated in any object of
any body of the API, or a top-level key a body of that shape does not have, is refused with 422
naming the key, and nothing is saved. A session file keeps unknown top-level keys (docs/format.md:
an imported file's extra keys are kept), never a repeated one; a hand's unknown keys are the
engine's to refuse (400, as every impossible hand)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorer.store.models import Table
from tests.web.conftest import sample_session

FIELDS = {"jugador": "2", "lance": "entrada", "trump": "oros", "tricks_2": "5", "tricks_3": "3"}


@pytest.fixture
def empty(make_table: Callable[..., Table]) -> Table:
    return make_table(hands=[])


def raw_post(client: FlaskClient, url: str, text: str, method: str = "post", **headers: str) -> Any:
    return getattr(client, method)(url, data=text.encode("utf-8"), content_type="application/json", headers=headers)


def hands(client: FlaskClient, token: str) -> list[Any]:
    return list(client.get(f"/api/tables/{token}").get_json()["hands"])


def test_a_form_entry_with_an_unknown_top_level_key_is_refused(client: FlaskClient, empty: Table) -> None:
    url = f"/api/tables/{empty.edit_token}/entries/form"
    body = {"form": "hand", "fields": FIELDS, "deal": 1, "fieldz": {"jugador": "3"}}
    answer = client.post(url, json=body, headers={"Idempotency-Key": "k1"})
    assert answer.status_code == 422
    said = answer.get_json()
    assert said["error"].startswith("unknown key 'fieldz': an entry has form, fields, after, dealer, deal,")
    assert said["reason"] == said["error"]  # the queue shows it under "no se ha guardado"
    assert hands(client, empty.edit_token) == []
    del body["fieldz"]
    assert client.post(url, json=body, headers={"Idempotency-Key": "k1"}).status_code == 201  # the key is free


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"form": "hand", "form": "pass", "fields": %s}', "form"),
        ('{"form": "hand", "fields": {"jugador": "2", "jugador": "3", "lance": "entrada"}}', "jugador"),
        ('{"form": "hand", "fields": %s, "fields": {}}', "fields"),
    ],
)
def test_a_form_entry_with_a_repeated_field_is_refused(client: FlaskClient, empty: Table, text: str, key: str) -> None:
    body = text % json.dumps(FIELDS) if "%s" in text else text
    answer = raw_post(client, f"/api/tables/{empty.edit_token}/entries/form", body, **{"Idempotency-Key": "k1"})
    assert answer.status_code == 422
    assert answer.get_json()["error"] == f"repeated key {key!r}: each key is sent once"
    assert hands(client, empty.edit_token) == []


def test_a_hand_with_a_repeated_key_is_refused_not_read_by_its_last_value(client: FlaskClient, empty: Table) -> None:
    text = '{"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 3, "4": 1}, "jugador": 3}'
    answer = raw_post(client, f"/api/tables/{empty.edit_token}/hands", text)
    assert answer.status_code == 422
    assert answer.get_json() == {"error": "repeated key 'jugador': each key is sent once"}
    nested = '{"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 3, "4": 1, "2": 6}}'
    assert raw_post(client, f"/api/tables/{empty.edit_token}/hands", nested).get_json()["error"] == (
        "repeated key '2': each key is sent once"
    )
    assert hands(client, empty.edit_token) == []
    changed = raw_post(client, f"/api/tables/{empty.edit_token}/hands/1", text, method="put")
    assert changed.status_code in (404, 422)  # no hand 1 yet: either refusal, nothing saved
    unknown = client.post(f"/api/tables/{empty.edit_token}/hands", json={"pass": True, "paso": True})
    assert unknown.status_code == 400 and "unknown key 'paso'" in unknown.get_json()["error"]  # the engine's


def test_a_session_with_a_repeated_key_is_refused_and_its_extra_keys_are_kept(client: FlaskClient) -> None:
    session = sample_session()
    text = json.dumps(session)[:-1] + ', "name": "Otra"}'
    answer = raw_post(client, "/api/tables", text)
    assert answer.status_code == 422
    assert answer.get_json() == {"error": "session: repeated key 'name': each key is sent once"}
    kept = client.post("/api/tables", json={**session, "club": "Casino"})  # docs/format.md: kept as it is
    assert kept.status_code == 201
    assert client.get(f"/api/tables/{kept.get_json()['view_token']}").get_json()["club"] == "Casino"


def test_an_answer_with_a_repeated_or_unknown_key_is_refused(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    table = make_table()
    url = f"/api/tables/{table.view_token}/hands/1/answers"
    twice = raw_post(client, url, '{"person": "Ana", "agrees": true, "person": "Benito"}')
    assert twice.status_code == 422
    assert twice.get_json() == {"error": "repeated key 'person': each key is sent once"}
    unknown = client.post(url, json={"person": "Ana", "agrees": True, "mood": "good"})
    assert unknown.status_code == 422
    assert unknown.get_json() == {"error": "unknown key 'mood': an answer has person, agrees and note"}
    assert client.get(f"/api/tables/{table.view_token}/hands/1").get_json()["answers"] == []


def test_the_penas_bodies_are_as_strict(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    refused = client.post("/api/penas", json={"name": "Peña", "people": ["Ana"], "owner": "Ana"})
    assert refused.status_code == 422
    assert refused.get_json() == {"error": "unknown key 'owner': a peña has name and people"}
    twice = raw_post(client, "/api/penas", '{"name": "Peña", "name": "Otra"}')
    assert twice.status_code == 422 and "repeated key 'name'" in twice.get_json()["error"]
    made = client.post("/api/penas", json={"name": "Peña", "people": ["Ana"]}).get_json()
    token, ana = made["edit_token"], made["people"][0]["id"]
    person = client.post(f"/api/penas/{token}/people", json={"name": "Zoe", "alias": "Z"})
    assert person.status_code == 422 and "unknown key 'alias': a person has name and nickname" in person.text
    renamed = client.put(f"/api/penas/{token}/people/{ana}", json={"name": "Ana M.", "apodo": "x"})
    assert renamed.status_code == 422 and "unknown key 'apodo'" in renamed.text
    table = make_table()
    attach = client.post(f"/api/penas/{token}/tables", json={"table": table.edit_token, "seats": {}})
    assert attach.status_code == 422 and "unknown key 'seats': an attachment has table, session and people" in (
        attach.text
    )
    after = client.get(f"/api/penas/{token}").get_json()
    assert [p["name"] for p in after["people"]] == ["Ana"] and after["tables"] == []


def test_a_long_key_is_named_short(client: FlaskClient, empty: Table) -> None:
    body = {"form": "hand", "fields": FIELDS, "x" * 5000: 1}
    answer = client.post(f"/api/tables/{empty.edit_token}/entries/form", json=body, headers={"Idempotency-Key": "k"})
    assert answer.status_code == 422
    assert answer.get_json()["error"].startswith("unknown key '" + "x" * 40 + "…'")
    assert len(answer.get_json()["error"]) < 200
