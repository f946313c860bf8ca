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

from scorer import engine, store
from scorer.engine import bandos, ombre, pozo_viuda, tresillo
from scorer.games.exports import cell, escape_cell
from scorer.store import Invalid
from scorer.web.tables import exports
from tests.conftest import EXAMPLES, example_sessions, load_json
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
        table = store.create_table(load_json(path))
        text = store.export_session(table)
        copy = store.import_session(text)
        assert copy.edit_token != table.edit_token
        assert store.read(copy).session_copy() == json.loads(text)
        assert store.read(copy).ledger_copy() == store.read(table).ledger_copy() == engine.settle(json.loads(text))

    def test_export_keeps_app_keys_and_dealers(self) -> None:
        session = sample_session(notes="ñandú € — «comillas»")
        table = store.create_table(session)
        exported = json.loads(store.export_session(table))
        assert exported["notes"] == "ñandú € — «comillas»"
        assert exported["tanto_value"] == 5 and exported["place"] == "Casino de Oviedo"
        assert [h["dealer"] for h in exported["hands"]] == [1, 2, 3]
        assert "ñandú" in store.export_session(table)  # UTF-8, not \\u escapes

    def test_export_after_edits_imports_the_same(self) -> None:
        table = store.create_table(sample_session())
        store.delete_hand(table, 2)
        store.add_hand(table, {"pass": True})
        copy = store.import_session(store.export_session(table))
        assert store.read(copy).ledger_copy() == store.read(table).ledger_copy()

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
            store.import_session(text)
        assert info.value.message.startswith(message)
        assert store.list_tables() == []


@pytest.mark.parametrize(("value", "text"), [(-35, "-35"), (0, "0"), (Decimal("-1.25"), "-1.25"), ("-10", "'-10")])
def test_numbers_stay_numbers(value: object, text: str) -> None:
    """Only text cells are guarded (D6): a negative number is written as a number."""
    assert cell(value) == text


@pytest.mark.usefixtures("ctx")
class TestCsv:
    def test_hand_table(self) -> None:
        table = store.create_table(sample_session())
        store.add_hand(table, {"jugador": 1, "lance": "solo", "trump": "bastos", "tricks": {"1": 6, "2": 2, "3": 1}})
        data = rows(exports.export_csv(table))
        assert data[0] == ["Nº", "Tipo", "Da", "Jugador", "Lance", "Triunfo", "Estuches", "Contraestuches",
                           "Primeras", "Bola", "Bazas", "Resultado", "Nota",
                           "Ana (tantos)", "Benito (tantos)", "Carmen (tantos)", "Diego (tantos)",
                           "Ana (dinero)", "Benito (dinero)", "Carmen (dinero)", "Diego (dinero)", "Plato"]  # fmt: skip
        assert len(data) == 6  # header, four entries, final balances
        ledger = store.read(table).ledger_copy()
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
        table = store.create_table(sample_session(players=evil))
        data = rows(exports.export_csv(table))
        assert data[0][13:17] == ["'" + name + " (tantos)" for name in evil]
        for row in data:
            for text in row:
                if text.lstrip("-").replace(".", "", 1).isdigit():
                    continue  # a number
                assert not text.startswith(("=", "+", "-", "@", "\t", "\r")), text
        assert data[1][3] == "'+Benito"
        assert any(c.startswith("-") and c[1:].isdigit() for c in data[1][13:17])  # a negative change, as a number


# ------------------------------------------- the table's rules after the hands

RULES_HEADING = {"es": "Reglas de la mesa", "en": "House rules"}
FAVOR_HEADING = {"es": "Cambios de palo de favor", "en": "Changes of favour suit"}
YES = {"es": "sí", "en": "yes"}
OPTION_DEFAULTS = {
    "tresillo": tresillo.OPTION_DEFAULTS,
    "pozo_viuda": pozo_viuda.OPTION_DEFAULTS,
    "ombre": ombre.OPTION_DEFAULTS,
    "bandos": bandos.OPTION_DEFAULTS,
}


def rules_part(text: str) -> list[list[str]]:
    every = list(csv.reader(io.StringIO(text)))
    return every[every.index([]) + 1 :]


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("name", ["favor_change", "pozo_viuda_seed", "ombre_codille", "bandos_first_three_tricks"])
def test_rules_after_the_hands(client: Any, name: str, language: str) -> None:
    """Every option of the rule set with its value (the engine's defaults where the table set none), in the
    table's language whatever the page's; the favour suit of each stretch of the evening (R34)."""
    session: dict[str, Any] = load_json(EXAMPLES / f"{name}.json")
    ruleset = session["rules"].get("ruleset", "tresillo")
    created = client.post("/api/tables", json={**session, "language": language})
    token = created.get_json()["view_token"]
    other = "en" if language == "es" else "es"
    text = client.get(f"/t/{token}/exportar.csv", headers={"Accept-Language": other}).get_data(as_text=True)
    table, rules = rows(text), rules_part(text)
    assert all(len(row) == len(table[0]) for row in rules)  # as wide as the header: a spreadsheet's table
    assert rules[0][:5] == [RULES_HEADING[language], {"es": "Juego", "en": "Game"}[language], rules[0][2],
                            "ruleset", ruleset]  # fmt: skip
    options = OPTION_DEFAULTS[ruleset]  # the engine's, not the pages' list
    listed = {row[3]: row[4] for row in rules[1:] if row[3]}
    assert set(listed) == set(options)  # every option, no other
    for key, default in options.items():
        value = session["rules"].get(key, default)
        assert listed[key] == (json.dumps(value) if value is None or isinstance(value, bool) else str(value)), key
    words = {row[3]: row[2] for row in rules[1:] if row[3]}
    for key, value in options.items():
        if isinstance(value, bool):
            assert words[key] in (YES[language], "no"), key
    favour = [row[1] for row in rules if row[0] == FAVOR_HEADING[language]]
    if name == "favor_change":  # the changes are rows of the hand table too
        assert [r[1] for r in table[1:]].count("cambio de palo de favor") == 2
        start = next(i for i, row in enumerate(rules) if row[0] == FAVOR_HEADING[language])
        stretches = [row[1] for row in rules[start:]]
        assert (
            stretches
            == {
                "es": ["Al empezar: bastos ♣.", "Desde la mano 4: oros ♦.", "Desde la mano 8: espadas ♠."],
                "en": ["At the start: bastos ♣.", "From hand 4: oros ♦.", "From hand 8: espadas ♠."],
            }[language]
        )
        assert table[0][0] == {"es": "Nº", "en": "No."}[language]  # the whole file in the table's language
    else:
        assert favour == []


def test_the_rules_say_what_the_table_set(client: Any) -> None:
    session: dict[str, Any] = load_json(EXAMPLES / "ombre_codille.json")
    session["rules"] = {"ruleset": "ombre", "codille": "double_stake", "deals": 12, "stake": None}
    token = client.post("/api/tables", json=session).get_json()["view_token"]
    rules = rules_part(client.get(f"/t/{token}/exportar.csv").get_data(as_text=True))
    by_key = {row[3]: row[1:5] for row in rules[1:]}
    assert by_key["codille"] == ["Pago del codillo", "el doble del pago (2 × pago)", "codille", "double_stake"]
    assert by_key["deals"] == ["Manos de la partida", "12", "deals", "12"]
    assert by_key["stake"] == ["Pago de entrada y vuelta", "10", "stake", "10"]  # null is the default
    assert by_key["target"] == ["Meta (saldo que acaba la partida)", "sin meta", "target", "null"]
