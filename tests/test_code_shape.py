"""The shape of the code a newcomer reads: no module too long, no function too knotted.

The complexity is radon's McCabe count, exactly as ``radon cc -a scorer`` prints it (the migrations
aside): every function, method and class is a block. The limits: a Python module of ``scorer/`` or a
script of ``static/`` at most 600 lines, no block above 25, and the average of all blocks at most
3.5. A function that grows past 25 is split by the cases it handles, not by cutting it in halves.
"""

from __future__ import annotations

import pathlib

import pytest

radon_complexity = pytest.importorskip("radon.complexity")

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorer"
MAX_LINES = 600
MAX_COMPLEXITY = 25
MAX_AVERAGE = 3.5


def python_modules() -> list[pathlib.Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.relative_to(PACKAGE).parts)


def scripts() -> list[pathlib.Path]:
    return sorted((ROOT / "static").rglob("*.js"))


def blocks() -> list[tuple[str, str, int]]:
    """(module, block name, complexity) of every function, method and class, as ``radon cc`` lists them."""
    found = []
    for path in python_modules():
        name = str(path.relative_to(ROOT))
        # cc_visit lists the functions, the classes and their methods (a class's complexity is its methods')
        found += [(name, block.fullname, block.complexity) for block in radon_complexity.cc_visit(path.read_text())]
    return found


def test_no_module_is_longer_than_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in [*python_modules(), *scripts()]
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"split these by what they do (at most {MAX_LINES} lines each): {long}"


def test_no_function_is_more_complex_than_25() -> None:
    knotted = sorted((c, f"{m}:{b}") for m, b, c in blocks() if c > MAX_COMPLEXITY)
    assert not knotted, f"split these by the cases they handle (at most {MAX_COMPLEXITY}): {knotted}"


def test_the_average_complexity_is_at_most_3_5() -> None:
    found = blocks()
    assert len(found) > 500  # the whole package was read
    average = sum(c for _, _, c in found) / len(found)
    assert average <= MAX_AVERAGE, f"average complexity {average:.2f} over {len(found)} blocks (at most {MAX_AVERAGE})"
