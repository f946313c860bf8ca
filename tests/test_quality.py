"""The code's own standards: the engine is pure and typed, and the tree passes ruff."""

from __future__ import annotations

import ast
import pathlib
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT

ENGINE = ROOT / "scorer" / "engine"
BIN = pathlib.Path(sys.executable).parent


def test_engine_imports_only_the_standard_library() -> None:
    """style.md: scorer/engine imports nothing but the standard library and itself."""
    allowed = set(sys.stdlib_module_names)
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside the engine
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"


@pytest.mark.skipif(not (BIN / "mypy").exists(), reason="mypy is not installed (pip install -e '.[dev]')")
def test_engine_is_mypy_strict_clean() -> None:
    result = subprocess.run([str(BIN / "mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(not (BIN / "ruff").exists() and not shutil.which("ruff"), reason="ruff is not installed")
def test_ruff_is_clean() -> None:
    ruff = str(BIN / "ruff") if (BIN / "ruff").exists() else "ruff"
    check = subprocess.run([ruff, "check", "scorer", "tests", "bench"], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
