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
    BooleanField,
    DateField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional, ValidationError

from scorer import limits, words
from scorer.engine import RULESETS
from scorer.engine.core import SESSION_FORMAT
from scorer.games import all_games, game_of
from scorer.games.fields import (
    REQUIRED,
    SUIT_PAIRS,
    HandFormBase,
    RuleChoice,
    WholeField,
    between,
    options,
)
from scorer.web import messages
from scorer.web.common.i18n import LANGUAGE_NAMES, LANGUAGES, current_language, language_or_default
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

# One line of explanation per house rule (format.md), shown under each control.
RULE_HELP = {
    "vuelta_solera": _l("Se admite la vuelta solera (20 tantos por participante, como el solo)."),
    "dealer_stake": _l("Tantos que pone en el plato el que da, en cada mano (también si todos pasan)."),
    "enchilada": _l("Si el plato no tiene puesta, el que da pone además esto (0 = sin enchilada)."),
    "rounding": _l("Cada pago se redondea hacia arriba a un múltiplo de esto (1 = sin redondeo)."),
    "favor_doubling": _l("A favor se dobla: el pago ya redondeado, o la suma antes de redondear."),
    "vuelta_at_favor": _l("Una vuelta que descubre el palo de favor también es a favor."),
    "solo_codillo": _l(
        "Solo o vuelta solera perdido por codillo: solo el codillo, sin puesta, o también las condiciones."
    ),
    "failed_bola": _l("Bola cortada: el jugador paga la bola (100) a cada uno, o no paga nada."),
    # pozo y viuda (rules/pozo-viuda.md)
    "pv_favor_suit": _l(
        "Con triunfo de este palo la mano es «a favor»: los matadores cuentan doble y el roben vale 20."
    ),
    "pv_pozo_stake": _l("Lo que pone cada jugador en el pozo al empezar, cuando se vacía y cuando todos pasan."),
    "pv_viuda_stake": _l("Lo que pone cada jugador en la viuda al empezar y cada vez que alguien se la lleva."),
    "pv_pozo_cap": _l(
        "El pozo guarda como mucho esto × la puesta × los jugadores; lo que sobra va a pozos de reserva."
    ),
    "pv_contrabola": _l("Se admite la contrabola (no hacer ninguna baza), declarada solo cuando todos han pasado."),
    # Ombre sencillo (rules/ombre.md)
    "om_stake": _l("Lo que paga cada defensor al hombre que gana una entrada o una vuelta."),
    "om_solo_stake": _l("Lo que paga cada defensor al hombre que gana un solo."),
    "om_vole_bonus": _l("Además, de cada defensor, cuando el hombre hace las nueve bazas."),
    "om_outcome": _l("Gana el hombre con 5 bazas (4-3-2 es puesta) o con más bazas que cada defensor (4-3-2 gana)."),
    "om_codille": _l(
        "Codillo: el defensor que gana cobra dos sacadas de cada uno (4 × la puesta) o solo el doble de la puesta."
    ),
    "om_matador_bonus": _l("Lo que cobra del bote quien tuvo espadilla, malilla y basto juntos."),
    "om_deals": _l("Número de manos que dura la partida (6, 12, 24…). Vacío: sin límite."),
    "om_target": _l("La partida acaba cuando un jugador llega a este saldo. Vacío: sin meta."),
    # juego de bandos (rules/bandos.md)
    "bd_target": _l("Tantos con los que se gana el juego."),
    "bd_fuera_de_turno": _l("Tantos de castigo por jugar fuera de turno sin asistir al palo."),
    "bd_renuncio": _l("Tantos de castigo por negarse a seguir jugando (acaba la mano)."),
    "bd_scoring": _l(
        "Quién se apunta la mano: el bando que llega antes a tres bazas, o el que gana las tres primeras "
        "(si se reparten, nadie)."
    ),
}
OPTIONAL_NUMBERS = ("om_deals", "om_target")  # blank means "none"


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
    favor_suit = RuleChoice(
        _l("Palo de favor"), choices=options([("", _l("ninguno")), *SUIT_PAIRS]), default="", rule="R15"
    )
    vuelta_solera = BooleanField(_l("Vuelta solera"), default=True)
    dealer_stake = WholeField(_l("Puesta del que da"), default=5, validators=[REQUIRED, between(0, 1000, "R5")])
    enchilada = WholeField(_l("Enchilada"), default=0, validators=[REQUIRED, between(0, 1000, "R6")])
    rounding = WholeField(_l("Redondeo"), default=5, validators=[REQUIRED, between(1, 100, "R14")])
    favor_doubling = RuleChoice(
        _l("Doblar a favor"),
        choices=options([("double_rounded", _l("redondear y doblar")), ("round_doubled", _l("doblar y redondear"))]),
        default="double_rounded",
        rule="R15",
    )
    vuelta_at_favor = BooleanField(_l("Vuelta a favor"), default=True)
    solo_codillo = RuleChoice(
        _l("Solo perdido por codillo"),
        choices=options(
            [("codillo_only", _l("solo el codillo")), ("codillo_and_conditions", _l("codillo y condiciones"))]
        ),
        default="codillo_only",
        rule="R24",
    )
    failed_bola = RuleChoice(
        _l("Bola cortada"),
        choices=options([("pays_bola", _l("paga la bola")), ("free", _l("no paga"))]),
        default="pays_bola",
        rule="R19",
    )
    # pozo y viuda
    pv_favor_suit = RadioField(
        "Palo de favor",
        choices=options(SUIT_PAIRS),
        default="oros",
        validate_choice=False,  # P: always one (null = oros)
    )
    pv_pozo_stake = WholeField(_l("Puesta al pozo"), default=5, validators=[Optional(), between(1, 1000, "P1")])
    pv_viuda_stake = WholeField(_l("Puesta a la viuda"), default=25, validators=[Optional(), between(1, 1000, "P1")])
    pv_pozo_cap = WholeField(
        _l("Tope del pozo (en puestas)"), default=4, validators=[Optional(), between(1, 100, "P4")]
    )
    pv_contrabola = BooleanField(_l("Contrabola"), default=False)
    # Ombre sencillo
    om_stake = WholeField(_l("Pago de entrada y vuelta"), default=10, validators=[Optional(), between(1, 1000, "O2")])
    om_solo_stake = WholeField(_l("Pago del solo"), default=20, validators=[Optional(), between(1, 1000, "O2")])
    om_vole_bonus = WholeField(
        _l("Premio del vole (9 bazas)"), default=10, validators=[Optional(), between(0, 1000, "O2")]
    )
    om_matador_bonus = WholeField(_l("Premio de matadores"), default=5, validators=[Optional(), between(0, 1000, "O5")])
    om_outcome = RuleChoice(
        _l("Quién gana la mano"),
        choices=options([("majority_five", _l("5 bazas")), ("most_tricks", _l("más bazas que cada defensor"))]),
        default="majority_five",
        rule="O2",
    )
    om_codille = RuleChoice(
        _l("Pago del codillo"),
        choices=options([("double_sacada", _l("dos sacadas")), ("double_stake", _l("doble de la puesta"))]),
        default="double_sacada",
        rule="O4",
    )
    om_deals = WholeField(_l("Manos de la partida"), validators=[Optional(), between(1, 1000, "O6")])
    om_target = WholeField(
        _l("Meta (saldo que acaba la partida)"), validators=[Optional(), between(1, 1_000_000, "O6")]
    )
    # juego de bandos
    bd_target = WholeField(_l("Meta (tantos)"), default=12, validators=[Optional(), between(1, 1000, "B4")])
    bd_scoring = RuleChoice(
        _l("Quién se apunta la mano"),
        choices=options(
            [("first_to_three", _l("el primero en tres bazas")), ("first_three_tricks", _l("las tres primeras bazas"))]
        ),
        default="first_to_three",
        rule="B5",
    )
    bd_fuera_de_turno = WholeField(
        _l("Falta: fuera de turno"), default=1, validators=[Optional(), between(0, 100, "B3")]
    )
    bd_renuncio = WholeField(_l("Falta: renuncio"), default=1, validators=[Optional(), between(0, 100, "B3")])
    tanto_value = StringField(_l("Valor del tanto"), default="0,05", validators=[Optional(), longest(20)])
    currency = text_field(_l("Moneda"), limits.CURRENCY_MAX, default="€")
    date = DateField(_l("Fecha"), default=dt.date.today, validators=[Optional()])  # type="date": the browser picks it
    place = text_field(_l("Lugar"), limits.PLACE_MAX)
    notes = text_field(_l("Notas"), limits.NOTES_MAX, multiline=True)
    timezone = HiddenField(validators=[Optional(), longest(64)])  # the phone's, filled in by app.js
    # the language the sheet prints in: the page's by default, changeable later on the table page
    language = SelectField(
        _l("Idioma de la hoja"),
        choices=options([(code, LANGUAGE_NAMES[code]) for code in LANGUAGES]),
        default=current_language,
        validate_choice=True,
    )
    submit = SubmitField(_l("Empezar la partida"))

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
            for name, _key in other.option_fields:
                if other is not chosen:
                    self[name].errors = []
                elif self[name].data is None and not self[name].errors and name not in OPTIONAL_NUMBERS:
                    self[name].errors = [_("Hace falta un número.")]
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


def session_from_form(form: NewTableForm) -> dict[str, Any]:
    """The session file of a new table (format.md) with the app's keys; house rules that differ from the default."""
    game = form.game.data or "tresillo"
    rules: dict[str, Any] = {"ruleset": game}
    chosen = game_of(game)
    for name, key in chosen.option_fields:
        value: Any = form[name].data
        if key == "favor_suit":
            value = value or None  # "ninguno"
        elif isinstance(form[name], BooleanField):
            value = bool(value)
        if key not in chosen.option_defaults or value != chosen.option_defaults[key]:
            rules[key] = value
    session: dict[str, Any] = {
        "format": SESSION_FORMAT,
        "players": form.names(),
        "rules": rules,
        "first_dealer": int(form.first_dealer.data or 1),
        "hands": [],
    }
    value = parse_decimal(form.tanto_value.data)
    app_keys: dict[str, Any] = {
        "name": (form.name.data or "").strip(),
        "date": form.date.data.isoformat() if form.date.data else "",
        "place": (form.place.data or "").strip(),
        "notes": (form.notes.data or "").strip(),
        "tanto_value": str(value) if value is not None else "",  # a decimal string, never a float
        "currency": (form.currency.data or "").strip(),
        "keeper": int(form.keeper.data or len(form.names()) or 1),
        "timezone": form.timezone.data if known_timezone(form.timezone.data) else "",
        "language": language_or_default(form.language.data),
    }
    if not chosen.money:  # no money in the juego de bandos: tantos only
        del app_keys["tanto_value"], app_keys["currency"]
    session.update({k: v for k, v in app_keys.items() if v != ""})
    return session


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
