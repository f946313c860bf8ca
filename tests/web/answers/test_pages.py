"""The players' answers on the pages: who am I, De acuerdo / No es así, the keeper's marks, R31, the sheet."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.store.models import Table

EDITED = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 6, "3": 2, "4": 1}}


def text_of(html: str) -> str:
    """The page's words, tags and extra spaces left out."""
    inline = re.sub(r"</?(?:bdi|strong|span|a|em)\b[^>]*>", "", html)
    return " ".join(re.sub(r"<[^>]+>", " ", inline).split())


def i_am(client: FlaskClient, table: Table, name: str) -> None:
    token = table.view_token
    response = client.post(f"/t/{token}/yo", data={"persona": name, "next": f"/t/{token}"})
    assert response.status_code == 302


def say(client: FlaskClient, table: Table, n: int, person: str, agrees: bool, note: str = "", **more: str) -> Any:
    data = {"persona": person, "acuerdo": "si" if agrees else "no", "nota": note, **more}
    return client.post(f"/t/{table.view_token}/mano/{n}/respuesta", data=data)


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table()


def test_the_watchers_page_asks_who_i_am_once_and_remembers_it_for_that_table(
    client: FlaskClient, table: Table, make_table: Callable[..., Table]
) -> None:
    page = client.get(f"/t/{table.view_token}").get_data(as_text=True)
    assert "¿Quién eres?" in page
    assert "De acuerdo" not in page  # not before saying who
    response = client.post(f"/t/{table.view_token}/yo", data={"persona": "Carmen", "next": f"/t/{table.view_token}"})
    assert response.headers["Location"] == f"/t/{table.view_token}"
    cookie = response.headers["Set-Cookie"]
    assert "cartulina_yo=Carmen" in cookie
    assert f"Path=/t/{table.view_token}" in cookie  # this table only
    page = text_of(client.get(f"/t/{table.view_token}").get_data(as_text=True))
    assert "Respondes como Carmen." in page
    assert "¿Quién eres?" not in page
    assert page.count("De acuerdo con la mano") == 3
    other = make_table()
    assert "¿Quién eres?" in client.get(f"/t/{other.view_token}").get_data(as_text=True)
    # "No soy yo" forgets it
    client.post(f"/t/{table.view_token}/yo", data={"olvidar": "1"})
    assert "¿Quién eres?" in client.get(f"/t/{table.view_token}").get_data(as_text=True)


def test_only_someone_seated_can_be_chosen(client: FlaskClient, table: Table) -> None:
    response = client.post(f"/t/{table.view_token}/yo", data={"persona": "Zoe"}, follow_redirects=True)
    assert "Elige quién eres entre los que están sentados." in response.get_data(as_text=True)
    assert "cartulina_yo" not in (response.headers.get("Set-Cookie") or "")


def test_a_disagreement_shows_on_the_keepers_page_until_the_hand_is_fixed(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    i_am(client, table, "Carmen")
    response = say(client, table, 1, "Carmen", False, "eran 4 estuches", next=f"/t/{table.view_token}")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/t/{table.view_token}"
    assert "Mano 1: anotado que no es así." in client.get(f"/t/{table.view_token}").get_data(as_text=True)
    say(client, table, 1, "Ana", True)
    say(client, table, 2, "Ana", True)

    keeper = text_of(client.get(f"/t/{table.edit_token}").get_data(as_text=True))
    assert "No es así Mano 1: Carmen dice: «eran 4 estuches»" in keeper
    assert "1 de 4 · ✗ no es así: 1" in keeper  # hand 1: Ana agrees, Carmen does not
    assert "de acuerdo: 1 de 4" in keeper  # hand 2 (✓ only when everyone agrees)
    assert "✓ de acuerdo: 1 de 4" not in keeper
    assert "De acuerdo con la mano" not in keeper  # the keeper's page has no answer forms
    listing = text_of(client.get(f"/t/{table.edit_token}/manos").get_data(as_text=True))
    assert "Carmen dice: «eran 4 estuches»" in listing
    assert "de acuerdo: 0 de 4" in listing  # hand 3
    assert "✓" not in listing

    # the keeper fixes the hand: the disagreement goes, the answers are asked again
    from scorer import store

    with app.app_context():
        store.replace_hand(store.open_table(table.edit_token)[0], 1, EDITED)
    keeper = text_of(client.get(f"/t/{table.edit_token}").get_data(as_text=True))
    assert "eran 4 estuches" not in keeper
    watcher = text_of(client.get(f"/t/{table.view_token}").get_data(as_text=True))
    assert "La mano ha cambiado desde que respondiste: vuelve a mirarla." in watcher
    # the hand's page keeps the earlier answers
    hand = text_of(client.get(f"/t/{table.view_token}/mano/1").get_data(as_text=True))
    assert "Nadie ha respondido aún." in hand
    assert "Respuestas a lo que la mano era antes de cambiar Carmen: no es así: «eran 4 estuches»" in hand
    say(client, table, 1, "Carmen", False, "no sé")
    say(client, table, 1, "Carmen", True)  # replaces her answer to the hand as it is now
    hand = text_of(client.get(f"/t/{table.view_token}/mano/1").get_data(as_text=True))
    assert "Carmen: de acuerdo" in hand
    assert "Dijiste: de acuerdo." in hand
    assert "no sé" not in hand  # a replaced answer is not one to what the hand was before
    assert "Carmen: no es así: «eran 4 estuches»" in hand


def test_a_changed_player_answers_again_rather_than_about_what_he_did_not_see(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    i_am(client, table, "Carmen")
    page = client.get(f"/t/{table.view_token}/mano/1").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version
    from scorer import store

    with app.app_context():
        store.replace_hand(store.open_table(table.edit_token)[0], 1, EDITED)
    response = say(client, table, 1, "Carmen", True, version=version[1], next=f"/t/{table.view_token}/mano/1")
    assert response.headers["Location"] == f"/t/{table.view_token}/mano/1"
    page = text_of(client.get(response.headers["Location"]).get_data(as_text=True))
    assert "La mano 1 ha cambiado mientras la mirabas" in page
    assert "Nadie ha respondido aún." in page


@pytest.mark.parametrize(
    ("person", "agrees", "note", "message"),
    [
        ("Zoe", True, "", "Zoe no estaba sentado en la mano 1"),
        ("Carmen", False, "", "Di en una nota qué no es así"),
        ("Carmen", False, "x" * 201, "La nota pasa de 200 caracteres"),
    ],
)
def test_a_refused_answer_says_why_at_the_top_and_saves_nothing(
    client: FlaskClient, table: Table, person: str, agrees: bool, note: str, message: str
) -> None:
    response = say(client, table, 1, person, agrees, note)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "No se ha guardado tu respuesta" in page
    assert message in page
    assert client.get(f"/api/tables/{table.view_token}/hands/1").get_json()["answers"] == []


def test_a_note_is_shown_as_text(client: FlaskClient, table: Table) -> None:
    say(client, table, 1, "Carmen", False, "<script>x</script>")
    page = client.get(f"/t/{table.edit_token}").get_data(as_text=True)
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert "<script>x" not in page


def test_next_leads_only_to_this_tables_pages(client: FlaskClient, table: Table) -> None:
    wrong = ("https://example.com/", "//example.com/t/x", f"/t/{table.edit_token}", "/t/other")
    for target in (*wrong, f"/t/{table.view_token}/../../nueva"):
        response = say(client, table, 1, "Ana", True, next=target)
        assert response.headers["Location"] == f"/t/{table.view_token}", target


def test_the_poll_sees_answers_and_the_revision_does_not_move(client: FlaskClient, table: Table) -> None:
    before = client.get(f"/t/{table.view_token}/estado").get_json()
    say(client, table, 1, "Ana", True)
    after = client.get(f"/t/{table.view_token}/estado").get_json()
    assert after["revision"] == before["revision"]  # a keeper's open hand form stays good
    assert after["answers"] != before["answers"]
    page = client.get(f"/t/{table.view_token}").get_data(as_text=True)
    assert f'data-answers="{after["answers"]}"' in page


def test_digits_that_are_not_ascii_are_no_number_to_the_answer_forms(client: FlaskClient, table: Table) -> None:
    # "²" and "٣" are digits to str.isdigit but int() refuses "²": read as no number, never a crash
    response = say(client, table, 1, "Ana", True, version="²")
    assert response.status_code == 302
    assert "Mano 1: de acuerdo." in client.get(f"/t/{table.view_token}").get_data(as_text=True)
    for stamp in ("²", "٣"):
        poll = client.get(f"/t/{table.edit_token}/respuestas?sello={stamp}&manos=1,²,٣")
        assert poll.status_code == 200


def test_the_table_page_and_the_sheet_show_that_it_squares(client: FlaskClient, table: Table) -> None:
    page = text_of(client.get(f"/t/{table.edit_token}").get_data(as_text=True))
    assert "Cuadra: saldos −40 + 40 (plato) = 0." in page  # R31
    say(client, table, 1, "Carmen", False, "eran 4 estuches")
    for person in ("Ana", "Benito", "Carmen", "Diego"):
        say(client, table, 2, person, True)
    say(client, table, 3, "Diego", True)
    sheet = text_of(client.get(f"/tables/{table.view_token}/sheet").get_data(as_text=True))
    assert "Cuadra: saldos −40 + 40 (plato) = 0." in sheet
    assert "De acuerdo todos: 2" in sheet
    assert "De acuerdo en parte: 3 (1 de 4)" in sheet
    assert "No es así: mano 1, Carmen: «eran 4 estuches»" in sheet


def test_the_sheet_prints_in_the_tables_language(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    table = make_table(language="en")
    say(client, table, 1, "Carmen", False, "eran 4 estuches")
    sheet = text_of(client.get(f"/tables/{table.view_token}/sheet").get_data(as_text=True))
    assert "It squares: balances −40 + 40 (plato) = 0." in sheet
    assert "Not right: hand 1, Carmen: “eran 4 estuches”" in sheet
    assert "Not answered: 2–3" in sheet


def test_a_closed_table_offers_no_answers(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    table = make_table(hands=[{"pass": True}, {"close": "devolver"}])
    i_am(client, table, "Ana")
    page = client.get(f"/t/{table.view_token}").get_data(as_text=True)
    assert "De acuerdo con la mano" not in page
    assert "¿Quién eres?" not in page


def test_the_forms_carry_their_csrf_token_and_need_it(make_app: Callable[..., Flask]) -> None:
    from tests.web.conftest import sample_session

    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    table = Table(
        **{k: v for k, v in client.post("/api/tables", json=sample_session()).get_json().items() if "token" in k}
    )
    page = client.get(f"/t/{table.view_token}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    response = client.post(f"/t/{table.view_token}/yo", data={"persona": "Ana"})
    assert response.status_code == 400  # no CSRF token
    response = client.post(f"/t/{table.view_token}/yo", data={"persona": "Ana", "csrf_token": token[1]})
    assert response.status_code == 302
    data = {"persona": "Ana", "acuerdo": "si"}
    assert client.post(f"/t/{table.view_token}/mano/1/respuesta", data=data).status_code == 400
    assert client.get(f"/api/tables/{table.view_token}/hands/1").get_json()["answers"] == []
    data["csrf_token"] = token[1]
    assert client.post(f"/t/{table.view_token}/mano/1/respuesta", data=data).status_code == 302
    assert len(client.get(f"/api/tables/{table.view_token}/hands/1").get_json()["answers"]) == 1


def test_who_left_still_answers_the_hands_he_played(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """R33: Carmen leaves after hand 1 and Elena sits down; each answers only the hands at which they sat."""
    table = make_table(hands=[{"pass": True}, {"sienta": {"seat": 3, "player": "Elena"}}, {"pass": True}])
    page = client.get(f"/t/{table.view_token}").get_data(as_text=True)
    assert re.findall(r'name="persona" value="([^"]+)"', page) == ["Ana", "Benito", "Elena", "Diego", "Carmen"]
    i_am(client, table, "Carmen")
    page = text_of(client.get(f"/t/{table.view_token}").get_data(as_text=True))
    assert "De acuerdo con la mano 1" in page
    assert "De acuerdo con la mano 3" not in page
    assert say(client, table, 1, "Carmen", True).status_code == 302
    assert say(client, table, 3, "Elena", True).status_code == 302
    listing = text_of(client.get(f"/t/{table.edit_token}/manos").get_data(as_text=True))
    assert listing.count("de acuerdo: 1 de 4") == 2
