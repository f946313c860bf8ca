"""Pozo y viuda, Ombre sencillo and the juego de bandos in the web app, through the test client.

Each game: a table made with the new-table form (and a wrong player count refused),
every hand of the shared example entered through the hand form and the resulting
ledger compared with the example's expected ledger, impossible hands refused in
Spanish with nothing saved, the table page's pots/bote/scores, the hand pages, the
JSON API, export and import.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import store, words
from scorer.store.models import Table
from tests.conftest import EXAMPLES, load_json


def example(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return load_json(EXAMPLES / f"{name}.json"), load_json(EXAMPLES / f"{name}.ledger.json")


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def plain(html: str) -> str:
    """The page's text without tags, spaces collapsed (so '<span>80</span>' reads '80')."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def ledger(app: Flask, token: str) -> dict[str, Any]:
    with app.app_context():
        table, _ = store.open_table(token)
        return store.read(table).ledger_copy()


def hands_stored(app: Flask, token: str) -> list[dict[str, Any]]:
    with app.app_context():
        table, _ = store.open_table(token)
        return list(store.read(table).session_copy()["hands"])


def empty_table(make_table: Callable[..., Table], session: dict[str, Any]) -> Table:
    start = copy.deepcopy(session)
    start["hands"] = []
    return make_table(start)


# ------------------------------------------------------------- form data


def form_of(hand: dict[str, Any], ruleset: str, *, short: bool = True) -> dict[str, str]:
    """The hand form's fields for a hand of format.md (the test's own mapping).

    With ``short`` only the Jugador's tricks and one other player's are sent: the
    form fills in the third.
    """
    data: dict[str, str] = {"save": "1"}
    if ruleset == "bandos":
        data["primeras"] = hand.get("primeras", "")
        if hand.get("capote"):
            data["capote"] = "y"
        for i, falta in enumerate(hand.get("faltas", [])):
            data[f"faltas-{i}-seat"] = str(falta["seat"])
            data[f"faltas-{i}-falta"] = falta["falta"]
            if "points" in falta:
                data[f"faltas-{i}-points"] = str(falta["points"])
        return data
    data.update(jugador=str(hand["jugador"]), lance=hand["lance"], trump=hand["trump"])
    tricks = {int(k): v for k, v in hand["tricks"].items()}
    given = [hand["jugador"], next(s for s in sorted(tricks) if s != hand["jugador"])] if short else list(tricks)
    if short and sum(tricks.values()) != 9:
        given = list(tricks)  # a short split (R10) needs all three counts
    for seat in given:
        data[f"tricks_{seat}"] = str(tricks[seat])
    if ruleset == "pozo_viuda":
        data["matadores"] = str(hand.get("matadores", 0))
        if hand.get("primeras") == "jugador":
            data["primeras"] = "y"
        data["bola"] = hand.get("bola", "")
    if ruleset == "ombre" and hand.get("matadores_en") is not None:
        data["matadores_en"] = str(hand["matadores_en"])
    return data


def enter(client: FlaskClient, token: str, hand: dict[str, Any], ruleset: str) -> Any:
    """Enter one hand of the session file through the pages: the form, Todos pasan or the closing."""
    if "pass" in hand:
        return client.post(f"/t/{token}/pasan", data={"request_id": f"p{id(hand)}"})
    if "close" in hand:
        return client.post(f"/t/{token}/cerrar", data={})
    return client.post(f"/t/{token}/mano", data=form_of(hand, ruleset))


def same_state(got: dict[str, Any], want: dict[str, Any], keys: tuple[str, ...]) -> None:
    assert len(got["hands"]) == len(want["hands"])
    for mine, theirs in zip(got["hands"], want["hands"], strict=True):
        for key in ("n", "dealer", "result", *keys):
            assert mine.get(key) == theirs.get(key), (mine["n"], key)
    for key in keys:
        assert got.get(key) == want.get(key), key


GAMES = [
    ("pozo_viuda_table", "pozo_viuda", ("balances", "pozo", "viuda")),
    ("pozo_viuda_seed", "pozo_viuda", ("balances", "pozo", "viuda")),
    ("ombre_three", "ombre", ("balances", "bote", "over")),
    ("bandos_game", "bandos", ("scores", "over", "winner")),
]


# ------------------------------------------------------------- new table


def new_table_data(game: str, names: list[str], **changes: str) -> dict[str, str]:
    data = {"game": game, "name": "Prueba", "keeper": "1", "first_dealer": "1", "tanto_value": "0,10", "currency": "€"}
    data.update({f"player{i}": name for i, name in enumerate(names, 1)})
    data.update(changes)
    return data


def csv_parts(text: str) -> tuple[list[list[str]], list[list[str]]]:
    """The rows of a CSV export: the hand table (header first), and the table's rules after the empty row."""
    rows = list(csv.reader(io.StringIO(text)))
    cut = rows.index([])
    return rows[:cut], rows[cut + 1 :]


def csv_dicts(text: str) -> list[dict[str, str]]:
    """The hand table of a CSV export as dicts by its header (the rules after it left out)."""
    table, _rules = csv_parts(text)
    return [dict(zip(table[0], row, strict=True)) for row in table[1:]]


def only_session(app: Flask) -> dict[str, Any]:
    with app.app_context():
        tables = store.list_tables()
        assert len(tables) == 1
        table, _ = store.open_table(tables[0].edit_token)
        return store.read(table).session_copy()


def test_new_table_page_offers_every_game_with_its_options(client: FlaskClient) -> None:
    html = text(client.get("/nueva"))
    for label in ("Tresillo", "Pozo y viuda", "Ombre sencillo", "Juego de bandos"):
        assert label in html
    for name in ("pv_pozo_stake", "pv_viuda_stake", "pv_pozo_cap", "pv_contrabola", "pv_favor_suit", "om_stake",
                 "om_solo_stake", "om_vole_bonus", "om_matador_bonus", "om_deals", "om_target", "bd_target",
                 "bd_fuera_de_turno", "bd_renuncio", "player5", "player6"):  # fmt: skip
        assert f'name="{name}"' in html, name
    assert "Equipo A: asientos 1, 3 y 5" in html


def test_create_pozo_viuda_through_the_form(app: Flask, client: FlaskClient) -> None:
    data = new_table_data(
        "pozo_viuda", ["Ana", "Benito", "Carmen", "Diego"], pv_favor_suit="copas", pv_pozo_stake="10",
        pv_viuda_stake="25", pv_pozo_cap="4", pv_contrabola="y",
        # Tresillo's and the other games' fields are on the page too (no JS): not used
        dealer_stake="cinco", om_stake="x", bd_target="",
    )  # fmt: skip
    response = client.post("/nueva", data=data)
    assert response.status_code == 302, plain(text(response))[:500]
    session = only_session(app)
    assert session["rules"] == {"ruleset": "pozo_viuda", "favor_suit": "copas", "pozo_stake": 10, "contrabola": True}
    assert session["players"] == ["Ana", "Benito", "Carmen", "Diego"]
    assert session["tanto_value"] == "0.10"


def test_create_ombre_through_the_form(app: Flask, client: FlaskClient) -> None:
    data = new_table_data("ombre", ["Elena", "Fermín", "Gloria"], om_stake="10", om_solo_stake="30",
                          om_vole_bonus="10", om_matador_bonus="5", om_deals="12", om_target="")  # fmt: skip
    assert client.post("/nueva", data=data).status_code == 302
    session = only_session(app)
    assert session["rules"] == {"ruleset": "ombre", "solo_stake": 30, "deals": 12}


def test_ombre_outcome_option_through_the_form_and_a_hand(app: Flask, client: FlaskClient) -> None:
    # O2: the new-table form offers both trick rules, each explained with an example split
    html = plain(text(client.get("/nueva")))
    assert "4-3-2 es puesta" in html and "4-3-2 gana" in html
    data = new_table_data("ombre", ["Elena", "Fermín", "Gloria"], om_stake="10", om_solo_stake="20",
                          om_vole_bonus="10", om_matador_bonus="5", om_outcome="most_tricks")  # fmt: skip
    assert client.post("/nueva", data=data).status_code == 302
    session = only_session(app)
    assert session["rules"] == {"ruleset": "ombre", "outcome": "most_tricks"}
    with app.app_context():
        table = store.list_tables()[0]
        token = table.edit_token
    # 4-3-2 for the hombre (seat 2; seat 1 deals): a sacada under R9, 10 from each defender
    hand = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 4, "3": 3, "1": 2}}
    assert enter(client, token, hand, "ombre").status_code == 302
    with app.app_context():
        ledger = store.read(store.open_table(token)[0]).ledger_copy()
    assert ledger["hands"][0]["result"] == "ganada"
    assert ledger["balances"] == {"1": -10, "2": 20, "3": -10}
    sheet = plain(text(client.get(f"/tables/{token}/sheet")))
    assert "más bazas que cada defensor" in sheet


def test_create_bandos_through_the_form(app: Flask, client: FlaskClient) -> None:
    names = ["Ana", "Benito", "Carmen", "Diego", "Elena", "Fermín"]
    data = new_table_data("bandos", names, bd_target="5", bd_fuera_de_turno="1", bd_renuncio="2", first_dealer="6")
    assert client.post("/nueva", data=data).status_code == 302
    session = only_session(app)
    assert session["rules"] == {"ruleset": "bandos", "target": 5, "renuncio": 2}
    assert session["first_dealer"] == 6
    assert "tanto_value" not in session  # no money in the juego de bandos


@pytest.mark.parametrize(
    ("game", "names", "changes", "message"),
    [
        ("ombre", ["A", "B", "C", "D"], {}, "Ombre sencillo se juega con exactamente 3 jugadores, y hay 4."),
        ("bandos", ["A", "B", "C", "D"], {}, "Juego de bandos se juega con exactamente 6 jugadores, y hay 4."),
        ("bandos", ["A", "B", "C"], {}, "A en los asientos 1, 3, 5 y B en los 2, 4, 6"),
        ("pozo_viuda", ["A", "B", "C", "D", "E"], {}, "Pozo y viuda se juega con 3 o 4 jugadores, y hay 5."),
        ("tresillo", ["A", "B", "C", "D", "E", "F"], {}, "Tresillo se juega con 3 o 4 jugadores, y hay 6."),
        ("pozo_viuda", ["A", "B", "C"], {"pv_pozo_stake": ""}, "Hace falta un número."),
        ("pozo_viuda", ["A", "B", "C"], {"pv_pozo_cap": "0"}, "Ha de ser un número de 1 a 100 (P4)."),
        ("ombre", ["A", "B", "C"], {"om_deals": "muchas"}, "no es un número entero"),
        ("bandos", ["A", "B", "C", "D", "E", "F"], {"bd_target": "0"}, "Ha de ser un número de 1 a 1000 (B4)."),
        ("ombre", ["A", "B", "C"], {"first_dealer": "4"}, "Con tres jugadores, da uno de los asientos 1 a 3."),
    ],
)
def test_new_table_refuses_in_spanish_and_saves_nothing(
    app: Flask, client: FlaskClient, game: str, names: list[str], changes: dict[str, str], message: str
) -> None:
    defaults = {"pv_pozo_stake": "5", "pv_viuda_stake": "25", "pv_pozo_cap": "4", "om_stake": "10",
                "om_solo_stake": "20", "om_vole_bonus": "10", "om_matador_bonus": "5", "bd_target": "12",
                "bd_fuera_de_turno": "1", "bd_renuncio": "1"}  # fmt: skip
    response = client.post("/nueva", data=new_table_data(game, names, **{**defaults, **changes}))
    assert response.status_code == 400
    assert message in plain(text(response))
    with app.app_context():
        assert store.list_tables() == []


# ----------------------------------------------- hands through the forms


@pytest.mark.parametrize(("name", "ruleset", "keys"), GAMES)
def test_every_hand_through_the_form_gives_the_examples_ledger(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table], name: str, ruleset: str, keys: tuple[str, ...]
) -> None:
    session, expected = example(name)
    t = empty_table(make_table, session)
    for n, hand in enumerate(session["hands"], 1):
        if "close" not in hand and "pass" not in hand:
            page = client.get(f"/t/{t.edit_token}/mano")
            assert page.status_code == 200
            assert 'id="hand-form"' in text(page)
        response = enter(client, t.edit_token, hand, ruleset)
        assert response.status_code == 302, (n, plain(text(response))[:800])
        assert len(hands_stored(app, t.edit_token)) == n
    same_state(ledger(app, t.edit_token), expected, keys)


def test_pozo_preview_shows_the_engines_payments_and_saves_nothing(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    session, expected = example("pozo_viuda_table")
    t = empty_table(make_table, {**session, "hands": []})
    for hand in session["hands"][:2]:
        enter(client, t.edit_token, hand, "pozo_viuda")
    hand = session["hands"][2]  # Diego's roben with three matadores
    response = client.post(f"/t/{t.edit_token}/mano", data={**form_of(hand, "pozo_viuda"), "save": "", "preview": "1"})
    assert response.status_code == 200
    page = plain(text(response))
    assert "Pagos de esta mano" in page
    want = expected["hands"][2]
    for transfer in want["transfers"]:
        assert f"{transfer['amount']}" in page
    entry = ledger(app, t.edit_token)
    assert len(entry["hands"]) == 2  # nothing saved
    with app.app_context():
        table, _ = store.open_table(t.edit_token)
        preview = store.preview_hand(table, hand)
    for transfer in preview["transfers"]:
        assert transfer["detail"] in page  # each transfer's explanation from the engine
    assert f"pozo {want['pozo']['amount']}" in page


@pytest.mark.parametrize(
    ("ruleset", "hand", "field", "message"),
    [
        ("pozo_viuda", {"jugador": 2, "lance": "juego", "trump": "espadas", "matadores": 4,
                        "tricks": {"2": 5, "3": 3, "4": 1}}, "matadores", "como mucho 3 matadores"),
        ("pozo_viuda", {"jugador": 2, "lance": "juego", "trump": "oros", "primeras": "jugador",
                        "tricks": {"2": 4, "3": 4, "4": 1}}, "primeras", "5-0-0, 9-0-0 o una bola cortada"),
        ("pozo_viuda", {"jugador": 2, "lance": "contrabola", "trump": "oros",
                        "tricks": {"2": 0, "3": 5, "4": 4}}, "lance", "no se admite la contrabola"),
        ("pozo_viuda", {"jugador": 2, "lance": "juego", "trump": "oros", "bola": "hecha",
                        "tricks": {"2": 8, "3": 1, "4": 0}}, "bola", "Bola hecha: el jugador hace las nueve bazas"),
        ("pozo_viuda", {"jugador": 2, "lance": "juego", "trump": "oros",
                        "tricks": {"2": 4, "3": 4, "4": 0}}, "tricks", "la mano no está decidida"),
        ("ombre", {"jugador": 2, "lance": "entrada", "trump": "oros",
                   "tricks": {"1": 4, "2": 4, "3": 0}}, "tricks", "la mano no está decidida"),
        ("bandos", {"capote": True}, "capote", "El capote es del equipo que hizo las seis bazas"),
        ("bandos", {}, "primeras", "o anota la falta que acabó la mano"),
    ],
)  # fmt: skip
def test_an_impossible_hand_is_explained_next_to_its_field(
    app: Flask,
    client: FlaskClient,
    make_table: Callable[..., Table],
    ruleset: str,
    hand: dict[str, Any],
    field: str,
    message: str,
) -> None:
    name = {"pozo_viuda": "pozo_viuda_seed", "ombre": "ombre_three", "bandos": "bandos_game"}[ruleset]
    session, _ = example(name)
    players = {"pozo_viuda": ["Ana", "Benito", "Carmen", "Diego"]}.get(ruleset, session["players"])
    t = make_table({**session, "players": players, "rules": {"ruleset": ruleset}, "first_dealer": 1, "hands": []})
    data = form_of(hand, ruleset, short=False) if ruleset != "bandos" else {"save": "1", **form_of(hand, ruleset)}
    response = client.post(f"/t/{t.edit_token}/mano", data=data)
    assert response.status_code == 400
    html = text(response)
    assert "No se ha guardado" in html
    section = html.split(f'id="f-{field}"', 1)[1].split("</fieldset>", 1)[0]
    assert message in section  # next to the field, in Spanish
    assert hands_stored(app, t.edit_token) == []


def test_contrabola_is_offered_only_when_admitted(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    session, _ = example("pozo_viuda_table")
    admitted = empty_table(make_table, session)
    refused = empty_table(make_table, {**session, "rules": {"ruleset": "pozo_viuda"}})
    assert 'value="contrabola"' in text(client.get(f"/t/{admitted.edit_token}/mano"))
    assert 'value="contrabola"' not in text(client.get(f"/t/{refused.edit_token}/mano"))


def test_bandos_has_no_todos_pasan_and_no_closing(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    session, _ = example("bandos_game")
    t = make_table({**session, "hands": session["hands"][:3]})
    page = text(client.get(f"/t/{t.edit_token}"))
    assert "Todos pasan" not in page
    assert f"/t/{t.edit_token}/cerrar" not in page
    passed = client.post(f"/t/{t.edit_token}/pasan", data={"request_id": "r1"}, follow_redirects=True)
    assert "En el juego de bandos no se pasa" in text(passed)
    closed = client.post(f"/t/{t.edit_token}/cerrar", data={}, follow_redirects=True)
    assert "termina solo cuando un equipo llega a la meta" in text(closed)
    assert len(hands_stored(app, t.edit_token)) == 3


def test_a_hand_after_the_end_is_refused(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    ombre, _ = example("ombre_three")
    bandos, _ = example("bandos_game")
    o = make_table(ombre)  # eight deals of eight: over (O6)
    b = make_table(bandos)  # team A won (B4)
    for t, hand, ruleset, message in (
        (o, {"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 5, "2": 2, "3": 2}}, "ombre",
         "La partida ha terminado"),
        (b, {"primeras": "A"}, "bandos", "El juego ha terminado: ganó el equipo A."),
    ):  # fmt: skip
        before = len(hands_stored(app, t.edit_token))
        table_page = text(client.get(f"/t/{t.edit_token}"))
        assert f'href="/t/{t.edit_token}/mano"' not in table_page  # no "Anotar mano" any more
        response = client.post(f"/t/{t.edit_token}/mano", data=form_of(hand, ruleset))
        assert response.status_code == 400
        assert message in text(response)
        assert len(hands_stored(app, t.edit_token)) == before


# --------------------------------------------------------- table pages


def test_pozo_table_page_shows_the_pozo_its_reserves_and_the_viuda(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    session, expected = example("pozo_viuda_table")
    t = make_table({**session, "hands": session["hands"][:9], "tanto_value": "0.10", "currency": "€"})
    want = expected["hands"][8]  # after hand 9 the pozo is full and two reserves wait
    assert want["pozo"]["reserves"]
    page = plain(text(client.get(f"/t/{t.edit_token}")))
    assert f"Pozo {want['pozo']['amount']}" in page
    assert f"Viuda {want['viuda']}" in page
    assert "en reserva: " + " ".join(str(r) for r in want["pozo"]["reserves"]) in page
    for seat, name in expected["players"].items():
        tantos = want["balances"][seat]
        shown = f"+{tantos}" if tantos > 0 else (f"−{-tantos}" if tantos < 0 else "0")
        assert f"{name} {shown}" in page
    money = want["balances"]["1"] / 10
    assert f"{abs(money):.2f}".replace(".", ",") + " €" in page
    assert "Da Benito (alcalde, no juega)" in page  # who deals next: hand 10 is dealt by seat 2
    assert "9 · Benito · roben ♦ · 4-4-1 · puesta" in page  # last hands, one line each


def test_ombre_table_page_shows_the_bote_and_the_deals(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    session, expected = example("ombre_three")
    t = make_table({**session, "hands": session["hands"][:5]})
    page = plain(text(client.get(f"/t/{t.edit_token}")))
    assert f"Bote {expected['hands'][4]['bote']}" in page
    assert "Manos 5 de 8" in page
    assert "Partida terminada" not in page
    assert "Todos pasan" in page
    done = make_table(session)
    page = plain(text(client.get(f"/t/{done.edit_token}")))
    assert "Partida terminada" in page
    assert f"Bote {expected['bote']}" in page
    assert "queda repartir el bote" in page


def test_ombre_after_the_last_deal_offers_no_closing(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    # O6: once the session is over every further entry, the closing included, is refused;
    # the bote stays.
    session, expected = example("ombre_three")
    done = make_table(session)  # eight deals of eight: over (O6), the bote still holds something
    assert expected["over"] and expected["bote"] > 0
    html = text(client.get(f"/t/{done.edit_token}"))
    assert f'href="/t/{done.edit_token}/cerrar"' not in html
    assert "Anotar mano" not in html
    stored = hands_stored(app, done.edit_token)
    response = client.post(f"/t/{done.edit_token}/cerrar", data={})
    assert response.status_code < 500
    assert hands_stored(app, done.edit_token) == stored  # nothing saved
    assert ledger(app, done.edit_token)["bote"] == expected["bote"]


def test_bandos_table_page_shows_each_players_tantos_and_the_winner(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    session, expected = example("bandos_game")
    t = make_table(session)
    page = plain(text(client.get(f"/t/{t.view_token}")))
    for seat, name in expected["players"].items():
        assert f"{name} {expected['scores'][seat]}" in page
    assert f"¡Gana el equipo {expected['winner']}!" in page
    assert "meta 5" in page
    assert "Saldos" not in page and "€" not in page  # no money
    going = make_table({**session, "hands": session["hands"][:4]})
    page = plain(text(client.get(f"/t/{going.edit_token}")))
    assert "Da A3 Sale B3" in page  # hand 5 is dealt by seat 5; seat 6 leads
    assert "¡Gana" not in page


# ------------------------------------------------ hand pages and changes


@pytest.mark.parametrize(("name", "ruleset", "keys"), GAMES)
def test_hand_pages_answer_with_either_token(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table], name: str, ruleset: str, keys: tuple[str, ...]
) -> None:
    session, expected = example(name)
    t = make_table(session)
    for token in (t.edit_token, t.view_token):
        for n in range(1, len(session["hands"]) + 1):
            response = client.get(f"/t/{token}/mano/{n}")
            assert response.status_code == 200, (n, token == t.edit_token)
            assert f"Mano {n}" in text(response)
    second = plain(text(client.get(f"/t/{t.edit_token}/mano/2")))
    entry = ledger(app, t.edit_token)["hands"][1]
    assert entry["result"] == expected["hands"][1]["result"]
    for transfer in entry.get("transfers", []):
        assert f"{transfer['amount']} (" in second
        assert transfer["detail"] in second  # each transfer with the engine's explanation
    if ruleset == "bandos":
        for seat, player in expected["players"].items():
            assert f"{player} {expected['hands'][1]['scores'][seat]}" in second


def test_edit_delete_and_restore_a_pozo_hand(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    session, _ = example("pozo_viuda_seed")
    t = make_table(session)
    form = text(client.get(f"/t/{t.edit_token}/mano/2/editar"))
    assert re.search(r'name="matadores" value="3"[^>]*checked', form)  # prefilled
    assert re.search(r'name="trump" value="espadas"[^>]*checked', form)
    changed = {**session["hands"][1], "matadores": 1}
    response = client.post(f"/t/{t.edit_token}/mano/2/editar", data=form_of(changed, "pozo_viuda"))
    assert response.status_code == 302
    stored = hands_stored(app, t.edit_token)
    assert stored[1]["matadores"] == 1
    assert stored[1]["dealer"] == session["first_dealer"] % 3 + 1  # keeps its dealer
    transfers = ledger(app, t.edit_token)["hands"][1]["transfers"]
    assert [x["amount"] for x in transfers if x["concept"] == "dulces"] == [1, 1]  # 1 matador, juego: 1 each
    history = plain(text(client.get(f"/t/{t.edit_token}/mano/2")))
    assert "corregida" in history and "matadores: 3 → 1" in history
    assert client.post(f"/t/{t.edit_token}/mano/3/borrar", data={}).status_code == 302
    assert len(hands_stored(app, t.edit_token)) == 2
    with app.app_context():
        table, _ = store.open_table(t.edit_token)
        (gone,) = store.deleted_hands(table)
    assert client.post(f"/t/{t.edit_token}/restaurar/{gone.hand_id}", data={}).status_code == 302
    assert len(hands_stored(app, t.edit_token)) == 3


def test_edit_a_bandos_hand_with_its_faults(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    session, _ = example("bandos_game")
    t = make_table({**session, "hands": session["hands"][:6]})
    form = text(client.get(f"/t/{t.edit_token}/mano/5/editar"))
    assert re.search(r'name="faltas-0-seat" value="1"[^>]*checked', form)
    assert re.search(r'name="faltas-0-falta" value="renuncio"[^>]*checked', form)
    assert 'name="faltas-0-points"' in form and 'value="4"' in form
    new = {"primeras": "B", "faltas": [{"seat": 1, "falta": "renuncio", "points": 4},
                                        {"seat": 6, "falta": "fuera_de_turno"}]}  # fmt: skip
    response = client.post(f"/t/{t.edit_token}/mano/5/editar", data=form_of(new, "bandos"))
    assert response.status_code == 302
    assert hands_stored(app, t.edit_token)[4]["faltas"] == new["faltas"]


def test_edit_preview_names_the_later_hand_it_would_break(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    session = {
        "format": "tresillo-session/1",
        "players": ["A1", "B1", "A2", "B2", "A3", "B3"],
        "rules": {"ruleset": "bandos", "target": 2},
        "hands": [{"primeras": "A"}, {"faltas": [{"seat": 1, "falta": "renuncio"}]}, {"primeras": "A"}],
    }
    t = make_table(session)
    before = hands_stored(app, t.edit_token)
    data = {**form_of({"primeras": "A"}, "bandos"), "preview": "1"}
    del data["save"]
    response = client.post(f"/t/{t.edit_token}/mano/2/editar", data=data)
    assert response.status_code == 400
    assert "Con este cambio la mano 3 dejaría de ser posible" in text(response)  # B4: team A would have won
    assert hands_stored(app, t.edit_token) == before


def test_ombre_closing_shares_the_bote(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    session, expected = example("ombre_three")
    t = make_table({**session, "hands": session["hands"][:3]})  # before the eighth deal ends it (O6)
    bote = expected["hands"][2]["bote"]
    confirm = plain(text(client.get(f"/t/{t.edit_token}/cerrar")))
    assert f"El bote ({bote}) se reparte" in confirm
    assert client.post(f"/t/{t.edit_token}/cerrar", data={}).status_code == 302
    hands = hands_stored(app, t.edit_token)
    assert hands[-1] == {"close": "repartir"}
    last = ledger(app, t.edit_token)
    assert last["hands"][-1]["result"] == "cierre"
    assert last["bote"] == 0
    assert sum(last["balances"].values()) == 0
    page = plain(text(client.get(f"/t/{t.edit_token}")))
    assert "Partida cerrada." in page and "El bote se repartió" in page


def test_pozo_closing_confirmation_names_both_pots(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    session, expected = example("pozo_viuda_table")
    t = make_table({**session, "hands": session["hands"][:9]})
    want = expected["hands"][8]
    confirm = plain(text(client.get(f"/t/{t.edit_token}/cerrar")))
    assert f"pozo ({want['pozo']['amount']} y {sum(want['pozo']['reserves'])} en reservas)" in confirm
    assert f"viuda ({want['viuda']})" in confirm


# ------------------------------------------------------ API and exports


@pytest.mark.parametrize(("name", "ruleset", "keys"), GAMES)
def test_api_round_trip(app: Flask, client: FlaskClient, name: str, ruleset: str, keys: tuple[str, ...]) -> None:
    session, expected = example(name)
    start = {**session, "hands": session["hands"][:-1]}
    created = client.post("/api/tables", json=start)
    assert created.status_code == 201
    tokens = created.get_json()
    edit, view = tokens["edit_token"], tokens["view_token"]
    last = session["hands"][-1]
    assert client.post(f"/api/tables/{view}/hands", json=last).status_code == 403
    added = client.post(f"/api/tables/{edit}/hands", json=last)
    assert added.status_code == 201
    assert added.get_json()["n"] == len(session["hands"])
    got = client.get(f"/api/tables/{view}/ledger").get_json()
    same_state(got, expected, keys)
    stored = client.get(f"/api/tables/{view}").get_json()
    assert stored["rules"] == session["rules"]
    assert all("dealer" in h for h in stored["hands"] if "close" not in h)
    if "close" in last:  # a closed table is read-only
        assert client.delete(f"/api/tables/{edit}/hands/1").status_code == 403
    elif ruleset != "bandos":
        gone = client.delete(f"/api/tables/{edit}/hands/{len(session['hands'])}")
        assert gone.status_code == 200
        assert len(client.get(f"/api/tables/{view}/ledger").get_json()["hands"]) == len(session["hands"]) - 1
        assert client.put(f"/api/tables/{edit}/hands/1", json=session["hands"][0]).status_code == 200
    else:
        gone = client.delete(f"/api/tables/{edit}/hands/{len(session['hands'])}")
        assert gone.status_code == 200
        assert client.get(f"/api/tables/{view}/ledger").get_json()["over"] is False
        again = client.post(f"/api/tables/{edit}/hands", json=last)
        assert again.status_code == 201
        after = client.post(f"/api/tables/{edit}/hands", json={"primeras": "A"})
        assert after.status_code == 400
        assert "game is over" in after.get_json()["error"]


@pytest.mark.parametrize(("name", "ruleset", "keys"), GAMES)
def test_export_and_import_round_trip(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table], name: str, ruleset: str, keys: tuple[str, ...]
) -> None:
    session, expected = example(name)
    t = make_table({**session, "place": "Lima"})
    exported = client.get(f"/t/{t.view_token}/exportar.json")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    imported = client.post(
        "/importar", data={"file": (io.BytesIO(exported.data), "partida.json")}, content_type="multipart/form-data"
    )
    assert imported.status_code == 302
    new_token = imported.headers["Location"].rsplit("/", 1)[-1]
    assert new_token != t.edit_token
    same_state(ledger(app, new_token), expected, keys)
    with app.app_context():
        table, _ = store.open_table(new_token)
        assert store.read(table).session_copy()["place"] == "Lima"
        assert table.ruleset == ruleset


@pytest.mark.parametrize(
    ("name", "columns"),
    [
        ("pozo_viuda_table", ["Matadores", "Bazas", "Resultado", "Ana (tantos)", "Benito (tantos)", "Carmen (tantos)",
                              "Diego (tantos)", "Pozo", "Reservas", "Viuda"]),
        ("ombre_three", ["Matadores en", "Bazas", "Resultado", "Elena (tantos)", "Fermín (tantos)",
                         "Gloria (tantos)", "Bote"]),
        ("bandos_game", ["Primeras", "Capote", "Faltas", "Resultado", "A1", "B1", "A2", "B2", "A3", "B3", "Ganador"]),
    ],
)  # fmt: skip
def test_csv_has_the_games_own_columns(
    client: FlaskClient, make_table: Callable[..., Table], name: str, columns: list[str]
) -> None:
    session, expected = example(name)
    t = make_table(session)
    response = client.get(f"/t/{t.edit_token}/exportar.csv")
    assert response.status_code == 200
    rows = csv_dicts(response.get_data(as_text=True))
    if "scores" not in expected:
        assert rows.pop()["Tipo"] == "saldo final"  # the money games end with each person's balance
    assert len(rows) == len(expected["hands"])
    assert all(c in rows[0] for c in columns), rows[0].keys()
    for row, entry in zip(rows, expected["hands"], strict=True):
        # the result in words; a codillo names who gave it ("codillo de Gloria")
        assert row["Resultado"].startswith(words.result_word(entry["result"], session["rules"]["ruleset"]))
        if "pozo" in entry:
            assert row["Pozo"] == str(entry["pozo"]["amount"])
            assert row["Viuda"] == str(entry["viuda"])
        if "bote" in entry:
            assert row["Bote"] == str(entry["bote"])
        if "scores" in entry:
            for seat, player in expected["players"].items():
                assert row[player] == str(entry["scores"][seat])
            assert row["Ganador"] == (f"equipo {entry['winner']}" if entry["winner"] else "")


def test_view_page_of_every_game_is_read_only(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    for name in ("pozo_viuda_seed", "ombre_three", "bandos_game"):
        session, _ = example(name)
        t = make_table({**session, "hands": session["hands"][:2]})
        page = text(client.get(f"/t/{t.view_token}"))
        assert "solo para mirar" in page
        assert "Anotar mano" not in page
        assert json.dumps(t.edit_token) not in page and t.edit_token not in page
