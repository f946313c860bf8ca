"""Bad options and hands through the JSON API and the web forms: refused naming the rule, nothing saved.

An unknown option value (the rule that defines the option: O4, B5, R19…), ``"primeras": "none"`` under
the default bandos scoring (B5), the same favour suit again (R34) and a favour change after the
closing (R30). The command line's refusals are in tests/engine/test_refusals_every_ruleset.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import store
from scorer.store.models import Table
from tests.web.tables.test_every_game import new_table_data, plain, text

FORMAT = "tresillo-session/1"
FOUR = ["Ana", "Benito", "Carmen", "Diego"]
SIX = ["A1", "B1", "A2", "B2", "A3", "B3"]
HAND = {"jugador": 2, "lance": "entrada", "trump": "copas", "tricks": {"2": 5, "3": 3, "4": 1}}


def session(players: list[str], *hands: dict[str, Any], **rules: Any) -> dict[str, Any]:
    return {"format": FORMAT, "players": players, "rules": rules, "hands": list(hands)}


def table_count(app: Flask) -> int:
    with app.app_context():
        return len(store.list_tables())


def stored(app: Flask, token: str) -> list[dict[str, Any]]:
    with app.app_context():
        table, _ = store.open_table(token)
        return list(store.read(table).session_copy()["hands"])


# (what, a table to start from or None, the call, its status, the rule named)
API_CASES: list[tuple[str, dict[str, Any] | None, tuple[str, Any], int, str]] = [
    ("ombre codille", None, ("tables", session(["A", "B", "C"], ruleset="ombre", codille="triple")), 400, "O4"),
    ("bandos scoring", None, ("tables", session(SIX, ruleset="bandos", scoring="triple")), 400, "B5"),
    ("tresillo failed_bola", None, ("tables", session(FOUR, failed_bola="triple")), 400, "R19"),
    ("none in a file", None, ("tables", session(SIX, {"primeras": "none"}, ruleset="bandos")), 400, "B5"),
    ("same suit in a file", None, ("tables", session(FOUR, {"favor": "oros"}, favor_suit="oros")), 400, "R34"),
    ("after closing in a file", None, ("tables", session(FOUR, {"close": "devolver"}, {"favor": "oros"})), 400, "R30"),
    ("tresillo rounding 0", None, ("tables", session(FOUR, rounding=0)), 400, "R14"),
    ("tresillo dealer_stake -1", None, ("tables", session(FOUR, dealer_stake=-1)), 400, "R5"),
    (
        "pozo y viuda cap 0",
        None,
        ("tables", session(FOUR, ruleset="pozo_viuda", pozo_cap=0, favor_suit="oros")),
        400,
        "P4",
    ),
    ("ombre stake 0", None, ("tables", session(["A", "B", "C"], ruleset="ombre", stake=0)), 400, "O2"),
    ("bandos target 0", None, ("tables", session(SIX, ruleset="bandos", target=0)), 400, "B4"),
    ("none as a hand", session(SIX, ruleset="bandos"), ("hands", {"primeras": "none"}), 400, "B5"),
    ("same suit as a hand", session(FOUR, HAND, favor_suit="oros"), ("hands", {"favor": "oros"}), 400, "R34"),
    ("same suit, form kept offline", session(FOUR, favor_suit="oros"), ("form", {"suit": "oros"}), 422, "R34"),
    ("after closing as a hand", session(FOUR, HAND, {"close": "devolver"}), ("hands", {"favor": "oros"}), 403, "R30"),
    ("after closing, form kept offline", session(FOUR, {"close": "devolver"}), ("form", {"suit": "oros"}), 403, "R30"),
]


@pytest.mark.parametrize(("start", "call", "status", "rule"), [c[1:] for c in API_CASES], ids=[c[0] for c in API_CASES])
def test_the_api_names_the_rule_and_saves_nothing(
    app: Flask,
    client: FlaskClient,
    make_table: Callable[..., Table],
    start: dict[str, Any] | None,
    call: tuple[str, Any],
    status: int,
    rule: str,
) -> None:
    kind, body = call
    table = make_table(start) if start is not None else None
    before = (table_count(app), stored(app, table.edit_token) if table else None)
    if kind == "tables":
        answer = client.post("/api/tables", json=body)
    elif kind == "hands":
        assert table is not None
        answer = client.post(f"/api/tables/{table.edit_token}/hands", json=body)
    else:
        assert table is not None
        answer = client.post(
            f"/api/tables/{table.edit_token}/entries/form",
            json={"form": "favor", "fields": body},
            headers={"Idempotency-Key": "k-" + rule},
        )
    assert answer.status_code == status, answer.get_data(as_text=True)
    assert f"({rule})" in answer.get_json()["error"], answer.get_json()
    assert (table_count(app), stored(app, table.edit_token) if table else None) == before


NEW_TABLE = {"om_stake": "10", "om_solo_stake": "20", "om_vole_bonus": "10", "om_matador_bonus": "5",
             "bd_target": "12", "bd_fuera_de_turno": "1", "bd_renuncio": "1"}  # fmt: skip
# (what, a table to start from or None, the page and its fields, the rule, the words of each language)
FORM_CASES: list[tuple[str, dict[str, Any] | None, tuple[str, dict[str, str]], str, dict[str, str]]] = [
    (
        "new table, ombre codille",
        None,
        ("/nueva", new_table_data("ombre", ["A", "B", "C"], **NEW_TABLE, om_codille="triple")),
        "O4",
        {"es": "Pago del codillo: «triple» no es una de sus opciones (O4)",
         "en": "Codille payment: “triple” is not one of its options (O4)"},
    ),
    (
        "new table, bandos scoring",
        None,
        ("/nueva", new_table_data("bandos", SIX, **NEW_TABLE, bd_scoring="triple")),
        "B5",
        {"es": "«triple» no es una de sus opciones (B5)", "en": "“triple” is not one of its options (B5)"},
    ),
    (
        "new table, tresillo bola cortada",
        None,
        ("/nueva", new_table_data("tresillo", FOUR, dealer_stake="5", enchilada="0", rounding="5",
                                  failed_bola="triple")),
        "R19",
        {"es": "«triple» no es una de sus opciones (R19)", "en": "“triple” is not one of its options (R19)"},
    ),
    (
        "new table, tresillo rounding 0",
        None,
        ("/nueva", new_table_data("tresillo", FOUR, dealer_stake="5", enchilada="0", rounding="0")),
        "R14",
        {"es": "Ha de ser un número de 1 a 100 (R14).", "en": "Must be a number from 1 to 100 (R14)."},
    ),
    (
        "new table, ombre stake 0",
        None,
        ("/nueva", new_table_data("ombre", ["A", "B", "C"], **{**NEW_TABLE, "om_stake": "0"})),
        "O2",
        {"es": "Ha de ser un número de 1 a 1000 (O2).", "en": "Must be a number from 1 to 1000 (O2)."},
    ),
    (
        "bandos hand, a falta of 200",
        session(SIX, ruleset="bandos"),
        ("/mano", {"save": "1", "primeras": "A", "faltas-0-seat": "1", "faltas-0-falta": "renuncio",
                   "faltas-0-points": "200"}),
        "B3",
        {"es": "Ha de ser un número de 0 a 100 (B3).", "en": "Must be a number from 0 to 100 (B3)."},
    ),
    (
        "bandos hand, nadie",
        session(SIX, ruleset="bandos"),
        ("/mano", {"save": "1", "primeras": "none"}),
        "B5",
        {"es": "siempre hay un equipo que llega antes a tres bazas (B5)",
         "en": "otherwise one team always reaches three tricks first (B5)"},
    ),
    (
        "favour form, the same suit",
        session(FOUR, HAND, favor_suit="oros"),
        ("/favor", {"suit": "oros", "save": "1", "request_id": "r1"}),
        "R34",
        {"es": "El palo de favor ya es oros ♦: un cambio de palo de favor nombra otro palo (R34).",
         "en": "The favour suit is already oros ♦: a change of favour suit names another suit (R34)."},
    ),
    (
        "favour form, after the closing",
        session(FOUR, HAND, {"close": "devolver"}),
        ("/favor", {"suit": "copas", "save": "1", "request_id": "r2"}),
        "R30",
        {"es": "La partida está cerrada (R30): después del cierre no se cambia el palo de favor.",
         "en": "The game is closed (R30): the favour suit cannot change after the closing."},
    ),
]  # fmt: skip


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize(("start", "page", "rule", "said"), [c[1:] for c in FORM_CASES], ids=[c[0] for c in FORM_CASES])
def test_the_forms_name_the_rule_in_the_pages_language_and_save_nothing(
    app: Flask,
    client: FlaskClient,
    make_table: Callable[..., Table],
    start: dict[str, Any] | None,
    page: tuple[str, dict[str, str]],
    rule: str,
    said: dict[str, str],
    language: str,
) -> None:
    path, fields = page
    table = make_table(start) if start is not None else None
    before = (table_count(app), stored(app, table.edit_token) if table else None)
    url = f"/t/{table.edit_token}{path}" if table else path
    answer = client.post(url, data=fields, headers={"Accept-Language": language}, follow_redirects=True)
    words = plain(text(answer))
    assert said[language] in words, words[:1500]
    if rule != "R30":  # the closed table's refusal is a message on the table page it sends back to
        assert answer.status_code == 400
    assert (table_count(app), stored(app, table.edit_token) if table else None) == before
