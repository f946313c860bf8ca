"""The peña's forms: a new peña, a person, the players of a new table, attaching a table."""

from __future__ import annotations

from typing import Any

from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, StringField, SubmitField, TextAreaField
from wtforms.validators import Length, Optional

from scorer import store
from scorer.games import seat_label
from scorer.store import penas as ps
from scorer.store.models import Pena
from scorer.web.common.forms import game_choices
from scorer.web.common.pena_tables import SEATS


class NewPenaForm(FlaskForm):
    request_id = HiddenField()  # the same form sent twice makes one peña
    name = StringField(_l("Nombre de la peña"), validators=[Optional(), Length(max=ps.NAME_MAX)])
    people = TextAreaField(
        _l("Personas (una por línea; el apodo tras una barra: «Roberto / Berto»)"),
        validators=[Optional(), Length(max=5000)],
    )
    submit = SubmitField(_l("Crear la peña"))

    def roster(self) -> list[tuple[str, str | None]]:
        result = []
        for line in (self.people.data or "").splitlines():
            name, _sep, nick = line.partition("/")
            if name.strip():
                result.append((name.strip(), nick.strip() or None))
        return result


class PersonForm(FlaskForm):
    name = StringField(_l("Nombre"), validators=[Optional(), Length(max=ps.NAME_MAX)])
    nickname = StringField(_l("Apodo (opcional)"), validators=[Optional(), Length(max=ps.NAME_MAX)])
    submit = SubmitField(_l("Guardar"))


class PickForm(FlaskForm):
    """Players of a new table, in seat order, from the roster or new."""

    game = RadioField(_l("Juego"), choices=game_choices, default="tresillo")
    submit = SubmitField(_l("Seguir: reglas y empezar"))


def posted_seats() -> list[dict[str, Any]]:
    """The seats of the pick form, with what the POST chose for each (a person's id, or a new name)."""
    return [
        {
            "n": n,
            "label": seat_label(n),
            "chosen": request.form.get(f"seat{n}", ""),
            "new": request.form.get(f"new{n}", ""),
        }
        for n in range(1, SEATS + 1)
    ]


def read_pick(pena: Pena, seats: list[dict[str, Any]]) -> tuple[list[str], str | None]:
    """The names of the players in seat order, or what is wrong with them (in Spanish)."""
    names: list[str] = []
    error = None
    for seat in seats:
        name, problem = _seat_name(pena, seat)
        if problem is None:
            names.append(name)
        else:
            error = problem
    while names and not names[-1]:
        names.pop()
    return names, error or _names_problem(names)


def _seat_name(pena: Pena, seat: dict[str, Any]) -> tuple[str, str | None]:
    """The name at a seat: a new one written, a person of the roster, or empty."""
    new = " ".join(seat["new"].split())
    if new or not seat["chosen"]:
        return new, None
    try:
        return ps.person_of(pena, int(seat["chosen"])).name, None
    except (ValueError, store.NotFound):
        return "", _("Asiento %(n)s: esa persona no está en la peña.", n=seat["n"])


def _names_problem(names: list[str]) -> str | None:
    """Seats in a row, each person once, at least three."""
    if "" in names:
        return _("Los asientos van seguidos: no dejes uno vacío entre dos ocupados.")
    if len({ps.fold(n) for n in names}) < len(names):
        return _("La misma persona no puede sentarse dos veces.")
    if len(names) < 3:
        return _("Hacen falta al menos tres jugadores.")
    return None


class AttachForm(FlaskForm):
    link = StringField(_l("Enlace de la partida (o su código)"), validators=[Optional(), Length(max=300)])
    submit = SubmitField(_l("Buscar la partida"))


class ConfirmForm(FlaskForm):
    table = HiddenField()
    submit = SubmitField(_l("Añadir a la peña"))


class SeasonForm(FlaskForm):
    class Meta:
        csrf = False

    desde = StringField(_l("Desde"), validators=[Optional()])
    hasta = StringField(_l("Hasta"), validators=[Optional()])
