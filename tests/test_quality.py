"""The code's own standards: the engine is pure and typed, and the tree passes ruff."""

from __future__ import annotations

import ast
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.outside_paths import outside_paths

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


def _tracked_files() -> list[pathlib.Path]:
    """The files of the repository: git's list in a checkout, else the tree without what git ignores."""
    git = shutil.which("git")
    if git and (ROOT / ".git").exists():
        listed = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
        return [ROOT / name for name in listed.stdout.split("\0") if name]
    skip = {".git", ".venv", "node_modules", "instance", "artifacts", "build", "dist", "__pycache__"}
    return [
        p
        for p in ROOT.rglob("*")
        if p.is_file() and not skip.intersection(p.relative_to(ROOT).parts) and not p.name.endswith(".egg-info")
    ]


def test_nothing_outside_ci_leads_outside_the_clone() -> None:
    """The project stands alone: docs, test data and tools are in the repository (only .ci/ may cross-check)."""
    files = _tracked_files()
    assert any(p.name == "README.md" for p in files), "found no file of the repository"
    found = []
    for path in files:
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(".ci/") or not path.is_file():
            continue
        found += outside_paths(relative, path.read_bytes().decode("utf-8", errors="replace"))
    assert not found, "these lines lead outside the clone:\n" + "\n".join(found)


# Each form of a path leading outside the clone, as (the file it is in, its line). A "·" is written into
# the absolute paths and the climbs to a shared folder so that this file passes its own check; _unmask takes it out.
CAUGHT = [
    ("tests/web/test_pena.py", 'EXAMPLES = pathlib.Path("/·work/shared/examples")'),
    ("tests/test_x.py", 'DATA = "/·home/someone/cartulina-data/x.json"'),
    ("scripts/check", 'for f in /·root/shared/*.json; do echo "$f"; done'),
    ("docs/x.md", "The examples are in `C:·\\Users\\ana\\shared`."),
    ("Makefile", "\tdiff -r ..·/shared/examples tests/data/examples"),
    ("docs/x.md", "See [the rules](..·/..·/shared/rules/tresillo.md)."),
    ("tests/web/test_pena.py", 'EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "shared" / "examples"'),
    ("bench/evening.py", 'EXAMPLE = ROOT.parent / "shared" / "examples" / "real_evening.json"'),
    ("tests/web/test_x.py", "from tests.conftest import ROOT\nDATA = ROOT.parents[0] / 'shared'"),
    ("bench/x.py", 'HERE = pathlib.Path(__file__).resolve().parent\nOTHER = HERE.parent.parent / "shared"'),
    ("tests/test_x.py", "BASE = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))"),
    ("tests/test_x.py", 'DATA = os.path.join(os.path.dirname(__file__), "..", "..", "shared")'),
    ("tests/x.py", 'DATA = pathlib.Path(__file__).parent.joinpath("..·/..·/shared")'),
    ("tests/test_x.py", 'DATA = pathlib.Path("..") / "shared" / "examples"'),
    ("tests/test_x.py", 'load(ROOT / ".." / "shared" / "walkthrough.json")'),
    ("tests/test_x.py", 'def where(base):\n    return pathlib.Path(base) / ".." / "shared"'),
]
# …and what the repository does and may do: its own folders, Debian's programs, other file systems.
NOT_CAUGHT = [
    ("bench/x.py", "ROOT = pathlib.Path(__file__).resolve().parent.parent"),
    ("tests/web/x.py", 'ENGINE = Path(__file__).resolve().parents[2] / "scorer" / "engine"'),
    ("scorer/web/common/i18n.py", 'T = pathlib.Path(__file__).resolve().parent.parent.parent / "translations"'),
    ("tests/test_x.py", 'EXAMPLES = ROOT / "tests" / "data" / "examples"\nX = EXAMPLES.parent.parent'),
    ("tests/test_x.py", 'DB = os.path.join(os.path.dirname(__file__), "..", "instance")'),
    ("tests/browser/conftest.py", 'CHROMIUM = "/usr/bin/chromium"'),
    ("bench/pyodide.py", 'pyodide.FS.mkdirTree("/home/pyodide/scorer/engine");'),
    ("docs/x.md", "https://example.org/home/work/x and the shared state"),
    ("scorer/web/common/i18n.py", "locale = po.parent.parent.name"),
    ("scripts/run", 'cd "$(dirname "$0")/.."'),
]


def _unmask(text: str) -> str:
    return text.replace("·", "")


@pytest.mark.parametrize(("relative", "text"), CAUGHT)
def test_the_check_catches_each_path_leading_outside(relative: str, text: str) -> None:
    found = outside_paths(relative, _unmask(text))
    assert found, f"{relative}: not caught: {_unmask(text)}"
    assert found[0].startswith(f"{relative}:{_unmask(text).count(chr(10)) + 1}:"), found


@pytest.mark.parametrize(("relative", "text"), NOT_CAUGHT)
def test_the_check_lets_paths_inside_the_clone_be(relative: str, text: str) -> None:
    assert outside_paths(relative, _unmask(text)) == []


def test_every_example_session_has_its_ledger() -> None:
    """tests/data/examples: NAME.json with NAME.ledger.json, for every rule set the engine knows."""
    from scorer.engine.registry import RULESETS
    from tests.conftest import EXAMPLES, example_sessions, load_json

    sessions = example_sessions()
    for path in sessions:
        ledger = path.with_name(path.stem + ".ledger.json")
        assert ledger.exists(), f"{path.name} has no {ledger.name}"
        assert len(load_json(ledger)["hands"]) == len(load_json(path)["hands"]), path.name
    ledgers = {p.name.removesuffix(".ledger.json") for p in EXAMPLES.glob("*.ledger.json")}
    assert ledgers == {p.stem for p in sessions}, "a ledger without its session"
    for ruleset in RULESETS:
        assert example_sessions(ruleset), ruleset


DOCS = ROOT / "docs"
RULE_PAGES = {"R": "tresillo.md", "P": "pozo-viuda.md", "O": "ombre.md", "B": "bandos.md"}


def test_the_docs_are_there() -> None:
    for page in ("README.md", "format.md", "api.md", "limits.md", *(f"rules/{p}" for p in RULE_PAGES.values())):
        assert (DOCS / page).is_file(), f"docs/{page} is missing"


def test_every_rule_the_code_cites_is_in_the_docs() -> None:
    """Code and tests cite R13, P5, O2, B3…: each is defined (**R13**) in its docs/rules page, in order."""
    defined = {}
    for letter, page in RULE_PAGES.items():
        numbers = [int(n) for n in re.findall(rf"^- \*\*{letter}(\d+)\*\*", (DOCS / "rules" / page).read_text(), re.M)]
        assert numbers, page
        assert sorted(numbers) == list(range(1, max(numbers) + 1)), f"{page}: rule numbers {numbers}"
        defined[letter] = set(numbers)
    for path in sorted((ROOT / "scorer").rglob("*.py")):
        for letter, number in re.findall(r"\b([RPOB])(\d{1,2})\b", path.read_text(encoding="utf-8")):
            assert int(number) in defined[letter], f"{path.relative_to(ROOT)} cites {letter}{number}"


def _links(page: pathlib.Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def _anchors(page: pathlib.Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces to hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_links_of_the_readme_and_the_docs_lead_somewhere() -> None:
    pages = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    checked = 0
    for page in pages:
        for link in _links(page):
            if link.startswith(("http://", "https://", "mailto:")):
                continue
            target, _, anchor = link.partition("#")
            path = (page.parent / target).resolve() if target else page
            assert path.exists(), f"{page.relative_to(ROOT)} links {link}: no such file"
            assert ROOT in path.parents or path == ROOT, f"{page.relative_to(ROOT)} links {link}: not in the repo"
            if anchor and path.suffix == ".md":
                assert anchor in _anchors(path), f"{page.relative_to(ROOT)} links {link}: no such heading"
            checked += 1
    assert checked > 20


RULESET_NAMES = {"tresillo", "pozo_viuda", "ombre", "bandos"}
DISPATCHED = [
    ROOT / "scorer" / "web",
    ROOT / "scorer" / "sheet",
    ROOT / "scorer" / "evening.py",
    ROOT / "scorer" / "games",
]
GAMES_DIR = ROOT / "scorer" / "games"  # its game modules (tresillo.py, …) are where a game says what it does


def _names_a_ruleset(node: ast.expr) -> bool:
    """A rule-set name as a string literal, or a tuple/list/set of them."""
    if isinstance(node, ast.Constant):
        return node.value in RULESET_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_ruleset(item) for item in node.elts)
    return False


def _is_game_variable(node: ast.expr) -> bool:
    """A variable, attribute or call whose text names the rule set or game (``table.ruleset``, ``game``…)."""
    text = ast.unparse(node).lower()
    return not isinstance(node, ast.Constant) and ("ruleset" in text or "game" in text)


def test_no_ruleset_branch_outside_the_game_modules() -> None:
    """Views, services, exports and the sheet dispatch through scorer.games, never by name."""
    files = [p for d in DISPATCHED for p in ([d] if d.is_file() else sorted(d.rglob("*.py")))]
    assert len(files) > 15
    found = []
    for path in files:
        if path.parent == GAMES_DIR and path.stem in RULESET_NAMES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                if any(_names_a_ruleset(o) for o in operands) and any(_is_game_variable(o) for o in operands):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, "\n".join(found)


def test_the_scan_finds_a_ruleset_branch() -> None:
    """The scan above is not vacuous: it flags the branches it is meant to forbid."""
    for source in ('if table.ruleset == "bandos": pass', 'x = game != "tresillo"', 'y = ruleset in ("ombre", "x")'):
        compare = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Compare))
        operands = [compare.left, *compare.comparators]
        assert any(map(_names_a_ruleset, operands)) and any(map(_is_game_variable, operands)), source


def test_every_engine_rule_set_has_its_web_module() -> None:
    from scorer.engine import RULESETS
    from scorer.games import GAMES, all_games, game_words

    games = {g.ruleset: g for g in all_games()}
    assert set(games) == set(RULESETS) and len(GAMES) == len(games)
    for game in games.values():
        assert (ROOT / "templates" / game.hand_template).is_file(), game.ruleset
        assert (GAMES_DIR / f"{game.ruleset}.py").is_file()
        assert game.help and game_words(game.ruleset).rules_lines({})  # the new-table form's line, the sheet's rules


TEMPLATES = ROOT / "templates"
GAME_TEMPLATES = TEMPLATES / "games"
_RULESET = "|".join(sorted(RULESET_NAMES))
RULESET_IN_PAGE = [
    # a quoted rule-set name: game == "ombre", ruleset in ("ombre", …), data-for="bandos", game === "tresillo"
    re.compile(rf"""(["'])(?:{_RULESET})\1"""),
    # a list of them in a data- attribute: data-for="tresillo pozo_viuda", data-hide-for="… ombre"
    re.compile(rf"""data-[\w-]+="[^"]*\b(?:{_RULESET})\b"""),
    # a script's table keyed by them: {{ ombre: 3, bandos: 6 }}
    re.compile(rf"""[{{,]\s*(?:{_RULESET})\s*:"""),
]


def _ruleset_branches(text: str) -> list[str]:
    """The lines of a template or script that select by a rule-set name written in it."""
    return [line.strip() for line in text.splitlines() if any(p.search(line) for p in RULESET_IN_PAGE)]


def test_no_ruleset_branch_in_the_templates_and_scripts() -> None:
    """The pages, too, ask the game (``game.pot_panel``, ``game.preview_button``…) instead of
    comparing its name; what differs per game is in templates/games/<game>/, named by scorer.games."""
    pages = [p for p in sorted(TEMPLATES.rglob("*.html")) if GAME_TEMPLATES not in p.parents]
    scripts = sorted((ROOT / "static").glob("*.js"))
    assert len(pages) > 20 and scripts
    found = [
        f"{path.relative_to(ROOT)}: {line}"
        for path in pages + scripts
        for line in _ruleset_branches(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_template_scan_finds_a_ruleset_branch() -> None:
    """The scan above flags what it forbids, and lets the game's own words and attributes be."""
    for branch in (
        '{% if game.ruleset == "pozo_viuda" %}',
        "{% if game != 'tresillo' and game != 'bandos' %}",
        '{% elif ruleset in ("ombre", "bandos") %}',
        '<fieldset class="game-opts" data-for="tresillo pozo_viuda">',
        '<span data-hide-for="tresillo pozo_viuda ombre">',
        'data-for="{% if seat <= 3 %}tresillo ombre{% else %}bandos{% endif %}"',
        'input.placeholder = game === "tresillo" ? hint : "";',
        "var seats = { ombre: 3, bandos: 6 }[game] || 4;",
    ):
        assert _ruleset_branches(branch), branch
    for fine in (
        "{% include game.spec.pot_panel %}",
        '<fieldset class="game-opts" data-for="{{ g.ruleset }}">',
        '{{ _("Asiento %(n)s (solo bandos)", n=s.n) }}',
        "var tresillo = !!primerasRadio;",
    ):
        assert not _ruleset_branches(fine), fine


def test_every_game_template_is_there() -> None:
    """The templates each game names (scorer.games) exist, and each game's own live under templates/games/."""
    from scorer.games import all_games

    for game in all_games():
        named = [game.options_template, game.pot_panel, game.hand_state, game.hand_fields, game.over_panel,
                 game.cartulina_panel]  # fmt: skip
        assert game.options_template and game.pot_panel and game.hand_state, game.ruleset
        for name in filter(None, named):
            assert (TEMPLATES / name).is_file(), f"{game.ruleset}: {name}"
            assert name.startswith("games/"), name
        if game.hand_template == "hand_game.html":
            assert game.hand_fields and game.summary_fields, game.ruleset
