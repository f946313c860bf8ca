"""Every Tresillo example of tests/data/examples reproduced, by the engine and by the oracle."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

from scorer.engine import settle
from tests.conftest import example_sessions, load_json
from tests.engine import oracle_tresillo

EXAMPLES = example_sessions("tresillo")
KEYS = ("dealer", "result", "balances", "plato", "cartulina")


def expected(path: pathlib.Path) -> Any:
    return load_json(path.with_name(path.stem + ".ledger.json"))


def compare(want: dict[str, Any], got: dict[str, Any]) -> None:
    assert len(got["hands"]) == len(want["hands"])
    for w, g in zip(want["hands"], got["hands"], strict=True):
        assert g["n"] == w["n"]
        for key in KEYS:
            if key == "dealer" and w["result"] == "cierre":
                continue
            assert g[key] == w[key], f"hand {w['n']}: {key}"
    for key in ("format", "players", "balances", "plato", "cartulina", "next_dealer"):
        assert got[key] == want[key], key


def test_there_are_tresillo_examples() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {"walkthrough", "defended", "three_players", "enchilada"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_engine_reproduces_example(path: pathlib.Path) -> None:
    compare(expected(path), settle(load_json(path)))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_oracle_reproduces_example(path: pathlib.Path) -> None:
    compare(expected(path), oracle_tresillo.settle(load_json(path)))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_transfers_add_up(path: pathlib.Path) -> None:
    got = settle(load_json(path))
    seats = list(got["players"])
    before = {s: 0 for s in seats} | {"plato": 0}
    for entry in got["hands"]:
        moved = dict.fromkeys(before, 0)
        for t in entry["transfers"]:
            assert t["amount"] > 0
            assert isinstance(t["detail"], str) and t["detail"]
            moved[str(t["from"])] -= t["amount"]
            moved[str(t["to"])] += t["amount"]
        after = {s: entry["balances"][s] for s in seats} | {"plato": entry["plato"]["amount"]}
        assert {k: after[k] - before[k] for k in after} == moved, f"hand {entry['n']}"
        before = after
