"""The games are one list of classes: each game one subclass of Game in its own module, imported plainly,
and what the app does differently per game read from the class (closing rule, windowing, option fields)."""

from __future__ import annotations

import ast
import pathlib

import scorer.games as games
from scorer.engine import RULESETS
from scorer.games import GAMES, Game, game_of, game_words

GAMES_DIR = pathlib.Path(games.__file__).parent


def test_each_game_is_one_subclass_in_its_own_module() -> None:
    assert {game.ruleset for game in GAMES} == set(RULESETS)
    for game in GAMES:
        cls = type(game)
        assert issubclass(cls, Game) and cls is not Game
        assert cls.__module__ == f"scorer.games.{game.ruleset}"
        assert (GAMES_DIR / f"{game.ruleset}.py").is_file()


def test_the_games_package_loads_no_module_by_name() -> None:
    """No importlib: the list is imported plainly, so the layer test sees every import."""
    for path in GAMES_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "importlib" not in imported, path.name
        assert "__import__" not in path.read_text(encoding="utf-8"), path.name


def test_the_closing_rule_and_the_windowing_are_the_games() -> None:
    """What the services asked two tables for: the rule a closed table names, and whether its page may be
    settled from the latest hands (Ombre counts its deals: never)."""
    assert {g.ruleset: g.closing_rule for g in GAMES} == {
        "tresillo": "R30",
        "pozo_viuda": "P11",
        "ombre": "O7",
        "bandos": "B4",
    }
    assert {g.ruleset for g in GAMES if g.windowed} == {"tresillo", "pozo_viuda", "bandos"}
    assert game_of(None).ruleset == "tresillo" and game_of("nope").ruleset == "tresillo"


def test_each_games_options_are_its_own_and_named_once() -> None:
    """The new-table form is built from the games' options: no field named twice, each key a rule of the game."""
    names = [option.name for game in GAMES for option in game.options]
    assert len(names) == len(set(names)) == 26
    for game in GAMES:
        assert {option.key for option in game.options} <= set(game.option_defaults) | {"deals", "target"}


def test_the_sheet_reads_a_games_words_from_its_class() -> None:
    assert game_words("tresillo").extras_header == "Est." and game_words("ombre").extras_header == "Mat."
    assert game_words(None) is game_of("tresillo")
    other = game_words("quinto")
    assert other.ruleset == "quinto" and other.rules_lines({"ruleset": "quinto", "stake": 3}) == ["stake: 3"]
    assert game_words("bandos").rules_lines({})[0] == "Se juega a 12 tantos."
