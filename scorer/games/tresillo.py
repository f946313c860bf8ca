"""Tresillo on the web (rules/tresillo.md R1–R33): its hand form, its columns, its sheet lines.

The table page, hand page and preview of Tresillo (cartulina, plato, people R33) are the
shared view-models of :mod:`scorer.games.views`, which were written for it first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import BooleanField, RadioField
from wtforms.validators import Optional

from scorer import hand_fields
from scorer.engine.tresillo import OPTION_DEFAULTS
from scorer.games import exports
from scorer.games import views as present
from scorer.games.base import Game
from scorer.games.fields import (
    SUIT_PAIRS,
    TRICK_CHOICES,
    HandFormBase,
    WholeField,
    build_hand_form,
    options,
    show_reading,
)
from scorer.games.text import _, _l
from scorer.words import LANCE_WORDS

ESTUCHE_CHOICES = options([("", _l("no")), ("3", _l("3")), ("4", _l("4")), ("5", _l("5")), ("mas", _l("más"))])
OPTION_FIELDS = tuple((name, name) for name in OPTION_DEFAULTS)  # the form names them as the rules do


class HandForm(HandFormBase):
    """One hand. Choices that depend on the table (seats, lances) are set by :func:`hand_form`."""

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


def hand_form(players: Sequence[str], dealer: int, rules: Mapping[str, Any] | None = None, **kwargs: Any) -> HandForm:
    """A hand form for a table whose hand is dealt by ``dealer``; prefilled from ``hand`` when editing."""
    form: HandForm = build_hand_form(HandForm, players, dealer, rules, **kwargs)
    if form.lance.data is None:
        form.lance.data = "entrada"
    return form


def fill_hand_form(form: HandForm, hand: Mapping[str, Any]) -> None:
    """Prefill the form from a stored hand (editing)."""
    form.jugador.data = str(hand.get("jugador", "")) or None
    form.lance.data = str(hand.get("lance", "entrada"))
    form.trump.data = hand.get("trump")
    for seat, count in (hand.get("tricks") or {}).items():
        if int(seat) in form.seats:
            form.trick_field(int(seat)).data = str(count)
    for key in ("estuches", "contraestuches"):
        count = int(hand.get(key) or 0)
        if count:
            getattr(form, key).data = str(count) if count <= 5 else "mas"
            if count > 5:
                getattr(form, f"{key}_mas").data = count
    form.primeras.data = hand.get("primeras") or ""
    form.bola.data = hand.get("bola") or ""
    form.rendida.data = bool(hand.get("rendida"))
    form.defensor.data = str(hand.get("defensor") or "")


def hand_from_form(form: HandForm) -> dict[str, Any] | None:
    """The hand dict of format.md, or None with messages attached to the fields, in the page's language.

    Read by :func:`scorer.hand_fields.read_tresillo`, the very lines a phone with no network runs to
    show the payments offline. Two tricks counts are enough: the third is what is left of
    the nine (and shown on the form)."""
    lances = {c.value for c in form.lance.choices}
    reading = hand_fields.read_tresillo(lambda name: getattr(form, name).data, form.seats, lances, _)
    show_reading(form, reading)
    return reading.hand


# ------------------------------------------------------------------ view-models


def preview(session: Mapping[str, Any], ledger: Mapping[str, Any], entry: Mapping[str, Any], n: int) -> dict[str, Any]:
    """What a hand not yet saved does: its summary, its payments and the plato after it."""
    entries = ledger.get("hands", [])
    before = entries[n - 2].get("cartulina", []) if 2 <= n <= len(entries) + 1 else []
    names = present.names_at(session, ledger, n)  # R33: the people seated for that hand
    return {
        "summary": present.summary(entry, before, names),
        "transfers": present.transfer_lines(entry, names),
        "plato": present.plato_view(entry.get("plato"), entry.get("cartulina", []), present.seat_names(names)),
    }


# ------------------------------------------------------------------ the CSV export

GAME_COLUMNS = ("Estuches", "Contraestuches", "Primeras", "Bola")


def pots(entry: Mapping[str, Any]) -> list[Any]:
    plato = entry.get("plato")
    return [plato.get("amount", "") if isinstance(plato, Mapping) else ""]


def game_cells(hand: Mapping[str, Any], result: str, names: Mapping[int, str]) -> list[Any]:
    if not exports.played(hand):
        return [""] * len(GAME_COLUMNS)
    return [
        int(hand.get("estuches") or 0),
        int(hand.get("contraestuches") or 0),
        exports.primeras_cell(hand, result),
        exports.bola_cell(hand, result),
    ]


GAME = Game(
    ruleset="tresillo",
    hand_form=hand_form,
    hand_template="hand_form.html",
    option_fields=OPTION_FIELDS,
    option_defaults=OPTION_DEFAULTS,
    help=_l("Plato y cartulina con puestas reservadas. 3 o 4 jugadores."),
    closings=("devolver", "repartir"),  # R30
    evening=True,  # R32 ajuste, R33 cambio de jugador, play until the plato is won
    result_filters=True,
    closed_words=_l("Partida cerrada: el plato se ha devuelto y ya no se puede cambiar."),
    close_label=lambda view: _("Cerrar la partida"),
    result_phrase=True,
    hand_view=present.hand_view,  # cartulina, plato, people (R33)
    preview=preview,
    pot_columns=("Plato",),
    pots=pots,
    game_columns=GAME_COLUMNS,
    game_cells=game_cells,
    options_template="games/tresillo/options.html",
    seats_help=_l("Se juega de un asiento al siguiente. Deja el cuarto vacío si sois tres."),
    show_name=False,
    pot_panel="games/tresillo/pot.html",
    cartulina_panel="games/tresillo/cartulina.html",
    hand_state="games/tresillo/hand_state.html",
    alcalde=True,  # R3
)
