"""Ombre sencillo on the web (rules/ombre.md O1–O7): its hand form, bote, columns and sheet lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import RadioField

from scorer import hand_fields
from scorer.engine import ombre as rules_module
from scorer.games import exports
from scorer.games import views as present
from scorer.games.base import Game
from scorer.games.fields import SUIT_PAIRS, TRICK_CHOICES, GameHandForm, build_hand_form, options
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


def hand_form(players: Sequence[str], dealer: int, rules: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
    return build_hand_form(OmbreHandForm, players, dealer, rules, **kwargs)


def game_view(session: Mapping[str, Any], ledger: Mapping[str, Any], name: str) -> present.GameView:
    rules = session.get("rules") or {}
    return present.GameView(
        "ombre",
        name,
        bote=int(ledger.get("bote", 0)),
        deals_played=present.deals_played(ledger),
        deals=rules.get("deals"),
        target=rules.get("target"),
        over=bool(ledger.get("over")),
        can_close=not ledger.get("over"),  # O6: once over nothing follows, not even the closing (the bote stays)
    )


def close_label(view: Any) -> str:
    if view.over:
        return _("Repartir el bote y cerrar") if view.bote else _("Cerrar la partida")
    return _("Repartir y cerrar")


def confirm_heading(view: Any) -> str:
    """O7: once the game is over, closing shares what is left in the bote."""
    return _("¿Repartir el bote y cerrar?") if view.over and view.bote else _("¿Cerrar la partida?")


def state_words(entry: Mapping[str, Any], rules: Mapping[str, Any], players: Sequence[str]) -> str:
    bote = _("bote %(amount)s", amount=int(entry.get("bote", 0)))
    return bote + (" · " + _("partida terminada") if entry.get("over") else "")


def summary(session: Mapping[str, Any], hand: Mapping[str, Any], entry: Mapping[str, Any], previous: Any) -> str:
    return present.pots_summary(entry, list(session.get("players", [])), "ombre")


def game_cells(hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[Any]:
    return [exports.name_cell(names, hand.get("matadores_en")) if exports.played(hand) else ""]


GAME = Game(
    ruleset="ombre",
    hand_form=hand_form,
    hand_template="hand_game.html",
    option_fields=(
        ("om_stake", "stake"),
        ("om_solo_stake", "solo_stake"),
        ("om_vole_bonus", "vole_bonus"),
        ("om_matador_bonus", "matador_bonus"),
        ("om_outcome", "outcome"),
        ("om_codille", "codille"),
        ("om_deals", "deals"),
        ("om_target", "target"),
    ),
    option_defaults=rules_module.OPTION_DEFAULTS,
    help=_l("Pagos fijos y un bote que llenan las puestas; el codillo se paga doble. Exactamente 3 jugadores."),
    closings=("repartir",),  # O7
    closed_words=_l("Partida cerrada: el bote se ha repartido y ya no se puede cambiar."),
    game_view=game_view,
    close_label=close_label,
    summary=summary,
    state_words=state_words,
    pot_columns=("Bote",),
    pots=lambda entry: [entry.get("bote", "")],
    game_columns=("Matadores en",),
    game_cells=game_cells,
    options_template="games/ombre/options.html",
    seats_help=_l("Ombre sencillo: exactamente tres jugadores."),
    pot_panel="games/ombre/pot.html",
    over_panel="games/ombre/over.html",
    closed_note=_l("El bote se repartió entre todos; ya no se puede cambiar."),  # O7
    confirm_heading=confirm_heading,
    hand_state="games/_pots_state.html",
    hand_fields="games/ombre/hand_fields.html",
    summary_fields=(
        ("jugador", _l("jugador")),
        ("trump", _l("triunfo")),
        ("lance", _l("lance")),
        ("tricks", _l("bazas")),
        ("matadores_en", _l("matadores")),
    ),
)
