"""Ombre sencillo (rules/ombre.md O1–O7): its hand form, house rules, bote, columns and sheet lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import RadioField  # type: ignore[import-untyped]
from wtforms.validators import Optional  # type: ignore[import-untyped]

from scorer import hand_fields
from scorer.engine import ombre as rules_module
from scorer.games import exports, views
from scorer.games.base import Game, Option, given_rules
from scorer.games.fields import SUIT_PAIRS, TRICK_CHOICES, GameHandForm, RuleChoice, WholeField, between, options
from scorer.games.text import _, _l

OMBRE_LANCES = hand_fields.OMBRE_LANCES


class OmbreHandForm(GameHandForm):
    """A hand of Ombre sencillo: jugador (el hombre), lance, triunfo, bazas, quién tuvo los tres matadores."""

    ruleset = "ombre"
    jugador = RadioField(_l("Jugador"), choices=[], validate_choice=False)
    lance = RadioField(
        "Lance", choices=options([(w, w) for w in OMBRE_LANCES]), default="entrada", validate_choice=False
    )
    trump = RadioField(_l("Triunfo"), choices=options(SUIT_PAIRS), validate_choice=False)
    tricks_1 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    tricks_2 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    tricks_3 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    matadores_en = RadioField(_l("Los tres matadores"), choices=[], default="", validate_choice=False)

    def setup(self, rules: Mapping[str, Any]) -> None:
        self.jugador.choices = options([(str(s), self.names[s]) for s in self.seats])
        self.matadores_en.choices = options([("", _l("nadie")), *((str(s), self.names[s]) for s in self.seats)])

    def fill(self, hand: Mapping[str, Any]) -> None:
        self._fill_played(hand)
        self.matadores_en.data = str(hand.get("matadores_en") or "")

    def to_hand(self) -> dict[str, Any] | None:
        """Read by :func:`scorer.hand_fields.read_ombre`, the very lines a phone with no network runs."""
        return self.take(hand_fields.read_ombre(lambda name: getattr(self, name).data, self.seats, _))


OPTIONS = (
    Option(
        "om_stake",
        "stake",
        lambda: WholeField(_l("Pago de entrada y vuelta"), default=10, validators=[Optional(), between(1, 1000, "O2")]),
        _l("Lo que paga cada defensor al hombre que gana una entrada o una vuelta."),
    ),
    Option(
        "om_solo_stake",
        "solo_stake",
        lambda: WholeField(_l("Pago del solo"), default=20, validators=[Optional(), between(1, 1000, "O2")]),
        _l("Lo que paga cada defensor al hombre que gana un solo."),
    ),
    Option(
        "om_vole_bonus",
        "vole_bonus",
        lambda: WholeField(
            _l("Premio del vole (9 bazas)"), default=10, validators=[Optional(), between(0, 1000, "O2")]
        ),
        _l("Además, de cada defensor, cuando el hombre hace las nueve bazas."),
    ),
    Option(
        "om_matador_bonus",
        "matador_bonus",
        lambda: WholeField(_l("Premio de matadores"), default=5, validators=[Optional(), between(0, 1000, "O5")]),
        _l("Lo que cobra del bote quien tuvo espadilla, malilla y basto juntos."),
    ),
    Option(
        "om_outcome",
        "outcome",
        lambda: RuleChoice(
            _l("Quién gana la mano"),
            choices=options([("majority_five", _l("5 bazas")), ("most_tricks", _l("más bazas que cada defensor"))]),
            default="majority_five",
            rule="O2",
        ),
        _l("Gana el hombre con 5 bazas (4-3-2 es puesta) o con más bazas que cada defensor (4-3-2 gana)."),
    ),
    Option(
        "om_codille",
        "codille",
        lambda: RuleChoice(
            _l("Pago del codillo"),
            choices=options([("double_sacada", _l("dos sacadas")), ("double_stake", _l("doble de la puesta"))]),
            default="double_sacada",
            rule="O4",
        ),
        _l("Codillo: el defensor que gana cobra dos sacadas de cada uno (4 × la puesta) o solo el doble de la puesta."),
    ),
    Option(
        "om_deals",
        "deals",
        lambda: WholeField(_l("Manos de la partida"), validators=[Optional(), between(1, 1000, "O6")]),
        _l("Número de manos que dura la partida (6, 12, 24…). Vacío: sin límite."),
        optional=True,
    ),
    Option(
        "om_target",
        "target",
        lambda: WholeField(
            _l("Meta (saldo que acaba la partida)"), validators=[Optional(), between(1, 1_000_000, "O6")]
        ),
        _l("La partida acaba cuando un jugador llega a este saldo. Vacío: sin meta."),
        optional=True,
    ),
)


class Ombre(Game):
    """Fixed payments and a bote the stakes fill; the codillo pays double. Exactly 3 players."""

    ruleset = "ombre"
    hand_form_class = OmbreHandForm
    options = OPTIONS
    option_defaults = rules_module.OPTION_DEFAULTS
    help = _l("Pagos fijos y un bote que llenan las puestas; el codillo se paga doble. Exactamente 3 jugadores.")
    closings = ("repartir",)  # O7
    closing_rule = "O7"
    windowed = False  # O6: a game of N deals or up to a target reads its whole history
    closed_words = _l("Partida cerrada: el bote se ha repartido y ya no se puede cambiar.")
    pot_columns = ("Bote",)
    game_columns = ("Matadores en",)
    options_template = "games/ombre/options.html"
    seats_help = _l("Ombre sencillo: exactamente tres jugadores.")
    pot_panel = "games/ombre/pot.html"
    over_panel = "games/ombre/over.html"
    closed_note = _l("El bote se repartió entre todos; ya no se puede cambiar.")  # O7
    hand_state = "games/_pots_state.html"
    hand_fields = "games/ombre/hand_fields.html"
    summary_fields = (
        ("jugador", _l("jugador")),
        ("trump", _l("triunfo")),
        ("lance", _l("lance")),
        ("tricks", _l("bazas")),
        ("matadores_en", _l("matadores")),
    )

    def game_view(self, session: Mapping[str, Any], ledger: Mapping[str, Any], name: str) -> views.GameView:
        rules = session.get("rules") or {}
        return views.GameView(
            self.ruleset,
            name,
            bote=int(ledger.get("bote", 0)),
            deals_played=views.deals_played(ledger),
            deals=rules.get("deals"),
            target=rules.get("target"),
            over=bool(ledger.get("over")),
            can_close=not ledger.get("over"),  # O6: once over nothing follows, not even the closing (the bote stays)
        )

    def close_label(self, view: views.GameView) -> str:
        if view.over:
            return _("Repartir el bote y cerrar") if view.bote else _("Cerrar la partida")
        return _("Repartir y cerrar")

    def confirm_heading(self, view: views.GameView) -> str:
        """O7: once the game is over, closing shares what is left in the bote."""
        return _("¿Repartir el bote y cerrar?") if view.over and view.bote else _("¿Cerrar la partida?")

    def state_words(self, entry: Mapping[str, Any], rules: Mapping[str, Any], players: Sequence[str]) -> str:
        bote = _("bote %(amount)s", amount=int(entry.get("bote", 0)))
        return bote + (" · " + _("partida terminada") if entry.get("over") else "")

    def pots(self, entry: Mapping[str, Any]) -> list[Any]:
        return [entry.get("bote", "")]

    def game_cells(self, hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[Any]:
        return [exports.name_cell(names, hand.get("matadores_en")) if exports.played(hand) else ""]

    def rules_lines(self, rules: Mapping[str, Any]) -> list[str]:
        r = given_rules(rules)
        lines = [
            _(
                "Sacada: %(stake)s de cada uno (%(solo)s un solo).",
                stake=r.get("stake", 10),
                solo=r.get("solo_stake", 20),
            ),
            _("Todas las bazas: %(bonus)s más de cada uno.", bonus=r.get("vole_bonus", 10)),
            _("Matadores: %(bonus)s del bote.", bonus=r.get("matador_bonus", 5)),
            _("Gana el hombre con más bazas que cada defensor (4-3-2 gana).")
            if r.get("outcome", "majority_five") == "most_tricks"
            else _("Gana el hombre con 5 bazas; 4-3-2 es puesta."),
            _("Codillo: el doble de la puesta de cada uno.")
            if r.get("codille", "double_sacada") == "double_stake"
            else _("Codillo: dos sacadas de cada uno (4 × la puesta)."),  # O4
        ]
        if r.get("deals"):
            lines.append(_("La partida dura %(deals)s manos.", deals=r["deals"]))
        if r.get("target"):
            lines.append(_("La partida acaba al llegar a %(target)s.", target=r["target"]))
        return lines
