"""The import layers of ``scorer/``, read from the code with ast.

engine ← evening, pena, words, sheet, games ← store ← web.common ← the blueprints (tables, evening,
answers, pena, api, each a package that imports no other) ← the app factory; the CLI beside the web.
No module imports another one that (directly or round a longer circle) imports it back, the layers
under the web app import nothing from ``scorer.web``, and the engine imports only the standard library
and itself. Imports inside functions count: they hide a circle, they do not remove it.
"""

from __future__ import annotations

import ast
import pathlib
import sys
from collections.abc import Iterator

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorer"
# scorer.<these> never import scorer.web: every module and package of scorer/ but the web app and its migrations
LOWER = (
    "engine",
    "sheet",
    "pena",
    "evening",
    "people",
    "words",
    "games",
    "limits",
    "catalogs",
    "hand_fields",
    "tricks",
    "cli",
    "store",
)
# the store keeps the tables with Flask-SQLAlchemy (and takes its write lock in the app's instance folder)
STORE_READS = {"flask", "flask_sqlalchemy"}

# Once the sheet read the limits and the games registry of the web app; they are below it now
# (scorer/limits.py, scorer/games.py). Nothing may be added to this list.
KNOWN_SHEET_TO_WEB: set[tuple[str, str]] = set()


def modules() -> dict[str, pathlib.Path]:
    """Every module of the package by its dotted name (a package by its ``__init__``), migrations aside."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if "migrations" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported_names(name: str, path: pathlib.Path) -> Iterator[str]:
    """Every dotted name the module imports, anywhere in it (functions too), relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Module → the modules of scorer it imports, and module → the top-level outside packages it imports.

    A package's ``__init__`` importing its own parts, and a part importing its package, are how a
    package is put together: no edge."""
    mods = modules()
    edges: dict[str, set[str]] = {m: set() for m in mods}
    outside: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        for target in imported_names(name, path):
            if target.split(".")[0] != "scorer":
                outside[name].add(target.split(".")[0])
                continue
            while target and target not in mods:
                target = target.rpartition(".")[0]
            if not target or target == name:
                continue
            if target.startswith(name + ".") and mods[name].name == "__init__.py":
                continue
            if name.startswith(target + ".") and mods[target].name == "__init__.py":
                continue
            edges[name].add(target)
    return edges, outside


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_import_circle_in_scorer() -> None:
    edges, _outside = graph()
    assert circles(edges) == []


def test_the_layers_under_the_web_app_never_import_it() -> None:
    edges, _outside = graph()
    wrong = {
        (name, target)
        for name, targets in edges.items()
        for target in targets
        if name.split(".")[1:2] and name.split(".")[1] in LOWER and target.split(".")[:2] == ["scorer", "web"]
    }
    assert wrong - KNOWN_SHEET_TO_WEB == set()
    assert KNOWN_SHEET_TO_WEB - wrong == set(), "fixed: take it off KNOWN_SHEET_TO_WEB"


def test_only_the_web_app_reads_flask() -> None:
    """The layers under the web app say their words with ``scorer.words`` (the tongue being spoken),
    never Flask-Babel's context: the translator comes from above, nothing reads the web app's state."""
    _edges, outside = graph()
    wrong = {
        name: sorted(
            outside[name]
            & {"flask", "flask_babel", "flask_wtf", "flask_sqlalchemy", "werkzeug"}
            - (STORE_READS if name.split(".")[1] == "store" else set())
        )
        for name in outside
        if name.split(".")[1:2] and name.split(".")[1] in LOWER
    }
    assert {name: found for name, found in wrong.items() if found} == {}


# The blueprint packages of the web app: each imports the store, the games, ``scorer.web.common`` and its
# own modules, never another blueprint's (what two of them share lives in web/common, games or the store).
BLUEPRINTS = ("tables", "evening", "answers", "pena", "api")


def _web_part(name: str) -> str | None:
    """``tables`` for scorer.web.tables.routes, ``common`` for scorer.web.common.i18n, else None."""
    parts = name.split(".")
    return parts[2] if parts[:2] == ["scorer", "web"] and len(parts) > 2 else None


def test_no_blueprint_imports_another() -> None:
    edges, _outside = graph()
    wrong = {
        (name, target)
        for name, targets in edges.items()
        if _web_part(name) in BLUEPRINTS
        for target in targets
        if _web_part(target) in BLUEPRINTS and _web_part(target) != _web_part(name)
    }
    assert wrong == set()


def test_a_blueprint_imports_of_the_web_only_its_own_package_and_common() -> None:
    """Not the app factory either: ``scorer.web`` itself (its ``__init__``) is above the blueprints."""
    edges, _outside = graph()
    wrong = {
        (name, target)
        for name, targets in edges.items()
        if _web_part(name) in BLUEPRINTS
        for target in targets
        if target.split(".")[:2] == ["scorer", "web"] and _web_part(target) not in (_web_part(name), "common")
    }
    assert wrong == set()


def test_web_common_imports_no_blueprint() -> None:
    edges, _outside = graph()
    wrong = {
        (name, target)
        for name, targets in edges.items()
        if _web_part(name) == "common"
        for target in targets
        if _web_part(target) in BLUEPRINTS or target == "scorer.web"
    }
    assert wrong == set()


def test_the_store_never_imports_the_web_app_and_the_games_never_import_the_store() -> None:
    edges, _outside = graph()

    def inside(name: str, package: str) -> bool:
        return name == package or name.startswith(package + ".")

    store_to_web = {
        (n, t) for n, ts in edges.items() if inside(n, "scorer.store") for t in ts if inside(t, "scorer.web")
    }
    games_up = {
        (n, t)
        for n, ts in edges.items()
        if inside(n, "scorer.games")
        for t in ts
        if inside(t, "scorer.store") or inside(t, "scorer.web")
    }
    assert store_to_web == set()
    assert games_up == set()


def test_the_games_are_imported_plainly() -> None:
    """One list of games in scorer/games/__init__.py, imported like any module: no importlib anywhere in
    the app (it hid a circle from this test once)."""
    _edges, outside = graph()
    assert {name for name, found in outside.items() if "importlib" in found} == set()


def test_the_engine_imports_the_standard_library_and_itself_only() -> None:
    edges, outside = graph()
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    engine = [m for m in edges if m == "scorer.engine" or m.startswith("scorer.engine.")]
    assert engine
    assert {m: sorted(outside[m] - stdlib) for m in engine if outside[m] - stdlib} == {}
    assert {m: sorted(t for t in edges[m] if not t.startswith("scorer.engine")) for m in engine} == {
        m: [] for m in engine
    }


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": set()}, []),
    ],
)
def test_the_circle_finder_finds_circles(code: dict[str, set[str]], expected: list[list[str]]) -> None:
    """The checker itself: a circle of two, one of three, none."""
    assert circles(code) == expected


def test_an_import_inside_a_function_counts(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "mod.py"
    path.write_text("def f():\n    from scorer.web import services\n    from . import sibling\n", encoding="utf-8")
    assert set(imported_names("scorer.words", path)) >= {"scorer.web.services", "scorer.sibling"}
