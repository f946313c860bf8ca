"""Fixtures shared by every test package."""

from __future__ import annotations

import json
import pathlib
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
EXAMPLES = DATA / "examples"  # example sessions NAME.json with their expected ledgers NAME.ledger.json


def example_sessions(ruleset: str | None = None) -> list[pathlib.Path]:
    """Session files of tests/data/examples (those of one rule set when named).

    Never empty: a test parametrized over no example would pass without testing anything, so
    missing data stops the run with an error that names the folder.
    """
    paths = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".ledger.json"))
    if ruleset is not None:
        paths = [p for p in paths if (load_json(p).get("rules") or {}).get("ruleset", "tresillo") == ruleset]
    assert paths, f"no example session{' of ' + ruleset if ruleset else ''} in {EXAMPLES}"
    return paths


def load_json(path: pathlib.Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


_STARTED = time.time()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Show the tap count of the browser journey (artifacts/taps.txt), with or without -s and -n."""
    taps = ROOT / "artifacts" / "taps.txt"
    if taps.exists() and taps.stat().st_mtime >= _STARTED:
        terminalreporter.write_sep("-", "browser journeys")
        terminalreporter.write_line(taps.read_text(encoding="utf-8").strip())
