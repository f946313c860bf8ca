"""Every game's payment explanations are data, said through the catalogs.

The engine writes each transfer's Spanish text (``detail``, what the command line prints) and the
same as data (``why``); the pages say ``why`` in the reader's language (``scorer.games.explain``).
Said in Spanish, the data must give back the engine's very text.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask_babel import force_locale

from scorer.engine import settle
from scorer.engine.details import TEMPLATES
from scorer.games.explain import SAY, explain
from tests.conftest import EXAMPLES, load_json

MONEY_EXAMPLES = sorted(p.name for p in EXAMPLES.glob("*.json") if not p.name.endswith(".ledger.json"))


def transfers(name: str) -> list[dict[str, Any]]:
    session = load_json(EXAMPLES / name)
    return [t for entry in settle(session)["hands"] for t in entry.get("transfers", ())]


def test_every_code_is_said_through_the_catalogs() -> None:
    assert set(TEMPLATES) == set(SAY)


@pytest.mark.parametrize("name", MONEY_EXAMPLES)
def test_every_transfer_is_data_said_back_as_the_engine_wrote_it(app: Flask, name: str) -> None:
    moved = transfers(name)
    ruleset = (load_json(EXAMPLES / name).get("rules") or {}).get("ruleset", "tresillo")
    if ruleset == "bandos":  # B2–B3: tantos per player, nothing moves between people
        assert moved == []
        return
    assert moved
    with app.test_request_context():
        for transfer in moved:
            assert transfer.get("why"), transfer  # every explanation is data, in every game with money
            with force_locale("es"):
                assert explain(transfer) == transfer["detail"]
            with force_locale("en"):
                assert explain(transfer), transfer  # said (arithmetic alone reads the same in both)


@pytest.mark.parametrize(
    ("name", "spanish", "english"),
    [
        (
            "pozo_viuda_table.json",
            "todos pasan: cada jugador pone 5 al pozo",
            "all pass: each player puts 5 into the pozo",
        ),
        ("pozo_viuda_table.json", "reparto: 200 entre 4 = 50", "shared out: 200 among 4 = 50"),
        ("ombre_codille.json", "se lleva el bote: 20", "takes the bote: 20"),
    ],
)
def test_an_explanation_in_each_language(app: Flask, name: str, spanish: str, english: str) -> None:
    [transfer] = [t for t in transfers(name) if t["detail"] == spanish][:1]
    with app.test_request_context(), force_locale("en"):
        assert explain(transfer) == english
