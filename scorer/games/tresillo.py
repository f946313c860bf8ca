"""Tresillo (rules/tresillo.md R1–R34): its hand form, house rules, preview, columns and sheet lines.

The table page, hand page and preview of Tresillo (cartulina, plato, people R33) are the
shared view-models of :mod:`scorer.games.views`, which were written for it first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import BooleanField, RadioField  # type: ignore[import-untyped]
from wtforms.validators import Optional  # type: ignore[import-untyped]

from scorer import hand_fields
from scorer.engine.tresillo import OPTION_DEFAULTS
from scorer.games import exports, tresillo_views, views
from scorer.games.base import Game, Option, given_rules
from scorer.games.fields import (
    REQUIRED,
    SUIT_PAIRS,
    TRICK_CHOICES,
    HandFormBase,
    RuleChoice,
    WholeField,
    between,
    options,
    show_reading,
)
from scorer.games.text import _, _l
from scorer.words import LANCE_WORDS, suit_text

ESTUCHE_CHOICES = options([("", _l("no")), ("3", _l("3")), ("4", _l("4")), ("5", _l("5")), ("mas", _l("más"))])


class HandForm(HandFormBase):
    """One hand. Choices that depend on the table (seats, lances) are set by :meth:`Tresillo.hand_form`."""

    jugador = RadioField(_l("Jugador"), choices=[], validate_choice=False)
    lance = RadioField(_l("Lance"), choices=[], default="entrada", validate_choice=False)
    trump = RadioField(_l("Triunfo"), choices=options(SUIT_PAIRS), validate_choice=False)
    tricks_1 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    tricks_2 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    tricks_3 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    tricks_4 = RadioField(_l("Bazas"), choices=TRICK_CHOICES, validate_choice=False)
    estuches = RadioField(_l("Estuches"), choices=ESTUCHE_CHOICES, default="", validate_choice=False)
    estuches_mas = WholeField(_l("¿Cuántos estuches?"), validators=[Optional()])
    contraestuches = RadioField(_l("Contraestuches"), choices=ESTUCHE_CHOICES, default="", validate_choice=False)
    contraestuches_mas = WholeField(_l("¿Cuántos contraestuches?"), validators=[Optional()])
    primeras = RadioField(
        _l("Primeras"),
        choices=options([("", _l("no")), ("jugador", _l("del jugador")), ("contra", _l("de la contra"))]),
        default="",
        validate_choice=False,
    )
    bola = RadioField(
        _l("Bola"),
        choices=options([("", _l("no")), ("hecha", _l("hecha")), ("cortada", _l("cortada"))]),
        default="",
        validate_choice=False,
    )
    rendida = BooleanField(_l("Rendida"))
    defensor = RadioField(_l("Defensor"), choices=[], default="", validate_choice=False)

    def setup(self, rules: Mapping[str, Any]) -> None:
        self.jugador.choices = options([(str(s), self.names[s]) for s in self.seats])
        lances = [lance for lance in LANCE_WORDS if lance != "vuelta_solera" or rules.get("vuelta_solera", True)]
        self.lance.choices = options([(lance, LANCE_WORDS[lance]) for lance in lances])
        self.defensor.choices = options([("", _l("nadie")), *((str(s), self.names[s]) for s in self.seats)])

    def fill(self, hand: Mapping[str, Any]) -> None:
        fill_hand_form(self, hand)

    def to_hand(self) -> dict[str, Any] | None:
        return hand_from_form(self)


def fill_hand_form(form: HandForm, hand: Mapping[str, Any]) -> None:
    """Prefill the form from a stored hand (editing)."""
    form.jugador.data = str(hand.get("jugador", "")) or None
    form.lance.data = str(hand.get("lance", "entrada"))
    form.trump.data = hand.get("trump")
    for seat, count in (hand.get("tricks") or {}).items():
        if int(seat) in form.seats:
            form.trick_field(int(seat)).data = str(count)
    for key in ("estuches", "contraestuches"):
        _fill_count(form, key, int(hand.get(key) or 0))
    form.primeras.data = hand.get("primeras") or ""
    form.bola.data = hand.get("bola") or ""
    form.rendida.data = bool(hand.get("rendida"))
    form.defensor.data = str(hand.get("defensor") or "")


def _fill_count(form: HandForm, key: str, count: int) -> None:
    """Estuches or contraestuches: 3, 4, 5 as they are, more as "más" with the count beside it."""
    if count > 5:
        getattr(form, key).data = "mas"
        getattr(form, f"{key}_mas").data = count
    elif count:
        getattr(form, key).data = str(count)


def hand_from_form(form: HandForm) -> dict[str, Any] | None:
    """The hand dict of format.md, or None with messages attached to the fields, in the page's language.

    Read by :func:`scorer.hand_fields.read_tresillo`, the very lines a phone with no network runs to
    show the payments offline. Two tricks counts are enough: the third is what is left of
    the nine (and shown on the form)."""
    lances = {c.value for c in form.lance.choices}
    reading = hand_fields.read_tresillo(lambda name: getattr(form, name).data, form.seats, lances, _)
    show_reading(form, reading)
    return reading.hand


# ------------------------------------------------------------------ the new-table form's house rules

OPTIONS = (  # the form names them as the rules do
    Option(
        "favor_suit",
        "favor_suit",
        lambda: RuleChoice(
            _l("Palo de favor"), choices=options([("", _l("ninguno")), *SUIT_PAIRS]), default="", rule="R15"
        ),
    ),
    Option(
        "vuelta_solera",
        "vuelta_solera",
        lambda: BooleanField(_l("Vuelta solera"), default=True),
        _l("Se admite la vuelta solera (20 tantos por participante, como el solo)."),
    ),
    Option(
        "dealer_stake",
        "dealer_stake",
        lambda: WholeField(_l("Puesta del que da"), default=5, validators=[REQUIRED, between(0, 1000, "R5")]),
        _l("Tantos que pone en el plato el que da, en cada mano (también si todos pasan)."),
    ),
    Option(
        "enchilada",
        "enchilada",
        lambda: WholeField(_l("Enchilada"), default=0, validators=[REQUIRED, between(0, 1000, "R6")]),
        _l("Si el plato no tiene puesta, el que da pone además esto (0 = sin enchilada)."),
    ),
    Option(
        "rounding",
        "rounding",
        lambda: WholeField(_l("Redondeo"), default=5, validators=[REQUIRED, between(1, 100, "R14")]),
        _l("Cada pago se redondea hacia arriba a un múltiplo de esto (1 = sin redondeo)."),
    ),
    Option(
        "favor_doubling",
        "favor_doubling",
        lambda: RuleChoice(
            _l("Doblar a favor"),
            choices=options(
                [("double_rounded", _l("redondear y doblar")), ("round_doubled", _l("doblar y redondear"))]
            ),
            default="double_rounded",
            rule="R15",
        ),
        _l("A favor se dobla: el pago ya redondeado, o la suma antes de redondear."),
    ),
    Option(
        "vuelta_at_favor",
        "vuelta_at_favor",
        lambda: BooleanField(_l("Vuelta a favor"), default=True),
        _l("Una vuelta que descubre el palo de favor también es a favor."),
    ),
    Option(
        "solo_codillo",
        "solo_codillo",
        lambda: RuleChoice(
            _l("Solo perdido por codillo"),
            choices=options(
                [("codillo_only", _l("solo el codillo")), ("codillo_and_conditions", _l("codillo y condiciones"))]
            ),
            default="codillo_only",
            rule="R24",
        ),
        _l("Solo o vuelta solera perdido por codillo: solo el codillo, sin puesta, o también las condiciones."),
    ),
    Option(
        "failed_bola",
        "failed_bola",
        lambda: RuleChoice(
            _l("Bola cortada"),
            choices=options([("pays_bola", _l("paga la bola")), ("free", _l("no paga"))]),
            default="pays_bola",
            rule="R19",
        ),
        _l("Bola cortada: el jugador paga la bola (100) a cada uno, o no paga nada."),
    ),
)


def _rules_lines(rules: Mapping[str, Any]) -> list[str]:
    """The table's options as sentences in Spanish (defaults included, so the sheet is complete)."""
    r = given_rules(rules)
    favor = r.get("favor_suit")
    enchilada = r.get("enchilada", 0)
    rounding = r.get("rounding", 5)
    return [
        _("Palo de favor: %(suit)s.", suit=suit_text(favor)) if favor else _("Sin palo de favor."),
        _("El que da pone %(stake)s en el plato cada mano.", stake=r.get("dealer_stake", 5)),
        _("Enchilada de %(amount)s.", amount=enchilada) if enchilada else _("Sin enchilada."),
        _("Se redondea al alza a múltiplos de %(rounding)s.", rounding=rounding)
        if rounding and rounding > 1
        else _("Sin redondeo."),
        # said without a favour suit too: the table may name one during the evening (R34)
        _("A favor se dobla lo ya redondeado.")
        if r.get("favor_doubling", "double_rounded") == "double_rounded"
        else _("A favor se redondea el doble."),
        _("Una vuelta al palo de favor es a favor.")
        if r.get("vuelta_at_favor", True)
        else _("Una vuelta al palo de favor no es a favor."),
        _("Se admite la vuelta solera.") if r.get("vuelta_solera", True) else _("No se admite la vuelta solera."),
        _("Solo o vuelta solera con codillo: paga el codillo y las condiciones.")
        if r.get("solo_codillo", "codillo_only") == "codillo_and_conditions"
        else _("Solo o vuelta solera con codillo: paga solo el codillo, sin puesta."),
        _("Bola cortada: el jugador paga la bola.")
        if r.get("failed_bola", "pays_bola") == "pays_bola"
        else _("Bola cortada: no se paga la bola."),
    ]


# ------------------------------------------------------------------ the game


class Tresillo(Game):
    """The app's own game: plato and cartulina of reserved puestas, 3 or 4 players, the evening's ajustes."""

    ruleset = "tresillo"
    hand_form_class = HandForm
    hand_template = "hand_form.html"
    options = OPTIONS
    option_defaults = OPTION_DEFAULTS
    help = _l("Plato y cartulina con puestas reservadas. 3 o 4 jugadores.")
    closings = ("devolver", "repartir")  # R30
    evening = True  # R32 ajuste, R33 cambio de jugador, play until the plato is won
    result_filters = True
    closed_words = _l("Partida cerrada: el plato se ha devuelto y ya no se puede cambiar.")
    pot_columns = ("Plato",)
    game_columns = ("Estuches", "Contraestuches", "Primeras", "Bola")
    extras_header = "Est."
    options_template = "games/tresillo/options.html"
    seats_help = _l("Se juega de un asiento al siguiente. Deja el cuarto vacío si sois tres.")
    show_name = False
    pot_panel = "games/tresillo/pot.html"
    cartulina_panel = "games/tresillo/cartulina.html"
    hand_state = "games/tresillo/hand_state.html"
    alcalde = True  # R3

    def hand_form(
        self, players: Sequence[str], dealer: int, rules: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> Any:
        form = super().hand_form(players, dealer, rules, **kwargs)
        if form.lance.data is None:
            form.lance.data = "entrada"
        return form

    def close_label(self, view: views.GameView) -> str:
        return _("Cerrar la partida")

    def result_text(self, hand: Mapping[str, Any], entry: Mapping[str, Any], players: Sequence[str], words: str) -> str:
        return tresillo_views.result_phrase(hand, entry, players)

    def hand_view(self, session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> Any:
        """Cartulina, plato, people (R33)."""
        return tresillo_views.hand_view(session, ledger, n)

    def preview(
        self, session: Mapping[str, Any], ledger: Mapping[str, Any], entry: Mapping[str, Any], n: int
    ) -> dict[str, Any]:
        """What a hand not yet saved does: its summary, its payments and the plato after it."""
        entries = ledger.get("hands", [])
        before = entries[n - 2].get("cartulina", []) if 2 <= n <= len(entries) + 1 else []
        names = views.names_at(session, ledger, n)  # R33: the people seated for that hand
        return {
            "summary": tresillo_views.summary(entry, before, names),
            "transfers": views.transfer_lines(entry, names),
            "plato": tresillo_views.plato_view(entry.get("plato"), entry.get("cartulina", []), views.seat_names(names)),
        }

    def pots(self, entry: Mapping[str, Any]) -> list[Any]:
        plato = entry.get("plato")
        return [plato.get("amount", "") if isinstance(plato, Mapping) else ""]

    def game_cells(self, hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[Any]:
        if not exports.played(hand):
            return [""] * len(self.game_columns)
        return [
            int(hand.get("estuches") or 0),
            int(hand.get("contraestuches") or 0),
            exports.primeras_cell(hand, result),
            exports.bola_cell(hand, result),
        ]

    def rules_lines(self, rules: Mapping[str, Any]) -> list[str]:
        return _rules_lines(rules)
