"""Issue 22 on the pages: the new options of the new-table form (Ombre codille O4, bandos scoring B5)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.web.tables import services as table_services
from tests.web.test_games import new_table_data, only_session, plain, text

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
    label = "Pago del codillo" if field == "om_codille" else "Quién se apunta la mano"
    assert f"{label}: Opción inválida." in words, words[:800]
    with app.app_context():
        assert table_services.list_tables() == []
