"""Fixtures shared by every test package."""

from __future__ import annotations

import json
import pathlib
import time
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "examples"


def example_sessions(ruleset: str | None = None) -> list[pathlib.Path]:
    """Session files of ../shared/examples (those of one rule set when named)."""
    paths = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".ledger.json"))
    if ruleset is None:
        return paths
    return [p for p in paths if ((json.loads(p.read_text()).get("rules") or {}).get("ruleset", "tresillo")) == ruleset]


def load_json(path: pathlib.Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def shared_dir() -> pathlib.Path:
    return SHARED


_STARTED = time.time()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Show the tap count of the browser journey (artifacts/taps.txt), with or without -s and -n."""
    taps = ROOT / "artifacts" / "taps.txt"
    if taps.exists() and taps.stat().st_mtime >= _STARTED:
        terminalreporter.write_sep("-", "browser journeys")
        terminalreporter.write_line(taps.read_text(encoding="utf-8").strip())
