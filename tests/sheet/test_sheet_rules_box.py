"""The sheet's rules box and its favour lines in the language it prints in, without the web app.

The box says every option of the table (defaults included) and, when the table changed it, the favour
suit of each stretch of the evening (R34); the change's own line in the hand table too. The words of
the evening (scorer/evening.py) follow the sheet's tongue, so an English sheet has no Spanish favour
line, whatever language is being spoken around it.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorer.catalogs import catalog
from scorer.engine import settle
from scorer.sheet.context import sheet_context
from tests.conftest import EXAMPLES, load_json

SPANISH_FAVOUR = ("Cambios de palo de favor", "Al empezar", "Desde la mano", "desde la mano siguiente")
FAVOUR = {
    "es": "Cambios de palo de favor: Al empezar: bastos ♣. Desde la mano 4: oros ♦. Desde la mano 8: espadas ♠.",
    "en": "Changes of favour suit: At the start: bastos ♣. From hand 4: oros ♦. From hand 8: espadas ♠.",
}
CHANGE = {
    "es": ["Cambio de palo de favor: desde la mano siguiente, oros ♦",
           "Cambio de palo de favor: desde la mano siguiente, espadas ♠"],
    "en": ["Change of favour suit: from the next hand, oros ♦", "Change of favour suit: from the next hand, espadas ♠"],
}  # fmt: skip
# One line per option of each rule set's sheet, English, for the examples' options (defaults included).
ENGLISH_RULES = {
    "favor_change": ["The dealer puts 5 into the plato every hand.", "No enchilada.", "Rounded up to multiples of 5.",
                     "A favor, the already rounded payment is doubled.", "A vuelta to the palo de favor is a favor.",
                     "The vuelta solera is admitted.", "Cut bola: the jugador pays the bola."],
    "pozo_viuda_seed": ["The contrabola is not admitted.", "Each player puts 5 into the pozo and 25 into the viuda."],
    "ombre_codille": ["Codille: two sacadas from each (4 × the stake)."],
    "bandos_first_three_tricks": ["Played to 3 tantos."],
}  # fmt: skip


def context(name: str, language: str) -> dict[str, Any]:
    session: dict[str, Any] = load_json(EXAMPLES / f"{name}.json")
    return sheet_context(session, settle(session), tongue=catalog(language))


def event_texts(sheet: dict[str, Any]) -> list[str]:
    return [row["text"] for row in sheet["hands"] if row.get("kind") == "event"]


@pytest.mark.parametrize("language", ["es", "en"])
def test_the_favour_changes_are_said_in_the_sheets_language(language: str) -> None:
    sheet = context("favor_change", language)
    assert sheet["house_rules"][-1] == FAVOUR[language]
    assert event_texts(sheet) == CHANGE[language]
    if language == "en":
        said = " ".join([*sheet["house_rules"], *event_texts(sheet)])
        assert not [words for words in SPANISH_FAVOUR if words in said], said


def test_the_english_favour_lines_do_not_depend_on_the_language_spoken_around() -> None:
    from scorer.words import speaking

    with speaking(catalog("es")):
        sheet = context("favor_change", "en")
    assert sheet["house_rules"][-1] == FAVOUR["en"]


@pytest.mark.parametrize("name", list(ENGLISH_RULES))
def test_the_english_rules_box_says_every_option(name: str) -> None:
    english, spanish = context(name, "en")["house_rules"], context(name, "es")["house_rules"]
    assert len(english) == len(spanish)
    for line in ENGLISH_RULES[name]:
        assert line in english, english
    assert not [line for line in english if line in spanish and not line.startswith("Palo de favor")], english


def test_a_tresillo_box_says_the_favour_options_without_a_favour_suit_too() -> None:
    # the table may name one during the evening (R34): how a favor is paid is part of its rules
    session: dict[str, Any] = {**load_json(EXAMPLES / "walkthrough.json"), "rules": {"favor_doubling": "round_doubled"}}
    rules = sheet_context(session, settle(session), tongue=catalog("es"))["house_rules"]
    assert rules[0] == "Sin palo de favor."
    assert "A favor se redondea el doble." in rules and "Una vuelta al palo de favor es a favor." in rules


def test_a_seat_number_stays_with_its_name() -> None:
    """In the sheet's list of players "Ana" was broken from her "1"; a no-break space
    holds them together, while a long name still wraps at its own spaces."""
    from scorer.sheet.build import render_html

    session = load_json(EXAMPLES / "real_evening.json")
    page = render_html(session, settle(session))
    for seat, name in enumerate(session["players"], 1):
        assert f'<span class="seat">{seat}</span>&nbsp;<bdi class="name">{name}</bdi>' in page
    assert '<span class="seat">4</span>&nbsp;<bdi class="name">Elena</bdi>' in page  # who sat down later (R33)
