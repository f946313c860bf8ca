"""scripts/check-examples: the command line against tests/data/examples, as `make check-examples` runs it."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import pathlib
import shutil
import subprocess
import sys
from typing import Any

from tests.conftest import EXAMPLES, ROOT

TOOL = ROOT / "scripts" / "check-examples"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args, sys.executable], capture_output=True, text=True)


def _copy(name: str, folder: pathlib.Path) -> pathlib.Path:
    for suffix in (".json", ".ledger.json"):
        shutil.copy(EXAMPLES / f"{name}{suffix}", folder / f"{name}{suffix}")
    return folder / f"{name}.ledger.json"


def test_an_example_the_engine_reproduces_passes(tmp_path: pathlib.Path) -> None:
    _copy("pozo_viuda_seed", tmp_path)
    done = _run("--examples", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_a_wrong_balance_is_named_with_its_hand(tmp_path: pathlib.Path) -> None:
    ledger_path = _copy("pozo_viuda_seed", tmp_path)
    ledger = json.loads(ledger_path.read_text(encoding="utf-8"))
    seat = next(iter(ledger["hands"][1]["balances"]))
    ledger["hands"][1]["balances"][seat] += 5
    ledger_path.write_text(json.dumps(ledger), encoding="utf-8")
    done = _run("--examples", str(tmp_path))
    assert done.returncode == 1
    assert done.stdout.startswith(f"pozo_viuda_seed.json: hand {ledger['hands'][1]['n']}: balances expected")
    assert done.stdout.strip().endswith("0 passed, 1 failed")


def _tool() -> Any:
    loader = importlib.machinery.SourceFileLoader("check_examples", str(TOOL))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def test_the_comparison_keys() -> None:
    """As the tool of the rules' authors: cartulina in any order, extra keys ignored, no dealer on the closing."""
    first_difference = _tool().first_difference
    a = {"id": 1, "owner": 2, "amount": 30, "hand": 3, "state": "pendiente"}
    b = {"id": 2, "owner": 4, "amount": 15, "hand": 5, "state": "en_plato"}
    want = {"hands": [{"n": 1, "dealer": 1, "result": "puesta", "plato": {"amount": 45}, "cartulina": [a, b]},
                      {"n": 2, "dealer": 2, "result": "cierre", "balances": {"1": 0}}],
            "people": {"Ana": 0}}  # fmt: skip
    got = {"hands": [{"n": 1, "dealer": 1, "result": "puesta", "plato": {"amount": 45, "kind": "reservada"},
                      "cartulina": [{**b, "detail": "x"}, a], "transfers": [{"from": 1}]},
                     {"n": 2, "dealer": None, "result": "cierre", "balances": {"1": 0}}],
           "people": {"Ana": 0}}  # fmt: skip
    assert first_difference(want, got) is None
    got["hands"][0]["cartulina"] = [a]
    assert first_difference(want, got) == f"hand 1: cartulina expected {[a, b]} got {[a]}"
    got["hands"][0]["cartulina"] = [a, b]
    got["people"] = {"Ana": 5}
    assert first_difference(want, got) == "people expected {'Ana': 0} got {'Ana': 5}"
    assert first_difference(want, {"hands": []}) == "0 hands, expected 2"


def test_no_examples_is_a_failure(tmp_path: pathlib.Path) -> None:
    done = _run("--examples", str(tmp_path))
    assert done.returncode == 1
    assert "no example session" in done.stderr
