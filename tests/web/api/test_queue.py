"""Never two copies of a deal: every queued entry says the deal it takes and the state it
was made against (the table's revision and the entries queued before it); the entries endpoint
records it only while that deal is free, and refuses it otherwise with 409 and a reason the keeper
can read. Malformed bodies are refused with a reason; a reused Idempotency-Key with other fields
with 422, by the same check as /hands.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorer.engine import settle
from scorer.engine.tresillo import active_seats
from scorer.store.models import Table
from tests.web.conftest import sample_session

# Two hands played (dealers Ana, Benito): the next deal is the 3rd, Carmen deals it.
PLAYED: list[dict[str, Any]] = [
    {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 3, "4": 1}},
    {"pass": True},
]


def won(dealer: int, trump: str = "oros") -> dict[str, str]:
    """The hand form's fields of an entrada won 5-3-1 by the first seat that plays after ``dealer``."""
    a, b, _c = active_seats(4, dealer)
    return {"jugador": str(a), "lance": "entrada", "trump": trump, f"tricks_{a}": "5", f"tricks_{b}": "3"}


def as_hand(dealer: int, trump: str) -> dict[str, Any]:
    """The hand of ``won(dealer, trump)`` as the JSON API takes it (another phone, online)."""
    a, b, c = active_seats(4, dealer)
    return {"jugador": a, "lance": "entrada", "trump": trump, "tricks": {str(a): 5, str(b): 3, str(c): 1}}


def state(client: FlaskClient, token: str) -> dict[str, Any]:
    """What the phone knew when it went offline: the table's revision and its next deal."""
    session = client.get(f"/api/tables/{token}").get_json()
    revision = client.get(f"/t/{token}/estado").get_json()["revision"]
    return {"revision": revision, "deal": len(session["hands"]) + 1, "dealer": settle(session)["next_dealer"]}


def send(client: FlaskClient, token: str, key: str, body: dict[str, Any], language: str = "es") -> Any:
    return client.post(
        f"/api/tables/{token}/entries/form",
        json=body,
        headers={"Idempotency-Key": key, "Accept-Language": language},
    )


def ledger_hands(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    return list(client.get(f"/api/tables/{token}").get_json()["hands"])


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table(hands=PLAYED)


def test_two_phones_nothing_twice_nothing_lost_and_a_told(client: FlaskClient, table: Table) -> None:
    """Phone A queues 2 hands offline; phone B, online, enters a whole round (2 hands, 2 passes: the
    deal comes back to the seat A expected); A syncs: its entries are refused with the hand that took
    each deal, nothing is recorded twice, and A's entries, corrected onto the free deals, are saved."""
    token = table.edit_token
    known = state(client, token)
    assert known["deal"] == 3 and known["dealer"] == 3  # Carmen deals the 3rd
    first, second = won(3, "oros"), won(4, "copas")  # A's two hands, for the dealers it expected
    queue = [
        {"form": "hand", "fields": first, "deal": 3, "revision": known["revision"], "before": [], "dealer": 3},
        {"form": "hand", "fields": second, "deal": 4, "revision": known["revision"], "before": ["a1"], "dealer": 4},
    ]
    # B, online: the seat after Carmen wins an entrada of espadas, the next one of bastos, two passes
    for hand in (as_hand(3, "espadas"), as_hand(4, "bastos"), {"pass": True}, {"pass": True}):
        assert client.post(f"/api/tables/{token}/hands", json=hand).status_code == 201
    assert state(client, token)["dealer"] == 3  # the deal came back to the seat A expected
    before = ledger_hands(client, token)

    refused = send(client, token, "a1", queue[0])
    assert refused.status_code == 409
    answer = refused.get_json()
    taker = ["Ana", "Benito", "Carmen", "Diego"][int(first["jugador"]) - 1]
    assert answer["reason"].startswith(f"la mano 3 ya la anotó otro teléfono: {taker} · entrada")
    assert "espadas" in answer["reason"] or "♠" in answer["reason"]
    assert answer["taken"] == 3 and answer["error"].startswith("No se ha guardado: la mano 3 ya la anotó")
    later = send(client, token, "a2", queue[1])  # the next one of the queue: its deal is taken too
    assert later.status_code == 409 and later.get_json()["taken"] == 4
    assert ledger_hands(client, token) == before  # nothing twice: B's round as B entered it

    # nothing lost: A corrects its entries onto the deals still free (7 and 8), with the same keys
    now = state(client, token)
    fixed = {**queue[0], "deal": 7, "revision": now["revision"], "dealer": now["dealer"]}
    assert send(client, token, "a1", fixed).status_code == 201
    follow = {**queue[1], "deal": 8, "revision": now["revision"], "before": ["a1"]}
    saved = send(client, token, "a2", follow)
    assert saved.status_code == 201 and saved.get_json()["n"] == 8
    assert send(client, token, "a2", follow).get_json() == {"n": 8, "replayed": True, "revision": now["revision"] + 2}
    after = ledger_hands(client, token)
    assert after[:6] == before and len(after) == 8
    assert [h["trump"] for h in after[6:]] == ["oros", "copas"]


def test_the_reason_is_in_the_pages_language(client: FlaskClient, table: Table) -> None:
    token = table.edit_token
    known = state(client, token)
    assert client.post(f"/api/tables/{token}/hands", json={"pass": True}).status_code == 201
    body = {"form": "hand", "fields": won(3), "deal": 3, "revision": known["revision"], "before": []}
    english = send(client, token, "e1", body, "en").get_json()
    assert english["reason"].startswith("hand 3 was already written down by another phone: ")
    spanish = send(client, token, "e1", body, "es").get_json()
    assert spanish["reason"].startswith("la mano 3 ya la anotó otro teléfono: ")


def test_an_entry_follows_the_entries_queued_before_it(client: FlaskClient, table: Table) -> None:
    token = table.edit_token
    known = state(client, token)
    head = {"form": "pass", "fields": {}, "deal": 3, "revision": known["revision"], "before": []}
    nxt = {"form": "pass", "fields": {}, "deal": 4, "revision": known["revision"], "before": ["p1"]}
    waiting = send(client, token, "p2", nxt)  # its predecessor never arrived
    assert waiting.status_code == 409
    assert "la anotación anterior de la cola no está guardada" in waiting.get_json()["reason"]
    assert send(client, token, "p1", head).status_code == 201
    assert send(client, token, "p2", nxt).status_code == 201
    assert len(ledger_hands(client, token)) == 4


def test_a_change_elsewhere_in_between_is_refused(client: FlaskClient, table: Table) -> None:
    """Another phone edited hand 1 meanwhile: the deal is free but the state is not the one the entry
    was made against."""
    token = table.edit_token
    known = state(client, token)
    edited = {**PLAYED[0], "trump": "copas"}
    assert client.put(f"/api/tables/{token}/hands/1", json=edited).status_code == 200
    body = {"form": "hand", "fields": won(3), "deal": 3, "revision": known["revision"], "before": []}
    answer = send(client, token, "x1", body)
    assert answer.status_code == 409 and "alguien la cambió mientras tanto" in answer.get_json()["reason"]
    deleted = {**body, "revision": known["revision"] + 1, "deal": 3}
    assert client.delete(f"/api/tables/{token}/hands/2").status_code == 200
    gone = send(client, token, "x2", deleted)  # a hand deleted: the deal it was for is not the next one
    assert gone.status_code == 409 and "era para la mano 3 y ya va por la 2" in gone.get_json()["reason"]
    assert len(ledger_hands(client, token)) == 1


def test_a_key_reused_with_other_fields_is_refused_as_hands_does(client: FlaskClient, table: Table) -> None:
    token = table.edit_token
    known = state(client, token)
    body = {"form": "hand", "fields": won(3), "deal": 3, "revision": known["revision"], "before": []}
    assert send(client, token, "same", body).status_code == 201
    other = send(client, token, "same", {**body, "fields": won(3, "bastos")})
    assert other.status_code == 422
    assert "otra anotación" in other.get_json()["reason"]
    kind = send(client, token, "same", {**body, "form": "pass", "fields": {}})
    assert kind.status_code == 422
    # the hidden fields that say where it goes are no part of it: the same entry, resent
    again = send(client, token, "same", {**body, "fields": {**won(3), "deal": "3", "csrf_token": "x"}})
    assert again.status_code == 200 and again.get_json()["replayed"] is True
    # /hands refuses the same case with the same 422
    hand = {"pass": True}
    assert client.post(f"/api/tables/{token}/hands", json=hand, headers={"Idempotency-Key": "h"}).status_code == 201
    reused = client.post(f"/api/tables/{token}/hands", json=PLAYED[0], headers={"Idempotency-Key": "h"})
    assert reused.status_code == 422
    assert len(ledger_hands(client, token)) == 4


@pytest.mark.parametrize(
    "body",
    [
        {"form": ["hand"], "fields": {}},
        {"form": {"hand": 1}, "fields": {}},
        {"form": 3, "fields": {}},
        {"form": None, "fields": {}},
        {"form": "hand", "fields": None},
        {"form": "hand", "fields": [["jugador"]]},
        {"form": "hand", "fields": [[1, "2"]]},
        {"form": "hand", "fields": {"jugador": ["2", 2]}},
        {"form": "hand", "fields": {"jugador": {"a": 1}}},
        {"form": "pass", "fields": {}, "deal": "3"},
        {"form": "pass", "fields": {}, "deal": 0},
        {"form": "pass", "fields": {}, "deal": True},
        {"form": "pass", "fields": {}, "deal": 3.5},
        {"form": "pass", "fields": {}, "deal": 10**30},
        {"form": "pass", "fields": {}, "revision": -1},
        {"form": "pass", "fields": {}, "revision": "1"},
        {"form": "pass", "fields": {}, "before": "k"},
        {"form": "pass", "fields": {}, "before": [1]},
        {"form": "pass", "fields": {}, "before": [""]},
        {"form": "pass", "fields": {}, "before": ["x" * 101]},
        {"form": "pass", "fields": {}, "before": ["k"] * 501},
        {"form": "pass", "fields": {}, "before": {"k": 1}},
        {"form": "pass", "fields": {}, "dealer": [1]},
        {"form": "pass", "fields": {}, "after": ["k"]},
        "pass",
        None,
        [],
    ],
)
def test_malformed_bodies_are_refused_with_a_reason(client: FlaskClient, table: Table, body: Any) -> None:
    url = f"/api/tables/{table.edit_token}/entries/form"
    answer = client.post(url, data=json.dumps(body), content_type="application/json", headers={"Idempotency-Key": "m"})
    assert answer.status_code == 400
    assert answer.get_json()["error"]
    assert len(ledger_hands(client, table.edit_token)) == 2


def test_the_forms_kept_for_the_next_deals_carry_their_deal(client: FlaskClient, table: Table) -> None:
    token = table.edit_token
    known = state(client, token)
    for k in range(4):
        page = client.get(f"/t/{token}/mano/tras/{k}").get_data(as_text=True)
        deal = re.search(r'name="deal"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="deal"', page)
        revision = re.search(r'name="table_revision"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="table_revision"', page)
        assert deal is not None and revision is not None
        assert int(deal.group(1) or deal.group(2)) == known["deal"] + k
        assert int(revision.group(1) or revision.group(2)) == known["revision"]
        assert f"Mano {known['deal'] + k} ·" in page


def test_the_table_page_says_the_next_deal_for_the_queue(client: FlaskClient, table: Table) -> None:
    """The pass form on the table page carries the deal and the revision it is for (offline.js)."""
    page = client.get(f"/t/{table.edit_token}").get_data(as_text=True)
    known = state(client, table.edit_token)
    assert f'data-next-deal="{known["deal"]}"' in page
    assert f'data-table-revision="{known["revision"]}"' in page


def test_a_session_of_the_api_keeps_its_own_hands(client: FlaskClient) -> None:
    """A table made through the API (no fixture): its queue works the same."""
    token = client.post("/api/tables", json=sample_session(hands=[])).get_json()["edit_token"]
    body = {"form": "pass", "fields": {}, "deal": 1, "revision": state(client, token)["revision"], "before": []}
    assert send(client, token, "only", body).status_code == 201
    assert ledger_hands(client, token) == [{"pass": True, "dealer": 1}]


def test_the_table_page_keeps_the_turn_of_each_next_deal(client: FlaskClient, table: Table) -> None:
    """For the phone offline (static/offline.js): who deals and who plays each of the next deals, by
    the engine, in inert <template data-ahead="k">; only on the keeper's page."""
    page = client.get(f"/t/{table.edit_token}").get_data(as_text=True)
    session = sample_session(hands=PLAYED)
    found = re.findall(r'<template data-ahead="(\d)">(.*?)</template>', page, flags=re.S)
    assert [int(k) for k, _ in found] == [1, 2, 3]
    names = ["Ana", "Benito", "Carmen", "Diego"]
    for k, block in found:
        dealer = settle({**session, "hands": [*PLAYED, *[{"pass": True}] * int(k)]})["next_dealer"]
        assert f"Próxima mano: la {3 + int(k)}" in block
        assert re.search(rf'class="dealer"><bdi>{names[dealer - 1]}</bdi>', block)
        playing = re.findall(r"jugador=(\d)", block)
        assert [int(s) for s in playing] == list(active_seats(4, dealer))
    watcher = client.get(f"/t/{table.view_token}").get_data(as_text=True)
    assert "data-ahead" not in watcher and "data-next-deal" not in watcher
