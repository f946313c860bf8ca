"""The players' answers reach the keeper's open page by themselves, a ✓ only when everyone agrees,
and a watcher's first screen asks who he is with one button per person, then offers the latest hand."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorer.store.models import Table
from tests.web.answers.test_pages import i_am, say, text_of


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WTF_CSRF_ENABLED": False, "CARTULINA_REFRESH_SECONDS": 2}


@pytest.fixture
def table(make_table: Callable[..., Table]) -> Table:
    return make_table()


def stamp_of(client: FlaskClient, table: Table) -> int:
    return int(client.get(f"/t/{table.view_token}/estado").get_json()["answers"])


def live(client: FlaskClient, token: str, **query: Any) -> Any:
    return client.get(f"/t/{token}/respuestas", query_string=query)


def test_the_keepers_page_polls_the_answers_every_configured_interval(client: FlaskClient, table: Table) -> None:
    page = client.get(f"/t/{table.edit_token}").get_data(as_text=True)
    block = re.search(r"<div[^>]*data-answers-live=\"([^\"]+)\"[^>]*>", page)
    assert block is not None, "the keeper's page has no live answers block"
    assert block.group(1) == f"/t/{table.edit_token}/respuestas"
    assert f'data-sello="{stamp_of(client, table)}"' in block.group(0)
    assert 'data-refresh="2"' in block.group(0)
    assert 'aria-live="polite"' in block.group(0)
    for n in (1, 2, 3):  # each hand's mark can be replaced on its own
        assert f'data-n="{n}"' in page
    # the watchers' page reloads by itself (estado): no second poll there
    assert "data-answers-live" not in client.get(f"/t/{table.view_token}").get_data(as_text=True)


def test_the_keepers_hand_list_is_live_too_and_a_closed_table_is_not(
    client: FlaskClient, table: Table, make_table: Callable[..., Table]
) -> None:
    listing = client.get(f"/t/{table.edit_token}/manos").get_data(as_text=True)
    assert f'data-answers-live="/t/{table.edit_token}/respuestas"' in listing
    closed = make_table(hands=[{"pass": True}, {"close": "devolver"}])
    assert "data-answers-live" not in client.get(f"/t/{closed.edit_token}").get_data(as_text=True)


def test_the_refresh_interval_defaults_to_five_seconds(make_app: Callable[..., Any]) -> None:
    assert make_app().config["CARTULINA_REFRESH_SECONDS"] == 5


def test_nothing_new_is_a_bodyless_204_that_no_one_keeps(client: FlaskClient, table: Table) -> None:
    response = live(client, table.edit_token, sello=stamp_of(client, table), manos="1,2,3")
    assert response.status_code == 204
    assert response.get_data() == b""
    assert "no-store" in response.headers["Cache-Control"]
    assert "Set-Cookie" not in response.headers  # a poll writes no session


def test_a_disagreement_comes_back_with_its_note_and_the_hands_new_marks(client: FlaskClient, table: Table) -> None:
    before = stamp_of(client, table)
    i_am(client, table, "Carmen")
    say(client, table, 1, "Carmen", False, "eran 4 estuches")
    say(client, table, 2, "Ana", True)
    response = live(client, table.edit_token, sello=before, manos="1,2,3")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert "no-store" in response.headers["Cache-Control"]
    html = response.get_data(as_text=True)
    assert f'data-sello="{stamp_of(client, table)}"' in html
    words = text_of(html)
    assert "No es así Mano 1: Carmen dice: «eran 4 estuches»" in words
    assert "Se quita cuando corriges la mano" in words  # the keeper's help, as on the page
    parts = re.split(r'(?=<span class="answers-mark )', html)[1:]
    marks = {re.search(r'data-n="(\d+)"', part).group(1): part for part in parts}  # type: ignore[union-attr]
    assert sorted(marks) == ["1", "2", "3"]
    assert "no es así: 1" in text_of(marks["1"])
    assert "1 de 4" in text_of(marks["2"])
    # and polled again with the new stamp: nothing new
    assert live(client, table.edit_token, sello=stamp_of(client, table), manos="1").status_code == 204


def test_an_odd_query_is_read_as_nothing_known_never_a_crash(client: FlaskClient, table: Table) -> None:
    for query in ({}, {"sello": "x"}, {"sello": "-1", "manos": "a,,9,0,-2"}, {"manos": "1" * 500}):
        response = live(client, table.edit_token, **query)
        assert response.status_code == 200, query
        assert "data-answers-live" in response.get_data(as_text=True)
        assert 'data-n="9"' not in response.get_data(as_text=True)
    many = ",".join(str(n) for n in range(1, 500))
    assert live(client, table.edit_token, manos=many).get_data(as_text=True).count('data-n="') == 3
    assert live(client, "no-such-table", sello="0").status_code == 404


def test_the_view_link_polls_the_same_answers_without_the_keepers_help(client: FlaskClient, table: Table) -> None:
    say(client, table, 1, "Carmen", False, "eran 4 estuches")
    words = text_of(live(client, table.view_token, sello="0").get_data(as_text=True))
    assert "Carmen dice: «eran 4 estuches»" in words
    assert "Se quita cuando corriges la mano" not in words


def test_a_tick_only_when_everyone_seated_agrees(client: FlaskClient, table: Table) -> None:
    for person in ("Ana", "Benito", "Carmen", "Diego"):
        say(client, table, 1, person, True)
    say(client, table, 2, "Ana", True)
    keeper = text_of(client.get(f"/t/{table.edit_token}").get_data(as_text=True))
    assert "✓ de acuerdo: 4 de 4" in keeper  # hand 1
    assert "de acuerdo: 1 de 4" in keeper  # hand 2
    assert "de acuerdo: 0 de 4" in keeper  # hand 3
    assert "✓ de acuerdo: 1 de 4" not in keeper
    assert "✓ de acuerdo: 0 de 4" not in keeper
    listing = text_of(client.get(f"/t/{table.edit_token}/manos").get_data(as_text=True))
    assert listing.count("✓") == 1


def test_the_partly_agreed_line_of_the_sheet_has_no_tick(client: FlaskClient, table: Table) -> None:
    say(client, table, 2, "Ana", True)
    sheet = text_of(client.get(f"/tables/{table.edit_token}/sheet").get_data(as_text=True))
    assert "De acuerdo en parte: 2 (1 de 4)" in sheet
    assert "✓ De acuerdo en parte" not in sheet


def test_who_am_i_is_one_button_per_person_before_the_balances(client: FlaskClient, table: Table) -> None:
    page = client.get(f"/t/{table.view_token}").get_data(as_text=True)
    buttons = re.findall(r'<button[^>]*name="persona" value="([^"]+)"[^>]*>(.*?)</button>', page, re.S)
    assert [(value, text_of(label)) for value, label in buttons] == [
        (name, f"Soy {name}") for name in ("Ana", "Benito", "Carmen", "Diego")
    ]
    assert page.index("¿Quién eres?") < page.index('id="saldos-h"')


def test_once_chosen_the_latest_hand_and_its_answers_come_first(client: FlaskClient, table: Table) -> None:
    i_am(client, table, "Carmen")
    page = client.get(f"/t/{table.view_token}").get_data(as_text=True)
    latest = page.index('De acuerdo<span class="sr-only"> con la mano 3</span>')
    assert latest < page.index('id="saldos-h"')
    assert page.count("con la mano 3</span>") == 1  # offered once: at the top, not again in the list
    assert "Respondes como" in text_of(page[: page.index('id="saldos-h"')])
    # agreed: the top says so and offers nothing more for it
    say(client, table, 3, "Carmen", True)
    top = text_of(client.get(f"/t/{table.view_token}").get_data(as_text=True).split('id="saldos-h"')[0])
    assert "Mano 3" in top and "Dijiste: de acuerdo." in top


def test_the_first_screen_speaks_english(client: FlaskClient, table: Table) -> None:
    client.set_cookie("lang", "en")
    words = text_of(client.get(f"/t/{table.view_token}").get_data(as_text=True))
    assert "I am Ana" in words and "Just once: this phone remembers it." in words
    i_am(client, table, "Ana")
    words = text_of(client.get(f"/t/{table.view_token}").get_data(as_text=True))
    assert "Latest hand you played: 3" in words
