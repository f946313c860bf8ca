"""The game options on the pages: the options of the new-table form (Ombre codille O4, bandos scoring B5)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import store
from scorer.store.models import Table
from tests.web.tables.test_every_game import example, hands_stored, ledger, new_table_data, only_session, plain, text

DEFAULTS = {"om_stake": "10", "om_solo_stake": "20", "om_vole_bonus": "10", "om_matador_bonus": "5",
            "bd_target": "12", "bd_fuera_de_turno": "1", "bd_renuncio": "1"}  # fmt: skip
SIX = ["Ana", "Benito", "Carmen", "Diego", "Elena", "Fermín"]


def test_the_new_options_are_offered_with_their_defaults_checked_and_explained(client: FlaskClient) -> None:
    html = text(client.get("/nueva"))
    assert 'name="om_codille" value="double_sacada" checked' in html
    assert 'name="om_codille" value="double_stake" >' in html
    assert 'name="bd_scoring" value="first_to_three" checked' in html
    assert 'name="bd_scoring" value="first_three_tricks" >' in html
    words = plain(html)
    assert "Pago del codillo" in words and "4 × la puesta" in words
    assert "Quién se apunta la mano" in words and "las tres primeras" in words


def test_the_default_options_are_not_written(app: Flask, client: FlaskClient) -> None:
    data = new_table_data("ombre", ["A", "B", "C"], **DEFAULTS, om_codille="double_sacada")
    assert client.post("/nueva", data=data).status_code == 302
    assert only_session(app)["rules"] == {"ruleset": "ombre"}


def test_ombre_codille_double_stake_is_saved(app: Flask, client: FlaskClient) -> None:
    data = new_table_data("ombre", ["A", "B", "C"], **DEFAULTS, om_codille="double_stake")
    assert client.post("/nueva", data=data).status_code == 302
    assert only_session(app)["rules"] == {"ruleset": "ombre", "codille": "double_stake"}


def test_bandos_first_three_tricks_is_saved(app: Flask, client: FlaskClient) -> None:
    data = new_table_data("bandos", SIX, **DEFAULTS, bd_scoring="first_three_tricks")
    assert client.post("/nueva", data=data).status_code == 302
    assert only_session(app)["rules"] == {"ruleset": "bandos", "scoring": "first_three_tricks"}


def test_another_games_option_is_ignored(app: Flask, client: FlaskClient) -> None:
    data = new_table_data("bandos", SIX, **DEFAULTS, om_codille="nonsense")
    assert client.post("/nueva", data=data).status_code == 302
    assert only_session(app)["rules"] == {"ruleset": "bandos"}


@pytest.mark.parametrize(
    ("game", "names", "field"),
    [("ombre", ["A", "B", "C"], "om_codille"), ("bandos", SIX, "bd_scoring")],
)
def test_an_unknown_option_value_is_refused_and_nothing_saved(
    app: Flask, client: FlaskClient, game: str, names: list[str], field: str
) -> None:
    response = client.post("/nueva", data=new_table_data(game, names, **DEFAULTS, **{field: "triple"}))
    assert response.status_code == 400
    words = plain(text(response))
    label, rule = ("Pago del codillo", "O4") if field == "om_codille" else ("Quién se apunta la mano", "B5")
    assert f"{label}: «triple» no es una de sus opciones ({rule}): elige" in words, words[:800]
    with app.app_context():
        assert store.list_tables() == []


# ------------------------------------------------- pozo y viuda and bandos hands (P13, B5)


def pozo_table(make_table: Callable[..., Table]) -> Table:
    session, _ = example("pozo_viuda_seed")
    players = ["Ana", "Benito", "Carmen"]
    return make_table(
        {**session, "players": players, "rules": {"ruleset": "pozo_viuda"}, "first_dealer": 1, "hands": []}
    )


def test_the_pozo_form_reads_the_tricks_like_tresillos(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    html = text(client.get(f"/t/{pozo_table(make_table).edit_token}/mano"))
    assert "data-plantado" in html and "data-cortada" in html and "data-reading" in html
    assert 'name="primeras" value="jugador"' in html  # what app.js reads the tricks by


@pytest.mark.parametrize(
    ("tricks", "primeras", "bola"),
    [
        ({"2": 9, "3": 0, "1": 0}, "", "hecha"),  # 9-0-0 without a flag: the bola is made (P13)
        ({"2": 5, "3": 0, "1": 0}, "jugador", None),  # primeras y se planta
        ({"2": 6, "3": 1, "1": 0}, "jugador", "cortada"),  # cut by seat 3 at the defenders' first trick
    ],
)
def test_a_pozo_hand_is_read_from_its_tricks(
    app: Flask,
    client: FlaskClient,
    make_table: Callable[..., Table],
    tricks: dict[str, int],
    primeras: str,
    bola: str | None,
) -> None:
    t = pozo_table(make_table)
    data = {"save": "1", "jugador": "2", "lance": "juego", "trump": "copas", "matadores": "0", "bola": "",
            "primeras": primeras, **{f"tricks_{s}": str(n) for s, n in tricks.items()}}  # fmt: skip
    response = client.post(f"/t/{t.edit_token}/mano", data=data)
    assert response.status_code == 302, plain(text(response))[:600]
    entry = ledger(app, t.edit_token)["hands"][0]
    assert entry["result"] == ("bola" if bola == "hecha" else "ganada")
    labels = " ".join(str(tr.get("concept", "")) + str(tr.get("detail", "")) for tr in entry.get("transfers", []))
    if bola:
        assert "bola" in labels.lower(), entry
    else:
        assert "bola" not in labels.lower(), entry


def test_an_impossible_cut_bola_is_explained(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = pozo_table(make_table)
    data = {"save": "1", "jugador": "2", "lance": "juego", "trump": "copas", "matadores": "0", "bola": "cortada",
            "primeras": "jugador", "tricks_2": "5", "tricks_3": "2", "tricks_1": "1"}  # fmt: skip
    response = client.post(f"/t/{t.edit_token}/mano", data=data)
    assert response.status_code == 400
    assert "No se ha guardado" in text(response)
    assert hands_stored(app, t.edit_token) == []


def bandos_table(make_table: Callable[..., Table], scoring: str | None) -> Table:
    session, _ = example("bandos_game")
    rules = {"ruleset": "bandos", **({"scoring": scoring} if scoring else {})}
    return make_table({**session, "rules": rules, "first_dealer": 1, "hands": []})


def test_bandos_first_three_tricks_offers_nadie(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = bandos_table(make_table, "first_three_tricks")
    assert 'name="primeras" value="none"' in text(client.get(f"/t/{t.edit_token}/mano"))
    response = client.post(f"/t/{t.edit_token}/mano", data={"save": "1", "primeras": "none"})
    assert response.status_code == 302, plain(text(response))[:600]
    assert hands_stored(app, t.edit_token)[0]["primeras"] == "none"
    page = plain(text(client.get(f"/t/{t.edit_token}", follow_redirects=True)))
    assert "las tres primeras bazas se repartieron" in page.lower()


def test_bandos_default_scoring_refuses_nadie(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = bandos_table(make_table, None)
    assert 'name="primeras" value="none"' not in text(client.get(f"/t/{t.edit_token}/mano"))
    response = client.post(f"/t/{t.edit_token}/mano", data={"save": "1", "primeras": "none"})
    assert response.status_code == 400
    section = text(response).split('id="f-primeras"', 1)[1].split("</fieldset>", 1)[0]
    assert "B5" in section or "tres primeras" in section, section
    assert hands_stored(app, t.edit_token) == []


def test_the_sheet_says_the_new_options(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    session, _ = example("ombre_three")
    om = make_table({**session, "rules": {"ruleset": "ombre", "codille": "double_stake"}, "hands": []})
    assert "Codillo: el doble de la puesta de cada uno." in plain(text(client.get(f"/tables/{om.edit_token}/sheet")))
    default = make_table({**session, "rules": {"ruleset": "ombre"}, "hands": []})
    assert "Codillo: dos sacadas de cada uno" in plain(text(client.get(f"/tables/{default.edit_token}/sheet")))
    bd = bandos_table(make_table, "first_three_tricks")
    assert "las tres primeras bazas; si se reparten, nadie" in plain(text(client.get(f"/tables/{bd.edit_token}/sheet")))
