"""Fuzzing the API and the forms: whatever arrives, the answer is never a 5xx.

The app runs with TESTING on, so an exception inside a view is raised here rather than turned
into a 500: both fail the test. Every table these examples make must still answer its pages.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import SAMPLE_HANDS, sample_session
from tests.web.tables.test_pages import new_table_form

FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# every character, lone surrogates, controls and bidi controls included (they travel as JSON escapes)
ANY_TEXT = st.text(st.characters(codec=None, categories=None), max_size=60) | st.sampled_from(
    ["\ud800", "a\x00b", "\u202eAna", "\x1b[31m", "9" * 5000, "1e300", "0,05", "", " "]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | ANY_TEXT
)
JSON = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4), max_leaves=12
)
HAND_KEYS = ["jugador", "lance", "trump", "tricks", "estuches", "contraestuches", "primeras", "bola", "rendida",
             "defensor", "note", "pass", "close", "dealer", "faltas", "capote"]  # fmt: skip
SESSION_KEYS = ["players", "rules", "first_dealer", "name", "place", "notes", "tanto_value", "currency", "date",
                "timezone", "keeper", "format", "extra"]  # fmt: skip
HANDS = st.dictionaries(st.sampled_from(HAND_KEYS), JSON, max_size=5).map(lambda h: {**SAMPLE_HANDS[0], **h})
FORM_TEXT = st.text(st.characters(codec="utf-8"), max_size=50) | st.sampled_from(["1e25", "9" * 5000, "-1", "²"])


def body(value: Any) -> str:
    return json.dumps(value)  # ensure_ascii: lone surrogates become "\ud800" escapes, as a hostile client sends


def no_5xx(response: Any) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)[:300]


@pytest.fixture
def tokens(client: FlaskClient) -> dict[str, str]:
    response = client.post("/api/tables", json=sample_session())
    assert response.status_code == 201
    return dict(response.get_json())


@FUZZ
@given(changes=st.dictionaries(st.sampled_from(SESSION_KEYS), JSON, max_size=3), hands=st.lists(HANDS, max_size=3))
def test_creating_a_table_never_answers_5xx(client: FlaskClient, changes: dict[str, Any], hands: list[Any]) -> None:
    session = sample_session(hands=hands)
    session.update(changes)
    response = client.post("/api/tables", data=body(session), content_type="application/json")
    no_5xx(response)
    assert response.is_json
    if response.status_code == 201:
        token = response.get_json()["edit_token"]
        for url in (f"/t/{token}", f"/api/tables/{token}/ledger", f"/tables/{token}/sheet", "/"):
            no_5xx(client.get(url))
    page = client.post("/importar", data={"text": body(session)})
    no_5xx(page)


@FUZZ
@given(hand=HANDS | JSON, key=st.none() | ANY_TEXT, if_match=st.none() | ANY_TEXT, n=st.integers(0, 2**64))
def test_writing_hands_never_answers_5xx(
    client: FlaskClient, tokens: dict[str, str], hand: Any, key: str | None, if_match: str | None, n: int
) -> None:
    edit = tokens["edit_token"]
    headers = {}
    if key is not None and key.isprintable() and key.isascii():
        headers["Idempotency-Key"] = key
    if if_match is not None and if_match.isprintable() and if_match.isascii():
        headers["If-Match"] = if_match
    url = f"/api/tables/{edit}/hands"
    no_5xx(client.post(url, data=body(hand), content_type="application/json", headers=headers))
    no_5xx(client.put(f"{url}/{n % 6}", data=body(hand), content_type="application/json", headers=headers))
    no_5xx(client.get(f"{url}/{n}"))
    no_5xx(client.post(f"/api/tables/{edit}/deleted/{n}", json={}))
    for url in (f"/t/{edit}", f"/api/tables/{edit}/deleted", f"/t/{edit}/mano/1", f"/api/tables/{edit}/ledger"):
        no_5xx(client.get(url))


@FUZZ
@given(fields=st.dictionaries(st.sampled_from(sorted(new_table_form())), FORM_TEXT, max_size=6))
def test_the_new_table_form_never_answers_5xx(client: FlaskClient, fields: dict[str, str]) -> None:
    response = client.post("/nueva", data=new_table_form(**fields))
    no_5xx(response)
    if response.status_code == 302:
        no_5xx(client.get(response.headers["Location"]))
    no_5xx(client.get("/"))


HAND_FIELDS = ["jugador", "lance", "trump", "tricks_1", "tricks_2", "tricks_3", "tricks_4", "estuches",
               "estuches_mas", "contraestuches", "contraestuches_mas", "primeras", "bola", "rendida", "defensor",
               "request_id", "revision", "preview", "save"]  # fmt: skip


@FUZZ
@given(fields=st.dictionaries(st.sampled_from(HAND_FIELDS), FORM_TEXT, max_size=8))
def test_the_hand_forms_never_answer_5xx(
    app: Flask, client: FlaskClient, tokens: dict[str, str], fields: dict[str, str]
) -> None:
    edit = tokens["edit_token"]
    no_5xx(client.post(f"/t/{edit}/mano", data=fields))
    no_5xx(client.post(f"/t/{edit}/mano/1/editar", data=fields))
    no_5xx(client.post(f"/t/{edit}/pasan", data={"request_id": fields.get("request_id", "")}))
    no_5xx(client.get(f"/t/{edit}"))


EVENT_FIELDS = ["payer", "to", "amount", "reason", "note", "seat", "player", "new_name", "request_id", "revision",
                "preview", "save", "confirm", "how"]  # fmt: skip


@FUZZ
@given(fields=st.dictionaries(st.sampled_from(EVENT_FIELDS), FORM_TEXT, max_size=8), n=st.integers(0, 2**64))
def test_the_evening_forms_never_answer_5xx(
    client: FlaskClient, tokens: dict[str, str], fields: dict[str, str], n: int
) -> None:
    edit = tokens["edit_token"]
    for url in (f"/t/{edit}/ajuste", f"/t/{edit}/cambio", f"/t/{edit}/ajuste/{n}", f"/t/{edit}/cambio/{n % 5}"):
        no_5xx(client.post(url, data=fields))
    no_5xx(client.get(f"/t/{edit}"))
