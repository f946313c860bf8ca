"""The shared Spanish vocabulary (scorer.words): numbers, money, dates, suits and result words."""

from __future__ import annotations

import ast
import datetime as dt
import pathlib
from decimal import Decimal

import pytest

from scorer import words

NBSP = "\u00a0"


def test_words_is_standard_library_and_babel() -> None:
    tree = ast.parse(pathlib.Path(words.__file__).read_text(encoding="utf-8"))
    imported = {
        (node.module or "") if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    # Babel's locale data writes numbers, money and dates; no Flask here
    allowed = {"__future__", "datetime", "zoneinfo", "decimal", "functools", "re", "collections.abc", "typing"}
    allowed |= {"contextlib", "contextvars", "dataclasses", "gettext"}  # the language spoken (words.speaking)
    assert imported <= allowed | {"babel", "babel.dates", "babel.numbers"}, imported


@pytest.mark.parametrize(
    ("tantos", "plain", "signed"),
    [(0, "0", "0"), (215, "215", "+215"), (-65, "−65", "−65"), (1215, "1.215", "+1.215"),
     (-1234567, "−1.234.567", "−1.234.567")],
)  # fmt: skip
def test_tantos_with_dot_thousands_and_a_real_minus(tantos: int, plain: str, signed: str) -> None:
    assert words.plain(tantos) == plain
    assert words.signed(tantos) == signed
    assert "-" not in words.signed(tantos)  # U+2212, never a hyphen


@pytest.mark.parametrize(
    ("text", "value"),
    [("0,05", Decimal("0.05")), ("0.05", Decimal("0.05")), (" 1,5 ", Decimal("1.5")), ("1.234,50", Decimal("1234.50")),
     (5, Decimal("5")), (Decimal("0.10"), Decimal("0.10"))],
)  # fmt: skip
def test_parse_decimal_accepts_the_decimal_comma(text: object, value: Decimal) -> None:
    assert words.parse_decimal(text) == value


@pytest.mark.parametrize("text", ["", "abc", "1,2,3", "NaN", "inf", None, True, Decimal("NaN")])
def test_parse_decimal_refuses_what_is_not_a_number(text: object) -> None:
    assert words.parse_decimal(text) is None


@pytest.mark.parametrize(("text", "value"), [("0,05", Decimal("0.05")), ("0", None), ("-1", None), ("x", None)])
def test_a_tanto_value_is_a_positive_amount(text: str, value: Decimal | None) -> None:
    assert words.tanto_value(text) == value


@pytest.mark.parametrize(
    ("tantos", "value", "currency", "sign", "text"),
    [
        (3, "0.1", "€", False, f"0,30{NBSP}€"),  # exact: a float would say 0.30000000000000004
        (-65, "0.05", "EUR", False, f"−3,25{NBSP}€"),  # a currency code is shown as its sign
        (24690, "0.05", "€", False, f"1.234,50{NBSP}€"),
        (150, "0.05", "€", True, f"+7,50{NBSP}€"),
        (0, "0.05", "€", True, f"0,00{NBSP}€"),  # no sign for nothing
        (7, "0.001", "", False, "0,007"),  # as many decimals as the tanto value needs, no currency
        (-1, "0.125", "USD", True, f"−0,125{NBSP}$"),
    ],
)
def test_money_with_the_decimal_comma(tantos: int, value: str, currency: str, sign: bool, text: str) -> None:
    assert words.money_text(tantos, Decimal(value), currency, sign=sign) == text


def test_currency_signs() -> None:
    assert [words.currency_sign(c) for c in ("EUR", "eur", "€", "CHF", None, " $ ")] == ["€", "€", "€", "CHF", "", "$"]


def test_decimal_text() -> None:
    assert [words.decimal_text(Decimal(v)) for v in ("0.050", "5", "1.50")] == ["0,05", "5", "1,5"]


@pytest.mark.parametrize(
    ("value", "text"),
    [("2025-03-14", "14/03/2025"), ("2025-03-14T22:10:00Z", "14/03/2025"), (dt.date(2024, 1, 2), "02/01/2024"),
     (dt.datetime(2024, 12, 31, 23, 59), "31/12/2024"), ("el jueves", "el jueves"), ("", ""), (None, "")],
)  # fmt: skip
def test_dates_as_dd_mm_aaaa(value: object, text: str) -> None:
    assert words.date_text(value) == text


def test_times_in_the_tables_zone_or_labelled_utc() -> None:
    at = dt.datetime(2025, 1, 15, 22, 30)  # stored naive, in UTC
    assert words.time_text(at) == "15/01/2025 22:30 UTC"
    assert words.time_text(at, "Europe/Madrid") == "15/01/2025 23:30"  # CET, UTC+1 in winter
    assert words.time_text(dt.datetime(2025, 7, 15, 22, 30), "Europe/Madrid") == "16/07/2025 00:30"  # CEST
    assert words.time_text(at, "America/Bogota") == "15/01/2025 17:30"
    assert words.time_text(at, "Mars/Olympus") == "15/01/2025 22:30 UTC"


@pytest.mark.parametrize("name", ["Europe/Madrid", "UTC", "America/Argentina/Buenos_Aires"])
def test_known_time_zones(name: str) -> None:
    assert words.known_timezone(name)


@pytest.mark.parametrize("name", ["", "Mars/Olympus", "../etc/passwd", "/etc/localtime", "x" * 65, None, 3])
def test_unknown_time_zones(name: object) -> None:
    assert not words.known_timezone(name)


def test_suits_and_lances() -> None:
    assert [words.suit_text(s) for s in words.SUITS] == ["oros ♦", "copas ♥", "espadas ♠", "bastos ♣"]
    assert words.suit_text(None) == "" and words.suit_text("triunfo") == "triunfo"
    assert set(words.RED_SUITS) == {"oros", "copas"}
    assert words.lance_word("vuelta_solera") == "vuelta solera"
    assert words.lance_word("roben") == "roben"
    assert words.lance_word("algo_nuevo") == "algo nuevo"


def test_result_words() -> None:
    assert words.result_word("ganada") == "ganada"
    assert words.result_word("ganada", "ombre") == "sacada"  # Ombre: a won hand is a sacada
    assert words.result_word("paso") == "todos pasan"
    assert words.result_word("defendida_codillo_pobre") == "defendida, gana la mano pobre"
    assert words.result_word("algo_nuevo") == "algo nuevo"
    # every result of format.md has a word
    for result in (
        "paso",
        "ganada",
        "bola",
        "puesta",
        "codillo",
        "rendida",
        "defendida_ganada",
        "defendida_puesta",
        "defendida_codillo",
        "defendida_codillo_pobre",
        "cierre",
        "contrabola",
        "perdida",
        "mano",
        "fin",
    ):
        assert "_" not in words.result_word(result), result


def test_plato_and_cartulina_words() -> None:
    assert words.PLATO_WORDS["reservada"] == "con puesta reservada"
    assert set(words.PLATO_WORDS) == set(words.PLATO_MARKS) == {"sin_puesta", "primera", "reservada"}
    assert set(words.CARTULINA_WORDS) == {
        "pendiente",
        "en_plato",
        "cobrada",
        "anulada",
        "devuelta",
        "repartida",  # R30 repartir
    }
    assert set(words.GAME_NAMES) == set(words.GAME_SHORT_NAMES) == {"tresillo", "pozo_viuda", "ombre", "bandos"}


def test_speaking_says_the_words_in_a_tongue_for_a_block_only() -> None:
    class Quoting:
        language = "en"

        def gettext(self, message: str) -> str:
            return f"«{message}»"

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return f"«{singular if n == 1 else plural}»"

    assert words.tongue() is words.SPANISH and words.language() == "es"
    with words.speaking(Quoting()):
        assert words.language() == "en" and words.signed(1215) == "+1,215"
        assert words.RESULT_WORDS["cierre"] == "«cierre»" and words.translate("mano %(n)s", n=3) == "«mano 3»"
        assert words.translate_plural("%(num)d mano", "%(num)d manos", 2) == "«2 manos»"
    assert words.tongue() is words.SPANISH and words.RESULT_WORDS["cierre"] == "cierre"
    assert words.signed(1215) == "+1.215"
