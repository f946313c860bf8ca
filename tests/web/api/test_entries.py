"""Forms kept offline: POST /api/tables/<token>/entries/form, the forms of the next
deals, the service worker's route and the manifest.

The endpoint reads a form's fields with the form's own code: the same fields posted to the HTML
form and to the endpoint store the same hand.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.engine import settle
from scorer.store.models import Table
from tests.conftest import EXAMPLES, load_json
from tests.engine.cli import settle_cli
from tests.web.conftest import PLAYERS, sample_session

# Ana deals the first hand (seat 1, alcalde with four): Benito plays an entrada of oros, 5-3-1.
FIELDS = {"jugador": "2", "lance": "entrada", "trump": "oros", "tricks_2": "5", "tricks_3": "3"}
HAND = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 3, "4": 1}}


@pytest.fixture
def empty(make_table: Callable[..., Table]) -> Table:
    return make_table(hands=[])


def post(
    client: FlaskClient,
    token: str,
    fields: Any,
    key: str | None = "k1",
    form: str = "hand",
    **extra: Any,
) -> Any:
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client.post(
        f"/api/tables/{token}/entries/form", json={"form": form, "fields": fields, **extra}, headers=headers
    )


def hands(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/tables/{token}")
    return list(response.get_json()["hands"])


def test_a_hand_form_is_saved_as_its_own_post_would(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """The same fields through the HTML form and through the queue store the same hand and ledger."""
    by_form, by_queue = make_table(hands=[]), make_table(hands=[])
    page = client.post(f"/t/{by_form.edit_token}/mano", data={**FIELDS, "save": "1"})
    assert page.status_code == 302
    answer = post(client, by_queue.edit_token, FIELDS)
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["n"] == 1 and answer.get_json()["message"] == "Mano 1 anotada."
    assert hands(client, by_queue.edit_token) == hands(client, by_form.edit_token) == [{**HAND, "dealer": 1}]
    exported = json.loads(client.get(f"/t/{by_queue.edit_token}/exportar.json").data)
    printed = settle_cli(exported)
    assert client.get(f"/api/tables/{by_queue.edit_token}/ledger").get_json() == json.loads(printed.stdout)


def test_fields_as_pairs_keep_repeated_names(client: FlaskClient, empty: Table) -> None:
    pairs = [[name, value] for name, value in FIELDS.items()]
    assert post(client, empty.edit_token, pairs).status_code == 201
    assert hands(client, empty.edit_token) == [{**HAND, "dealer": 1}]


def test_sent_again_it_is_recorded_once(client: FlaskClient, empty: Table) -> None:
    """The answer lost on the way back: the phone sends it again with the same key."""
    first = post(client, empty.edit_token, FIELDS, key="same")
    again = post(client, empty.edit_token, FIELDS, key="same")
    assert first.status_code == 201
    assert again.status_code == 200 and again.get_json()["n"] == 1 and again.get_json()["replayed"] is True
    assert len(hands(client, empty.edit_token)) == 1


def test_a_pass(client: FlaskClient, empty: Table) -> None:
    assert post(client, empty.edit_token, {"request_id": "x"}, form="pass").status_code == 201
    assert hands(client, empty.edit_token) == [{"pass": True, "dealer": 1}]


def test_an_incomplete_form_is_refused_per_field_in_spanish(client: FlaskClient, empty: Table) -> None:
    answer = post(client, empty.edit_token, {"lance": "entrada", "tricks_2": "5"})
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["problems"]["jugador"] == ["Elige quién es el jugador."]
    assert body["problems"]["trump"] == ["Elige el triunfo."]
    assert body["error"].startswith("No se ha guardado: ")
    assert body["reason"] == "Elige quién es el jugador."  # the first reason alone: what the queue shows
    assert hands(client, empty.edit_token) == []


def test_a_refusal_is_in_the_pages_language_and_its_reason_comes_apart(client: FlaskClient, empty: Table) -> None:
    """The queue shows ``reason`` under the entry: no prefix in any language for a script to strip."""
    fields = {"lance": "entrada", "tricks_2": "5"}
    body = {"form": "hand", "fields": fields}
    answer = client.post(
        f"/api/tables/{empty.edit_token}/entries/form",
        json=body,
        headers={"Idempotency-Key": "en-1", "Accept-Language": "en"},
    )
    assert answer.status_code == 422
    english = answer.get_json()
    spanish = post(client, empty.edit_token, fields).get_json()
    assert english["reason"] == english["problems"]["jugador"][0] != spanish["reason"]
    assert english["error"].endswith(english["reason"]) and not english["error"].startswith("No se ha guardado")


def test_every_refusal_of_the_queue_speaks_the_pages_language(client: FlaskClient, empty: Table) -> None:
    """A stale entry, one written for another dealer, one after an entry that never arrived, and the
    answer of a saved one: in English for an English page, in Spanish for a Spanish one."""
    token = empty.edit_token

    def both(fields: Any, key: str, **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        said = []
        for language in ("en", "es"):
            answer = client.post(
                f"/api/tables/{token}/entries/form",
                json={"form": "hand", "fields": fields, **extra},
                headers={"Idempotency-Key": f"{key}-{language}", "Accept-Language": language},
            )
            said.append(answer.get_json())
        return said[0], said[1]

    english, spanish = both({**FIELDS, "deal": "2"}, "deal")
    assert english["error"].startswith("The game has changed since this was written down offline (it was for hand 2")
    assert spanish["error"].startswith(
        "La partida ha cambiado desde que se anotó esto sin conexión (era para la mano 2"
    )
    english, spanish = both(FIELDS, "dealer", dealer=3)
    assert "it was written for when Carmen dealt, and now Ana deals" in english["error"]
    assert "se anotó para cuando daba Carmen, y ahora da Ana" in spanish["error"]
    english, spanish = both(FIELDS, "after", after="never-saved")
    assert "the entry before it in the queue is not saved" in english["error"]
    assert "la anotación anterior de la cola no está guardada" in spanish["error"]
    saved = client.post(
        f"/api/tables/{token}/entries/form",
        json={"form": "hand", "fields": FIELDS},
        headers={"Idempotency-Key": "saved-en", "Accept-Language": "en"},
    )
    assert saved.status_code == 201 and saved.get_json()["message"] == "Hand 1 written down."
    assert len(hands(client, token)) == 1


def test_an_impossible_hand_is_refused_with_the_engines_reason(client: FlaskClient, empty: Table) -> None:
    """Bola hecha needs the nine tricks (R19): the engine refuses, the reason names the field."""
    answer = post(client, empty.edit_token, {**FIELDS, "bola": "hecha"})
    assert answer.status_code == 422
    assert list(answer.get_json()["problems"]) == ["bola"]
    assert "nueve bazas" in answer.get_json()["problems"]["bola"][0]
    assert hands(client, empty.edit_token) == []


def test_an_entry_follows_the_one_queued_before_it(client: FlaskClient, empty: Table) -> None:
    """Written offline after k1: saved right after k1; refused if another hand came in between."""
    token = empty.edit_token
    assert post(client, token, FIELDS, key="k1").status_code == 201
    # Benito deals the second: Carmen plays 6-2-1 (Diego 2, Ana 1)
    second = {"jugador": "3", "lance": "entrada", "trump": "copas", "tricks_3": "6", "tricks_4": "2"}
    assert post(client, token, second, key="k2", after="k1", dealer=2).status_code == 201
    assert [h.get("jugador") for h in hands(client, token)] == [2, 3]

    client.post(f"/api/tables/{token}/hands", json={"pass": True})  # another phone
    late = post(client, token, {**second, "jugador": "4"}, key="k3", after="k2")
    assert late.status_code == 409
    assert "después de la mano 2 se anotó otra" in late.get_json()["error"]
    unknown = post(client, token, second, key="k4", after="never-saved")
    assert unknown.status_code == 409
    assert len(hands(client, token)) == 3


def test_a_form_made_for_another_dealer_is_refused(client: FlaskClient, empty: Table) -> None:
    answer = post(client, empty.edit_token, FIELDS, dealer=2)
    assert answer.status_code == 409
    assert "se anotó para cuando daba Benito, y ahora da Ana" in answer.get_json()["error"]
    assert post(client, empty.edit_token, FIELDS, dealer=1).status_code == 201


def test_a_form_of_an_earlier_state_is_refused(client: FlaskClient, empty: Table) -> None:
    """The form's own hidden deal / table_revision (when it has them) must still be the table's."""
    token = empty.edit_token
    assert post(client, token, {**FIELDS, "deal": "2"}, key="a").status_code == 409
    assert post(client, token, {**FIELDS, "table_revision": "7"}, key="b").status_code == 409
    assert post(client, token, {**FIELDS, "deal": "1", "table_revision": "0"}, key="c").status_code == 201


@pytest.mark.parametrize(
    ("body", "headers", "status"),
    [
        ({"form": "hand", "fields": FIELDS}, {}, 400),  # no Idempotency-Key
        ({"form": "hand", "fields": FIELDS}, {"Idempotency-Key": "x" * 101}, 400),
        ({"form": "bote", "fields": FIELDS}, {"Idempotency-Key": "k"}, 400),
        ({"form": "hand", "fields": "jugador=2"}, {"Idempotency-Key": "k"}, 400),
        ({"form": "hand", "fields": {"jugador": 2}}, {"Idempotency-Key": "k"}, 400),
        ({"form": "hand", "fields": FIELDS, "after": 3}, {"Idempotency-Key": "k"}, 400),
        ({"form": "hand", "fields": FIELDS, "dealer": "1"}, {"Idempotency-Key": "k"}, 400),
        ([FIELDS], {"Idempotency-Key": "k"}, 400),
    ],
)
def test_malformed_requests_save_nothing(
    client: FlaskClient, empty: Table, body: Any, headers: dict[str, str], status: int
) -> None:
    answer = client.post(f"/api/tables/{empty.edit_token}/entries/form", json=body, headers=headers)
    assert answer.status_code == status
    assert "error" in answer.get_json()
    assert hands(client, empty.edit_token) == []


def test_needs_json_and_the_edit_token(client: FlaskClient, empty: Table) -> None:
    url = f"/api/tables/{empty.edit_token}/entries/form"
    assert client.post(url, data=FIELDS, headers={"Idempotency-Key": "k"}).status_code == 415
    watcher = post(client, empty.view_token, FIELDS)
    assert watcher.status_code == 403
    assert watcher.get_json()["error"] == "Este enlace es solo para mirar: no puede cambiar la partida."
    assert post(client, "no-such-table", FIELDS).status_code == 404
    assert hands(client, empty.edit_token) == []


def close(app: Flask, token: str) -> None:
    from scorer import store

    with app.app_context():
        store.close_table(store.require_edit(token))


def test_a_closed_table_refuses_in_spanish(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    table = make_table()
    close(app, table.edit_token)
    answer = post(client, table.edit_token, {"request_id": "x"}, form="pass")
    assert answer.status_code == 403
    assert answer.get_json()["error"] == "La partida está cerrada (R30): ya no se puede cambiar."


def test_with_csrf_on_the_queue_needs_no_form_token(make_app: Callable[..., Flask]) -> None:
    """The API's protection is the edit token and the JSON body; the form's CSRF token may be old."""
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = client.post("/api/tables", json=sample_session(hands=[])).get_json()["edit_token"]
    assert post(client, token, {**FIELDS, "csrf_token": "from-a-page-of-yesterday"}).status_code == 201


# ------------------------------------------------------------------ forms of the next deals


def test_forms_of_the_next_deals_follow_the_engines_dealers(client: FlaskClient, empty: Table) -> None:
    """Form k is for the deal after k more: its dealer is the engine's next_dealer after k passes."""
    session = sample_session(hands=[])
    page = client.get(f"/t/{empty.edit_token}").get_data(as_text=True)
    listed = re.search(r'data-offline-forms="([^"]*)"', page)
    assert listed is not None
    urls = listed.group(1).split()
    assert urls == [f"/t/{empty.edit_token}/mano/tras/{k}" for k in range(len(PLAYERS))]
    for k, url in enumerate(urls):
        dealer = settle({**session, "hands": [{"pass": True}] * k})["next_dealer"]
        form = client.get(url).get_data(as_text=True)
        assert f'data-dealer="{dealer}"' in form
        assert f"da {PLAYERS[dealer - 1]}" in form
        assert 'data-offline="hand"' in form
    assert hands(client, empty.edit_token) == []  # nothing saved by looking ahead


def test_forms_ahead_only_for_the_keeper(client: FlaskClient, empty: Table) -> None:
    assert client.get(f"/t/{empty.edit_token}/mano/tras/99").status_code == 404
    assert client.get(f"/t/{empty.view_token}/mano/tras/1").status_code == 403
    watcher = client.get(f"/t/{empty.view_token}").get_data(as_text=True)
    assert "data-offline-forms" not in watcher and 'data-offline="pass"' not in watcher


def test_an_edit_form_is_not_queued(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    table = make_table()
    page = client.get(f"/t/{table.edit_token}/mano/1/editar").get_data(as_text=True)
    assert 'id="hand-form"' in page and "data-offline" not in page


# ------------------------------------------------------------------ worker and manifest


def test_service_worker_route(client: FlaskClient) -> None:
    with client.get("/sw.js") as response:  # a file response: closed after reading
        response.get_data()
    assert response.status_code == 200
    assert response.mimetype in ("text/javascript", "application/javascript")
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert response.headers["Cache-Control"] in ("no-cache", "no-store")  # a new version is seen at once
    policy = response.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy and "unsafe" not in policy
    assert b'addEventListener("fetch"' in response.data


def test_pages_link_the_manifest_and_say_when_they_were_made(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    assert re.search(r'<body data-rendered-at="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"', page)
    with client.get("/static/manifest.webmanifest") as manifest:
        manifest.get_data()
    assert manifest.mimetype == "application/manifest+json"
    data = json.loads(manifest.data)
    assert data["start_url"] == "/" and data["display"] == "standalone"
    for icon in data["icons"]:
        with client.get(icon["src"]) as response:
            assert response.status_code == 200 and response.mimetype == icon["type"]


def test_no_forms_ahead_once_no_hand_can_follow(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """An Ombre game of one deal is over after it (O6): nothing to keep; a closed table neither."""
    ombre = make_table(
        players=PLAYERS[:3],
        rules={"ruleset": "ombre", "deals": 1},
        hands=[{"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 5, "2": 2, "3": 2}}],
    )
    assert 'data-offline-forms=""' in client.get(f"/t/{ombre.edit_token}").get_data(as_text=True)
    assert client.get(f"/t/{ombre.edit_token}/mano/tras/0").status_code == 404
    closed = make_table()
    close(app, closed.edit_token)
    assert "data-offline-forms" not in client.get(f"/t/{closed.edit_token}").get_data(as_text=True)
    assert client.get(f"/t/{closed.edit_token}/mano/tras/0").status_code == 404


def test_an_ajuste_form_is_saved_as_its_own_post_would(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """R32: Benito pays Carmen 10 for a renuncio; through the page and through the queue, the same entry."""
    fields = {"payer": "2", "to": "3", "amount": "10", "reason": "", "note": "renuncio"}
    by_form, by_queue = make_table(hands=[]), make_table(hands=[])
    assert 'data-offline="ajuste"' in client.get(f"/t/{by_form.edit_token}/ajuste").get_data(as_text=True)
    assert client.post(f"/t/{by_form.edit_token}/ajuste", data={**fields, "save": "1"}).status_code == 302
    assert post(client, by_queue.edit_token, fields, form="ajuste").status_code == 201
    saved = hands(client, by_queue.edit_token)
    assert saved == hands(client, by_form.edit_token) and saved[0]["ajuste"] == {"from": 2, "to": 3, "amount": 10}
    wrong = post(client, by_queue.edit_token, {**fields, "to": "2"}, key="k2", form="ajuste")
    assert wrong.status_code == 422 and list(wrong.get_json()["problems"]) == ["to"]
    page = client.get(f"/t/{by_queue.edit_token}").get_data(as_text=True)
    token = by_queue.edit_token
    assert f'data-offline-keep="/t/{token}/ajuste /t/{token}/cambio /t/{token}/favor"' in page  # R32-R34: no deal


def test_saved_then_deleted_is_not_saved_again(client: FlaskClient, empty: Table) -> None:
    """The answer was lost, and meanwhile the hand was deleted at the table: the repeat is refused."""
    assert post(client, empty.edit_token, FIELDS, key="gone").status_code == 201
    assert client.delete(f"/api/tables/{empty.edit_token}/hands/1").status_code == 200
    again = post(client, empty.edit_token, FIELDS, key="gone")
    assert again.status_code == 409 and "se borró" in again.get_json()["error"]
    assert hands(client, empty.edit_token) == []


# The walkthrough's first five hands (shared/examples): hand 5 leaves Benito (seat 2) a pending
# reserved puesta of 55, which a change of player at seat 2 cancels (R33).
WALK = load_json(EXAMPLES / "walkthrough.json")["hands"][:5]
CAMBIO = {"seat": "2", "player": "otro", "new_name": "Elena", "note": "Benito se va"}


@pytest.fixture
def puesta(make_table: Callable[..., Table]) -> Table:
    return make_table(hands=copy.deepcopy(WALK))


def test_a_cambio_form_is_saved_as_its_own_confirmed_post_would(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """R33: Elena takes Benito's seat; the page's review-then-confirm and the queue store the same entry."""
    by_form, by_queue = make_table(hands=copy.deepcopy(WALK)), make_table(hands=copy.deepcopy(WALK))
    review = client.post(f"/t/{by_form.edit_token}/cambio", data={**CAMBIO, "review": "1"})
    assert review.status_code == 200 and "Benito: 55" in review.get_data(as_text=True)  # the server's preview
    confirm = {**CAMBIO, "confirm": "1", "reviewed": "2|Elena"}
    assert client.post(f"/t/{by_form.edit_token}/cambio", data=confirm).status_code == 302
    answer = post(client, by_queue.edit_token, CAMBIO, form="cambio")
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["n"] == 6 and answer.get_json()["hand"]["result"] == "sienta"
    saved = hands(client, by_queue.edit_token)
    assert saved == hands(client, by_form.edit_token)
    assert saved[5] == {"sienta": {"seat": 2, "player": "Elena"}, "note": "Benito se va"}
    ledger = client.get(f"/api/tables/{by_queue.edit_token}/ledger").get_json()
    assert ledger == client.get(f"/api/tables/{by_form.edit_token}/ledger").get_json()
    assert ledger["hands"][4]["cartulina"][0]["state"] == "pendiente"
    assert not [e for e in ledger["hands"][5]["cartulina"] if e["state"] == "pendiente"]  # cancelled (R33)
    assert ledger == settle(sample_session([*WALK, saved[5]]))  # the engine, on the stored entries
    assert set(ledger["people"]) == {*PLAYERS, "Elena"}  # money belongs to people; Benito keeps his


def test_a_cambio_sent_again_is_recorded_once(client: FlaskClient, puesta: Table) -> None:
    first = post(client, puesta.edit_token, CAMBIO, key="c1", form="cambio")
    again = post(client, puesta.edit_token, CAMBIO, key="c1", form="cambio")
    assert first.status_code == 201 and again.status_code == 200
    assert again.get_json() == {"n": 6, "replayed": True, "revision": first.get_json()["revision"]}
    assert len(hands(client, puesta.edit_token)) == 6


def test_a_cambio_naming_someone_seated_is_refused_next_to_the_player(client: FlaskClient, puesta: Table) -> None:
    """R33: NAME must not be seated already: the form's own message, nothing saved."""
    seated = post(client, puesta.edit_token, {**CAMBIO, "new_name": "carmen"}, form="cambio")
    assert seated.status_code == 422
    body = seated.get_json()
    assert list(body["problems"]) == ["player"] and "Carmen ya está sentado (asiento 3)" in body["error"]
    nowhere = post(client, puesta.edit_token, {**CAMBIO, "seat": "9"}, key="k2", form="cambio")
    assert nowhere.status_code == 422 and list(nowhere.get_json()["problems"]) == ["seat"]
    assert len(hands(client, puesta.edit_token)) == 5


def test_a_cambio_takes_no_deal_so_the_next_hand_follows_it(client: FlaskClient, puesta: Table) -> None:
    """Queued after a cambio, the next hand is for the same dealer as before the cambio (R33: dealer null)."""
    dealer = client.get(f"/api/tables/{puesta.edit_token}/ledger").get_json()["next_dealer"]
    assert post(client, puesta.edit_token, CAMBIO, key="c1", form="cambio").status_code == 201
    fields = {"jugador": "3", "lance": "entrada", "trump": "oros", "tricks_3": "5", "tricks_4": "3"}
    answer = post(client, puesta.edit_token, fields, key="h1", after="c1", dealer=dealer)
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["n"] == 7


def test_the_cambio_page_carries_each_seats_pending_puestas_for_offline(client: FlaskClient, puesta: Table) -> None:
    """Offline there is no server preview: the page says, seat by seat, what the engine says a change
    there cancels (R33), as of when it was made."""
    page = client.get(f"/t/{puesta.edit_token}/cambio").get_data(as_text=True)
    assert 'data-offline="cambio" data-offline-confirm="seat"' in page
    blocks = dict(re.findall(r'<div class="offline-seat" data-seat="(\d)" hidden>(.*?)</div>', page, re.S))
    assert sorted(blocks) == ["1", "2", "3", "4"]
    assert "Benito: 55" in blocks["2"] and "(mano 5)" in blocks["2"]
    assert all("no tiene puestas pendientes" in blocks[s] for s in "134")
    assert "se anularán al guardar (R33)" in blocks["2"] and "según los datos de las" in blocks["2"]
    corrected = client.post(f"/t/{puesta.edit_token}/cambio", data={**CAMBIO, "review": "1"}).get_data(as_text=True)
    assert 'id="offline-confirm"' not in corrected  # the server's own preview is shown instead


def test_the_offline_lists_in_english_escape_the_name(
    app: Flask, make_table: Callable[..., Table], tmp_path: Any
) -> None:
    """On an English page the lists read in English; a name is text, never markup."""
    app.extensions["babel"].locale_selector = lambda: "en"
    table = make_table(hands=copy.deepcopy(WALK), players=["Ana", "<b>Beni</b>", "Carmen", "Diego"])
    page = app.test_client().get(f"/t/{table.edit_token}/cambio").get_data(as_text=True)
    assert "<strong>Pending puestas of &lt;b&gt;Beni&lt;/b&gt;</strong> as of the data from <span" in page
    assert '&lt;b&gt;Beni&lt;/b&gt;: 55 <span class="muted small">(hand 5)</span>' in page
    assert 'Ana has no pending puestas as of the data from <span class="offline-at">' in page
    assert "store_failed" in page  # the words offline.js shows on this page are there (templates/_i18n_js.html)
