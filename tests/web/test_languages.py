"""Spanish and English pages: the language switch, <html lang>, refusals, money, the sheet.

Spanish is the default and the source; English comes from translations/en. The expected English of a
refusal is read from the .po file (not from the code that renders it); money and dates are the
formats the issue asks for (1.234,50 € / €1,234.50).
"""

from __future__ import annotations

import datetime as dt
import json
import pathlib
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from scorer import store, words
from scorer.engine import SessionError, settle
from scorer.engine.errors import MESSAGES as ENGINE_CODES
from scorer.store.db import db
from scorer.store.models import Table
from scorer.web.common import messages
from tests.engine.test_error_codes import CASES
from tests.web.common.test_messages import SAMPLES
from tests.web.tables.test_pages import text

ROOT = pathlib.Path(__file__).resolve().parents[2]
NBSP = "\u00a0"
ES = {"Accept-Language": "es-ES,es;q=0.9"}
EN = {"Accept-Language": "en-GB,en;q=0.9"}


def english_catalog() -> dict[str, str]:
    with (ROOT / "translations" / "en" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return {m.id: m.string for m in read_po(handle) if isinstance(m.id, str) and m.id}


def html_lang(response: Any) -> str:
    found = re.search(r'<html lang="([a-z]+)">', text(response))
    assert found, text(response)[:200]
    return found.group(1)


# ---------------------------------------------------------------- the page's language


def test_home_and_table_page_follow_accept_language(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    t = make_table()
    for path in ("/", f"/t/{t.edit_token}", f"/t/{t.view_token}"):
        spanish, english = client.get(path, headers=ES), client.get(path, headers=EN)
        assert spanish.status_code == english.status_code == 200
        assert (html_lang(spanish), html_lang(english)) == ("es", "en")
        assert text(spanish) != text(english)
        assert "Glosario" in text(spanish) and "Glossary" in text(english)
        for response in (spanish, english):
            assert {"Accept-Language", "Cookie"} <= set(response.vary)  # a cache keeps one page per language


def test_spanish_without_accept_language_or_with_an_unknown_one(client: FlaskClient) -> None:
    assert html_lang(client.get("/")) == "es"
    assert html_lang(client.get("/", headers={"Accept-Language": "fr-FR,de;q=0.8"})) == "es"
    assert html_lang(client.get("/", headers={"Accept-Language": "fr,en;q=0.5"})) == "en"  # best match


def test_the_switch_is_on_every_page_and_works_without_js(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    t = make_table()
    page = text(client.get(f"/t/{t.edit_token}", headers=ES))
    # plain links (GET), back to the same page: no script involved
    link = re.search(r'<a href="(/idioma/en\?next=[^"]+)"[^>]*>English</a>', page)
    assert link, page[-1500:]
    response = client.get(link.group(1).replace("&amp;", "&"), headers=ES)
    assert response.status_code == 303 and response.headers["Location"] == f"/t/{t.edit_token}"
    assert "lang=en" in response.headers["Set-Cookie"] and "HttpOnly" in response.headers["Set-Cookie"]
    # remembered: the cookie wins over Accept-Language, on every page
    assert html_lang(client.get("/", headers=ES)) == "en"
    assert html_lang(client.get(f"/t/{t.edit_token}", headers=ES)) == "en"
    client.get("/idioma/es?next=/")
    assert html_lang(client.get("/", headers=EN)) == "es"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:x", ""])
def test_the_switch_goes_back_only_to_this_site(client: FlaskClient, target: str) -> None:
    response = client.get("/idioma/en", query_string={"next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_an_unknown_language_is_not_remembered(client: FlaskClient) -> None:
    response = client.get("/idioma/xx?next=/")
    assert response.status_code == 303 and "Set-Cookie" not in response.headers
    assert html_lang(client.get("/", headers=EN)) == "en"


# ---------------------------------------------------------------- refusals in the asked language


@pytest.mark.parametrize(("fields", "field", "code"), SAMPLES, ids=[s[2] for s in SAMPLES])
def test_an_impossible_hand_is_explained_in_the_asked_language(
    client: FlaskClient, make_table: Callable[..., Table], fields: dict[str, str], field: str, code: str
) -> None:
    t = make_table(hands=[])
    data = {"lance": "entrada", "request_id": f"l-{code}", "save": "1", **fields}
    english = client.post(f"/t/{t.edit_token}/mano", data=data, headers=EN)
    spanish = client.post(f"/t/{t.edit_token}/mano", data={**data, "request_id": f"e-{code}"}, headers=ES)
    assert english.status_code == spanish.status_code == 400
    msgid = str(messages.MESSAGES[code])
    translated = english_catalog()[msgid]
    # the longest literal part of the catalog's English is on the English page; the Spanish one is not
    english_static = max(re.split(r"\{[^}]*\}", translated), key=len).strip()
    spanish_static = max(re.split(r"\{[^}]*\}", msgid), key=len).strip()
    assert english_static and english_static != spanish_static
    assert english_static in text(english) and spanish_static not in text(english)
    assert spanish_static in text(spanish) and english_static not in text(spanish)
    assert html_lang(english) == "en"


def _refusal(case: Any) -> SessionError:
    with pytest.raises(SessionError) as info:
        settle(case)
    return info.value


@pytest.mark.parametrize(("case", "code", "field"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_every_engine_code_renders_in_both_languages(app: Flask, case: Any, code: str, field: str | None) -> None:
    error = _refusal(case)
    with app.test_request_context("/", headers=ES):
        spanish = messages.message(error)
    with app.test_request_context("/", headers=EN):
        english = messages.message(error)
    for shown in (spanish, english):
        assert shown.strip() and "{" not in shown and "}" not in shown, shown
    assert english != spanish
    msgid = str(messages.MESSAGES[code])
    assert english_catalog()[msgid] != msgid  # the template itself is translated
    assert "«" not in english  # English quotes the user's values “…”


def test_every_code_of_the_catalog_has_english() -> None:
    catalog = english_catalog()
    for code, template in messages.MESSAGES.items():
        assert catalog.get(str(template)), code
    assert set(ENGINE_CODES) <= set(messages.MESSAGES)


# ---------------------------------------------------------------- numbers, money, dates


def test_money_numbers_and_dates_are_written_per_locale(app: Flask) -> None:
    value = Decimal("0.05")
    with app.test_request_context("/", headers=ES):
        assert words.money_text(24690, value, "EUR") == f"1.234,50{NBSP}€"
        assert words.money_text(-24690, value, "EUR") == f"\u22121.234,50{NBSP}€"
        assert words.signed(1215) == "+1.215"
        assert words.date_text("2025-03-14") == "14/03/2025"
        assert words.time_text(dt.datetime(2025, 1, 15, 22, 30), "Europe/Madrid") == "15/01/2025 23:30"
    with app.test_request_context("/", headers=EN):
        assert words.money_text(24690, value, "EUR") == "€1,234.50"
        assert words.money_text(-24690, value, "EUR", sign=True) == "\u2212€1,234.50"
        assert words.money_text(150, value, "€", sign=True) == "+€7.50"
        assert words.signed(1215) == "+1,215" and words.plain(-1234567) == "\u22121,234,567"
        assert words.decimal_text(Decimal("0.050")) == "0.05"
        assert words.date_text("2025-03-14") == "14 Mar 2025"  # the month's name: never 03/14 against 14/03
        assert (
            words.time_text(dt.datetime(2025, 1, 15, 22, 30), "Europe/Madrid") == "15 Jan 2025 11:30\u202fPM"
        )  # CLDR: narrow no-break space
        with force_locale("es"):
            assert words.money_text(24690, value, "EUR") == f"1.234,50{NBSP}€"


def test_outside_a_page_numbers_are_spanish() -> None:
    assert words.money_text(24690, Decimal("0.05"), "EUR") == f"1.234,50{NBSP}€"


# ---------------------------------------------------------------- the table's language: the sheet

EN_MONEY = re.compile(r"€\d")  # €1,234.50
ES_MONEY = re.compile(rf"\d,\d\d{NBSP}€")  # 1.234,50 €


@pytest.mark.parametrize("viewer", [ES, EN], ids=["es-viewer", "en-viewer"])
def test_the_sheet_follows_the_tables_language_not_the_viewers(
    client: FlaskClient, make_table: Callable[..., Table], viewer: dict[str, str]
) -> None:
    english_table, spanish_table = make_table(language="en"), make_table(language="es")
    english = text(client.get(f"/tables/{english_table.view_token}/sheet", headers=viewer))
    spanish = text(client.get(f"/tables/{spanish_table.view_token}/sheet", headers=viewer))
    assert '<html lang="en">' in english and '<html lang="es">' in spanish
    assert EN_MONEY.search(english) and not ES_MONEY.search(english)
    assert ES_MONEY.search(spanish) and not EN_MONEY.search(spanish)


def test_the_pdf_sheet_follows_the_tables_language_in_its_forked_renderer(
    app: Flask, client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    from tests.sheet.test_sheet import pdf_text

    app.config["SHEET_PDF_TIMEOUT"] = 30.0  # rendered in a forked child with a time limit
    english_table, spanish_table = make_table(language="en"), make_table(language="es")
    english = client.get(f"/tables/{english_table.edit_token}/sheet.pdf", headers=ES)
    spanish = client.get(f"/tables/{spanish_table.edit_token}/sheet.pdf", headers=EN)
    assert english.status_code == spanish.status_code == 200
    english_text, spanish_text = pdf_text(english.data), pdf_text(spanish.data)
    assert EN_MONEY.search(english_text) and not re.search(r"\d,\d\d\s*€", english_text)
    assert re.search(r"\d,\d\d\s*€", spanish_text) and not EN_MONEY.search(spanish_text)


def test_the_new_table_form_takes_the_pages_language_and_the_keeper_changes_it(app: Flask, client: FlaskClient) -> None:
    form = text(client.get("/nueva", headers=EN))
    assert re.search(r'<option selected value="en">|<option value="en" selected|value="en" selected', form), form
    data = {"game": "tresillo", "player1": "Ana", "player2": "Benito", "player3": "Carmen", "player4": "Diego",
            "keeper": "4", "first_dealer": "1", "favor_suit": "", "dealer_stake": "5", "enchilada": "0",
            "rounding": "5", "favor_doubling": "double_rounded", "solo_codillo": "codillo_only",
            "failed_bola": "pays_bola", "tanto_value": "0,05", "currency": "€", "language": "en"}  # fmt: skip
    created = client.post("/nueva", data=data, headers=ES)
    assert created.status_code == 302, text(created)[-2000:]
    token = created.headers["Location"].rsplit("/", 1)[-1]
    with app.app_context():
        table = store.open_table(token)[0]
        assert table.language == "en"
        assert json.loads(store.export_session(table))["language"] == "en"  # the app key of the file
        view = table.view_token
    # the view link sees the language but cannot change it
    assert client.post(f"/t/{view}/idioma", data={"language": "es"}).status_code == 403
    assert client.post(f"/t/{token}/idioma", data={"language": "xx"}).status_code == 400
    changed = client.post(f"/t/{token}/idioma", data={"language": "es"}, headers=ES)
    assert changed.status_code == 303
    with app.app_context():
        table = store.open_table(token)[0]
        assert table.language == "es"
        # the cached export follows; Spanish, the default, is left out (a file without it is Spanish)
        assert "language" not in json.loads(store.export_session(table))
    page = text(client.get(f"/t/{token}", headers=ES))
    assert 'name="language"' in page and '<option value="es" lang="es" selected>' in page


def test_import_keeps_the_language_and_defaults_to_spanish(app: Flask) -> None:
    from tests.web.conftest import sample_session

    with app.app_context():
        english = store.import_session(json.dumps(sample_session(language="en")))
        unknown = store.import_session(json.dumps(sample_session(language="tlh")))
        plain = store.import_session(json.dumps(sample_session()))
        assert (english.language, unknown.language, plain.language) == ("en", "es", "es")
        again = store.import_session(store.export_session(english))
        assert again.language == "en" and "language" not in again.header  # a column, not a header key
        db.session.rollback()


# ---------------------------------------------------------------- the glossary


def test_the_glossary_in_both_languages(client: FlaskClient) -> None:
    home = text(client.get("/", headers=EN))
    assert 'href="/glosario"' in home
    english = text(client.get("/glosario", headers=EN))
    spanish = text(client.get("/glosario", headers=ES))
    for word in ("jugador", "lance", "entrada", "vuelta", "solo", "triunfo", "palo de favor", "plato", "cartulina",
                 "puesta", "codillo", "primeras", "bola", "estuches", "rendida", "defensor", "alcalde",
                 "mano, medio, postre", "ajuste", "peña"):  # fmt: skip
        assert f'<dt lang="es">{word}' in english and f'<dt lang="es">{word}' in spanish, word
    assert "<h1>Glossary</h1>" in english and "<h1>Glosario</h1>" in spanish
    assert "tricks" in english and "bazas" not in english  # the meanings are English on English pages
    assert "bazas" in spanish and "tricks" not in spanish


def test_cached_view_models_are_kept_per_language(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    """store.derived builds a table's view-models once per revision *and language*: no English on Spanish pages."""
    t = make_table()
    english = text(client.get(f"/t/{t.view_token}", headers=EN))  # built first, in English
    spanish = text(client.get(f"/t/{t.view_token}", headers=ES))
    assert EN_MONEY.search(english) and not ES_MONEY.search(english)
    assert ES_MONEY.search(spanish) and not EN_MONEY.search(spanish)


def test_interface_words_follow_the_page_and_game_words_stay(app: Flask) -> None:
    with app.test_request_context("/", headers=EN):
        assert words.result_word("sienta") == "change of player"  # interface
        assert words.result_word("codillo") == "codillo"  # the game's own word
        assert words.CLOSE_WORDS["devolver"] == "the plato is returned"
        assert words.CARTULINA_WORDS.get("pendiente") == "pending"
    with app.test_request_context("/", headers=ES):
        assert words.result_word("sienta") == "cambio de jugador"
        assert words.CLOSE_WORDS["devolver"] == "se devuelve el plato"
    assert words.CARTULINA_WORDS.get("pendiente") == "pendiente"  # outside a page: Spanish
