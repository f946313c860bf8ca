"""Exports: the session file (and its import back) and the CSV of the hand table."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask

from scorer import engine
from scorer.web import services
from scorer.web.exports import cell, escape_cell
from scorer.web.services import Invalid
from scorer.web.tables import services as table_services
from tests.conftest import example_sessions, load_json
from tests.web.conftest import sample_session


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def rows(text: str) -> list[list[str]]:
    """The hand table of a CSV export (the rules after its empty row left out: see test_rules_after_the_hands)."""
    every = list(csv.reader(io.StringIO(text)))
    return every[: every.index([])]


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-10", "'-10"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        (-35, "'-35"),
        (35, "35"),
        ("Ana", "Ana"),
        ("a=b", "a=b"),
        (None, ""),
    ],
)
def test_escape_cell(value: object, cell: str) -> None:
    assert escape_cell(value) == cell


@pytest.mark.usefixtures("ctx")
class TestSession:
    @pytest.mark.parametrize("path", example_sessions(), ids=lambda p: p.stem)
    def test_export_import_gives_the_same_ledger(self, path: Any) -> None:
        table = services.create_table(load_json(path))
        text = table_services.export_session(table)
        copy = table_services.import_session(text)
        assert copy.edit_token != table.edit_token
        assert services.session_of(copy) == json.loads(text)
        assert services.ledger_of(copy) == services.ledger_of(table) == engine.settle(json.loads(text))

    def test_export_keeps_app_keys_and_dealers(self) -> None:
        session = sample_session(notes="ñandú € — «comillas»")
        table = services.create_table(session)
        exported = json.loads(table_services.export_session(table))
        assert exported["notes"] == "ñandú € — «comillas»"
        assert exported["tanto_value"] == 5 and exported["place"] == "Casino de Oviedo"
        assert [h["dealer"] for h in exported["hands"]] == [1, 2, 3]
        assert "ñandú" in table_services.export_session(table)  # UTF-8, not \\u escapes

    def test_export_after_edits_imports_the_same(self) -> None:
        table = services.create_table(sample_session())
        services.delete_hand(table, 2)
        services.add_hand(table, {"pass": True})
        copy = table_services.import_session(table_services.export_session(table))
        assert services.ledger_of(copy) == services.ledger_of(table)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "session: not valid JSON: Expecting value: line 1 column 1 (char 0)"),
            ("{\"players\": [", "session: not valid JSON"),
            ("[]", "session: a session file must be a JSON object"),
            ('{"format": "tresillo-session/1", "players": ["A", "B", "C"], "rules": {"x": Infinity}}',
             "session: not valid JSON: Infinity is not a number JSON allows"),
            (json.dumps(sample_session(format="tresillo-session/9")), "session: unknown format"),
            (json.dumps(sample_session(hands=[{"pass": True}, {"jugador": 9}])), "hand 2: jugador 9 is not a seat"),
            ("[" * 100_000 + "]" * 100_000, "session: "),
        ],
    )  # fmt: skip
    def test_import_errors_are_clear_and_save_nothing(self, text: str, message: str) -> None:
        with pytest.raises(Invalid) as info:
            table_services.import_session(text)
        assert info.value.message.startswith(message)
        assert table_services.list_tables() == []


@pytest.mark.parametrize(("value", "text"), [(-35, "-35"), (0, "0"), (Decimal("-1.25"), "-1.25"), ("-10", "'-10")])
def test_numbers_stay_numbers(value: object, text: str) -> None:
    """Only text cells are guarded (issue 12 D6): a negative number is written as a number."""
    assert cell(value) == text


@pytest.mark.usefixtures("ctx")
class TestCsv:
    def test_hand_table(self) -> None:
        table = services.create_table(sample_session())
        services.add_hand(table, {"jugador": 1, "lance": "solo", "trump": "bastos", "tricks": {"1": 6, "2": 2, "3": 1}})
        data = rows(table_services.export_csv(table))
        assert data[0] == ["Nº", "Tipo", "Da", "Jugador", "Lance", "Triunfo", "Estuches", "Contraestuches",
                           "Primeras", "Bola", "Bazas", "Resultado", "Nota",
                           "Ana (tantos)", "Benito (tantos)", "Carmen (tantos)", "Diego (tantos)",
                           "Ana (dinero)", "Benito (dinero)", "Carmen (dinero)", "Diego (dinero)", "Plato"]  # fmt: skip
        assert len(data) == 6  # header, four entries, final balances
        ledger = services.ledger_of(table)
        previous, plato = [0, 0, 0, 0], 0
        for row, entry in zip(data[1:5], ledger["hands"], strict=True):
            assert row[0] == str(entry["n"])
            assert row[2] == ["Ana", "Benito", "Carmen", "Diego"][entry["dealer"] - 1]
            balances = [entry["balances"][str(s)] for s in range(1, 5)]
            changes = [int(c) for c in row[13:17]]  # numbers, not text
            assert changes == [b - p for b, p in zip(balances, previous, strict=True)]
            assert [Decimal(c) for c in row[17:21]] == [5 * c for c in changes]  # tanto value 5
            assert row[21] == str(entry["plato"]["amount"])
            assert sum(changes) == plato - entry["plato"]["amount"]  # what the seats lost, the plato gained
            previous, plato = balances, entry["plato"]["amount"]
        assert data[1][3:6] == ["Benito", "entrada", "oros"]
        assert data[1][10:12] == ["Benito 5, Carmen 3, Diego 1", "ganada"]
        assert data[2][1] == "pasan" and data[2][11] == "todos pasan"
        assert data[3][11] == "puesta"
        assert data[4][3:6] == ["Ana", "solo", "bastos"]
        assert data[5][1] == "saldo final" and [int(c) for c in data[5][13:17]] == previous

    def test_every_text_cell_is_escaped(self) -> None:
        evil = ["=cmd|' /C calc'!A0", "+Benito", "-Carmen", "@Diego"]
        table = services.create_table(sample_session(players=evil))
        data = rows(table_services.export_csv(table))
        assert data[0][13:17] == ["'" + name + " (tantos)" for name in evil]
        for row in data:
            for text in row:
                if text.lstrip("-").replace(".", "", 1).isdigit():
                    continue  # a number
                assert not text.startswith(("=", "+", "-", "@", "\t", "\r")), text
        assert data[1][3] == "'+Benito"
        assert any(c.startswith("-") and c[1:].isdigit() for c in data[1][13:17])  # a negative change, as a number
