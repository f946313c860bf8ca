"""Pozo y viuda on the web (rules/pozo-viuda.md P1–P11): its hand form, pots, columns and sheet lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import RadioField

from scorer import hand_fields
from scorer.engine import pozo_viuda as rules_module
from scorer.games import exports
from scorer.games import views as present
from scorer.games.base import Game
from scorer.games.fields import SUIT_PAIRS, TRICK_CHOICES, GameHandForm, build_hand_form, options
from scorer.games.text import _, _l

MATADOR_CHOICES = options([(str(i), str(i)) for i in range(5)])
POZO_LANCES = ("juego", "volteo", "roben", "bola", "contrabola")
BLACK_SUITS = ("espadas", "bastos")


class PozoHandForm(GameHandForm):
    """A hand of pozo y viuda: jugador, lance, triunfo, matadores, bazas, primeras, bola."""

    ruleset = "pozo_viuda"
    jugador = RadioField(_l("Jugador"), choices=[], validate_choice=False)
    lance = RadioField(_l("Lance"), choices=[], default="juego", validate_choice=False)
    trump = RadioField(_l("Triunfo"), choices=options(SUIT_PAIRS), validate_choice=False)
    matadores = RadioField(_l("Matadores"), choices=MATADOR_CHOICES, default="0", validate_choice=False)
    tricks_1 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    tricks_2 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    tricks_3 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    tricks_4 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    primeras = RadioField(
        _l("Primeras"),
        choices=options([("", _l("no")), ("jugador", _l("del jugador (las cinco primeras bazas)"))]),
        default="",
        validate_choice=False,
    )
    bola = RadioField(
        _l("Bola tras las primeras"),
        choices=options([("", _l("no")), ("hecha", _l("hecha")), ("cortada", _l("cortada"))]),
        default="",
        validate_choice=False,
    )

    def setup(self, rules: Mapping[str, Any]) -> None:
        self.jugador.choices = options([(str(s), self.names[s]) for s in self.seats])
        admitted = bool(rules.get("contrabola", False))
        lances = [lance for lance in POZO_LANCES if lance != "contrabola" or admitted]
        self.lance.choices = options([(lance, lance) for lance in lances])

    def fill(self, hand: Mapping[str, Any]) -> None:
        self._fill_played(hand)
        self.matadores.data = str(hand.get("matadores") or 0)
        self.primeras.data = "jugador" if hand.get("primeras") == "jugador" else ""
        self.bola.data = hand.get("bola") or ""

    def to_hand(self) -> dict[str, Any] | None:
        """Read by :func:`scorer.hand_fields.read_pozo_viuda`, the very lines a phone with no network runs
        to show the payments offline."""
        lances = {c.value for c in self.lance.choices}
        reading = hand_fields.read_pozo_viuda(lambda name: getattr(self, name).data, self.seats, lances, _)
        return self.take(reading)


def hand_form(players: Sequence[str], dealer: int, rules: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
    return build_hand_form(PozoHandForm, players, dealer, rules, **kwargs)


def game_view(session: Mapping[str, Any], ledger: Mapping[str, Any], name: str) -> present.GameView:
    rules = session.get("rules") or {}
    players = list(session.get("players", []))
    return present.GameView("pozo_viuda", name, pozo=present.pozo_view(ledger, rules, len(players)))


def state_words(entry: Mapping[str, Any], rules: Mapping[str, Any], players: Sequence[str]) -> str:
    p = present.pozo_view(entry, rules, len(players))
    if p.reserves:
        reserves = " + ".join(str(r) for r in p.reserves)
        return _(
            "pozo %(pozo)s (+ reservas %(reserves)s), viuda %(viuda)s", pozo=p.amount, reserves=reserves, viuda=p.viuda
        )
    return _("pozo %(pozo)s, viuda %(viuda)s", pozo=p.amount, viuda=p.viuda)


def summary(session: Mapping[str, Any], hand: Mapping[str, Any], entry: Mapping[str, Any], previous: Any) -> str:
    return present.pots_summary(entry, list(session.get("players", [])), "pozo_viuda")


def pots(entry: Mapping[str, Any]) -> list[Any]:
    raw = entry.get("pozo")
    pozo: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    reserves = " + ".join(str(r) for r in pozo.get("reserves", []))
    return [pozo.get("amount", ""), reserves, entry.get("viuda", "")]


GAME_COLUMNS = ("Matadores", "Primeras", "Bola")


def game_cells(hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[Any]:
    if not exports.played(hand):
        return [""] * len(GAME_COLUMNS)
    return [int(hand.get("matadores") or 0), exports.primeras_cell(hand, result), exports.bola_cell(hand, result)]


GAME = Game(
    ruleset="pozo_viuda",
    hand_form=hand_form,
    hand_template="hand_game.html",
    option_fields=(
        ("pv_favor_suit", "favor_suit"),
        ("pv_pozo_stake", "pozo_stake"),
        ("pv_viuda_stake", "viuda_stake"),
        ("pv_pozo_cap", "pozo_cap"),
        ("pv_contrabola", "contrabola"),
    ),
    option_defaults=rules_module.OPTION_DEFAULTS,
    help=_l("Dos botes: el pozo, para quien gana, y la viuda, para las grandes jugadas. 3 o 4 jugadores."),
    closings=("repartir",),  # P11
    closed_words=_l("Partida cerrada: el pozo y la viuda se han repartido y ya no se puede cambiar."),
    game_view=game_view,
    summary=summary,
    state_words=state_words,
    pot_columns=("Pozo", "Reservas", "Viuda"),
    pots=pots,
    game_columns=GAME_COLUMNS,
    game_cells=game_cells,
    options_template="games/pozo_viuda/options.html",
    seats_help=_l("Se juega de un asiento al siguiente. Deja el cuarto vacío si sois tres."),
    pot_panel="games/pozo_viuda/pot.html",
    closed_note=_l("El pozo y la viuda se repartieron entre todos; ya no se puede cambiar."),  # P11
    hand_state="games/_pots_state.html",
    hand_fields="games/pozo_viuda/hand_fields.html",
    summary_fields=(
        ("jugador", _l("jugador")),
        ("lance", _l("lance")),
        ("trump", _l("triunfo")),
        ("matadores", _l("matadores")),
        ("tricks", _l("bazas")),
        ("primeras", _l("primeras")),
        ("bola", _l("bola")),
    ),
    alcalde=True,  # R3, as in Tresillo
)
