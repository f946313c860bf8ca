"""The events of a real evening through the API, import/export, the pages and the CSV.

R32 ajuste, R33 sienta (change of player, money by person), R30 the two closings, and the
"play until the plato is won" mode. Expected numbers come from tests/data/examples
(real_evening.ledger.json, written independently of this code) or from the engine.
"""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import engine, store
from scorer.engine.tresillo import active_seats
from scorer.sheet.context import sheet_context
from scorer.store.models import Table
from tests.conftest import EXAMPLES, example_sessions, load_json
from tests.web.conftest import api_ledger, api_session
from tests.web.tables.test_every_game import csv_dicts, csv_parts

REAL = load_json(EXAMPLES / "real_evening.json")
REAL_LEDGER = load_json(EXAMPLES / "real_evening.ledger.json")
AJUSTE = REAL["hands"][3]  # {"ajuste": {"from": 2, "to": "plato", "amount": 25}, "note": "renuncio de Benito"}
SIENTA = REAL["hands"][5]  # {"sienta": {"seat": 4, "player": "Elena"}, "note": …}
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def real(upto: int, **keys: Any) -> dict[str, Any]:
    """The real evening's session with its first ``upto`` entries."""
    session = copy.deepcopy(REAL)
    session["hands"] = session["hands"][:upto]
    session.update(keys)
    return session


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def same_entry(got: dict[str, Any], want: dict[str, Any]) -> None:
    for key in ("result", "dealer", "balances", "plato", "cartulina"):
        assert got[key] == want[key], (got["n"], key)


# ------------------------------------------------------------------------- API


def test_api_takes_ajuste_sienta_and_repartir_like_the_command_line(client: FlaskClient) -> None:
    """R32, R33, R30: entry by entry through the API gives the shared example's ledger, people included."""
    answer = client.post("/api/tables", json=real(0))
    assert answer.status_code == 201
    token = answer.get_json()["edit_token"]
    for n, hand in enumerate(REAL["hands"], 1):
        response = client.post(f"/api/tables/{token}/hands", json=hand)
        assert response.status_code == 201, (n, response.get_json())
        assert response.get_json()["n"] == n
        same_entry(response.get_json()["hand"], REAL_LEDGER["hands"][n - 1])
    ledger = api_ledger(client, token)
    assert ledger["people"] == REAL_LEDGER["people"]  # Diego, who left, keeps his −10 (R33)
    assert ledger["balances"] == REAL_LEDGER["balances"]
    assert ledger["hands"][5]["seating"] == REAL_LEDGER["hands"][5]["seating"]
    stored = api_session(client, token)["hands"]
    # what the table entered is what is stored: events get no dealer, notes are kept
    assert stored[3] == AJUSTE and stored[5] == SIENTA and stored[9] == {"close": "repartir"}
    assert client.post(f"/api/tables/{token}/hands", json={"pass": True}).status_code == 403  # closed (R30)


def test_api_edits_and_deletes_an_ajuste(client: FlaskClient) -> None:
    """R32: an ajuste is corrected or deleted like a hand, and every later entry is settled again."""
    token = client.post("/api/tables", json=real(9)).get_json()["edit_token"]
    before = api_ledger(client, token)
    changed = {"ajuste": {"from": 2, "to": "todos", "amount": 10}, "note": "corrección"}
    response = client.put(f"/api/tables/{token}/hands/4", json=changed)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["hand"]["result"] == "ajuste"
    assert response.get_json()["hand"]["dealer"] is None
    after = api_ledger(client, token)
    expected = engine.settle(real(9) | {"hands": [*REAL["hands"][:3], changed, *REAL["hands"][4:9]]})
    assert after["balances"] == expected["balances"] != before["balances"]
    assert api_session(client, token)["hands"][3] == changed
    assert client.delete(f"/api/tables/{token}/hands/4").status_code == 200
    assert len(api_ledger(client, token)["hands"]) == 8
    deleted = client.get(f"/api/tables/{token}/deleted").get_json()["deleted"]
    assert deleted[0]["hand"] == changed


def test_api_deletes_a_change_of_player(client: FlaskClient) -> None:
    """R33: without the change, Diego plays on at seat 4 and Elena never sat."""
    token = client.post("/api/tables", json=real(9)).get_json()["edit_token"]
    assert client.delete(f"/api/tables/{token}/hands/6").status_code == 200
    ledger = api_ledger(client, token)
    assert "Elena" not in ledger.get("people", {})
    assert ledger["balances"] == engine.settle(real(9) | {"hands": REAL["hands"][:5] + REAL["hands"][6:9]})["balances"]


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"ajuste": {"from": 2, "to": 2, "amount": 5}}, "hand 4:"),  # R32: from = to
        ({"ajuste": {"from": 2, "to": "plato", "amount": 0}}, "hand 4:"),  # R32: positive amount
        ({"sienta": {"seat": 4, "player": "Ana"}}, "hand 4:"),  # R33: Ana is seated already
        ({"close": "regalar"}, "hand 4:"),  # R30: devolver or repartir
    ],
)
def test_api_refuses_impossible_events_and_saves_nothing(client: FlaskClient, entry: Any, words: str) -> None:
    token = client.post("/api/tables", json=real(3)).get_json()["edit_token"]
    before = api_session(client, token)
    response = client.post(f"/api/tables/{token}/hands", json=entry)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(words)
    assert api_session(client, token) == before


@pytest.mark.parametrize("path", [p for p in example_sessions() if load_json(p).get("rules", {}).get("ruleset")])
@pytest.mark.parametrize("entry", [AJUSTE, SIENTA])
def test_other_rule_sets_refuse_ajuste_and_sienta(client: FlaskClient, path: Any, entry: dict[str, Any]) -> None:
    """R32/R33 are Tresillo's: pozo y viuda, Ombre and bandos keep their rules (refused, nothing saved)."""
    session = load_json(path)
    session["hands"] = []
    token = client.post("/api/tables", json=session).get_json()["edit_token"]
    response = client.post(f"/api/tables/{token}/hands", json=entry)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("hand 1:")
    assert api_session(client, token)["hands"] == []


def test_export_and_import_keep_every_event(app: Flask) -> None:
    """The session file exported imports back to the same ledger (the shared example's)."""
    with app.app_context():
        table = store.create_table(real(10))
        exported = json.loads(store.export_session(table))
        assert exported["hands"][3] == AJUSTE and exported["hands"][5] == SIENTA
        copy_ = store.import_session(json.dumps(exported))
        ledger = store.read(copy_).ledger_copy()
        assert copy_.closed  # the closing came in with the file (R30)
        assert ledger["people"] == REAL_LEDGER["people"]
        for got, want in zip(ledger["hands"], REAL_LEDGER["hands"], strict=True):
            same_entry(got, want)


def test_closing_previews_both_ways_and_closes_as_chosen(app: Flask) -> None:
    """R30: both closings previewed by the engine, nothing saved; then the chosen one closes."""
    with app.app_context():
        table = store.create_table(real(9))
        previews = store.closing_previews(table)
        assert set(previews) == {"devolver", "repartir"}
        assert previews["repartir"] == REAL_LEDGER["hands"][9] | {"transfers": previews["repartir"]["transfers"]}
        assert not table.closed and len(store.read(table).ledger_copy()["hands"]) == 9
        with pytest.raises(store.Invalid):
            store.close_table(table, "regalar")
        assert store.close_table(table, "repartir") == 10
        assert table.closed
        assert store.read(table).session_copy()["hands"][-1] == {"close": "repartir"}


def test_ending_mark_is_stored_on_the_table(app: Flask) -> None:
    with app.app_context():
        table = store.create_table(real(3))
        revision = table.revision
        store.set_ending(table, True)
        assert table.ending and table.revision == revision + 1  # watchers' pages refresh
        store.set_ending(table, False)
        assert not table.ending


# ----------------------------------------------------------------------- pages


def table_page(client: FlaskClient, token: str) -> str:
    response = client.get(f"/t/{token}")
    assert response.status_code == 200
    return text(response)


def stored_hands(app: Flask, token: str) -> list[dict[str, Any]]:
    with app.app_context():
        table, _ = store.open_table(token)
        return list(store.read(table).session_copy()["hands"])


AJUSTE_FORM = {"payer": "2", "to": "plato", "amount": "25", "reason": "renuncio", "note": "de Benito"}


def test_ajuste_screen_previews_then_saves_what_was_entered(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """R32 through the screen: who pays, to whom, how much, why; preview from the engine; saved once."""
    t = make_table(real(3))
    page = text(client.get(f"/t/{t.edit_token}/ajuste"))
    for words in ("¿Quién paga?", "El plato", "Cada uno de los demás", "renuncio", "mal reparto", "corrección"):
        assert words in page
    preview = client.post(f"/t/{t.edit_token}/ajuste", data=AJUSTE_FORM | {"preview": "1"})
    assert preview.status_code == 200
    assert "Benito paga 25 al plato" in text(preview)
    assert len(stored_hands(app, t.edit_token)) == 3  # a preview saves nothing
    data = AJUSTE_FORM | {"save": "1", "request_id": "r-ajuste"}
    assert client.post(f"/t/{t.edit_token}/ajuste", data=data).status_code == 302
    assert client.post(f"/t/{t.edit_token}/ajuste", data=data).status_code == 302  # a second tap
    hands = stored_hands(app, t.edit_token)
    assert hands[3:] == [{"ajuste": {"from": 2, "to": "plato", "amount": 25}, "note": "renuncio: de Benito"}]
    page = table_page(client, t.edit_token)
    assert "4 · ajuste: Benito paga 25 al plato · renuncio: de Benito" in page


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"to": "2"}, "no puede pagarse a sí mismo"),
        ({"amount": "0"}, "Ha de ser un número de 1 a"),
        ({"amount": "diez"}, "no es un número entero"),
        ({"payer": ""}, "Elige quién paga"),
    ],
)
def test_ajuste_screen_explains_bad_input_and_saves_nothing(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table], changes: dict[str, str], message: str
) -> None:
    t = make_table(real(3))
    response = client.post(f"/t/{t.edit_token}/ajuste", data=AJUSTE_FORM | changes | {"save": "1"})
    assert response.status_code == 400
    assert message in text(response)
    assert len(stored_hands(app, t.edit_token)) == 3


def test_ajuste_to_each_of_the_others_and_its_correction(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """R32 "todos": N to each other seat; corrected from the hand page (its own screen)."""
    t = make_table(real(3))
    data = {"payer": "1", "to": "todos", "amount": "5", "reason": "mal reparto", "save": "1"}
    assert client.post(f"/t/{t.edit_token}/ajuste", data=data).status_code == 302
    hand = client.get(f"/t/{t.edit_token}/mano/4")
    assert "Ana paga 5 de cada uno" not in text(hand) and "Ana paga 5 a cada uno" in text(hand)
    edit = client.get(f"/t/{t.edit_token}/mano/4/editar")
    assert edit.status_code == 302 and edit.headers["Location"].endswith(f"/t/{t.edit_token}/ajuste/4")
    form = text(client.get(f"/t/{t.edit_token}/ajuste/4"))
    assert 'value="5"' in form and "Corregir el ajuste 4" in form
    data = {"payer": "1", "to": "todos", "amount": "10", "reason": "mal reparto", "save": "1"}
    assert client.post(f"/t/{t.edit_token}/ajuste/4", data=data).status_code == 302
    assert stored_hands(app, t.edit_token)[3] == {
        "ajuste": {"from": 1, "to": "todos", "amount": 10},
        "note": "mal reparto",
    }
    with app.app_context():
        table, _ = store.open_table(t.edit_token)
        entry = store.read(table).ledger_copy()["hands"][3]
    assert sorted((x["to"], x["amount"]) for x in entry["transfers"]) == [(2, 10), (3, 10), (4, 10)]


def test_other_games_have_no_ajuste_screen(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    session = load_json(EXAMPLES / "pozo_viuda_table.json")
    t = make_table(session)
    response = client.post(f"/t/{t.edit_token}/ajuste", data=AJUSTE_FORM | {"save": "1"})
    assert response.status_code == 302
    assert len(stored_hands(app, t.edit_token)) == len(session["hands"])
    assert "Ajuste" not in table_page(client, t.edit_token).split("Más")[-1]


def test_view_link_cannot_enter_events(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table(real(3))
    for url in ("ajuste", "cambio"):
        assert client.post(f"/t/{t.view_token}/{url}", data=AJUSTE_FORM | {"save": "1"}).status_code == 403
    assert client.post(f"/t/{t.view_token}/fin", data={"ending": "1"}).status_code == 403
    assert "Cambio de jugador" not in table_page(client, t.view_token)


@pytest.mark.parametrize("method", ["get", "post"])
def test_correcting_an_entry_past_the_last_is_not_found(
    client: FlaskClient, make_table: Callable[..., Table], method: str
) -> None:
    """An ajuste or cambio number beyond the table's entries is a 404 page, never a server error."""
    t = make_table(real(3))
    for url in ("ajuste", "cambio"):
        response = getattr(client, method)(f"/t/{t.edit_token}/{url}/9", data=AJUSTE_FORM | {"save": "1"})
        assert response.status_code == 404


# a table where seat 4 (Diego) owes a pending reserved puesta: the walkthrough's first 7 hands
WALK = load_json(EXAMPLES / "walkthrough.json")
WALK_LEDGER = load_json(EXAMPLES / "walkthrough.ledger.json")


def test_change_of_player_lists_the_cancelled_puestas_before_confirming(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """R33: the leaver's pending puestas become anulada; the screen lists them with amounts first."""
    t = make_table(WALK | {"hands": WALK["hands"][:7]})
    pending = [e for e in WALK_LEDGER["hands"][6]["cartulina"] if e["owner"] == 4 and e["state"] == "pendiente"]
    assert pending  # the example has one (Diego's 60)
    form = text(client.get(f"/t/{t.edit_token}/cambio"))
    assert "4 · Diego" in form
    review = client.post(f"/t/{t.edit_token}/cambio", data={"seat": "4", "player": "otro", "new_name": " Elena "})
    assert review.status_code == 200
    page = text(review)
    for e in pending:
        assert f"Diego: {e['amount']}" in page
    assert "Confirmar el cambio" in page
    assert len(stored_hands(app, t.edit_token)) == 7
    # confirming another choice than the one reviewed shows it again instead of saving
    other = {"seat": "3", "player": "otro", "new_name": "Elena", "confirm": "1", "reviewed": "4|Elena"}
    assert client.post(f"/t/{t.edit_token}/cambio", data=other).status_code == 200
    assert len(stored_hands(app, t.edit_token)) == 7
    confirm = {"seat": "4", "player": "otro", "new_name": "Elena", "confirm": "1", "reviewed": "4|Elena"}
    assert client.post(f"/t/{t.edit_token}/cambio", data=confirm).status_code == 302
    assert stored_hands(app, t.edit_token)[7] == {"sienta": {"seat": 4, "player": "Elena"}}
    page = table_page(client, t.edit_token)
    assert "Diego (se fue)" in page and "Elena" in page
    # the hand form names the people seated now
    assert "Elena" in text(client.get(f"/t/{t.edit_token}/mano")) and "Diego" not in text(
        client.get(f"/t/{t.edit_token}/mano")
    )


def test_change_of_player_refuses_someone_seated_and_offers_who_left(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table(real(9))  # Diego left at entry 6
    form = text(client.get(f"/t/{t.edit_token}/cambio"))
    assert 'value="Diego"' in form  # a name already used at this table, not seated now
    response = client.post(f"/t/{t.edit_token}/cambio", data={"seat": "1", "player": "otro", "new_name": "benito"})
    assert response.status_code == 400
    assert "Benito ya está sentado (asiento 2)" in text(response)
    back = {"seat": "4", "player": "Diego", "confirm": "1", "reviewed": "4|Diego"}
    assert client.post(f"/t/{t.edit_token}/cambio", data=back).status_code == 302
    with app.app_context():
        table, _ = store.open_table(t.edit_token)
        people = store.read(table).ledger_copy()["people"]
    assert people["Diego"] == REAL_LEDGER["people"]["Diego"]  # he comes back with his own balance (R33)


def test_closing_screen_shows_what_each_person_gets_and_closes_with_repartir(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """R30: devolver and repartir side by side, by person; repartir closes as the shared example says."""
    t = make_table(real(9))
    page = text(client.get(f"/t/{t.edit_token}/cerrar"))
    assert "Devolver el plato" in page and "Repartir el plato" in page
    share = {t_["to"]: t_["amount"] for t_ in REAL_LEDGER["hands"][9]["transfers"]}
    for seat, name in ((1, "Ana"), (2, "Benito"), (3, "Carmen"), (4, "Elena")):
        assert f"{name}</span> <strong>recibe {share[seat]}</strong>" in page
    response = client.post(f"/t/{t.edit_token}/cerrar", data={"how": "repartir", "request_id": "c1"})
    assert response.status_code == 302
    with app.app_context():
        table, _ = store.open_table(t.edit_token)
        ledger = store.read(table).ledger_copy()
    assert ledger["people"] == REAL_LEDGER["people"]
    page = table_page(client, t.edit_token)
    assert "10 · cierre: se reparte el plato" in page and "El plato se repartió entre todos" in page
    assert "Diego (se fue)" in page  # a person who left is still in the balances


def test_play_until_the_plato_is_won(app: Flask, client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """The keeper marks the evening as ending; the table offers the closing once the plato is empty."""
    t = make_table(real(0, hands=[{"pass": True}]))  # the dealer's 5 in the plato
    assert client.post(f"/t/{t.edit_token}/fin", data={"ending": "1"}).status_code == 302
    page = table_page(client, t.view_token)
    assert "Última vuelta" in page and "Se ganó el plato" not in page
    mano, medio, postre = active_seats(4, 3)  # the next deal is seat 3's
    won = {"jugador": mano, "lance": "entrada", "trump": "oros", "tricks": {mano: 5, medio: 3, postre: 1}}
    assert client.post(f"/api/tables/{t.edit_token}/hands", json=won).status_code == 201
    page = table_page(client, t.edit_token)
    assert "Se ganó el plato" in page and f"/t/{t.edit_token}/cerrar" in page
    assert client.post(f"/t/{t.edit_token}/fin", data={"ending": "0"}).status_code == 302
    assert "Se ganó el plato" not in table_page(client, t.edit_token)


def test_ultima_vuelta_with_an_empty_plato_waits_for_the_plato_to_be_won(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """Marked with the plato empty, the table says play goes on, not "Se ganó el plato"."""
    mano, medio, postre = active_seats(4, 2)
    won = {
        "jugador": mano,
        "lance": "entrada",
        "trump": "oros",
        "tricks": {str(mano): 5, str(medio): 3, str(postre): 1},
    }
    t = make_table(real(0, hands=[won]))  # the plato taken: empty, nothing pending
    assert client.post(f"/t/{t.edit_token}/fin", data={"ending": "1"}).status_code == 302
    page = table_page(client, t.edit_token)
    assert "Última vuelta" in page and "Se ganó el plato" not in page
    assert client.post(f"/api/tables/{t.edit_token}/hands", json={"pass": True}).status_code == 201
    assert "Se ganó el plato" not in table_page(client, t.edit_token)  # the dealer's 5 on the plato
    mano, medio, postre = active_seats(4, 4)
    won = {"jugador": mano, "lance": "entrada", "trump": "copas", "tricks": {mano: 5, medio: 3, postre: 1}}
    assert client.post(f"/api/tables/{t.edit_token}/hands", json=won).status_code == 201
    assert "Se ganó el plato" in table_page(client, t.edit_token)


# ------------------------------------------------------------------------- CSV


def csv_rows(client: FlaskClient, token: str) -> list[dict[str, str]]:
    response = client.get(f"/t/{token}/exportar.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"  # charset once (D6)
    return csv_dicts(response.get_data(as_text=True))


def test_csv_of_a_real_evening(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """Ajuste and change of player as rows with their note; columns by person; numbers as numbers."""
    t = make_table(real(10, tanto_value="0.05"))
    rows = csv_rows(client, t.edit_token)
    assert list(rows[0])[:13] == ["Nº", "Tipo", "Da", "Jugador", "Lance", "Triunfo", "Estuches", "Contraestuches",
                                  "Primeras", "Bola", "Bazas", "Resultado", "Nota"]  # fmt: skip
    assert rows[3]["Tipo"] == "ajuste" and rows[3]["Nota"] == "renuncio de Benito"
    assert rows[3]["Benito (tantos)"] == "-25"  # a number, not text
    assert rows[5]["Tipo"] == "cambio de jugador" and rows[5]["Nota"] == SIENTA["note"]
    assert rows[6]["Resultado"] == "bola cortada" and rows[6]["Bola"] == "cortada"  # R19
    assert rows[9]["Tipo"] == "cierre" and rows[9]["Resultado"] == "cierre: se reparte el plato"
    final = rows[-1]
    assert final["Tipo"] == "saldo final"
    for name, balance in REAL_LEDGER["people"].items():
        assert int(final[f"{name} (tantos)"]) == balance
        assert Decimal(final[f"{name} (dinero)"]) == Decimal("0.05") * balance
        assert sum(int(r[f"{name} (tantos)"] or 0) for r in rows[:-1]) == balance


EVIL = ["=cmd|' /C calc'!A0", "+Benito", "-Carmen", "@Diego", "Elena", "Fermín"]


@pytest.mark.parametrize("ruleset", ["tresillo", "pozo_viuda", "ombre", "bandos"])
def test_csv_guards_text_cells_of_every_rule_set(
    client: FlaskClient, make_table: Callable[..., Table], ruleset: str
) -> None:
    """Text cells starting with = + - @ get a ' ; number cells stay numbers, negatives included."""
    path = next(p for p in example_sessions(ruleset) if load_json(p)["hands"])
    session = load_json(path)
    session["players"] = EVIL[: len(session["players"])]
    session["hands"] = session["hands"][:12]
    t = make_table(session)
    response = client.get(f"/t/{t.edit_token}/exportar.csv")
    rows, _rules = csv_parts(response.get_data(as_text=True))
    numbers = 0
    for row in rows:
        for cell in row:
            if re.fullmatch(r"-?\d+(\.\d+)?", cell):
                numbers += 1
                continue
            assert not cell.startswith(FORMULA), (ruleset, cell)
    assert numbers > 0
    assert any(cell.startswith("-") for row in rows[1:] for cell in row) or ruleset == "bandos"
    header = rows[0]
    assert any(cell.startswith("'=cmd") for cell in header)
    if ruleset == "bandos":  # the dealer, faltas and winner cells of the juego de bandos
        table = [dict(zip(header, r, strict=True)) for r in rows[1:]]
        assert {"'=cmd|' /C calc'!A0", "'+Benito"} <= {r["Da"] for r in table}
        assert any(r["Faltas"].startswith(("'-Carmen", "'+Benito", "'=cmd", "'@Diego")) for r in table)
        assert table[-1]["Ganador"] in ("", "equipo A", "equipo B")


# ----------------------------------------------------------------------- sheet


def test_sheet_settles_by_person(app: Flask) -> None:
    """R33: final balances and the fewest payments by person; the leaver is settled too."""
    context = sheet_context(copy.deepcopy(REAL), copy.deepcopy(REAL_LEDGER))
    assert {b["name"]: b["tantos"] for b in context["balances"]} == REAL_LEDGER["people"]
    owed = dict(REAL_LEDGER["people"])
    for p in context["settle"]["payments"]:
        owed[p["payer"]] += int(p["tantos"])
        owed[p["payee"]] -= int(p["tantos"])
    assert set(owed.values()) == {0}
    assert any(p["payer"] == "Diego" or p["payee"] == "Diego" for p in context["settle"]["payments"])
    rows = context["hands"]
    assert rows[3]["kind"] == "event" and rows[3]["note"] == AJUSTE["note"]
    assert rows[5]["kind"] == "event" and "se sienta Elena" in rows[5]["text"]
    assert rows[6]["result_word"] == "bola cortada"
    assert context["seat_names"] == list(REAL_LEDGER["people"])


def test_hand_page_of_a_corrected_ajuste_says_what_changed(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """R32: the history of an ajuste in words, not as raw data."""
    t = make_table(real(4))
    changed = {"ajuste": {"from": 2, "to": "plato", "amount": 30}, "note": "renuncio de Benito"}
    assert client.put(f"/api/tables/{t.edit_token}/hands/4", json=changed).status_code == 200
    page = text(client.get(f"/t/{t.edit_token}/mano/4"))
    assert "ajuste: Benito paga 25 al plato → Benito paga 30 al plato" in page
    assert "Nota</dt><dd>renuncio de Benito" in page.replace("</dt> <dd>", "</dt><dd>")


def test_import_form_takes_a_session_with_every_event(app: Flask, client: FlaskClient) -> None:
    """The import page accepts ajuste, sienta and repartir (R30, R32, R33) and makes the same ledger."""
    data = {"file": (io.BytesIO(json.dumps(REAL).encode()), "noche.json")}
    response = client.post("/importar", data=data, content_type="multipart/form-data")
    assert response.status_code == 302
    token = response.headers["Location"].rsplit("/", 1)[-1]
    ledger = api_ledger(client, token)
    assert ledger["people"] == REAL_LEDGER["people"]
    page = table_page(client, token)
    assert "6 · cambio de jugador: Diego deja el asiento 4; se sienta Elena · Diego se va; se sienta Elena" in page
    assert "Diego (se fue)" in page
    bad = copy.deepcopy(REAL)
    bad["hands"][3] = {"ajuste": {"from": 2, "to": 2, "amount": 25}}
    data = {"file": (io.BytesIO(json.dumps(bad).encode()), "mala.json")}
    refused = client.post("/importar", data=data, content_type="multipart/form-data")
    assert refused.status_code == 400
    assert "la mano 4 no es posible" in text(refused)
    with app.app_context():
        assert len(store.list_tables()) == 1  # nothing saved


def test_hand_forms_name_the_people_seated_for_that_hand(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """R33: after the change, the next hand is Elena's seat; hand 5 (before it) is still Diego's."""
    t = make_table(real(9))
    new = text(client.get(f"/t/{t.edit_token}/mano"))
    assert "Elena" in new and "Diego" not in new
    old = text(client.get(f"/t/{t.edit_token}/mano/5/editar"))
    assert "Diego" in old and "Elena" not in old
