"""The evening, peña and sheet strings go through the catalog.

Every msgid extracted from these files has an English entry in the English catalog
(``translations/en/LC_MESSAGES/messages.po``); with it compiled, the sheet and the hand summaries
read in English while the game's own words stay Spanish; without a catalog (Spanish, the default)
they read as before.
"""

from __future__ import annotations

import io
import pathlib
import re
from gettext import GNUTranslations
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask_babel import Babel, force_locale
from pypdf import PdfReader

from scorer.games import tresillo_views
from scorer.sheet.build import render_html, render_pdf
from scorer.web.common.i18n import PAGE_TONGUE
from scorer.words import Catalog, speaking
from tests.conftest import EXAMPLES, load_json

ROOT = pathlib.Path(__file__).resolve().parents[2]
FRAGMENT = ROOT / "translations" / "en" / "LC_MESSAGES" / "messages.po"  # the English catalog
MINE = re.compile(
    r"^(templates/(evening/|pena/|sheet/|ajuste\.html|cambio\.html|closing\.html)"
    r"|scorer/web/(evening_views|pena|pena_services)\.py|scorer/games/(views|exports|tresillo_views|pots|balances)\.py"
    r"|scorer/sheet/(build|settleup)\.py|scorer/evening\.py|scorer/pena/)"
)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _fragment() -> Any:
    with FRAGMENT.open("rb") as f:
        return read_po(f)


def _extracted() -> dict[Any, str]:
    """msgid → the first of this helper's files it was found in."""
    method_map = [("scorer/**.py", "python"), ("templates/**.html", "jinja2")]
    options = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    found: dict[Any, str] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options, keywords={"_": None, "_l": None, "gettext": None, "ngettext": (1, 2)}
    ):
        if MINE.match(filename):
            found.setdefault(message, filename)
    return found


def test_every_wrapped_string_has_an_english_entry() -> None:
    fragment = _fragment()
    extracted = _extracted()
    assert len(extracted) > 300  # the pages, the sheet and the view-model phrases
    missing = []
    for message in extracted:
        msgid = message[0] if isinstance(message, tuple) else message
        entry = fragment.get(msgid)
        strings = entry.string if entry is not None else None
        if not strings or (isinstance(strings, tuple) and not all(strings)) or (entry and entry.fuzzy):
            missing.append((msgid, extracted[message]))
    assert missing == []


def test_english_keeps_the_placeholders_of_its_msgid() -> None:
    for entry in _fragment():
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for text in strings:
            used = set(PLACEHOLDER.findall(text))
            assert used <= wanted, entry.id
            # only the Spanish contraction "al plato" may be dropped by English (it says "into %(pot)s")
            assert wanted - used <= {"to_pot"}, entry.id


@pytest.fixture()
def english_app(tmp_path: pathlib.Path) -> Flask:
    """A bare app with the English catalog, compiled (the view-models speak it within ``speaking(PAGE_TONGUE)``)."""
    target = tmp_path / "en" / "LC_MESSAGES"
    target.mkdir(parents=True)
    buffer = io.BytesIO()
    write_mo(buffer, _fragment())
    (target / "messages.mo").write_bytes(buffer.getvalue())
    app = Flask("i18n_views_test")
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(tmp_path)
    Babel(app)
    return app


def english_tongue() -> Catalog:
    """English with the English catalog: the sheet takes its tongue as an argument, no app needed."""
    buffer = io.BytesIO()
    write_mo(buffer, _fragment())
    buffer.seek(0)
    return Catalog("en", GNUTranslations(buffer))


def _walkthrough() -> tuple[dict[str, Any], dict[str, Any]]:
    session: dict[str, Any] = load_json(EXAMPLES / "walkthrough.json")
    ledger: dict[str, Any] = load_json(EXAMPLES / "walkthrough.ledger.json")
    return session, ledger


def test_the_sheet_prints_in_english_with_game_words_in_spanish() -> None:
    session, ledger = _walkthrough()
    # linked CSS: the stylesheet's own PDF running header is not a template string
    spanish = render_html(session, ledger, css_href="sheet.css")
    english = render_html(session, ledger, tongue=english_tongue(), css_href="sheet.css")
    assert "hoja de la sesión" in spanish and "Mano a mano" in spanish
    assert '<html lang="es">' in spanish and '<html lang="en">' in english
    assert "session sheet" in english and "Hand by hand" in english and "Final accounts" in english
    assert "hoja de la sesión" not in english and "Cuentas finales" not in english
    # the game's words and the people stay as they are
    for word in ("Cartulina", "plato", "tantos"):
        assert word in english
    for name in session["players"]:
        assert name in english


def test_the_pdf_margins_follow_the_language() -> None:
    session, ledger = _walkthrough()
    english = PdfReader(io.BytesIO(render_pdf(session, ledger, tongue=english_tongue())))
    spanish = PdfReader(io.BytesIO(render_pdf(session, ledger)))
    first_en, first_es = english.pages[0].extract_text(), spanish.pages[0].extract_text()
    pages = len(english.pages)
    assert f"Page 1 of {pages}" in first_en and "Cartulina · session sheet" in first_en
    assert "Página" not in first_en
    assert f"Página 1 de {len(spanish.pages)}" in first_es and "Cartulina · hoja de la sesión" in first_es


def test_a_hand_summary_is_one_english_sentence(english_app: Flask) -> None:
    players = ["Ana", "Benito", "Carmen"]
    entry = {
        "result": "ganada",
        "transfers": [
            {"from": 2, "to": 1, "amount": 10, "concept": "juego"},
            {"from": 3, "to": 1, "amount": 10, "concept": "juego"},
            {"from": "plato", "to": 1, "amount": 35, "concept": "plato"},
        ],
    }
    spanish = tresillo_views.summary(entry, [], players)
    with english_app.test_request_context(), force_locale("en"), speaking(PAGE_TONGUE):
        english = tresillo_views.summary(entry, [], players)
    assert spanish == "Ana cobra 10 de cada uno y se lleva el plato: 35"
    assert english == "Ana collects 10 from each and takes the plato: 35"
