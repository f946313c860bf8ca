"""An English page stays English offline, its preview too: the new-hand form
carries what the phone's engine says, in the page's language (``data-offline-words``)."""

from __future__ import annotations

import html
import json
import pathlib
import re
from typing import Any

from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorer import store
from scorer.web.tables.offline import reader_messages
from tests.web.conftest import sample_session

CATALOG = pathlib.Path(__file__).resolve().parents[3] / "translations" / "en" / "LC_MESSAGES" / "messages.po"


def offline_words(client: FlaskClient, url: str, language: str) -> dict[str, Any]:
    client.set_cookie("lang", language)
    page = client.get(url).get_data(as_text=True)
    found = re.search(r"data-offline-words='([^']*)'", page)
    assert found, "the new-hand form carries no words for the phone"
    return dict(json.loads(html.unescape(found.group(1))))


def test_the_new_hand_form_carries_the_readers_messages_and_the_results_in_english(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        token = store.create_table(sample_session()).edit_token
    with CATALOG.open("rb") as f:
        catalog = read_po(f, locale="en")
    english = offline_words(client, f"/t/{token}/mano", "en")
    assert set(english["reader"]) == set(reader_messages()) and len(reader_messages()) > 20
    for message, said in english["reader"].items():
        assert said == catalog[message].string and said != message, message
    assert english["results"]["ganada"] == "won" and english["results"]["puesta"] == "puesta"  # a game word stays
    spanish = offline_words(client, f"/t/{token}/mano", "es")
    assert spanish["reader"] == {}  # the phone's reader speaks Spanish already
    assert spanish["results"]["bola"] == "bola hecha" and spanish["results"]["ganada"] == "ganada"
    kept = offline_words(client, f"/t/{token}/mano/tras/1", "en")  # the forms the phone keeps for later deals
    assert kept == english


def test_ombre_says_sacada_for_a_won_hand(app: Flask, client: FlaskClient) -> None:
    session = sample_session(players=["Ana", "Benito", "Carmen"], rules={"ruleset": "ombre"}, hands=[])
    with app.app_context():
        token = store.create_table(session).edit_token
    assert offline_words(client, f"/t/{token}/mano", "es")["results"]["ganada"] == "sacada"
