"""One web module per game (issue 13): what the pages, exports and the sheet do differently per rule set.

Each module of this package (``tresillo``, ``pozo_viuda``, ``ombre``, ``bandos``) builds one
:class:`Game` and registers it under its engine rule-set name. Views, services, exports and
the sheet ask :func:`game_of` for the table's game and use its attributes; none of them
compares a rule-set name. Adding a fifth game: its engine module (``scorer/engine/``), one
module here, its templates (a hand form if the shared ones do not fit) and its rules page.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

GAME_MODULES = ("tresillo", "pozo_viuda", "ombre", "bandos")  # the order of the new-table form
GAMES: dict[str, Game] = {}


@dataclass(frozen=True)
class Game:
    """What one rule set's pages, exports and sheet need, by name (no ``if ruleset == …`` elsewhere)."""

    ruleset: str
    # --- the hand form: built for a table, read into a hand, filled from a stored hand
    hand_form: Callable[..., Any]  # (players, dealer, rules, *, formdata, hand, revision, deal, table_revision)
    hand_template: str  # "hand_form.html" (Tresillo) or "hand_game.html"
    # --- the new-table form: this game's option fields as (form field, rules key), its help line
    option_fields: tuple[tuple[str, str], ...]
    option_defaults: Mapping[str, Any]
    help: str
    count_hint: str = ""  # after "se juega con N jugadores" when the count is wrong
    # --- what the table offers
    money: bool = True  # tantos are worth money (bandos: tantos only)
    can_pass: bool = True  # "Todos pasan" (bandos B2: no)
    closings: tuple[str, ...] = ("repartir",)  # the closings it offers (R30); none: it ends by itself
    evening: bool = False  # ajustes, changes of player, "jugar hasta que se gane el plato" (R32, R33)
    result_filters: bool = False  # the hand list filters by result (Tresillo's results)
    closed_words: str = "Partida cerrada: ya no se puede cambiar."
    over_words: Callable[[Mapping[str, Any]], str] = lambda ledger: (
        "La partida ha terminado (manos acordadas o meta alcanzada): no se anotan más manos."
    )
    # --- view-models (scorer.web.present): the table's state, a hand's line, summary and page
    game_view: Callable[..., Any] | None = None  # (session, ledger, name) -> present.GameView
    close_label: Callable[[Any], str] = lambda view: "Repartir y cerrar"
    line: Callable[..., Any] | None = None  # (hand, entry, players) -> HandLine, instead of the shared one
    result_phrase: bool = False  # the hand line says who won and who gave codillo (Tresillo)
    summary: Callable[..., str] | None = None  # (session, hand, entry, previous entry) -> one sentence
    state_words: Callable[..., str] = lambda entry, rules, players: ""
    hand_view: Callable[..., Any] | None = None  # (session, ledger, n) -> a hand's page
    preview: Callable[..., Any] | None = None  # (session, ledger, entry, n) -> what a hand not yet saved does
    teams: bool = False  # scores by team (bandos B1)
    # --- the CSV export (scorer.web.exports)
    csv: Callable[..., str] | None = None  # (players, hands, ledger) instead of the shared columns
    pot_columns: tuple[str, ...] = ("Plato",)
    pots: Callable[[Mapping[str, Any]], list[Any]] = lambda entry: []
    game_columns: tuple[str, ...] = ()
    game_cells: Callable[..., list[Any]] = lambda hand, result, names: []
    # --- the sheet (scorer.sheet.build)
    rules_lines: Callable[[Mapping[str, Any]], list[str]] = lambda rules: []
    extras_header: str = "Mat."


def register(game: Game) -> Game:
    GAMES[game.ruleset] = game
    return game


def _load() -> None:
    if len(GAMES) < len(GAME_MODULES):
        for name in GAME_MODULES:
            importlib.import_module(f"{__name__}.{name}")


def game_of(ruleset: object) -> Game:
    """The game of a rule set (a table's, a session's); Tresillo when none is named (format.md)."""
    _load()
    return GAMES.get(str(ruleset or "tresillo"), GAMES["tresillo"])


def find_game(ruleset: object) -> Game | None:
    """The game registered under a rule-set name, or None."""
    _load()
    return GAMES.get(str(ruleset))


def all_games() -> Sequence[Game]:
    _load()
    return [GAMES[name] for name in GAME_MODULES]
