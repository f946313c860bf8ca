"""HTML forms (Flask-WTF) and their mappers: form → session dict, form ⇄ hand dict of format.md."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from babel.lists import format_list
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    DateField,
    HiddenField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional, ValidationError

from scorer import limits, words
from scorer.catalogs import language_or_default
from scorer.engine import RULESETS
from scorer.engine.core import SESSION_FORMAT
from scorer.games import Game, all_games, game_of
from scorer.games.fields import (
    HandFormBase,
    options,
)
from scorer.web.common import messages
from scorer.web.common.i18n import LANGUAGE_NAMES, LANGUAGES, current_language
from scorer.words import GAME_NAMES, known_timezone, parse_decimal

# Spanish names of the rule sets a table can choose ("Juego"); a rule set registered
# in scorer.engine.registry appears here by itself, under its own name if not listed.
GAME_LABELS = dict(GAME_NAMES)
MAX_PLAYERS = 6
NUMBER_WORDS = {3: "tres", 4: "cuatro", 5: "cinco", 6: "seis"}


def longest(count: int) -> Length:
    return Length(max=count, message=_l("Como mucho %(max)d caracteres."))


class Printable:
    """Only characters the limits allow (scorer.limits): no control or bidi characters, no lone surrogates."""

    def __init__(self, multiline: bool = False) -> None:
        self.multiline = multiline

    def __call__(self, form: Any, field: Any) -> None:
        for char in field.data or "":
            problem = limits.char_kind(char, self.multiline)
            if problem is not None:
                raise ValidationError(_("Hay un carácter no permitido (%(char)s): escríbelo sin él.", char=problem[1]))


def text_field(label: str, limit: int, multiline: bool = False, **kwargs: Any) -> Any:
    """A text field within the limits: at most ``limit`` characters, printable ones only."""
    kind = TextAreaField if multiline else StringField
    return kind(label, validators=[Optional(), longest(limit), Printable(multiline)], **kwargs)


NAME_MAX = limits.NAME_MAX


def game_choices() -> list[SelectChoice]:
    """The rule sets of the engine's registry, in the order of GAME_LABELS (Tresillo first)."""
    order = list(GAME_LABELS)
    names = sorted(RULESETS, key=lambda n: (order.index(n) if n in order else len(order), n))
    return options([(n, GAME_LABELS.get(n, n)) for n in names])


# ------------------------------------------------------------------ new table

# One line of explanation per house rule (format.md), shown under each control: the games' own.
RULE_HELP = {option.name: option.help for game in all_games() for option in game.options if option.help}


def player_counts(game: str) -> tuple[int, ...]:
    """How many players the engine's rule set admits (3–4, exactly 3, exactly 6)."""
    return game_of(game).player_counts


def count_words(counts: Sequence[int]) -> str:
    if len(counts) == 1:
        return _("exactamente %(count)s", count=counts[0])
    return format_list([str(c) for c in counts], style="or", locale=words.language())


class NewTableForm(FlaskForm):
    """A new table: players as they sit, who keeps the cartulina, first dealer, house rules, money."""

    game = SelectField(_l("Juego"), choices=game_choices, default="tresillo")
    name = text_field(_l("Nombre de la partida"), limits.TITLE_MAX)
    player1 = text_field(_l("Asiento 1"), NAME_MAX)
    player2 = text_field(_l("Asiento 2"), NAME_MAX)
    player3 = text_field(_l("Asiento 3"), NAME_MAX)
    player4 = text_field(_l("Asiento 4 (vacío si sois tres)"), NAME_MAX)
    player5 = text_field(_l("Asiento 5 (solo bandos)"), NAME_MAX)
    player6 = text_field(_l("Asiento 6 (solo bandos)"), NAME_MAX)
    keeper = SelectField(
        _l("Lleva la cuenta"),
        choices=options(
            [("", _l("el último asiento")), *((str(i), _l("Asiento %(n)s", n=i)) for i in range(1, MAX_PLAYERS + 1))]
        ),
        default="",  # the last seat: player number 4 keeps the cartulina (app.js names it)
        validate_choice=True,
    )
    first_dealer = SelectField(
        _l("Da la primera mano"),
        choices=options([(str(i), _l("Asiento %(n)s", n=i)) for i in range(1, MAX_PLAYERS + 1)]),
        default="1",
        validate_choice=True,
    )

    def error_summary(self, general: str | None = None) -> list[tuple[str, str]]:
        """Every complaint of the form as (field id, "Label: message"), top to bottom, for the list at the top."""
        lines = [("f-game", general)] if general else []
        for f in self:
            if f.type == "CSRFTokenField" and f.errors:
                lines.append(
                    ("f-game", _("El formulario ha caducado: vuelve a cargar la página e inténtalo otra vez."))
                )
            if f.type in ("CSRFTokenField", "SubmitField") or not f.errors:
                continue
            label = f.label.text.split(" (")[0]
            lines.extend((f.id, f"{label}: {message}") for message in f.errors)
        return lines

    def name_seats(self) -> None:
        """The seat selects show the names already typed (a form sent back with a mistake)."""
        typed = [(f.data or "").strip() for f in self.player_fields()]
        last = next((name for name in reversed(typed) if name), "")
        for select in (self.keeper, self.first_dealer):
            choices = []
            for c in select.choices:
                if not c.value:
                    label = _("el último asiento (%(name)s)", name=last) if last else _("el último asiento")
                else:
                    name = typed[int(c.value) - 1]
                    label = (
                        _("%(name)s (asiento %(n)s)", name=name, n=c.value) if name else _("Asiento %(n)s", n=c.value)
                    )
                choices.append(SelectChoice(c.value, label))
            select.choices = choices

    def player_fields(self) -> list[StringField]:
        return [self.player1, self.player2, self.player3, self.player4, self.player5, self.player6]

    def names(self) -> list[str]:
        """The names entered, in seat order, without the empty seats at the end."""
        names = [(f.data or "").strip() for f in self.player_fields()]
        while names and not names[-1]:
            names.pop()
        return names

    def chosen_game(self) -> str:
        game = self.game.data or "tresillo"
        return game if game in RULESETS else "tresillo"

    def validate(self, extra_validators: Any = None) -> bool:
        super().validate(extra_validators)
        chosen = game_of(self.chosen_game())
        # only the chosen game's options count: the others' groups were on the page too (no JS)
        for other in all_games():
            for option in other.options:
                field = self[option.name]
                if other is not chosen:
                    field.errors = []
                elif field.data is None and not field.errors and not option.optional:
                    field.errors = [_("Hace falta un número.")]
        if not chosen.money:
            self.tanto_value.errors = []
        players_ok = self._check_players()
        return players_ok and not any(f.errors for f in self)

    def count_error(self) -> str | None:
        """The wrong number of players for the chosen game, in one sentence; None when it fits."""
        game = self.chosen_game()
        counts = player_counts(game)
        given = len(self.names())
        if given in counts:
            return None
        label = GAME_LABELS.get(game, game)
        text = _(
            "%(game)s se juega con %(counts)s jugadores, y hay %(given)s.",
            game=label,
            counts=count_words(counts),
            given=given,
        )
        return text + game_of(game).count_hint

    def _check_players(self) -> bool:
        names = self.names()
        fields = self.player_fields()
        counts = player_counts(self.chosen_game())
        for i, name in enumerate(names):
            if not name:
                fields[i].errors.append(_("Falta el nombre: los jugadores se anotan seguidos, como se sientan."))
        for i in range(len(names), min(counts)):
            fields[i].errors.append(_("Falta el nombre: hacen falta %(counts)s jugadores.", counts=count_words(counts)))
        for i in range(max(counts), len(names)):
            fields[i].errors.append(
                _(
                    "Sobra: %(game)s se juega con %(counts)s jugadores.",
                    game=GAME_LABELS.get(self.chosen_game()),
                    counts=count_words(counts),
                )
            )
        seen: set[str] = set()
        for i, name in enumerate(names):
            key = name.casefold()
            if name and key in seen:
                fields[i].errors.append(
                    _("«%(name)s» ya está en la mesa: cada jugador con un nombre distinto.", name=name)
                )
            seen.add(key)
        return not any(f.errors for f in fields)

    def _seats(self) -> int:
        return max(min(player_counts(self.chosen_game())), len(self.names()))

    def validate_keeper(self, field: SelectField) -> None:
        seats = self._seats()
        if not field.data:  # blank: the last seat, always there
            return
        if not (str(field.data).isdecimal() and len(str(field.data)) <= 2):  # not a choice: said already
            return
        if int(field.data) > seats:
            words = NUMBER_WORDS.get(seats, str(seats))
            raise ValidationError(
                _(
                    "Con %(words)s jugadores, la cuenta la lleva uno de los asientos 1 a %(seats)s.",
                    words=words,
                    seats=seats,
                )
            )

    def validate_first_dealer(self, field: SelectField) -> None:
        seats = self._seats()
        if not (str(field.data or "1").isdecimal() and len(str(field.data)) <= 2):  # not a choice: said already
            return
        if int(field.data or 1) > seats:
            words = NUMBER_WORDS.get(seats, str(seats))
            raise ValidationError(
                _("Con %(words)s jugadores, da uno de los asientos 1 a %(seats)s.", words=words, seats=seats)
            )

    def validate_tanto_value(self, field: StringField) -> None:
        if not (field.data or "").strip():
            return
        value = parse_decimal(field.data)
        if value is None:
            raise ValidationError(_("«%(value)s» no es una cantidad: escribe por ejemplo 0,05.", value=field.data))
        if value < 0:
            raise ValidationError(_("El valor del tanto no puede ser negativo."))
        try:
            limits.check_tanto_value(value)  # D4: 1e25 would break every page once a balance moves
        except limits.LimitError as exc:
            raise ValidationError(messages.message(exc)) from None


def _fields_after_the_options() -> dict[str, Any]:
    """The new-table form's fields below the games' house rules (money, date, place, language), made in order."""
    return {
        "tanto_value": StringField(_l("Valor del tanto"), default="0,05", validators=[Optional(), longest(20)]),
        "currency": text_field(_l("Moneda"), limits.CURRENCY_MAX, default="€"),
        "date": DateField(
            _l("Fecha"), default=dt.date.today, validators=[Optional()]
        ),  # type="date": the browser picks it
        "place": text_field(_l("Lugar"), limits.PLACE_MAX),
        "notes": text_field(_l("Notas"), limits.NOTES_MAX, multiline=True),
        "timezone": HiddenField(validators=[Optional(), longest(64)]),  # the phone's, filled in by app.js
        # the language the sheet prints in: the page's by default, changeable later on the table page
        "language": SelectField(
            _l("Idioma de la hoja"),
            choices=options([(code, LANGUAGE_NAMES[code]) for code in LANGUAGES]),
            default=current_language,
            validate_choice=True,
        ),
        "submit": SubmitField(_l("Empezar la partida")),
    }


# The form is built from the games' list: each game's house rules, then the fields every table has.
for _game in all_games():
    for _option in _game.options:
        setattr(NewTableForm, _option.name, _option.field())
for _name, _field in _fields_after_the_options().items():
    setattr(NewTableForm, _name, _field)


def session_from_form(form: NewTableForm) -> dict[str, Any]:
    """The session file of a new table (format.md) with the app's keys; house rules that differ from the default."""
    game = form.game.data or "tresillo"
    chosen = game_of(game)
    session: dict[str, Any] = {
        "format": SESSION_FORMAT,
        "players": form.names(),
        "rules": {"ruleset": game, **_house_rules(form, chosen)},
        "first_dealer": int(form.first_dealer.data or 1),
        "hands": [],
    }
    app_keys = _app_keys(form)
    if not chosen.money:  # no money in the juego de bandos: tantos only
        del app_keys["tanto_value"], app_keys["currency"]
    session.update({k: v for k, v in app_keys.items() if v != ""})
    return session


def _house_rules(form: NewTableForm, game: Game) -> dict[str, Any]:
    """The chosen game's options that differ from its defaults, by their rules keys."""
    rules = {}
    for option in game.options:
        value = option.value(form[option.name])
        if option.key not in game.option_defaults or value != game.option_defaults[option.key]:
            rules[option.key] = value
    return rules


def _stripped(field: Any) -> str:
    return (field.data or "").strip()


def _app_keys(form: NewTableForm) -> dict[str, Any]:
    """The app's keys of the session (format.md): name, date, place, notes, money, keeper, time zone, language."""
    value = parse_decimal(form.tanto_value.data)
    return {
        "name": _stripped(form.name),
        "date": form.date.data.isoformat() if form.date.data else "",
        "place": _stripped(form.place),
        "notes": _stripped(form.notes),
        "tanto_value": str(value) if value is not None else "",  # a decimal string, never a float
        "currency": _stripped(form.currency),
        "keeper": int(form.keeper.data or len(form.names()) or 1),
        "timezone": form.timezone.data if known_timezone(form.timezone.data) else "",
        "language": language_or_default(form.language.data),
    }


# ---------------------------------------------------------------- other forms


class ConfirmForm(FlaskForm):
    """A button that only carries the CSRF token (todos pasan, borrar, restaurar, cerrar)."""

    submit = SubmitField(_l("Confirmar"))


class ImportForm(FlaskForm):
    """Upload a session file (or paste its text) to make a new table."""

    file = FileField(_l("Archivo de partida (.json)"))
    text = TextAreaField(_l("…o pega aquí su contenido"), validators=[Optional(), longest(limits.SESSION_BYTES_MAX)])
    submit = SubmitField(_l("Importar"))

    def content(self) -> str | None:
        """The uploaded or pasted text; None when nothing came."""
        upload = self.file.data
        if upload is not None and getattr(upload, "filename", ""):
            raw = upload.read(limits.SESSION_BYTES_MAX + 1)
            if len(raw) > limits.SESSION_BYTES_MAX:
                self.file.errors = [_("El archivo es demasiado grande (más de 2 MB).")]
                return None
            try:
                return str(raw.decode("utf-8-sig"))
            except UnicodeDecodeError:
                self.file.errors = [_("El archivo no es texto UTF-8: ¿es un archivo de partida (.json)?")]
                return None
        text = (self.text.data or "").strip()
        if text:
            return text
        self.file.errors = [_("Elige un archivo de partida o pega su contenido.")]
        return None


class PassForm(FlaskForm):
    """ "Todos pasan": one tap, with a request id so a double tap records one hand."""

    request_id = HiddenField()
    submit = SubmitField(_l("Todos pasan"))


# ------------------------------------------------------------------ hands


def game_hand_form(
    ruleset: str, players: Sequence[str], dealer: int, rules: Mapping[str, Any] | None = None, **kwargs: Any
) -> HandFormBase:
    """The hand form of a table's rule set (scorer.games), a Flask-WTF form: CSRF and the request's data."""
    form: HandFormBase = game_of(ruleset).hand_form(players, dealer, rules, front=FlaskForm, **kwargs)
    return form


def read_hand(form: HandFormBase) -> dict[str, Any] | None:
    """The hand of any game's form, or None with the problems attached to the fields."""
    return form.to_hand()
