"""What every game's pages, exports and sheet need, by name: :class:`Game` (one instance per game)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scorer.engine.registry import RULESETS
from scorer.games.text import _, _l


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
    closed_words: str = _l("Partida cerrada: ya no se puede cambiar.")
    over_words: Callable[[Mapping[str, Any]], str] = lambda ledger: _(
        "La partida ha terminado (manos acordadas o meta alcanzada): no se anotan más manos."
    )
    # --- view-models (scorer.games.views): the table's state, a hand's line, summary and page
    game_view: Callable[..., Any] | None = None  # (session, ledger, name) -> present.GameView
    close_label: Callable[[Any], str] = lambda view: _("Repartir y cerrar")
    line: Callable[..., Any] | None = None  # (hand, entry, players) -> HandLine, instead of the shared one
    result_phrase: bool = False  # the hand line says who won and who gave codillo (Tresillo)
    summary: Callable[..., str] | None = None  # (session, hand, entry, previous entry) -> one sentence
    state_words: Callable[..., str] = lambda entry, rules, players: ""
    hand_view: Callable[..., Any] | None = None  # (session, ledger, n) -> a hand's page
    preview: Callable[..., Any] | None = None  # (session, ledger, entry, n) -> what a hand not yet saved does
    teams: bool = False  # scores by team (bandos B1)
    # --- the CSV export (scorer.games.exports)
    csv: Callable[..., str] | None = None  # (players, hands, ledger) instead of the shared columns
    pot_columns: tuple[str, ...] = ("Plato",)
    pots: Callable[[Mapping[str, Any]], list[Any]] = lambda entry: []
    game_columns: tuple[str, ...] = ()
    game_cells: Callable[..., list[Any]] = lambda hand, result, names: []
    # (what the sheet says of a game, its rules in words and columns, is in sheet_words.py)
    # --- its templates and words (templates/games/<ruleset>/…): no template compares a rule-set name
    options_template: str = ""  # the new-table form's fieldset of this game's rules
    seats_help: str = ""  # the new-table form: how the seats are filled
    show_name: bool = True  # the table page names the game (not Tresillo, the app's own game)
    pot_panel: str = ""  # the table page: plato, pozo and viuda, bote, teams
    cartulina_panel: str = ""  # the table page: the cartulina of reserved puestas (Tresillo R18)
    over_panel: str = ""  # the table page of a game that ended by itself (Ombre O6, bandos B4)
    closed_note: str = ""  # the table page once closed: where the pots went ("": the plato's R30 words)
    confirm_heading: Callable[[Any], str] = lambda view: _("¿Cerrar la partida?")  # the closing's question
    hand_state: str = ""  # a hand's page: the state before and after it
    hand_fields: str = ""  # hand_game.html: this game's fields
    summary_fields: tuple[tuple[str, str], ...] = ()  # hand_game.html: the fields the "Revisa:" line links
    alcalde: bool = False  # with four players the dealer sits out (R3): said next to the dealer
    preview_heading: str = _l("Pagos de esta mano")
    preview_button: str = _l("Ver pagos")

    @property
    def player_counts(self) -> tuple[int, ...]:
        """How many players the engine's rule set admits (3–4, exactly 3, exactly 6)."""
        return tuple(getattr(RULESETS.get(self.ruleset), "player_counts", (3, 4)))

    @property
    def min_players(self) -> int:
        return min(self.player_counts)

    @property
    def max_players(self) -> int:
        """The seats of the new-table form this game uses (and may deal first or keep the score)."""
        return max(self.player_counts)
