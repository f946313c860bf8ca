"""constraints.txt, the pinned versions: made by scripts/lock from pyproject.toml, and current."""

from __future__ import annotations

import copy
import importlib.machinery
import importlib.util
import subprocess
import sys
import tomllib
from typing import Any

from tests.conftest import ROOT

TOOL = ROOT / "scripts" / "lock"
LOCK = ROOT / "constraints.txt"


def _tool() -> Any:
    loader = importlib.machinery.SourceFileLoader("lock_tool", str(TOOL))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_lock_is_up_to_date_with_pyproject() -> None:
    """As CI runs it: `scripts/lock --check` (pyproject.toml changed: `make lock`, then the suite)."""
    done = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_line_of_the_lock_is_an_exact_pin() -> None:
    lines = [line for line in LOCK.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    assert len(lines) > 20
    for line in lines:
        name, _, version = line.partition("==")
        assert name and version and version[0].isdigit() and " " not in line, line
    pinned = {line.partition("==")[0].lower().replace("_", "-") for line in lines}
    assert {"flask", "pytest", "playwright", "mypy", "ruff", "weasyprint", "gunicorn", "pip", "setuptools"} <= pinned


def test_the_check_sees_a_changed_or_unpinned_dependency() -> None:
    tool = _tool()
    text = LOCK.read_text(encoding="utf-8")
    assert tool.problems(text, _pyproject()) == []

    changed = copy.deepcopy(_pyproject())
    changed["project"]["optional-dependencies"]["dev"].append("pytest-cov>=5")
    found = tool.problems(text, changed)
    assert found == [
        "pyproject.toml's dependencies changed since constraints.txt was made",
        "not pinned in constraints.txt: pytest-cov",
    ]

    bumped = copy.deepcopy(_pyproject())
    bumped["project"]["dependencies"] = [
        d.replace("flask>=3.0", "flask>=3.1") for d in bumped["project"]["dependencies"]
    ]
    assert tool.problems(text, bumped) == ["pyproject.toml's dependencies changed since constraints.txt was made"]

    headless = "\n".join(line for line in text.splitlines() if not line.startswith(tool.DIGEST))
    assert tool.problems(headless, _pyproject())[0].startswith("constraints.txt has no line")


def test_the_bootstrap_installs_with_the_lock() -> None:
    script = (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")
    assert "pinned=(-c constraints.txt)" in script
    assert script.count('pip install -q "${pinned[@]}"') == 2  # pip itself, then the project and its tools
