"""What makes the table's pages cheaper never changes what they show.

The table page keeps the blocks that depend only on the table's state (turns, plato, balances,
cartulina) per revision and language; the words of the scripts per language; the hand list's
pages per revision, language and filters; the ledger and session JSON as the bytes sent; and the
templates' words come from the translations looked up once per locale. Each test changes what the
cache is keyed on and checks that the page follows.
"""

from __future__ import annotations

import json
import random
import re

from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from scorer import store
from scorer.engine.tresillo import active_seats
from scorer.store.db import db
from scorer.web.common.i18n import translations
from tests.engine.strategies import random_session
from tests.web.conftest import sample_session

# what changes from one answer to the next whatever the table: form tokens, the time the page was made
VOLATILE = re.compile(r'(value|data-rendered-at|data-answers)="[^"]*"')


def _create(app: Flask, **keys: object) -> tuple[str, str]:
    with app.app_context():
        table = store.create_table(sample_session(**keys))
        return str(table.edit_token), str(table.view_token)


def _page(client: FlaskClient, url: str, language: str = "es") -> str:
    client.set_cookie("lang", language)
    response = client.get(url)
    assert response.status_code == 200, url
    return VOLATILE.sub("", response.get_data(as_text=True))


def test_a_page_made_from_the_kept_blocks_is_the_page_made_afresh(app: Flask, client: FlaskClient) -> None:
    edit, view = _create(app)
    for url in (f"/t/{edit}", f"/t/{view}", f"/t/{edit}/manos"):
        first = _page(client, url)
        assert _page(client, url) == first  # from the kept blocks
        store.forget()  # a fresh worker: every block made again
        assert _page(client, url) == first, url


def test_the_kept_blocks_follow_the_table(client: FlaskClient, app: Flask) -> None:
    edit, _view = _create(app)
    before = _page(client, f"/t/{edit}")
    assert "Próxima mano: la 4" in before
    response = client.post(
        f"/api/tables/{edit}/hands",
        json={"jugador": 1, "lance": "entrada", "trump": "espadas", "tricks": {"1": 5, "2": 2, "3": 2}},
    )
    assert response.status_code == 201, response.get_json()
    after = _page(client, f"/t/{edit}")
    assert "Próxima mano: la 5" in after and "Próxima mano: la 4" not in after
    ledger = client.get(f"/api/tables/{edit}/ledger").get_json()
    shown = re.search(r'<section aria-labelledby="saldos-h">.*?</section>', after, re.S)
    assert shown is not None
    for seat, balance in ledger["balances"].items():  # the balances block is the new revision's
        name = sample_session()["players"][int(seat) - 1]
        assert re.search(rf"{name}</bdi>.*?{abs(balance)}", shown.group(0), re.S), (name, balance)


def test_each_language_has_its_own_blocks_and_script_words(client: FlaskClient, app: Flask) -> None:
    edit, _view = _create(app)
    spanish = _page(client, f"/t/{edit}", "es")
    english = _page(client, f"/t/{edit}", "en")
    assert "Próxima mano: la 4" in spanish and "Saldos" in spanish and '"copied": "Enlace copiado."' in spanish
    assert "Next hand: number 4" in english and "Balances" in english
    assert "Próxima mano" not in english and '"copied": "Link copied."' in english
    assert _page(client, f"/t/{edit}", "es") == spanish  # and back again, from the kept blocks


def test_the_view_link_never_gets_the_keepers_blocks(client: FlaskClient, app: Flask) -> None:
    edit, view = _create(app)
    keeper = _page(client, f"/t/{edit}")
    watcher = _page(client, f"/t/{view}")
    assert "data-ahead" in keeper and f"/t/{edit}/mano?jugador=" in keeper
    assert "data-ahead" not in watcher and edit not in watcher


def test_a_deleted_hand_and_its_restore_show_at_once(client: FlaskClient, app: Flask) -> None:
    edit, _view = _create(app)
    assert "Manos borradas" not in _page(client, f"/t/{edit}")
    assert client.delete(f"/api/tables/{edit}/hands/3").status_code == 200
    page = _page(client, f"/t/{edit}")
    assert "Manos borradas" in page and "Volvería a ser la mano 3" in page
    deleted = client.get(f"/api/tables/{edit}/deleted").get_json()["deleted"]
    assert client.post(f"/api/tables/{edit}/deleted/{deleted[0]['hand_id']}", json={}).status_code == 200
    assert "Manos borradas" not in _page(client, f"/t/{edit}")


def test_the_hand_list_pages_follow_filters_language_and_revision(client: FlaskClient, app: Flask) -> None:
    edit, _view = _create(app)
    everything = _page(client, f"/t/{edit}/manos")
    assert everything.count('<li><a href="') == 3
    only_diego = _page(client, f"/t/{edit}/manos?jugador=Diego")
    assert only_diego.count('<li><a href="') == 1
    english = _page(client, f"/t/{edit}/manos", "en")
    assert "From the last to the first" in english and "De la última a la primera" not in english
    client.post(f"/api/tables/{edit}/hands", json={"pass": True})
    assert _page(client, f"/t/{edit}/manos").count('<li><a href="') == 4


def test_the_ledger_and_session_are_sent_as_the_engine_made_them(client: FlaskClient, app: Flask) -> None:
    edit, _view = _create(app)
    with app.app_context():
        table = store.open_table(edit)[0]
        ledger, session = store.read(table).ledger, store.read(table).session
    for url, data in ((f"/api/tables/{edit}/ledger", ledger), (f"/api/tables/{edit}", session)):
        response = client.get(url)
        assert response.mimetype == "application/json"
        assert response.get_data() == (json.dumps(data, ensure_ascii=False) + "\n").encode()


def test_a_surrogate_stored_before_the_limits_is_sent_replaced_and_read_back_intact(
    client: FlaskClient, app: Flask
) -> None:
    """D2: the API's body is valid UTF-8; the app's own copy keeps the stored text as it is."""
    edit, _view = _create(app)
    with app.app_context():
        table = store.open_table(edit)[0]
        header = dict(table.header)
        header["players"] = ["Ana\ud800", "Benito", "Carmen", "Diego"]
        table.header = header
        table.revision += 1
        db.session.commit()
    body = client.get(f"/api/tables/{edit}").get_data()
    assert json.loads(body.decode("utf-8"))["players"][0] == "Ana?"
    with app.app_context():
        table = store.open_table(edit)[0]
        assert store.read(table).session_copy()["players"][0] == "Ana\ud800"


def test_the_templates_words_follow_force_locale_inside_a_request(app: Flask) -> None:
    with app.test_request_context("/", headers={"Cookie": "lang=es"}):
        assert translations().gettext("Saldos") == "Saldos"
        with force_locale("en"):
            assert translations().gettext("Saldos") == "Balances"
            assert app.jinja_env.from_string("{{ _('Saldos') }}").render() == "Balances"
        assert app.jinja_env.from_string("{{ _('Saldos') }}").render() == "Saldos"


def test_boxes_and_favour_lines_kept_from_earlier_revisions_are_as_afresh(app: Flask, client: FlaskClient) -> None:
    """The cartulina's boxes are kept by their content and the favour suits' lines by the changes they say,
    across revisions: after a hand is saved only what it changed is drawn again, and the page is the page a
    fresh worker makes, in each language (a long evening: changes of player, of favour suit, puestas)."""
    session = random_session(random.Random(2), 240, closing=False, players=4)  # seed 2: as the benches
    assert sum("sienta" in h for h in session["hands"]) >= 3 and sum("favor" in h for h in session["hands"]) >= 3
    with app.app_context():
        table = store.create_table(session)
        edit, dealer = str(table.edit_token), int(store.read(table).ledger["next_dealer"])
    for language in ("es", "en", "es"):
        _page(client, f"/t/{edit}", language)  # every box and line kept, in this language
    a, b, c = active_seats(4, dealer)
    response = client.post(
        f"/api/tables/{edit}/hands",
        json={"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {str(a): 5, str(b): 2, str(c): 2}},
    )
    assert response.status_code == 201, response.get_json()
    kept = {language: _page(client, f"/t/{edit}", language) for language in ("es", "en")}
    assert 'class="cartulina"' in kept["es"] and "data-favor" in kept["es"]
    assert "Desde la mano" in kept["es"] and "Desde la mano" not in kept["en"]
    store.forget()  # a fresh worker: every box and line drawn again
    for language, page in kept.items():
        assert _page(client, f"/t/{edit}", language) == page, language
