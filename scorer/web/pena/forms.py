"""The peña's forms: a new peña, a person, the players of a new table, attaching a table."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, StringField, SubmitField, TextAreaField
from wtforms.validators import Length, Optional

from scorer.store import penas as ps
from scorer.web.forms import game_choices


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
