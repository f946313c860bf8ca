"""The games: what the pages, exports and the sheet do differently per rule set, one module each.

Each module of this package (``tresillo``, ``pozo_viuda``, ``ombre``, ``bandos``) holds one subclass of
:class:`~scorer.games.base.Game` (python-chess's variants are the model): the shared behaviour is the
base class's, each game overrides what it does differently. :data:`GAMES` lists them, imported
plainly, in the order of the new-table form. Views, services and
exports ask :func:`game_of` for the table's game and use its attributes; none of them compares a
rule-set name, and neither do the templates: what a game's pages show differently is in
``templates/games/<ruleset>/``, named by its attributes (``pot_panel``, ``hand_fields``…). This
package sits below the web app and the store: it never imports ``scorer.web`` nor ``scorer.store``.
Adding a game: docs/adding-a-game.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from scorer.games.bandos import Bandos
from scorer.games.base import Game, OtherGame
from scorer.games.ombre import Ombre
from scorer.games.pozo_viuda import PozoViuda
from scorer.games.text import _
from scorer.games.tresillo import Tresillo
from scorer.words import GAME_SHORT_NAMES

GAMES: tuple[Game, ...] = (Tresillo(), PozoViuda(), Ombre(), Bandos())  # the new-table form's order


class GameWords(Protocol):
    """What the printed sheet (scorer.sheet) reads of a game: its name, its rules in words, its columns."""

    @property
    def ruleset(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def extras_header(self) -> str: ...

    def rules_lines(self, rules: Mapping[str, Any]) -> list[str]: ...


__all__ = [
    "GAMES",
    "Bandos",
    "Game",
    "GameWords",
    "Ombre",
    "PozoViuda",
    "Tresillo",
    "all_games",
    "find_game",
    "game_of",
    "game_words",
    "seat_label",
    "shared",
]


def find_game(ruleset: object) -> Game | None:
    """The game of a rule-set name, or None."""
    return next((game for game in GAMES if game.ruleset == str(ruleset)), None)


def game_of(ruleset: object) -> Game:
    """The game of a rule set (a table's, a session's); Tresillo when none is named (format.md)."""
    return find_game(ruleset or "tresillo") or GAMES[0]


def game_words(ruleset: object) -> Game:
    """The game whose words the sheet prints: an unknown rule set lists its options as they are (Tresillo
    when none is named)."""
    name = str(ruleset or "tresillo")
    return find_game(name) or OtherGame(name)


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
