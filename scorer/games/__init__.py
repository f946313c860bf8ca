"""The games: what the pages, exports and the sheet do differently per rule set, one module each.

Each module of this package (``tresillo``, ``pozo_viuda``, ``ombre``, ``bandos``) builds one
:class:`Game`; :data:`GAMES` lists them, in the order of the new-table form. Views, services and
exports ask :func:`game_of` for the table's game and use its attributes; none of them compares a
rule-set name, and neither do the templates: what a game's pages show differently is in
``templates/games/<ruleset>/``, named by its attributes (``pot_panel``, ``hand_fields``…). This
package sits below the web app and the store: it never imports ``scorer.web`` nor ``scorer.store``.
Adding a game: docs/adding-a-game.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.games import bandos, ombre, pozo_viuda, tresillo
from scorer.games.base import Game
from scorer.games.sheet_words import GameWords, game_words
from scorer.games.text import _
from scorer.words import GAME_SHORT_NAMES

GAMES: tuple[Game, ...] = (tresillo.GAME, pozo_viuda.GAME, ombre.GAME, bandos.GAME)  # the new-table form's order
BY_NAME = {game.ruleset: game for game in GAMES}

__all__ = ["GAMES", "Game", "GameWords", "all_games", "find_game", "game_of", "game_words", "seat_label", "shared"]


def game_of(ruleset: object) -> Game:
    """The game of a rule set (a table's, a session's); Tresillo when none is named (format.md)."""
    return BY_NAME.get(str(ruleset or "tresillo"), BY_NAME["tresillo"])


def find_game(ruleset: object) -> Game | None:
    """The game of a rule-set name, or None."""
    return BY_NAME.get(str(ruleset))


def all_games() -> Sequence[Game]:
    return GAMES


def seat_label(n: int) -> str:
    """Seat ``n`` of a seating form, with the games that use it (from the list: no game named in a page)."""
    users = [g for g in GAMES if g.max_players >= n]
    if len(users) == 1 < len(GAMES):
        return _("Asiento %(n)s (solo %(game)s)", n=n, game=GAME_SHORT_NAMES.get(users[0].ruleset, users[0].ruleset))
    if users and any(g.min_players < n for g in users):
        return _("Asiento %(n)s (vacío si sois %(fewer)s)", n=n, fewer=n - 1)
    return _("Asiento %(n)s", n=n)


def shared(attribute: str) -> list[tuple[Any, str]]:
    """Each value of a game attribute with the names of the games that have it, as a page's ``data-for``
    lists them ("tresillo pozo_viuda"), in the list's order."""
    grouped: dict[str, tuple[Any, list[Game]]] = {}
    for game in GAMES:
        value = getattr(game, attribute)
        grouped.setdefault(str(value), (value, []))[1].append(game)
    return [(value, " ".join(g.ruleset for g in games)) for value, games in grouped.values()]
