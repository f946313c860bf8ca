"""Behaviours pinned before the web app was split into blueprints.

Each of these went unnoticed when a small bug was seeded in it, and a move of the code could break
it silently: they go through the URLs (which the move keeps) and say the exact outcome.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.store.db import db
from scorer.store.models import Hand, Table
from tests.web.conftest import PLAYERS, sample_session

ENTRADA = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 3, "4": 1}}


def create(client: FlaskClient, session: dict[str, Any]) -> str:
    answer = client.post("/api/tables", json=session)
    assert answer.status_code == 201, answer.get_json()
    return str(answer.get_json()["edit_token"])


def stored_hands(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/tables/{token}").get_json()["hands"])


def hand_rows(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Hand).count()


def test_editing_a_hand_with_a_corrected_dealer_keeps_that_dealer(client: FlaskClient) -> None:
    """Hand 2 was dealt by Diego (4) where the rotation gives Benito (2): a body without a dealer keeps 4."""
    token = create(client, sample_session(hands=[ENTRADA, {"pass": True, "dealer": 4}]))
    assert [h["dealer"] for h in stored_hands(client, token)] == [1, 4]
    answer = client.put(
        f"/api/tables/{token}/hands/2", json={**ENTRADA, "jugador": 3, "tricks": {"3": 5, "1": 3, "2": 1}}
    )
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["hand"]["dealer"] == 4
    assert stored_hands(client, token)[1]["dealer"] == 4


@pytest.mark.parametrize("bad", ["Ana\tMaría", "Ana\nMaría"], ids=["tab", "newline"])
@pytest.mark.parametrize("key", ["name", "place", "player"])
def test_a_control_character_in_single_line_text_is_refused(
    app: Flask, client: FlaskClient, key: str, bad: str
) -> None:
    session = sample_session(hands=[])
    if key == "player":
        session["players"] = [bad, *PLAYERS[1:]]
    else:
        session[key] = bad
    answer = client.post("/api/tables", json=session)
    assert answer.status_code == 400, answer.get_json()
    assert "control" in answer.get_json()["error"]
    page = client.post("/importar", data={"text": json.dumps(session)})
    assert page.status_code == 400
    with app.app_context():
        assert db.session.query(Table).count() == 0


def test_a_queued_entry_after_another_is_still_checked_against_its_dealer(client: FlaskClient) -> None:
    """A pass queued for dealer 1, then a hand form made after it for dealer 4: 409 naming the dealers."""
    token = create(client, sample_session(hands=[]))
    url = f"/api/tables/{token}/entries/form"
    first = client.post(url, json={"form": "pass", "fields": {}, "dealer": 1}, headers={"Idempotency-Key": "k1"})
    assert first.status_code == 201, first.get_json()
    fields = {"jugador": "3", "lance": "entrada", "trump": "copas", "tricks_3": "6", "tricks_4": "2"}
    late = client.post(
        url, json={"form": "hand", "fields": fields, "after": "k1", "dealer": 4}, headers={"Idempotency-Key": "k2"}
    )
    assert late.status_code == 409, late.get_json()
    assert "se anotó para cuando daba Diego, y ahora da Benito" in late.get_json()["error"]
    assert stored_hands(client, token) == [{"pass": True, "dealer": 1}]


def test_the_idempotency_key_is_bound_to_the_bodys_hash(app: Flask, client: FlaskClient) -> None:
    """The same key: the same body in any key order is a replay; another body is 422; nothing else saved."""
    token = create(client, sample_session(hands=[]))
    url = f"/api/tables/{token}/hands"
    first = client.post(url, json=ENTRADA, headers={"Idempotency-Key": "k"})
    assert first.status_code == 201
    reordered = {key: ENTRADA[key] for key in reversed(list(ENTRADA))}
    reordered["tricks"] = {"4": 1, "3": 3, "2": 5}
    again = client.post(url, json=reordered, headers={"Idempotency-Key": "k"})
    assert again.get_json()["n"] == first.get_json()["n"] == 1
    for other in ({**ENTRADA, "trump": "copas"}, {**ENTRADA, "tricks": {"2": 5, "3": 2, "4": 2}}):
        refused = client.post(url, json=other, headers={"Idempotency-Key": "k"})
        assert refused.status_code == 422, refused.get_json()
        assert "Idempotency-Key" in refused.get_json()["error"]
    assert hand_rows(app) == 1
