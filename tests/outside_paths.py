"""Find the lines of a file that lead to a path outside the clone.

The repository must stand alone: a test, bench, script or doc that reads the rules' authors' folder
of one machine, a ``shared`` folder beside the clone or anything above it passes on the machine it
was written on and fails on a stranger's. ``tests/test_quality.py`` runs :func:`outside_paths` on
every tracked file but ``.ci/`` (CI alone may cross-check against that folder), and shows each form
caught (its CAUGHT list; the forms are not spelt out here, or this file would be caught).

Two scans:

- **text**, every file: an absolute path into a person's or a machine's folders (``work``, ``home``,
  ``root``, ``Users``, ``mnt``, ``media`` or ``srv`` at the top of the file system, a Windows user
  folder: ``ABSOLUTE``), and a climb of two dots and a slash to a ``shared`` folder (``SHARED_CLIMB``);
- **Python**, by following paths through the code: how many folders above the file's own folder an
  expression is, from ``__file__`` (``Path(__file__).resolve().parents[3]``, ``.parent.parent``,
  ``os.path.dirname(...)``), from the repository root (a name ``ROOT`` or ``REPO`` imported from
  elsewhere, e.g. ``tests.conftest``), from the working directory (the root: ``Path("..")``), through
  names assigned on the way, ``/``, ``joinpath`` and ``os.path.join`` (``".."`` climbs one). Any
  step above the root (``ROOT.parent``, ``parents[3]`` in ``tests/web/``) is reported, as is ``..``
  joined to a path whose place is unknown.
"""

from __future__ import annotations

import ast
import re

ABSOLUTE = re.compile(
    r"(?<![\w.~:/\\-])/(?:work|home|root|Users|mnt|media|srv)/"
    r"|\b[A-Za-z]:\\+Users\\"
)
# Pyodide's own in-browser file system (bench/pyodide.py writes the engine there), not this machine's.
NOT_THIS_MACHINE = re.compile(r"/home/pyodide\b")
SHARED_CLIMB = re.compile(r"\.\.[\\/]+shared\b")
ROOT_NAMES = {"ROOT", "REPO"}
_PATH_CALLS = {"Path", "PurePath", "PosixPath", "str", "abspath", "realpath", "normpath", "fspath"}
_KEEP_METHODS = {"resolve", "absolute", "expanduser"}


def outside_paths(relative: str, text: str) -> list[str]:
    """``relative`` is the file's path in the repository (``tests/web/test_pena.py``): its depth matters."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in ABSOLUTE.finditer(line):
            if not NOT_THIS_MACHINE.match(line, match.start()):
                found.append(f"{relative}:{number}: an absolute path of one machine: {line.strip()}")
                break
        if SHARED_CLIMB.search(line):
            found.append(f"{relative}:{number}: a shared folder beside the clone: {line.strip()}")
    if relative.endswith(".py") or text.startswith("#!/usr/bin/env python"):
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return found
        lines = text.splitlines()
        depth = relative.count("/")  # tests/web/x.py: its folder is 2 below the root
        for number, why in sorted(_Climbs(depth).run(tree)):
            found.append(f"{relative}:{number}: {why}: {lines[number - 1].strip()}")
    return found


class _Climbs:
    """How high above the file's folder each path expression is (None: not a path we can follow)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.names: dict[str, int | None] = {}
        self.found: set[tuple[int, str]] = set()

    def run(self, tree: ast.AST) -> set[tuple[int, str]]:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom | ast.Import):
                for alias in node.names:
                    if alias.name in ROOT_NAMES and isinstance(node, ast.ImportFrom):
                        self.names[alias.asname or alias.name] = self.depth
        for node in _in_order(tree):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                height = self.height(node.value)
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        self.names[target.id] = height
            for inner in ast.walk(node):  # also the paths inside calls, lists, f-strings…
                if isinstance(inner, ast.expr):
                    self.height(inner)
        return self.found

    def _check(self, node: ast.expr, height: int | None) -> int | None:
        if height is not None and height > self.depth:
            self.found.add((node.lineno, "a path above the clone's root"))
        return height

    def _climb(self, node: ast.expr, height: int | None, parts: list[ast.expr]) -> int | None:
        """``height`` joined with ``parts``: each ``..`` climbs one, any other name goes one down."""
        for part in parts:
            if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                return None
            for piece in re.split(r"[\\/]+", part.value):
                if piece == "..":
                    if height is None:
                        self.found.add((node.lineno, "'..' from a place the check cannot follow"))
                        return None
                    height = self._check(node, height + 1)
                elif piece not in ("", ".") and height is not None:
                    height -= 1
        return height

    def height(self, node: ast.expr) -> int | None:
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return -1  # the file itself: its .parent is its folder, height 0
            return self.names.get(node.id, self.depth if node.id in ROOT_NAMES else None)
        if isinstance(node, ast.Attribute):
            if node.attr == "parent":
                below = self.height(node.value)
                return self._check(node, None if below is None else below + 1)
            if isinstance(node.value, ast.Name) and node.value.id in ROOT_NAMES and node.attr == "parents":
                self._check(node, self.depth + 1)
            return None
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "parents":
                below = self.height(node.value.value)
                index = node.slice
                if below is not None and isinstance(index, ast.Constant) and isinstance(index.value, int):
                    return self._check(node, below + 1 + index.value)
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self._climb(node, self.height(node.left), [node.right])
        if isinstance(node, ast.Call):
            return self._call(node)
        return None

    def _call(self, node: ast.Call) -> int | None:
        function = node.func
        name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
        if isinstance(function, ast.Attribute) and name in _KEEP_METHODS:
            return self.height(function.value)
        if isinstance(function, ast.Attribute) and name == "joinpath":
            return self._climb(node, self.height(function.value), node.args)
        if name == "join" and isinstance(function, ast.Attribute) and _is_os_path(function.value) and node.args:
            return self._climb(node, self._start(node.args[0]), node.args[1:])
        if name == "dirname" and node.args:
            below = self.height(node.args[0])
            return self._check(node, None if below is None else below + 1)
        if name in _PATH_CALLS and len(node.args) == 1:
            return self._start(node.args[0])
        return None

    def _start(self, node: ast.expr) -> int | None:
        """Where a path begins: a followed expression, or a constant relative to the working directory (the root)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.startswith(("/", "~")):
                return None
            return self._climb(node, self.depth, [node])
        return self.height(node)


def _is_os_path(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "path") or (
        isinstance(node, ast.Name) and node.id == "path"
    )


def _in_order(tree: ast.AST) -> list[ast.AST]:
    """Assignments and outermost expressions in source order (so a name is known before it is used)."""
    nodes: list[ast.AST] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Assign | ast.AnnAssign):
                nodes.append(child)
                continue
            if isinstance(child, ast.expr):
                nodes.append(child)
                continue
            visit(child)

    visit(tree)
    return nodes
