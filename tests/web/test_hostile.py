"""Hostile but well-formed input never breaks a table (D1–D5, D7, D8 and the minor points).

Every refusal is a 4xx with a clear message, nothing is saved, and the table keeps answering.
The numbers are those of scorer/limits.py (docs/limits.md), written out here on purpose.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import store
from scorer.store.db import db
from scorer.store.models import Hand, HandEvent, Table
from scorer.web.common import messages
from tests.web.conftest import SAMPLE_HANDS, sample_session
from tests.web.tables.test_pages import hand_data, new_table_form

# the next hand of the sample session (hand 4, dealt by seat 4) and its first hand (dealt by seat 1)
ENTRADA = {"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 5, "2": 2, "3": 2}}
FIRST = SAMPLE_HANDS[0]
RLO, NUL, ESC = "\u202e", "\x00", "\x1b"


def post_json(client: FlaskClient, url: str, body: Any, **headers: str) -> Any:
    """A JSON body written by hand: lone surrogates travel as JSON escapes (``"\\ud800"``)."""
    return client.post(url, data=json.dumps(body), content_type="application/json", headers=headers)


def create(client: FlaskClient, **keys: Any) -> dict[str, str]:
    response = post_json(client, "/api/tables", sample_session(**keys))
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def table_count(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Table).count()


def hand_count(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Hand).count()


def import_text(client: FlaskClient, text: str) -> Any:
    return client.post("/importar", data={"text": text})


def refused(app: Flask, response: Any, words: str, tables_before: int = 0) -> str:
    """A 400 that names what is wrong, with nothing saved."""
    assert response.status_code == 400, response.get_data(as_text=True)[:300]
    body = response.get_json() if response.is_json else None
    message = body["error"] if body else response.get_data(as_text=True)
    assert words in message, message[:500]
    assert table_count(app) == tables_before
    return str(message)


def deep(levels: int) -> Any:
    value: Any = "fondo"
    for _ in range(levels):
        value = {"a": value}
    return value


def with_deep_key(levels: int) -> str:
    """A session file whose app key "extra" is nested ``levels`` deep (written as text: json.dumps would recurse)."""
    text = json.dumps(sample_session(extra="HERE"))
    return text.replace('"HERE"', '{"a":' * levels + "1" + "}" * levels)


# ----------------------------------------------------------------------- D1: long names


@pytest.mark.parametrize("length", [41, 1_000, 10_000])
def test_d1_long_names_are_refused_by_the_api_and_import(app: Flask, client: FlaskClient, length: int) -> None:
    players = ["A" * length, "Benito", "Carmen", "Diego"]
    response = post_json(client, "/api/tables", sample_session(players=players))
    refused(app, response, "session: the name of player 1 is longer than 40 characters")
    page = import_text(client, json.dumps(sample_session(players=players)))
    refused(app, page, "El nombre del asiento 1 tiene más de 40 caracteres")


def test_d1_forty_characters_are_fine(client: FlaskClient) -> None:
    create(client, players=["Á" * 40, "Benito", "Carmen", "Diego"], place="P" * 80, name="N" * 80)


def test_d1_place_and_table_name_have_their_limits(app: Flask, client: FlaskClient) -> None:
    refused(app, post_json(client, "/api/tables", sample_session(place="P" * 81)), "place is longer than 80")
    refused(app, post_json(client, "/api/tables", sample_session(name="N" * 81)), "name is longer than 80")
    refused(app, client.post("/nueva", data=new_table_form(place="P" * 81)), "Como mucho 80 caracteres")


@pytest.mark.parametrize("app_config", [{"WTF_CSRF_ENABLED": False, "SHEET_PDF_TIMEOUT": 0.001}])
def test_d1_a_pdf_over_its_time_budget_answers_503_in_spanish(client: FlaskClient) -> None:
    tokens = create(client)
    response = client.get(f"/tables/{tokens['view_token']}/sheet.pdf")
    assert response.status_code == 503
    assert "tarda demasiado" in response.get_data(as_text=True)
    assert response.headers["Retry-After"]
    assert client.get("/").status_code == 200  # the worker is free again


def test_d1_the_pdf_within_its_budget_is_a_pdf(client: FlaskClient) -> None:
    tokens = create(client, players=["Ñ" * 40, "B" * 40, "C" * 40, "D" * 40])
    response = client.get(f"/tables/{tokens['view_token']}/sheet.pdf")
    assert response.status_code == 200
    assert response.data.startswith(b"%PDF")


# ------------------------------------------------------------------- D2: surrogates


def test_d2_a_lone_surrogate_is_refused_in_names_and_notes(app: Flask, client: FlaskClient) -> None:
    response = post_json(client, "/api/tables", sample_session(players=["\ud800", "Benito", "Carmen", "Diego"]))
    refused(app, response, "the name of player 1 contains a lone surrogate U+D800")
    response = post_json(client, "/api/tables", sample_session(notes="ok \udfff"))
    refused(app, response, "notes contains a lone surrogate")
    tokens = create(client)
    url = f"/api/tables/{tokens['edit_token']}/hands"
    before = hand_count(app)
    response = post_json(client, url, {**ENTRADA, "note": "mal \ud800"})
    assert response.status_code == 400
    assert response.get_json()["error"] == "note contains a lone surrogate U+D800"
    assert hand_count(app) == before
    assert client.get(f"/t/{tokens['edit_token']}").status_code == 200


def _stored_behind_the_limits(app: Flask, name: str) -> str:
    """A table written straight into the database, as one stored before the limits could be."""
    with app.app_context():
        table = store.create_table(sample_session())
        header = dict(table.header)
        header["players"] = [name, "Benito", "Carmen", "Diego"]
        table.header = header
        db.session.commit()
        return str(table.edit_token)


def test_d2_a_surrogate_stored_earlier_never_breaks_home_or_new(app: Flask, client: FlaskClient) -> None:
    token = _stored_behind_the_limits(app, "Ana\ud800")
    assert client.get(f"/t/{token}").status_code == 200  # remembers the table in the cookie
    for url in ("/", "/nueva", f"/t/{token}", f"/tables/{token}/sheet", f"/api/tables/{token}"):
        response = client.get(url)
        assert response.status_code == 200, url
    assert "Ana\ufffd" in client.get("/").get_data(as_text=True)


def test_d2_d4_d8_every_page_of_a_table_stored_before_the_limits_answers(app: Flask, client: FlaskClient) -> None:
    """Surrogates, controls, bidi overrides and long texts already in the database: shown replaced, never a 500."""
    with app.app_context():
        session = sample_session()
        session["hands"].append({"ajuste": {"from": 2, "to": "plato", "amount": 10}, "note": "renuncio"})
        table = store.create_table(session)
        token = str(table.edit_token)
        for hand in db.session.query(Hand).filter_by(table_id=table.id):
            hand.data = {**hand.data, "note": f"mala \ud800 {ESC}[31m {RLO} nota " + "y" * 3_000}
        header = dict(table.header)
        header["players"] = ["Ana\ud800" + "z" * 2_000, f"Benito{RLO}", f"Carmen{NUL}", "Diego"]
        header["notes"] = "n\udfff" * 3_000
        header["tanto_value"] = "1e25"  # D4: once a balance moved, every page failed on it
        table.header = header
        table.revision += 1
        db.session.commit()
    store.cache.states.clear()  # as a fresh process would: settled again from what is stored
    urls = ["", "/mano/1", "/mano/4", "/mano/1/editar", "/ajuste/4", "/estado", "/exportar.json", "/exportar.csv"]
    for url in [*(f"/t/{token}{u}" for u in urls), f"/tables/{token}/sheet", f"/tables/{token}/sheet.pdf", "/"]:
        response = client.get(url)
        assert response.status_code == 200, url
    sheet = client.get(f"/tables/{token}/sheet").get_data(as_text=True)
    assert "Ana\ufffd" in sheet and "\u202e" not in sheet and "\x00" not in sheet


def test_d2_junk_in_the_remembered_tables_cookie_is_ignored(client: FlaskClient) -> None:
    tokens = create(client)
    with client.session_transaction() as browser:
        # (a signed cookie cannot even hold a lone surrogate: itsdangerous refuses to encode one)
        browser["tables"] = ["x" * 5_000, 7, None, {"a": 1}, "bad token!", "ñ" * 10, tokens["edit_token"]]
    assert client.get("/").status_code == 200
    assert client.get("/nueva").status_code == 200
    assert "Partida de prueba" in client.get("/").get_data(as_text=True)


# ---------------------------------------------------------------- D3: nested notes


@pytest.mark.parametrize("note", [deep(2), deep(600), ["a"], 5])
def test_d3_a_note_must_be_a_plain_string(app: Flask, client: FlaskClient, note: Any) -> None:
    tokens = create(client)
    before = hand_count(app)
    response = post_json(client, f"/api/tables/{tokens['edit_token']}/hands", {**ENTRADA, "note": note})
    assert response.status_code == 400
    assert "note must be a string" in response.get_json()["error"] or "nested" in response.get_json()["error"]
    assert hand_count(app) == before
    for url in (f"/t/{tokens['edit_token']}", f"/api/tables/{tokens['edit_token']}/deleted"):
        assert client.get(url).status_code == 200


def test_d3_notes_of_500_characters_are_kept_and_longer_ones_refused(app: Flask, client: FlaskClient) -> None:
    tokens = create(client)
    url = f"/api/tables/{tokens['edit_token']}/hands"
    assert post_json(client, url, {**ENTRADA, "note": "n" * 500}).status_code == 201
    response = post_json(client, url, {**ENTRADA, "note": "n" * 501})
    assert response.get_json()["error"] == "note is longer than 500 characters"
    response = post_json(client, "/api/tables", sample_session(hands=[{**ENTRADA, "note": {"x": 1}}]))
    refused(app, response, "hand 1: note must be a string", tables_before=1)


# -------------------------------------------------------------------- D4: tanto value


@pytest.mark.parametrize("value", ["1e25", "1e30", "0,001", "1000,01", "0"])
def test_d4_the_form_refuses_an_absurd_tanto_value(app: Flask, client: FlaskClient, value: str) -> None:
    response = client.post("/nueva", data=new_table_form(tanto_value=value))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "0,01 a 1000" in page or "no puede ser negativo" in page
    assert table_count(app) == 0


@pytest.mark.parametrize("value", [1e300, "1e25", 0.001, "-5", True, "abc"])
def test_d4_the_api_refuses_an_absurd_tanto_value(app: Flask, client: FlaskClient, value: Any) -> None:
    response = post_json(client, "/api/tables", sample_session(tanto_value=value))
    refused(app, response, "tanto_value must be an amount from 0.01 to 1000 with at most 2 decimals")


@pytest.mark.parametrize("value", ["0,05", "0.05", 5, 0.25, "1000"])
def test_d4_sane_tanto_values_are_kept(client: FlaskClient, value: Any) -> None:
    tokens = create(client, tanto_value=value)
    assert client.get(f"/t/{tokens['edit_token']}").status_code == 200


# ------------------------------------------------------------------ D5: size and rate


def test_d5_a_session_of_too_many_hands_is_refused(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorer import limits

    monkeypatch.setattr(limits, "HANDS_MAX", 5)  # the real one is 20,000: the same check, faster
    response = post_json(client, "/api/tables", sample_session(hands=[{"pass": True}] * 6))
    refused(app, response, "session: more than 5 hands")
    assert limits.HANDS_MAX == 5
    create(client, hands=[{"pass": True}] * 5)


def test_d5_a_body_larger_than_the_limit_is_refused(app: Flask, client: FlaskClient) -> None:
    padding = " " * 2_100_000  # 2.1 MB of JSON whitespace: valid JSON, too large
    text = json.dumps(sample_session())[:-1] + padding + "}"
    response = client.post("/api/tables", data=text, content_type="application/json")
    refused(app, response, "session: the body is larger than 2000000 bytes")
    refused(app, import_text(client, text), "Como mucho 2000000 caracteres")
    tokens = create(client)
    response = client.post(
        f"/api/tables/{tokens['edit_token']}/hands",
        data=json.dumps(ENTRADA)[:-1] + " " * 20_000 + "}",
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.get_json()["error"] == "the body is larger than 16384 bytes"


def test_d5_a_large_import_is_one_bulk_insert_with_its_history(app: Flask, client: FlaskClient) -> None:
    hands = [ENTRADA if i % 3 == 0 else {"pass": True} for i in range(3_000)]
    hands = [h if "pass" in h else {**h, "jugador": 2} for h in hands]
    statements: list[str] = []
    with app.app_context():
        from sqlalchemy import event

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            statements.append(statement)

        event.listen(db.engine, "before_cursor_execute", count)
        try:
            response = import_text(client, json.dumps(sample_session(hands=_rotate(hands))))
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    assert response.status_code == 302
    inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT INTO HANDS")]
    assert len(inserts) < 50, len(inserts)  # batched, not one statement per hand (was 3,000)
    with app.app_context():
        table = db.session.query(Table).one()
        seqs = [h.seq for h in db.session.query(Hand).filter_by(table_id=table.id).order_by(Hand.id)]
        assert seqs == list(range(1, 3_001))
        events = db.session.query(HandEvent).filter_by(table_id=table.id, action="create").count()
        assert events == 3_000
        assert store.read(table).ledger_copy()["hands"][-1]["n"] == 3_000


def _rotate(hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Hands whose jugador is never the alcalde: the dealer moves one seat per hand (four players)."""
    out = []
    for i, hand in enumerate(hands):
        if "pass" in hand:
            out.append(hand)
            continue
        dealer = i % 4 + 1
        jugador = dealer % 4 + 1
        others = [s for s in (1, 2, 3, 4) if s not in (dealer, jugador)]
        tricks = {str(jugador): 5, str(others[0]): 2, str(others[1]): 2}
        out.append({"jugador": jugador, "lance": "entrada", "trump": "oros", "tricks": tricks})
    return out


@pytest.mark.parametrize(
    "app_config", [{"WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": True, "CARTULINA_CREATE_LIMIT": "2 per minute"}]
)
def test_d5_table_creation_is_rate_limited_per_address(app: Flask, client: FlaskClient) -> None:
    create(client)
    assert client.post("/nueva", data=new_table_form()).status_code == 302  # one budget for every way
    response = post_json(client, "/api/tables", sample_session())
    assert response.status_code == 429
    assert response.is_json and response.get_json()["error"]
    assert int(response.headers["Retry-After"]) > 0
    page = import_text(client, json.dumps(sample_session()))
    assert page.status_code == 429
    assert "Demasiadas partidas nuevas" in page.get_data(as_text=True)
    assert "Retry-After" in page.headers
    assert client.get("/nueva").status_code == 200  # reading the form is not limited
    other = app.test_client()
    response = other.post(
        "/api/tables",
        data=json.dumps(sample_session()),
        content_type="application/json",
        environ_base={"REMOTE_ADDR": "10.0.0.9"},
    )
    assert response.status_code == 201  # another address has its own budget
    assert table_count(app) == 3


# --------------------------------------------------------------- D7: 500 instead of 4xx


def test_d7_restore_with_an_id_beyond_the_database_integer_is_404(client: FlaskClient) -> None:
    tokens = create(client)
    for hand_id in (2**31, 2**63, 2**64 + 5):
        response = post_json(client, f"/api/tables/{tokens['edit_token']}/deleted/{hand_id}", {})
        assert response.status_code == 404, hand_id
        assert response.get_json()["error"] == f"no deleted hand {hand_id} in this table"
    response = client.post(f"/t/{tokens['edit_token']}/restaurar/{2**63}")
    assert response.status_code == 404


@pytest.mark.parametrize("n", [2**31, 2**63])
def test_d7_hand_numbers_beyond_range_are_404(client: FlaskClient, n: int) -> None:
    tokens = create(client)
    assert client.get(f"/api/tables/{tokens['view_token']}/hands/{n}").status_code == 404
    assert client.get(f"/t/{tokens['view_token']}/mano/{n}").status_code == 404


@pytest.mark.parametrize("value", ["9" * 5_000, "1" * 19, "²", "abc", '"-1"'])
def test_d7_an_absurd_if_match_is_400(client: FlaskClient, value: str) -> None:
    tokens = create(client)
    response = client.put(f"/api/tables/{tokens['edit_token']}/hands/1", json=FIRST, headers={"If-Match": value})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith("If-Match must be the hand's revision number or *")
    assert len(error) < 200


@pytest.mark.parametrize("levels", [9, 500, 5_000])
def test_d7_a_deeply_nested_session_is_400(app: Flask, client: FlaskClient, levels: int) -> None:
    response = client.post("/api/tables", data=with_deep_key(levels), content_type="application/json")
    assert response.status_code == 400
    assert "too deeply nested" in response.get_json()["error"]
    assert table_count(app) == 0


@pytest.mark.parametrize("key", ["name", "place", "currency"])
def test_d7_a_nul_in_a_text_is_400(app: Flask, client: FlaskClient, key: str) -> None:
    response = post_json(client, "/api/tables", sample_session(**{key: f"Me{NUL}sa"}))
    refused(app, response, f"session: {key} contains a control character U+0000")


@pytest.mark.parametrize("number", [10**10, -(10**12), 1e300, 2**63])
def test_d7_numbers_out_of_range_are_400(app: Flask, client: FlaskClient, number: Any) -> None:
    response = post_json(client, "/api/tables", sample_session(first_dealer=number))
    refused(app, response, "out of range")


def test_d7_a_number_json_reads_as_infinite_is_400(app: Flask, client: FlaskClient) -> None:
    text = json.dumps(sample_session(extra="HERE")).replace('"HERE"', "1e400")  # json.loads gives inf
    response = client.post("/api/tables", data=text, content_type="application/json")
    refused(app, response, "session: session.extra is not a finite number")


# ---------------------------------------------------------------------- D8: bidi


@pytest.mark.parametrize(
    ("keys", "words"),
    [
        (
            {"players": [f"Ana{RLO}", "Benito", "Carmen", "Diego"]},
            "the name of player 1 contains a bidi control U+202E",
        ),
        ({"currency": f"{RLO}€"}, "currency contains a bidi control U+202E"),
        ({"place": f"Ovi{ESC}[31medo"}, "place contains a control character U+001B"),
        ({"name": "Mesa\u2066"}, "name contains a bidi control U+2066"),
    ],
)
def test_d8_bidi_and_control_characters_are_refused(
    app: Flask, client: FlaskClient, keys: dict[str, Any], words: str
) -> None:
    refused(app, post_json(client, "/api/tables", sample_session(**keys)), words)


def test_d8_the_new_table_form_refuses_them_in_spanish(app: Flask, client: FlaskClient) -> None:
    response = client.post("/nueva", data=new_table_form(player2=f"Beni{RLO}to"))
    assert response.status_code == 400
    assert "Hay un carácter no permitido (U+202E)" in response.get_data(as_text=True)
    assert table_count(app) == 0


def test_d8_right_to_left_names_are_isolated_in_the_pages_and_the_sheet(client: FlaskClient) -> None:
    tokens = create(client, players=["עמית", "Benito", "Carmen", "Diego"])
    sheet = client.get(f"/tables/{tokens['view_token']}/sheet").get_data(as_text=True)
    assert "<bdi>עמית</bdi>" in sheet or '<bdi class="name">עמית</bdi>' in sheet
    table = client.get(f"/t/{tokens['view_token']}").get_data(as_text=True)
    assert "<bdi>עמית</bdi>" in table


# ------------------------------------------------------------------------- minor points


def test_the_api_answers_405_in_json(client: FlaskClient) -> None:
    tokens = create(client)
    for method, url in (("delete", "/api/tables"), ("patch", f"/api/tables/{tokens['edit_token']}/hands/1")):
        response = getattr(client, method)(url)
        assert response.status_code == 405
        assert response.is_json
        assert response.get_json()["error"]
        assert response.headers.get("Allow")


def test_the_same_idempotency_key_with_another_body_is_422(app: Flask, client: FlaskClient) -> None:
    tokens = create(client)
    url = f"/api/tables/{tokens['edit_token']}/hands"
    first = post_json(client, url, ENTRADA, **{"Idempotency-Key": "k-1"})
    assert first.status_code == 201
    reordered = dict(reversed(list(ENTRADA.items())))  # the same hand, keys in another order
    again = post_json(client, url, reordered, **{"Idempotency-Key": "k-1"})
    assert (again.status_code, again.get_json()) == (201, first.get_json())
    other = post_json(client, url, {**ENTRADA, "trump": "copas"}, **{"Idempotency-Key": "k-1"})
    assert other.status_code == 422
    assert "Idempotency-Key" in other.get_json()["error"]
    assert hand_count(app) == 4


def test_a_retried_closing_replays_its_201_without_a_new_revision(app: Flask, client: FlaskClient) -> None:
    tokens = create(client)
    url = f"/api/tables/{tokens['edit_token']}/hands"
    first = post_json(client, url, {"close": "devolver"}, **{"Idempotency-Key": "cierre-1"})
    assert first.status_code == 201
    revision = client.get(f"/t/{tokens['view_token']}/estado").get_json()["revision"]
    for _ in range(2):
        again = post_json(client, url, {"close": "devolver"}, **{"Idempotency-Key": "cierre-1"})
        assert (again.status_code, again.get_json()) == (201, first.get_json())  # not 403 "closed"
    assert client.get(f"/t/{tokens['view_token']}/estado").get_json()["revision"] == revision
    assert post_json(client, url, ENTRADA).status_code == 403  # without the key: closed


def test_if_match_star_and_the_revision_of_a_get(client: FlaskClient) -> None:
    tokens = create(client)
    url = f"/api/tables/{tokens['edit_token']}/hands/1"
    got = client.get(url)
    assert got.status_code == 200
    assert got.headers["ETag"] == '"1"'
    assert got.get_json()["n"] == 1 and got.get_json()["revision"] == 1
    changed = {**FIRST, "trump": "espadas"}
    response = client.put(url, json=changed, headers={"If-Match": "*"})
    assert response.status_code == 200
    assert response.headers["ETag"] == '"2"' == client.get(url).headers["ETag"]
    stale = client.put(url, json=FIRST, headers={"If-Match": got.headers["ETag"]})
    assert stale.status_code == 409


def test_error_prefixes_name_the_session_or_hand_only_when_about_them(client: FlaskClient) -> None:
    tokens = create(client)
    hands = f"/api/tables/{tokens['edit_token']}/hands"
    assert post_json(client, hands, [1]).get_json()["error"] == "a hand must be an object, not list"
    broken = client.post(hands, data="{", content_type="application/json").get_json()["error"]
    assert broken.startswith("not valid JSON")
    bad_key = post_json(client, hands, ENTRADA, **{"Idempotency-Key": "k" * 101}).get_json()["error"]
    assert bad_key == "request id must be 1 to 100 characters"
    put = client.put(f"{hands}/1", json={**FIRST, "note": 3}).get_json()["error"]
    assert put == "hand 1: note must be a string"
    session = post_json(client, "/api/tables", sample_session(players=["A", "A", "B", "C"])).get_json()["error"]
    assert session.startswith("session: ")


def test_the_hand_form_explains_a_long_request_id_in_spanish(client: FlaskClient) -> None:
    tokens = create(client, hands=[])
    data = hand_data(jugador="2", trump="oros", tricks_2="5", tricks_3="3", save="1", request_id="r" * 200)
    response = client.post(f"/t/{tokens['edit_token']}/mano", data=data)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "formulario está dañado" in page
    assert "request id" not in page


def test_every_page_and_answer_with_a_token_is_no_store(client: FlaskClient) -> None:
    tokens = create(client)
    edit, view = tokens["edit_token"], tokens["view_token"]
    for url in (
        "/",
        "/nueva",
        f"/t/{edit}",
        f"/t/{view}",
        f"/t/{edit}/mano",
        f"/t/{edit}/mano/1",
        f"/tables/{view}/sheet",
        f"/t/{view}/exportar.json",
        f"/api/tables/{view}",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == "no-store", url
    created = post_json(client, "/api/tables", sample_session())
    assert created.headers["Cache-Control"] == "no-store"  # it carries both tokens
    with client.get("/static/app.css") as static:
        assert static.headers.get("Cache-Control") != "no-store"  # no token there


def test_the_import_of_a_hostile_file_says_what_is_wrong_in_spanish(app: Flask, client: FlaskClient) -> None:
    upload = json.dumps(sample_session(hands=[{**ENTRADA, "note": {"x": {"y": 1}}}])).encode()
    response = client.post(
        "/importar", data={"file": (io.BytesIO(upload), "p.json")}, content_type="multipart/form-data"
    )
    refused(app, response, "la mano 1: La nota ha de ser un texto.")


def test_the_ajuste_form_refuses_a_bidi_note_in_spanish(app: Flask, client: FlaskClient) -> None:
    tokens = create(client)
    data = {"payer": "2", "to": "plato", "amount": "10", "note": f"renuncio{RLO} de Benito", "save": "1"}
    before = hand_count(app)
    response = client.post(f"/t/{tokens['edit_token']}/ajuste", data={**data, "request_id": "aj-1"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "La nota tiene un carácter no permitido (U+202E)" in page
    assert hand_count(app) == before


def test_the_services_refuse_what_the_api_refuses(app: Flask) -> None:
    """The same limits in every door: a session refused by the API is refused by the services too."""
    with app.app_context():
        with pytest.raises(store.Invalid) as caught:
            store.create_table(sample_session(notes="x" * 501))
        assert messages.message(caught.value) == "El texto de las notas tiene más de 500 caracteres."
        assert caught.value.status == 400
