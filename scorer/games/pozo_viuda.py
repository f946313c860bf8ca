"""Pozo y viuda (rules/pozo-viuda.md P1–P11): its hand form, house rules, pots, columns and sheet lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import BooleanField, RadioField  # type: ignore[import-untyped]
from wtforms.validators import Optional  # type: ignore[import-untyped]

from scorer import hand_fields
from scorer.engine import pozo_viuda as rules_module
from scorer.games import exports, views
from scorer.games.base import Game, Option, given_rules
from scorer.games.fields import SUIT_PAIRS, TRICK_CHOICES, GameHandForm, WholeField, between, options
from scorer.games.text import _, _l
from scorer.words import suit_text

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


OPTIONS = (
    Option(
        "pv_favor_suit",
        "favor_suit",
        lambda: RadioField(
            "Palo de favor",
            choices=options(SUIT_PAIRS),
            default="oros",
            validate_choice=False,  # P: always one (null = oros)
        ),
        _l("Con triunfo de este palo la mano es «a favor»: los matadores cuentan doble y el roben vale 20."),
    ),
    Option(
        "pv_pozo_stake",
        "pozo_stake",
        lambda: WholeField(_l("Puesta al pozo"), default=5, validators=[Optional(), between(1, 1000, "P1")]),
        _l("Lo que pone cada jugador en el pozo al empezar, cuando se vacía y cuando todos pasan."),
    ),
    Option(
        "pv_viuda_stake",
        "viuda_stake",
        lambda: WholeField(_l("Puesta a la viuda"), default=25, validators=[Optional(), between(1, 1000, "P1")]),
        _l("Lo que pone cada jugador en la viuda al empezar y cada vez que alguien se la lleva."),
    ),
    Option(
        "pv_pozo_cap",
        "pozo_cap",
        lambda: WholeField(_l("Tope del pozo (en puestas)"), default=4, validators=[Optional(), between(1, 100, "P4")]),
        _l("El pozo guarda como mucho esto × la puesta × los jugadores; lo que sobra va a pozos de reserva."),
    ),
    Option(
        "pv_contrabola",
        "contrabola",
        lambda: BooleanField(_l("Contrabola"), default=False),
        _l("Se admite la contrabola (no hacer ninguna baza), declarada solo cuando todos han pasado."),
    ),
)


class PozoViuda(Game):
    """Two pots: the pozo, for whoever wins, and the viuda, for the great plays; 3 or 4 players."""

    ruleset = "pozo_viuda"
    hand_form_class = PozoHandForm
    options = OPTIONS
    option_defaults = rules_module.OPTION_DEFAULTS
    help = _l("Dos botes: el pozo, para quien gana, y la viuda, para las grandes jugadas. 3 o 4 jugadores.")
    closings = ("repartir",)  # P11
    closing_rule = "P11"
    closed_words = _l("Partida cerrada: el pozo y la viuda se han repartido y ya no se puede cambiar.")
    pot_columns = ("Pozo", "Reservas", "Viuda")
    game_columns = ("Matadores", "Primeras", "Bola")
    options_template = "games/pozo_viuda/options.html"
    seats_help = _l("Se juega de un asiento al siguiente. Deja el cuarto vacío si sois tres.")
    pot_panel = "games/pozo_viuda/pot.html"
    closed_note = _l("El pozo y la viuda se repartieron entre todos; ya no se puede cambiar.")  # P11
    hand_state = "games/_pots_state.html"
    hand_fields = "games/pozo_viuda/hand_fields.html"
    summary_fields = (
        ("jugador", _l("jugador")),
        ("lance", _l("lance")),
        ("trump", _l("triunfo")),
        ("matadores", _l("matadores")),
        ("tricks", _l("bazas")),
        ("primeras", _l("primeras")),
        ("bola", _l("bola")),
    )
    alcalde = True  # R3, as in Tresillo

    def game_view(self, session: Mapping[str, Any], ledger: Mapping[str, Any], name: str) -> views.GameView:
        rules = session.get("rules") or {}
        players = list(session.get("players", []))
        return views.GameView(self.ruleset, name, pozo=views.pozo_view(ledger, rules, len(players)))

    def state_words(self, entry: Mapping[str, Any], rules: Mapping[str, Any], players: Sequence[str]) -> str:
        p = views.pozo_view(entry, rules, len(players))
        if p.reserves:
            reserves = " + ".join(str(r) for r in p.reserves)
            return _(
                "pozo %(pozo)s (+ reservas %(reserves)s), viuda %(viuda)s",
                pozo=p.amount,
                reserves=reserves,
                viuda=p.viuda,
            )
        return _("pozo %(pozo)s, viuda %(viuda)s", pozo=p.amount, viuda=p.viuda)

    def pots(self, entry: Mapping[str, Any]) -> list[Any]:
        raw = entry.get("pozo")
        pozo: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        reserves = " + ".join(str(r) for r in pozo.get("reserves", []))
        return [pozo.get("amount", ""), reserves, entry.get("viuda", "")]

    def game_cells(self, hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[Any]:
        if not exports.played(hand):
            return [""] * len(self.game_columns)
        return [int(hand.get("matadores") or 0), exports.primeras_cell(hand, result), exports.bola_cell(hand, result)]

    def rules_lines(self, rules: Mapping[str, Any]) -> list[str]:
        r = given_rules(rules)
        favor = r.get("favor_suit") or "oros"  # null = absent = oros (P: always a favour suit)
        return [
            _("Palo de favor: %(suit)s.", suit=suit_text(favor)) if favor else _("Sin palo de favor."),
            _(
                "Cada jugador pone %(pozo)s en el pozo y %(viuda)s en la viuda.",
                pozo=r.get("pozo_stake", 5),
                viuda=r.get("viuda_stake", 25),
            ),
            _("El pozo tiene como máximo %(cap)s veces lo que ponen todos.", cap=r.get("pozo_cap", 4)),
            _("Se admite la contrabola.") if r.get("contrabola", False) else _("No se admite la contrabola."),
        ]
