"""What every game shares: :class:`Game`, whose subclasses (one per game) override what differs.

python-chess's variants are the model: the board is the shared behaviour, a variant overrides what it
plays differently. Here the defaults are the app's plainest game; ``tresillo.py``, ``pozo_viuda.py``,
``ombre.py`` and ``bandos.py`` each say what they do differently, and nothing else asks a rule set's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from wtforms import BooleanField  # type: ignore[import-untyped]

from scorer.engine.registry import RULESETS
from scorer.games import pots, views
from scorer.games.fields import HandFormBase, build_hand_form
from scorer.games.text import Lazy, _, _l
from scorer.words import GAME_NAMES


@dataclass(frozen=True)
class Option:
    """One house rule on the new-table form: its field's name, the rules key it writes, the field and its help."""

    name: str  # the form's field ("pv_pozo_stake"; Tresillo's are named as the rules)
    key: str  # the rules key of format.md ("pozo_stake")
    field: Callable[[], Any]  # makes the WTForms field (an unbound field), in the form's order
    help: Lazy | None = None  # one line under the control
    optional: bool = False  # blank means "none" (a number the table may leave out)

    def value(self, field: Any) -> Any:
        """What the form's field writes in the rules: a blank favour suit is none, a checkbox a boolean."""
        if self.key == "favor_suit":
            return field.data or None  # "ninguno"
        return bool(field.data) if isinstance(field, BooleanField) else field.data


class Game:
    """One rule set's pages, exports and sheet: the defaults every game shares (no ``if ruleset == …`` elsewhere)."""

    ruleset: str = ""  # the engine's rule-set name
    # --- the hand form: built for a table, read into a hand, filled from a stored hand
    hand_form_class: ClassVar[type[HandFormBase]] = HandFormBase
    hand_template: ClassVar[str] = "hand_game.html"  # Tresillo's is "hand_form.html"
    # --- the new-table form: this game's option fields, their defaults, its help line
    options: ClassVar[tuple[Option, ...]] = ()
    option_defaults: ClassVar[Mapping[str, Any]] = {}
    help: ClassVar[str | Lazy] = ""
    count_hint: ClassVar[str | Lazy] = ""  # after "se juega con N jugadores" when the count is wrong
    # --- what the table offers
    money: ClassVar[bool] = True  # tantos are worth money (bandos: tantos only)
    can_pass: ClassVar[bool] = True  # "Todos pasan" (bandos B2: no)
    closings: ClassVar[tuple[str, ...]] = ("repartir",)  # the closings it offers (R30); none: it ends by itself
    closing_rule: ClassVar[str] = "R30"  # the rule a refused closing names
    windowed: ClassVar[bool] = True  # its pages may be settled from a window of the latest hands
    evening: ClassVar[bool] = False  # ajustes, changes of player, "jugar hasta que se gane el plato" (R32, R33)
    result_filters: ClassVar[bool] = False  # the hand list filters by result (Tresillo's results)
    closed_words: ClassVar[str | Lazy] = _l("Partida cerrada: ya no se puede cambiar.")
    teams: ClassVar[bool] = False  # scores by team (bandos B1)
    # --- the CSV export (scorer.games.exports)
    pot_columns: ClassVar[tuple[str, ...]] = ("Plato",)
    game_columns: ClassVar[tuple[str, ...]] = ()
    # --- the sheet (scorer.sheet): the hand table's column of estuches (Tresillo) or matadores
    extras_header: ClassVar[str] = "Mat."
    # --- its templates and words (templates/games/<ruleset>/…): no template compares a rule-set name
    options_template: ClassVar[str] = ""  # the new-table form's fieldset of this game's rules
    seats_help: ClassVar[str | Lazy] = ""  # the new-table form: how the seats are filled
    show_name: ClassVar[bool] = True  # the table page names the game (not Tresillo, the app's own game)
    pot_panel: ClassVar[str] = ""  # the table page: plato, pozo and viuda, bote, teams
    cartulina_panel: ClassVar[str] = ""  # the table page: the cartulina of reserved puestas (Tresillo R18)
    over_panel: ClassVar[str] = ""  # the table page of a game that ended by itself (Ombre O6, bandos B4)
    closed_note: ClassVar[str | Lazy] = ""  # the table page once closed: where the pots went ("": R30's words)
    hand_state: ClassVar[str] = ""  # a hand's page: the state before and after it
    hand_fields: ClassVar[str] = ""  # hand_game.html: this game's fields
    summary_fields: ClassVar[tuple[tuple[str, str | Lazy], ...]] = ()  # hand_game.html: what "Revisa:" links
    alcalde: ClassVar[bool] = False  # with four players the dealer sits out (R3): said next to the dealer
    preview_heading: ClassVar[str | Lazy] = _l("Pagos de esta mano")
    preview_button: ClassVar[str | Lazy] = _l("Ver pagos")
    # what a hand not yet saved does, when the game says it itself (Tresillo: the plato); None: the shared one
    preview: Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any], int], Any] | None = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.ruleset}>"

    # ------------------------------------------------------------------ who plays

    @property
    def name(self) -> str:
        """Its name on the sheet and the pages ("Pozo y viuda")."""
        return GAME_NAMES.get(self.ruleset, self.ruleset)

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

    @property
    def option_fields(self) -> tuple[tuple[str, str], ...]:
        """(form field, rules key) of each of its options."""
        return tuple((option.name, option.key) for option in self.options)

    # ------------------------------------------------------------------ the hand form

    def hand_form(
        self, players: Sequence[str], dealer: int, rules: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> Any:
        """A hand form for a table whose hand ``dealer`` deals (``formdata``, ``hand``, ``revision``,
        ``deal``, ``table_revision``, ``front``: :func:`scorer.games.fields.build_hand_form`)."""
        return build_hand_form(self.hand_form_class, players, dealer, rules, **kwargs)

    # ------------------------------------------------------------------ the table's pages

    def over_words(self, ledger: Mapping[str, Any]) -> str:
        return _("La partida ha terminado (manos acordadas o meta alcanzada): no se anotan más manos.")

    def game_view(self, session: Mapping[str, Any], ledger: Mapping[str, Any], name: str) -> views.GameView:
        """Its own state for the table page (pots, teams, the end)."""
        return views.GameView(self.ruleset, name)

    def close_label(self, view: views.GameView) -> str:
        return _("Repartir y cerrar")

    def confirm_heading(self, view: views.GameView) -> str:
        """The question of the closing's confirmation page."""
        return _("¿Cerrar la partida?")

    def line(self, hand: Mapping[str, Any], entry: Mapping[str, Any], players: Sequence[str]) -> views.HandLine | None:
        """A hand's line, when the game words it itself; None: the shared line."""
        return None

    def result_text(self, hand: Mapping[str, Any], entry: Mapping[str, Any], players: Sequence[str], words: str) -> str:
        """The result on a hand's line: its word (Tresillo says who won and who gave codillo)."""
        return words

    def summary(
        self,
        session: Mapping[str, Any],
        hand: Mapping[str, Any],
        entry: Mapping[str, Any],
        previous: Mapping[str, Any] | None,
    ) -> str:
        """A hand in one sentence: who paid what into which pot."""
        return pots.pots_summary(entry, list(session.get("players", [])), self.ruleset)

    def state_words(self, entry: Mapping[str, Any], rules: Mapping[str, Any], players: Sequence[str]) -> str:
        """The pots (or scores) after a ledger entry, in a short line."""
        return ""

    def hand_view(self, session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> Any:
        """A hand's page: its facts, payments, and the state before and after it."""
        return pots.pots_hand_view(self, session, ledger, n)

    # ------------------------------------------------------------------ the CSV export

    def csv(self, players: Sequence[str], hands: Sequence[Mapping[str, Any]], ledger: Mapping[str, Any]) -> str | None:
        """The whole CSV when the game has columns of its own; None: the shared columns."""
        return None

    def pots(self, entry: Mapping[str, Any]) -> list[Any]:
        """The pot columns' cells after a hand."""
        return []

    def game_cells(self, hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[Any]:
        """The cells of its own columns for a hand."""
        return []

    # ------------------------------------------------------------------ the sheet

    def rules_lines(self, rules: Mapping[str, Any]) -> list[str]:
        """The table's options as sentences (defaults included, so the sheet is complete)."""
        return [f"{key}: {value}" for key, value in rules.items() if key != "ruleset"]


def given_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The options the table set: a null one is its default (format.md, "Every rule set")."""
    return {key: value for key, value in rules.items() if value is not None}


class OtherGame(Game):
    """A rule set the engine knows and no game module words: its options listed as they are (the sheet)."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
