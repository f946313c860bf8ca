"""The HTML pages through the test client: every page with both tokens, forms, errors in Spanish."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import store
from scorer.engine import settle
from scorer.store.models import Table
from tests.conftest import EXAMPLES, load_json
from tests.web.conftest import PLAYERS as PLAYERS4
from tests.web.conftest import sample_session


def ledger(app: Flask, token: str) -> dict[str, Any]:
    with app.app_context():
        table, _ = store.open_table(token)
        return store.read(table).ledger_copy()


def session(app: Flask, token: str) -> dict[str, Any]:
    with app.app_context():
        table, _ = store.open_table(token)
        return store.read(table).session_copy()


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def h1_count(html: str) -> int:
    return len(re.findall(r"<h1[ >]", html))


# ------------------------------------------------------------------ every page


def pages(t: Table, token: str) -> list[str]:
    return [
        f"/t/{token}",
        f"/t/{token}/mano/1",
        f"/t/{token}/mano/2",
        f"/t/{token}/estado",
        f"/t/{token}/exportar.json",
        f"/t/{token}/exportar.csv",
    ]


def test_home_new_and_import_pages(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(name="Jueves en el casino")
    client.get(f"/t/{t.edit_token}")  # opened here with its edit link
    home = client.get("/")
    assert home.status_code == 200
    assert "Jueves en el casino" in text(home)
    assert f"/t/{t.edit_token}" in text(home)
    for url in ("/", "/nueva", "/importar"):
        html = text(client.get(url))
        assert '<html lang="es">' in html
        assert 'name="viewport"' in html
        assert h1_count(html) == 1


@pytest.mark.parametrize("which", ["edit", "view"])
def test_every_table_page_answers_with_either_token(
    client: FlaskClient, make_table: Callable[..., Table], which: str
) -> None:
    t = make_table()
    token = t.edit_token if which == "edit" else t.view_token
    for url in pages(t, token):
        response = client.get(url)
        assert response.status_code == 200, url
        if response.mimetype == "text/html":
            assert h1_count(text(response)) == 1, url


def test_edit_pages_answer_with_the_edit_token(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    for url in ("mano", "mano/1/editar", "mano/1/borrar", "cerrar"):
        response = client.get(f"/t/{t.edit_token}/{url}")
        assert response.status_code == 200, url
        assert h1_count(text(response)) == 1


def test_unknown_token_is_404(client: FlaskClient) -> None:
    for url in ("/t/nope", "/t/nope/mano", "/t/nope/mano/1", "/t/nope/estado", "/t/nope/exportar.json"):
        response = client.get(url)
        assert response.status_code == 404, url
    assert "revisa el enlace" in text(client.get("/t/nope"))


def test_unknown_hand_is_404(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    assert client.get(f"/t/{t.edit_token}/mano/99").status_code == 404
    assert client.get(f"/t/{t.edit_token}/mano/99/editar").status_code == 404


def test_view_token_shows_no_controls_and_cannot_write(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table()
    html = text(client.get(f"/t/{t.view_token}"))
    assert "Anotar mano" not in html
    # its one form: who this phone is, to answer the hands; nothing that changes the table
    assert re.findall(r'<form [^>]*action="([^"]+)"', html) == [f"/t/{t.view_token}/yo"]
    assert "Cerrar la partida" not in html
    assert t.edit_token not in html  # the view link never leaks the edit link
    assert f'data-poll="/t/{t.view_token}/estado"' in html
    assert 'http-equiv="refresh"' in html  # inside <noscript>
    hand_html = text(client.get(f"/t/{t.view_token}/mano/1"))
    assert "Corregir" not in hand_html and "Borrar" not in hand_html
    before = ledger(app, t.edit_token)
    for method, url in [
        ("get", "mano"),
        ("post", "mano"),
        ("post", "pasan"),
        ("get", "mano/1/editar"),
        ("post", "mano/1/borrar"),
        ("post", "cerrar"),
    ]:
        response = getattr(client, method)(f"/t/{t.view_token}/{url}", data={"jugador": "2"})
        assert response.status_code == 403, url
        assert "solo para mirar" in text(response)
    assert ledger(app, t.edit_token) == before


def test_table_page_shows_roles_plato_cartulina_balances(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    walk = load_json(EXAMPLES / "walkthrough.json")
    t = make_table({**walk, "tanto_value": "0.05", "currency": "€", "name": "Paseo"})
    html = text(client.get(f"/t/{t.edit_token}"))
    # after hand 11 of the worked session: plato 75 reservada (Ana's 65 in it), Diego deals hand 12
    assert "con puesta reservada de Ana (65)" in html
    assert re.search(r'<dd class="dealer"><bdi>Diego</bdi>', html)
    assert "−145" in html and "−7,25\u00a0€" in html and "+100" in html
    assert 'class="mark en_plato"' in html and 'class="mark cobrada"' in html and 'class="mark pendiente"' in html
    assert "Anotar mano" in html and "Todos pasan" in html
    assert "/tables/" + t.edit_token + "/sheet.pdf" in html
    assert "<svg" in html  # QR codes
    assert f"/t/{t.view_token}" in html  # share link


def test_estado_revision_changes_with_a_new_hand(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    first = client.get(f"/t/{t.view_token}/estado").get_json()
    client.post(f"/t/{t.edit_token}/pasan", data={"request_id": "x1"})
    second = client.get(f"/t/{t.view_token}/estado").get_json()
    assert first["revision"] != second["revision"]


# -------------------------------------------------------------------- new table


def new_table_form(**changes: str) -> dict[str, str]:
    data = {
        "game": "tresillo",
        "name": "Martes",
        "player1": "Ana",
        "player2": "Benito",
        "player3": "Carmen",
        "player4": "Diego",
        "keeper": "4",
        "first_dealer": "1",
        "favor_suit": "bastos",
        "vuelta_solera": "y",
        "dealer_stake": "5",
        "enchilada": "0",
        "rounding": "5",
        "favor_doubling": "double_rounded",
        "vuelta_at_favor": "y",
        "solo_codillo": "codillo_and_conditions",
        "failed_bola": "pays_bola",
        "tanto_value": "0,05",
        "currency": "€",
        "date": "2024-03-07",
        "place": "Oviedo",
    }
    data.update(changes)
    return data


def only_table(app: Flask) -> Table:
    with app.app_context():
        tables = store.list_tables()
        assert len(tables) == 1
        table, _ = store.open_table(tables[0].edit_token)
        return table


def test_create_table_through_the_form(app: Flask, client: FlaskClient) -> None:
    response = client.post("/nueva", data=new_table_form())
    assert response.status_code == 302
    table = only_table(app)
    assert response.headers["Location"].endswith(f"/t/{table.edit_token}")
    s = session(app, table.edit_token)
    assert s["players"] == ["Ana", "Benito", "Carmen", "Diego"]
    assert s["rules"]["favor_suit"] == "bastos"
    assert s["rules"]["ruleset"] == "tresillo"
    assert s["tanto_value"] == "0.05"  # a decimal string, never a float
    assert s["keeper"] == 4 and s["place"] == "Oviedo" and s["date"] == "2024-03-07"
    page = text(client.get(response.headers["Location"]))
    assert "Partida creada" in page


def test_create_table_with_three_players_and_a_house_rule(app: Flask, client: FlaskClient) -> None:
    data = new_table_form(player4="", keeper="1", first_dealer="3", rounding="1", favor_suit="")
    del data["vuelta_solera"]  # unchecked
    assert client.post("/nueva", data=data).status_code == 302
    s = session(app, only_table(app).edit_token)
    assert len(s["players"]) == 3
    assert s["first_dealer"] == 3
    assert s["rules"]["rounding"] == 1
    assert s["rules"]["vuelta_solera"] is False
    assert "favor_suit" not in s["rules"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"player2": ""}, "Falta el nombre"),
        ({"player3": "", "player4": ""}, "hacen falta 3 o 4 jugadores"),
        ({"player3": "ana"}, "ya está en la mesa"),
        ({"tanto_value": "cinco"}, "no es una cantidad"),
        ({"tanto_value": "-0,05"}, "no puede ser negativo"),
        ({"player4": "", "keeper": "4"}, "Con tres jugadores"),
        ({"rounding": "0"}, "Ha de ser un número de 1 a 100"),
        ({"dealer_stake": "cinco"}, "no es un número entero"),
    ],
)
def test_create_table_refuses_bad_input(app: Flask, client: FlaskClient, changes: dict[str, str], message: str) -> None:
    response = client.post("/nueva", data=new_table_form(**changes))
    assert response.status_code == 400
    assert message in text(response)
    with app.app_context():
        assert store.list_tables() == []


def test_new_table_suggests_names_seen_before(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(players=["Ana", "Benito", "Carmen", "Zoila"])
    assert '<option value="Zoila">' not in text(client.get("/nueva"))  # another browser's table: no names
    client.get(f"/t/{t.edit_token}")
    html = text(client.get("/nueva"))
    assert '<datalist id="nombres">' in html
    assert '<option value="Zoila">' in html


# ------------------------------------------------------------------ home page


def home_links(client: FlaskClient) -> list[str]:
    return re.findall(r'<ul class="tables">.*?</ul>|$', text(client.get("/")), re.S)[0].split('href="')[1:]


def test_home_lists_the_tables_this_browser_created(app: Flask, client: FlaskClient) -> None:
    assert client.post("/nueva", data=new_table_form(name="Mía")).status_code == 302
    edit = only_table(app).edit_token
    home = text(client.get("/"))
    assert f'href="/t/{edit}"' in home and "Mía" in home
    assert "Tresillo" in home and "07/03/2024" in home  # the game and the date as dd/mm/aaaa
    stranger = app.test_client()
    other = text(stranger.get("/"))
    assert edit not in other and "Mía" not in other
    assert "aparece en cuanto abras aquí su enlace para anotar" in other


def test_the_view_link_adds_nothing_to_the_home_page(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(name="Ajena")
    for url in (f"/t/{t.view_token}", f"/t/{t.view_token}/mano/1", f"/t/{t.view_token}/estado"):
        assert client.get(url).status_code == 200
    home = text(client.get("/"))
    assert t.edit_token not in home and t.view_token not in home and "Ajena" not in home
    client.get(f"/t/{t.edit_token}")
    assert f'href="/t/{t.edit_token}"' in text(client.get("/"))


def test_home_lists_open_tables_first_newest_first(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    first, second, third = (make_table(name=n) for n in ("Primera", "Segunda", "Tercera"))
    for t in (third, first, second):
        client.get(f"/t/{t.edit_token}")
    client.post(f"/t/{second.edit_token}/cerrar", data={"how": "devolver"})  # R30: the table chooses how
    links = home_links(client)
    assert [link.split('"')[0] for link in links] == [f"/t/{t.edit_token}" for t in (third, first, second)]
    assert "cerrada" in links[-1]


def test_home_names_each_game(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    games = {
        "pozo_viuda": ("Pozo y viuda", ["Ana", "Benito", "Carmen", "Diego"]),
        "ombre": ("Ombre", ["Ana", "Benito", "Carmen"]),
        "bandos": ("Bandos", ["Ana", "Benito", "Carmen", "Diego", "Elena", "Fermín"]),
    }
    for ruleset, (_word, players) in games.items():
        t = make_table(name=f"Mesa {ruleset}", players=players, rules={"ruleset": ruleset}, hands=[])
        client.get(f"/t/{t.edit_token}")
    home = text(client.get("/"))
    for ruleset, (word, _players) in games.items():
        assert re.search(rf"Mesa {ruleset}</bdi>.*?{word} ·", home, re.S), ruleset


def test_the_browser_remembers_a_bounded_list(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    from scorer.web.common.remember import REMEMBERED_TABLES

    tables = [make_table(name=f"Mesa {i}", hands=[]) for i in range(REMEMBERED_TABLES + 2)]
    for t in tables:
        client.get(f"/t/{t.edit_token}")
    with client.session_transaction() as cookie:
        assert cookie.permanent
        assert cookie["tables"] == [t.edit_token for t in reversed(tables)][:REMEMBERED_TABLES]
    client.get(f"/t/{tables[5].edit_token}")  # opened again: first again, not twice
    with client.session_transaction() as cookie:
        assert cookie["tables"][0] == tables[5].edit_token
        assert cookie["tables"].count(tables[5].edit_token) == 1
    assert len(home_links(client)) == REMEMBERED_TABLES


def test_an_imported_table_is_remembered(client: FlaskClient) -> None:
    content = json.dumps(sample_session(name="Importada")).encode()
    response = client.post(
        "/importar", data={"file": (io.BytesIO(content), "p.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 302
    home = text(client.get("/"))
    assert "Importada" in home and response.headers["Location"].split("/t/")[1] in home


def test_the_switch_lists_every_table(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=False, CARTULINA_HOME_LISTS_ALL=True)
    with app.app_context():
        tables = [store.create_table(sample_session(name=n)) for n in ("Una", "Otra")]
        tokens = [t.edit_token for t in tables]
    home = text(app.test_client().get("/"))
    for name, token in zip(("Una", "Otra"), tokens, strict=True):
        assert name in home and f'href="/t/{token}"' in home
    assert "aparece en cuanto abras" not in home


# -------------------------------------------------------------------- hands


def hand_data(**fields: str) -> dict[str, str]:
    data = {"lance": "entrada", "request_id": fields.pop("request_id", "r-" + "-".join(sorted(fields.values())))}
    data.update(fields)
    return data


def test_enter_a_hand_in_five_taps(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(hands=[])  # first dealer seat 1 (Ana, alcalde): Benito, Carmen, Diego play
    form = text(client.get(f"/t/{t.edit_token}/mano"))
    assert 'name="jugador" value="1"' not in form  # the alcalde is not offered
    assert 'name="lance" value="entrada" id="lance-0" checked' in form
    # Jugador Benito, oros, Benito 5 tricks, Carmen 3 (Diego's 1 is filled in), Guardar
    data = hand_data(jugador="2", trump="oros", tricks_2="5", tricks_3="3", save="1")
    response = client.post(f"/t/{t.edit_token}/mano", data=data)
    assert response.status_code == 302
    s = session(app, t.edit_token)
    assert s["hands"][-1]["tricks"] == {"2": 5, "3": 3, "4": 1}
    expected = settle(s)  # the engine, on the stored session
    assert ledger(app, t.edit_token)["balances"] == expected["balances"]
    page = text(client.get(f"/t/{t.edit_token}"))
    assert "Mano 1 anotada" in page
    for seat, name in enumerate(["Ana", "Benito", "Carmen", "Diego"], 1):
        balance = expected["balances"][str(seat)]
        shown = f"+{balance}" if balance > 0 else (f"−{-balance}" if balance < 0 else "0")
        assert re.search(rf"<td><bdi>{name}</bdi></td>\s*<td class=\"tantos[^\"]*\">{re.escape(shown)}</td>", page), (
            name
        )


def test_preview_shows_payments_and_saves_nothing(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table(hands=[], rules={})
    data = hand_data(jugador="2", trump="oros", tricks_2="5", tricks_3="3", preview="1")
    response = client.post(f"/t/{t.edit_token}/mano", data=data)
    assert response.status_code == 200
    html = text(response)
    # R16: case 1, each participant pays round(5 + 0) = 5; R17: the plato (Ana's 5) goes to Benito
    assert "Benito cobra 5 de cada uno y se lleva el plato: 5" in html
    assert "el que da pone 5" in html  # a transfer's detail
    assert session(app, t.edit_token)["hands"] == []
    assert re.search(r'name="tricks_3" value="3" id="[^"]+" checked', html)  # the chosen chips are kept


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"jugador": "2", "trump": "oros", "tricks_2": "4", "tricks_3": "4", "tricks_4": "0"}, "tricks",
         "no está decidida"),
        ({"jugador": "2", "trump": "oros", "tricks_2": "4"}, "tricks", "Faltan las bazas"),
        ({"jugador": "2", "trump": "oros", "tricks_2": "6", "tricks_3": "5"}, "tricks", "suman 11"),
        ({"jugador": "2", "tricks_2": "5", "tricks_3": "3"}, "trump", "Elige el triunfo"),
        ({"trump": "oros", "tricks_2": "5", "tricks_3": "3"}, "jugador", "Elige quién es el jugador"),
        (
            {"jugador": "2", "trump": "oros", "tricks_2": "5", "tricks_3": "3", "estuches": "3", "contraestuches": "4"},
            "estuches",
            "a la vez",
        ),
        ({"jugador": "2", "trump": "oros", "tricks_2": "4", "tricks_3": "3", "primeras": "jugador"}, "primeras",
         "Primeras del jugador"),
        ({"jugador": "2", "trump": "oros", "tricks_2": "5", "tricks_3": "3", "primeras": "contra"}, "primeras",
         "Primeras de la contra"),
        ({"jugador": "2", "trump": "oros", "tricks_2": "5", "tricks_3": "3", "bola": "hecha"}, "bola", "nueve bazas"),
        ({"jugador": "2", "trump": "oros", "defensor": "3", "tricks_2": "2", "tricks_3": "5"}, "defensor",
         "Solo hay defensor"),
        ({"jugador": "2", "lance": "solo", "trump": "oros", "rendida": "y"}, "rendida", "no un solo"),
        ({"jugador": "2", "trump": "oros", "tricks_2": "5", "tricks_3": "3", "estuches": "mas", "estuches_mas": "13"},
         "estuches", "de 6 a 12"),
    ],
)  # fmt: skip
def test_an_impossible_hand_is_explained_next_to_its_field_and_not_saved(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table], fields: dict[str, str], field: str, message: str
) -> None:
    t = make_table(hands=[])
    data = {"lance": "entrada", "request_id": "bad", "save": "1", **fields}
    response = client.post(f"/t/{t.edit_token}/mano", data=data)
    assert response.status_code == 400
    html = text(response)
    # the message sits inside the fieldset of its field
    fieldsets = re.findall(r"<fieldset[^>]*>.*?</fieldset>", html, flags=re.S)
    legend = {
        "tricks": "Bazas",
        "trump": "Triunfo",
        "jugador": "Jugador",
        "estuches": "Estuches",
        "primeras": "Primeras",
        "bola": "Bola",
        "defensor": "Defensor",
        "rendida": "Rendida",
    }[field]
    owner = [f for f in fieldsets if re.search(rf"<legend>{legend}", f)]
    assert owner, legend
    assert message in owner[0], owner[0][-600:]
    assert "field-error" in owner[0]
    assert session(app, t.edit_token)["hands"] == []


def test_double_submit_records_one_hand(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(hands=[])
    data = hand_data(jugador="2", trump="oros", tricks_2="5", tricks_3="3", save="1", request_id="same-tap")
    assert client.post(f"/t/{t.edit_token}/mano", data=data).status_code == 302
    assert client.post(f"/t/{t.edit_token}/mano", data=data).status_code == 302
    assert len(session(app, t.edit_token)["hands"]) == 1
    passed = {"request_id": "pass-tap"}
    client.post(f"/t/{t.edit_token}/pasan", data=passed)
    client.post(f"/t/{t.edit_token}/pasan", data=passed)
    assert [h.get("pass") for h in session(app, t.edit_token)["hands"]] == [None, True]


def test_a_second_tap_of_guardar_says_the_hand_was_saved(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table(hands=[])
    data = hand_data(jugador="2", trump="oros", tricks_2="5", tricks_3="3", save="1", request_id="tap-tap")
    client.post(f"/t/{t.edit_token}/mano", data=data)
    # the deal moved on: Benito deals now (alcalde), so the same form no longer fits, yet it is the same hand
    again = client.post(f"/t/{t.edit_token}/mano", data=data, follow_redirects=True)
    assert again.status_code == 200
    assert "La mano 1 ya estaba anotada." in text(again)
    assert len(session(app, t.edit_token)["hands"]) == 1
    preview = client.post(f"/t/{t.edit_token}/mano", data={**data, "save": "", "preview": "1"})
    assert preview.status_code == 302  # a stale form of a saved hand goes back to the table, whatever the button
    assert len(session(app, t.edit_token)["hands"]) == 1


def test_edit_preview_shows_the_change_and_saves_nothing(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table()  # hand 1: Benito wins 5-3-1
    before = (session(app, t.edit_token), ledger(app, t.edit_token))
    url = f"/t/{t.edit_token}/mano/1/editar"
    data = hand_data(jugador="2", trump="oros", tricks_2="3", tricks_3="5", tricks_4="1", preview="1")
    response = client.post(url, data=data)
    assert response.status_code == 200
    page = text(response)
    assert "Pagos de esta mano" in page
    changed = before[0] | {
        "hands": [{**before[0]["hands"][0], "tricks": {"2": 3, "3": 5, "4": 1}}, *before[0]["hands"][1:]]
    }
    entry = settle(changed)["hands"][0]
    assert entry["result"] == "codillo"
    for t_ in entry["transfers"]:
        assert t_["detail"] in page  # the engine's explanation of each payment
    assert (session(app, t.edit_token), ledger(app, t.edit_token)) == before
    assert "corregida" not in text(client.get(f"/t/{t.edit_token}/mano/1"))
    bad = client.post(
        url, data=hand_data(jugador="2", trump="oros", tricks_2="4", tricks_3="4", tricks_4="0", preview="1")
    )
    assert bad.status_code == 400 and "no está decidida" in text(bad)


def test_hand_form_requests_have_a_fresh_request_id(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    ids = {re.search(r'name="request_id" type="hidden" value="(\w+)"', text(client.get(f"/t/{t.edit_token}/mano")))
           .group(1) for _ in range(2)}  # type: ignore[union-attr]  # fmt: skip
    assert len(ids) == 2


def test_rendida_and_defended_rendida(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(hands=[])
    r = client.post(
        f"/t/{t.edit_token}/mano", data=hand_data(jugador="2", trump="copas", rendida="y", save="1", request_id="a")
    )
    assert r.status_code == 302
    assert session(app, t.edit_token)["hands"][0] == {"jugador": 2, "lance": "entrada", "trump": "copas",
                                                       "rendida": True, "dealer": 1}  # fmt: skip
    # hand 2, dealer Benito: Carmen surrenders, Diego defends and wins 5-2-2 (R28 a)
    data = hand_data(jugador="3", trump="oros", rendida="y", defensor="4", tricks_4="5", tricks_3="2", save="1")
    assert client.post(f"/t/{t.edit_token}/mano", data=data).status_code == 302
    last = ledger(app, t.edit_token)["hands"][-1]
    assert last["result"] == "defendida_ganada"
    assert session(app, t.edit_token)["hands"][-1]["tricks"] == {"3": 2, "4": 5, "1": 2}


def test_edit_resettles_later_hands(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()  # sample: hand 1 Benito wins 5-3-1, a pass, hand 3 Diego 4-4-1 puesta
    url = f"/t/{t.edit_token}/mano/1/editar"
    form = text(client.get(url))
    assert 'name="jugador" value="2" id="jugador-0" checked' in form  # prefilled
    revision = re.search(r'name="revision" type="hidden" value="(\d+)"', form).group(1)  # type: ignore[union-attr]
    data = hand_data(jugador="2", trump="oros", tricks_2="3", tricks_3="5", tricks_4="1", save="1", revision=revision)
    response = client.post(url, data=data)
    assert response.status_code == 302, text(response)
    s = session(app, t.edit_token)
    assert s["hands"][0]["tricks"] == {"2": 3, "3": 5, "4": 1}
    assert s["hands"][0]["dealer"] == 1
    assert ledger(app, t.edit_token) == settle(s)  # later hands re-settled by the engine
    assert ledger(app, t.edit_token)["hands"][0]["result"] == "codillo"
    detail = text(client.get(f"/t/{t.edit_token}/mano/1"))
    assert "corregida" in detail and "bazas: 5-3-1 → 3-5-1" in detail
    # the same stale revision again: a conflict, explained, nothing changed
    stale = client.post(url, data={**data, "tricks_2": "5", "tricks_3": "3"})
    assert stale.status_code == 409
    assert "mientras la editabas" in text(stale)
    assert session(app, t.edit_token)["hands"][0]["tricks"] == {"2": 3, "3": 5, "4": 1}


def test_delete_and_restore(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    before = ledger(app, t.edit_token)
    confirm = text(client.get(f"/t/{t.edit_token}/mano/1/borrar"))
    assert "¿Borrar la mano 1?" in confirm
    assert client.post(f"/t/{t.edit_token}/mano/1/borrar").status_code == 302
    after = session(app, t.edit_token)
    assert len(after["hands"]) == 2
    page = text(client.get(f"/t/{t.edit_token}"))
    assert "Mano 1 borrada" in page
    hand_id = re.search(r"/restaurar/(\d+)", page).group(1)  # type: ignore[union-attr]
    assert client.post(f"/t/{t.edit_token}/restaurar/{hand_id}").status_code == 302
    assert ledger(app, t.edit_token) == before


def test_close_the_table(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    page = text(client.get(f"/t/{t.edit_token}/cerrar"))
    assert "¿Cómo se cierra?" in page and "Cerrar y devolver" in page and "Cerrar y repartir" in page  # R30
    assert client.post(f"/t/{t.edit_token}/cerrar").status_code == 302  # no choice: nothing happens
    assert "close" not in session(app, t.edit_token)["hands"][-1]
    assert client.post(f"/t/{t.edit_token}/cerrar", data={"how": "devolver"}).status_code == 302
    s = session(app, t.edit_token)
    assert s["hands"][-1] == {"close": "devolver"}
    html = text(client.get(f"/t/{t.edit_token}"))
    assert "Partida cerrada" in html
    assert "Anotar mano" not in html
    r = client.post(f"/t/{t.edit_token}/mano", data=hand_data(jugador="2", trump="oros", save="1"))
    assert r.status_code == 302  # back to the table, saying it is closed
    assert len(session(app, t.edit_token)["hands"]) == len(s["hands"])


# ---------------------------------------------------------------- export/import


def test_export_and_import_round_trip(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    exported = client.get(f"/t/{t.view_token}/exportar.json")
    assert "attachment" in exported.headers["Content-Disposition"]
    assert json.loads(exported.data) == session(app, t.edit_token)
    csv = client.get(f"/t/{t.view_token}/exportar.csv")
    assert csv.mimetype == "text/csv"
    response = client.post(
        "/importar", data={"file": (io.BytesIO(exported.data), "partida.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 302
    with app.app_context():
        assert len(store.list_tables()) == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "no es JSON"),
        (json.dumps(sample_session(hands=[{"jugador": 2, "lance": "entrada", "trump": "oros",
                                           "tricks": {"2": 4, "3": 4, "4": 0}}])).encode(), "la mano 1"),
        (json.dumps({"players": ["A", "B", "C"]}).encode(), "archivo de partida"),
        (b"\xff\xfe\x00", "UTF-8"),
    ],
)  # fmt: skip
def test_import_bad_file_saves_nothing(app: Flask, client: FlaskClient, content: bytes, message: str) -> None:
    response = client.post(
        "/importar", data={"file": (io.BytesIO(content), "x.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 400
    assert message in text(response)
    with app.app_context():
        assert store.list_tables() == []


# ----------------------------------------------------------------- safety


def test_names_are_escaped(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(players=["<b>Ana</b>", "Benito", "Carmen", "Diego"], name="<script>x</script>")
    for url in (f"/t/{t.edit_token}", f"/t/{t.edit_token}/mano/1", "/", f"/t/{t.edit_token}/mano"):
        html = text(client.get(url))
        assert "<b>Ana</b>" not in html, url
        assert "<script>x</script>" not in html, url
    assert "&lt;b&gt;Ana&lt;/b&gt;" in text(client.get(f"/t/{t.edit_token}"))


def test_no_inline_scripts_or_handlers(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    for url in ("/", "/nueva", f"/t/{t.edit_token}", f"/t/{t.edit_token}/mano", f"/t/{t.edit_token}/mano/1"):
        html = text(client.get(url))
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert not re.search(r"\son[a-z]+=", html), url
        assert not re.search(r'\sstyle="', html), url


@pytest.fixture
def csrf_app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(WTF_CSRF_ENABLED=True)


def test_csrf_protects_every_form(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    with csrf_app.app_context():
        t = store.create_table(sample_session())
        edit = t.edit_token
    assert client.post("/nueva", data=new_table_form()).status_code == 400
    for url in ("mano", "pasan", "mano/1/borrar", "cerrar"):
        assert client.post(f"/t/{edit}/{url}", data={"jugador": "2"}).status_code == 400, url
    with csrf_app.app_context():
        assert len(store.list_tables()) == 1
        table, _ = store.open_table(edit)
        assert len(store.read(table).session_copy()["hands"]) == 3
    # with the token of the page the form works
    page = text(client.get("/nueva"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert client.post("/nueva", data={**new_table_form(), "csrf_token": token}).status_code == 302


# ------------------------------------------------------------ small words


def subtitle(html: str) -> str:
    """The quiet line under the table's title."""
    match = re.search(r"</h1>\s*<p class=\"muted small\">(.*?)</p>", html, re.S)
    assert match, "no line under the title"
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def test_the_line_under_the_title_joins_what_is_known(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    no_date = make_table()  # a place, no date
    assert subtitle(text(client.get(f"/t/{no_date.edit_token}"))) == "Casino de Oviedo"
    assert subtitle(text(client.get(f"/t/{no_date.view_token}"))) == "Casino de Oviedo · solo para mirar"
    dated = make_table(date="2024-03-07", keeper=2)
    assert (
        subtitle(text(client.get(f"/t/{dated.edit_token}")))
        == "07/03/2024 · Casino de Oviedo · lleva la cartulina Benito"
    )
    bare = make_table(place=None)
    assert subtitle(text(client.get(f"/t/{bare.view_token}"))) == "solo para mirar"
    assert not re.search(r'</h1>\s*<p class="muted small">', text(client.get(f"/t/{bare.edit_token}")))


def test_history_times_in_the_tables_time_zone(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    import datetime as dt
    import zoneinfo

    madrid = make_table(timezone="Europe/Madrid")
    utc = make_table()
    with app.app_context():
        table, _ = store.open_table(madrid.edit_token)
        at = store.hand_history(table, 1)[0].at
    local = at.replace(tzinfo=dt.UTC).astimezone(zoneinfo.ZoneInfo("Europe/Madrid"))
    page = text(client.get(f"/t/{madrid.edit_token}/mano/1"))
    assert local.strftime("%d/%m/%Y %H:%M") in page and " UTC" not in page
    page = text(client.get(f"/t/{utc.edit_token}/mano/1"))
    assert re.search(r"\d\d/\d\d/\d{4} \d\d:\d\d UTC", page)


@pytest.mark.parametrize(("given", "kept"), [("Europe/Madrid", "Europe/Madrid"), ("Mars/Olympus", None), ("", None)])
def test_the_new_table_form_keeps_a_known_time_zone(
    app: Flask, client: FlaskClient, given: str, kept: str | None
) -> None:
    assert client.post("/nueva", data=new_table_form(timezone=given)).status_code == 302
    assert session(app, only_table(app).edit_token).get("timezone") == kept


def test_close_confirmation_says_the_plato_without_nested_parentheses(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    walkthrough = load_json(EXAMPLES / "walkthrough.json")
    expected = load_json(EXAMPLES / "walkthrough.ledger.json")
    t = make_table(walkthrough)
    page = re.sub(r"\s+", " ", text(client.get(f"/t/{t.edit_token}/cerrar")))
    owner = next(e for e in expected["cartulina"] if e["state"] == "en_plato")
    name = walkthrough["players"][owner["owner"] - 1]
    said = f"En el plato hay {expected['plato']['amount']} tantos, con puesta reservada de {name} ({owner['amount']})"
    assert said in page
    panel = re.search(r'<p class="panel">(.*?)</p>', page).group(1)  # type: ignore[union-attr]
    assert not re.search(r"\([^()]*\(", panel), panel
    empty = make_table(hands=[])
    assert "El plato está vacío:" in re.sub(r"\s+", " ", text(client.get(f"/t/{empty.edit_token}/cerrar")))


# ------------------------------------------------- the keeper's phone, second pass


def hidden(html: str, name: str) -> str:
    match = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', html)
    assert match, f"no hidden {name}"
    return match.group(1)


def test_a_hand_form_carries_the_deal_it_was_opened_for(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """The form knows its deal (the number the hand takes) and the table's revision; it never restores taps."""
    t = make_table()  # three entries: the next hand is the 4th
    form = text(client.get(f"/t/{t.edit_token}/mano"))
    assert hidden(form, "deal") == "4"
    with app.app_context():
        revision = store.open_table(t.edit_token)[0].revision
    assert hidden(form, "table_revision") == str(revision)
    assert re.search(r'<form id="hand-form"[^>]*autocomplete="off"', form)
    edit = text(client.get(f"/t/{t.edit_token}/mano/1/editar"))
    assert re.search(r'<form id="hand-form"[^>]*autocomplete="off"', edit)


def test_back_then_guardar_records_nothing(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """A form of a deal that has moved on (Back after Guardar) is refused with a way back to the table."""
    t = make_table(hands=[])
    form = text(client.get(f"/t/{t.edit_token}/mano"))
    deal, revision = hidden(form, "deal"), hidden(form, "table_revision")
    first = hand_data(jugador="2", trump="oros", tricks_2="5", tricks_3="3", save="1", request_id="one")
    first.update(deal=deal, table_revision=revision)
    assert client.post(f"/t/{t.edit_token}/mano", data=first).status_code == 302
    # Back: the same deal's form again, other taps, a fresh request id (the page was reloaded)
    again = hand_data(jugador="3", trump="copas", tricks_3="2", tricks_4="2", save="1", request_id="two")
    again.update(deal=deal, table_revision=revision)
    response = client.post(f"/t/{t.edit_token}/mano", data=again)
    assert response.status_code == 409
    page = text(response)
    assert "no se ha guardado nada" in page
    assert "mano 1" in page and "mano 2" in page
    assert f'href="/t/{t.edit_token}"' in page
    assert len(session(app, t.edit_token)["hands"]) == 1
    # and the same with only the revision out of date (another phone wrote meanwhile)
    client.post(f"/t/{t.edit_token}/pasan", data={"request_id": "pass-elsewhere"})
    stale = hand_data(jugador="3", trump="copas", tricks_3="5", tricks_4="2", save="1", request_id="three")
    stale.update(deal="3", table_revision=revision)
    assert client.post(f"/t/{t.edit_token}/mano", data=stale).status_code == 409
    assert len(session(app, t.edit_token)["hands"]) == 2
    # a form of the current deal and revision is accepted
    fresh = text(client.get(f"/t/{t.edit_token}/mano"))
    ok = hand_data(jugador="4", trump="copas", tricks_4="5", tricks_1="2", save="1", request_id="four")
    ok.update(deal=hidden(fresh, "deal"), table_revision=hidden(fresh, "table_revision"))
    assert client.post(f"/t/{t.edit_token}/mano", data=ok).status_code == 302
    assert len(session(app, t.edit_token)["hands"]) == 3


def test_head_answers_like_get(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    for url in (f"/t/{t.edit_token}/mano", f"/t/{t.edit_token}/mano/1/editar", f"/t/{t.edit_token}/mano/1/borrar",
                f"/t/{t.edit_token}/cerrar", "/nueva", f"/t/{t.edit_token}/manos"):  # fmt: skip
        get, head = client.get(url), client.head(url)
        assert head.status_code == get.status_code == 200, url
        assert head.get_data() == b""


def test_the_jugador_can_come_from_the_table_page(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """The table page's "Juega …" buttons open the form with the Jugador chosen (one tap less)."""
    t = make_table(hands=[])  # Ana deals: Benito, Carmen, Diego play
    # the page as shown: the next deals' turns kept for offline (<template data-ahead>) are inert
    table_page = re.sub(r"<template data-ahead.*?</template>", "", text(client.get(f"/t/{t.edit_token}")), flags=re.S)
    for seat in (2, 3, 4):
        assert f'href="/t/{t.edit_token}/mano?jugador={seat}"' in table_page
    assert "/mano?jugador=1" not in table_page  # the alcalde does not play
    form = text(client.get(f"/t/{t.edit_token}/mano?jugador=3"))
    assert re.search(r'name="jugador" value="3" id="jugador-\d" checked', form)
    assert "checked" not in re.search(r'name="jugador" value="2"[^>]*>', form).group(0)  # type: ignore[union-attr]
    alcalde = text(client.get(f"/t/{t.edit_token}/mano?jugador=1"))
    assert not re.search(r'name="jugador" value="\d" id="jugador-\d" checked', alcalde)


def many_hands(count: int) -> list[dict[str, Any]]:
    """``count`` hands of every kind, dealt in turn (R1–R3); each Jugador is the mano of the deal."""
    from scorer.engine.tresillo import active_seats

    hands: list[dict[str, Any]] = []
    for i in range(count):
        a, b, c = active_seats(4, i % 4 + 1)
        kind = i % 4
        if kind == 0:
            hands.append(
                {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {str(a): 5, str(b): 3, str(c): 1}}
            )
        elif kind == 1:
            hands.append(
                {"jugador": a, "lance": "entrada", "trump": "copas", "tricks": {str(a): 3, str(b): 5, str(c): 1}}
            )
        elif kind == 2:
            hands.append({"pass": True})
        else:
            hands.append(
                {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {str(a): 4, str(b): 4, str(c): 1}}
            )
    return hands


def test_every_hand_is_in_reach(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """The full list: newest first, a page at a time, each line in words and opening its hand; filters."""
    t = make_table(hands=many_hands(130))
    table_page = text(client.get(f"/t/{t.edit_token}"))
    assert f'href="/t/{t.edit_token}/manos"' in table_page and "Todas las manos (130)" in table_page
    first = text(client.get(f"/t/{t.edit_token}/manos"))
    numbers = [int(n) for n in re.findall(rf'href="/t/{t.edit_token}/mano/(\d+)"', first)]
    assert numbers == list(range(130, 80, -1))  # 50 a page, newest first
    assert "Página 1 de 3" in first and "pagina=2" in first
    last = text(client.get(f"/t/{t.edit_token}/manos?pagina=3"))
    assert [int(n) for n in re.findall(rf'href="/t/{t.edit_token}/mano/(\d+)"', last)] == list(range(30, 0, -1))
    # hand 2: Carmen (mano of Benito's deal) 3-5-1: the codillo is Diego's (R9), in words
    ledger_ = ledger(app, t.edit_token)
    assert ledger_["hands"][1]["result"] == "codillo"
    assert re.search(rf'href="/t/{t.edit_token}/mano/2">2 · Carmen · entrada ♥ · 3-5-1 · codillo de Diego', last)
    # filters: by result, by player, both; the page keeps them
    codillos = text(client.get(f"/t/{t.edit_token}/manos?resultado=codillo"))
    shown = [int(n) for n in re.findall(rf'href="/t/{t.edit_token}/mano/(\d+)"', codillos)]
    expected = [e["n"] for e in reversed(ledger_["hands"]) if e["result"] == "codillo"]
    assert shown == expected[:50] and "33 manos con estos filtros" in codillos
    assert "Página" not in codillos  # 33 fit on one page
    hands = session(app, t.edit_token)["hands"]
    benito = text(client.get(f"/t/{t.edit_token}/manos?jugador=Ana&resultado=puesta"))
    shown = [int(n) for n in re.findall(rf'href="/t/{t.edit_token}/mano/(\d+)"', benito)]
    assert shown and all(hands[n - 1].get("jugador") == 1 for n in shown)
    assert all(ledger_["hands"][n - 1]["result"] == "puesta" for n in shown)
    passes = text(client.get(f"/t/{t.edit_token}/manos?resultado=paso"))
    assert "todos pasan" in passes
    # nonsense in the query is ignored, never a 500
    for query in ("pagina=0", "pagina=999", "pagina=x", "jugador=9", "jugador=Nadie", "resultado=nada"):
        assert client.get(f"/t/{t.edit_token}/manos?{query}").status_code == 200
    # the view link sees the list too
    assert client.get(f"/t/{t.view_token}/manos").status_code == 200


def test_todos_pasan_can_be_undone(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(hands=[])
    page = text(client.post(f"/t/{t.edit_token}/pasan", data={"request_id": "p1"}, follow_redirects=True))
    assert "Mano 1: todos pasan." in page
    assert f'action="/t/{t.edit_token}/pasan/1/deshacer"' in page and ">Deshacer</button>" in page
    undone = text(client.post(f"/t/{t.edit_token}/pasan/1/deshacer", follow_redirects=True))
    assert "Deshecho" in undone
    assert session(app, t.edit_token)["hands"] == []
    with app.app_context():
        table = store.open_table(t.edit_token)[0]
        assert [d.hand.get("pass") for d in store.deleted_hands(table)] == [True]  # kept, restorable
    # only the last hand, and only a pass, can be undone this way
    client.post(f"/t/{t.edit_token}/pasan", data={"request_id": "p2"})
    client.post(
        f"/t/{t.edit_token}/mano", data=hand_data(jugador="3", trump="oros", tricks_3="5", tricks_4="3", save="1")
    )
    refused = text(client.post(f"/t/{t.edit_token}/pasan/1/deshacer", follow_redirects=True))
    assert "No se ha deshecho nada" in refused
    assert len(session(app, t.edit_token)["hands"]) == 2
    assert client.post(f"/t/{t.view_token}/pasan/2/deshacer").status_code == 403


def live(client: FlaskClient, url: str, **fields: str) -> dict[str, Any]:
    response = client.post(url, data=hand_data(**fields))
    assert response.status_code == 200 and response.mimetype == "application/json"
    return dict(response.get_json())


INCOMPLETE = {  # a hand still being filled in, per game: what the keeper has tapped so far
    "tresillo": {"jugador": "2"},
    "ombre": {"jugador": "1", "lance": "entrada"},
    "bandos": {},
}


@pytest.mark.parametrize("ruleset", sorted(INCOMPLETE))
def test_a_hand_being_filled_in_is_not_a_mistake_in_either_language(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table], ruleset: str
) -> None:
    """The live preview tells "still filling in" (missing) from "cannot be saved" (problems) by the
    form's own mark, not by the Spanish words: an English page gets the same state."""
    players = {"tresillo": PLAYERS4, "ombre": PLAYERS4[:3], "bandos": [*PLAYERS4, "Elena", "Fermín"]}[ruleset]
    t = make_table(hands=[], players=players, rules={"ruleset": ruleset})
    url = f"/t/{t.edit_token}/mano/pagos"
    said = {}
    for lang in ("es", "en"):
        answer = client.post(url, data=INCOMPLETE[ruleset], headers={"Accept-Language": lang}).get_json()
        assert answer["ok"] is False and answer["missing"], (lang, answer)
        assert answer["problems"] == {}, (lang, answer)  # not the "cannot be saved" bar
        said[lang] = answer["missing"]
    assert said["es"] != said["en"]  # each in its page's language
    # a wrong value still is a problem, in English too
    if ruleset == "tresillo":
        wrong = client.post(
            url, data=hand_data(jugador="2", trump="oros", tricks_2="8", tricks_3="1", bola="hecha"),
            headers={"Accept-Language": "en"},
        ).get_json()  # fmt: skip
        assert wrong["ok"] is False and "bola" in wrong["problems"]


def test_live_preview_is_the_engines_and_saves_nothing(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table(hands=[])
    url = f"/t/{t.edit_token}/mano/pagos"
    form = text(client.get(f"/t/{t.edit_token}/mano"))
    assert f'data-live="{url}"' in form
    incomplete = live(client, url, jugador="2")
    assert incomplete["ok"] is False and incomplete["missing"] and not incomplete["problems"]
    data = live(client, url, jugador="2", trump="oros", tricks_2="5", tricks_3="3")
    assert data["ok"] is True and data["result"] == "ganada"
    with app.app_context():
        table = store.open_table(t.edit_token)[0]
        entry = store.preview_hand(table, {"jugador": 2, "lance": "entrada", "trump": "oros",
                                              "tricks": {"2": 5, "3": 3, "4": 1}})  # fmt: skip
    assert [(x["amount"]) for x in data["transfers"]] == [x["amount"] for x in entry["transfers"]]
    assert "plato" in data["after"]
    # a flag the tricks contradict: explained for its field, nothing saved
    wrong = live(client, url, jugador="2", trump="oros", tricks_2="8", tricks_3="1", bola="hecha")
    assert wrong["ok"] is False and "bola" in wrong["problems"]
    assert "nueve bazas" in wrong["problems"]["bola"][0]
    both = live(client, url, jugador="2", trump="oros", tricks_2="5", tricks_3="3", estuches="3", contraestuches="3")
    assert "estuches" in both["problems"]
    assert session(app, t.edit_token)["hands"] == []
    # the edit form's preview replaces the hand in place
    client.post(
        f"/t/{t.edit_token}/mano", data=hand_data(jugador="2", trump="oros", tricks_2="5", tricks_3="3", save="1")
    )
    edit = live(client, f"/t/{t.edit_token}/mano/1/pagos", jugador="2", trump="oros", tricks_2="3", tricks_3="5")
    assert edit["ok"] is True and edit["result"] == "codillo de Carmen"
    assert session(app, t.edit_token)["hands"][0]["tricks"] == {"2": 5, "3": 3, "4": 1}
    assert client.post(f"/t/{t.view_token}/mano/pagos", data=hand_data(jugador="2")).status_code == 403


def test_a_closed_table_says_who_pays_whom(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    from scorer.sheet.settleup import settle_up

    t = make_table()
    with app.app_context():
        store.close_table(store.require_edit(t.edit_token))
    page = text(client.get(f"/t/{t.edit_token}"))
    assert "Quién paga a quién" in page
    final = ledger(app, t.edit_token)["balances"]
    names = dict(enumerate(["Ana", "Benito", "Carmen", "Diego"], 1))
    payments = settle_up({names[int(s)]: v for s, v in final.items()})
    assert payments
    for p in payments:
        assert re.search(rf'<span class="who">{p.payer}</span> paga a <span class="who">{p.payee}</span>', page)
    assert f'href="/tables/{t.edit_token}/sheet"' in page and f'href="/tables/{t.edit_token}/sheet.pdf"' in page
    open_page = text(client.get(f"/t/{make_table().edit_token}"))
    assert "Quién paga a quién" not in open_page


def test_new_table_names_the_seats_and_sums_up_its_errors(app: Flask, client: FlaskClient) -> None:
    page = text(client.get("/nueva"))
    assert 'name="timezone"' in page  # filled in by app.js: the history in the keeper's own clock
    assert '<option selected value="">el último asiento</option>' in page  # the keeper: the last seat
    data = {"game": "tresillo", "player1": "Ana", "player2": "Benito", "player3": "Ana", "player4": "Diego",
            "keeper": "", "first_dealer": "2", "dealer_stake": "5", "enchilada": "0", "rounding": "5",
            "favor_doubling": "double_rounded", "solo_codillo": "codillo_only", "failed_bola": "pays_bola",
            "tanto_value": "0,05", "timezone": "Europe/Madrid"}  # fmt: skip
    response = client.post("/nueva", data=data)
    assert response.status_code == 400
    page = text(response)
    summary = page[page.index('class="error-summary"') : page.index("</div>", page.index('class="error-summary"'))]
    assert 'href="#player3"' in summary and "«Ana» ya está en la mesa" in summary
    assert page.index('class="error-summary"') < page.index('id="player1"')  # at the top
    assert '<option selected value="2">Benito (asiento 2)</option>' in page
    assert "el último asiento (Diego)" in page
    data["player3"] = "Carmen"
    created = client.post("/nueva", data=data)
    assert created.status_code == 302
    token = created.headers["Location"].rsplit("/", 1)[-1]
    stored = session(app, token)
    assert stored["keeper"] == 4 and stored["first_dealer"] == 2 and stored["timezone"] == "Europe/Madrid"


def test_home_counts_hands_not_entries(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()  # three hands (one a pass)
    client.get(f"/t/{t.edit_token}")  # this browser opened it with the edit link
    with app.app_context():
        store.close_table(store.require_edit(t.edit_token))
    assert len(session(app, t.edit_token)["hands"]) == 4  # the closing is an entry …
    home = text(client.get("/"))
    assert "3 manos" in home and "4 manos" not in home  # … not a hand


def test_the_live_preview_never_rewrites_the_session_cookie(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """A preview answered after Guardar must not put back a cookie without Guardar's message."""
    t = make_table(hands=[])
    client.get(f"/t/{t.edit_token}")  # a permanent session
    preview = client.post(f"/t/{t.edit_token}/mano/pagos", data=hand_data(jugador="2"))
    assert preview.status_code == 200 and "Set-Cookie" not in preview.headers
    # the session's own changes still write it (tests/web/tables/test_kept_copies.py: only those)
    assert "Set-Cookie" in client.post(f"/t/{t.edit_token}/fin", data={"ending": "1"}).headers


def test_the_hand_list_filters_by_person_after_a_change_of_player(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """R33: seat 4 is Diego, then Elena; the filter is by person and each line names who played it."""
    evening = load_json(EXAMPLES / "real_evening.json")
    t = make_table(evening)
    page = text(client.get(f"/t/{t.edit_token}/manos"))
    assert "<option>Elena</option>" in page and "<option>Diego</option>" in page
    seat4 = [n for n, h in enumerate(evening["hands"], 1) if h.get("jugador") == 4]
    elena = text(client.get(f"/t/{t.edit_token}/manos?jugador=Elena"))
    diego = text(client.get(f"/t/{t.edit_token}/manos?jugador=Diego"))
    shown = {
        name: [int(n) for n in re.findall(rf'href="/t/{t.edit_token}/mano/(\d+)">\d+ · {name} ·', html)]
        for name, html in (("Elena", elena), ("Diego", diego))
    }
    assert shown["Diego"] == seat4 == [2]  # seat 4 played hand 2 when Diego sat there
    assert shown["Elena"] == [] and "Ninguna mano con estos filtros" in elena  # Elena sat down after it
