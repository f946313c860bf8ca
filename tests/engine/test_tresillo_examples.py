"""Every Tresillo example (``tests.conftest.example_sessions``) reproduced, by the engine and by the oracle."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from scorer.engine import settle
from tests.conftest import example_sessions, load_json
from tests.engine import oracle_tresillo

EXAMPLES = example_sessions("tresillo")


def expected(path: pathlib.Path) -> Any:
    return load_json(path.with_name(path.stem + ".ledger.json"))


def _cartulina(value: Any) -> Any:
    """A cartulina compared as in scripts/check-examples: its entries' five keys, in any order."""
    if not isinstance(value, list):
        return value
    keys = ("id", "owner", "amount", "hand", "state")
    return sorted(json.dumps({k: e.get(k) for k in keys}, sort_keys=True) for e in value)


def compare(want: dict[str, Any], got: dict[str, Any]) -> None:
    """The comparison of scripts/check-examples, and the top level besides.

    Every key of each expected entry except ``n`` and ``transfers`` (``seating`` of a change of
    player included), ``dealer`` not on the closing, an expected object compared on its own keys.
    """
    assert len(got["hands"]) == len(want["hands"])
    for w, g in zip(want["hands"], got["hands"], strict=True):
        assert g["n"] == w["n"]
        for key, value in w.items():
            if key in ("n", "transfers") or (key == "dealer" and w["result"] == "cierre"):
                continue
            actual = g.get(key)
            if key == "cartulina":
                value, actual = _cartulina(value), _cartulina(actual)
            elif isinstance(value, dict) and isinstance(actual, dict):
                actual = {k: actual.get(k) for k in value}
            assert actual == value, f"hand {w['n']}: {key}"
    for key in ("format", "players", "balances", "plato", "cartulina", "next_dealer"):
        assert got[key] == want[key], key
    if "people" in want:  # R33: each person's balance, in the order they first sat
        assert list(got["people"].items()) == list(want["people"].items())


def test_there_are_tresillo_examples() -> None:
    names = {p.stem for p in EXAMPLES}
    assert {"walkthrough", "defended", "three_players", "enchilada", "tricks_imply", "real_evening"} <= names


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
