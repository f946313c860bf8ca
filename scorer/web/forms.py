"""HTML forms (Flask-WTF) and their mappers: form → session dict, form ⇄ hand dict of format.md."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from scorer.engine import RULESETS
from scorer.engine import bandos as bandos_rules
from scorer.engine import ombre as ombre_rules
from scorer.engine import pozo_viuda as pozo_rules
from scorer.engine.core import SESSION_FORMAT
from scorer.engine.tresillo import LONG_SUITS, OPTION_DEFAULTS, active_seats
from scorer.web import limits
from scorer.words import GAME_NAMES, LANCE_WORDS, SUITS, known_timezone, parse_decimal, suit_text

# Spanish names of the rule sets a table can choose ("Juego"); a rule set registered
# in scorer.engine.registry appears here by itself, under its own name if not listed.
GAME_LABELS = dict(GAME_NAMES)
# One line per game, under its choice on the new-table form.
GAME_HELP = {
    "tresillo": "Plato y cartulina con puestas reservadas. 3 o 4 jugadores.",
    "pozo_viuda": "Dos botes: el pozo, para quien gana, y la viuda, para las grandes jugadas. 3 o 4 jugadores.",
    "ombre": "Pagos fijos y un bote que llenan las puestas; el codillo se paga doble. Exactamente 3 jugadores.",
    "bandos": "Seis jugadores en dos equipos, sin dinero: tantos hasta la meta. Equipo A: asientos 1, 3, 5; "
    "equipo B: 2, 4, 6.",
}
SUIT_PAIRS = [(s, suit_text(s)) for s in SUITS]
MAX_PLAYERS = 6
RULESETS_MODULES: dict[str, Any] = {"pozo_viuda": pozo_rules, "ombre": ombre_rules, "bandos": bandos_rules}
NUMBER_WORDS = {3: "tres", 4: "cuatro", 5: "cinco", 6: "seis"}
TEAM_OF_SEAT = {1: "A", 2: "B", 3: "A", 4: "B", 5: "A", 6: "B"}  # bandos B1


class WholeField(IntegerField):
    """An integer field whose complaint is in Spanish."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or str(valuelist[0]).strip() == "":
            self.data = None
            return
        try:
            self.data = int(str(valuelist[0]).strip())
        except ValueError:
            self.data = None
            raise ValueError(f"«{valuelist[0]}» no es un número entero.") from None


def between(low: int, high: int) -> NumberRange:
    return NumberRange(low, high, message=f"Ha de ser un número de {low} a {high}.")


def longest(count: int) -> Length:
    return Length(max=count, message=f"Como mucho {count} caracteres.")


class Printable:
    """Only characters the limits allow (scorer.web.limits): no control or bidi characters, no lone surrogates."""

    def __init__(self, multiline: bool = False) -> None:
        self.multiline = multiline

    def __call__(self, form: Any, field: Any) -> None:
        for char in field.data or "":
            problem = limits.char_problem(char, self.multiline)
            if problem is not None:
                code = problem.rsplit(" ", 1)[-1]
                raise ValidationError(f"Hay un carácter no permitido ({code}): escríbelo sin él.")


def text_field(label: str, limit: int, multiline: bool = False, **kwargs: Any) -> Any:
    """A text field within the limits: at most ``limit`` characters, printable ones only."""
    kind = TextAreaField if multiline else StringField
    return kind(label, validators=[Optional(), longest(limit), Printable(multiline)], **kwargs)


REQUIRED = InputRequired(message="Hace falta un número.")


def options(pairs: Sequence[tuple[str, str]]) -> list[SelectChoice]:
    """Choices for WTForms (tuples are deprecated there); templates read ``.value`` and ``.label``."""
    return [SelectChoice(value, label) for value, label in pairs]


NAME_MAX = limits.NAME_MAX


def game_choices() -> list[SelectChoice]:
    """The rule sets of the engine's registry, in the order of GAME_LABELS (Tresillo first)."""
    order = list(GAME_LABELS)
    names = sorted(RULESETS, key=lambda n: (order.index(n) if n in order else len(order), n))
    return options([(n, GAME_LABELS.get(n, n)) for n in names])


# ------------------------------------------------------------------ new table

# One line of explanation per house rule (format.md), shown under each control.
RULE_HELP = {
    "vuelta_solera": "Se admite la vuelta solera (20 tantos por participante, como el solo).",
    "dealer_stake": "Tantos que pone en el plato el que da, en cada mano (también si todos pasan).",
    "enchilada": "Si el plato no tiene puesta, el que da pone además esto (0 = sin enchilada).",
    "rounding": "Cada pago se redondea hacia arriba a un múltiplo de esto (1 = sin redondeo).",
    "favor_doubling": "A favor se dobla: el pago ya redondeado, o la suma antes de redondear.",
    "vuelta_at_favor": "Una vuelta que descubre el palo de favor también es a favor.",
    "solo_codillo": "Solo o vuelta solera perdido por codillo: solo el codillo, sin puesta, o también las condiciones.",
    "failed_bola": "Bola cortada: el jugador paga la bola (100) a cada uno, o no paga nada.",
    # pozo y viuda (rules/pozo-viuda.md)
    "pv_favor_suit": "Con triunfo de este palo la mano es «a favor»: los matadores cuentan doble y el roben vale 20.",
    "pv_pozo_stake": "Lo que pone cada jugador en el pozo al empezar, cuando se vacía y cuando todos pasan.",
    "pv_viuda_stake": "Lo que pone cada jugador en la viuda al empezar y cada vez que alguien se la lleva.",
    "pv_pozo_cap": "El pozo guarda como mucho esto × la puesta × los jugadores; lo que sobra va a pozos de reserva.",
    "pv_contrabola": "Se admite la contrabola (no hacer ninguna baza), declarada solo cuando todos han pasado.",
    # Ombre sencillo (rules/ombre.md)
    "om_stake": "Lo que paga cada defensor al hombre que gana una entrada o una vuelta.",
    "om_solo_stake": "Lo que paga cada defensor al hombre que gana un solo.",
    "om_vole_bonus": "Además, de cada defensor, cuando el hombre hace las nueve bazas.",
    "om_outcome": "Gana el hombre con 5 bazas (4-3-2 es puesta) o con más bazas que cada defensor (4-3-2 gana).",
    "om_matador_bonus": "Lo que cobra del bote quien tuvo espadilla, malilla y basto juntos.",
    "om_deals": "Número de manos que dura la partida (6, 12, 24…). Vacío: sin límite.",
    "om_target": "La partida acaba cuando un jugador llega a este saldo. Vacío: sin meta.",
    # juego de bandos (rules/bandos.md)
    "bd_target": "Tantos con los que se gana el juego.",
    "bd_fuera_de_turno": "Tantos de castigo por jugar fuera de turno sin asistir al palo.",
    "bd_renuncio": "Tantos de castigo por negarse a seguir jugando (acaba la mano).",
}
# The option fields of each game on the new-table form: (field, rules key); "tresillo" is handled apart.
GAME_OPTIONS = {
    "pozo_viuda": (
        ("pv_favor_suit", "favor_suit"),
        ("pv_pozo_stake", "pozo_stake"),
        ("pv_viuda_stake", "viuda_stake"),
        ("pv_pozo_cap", "pozo_cap"),
        ("pv_contrabola", "contrabola"),
    ),
    "ombre": (
        ("om_stake", "stake"),
        ("om_solo_stake", "solo_stake"),
        ("om_vole_bonus", "vole_bonus"),
        ("om_matador_bonus", "matador_bonus"),
        ("om_outcome", "outcome"),
        ("om_deals", "deals"),
        ("om_target", "target"),
    ),
    "bandos": (("bd_target", "target"), ("bd_fuera_de_turno", "fuera_de_turno"), ("bd_renuncio", "renuncio")),
}
OPTIONAL_NUMBERS = ("om_deals", "om_target")  # blank means "none"
TRESILLO_FIELDS = (
    "favor_suit", "vuelta_solera", "dealer_stake", "enchilada", "rounding", "favor_doubling", "vuelta_at_favor",
    "solo_codillo", "failed_bola",
)  # fmt: skip


def player_counts(game: str) -> tuple[int, ...]:
    """How many players the engine's rule set admits (3–4, exactly 3, exactly 6)."""
    ruleset = RULESETS.get(game)
    return tuple(getattr(ruleset, "player_counts", (3, 4)))


def count_words(counts: Sequence[int]) -> str:
    if len(counts) == 1:
        return f"exactamente {counts[0]}"
    return ", ".join(str(c) for c in counts[:-1]) + f" o {counts[-1]}"


class NewTableForm(FlaskForm):
    """A new table: players as they sit, who keeps the cartulina, first dealer, house rules, money."""

    game = SelectField("Juego", choices=game_choices, default="tresillo")
    name = text_field("Nombre de la partida", limits.TITLE_MAX)
    player1 = text_field("Asiento 1", NAME_MAX)
    player2 = text_field("Asiento 2", NAME_MAX)
    player3 = text_field("Asiento 3", NAME_MAX)
    player4 = text_field("Asiento 4 (vacío si sois tres)", NAME_MAX)
    player5 = text_field("Asiento 5 (solo bandos)", NAME_MAX)
    player6 = text_field("Asiento 6 (solo bandos)", NAME_MAX)
    keeper = SelectField(
        "Lleva la cuenta",
        choices=options([("", "el último asiento"), *((str(i), f"Asiento {i}") for i in range(1, MAX_PLAYERS + 1))]),
        default="",  # the last seat: player number 4 keeps the cartulina (app.js names it)
        validate_choice=True,
    )
    first_dealer = SelectField(
        "Da la primera mano",
        choices=options([(str(i), f"Asiento {i}") for i in range(1, MAX_PLAYERS + 1)]),
        default="1",
        validate_choice=True,
    )
    favor_suit = RadioField("Palo de favor", choices=options([("", "ninguno"), *SUIT_PAIRS]), default="")
    vuelta_solera = BooleanField("Vuelta solera", default=True)
    dealer_stake = WholeField("Puesta del que da", default=5, validators=[REQUIRED, between(0, 1000)])
    enchilada = WholeField("Enchilada", default=0, validators=[REQUIRED, between(0, 1000)])
    rounding = WholeField("Redondeo", default=5, validators=[REQUIRED, between(1, 100)])
    favor_doubling = RadioField(
        "Doblar a favor",
        choices=options([("double_rounded", "redondear y doblar"), ("round_doubled", "doblar y redondear")]),
        default="double_rounded",
    )
    vuelta_at_favor = BooleanField("Vuelta a favor", default=True)
    solo_codillo = RadioField(
        "Solo perdido por codillo",
        choices=options([("codillo_only", "solo el codillo"), ("codillo_and_conditions", "codillo y condiciones")]),
        default="codillo_only",
    )
    failed_bola = RadioField(
        "Bola cortada", choices=options([("pays_bola", "paga la bola"), ("free", "no paga")]), default="pays_bola"
    )
    # pozo y viuda
    pv_favor_suit = RadioField(
        "Palo de favor", choices=options([*SUIT_PAIRS, ("", "ninguno")]), default="oros", validate_choice=False
    )
    pv_pozo_stake = WholeField("Puesta al pozo", default=5, validators=[Optional(), between(1, 1000)])
    pv_viuda_stake = WholeField("Puesta a la viuda", default=25, validators=[Optional(), between(0, 1000)])
    pv_pozo_cap = WholeField("Tope del pozo (en puestas)", default=4, validators=[Optional(), between(1, 100)])
    pv_contrabola = BooleanField("Contrabola", default=False)
    # Ombre sencillo
    om_stake = WholeField("Pago de entrada y vuelta", default=10, validators=[Optional(), between(0, 1000)])
    om_solo_stake = WholeField("Pago del solo", default=20, validators=[Optional(), between(0, 1000)])
    om_vole_bonus = WholeField("Premio del vole (9 bazas)", default=10, validators=[Optional(), between(0, 1000)])
    om_matador_bonus = WholeField("Premio de matadores", default=5, validators=[Optional(), between(0, 1000)])
    om_outcome = RadioField(
        "Quién gana la mano",
        choices=options([("majority_five", "5 bazas"), ("most_tricks", "más bazas que cada defensor")]),
        default="majority_five",
    )
    om_deals = WholeField("Manos de la partida", validators=[Optional(), between(1, 1000)])
    om_target = WholeField("Meta (saldo que acaba la partida)", validators=[Optional(), between(1, 1_000_000)])
    # juego de bandos
    bd_target = WholeField("Meta (tantos)", default=12, validators=[Optional(), between(1, 1000)])
    bd_fuera_de_turno = WholeField("Falta: fuera de turno", default=1, validators=[Optional(), between(0, 100)])
    bd_renuncio = WholeField("Falta: renuncio", default=1, validators=[Optional(), between(0, 100)])
    tanto_value = StringField("Valor del tanto", default="0,05", validators=[Optional(), longest(20)])
    currency = text_field("Moneda", limits.CURRENCY_MAX, default="€")
    date = DateField("Fecha", default=dt.date.today, validators=[Optional()])  # type="date": the browser picks it
    place = text_field("Lugar", limits.PLACE_MAX)
    notes = text_field("Notas", limits.NOTES_MAX, multiline=True)
    timezone = HiddenField(validators=[Optional(), longest(64)])  # the phone's, filled in by app.js
    submit = SubmitField("Empezar la partida")

    def error_summary(self, general: str | None = None) -> list[tuple[str, str]]:
        """Every complaint of the form as (field id, "Label: message"), top to bottom, for the list at the top."""
        lines = [("f-game", general)] if general else []
        for f in self:
            if f.type == "CSRFTokenField" and f.errors:
                lines.append(("f-game", "El formulario ha caducado: vuelve a cargar la página e inténtalo otra vez."))
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
                    label = f"el último asiento ({last})" if last else "el último asiento"
                else:
                    name = typed[int(c.value) - 1]
                    label = f"{name} (asiento {c.value})" if name else f"Asiento {c.value}"
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
        game = self.chosen_game()
        # only the chosen game's options count: the others' groups were on the page too (no JS)
        for other, fields in GAME_OPTIONS.items():
            for name, _key in fields:
                if other != game:
                    self[name].errors = []
                elif self[name].data is None and not self[name].errors and name not in OPTIONAL_NUMBERS:
                    self[name].errors = ["Hace falta un número."]
        if game != "tresillo":
            for name in TRESILLO_FIELDS:
                self[name].errors = []
        if game == "bandos":
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
        text = f"{label} se juega con {count_words(counts)} jugadores, y hay {given}."
        if game == "bandos":
            text += " Dos equipos de tres: A en los asientos 1, 3, 5 y B en los 2, 4, 6."
        return text

    def _check_players(self) -> bool:
        names = self.names()
        fields = self.player_fields()
        counts = player_counts(self.chosen_game())
        for i, name in enumerate(names):
            if not name:
                fields[i].errors.append("Falta el nombre: los jugadores se anotan seguidos, como se sientan.")
        for i in range(len(names), min(counts)):
            fields[i].errors.append(f"Falta el nombre: hacen falta {count_words(counts)} jugadores.")
        for i in range(max(counts), len(names)):
            fields[i].errors.append(
                f"Sobra: {GAME_LABELS.get(self.chosen_game())} se juega con {count_words(counts)} jugadores."
            )
        seen: set[str] = set()
        for i, name in enumerate(names):
            key = name.casefold()
            if name and key in seen:
                fields[i].errors.append(f"«{name}» ya está en la mesa: cada jugador con un nombre distinto.")
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
            raise ValidationError(f"Con {words} jugadores, la cuenta la lleva uno de los asientos 1 a {seats}.")

    def validate_first_dealer(self, field: SelectField) -> None:
        seats = self._seats()
        if not (str(field.data or "1").isdecimal() and len(str(field.data)) <= 2):  # not a choice: said already
            return
        if int(field.data or 1) > seats:
            words = NUMBER_WORDS.get(seats, str(seats))
            raise ValidationError(f"Con {words} jugadores, da uno de los asientos 1 a {seats}.")

    def validate_tanto_value(self, field: StringField) -> None:
        if not (field.data or "").strip():
            return
        value = parse_decimal(field.data)
        if value is None:
            raise ValidationError(f"«{field.data}» no es una cantidad: escribe por ejemplo 0,05.")
        if value < 0:
            raise ValidationError("El valor del tanto no puede ser negativo.")
        try:
            limits.check_tanto_value(value)  # D4: 1e25 would break every page once a balance moves
        except limits.LimitError as exc:
            raise ValidationError(exc.spanish) from None


def session_from_form(form: NewTableForm) -> dict[str, Any]:
    """The session file of a new table (format.md) with the app's keys; house rules that differ from the default."""
    game = form.game.data or "tresillo"
    rules: dict[str, Any] = {"ruleset": game}
    if game == "tresillo":
        chosen = {
            "favor_suit": form.favor_suit.data or None,
            "vuelta_solera": bool(form.vuelta_solera.data),
            "dealer_stake": form.dealer_stake.data,
            "enchilada": form.enchilada.data,
            "rounding": form.rounding.data,
            "favor_doubling": form.favor_doubling.data,
            "vuelta_at_favor": bool(form.vuelta_at_favor.data),
            "solo_codillo": form.solo_codillo.data,
            "failed_bola": form.failed_bola.data,
        }
        rules.update({k: v for k, v in chosen.items() if v != OPTION_DEFAULTS[k]})
    elif game in GAME_OPTIONS:
        defaults = getattr(RULESETS_MODULES.get(game), "OPTION_DEFAULTS", {})
        for name, key in GAME_OPTIONS[game]:
            value: Any = form[name].data
            if name == "pv_favor_suit":
                value = value or None
            elif name == "pv_contrabola":
                value = bool(value)
            if key not in defaults or value != defaults[key]:
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
    }
    if game == "bandos":  # no money in the juego de bandos: tantos only
        del app_keys["tanto_value"], app_keys["currency"]
    session.update({k: v for k, v in app_keys.items() if v != ""})
    return session


# ----------------------------------------------------------------------- hand

ESTUCHE_CHOICES = options([("", "no"), ("3", "3"), ("4", "4"), ("5", "5"), ("mas", "más")])
TRICK_CHOICES = options([(str(i), str(i)) for i in range(10)])


class HandFormBase(FlaskForm):
    """What every hand form shares: the hidden ids, the two buttons, seats and names, problems next to fields."""

    request_id = HiddenField()
    revision = HiddenField()  # the edited hand's revision (editing)
    deal = HiddenField()  # the number the new hand takes: a form of an earlier deal is refused
    table_revision = HiddenField()  # the table's revision when the form was opened
    preview = SubmitField("Ver pagos")
    save = SubmitField("Guardar")

    # set when the form is made for a table
    seats: tuple[int, ...] = ()
    names: dict[int, str] = {}  # noqa: RUF012  (replaced per instance)
    dealer: int = 1
    problems: dict[str, list[str]]

    def trick_field(self, seat: int) -> RadioField:
        field: RadioField = getattr(self, f"tricks_{seat}")
        return field

    def problem(self, name: str, message: str) -> None:
        """Attach a Spanish message to a field ("general" for the whole hand)."""
        self.problems.setdefault(name, []).append(message)

    def messages(self, name: str) -> list[str]:
        field = getattr(self, name, None)
        own = list(field.errors) if field is not None and hasattr(field, "errors") else []
        return own + self.problems.get(name, [])


class HandForm(HandFormBase):
    """One hand. Choices that depend on the table (seats, lances) are set by :func:`hand_form`."""

    jugador = RadioField("Jugador", choices=[], validate_choice=False)
    lance = RadioField("Lance", choices=[], default="entrada", validate_choice=False)
    trump = RadioField("Triunfo", choices=options(SUIT_PAIRS), validate_choice=False)
    tricks_1 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    tricks_2 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    tricks_3 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    tricks_4 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    estuches = RadioField("Estuches", choices=ESTUCHE_CHOICES, default="", validate_choice=False)
    estuches_mas = WholeField("¿Cuántos estuches?", validators=[Optional()])
    contraestuches = RadioField("Contraestuches", choices=ESTUCHE_CHOICES, default="", validate_choice=False)
    contraestuches_mas = WholeField("¿Cuántos contraestuches?", validators=[Optional()])
    primeras = RadioField(
        "Primeras",
        choices=options([("", "no"), ("jugador", "del jugador"), ("contra", "de la contra")]),
        default="",
        validate_choice=False,
    )
    bola = RadioField(
        "Bola",
        choices=options([("", "no"), ("hecha", "hecha"), ("cortada", "cortada")]),
        default="",
        validate_choice=False,
    )
    rendida = BooleanField("Rendida")
    defensor = RadioField("Defensor", choices=[], default="", validate_choice=False)


def hand_form(
    players: Sequence[str],
    dealer: int,
    rules: Mapping[str, Any] | None = None,
    *,
    formdata: Any = None,
    hand: Mapping[str, Any] | None = None,
    revision: int | None = None,
    deal: int | None = None,
    table_revision: int | None = None,
) -> HandForm:
    """A hand form for a table whose hand is dealt by ``dealer``; prefilled from ``hand`` when editing."""
    kwargs: dict[str, Any] = {}
    if formdata is not None:
        kwargs["formdata"] = formdata
    form = HandForm(**kwargs)
    form.problems = {}
    form.names = {i: name for i, name in enumerate(players, 1)}
    form.dealer = dealer
    form.seats = active_seats(len(players), dealer)  # R3: the alcalde is not offered
    form.jugador.choices = options([(str(s), form.names[s]) for s in form.seats])
    rules = rules or {}
    lances = [lance for lance in LANCE_WORDS if lance != "vuelta_solera" or rules.get("vuelta_solera", True)]
    form.lance.choices = options([(lance, LANCE_WORDS[lance]) for lance in lances])
    form.defensor.choices = options([("", "nadie"), *((str(s), form.names[s]) for s in form.seats)])
    if not form.is_submitted():
        _bind(form, revision, deal, table_revision)
        if hand is not None:
            fill_hand_form(form, hand)
    if form.lance.data is None:
        form.lance.data = "entrada"
    return form


def _bind(form: HandFormBase, revision: int | None, deal: int | None, table_revision: int | None) -> None:
    """A fresh form's hidden fields: its request id (double submit) and the state it was opened for."""
    form.request_id.data = uuid.uuid4().hex
    if revision is not None:
        form.revision.data = str(revision)
    if deal is not None:
        form.deal.data = str(deal)
    if table_revision is not None:
        form.table_revision.data = str(table_revision)


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


def _seat(value: Any, seats: Sequence[int]) -> int | None:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        return None
    return seat if seat in seats else None


def _estuches(form: HandForm, key: str, trump: str | None) -> int:
    choice = getattr(form, key).data or ""
    if choice == "":
        return 0
    if choice == "mas":
        count = getattr(form, f"{key}_mas").data
        top = 12 if trump in LONG_SUITS else 11
        if count is None or not 6 <= count <= top:
            form.problem(key, f"¿Cuántos {key}? Escribe un número de 6 a {top}.")
            return 0
        return int(count)
    if choice in ("3", "4", "5"):
        return int(choice)
    form.problem(key, f"Elige cuántos {key}.")
    return 0


def hand_from_form(form: HandForm) -> dict[str, Any] | None:
    """The hand dict of format.md, or None with Spanish messages attached to the fields.

    Two tricks counts are enough: the third is what is left of the nine.
    """
    hand: dict[str, Any] = {}
    jugador = _seat(form.jugador.data, form.seats)
    if jugador is None:
        form.problem("jugador", "Elige quién es el jugador.")
    else:
        hand["jugador"] = jugador
    lance = form.lance.data or "entrada"
    if lance not in {c.value for c in form.lance.choices}:
        form.problem("lance", "Elige el lance.")
    hand["lance"] = lance
    trump = form.trump.data or None
    if trump not in SUITS:
        form.problem("trump", "Elige el triunfo.")
        trump = None
    else:
        hand["trump"] = trump
    estuches = _estuches(form, "estuches", trump)
    contra = _estuches(form, "contraestuches", trump)
    if estuches and contra:
        form.problem("estuches", "No puede haber estuches y contraestuches a la vez.")
    if estuches:
        hand["estuches"] = estuches
    if contra:
        hand["contraestuches"] = contra
    rendida = bool(form.rendida.data)
    defensor = None
    if form.defensor.data:
        defensor = _seat(form.defensor.data, form.seats)
        if defensor is None:
            form.problem("defensor", "Elige el defensor entre los que juegan.")
    if rendida:
        hand["rendida"] = True
    if defensor is not None:
        hand["defensor"] = defensor
    if form.primeras.data in ("jugador", "contra"):
        hand["primeras"] = form.primeras.data
    if form.bola.data in ("hecha", "cortada"):
        hand["bola"] = form.bola.data
    if not rendida or defensor is not None:  # an undefended rendida has no tricks (format.md)
        tricks = _tricks(form)
        if tricks is not None:
            hand["tricks"] = tricks
    if form.problems:
        return None
    return hand


def _tricks(form: HandForm) -> dict[str, int] | None:
    given: dict[int, int] = {}
    for seat in form.seats:
        raw = form.trick_field(seat).data
        if raw in (None, ""):
            continue
        try:
            count = int(raw)
        except (TypeError, ValueError):
            form.problem("tricks", f"«{raw}» no es un número de bazas.")
            return None
        if not 0 <= count <= 9:
            form.problem("tricks", "Cada jugador hace de 0 a 9 bazas.")
            return None
        given[seat] = count
    if len(given) < 2:
        form.problem("tricks", "Faltan las bazas: marca las del jugador y las de uno de la contra.")
        return None
    if len(given) == 2:
        (missing,) = [s for s in form.seats if s not in given]
        rest = 9 - sum(given.values())
        if rest < 0:
            form.problem("tricks", f"Las bazas suman {sum(given.values())}: son 9 en total.")
            return None
        given[missing] = rest  # the third is what is left of the nine
        form.trick_field(missing).data = str(rest)
    elif sum(given.values()) > 9:
        form.problem("tricks", f"Las bazas suman {sum(given.values())}: son 9 en total.")
        return None
    return {str(s): given[s] for s in form.seats}


# ------------------------------------------------- engine reasons in Spanish

_SPLIT = r"(\d+-\d+-\d+)"
_REASONS: list[tuple[str, str, str]] = [
    # (regex on the engine's English reason, field, Spanish message with {groups})
    (r"tricks " + _SPLIT + r" \(rendido-defensor-pobre\) do not decide", "tricks",
     "Con {0} (rendido, defensor, pobre) la mano no está decidida: anota las bazas que faltan."),
    (r"tricks " + _SPLIT + r" do not decide the hand", "tricks",
     "Con {0} la mano no está decidida: anota las bazas que faltan."),
    (r"tricks add up to (\d+)", "tricks", "Las bazas suman {0}: son 9 en total."),
    (r"tricks has no count for seat", "tricks", "Faltan las bazas de uno de los que juegan."),
    (r"tricks of seat (\d+) must be", "tricks", "Cada jugador hace de 0 a 9 bazas."),
    (r"tricks names seat", "tricks", "Solo anotan bazas los tres que juegan."),
    (r"jugador (\d+) is the alcalde", "jugador", "El que da (alcalde) no juega esta mano: elige otro jugador."),
    (r"vuelta_solera is not admitted", "lance", "En esta partida no se juega la vuelta solera."),
    (r"both estuches and contraestuches", "estuches", "No puede haber estuches y contraestuches a la vez."),
    (r"impossible estuches (\d+): 0, or 3 to (\d+) with (\w+)", "estuches",
     "No puede haber {0} estuches: 0, o de 3 a {1} con {2}."),
    (r"impossible contraestuches (\d+): 0, or 3 to (\d+) with (\w+)", "contraestuches",
     "No puede haber {0} contraestuches: 0, o de 3 a {1} con {2}."),
    (r"defensor without rendida", "defensor", "Solo hay defensor cuando el jugador se rinde: marca «rendida»."),
    (r"a rendida cannot have a bola", "bola", "Una mano rendida no tiene bola."),
    (r"a rendida has no primeras", "primeras", "Una mano rendida no tiene primeras."),
    (r"an? ([\w ]+) cannot be surrendered", "rendida", "Solo se rinde una entrada o una vuelta, no un {0}."),
    (r"a vuelta rendida cannot be defended", "defensor", "Una vuelta rendida no se puede defender."),
    (r"defensor (\d+) is not a contra player", "defensor", "El defensor ha de ser uno de la contra."),
    (r"tricks " + _SPLIT + r": after primeras the Jugador stops at 5", "tricks",
     "Con {0} no puede ser: tras las primeras el jugador se planta con 5-0-0 o sigue a la bola hasta 9-0-0."),
    (r"bola hecha needs all nine tricks, not " + _SPLIT, "bola",
     "Bola hecha: el jugador hace las nueve bazas (aquí {0})."),
    (r"a bola cortada stops at the contra's first trick \(J-1-0\), not " + _SPLIT, "bola",
     "Bola cortada: se acaba en la primera baza de la contra (5-1-0 a 8-1-0), no con {0}."),
    (r"primeras for the jugador only as 5-0-0, 9-0-0 or a bola cortada J-1-0, not " + _SPLIT, "primeras",
     "Primeras del jugador: 5-0-0 (se planta), 9-0-0 (bola) o bola cortada (5-1-0 a 8-1-0), no {0}."),
    (r"primeras for the contra need a puesta, not " + _SPLIT, "primeras",
     "Primeras de la contra: solo cuando la mano es puesta (4-4-1, 3-3-3…), no con {0}."),
    # pozo y viuda
    (r"contrabola is not admitted", "lance", "En esta partida no se admite la contrabola."),
    (r"a contrabola must have matadores 0", "matadores", "La contrabola se juega sin matadores: marca 0."),
    (r"matadores with (\w+) must be between 0 and (\d+)", "matadores",
     "Con triunfo de {0} hay como mucho {1} matadores."),
    (r"a declared (\w+) has no primeras", "primeras", "Una {0} declarada no tiene primeras."),
    (r"a declared (\w+) has no bola key", "bola", "Una {0} declarada ya es la bola: deja «no» en la bola."),
    (r"tricks of a declared (\w+) must add up to nine, not (\d+)", "tricks",
     "Una {0} declarada se anota con las nueve bazas (aquí suman {1})."),
    (r"^primeras need a won hand with 5 tricks, not " + _SPLIT, "primeras",
     "Primeras del jugador: gana la mano con las cinco primeras bazas, no con {0}."),
    (r"jugador (\d+) is the dealer and does not play", "jugador",
     "El que da (alcalde) no juega esta mano: elige otro jugador."),
    # Ombre sencillo
    (r"the session is over \(O6\)", "general",
     "La partida ha terminado (manos acordadas o meta alcanzada): no se anota nada más."),
    (r"matadores_en (\d+) is not a seat|matadores_en must be", "matadores_en",
     "Elige quién tuvo los tres matadores, o «nadie»."),
    # juego de bandos
    (r"the game is over: team (\w) won", "general", "El juego ha terminado: ganó el equipo {0}."),
    (r"bandos has no closing", "general", "El juego de bandos no se cierra: termina solo al llegar a la meta."),
    (r"bandos has no passed hand", "general", "En el juego de bandos no se pasa: anota las primeras o una falta."),
    (r"capote needs primeras", "capote", "El capote es del equipo que hizo las seis bazas: elige antes sus primeras."),
    (r"a hand needs primeras or a falta", "primeras",
     "Elige el equipo que hizo las tres primeras bazas, o anota la falta que acabó la mano."),
    (r"falta (\d+)", "faltas", "Revisa la falta {0}: quién la hizo, cuál fue y sus tantos (0 o más)."),
    (r"no hand may follow the closing", "general", "La partida está cerrada: no se anotan más manos."),
    (r"an ajuste from seat (\d+) to itself", "to", "Un ajuste va a otro jugador, al plato o a todos, no a sí mismo."),
    (r"ajuste amount must be", "amount", "El ajuste es un número entero de tantos, 1 o más."),
    (r"(.+) is already seated at seat (\d+)", "player", "{0} ya está sentado en la mesa (asiento {1})."),
    (r"sienta player must be a name", "player", "Escribe el nombre de quien se sienta."),
    (r"is a Tresillo entry", "general", "Ajustes y cambios de jugador son del Tresillo; este juego no los tiene."),
    (r"missing jugador", "jugador", "Elige quién es el jugador."),
    (r"missing lance", "lance", "Elige el lance."),
    (r"missing trump", "trump", "Elige el triunfo."),
    (r"missing tricks", "tricks", "Faltan las bazas."),
    (r"unknown lance", "lance", "Elige el lance."),
    (r"unknown trump", "trump", "Elige el triunfo."),
]  # fmt: skip


def explain(reason: str) -> tuple[str, str]:
    """The form field an engine reason belongs to and its Spanish message ("general" when none fits)."""
    for pattern, name, message in _REASONS:
        match = re.search(pattern, reason)
        if match:
            groups = [LANCE_WORDS.get(g, g) for g in match.groups()]
            return name, message.format(*groups)
    return "general", f"Esa mano no es posible: {reason}."


def explain_session(reason: str) -> str:
    """A session-level engine reason (new table, import) in Spanish, keeping the original for detail."""
    patterns = [
        (r"player name '(.+)' appears twice", "El nombre «{0}» aparece dos veces."),
        (r"(\w+) needs (.+) players, not (\d+)", "{0} se juega con {1} jugadores, no con {2}."),
        (r"rule (\w+) must be (?:at least|between) (\d+)(?: and (\d+))?", "La regla «{0}» no admite ese valor."),
        (r"missing players", "Faltan los jugadores."),
        (r"first_dealer must be a seat from 1 to (\d+)", "El que da primero ha de ser un asiento de 1 a {0}."),
        (r"unknown rule '(\w+)'", "Regla desconocida: «{0}»."),
        (r"unknown ruleset", "Juego desconocido."),
        (r"missing format|unknown format", "No es un archivo de partida (tresillo-session/1)."),
    ]
    for pattern, message in patterns:
        match = re.search(pattern, reason)
        if match:
            groups = [GAME_LABELS.get(g, g.replace(" or ", " o ")) if g else "" for g in match.groups()]
            return message.format(*groups)
    return reason


# ---------------------------------------------------------------- other forms


class ConfirmForm(FlaskForm):
    """A button that only carries the CSRF token (todos pasan, borrar, restaurar, cerrar)."""

    submit = SubmitField("Confirmar")


class ImportForm(FlaskForm):
    """Upload a session file (or paste its text) to make a new table."""

    file = FileField("Archivo de partida (.json)")
    text = TextAreaField("…o pega aquí su contenido", validators=[Optional(), longest(limits.SESSION_BYTES_MAX)])
    submit = SubmitField("Importar")

    def content(self) -> str | None:
        """The uploaded or pasted text; None when nothing came."""
        upload = self.file.data
        if upload is not None and getattr(upload, "filename", ""):
            raw = upload.read(limits.SESSION_BYTES_MAX + 1)
            if len(raw) > limits.SESSION_BYTES_MAX:
                self.file.errors = ["El archivo es demasiado grande (más de 2 MB)."]
                return None
            try:
                return str(raw.decode("utf-8-sig"))
            except UnicodeDecodeError:
                self.file.errors = ["El archivo no es texto UTF-8: ¿es un archivo de partida (.json)?"]
                return None
        text = (self.text.data or "").strip()
        if text:
            return text
        self.file.errors = ["Elige un archivo de partida o pega su contenido."]
        return None


class PassForm(FlaskForm):
    """ "Todos pasan": one tap, with a request id so a double tap records one hand."""

    request_id = HiddenField()
    submit = SubmitField("Todos pasan")


# ================================================ hands of the other games
# Pozo y viuda, Ombre sencillo and the juego de bandos: one form each, same look and
# the same two-counts-are-enough tricks as Tresillo's; the engine decides the rest.

MATADOR_CHOICES = options([(str(i), str(i)) for i in range(5)])
POZO_LANCES = ("juego", "volteo", "roben", "bola", "contrabola")
OMBRE_LANCES = ("entrada", "vuelta", "solo")
BLACK_SUITS = ("espadas", "bastos")


class GameHandForm(HandFormBase):
    """The base of the hand forms of the other games (pozo y viuda, Ombre, bandos)."""

    ruleset = ""

    def setup(self, rules: Mapping[str, Any]) -> None:
        """Choices that depend on the table."""

    def fill(self, hand: Mapping[str, Any]) -> None:
        """Prefill from a stored hand (editing)."""

    def to_hand(self) -> dict[str, Any] | None:
        """The hand dict, or None with Spanish messages attached to the fields."""
        raise NotImplementedError

    # shared pieces
    def _jugador(self, hand: dict[str, Any]) -> None:
        jugador = _seat(self.jugador.data, self.seats)
        if jugador is None:
            self.problem("jugador", "Elige quién es el jugador.")
        else:
            hand["jugador"] = jugador

    def _trump(self, hand: dict[str, Any]) -> str | None:
        trump = self.trump.data or None
        if trump not in SUITS:
            self.problem("trump", "Elige el triunfo.")
            return None
        hand["trump"] = trump
        return str(trump)

    def _fill_played(self, hand: Mapping[str, Any]) -> None:
        self.jugador.data = str(hand.get("jugador", "")) or None
        self.lance.data = str(hand.get("lance", self.lance.default))
        self.trump.data = hand.get("trump")
        for seat, count in (hand.get("tricks") or {}).items():
            if int(seat) in self.seats:
                self.trick_field(int(seat)).data = str(count)


class PozoHandForm(GameHandForm):
    """A hand of pozo y viuda: jugador, lance, triunfo, matadores, bazas, primeras, bola."""

    ruleset = "pozo_viuda"
    jugador = RadioField("Jugador", choices=[], validate_choice=False)
    lance = RadioField("Lance", choices=[], default="juego", validate_choice=False)
    trump = RadioField("Triunfo", choices=options(SUIT_PAIRS), validate_choice=False)
    matadores = RadioField("Matadores", choices=MATADOR_CHOICES, default="0", validate_choice=False)
    tricks_1 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    tricks_2 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    tricks_3 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    tricks_4 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    primeras = BooleanField("Primeras del jugador (las cinco primeras bazas)")
    bola = RadioField(
        "Bola tras las primeras",
        choices=options([("", "no"), ("hecha", "hecha"), ("cortada", "cortada")]),
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
        self.primeras.data = hand.get("primeras") == "jugador"
        self.bola.data = hand.get("bola") or ""

    def to_hand(self) -> dict[str, Any] | None:
        hand: dict[str, Any] = {}
        self._jugador(hand)
        lance = self.lance.data or "juego"
        if lance not in {c.value for c in self.lance.choices}:
            if lance == "contrabola":
                self.problem("lance", "En esta partida no se admite la contrabola.")
            else:
                self.problem("lance", "Elige el lance.")
        hand["lance"] = lance
        trump = self._trump(hand)
        try:
            matadores = int(self.matadores.data or 0)
        except ValueError:
            matadores = -1
        top = 3 if trump in BLACK_SUITS else 4
        if not 0 <= matadores <= 4:
            self.problem("matadores", "Los matadores son de 0 a 4.")
        elif matadores > top:
            self.problem(
                "matadores", f"Con triunfo de {trump} hay como mucho 3 matadores: el punto solo es matador en rojo."
            )
        elif matadores and lance == "contrabola":
            self.problem("matadores", "La contrabola se juega sin matadores: marca 0.")
        elif matadores:
            hand["matadores"] = matadores
        declared = lance in ("bola", "contrabola")
        if self.primeras.data:
            if declared:
                self.problem("primeras", f"Una {lance} declarada no tiene primeras: quita la marca.")
            else:
                hand["primeras"] = "jugador"
        if self.bola.data in ("hecha", "cortada"):
            if declared:
                self.problem("bola", f"Una {lance} declarada ya es la bola: deja «no» aquí.")
            else:
                hand["bola"] = self.bola.data
        tricks = _tricks(self)
        if tricks is not None:
            hand["tricks"] = tricks
        return None if self.problems else hand


class OmbreHandForm(GameHandForm):
    """A hand of Ombre sencillo: jugador (el hombre), lance, triunfo, bazas, quién tuvo los tres matadores."""

    ruleset = "ombre"
    jugador = RadioField("Jugador", choices=[], validate_choice=False)
    lance = RadioField(
        "Lance", choices=options([(w, w) for w in OMBRE_LANCES]), default="entrada", validate_choice=False
    )
    trump = RadioField("Triunfo", choices=options(SUIT_PAIRS), validate_choice=False)
    tricks_1 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    tricks_2 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    tricks_3 = RadioField("Bazas", choices=TRICK_CHOICES, validate_choice=False)
    matadores_en = RadioField("Los tres matadores", choices=[], default="", validate_choice=False)

    def setup(self, rules: Mapping[str, Any]) -> None:
        self.jugador.choices = options([(str(s), self.names[s]) for s in self.seats])
        self.matadores_en.choices = options([("", "nadie"), *((str(s), self.names[s]) for s in self.seats)])

    def fill(self, hand: Mapping[str, Any]) -> None:
        self._fill_played(hand)
        self.matadores_en.data = str(hand.get("matadores_en") or "")

    def to_hand(self) -> dict[str, Any] | None:
        hand: dict[str, Any] = {}
        self._jugador(hand)
        lance = self.lance.data or "entrada"
        if lance not in OMBRE_LANCES:
            self.problem("lance", "Elige el lance.")
        hand["lance"] = lance
        self._trump(hand)
        if self.matadores_en.data:
            holder = _seat(self.matadores_en.data, self.seats)
            if holder is None:
                self.problem("matadores_en", "Elige quién tuvo los tres matadores, o «nadie».")
            else:
                hand["matadores_en"] = holder
        tricks = _tricks(self)
        if tricks is not None:
            hand["tricks"] = tricks
        return None if self.problems else hand


class FaltaForm(Form):
    """One fault of the juego de bandos (B3): who, which, and optionally how many tantos."""

    seat = RadioField("Quién", choices=[], default="", validate_choice=False)
    falta = RadioField(
        "Falta",
        choices=options([("fuera_de_turno", "fuera de turno"), ("renuncio", "renuncio")]),
        default="fuera_de_turno",
        validate_choice=False,
    )
    points = WholeField("Tantos (vacío: los de la partida)", validators=[Optional(), between(0, 100)])


FALTA_ROWS = 3


class BandosHandForm(GameHandForm):
    """A hand of the juego de bandos: primeras (A, B o nadie), capote, faltas."""

    ruleset = "bandos"
    primeras = RadioField("Primeras", choices=[], default="", validate_choice=False)
    capote = BooleanField("Capote: ese equipo hizo las seis bazas")
    faltas = FieldList(FormField(FaltaForm), min_entries=FALTA_ROWS)

    def setup(self, rules: Mapping[str, Any]) -> None:
        def team(name: str) -> str:
            members = ", ".join(self.names[s] for s in self.names if TEAM_OF_SEAT.get(s) == name)
            return f"Equipo {name}: {members}"

        self.primeras.choices = options([("A", team("A")), ("B", team("B")), ("", "nadie (una falta acabó la mano)")])
        self.penalties = {
            "fuera_de_turno": int(rules.get("fuera_de_turno", 1)),
            "renuncio": int(rules.get("renuncio", 1)),
        }
        self._seat_choices()

    def _seat_choices(self) -> None:
        for entry in self.faltas.entries:
            entry.form.seat.choices = options([*((str(s), name) for s, name in self.names.items()), ("", "ninguna")])

    def fill(self, hand: Mapping[str, Any]) -> None:
        self.primeras.data = hand.get("primeras") or ""
        self.capote.data = bool(hand.get("capote"))
        faltas = list(hand.get("faltas") or [])
        while self.faltas.entries:
            self.faltas.pop_entry()
        for f in faltas:
            self.faltas.append_entry(
                {"seat": str(f.get("seat", "")), "falta": f.get("falta"), "points": f.get("points")}
            )
        while len(self.faltas.entries) < max(FALTA_ROWS, len(faltas) + 1):
            self.faltas.append_entry()
        self._seat_choices()

    def to_hand(self) -> dict[str, Any] | None:
        hand: dict[str, Any] = {}
        primeras = self.primeras.data or ""
        if primeras not in ("", "A", "B"):
            self.problem("primeras", "Elige el equipo A, el B o nadie.")
        elif primeras:
            hand["primeras"] = primeras
        if self.capote.data:
            if primeras:
                hand["capote"] = True
            else:
                self.problem("capote", "El capote es del equipo que hizo las seis bazas: elige antes sus primeras.")
        faltas = []
        for i, entry in enumerate(self.faltas.entries, 1):
            sub = entry.form
            if not sub.seat.data:
                if sub.points.data is not None:
                    self.problem("faltas", f"Falta {i}: elige quién la hizo.")
                continue
            seat = _seat(sub.seat.data, tuple(self.names))
            if seat is None:
                self.problem("faltas", f"Falta {i}: elige quién la hizo.")
                continue
            kind = sub.falta.data or "fuera_de_turno"
            if kind not in ("fuera_de_turno", "renuncio"):
                self.problem("faltas", f"Falta {i}: elige «fuera de turno» o «renuncio».")
                continue
            falta: dict[str, Any] = {"seat": seat, "falta": kind}
            if sub.points.data is not None:
                falta["points"] = int(sub.points.data)
            faltas.append(falta)
        for entry in self.faltas.entries:
            if entry.form.points.errors:
                self.problem("faltas", "Los tantos de una falta son un número de 0 a 100.")
                break
        if faltas:
            hand["faltas"] = faltas
        if not primeras and not faltas and "primeras" not in self.problems:
            self.problem(
                "primeras", "Elige el equipo que hizo las tres primeras bazas, o anota la falta que acabó la mano."
            )
        return None if self.problems else hand


GAME_HAND_FORMS: dict[str, type[GameHandForm]] = {
    "pozo_viuda": PozoHandForm,
    "ombre": OmbreHandForm,
    "bandos": BandosHandForm,
}


def game_hand_form(
    ruleset: str,
    players: Sequence[str],
    dealer: int,
    rules: Mapping[str, Any] | None = None,
    *,
    formdata: Any = None,
    hand: Mapping[str, Any] | None = None,
    revision: int | None = None,
    deal: int | None = None,
    table_revision: int | None = None,
) -> HandForm | GameHandForm:
    """The hand form of a table's rule set (Tresillo's :func:`hand_form` or one of the others)."""
    if ruleset not in GAME_HAND_FORMS:
        return hand_form(
            players,
            dealer,
            rules,
            formdata=formdata,
            hand=hand,
            revision=revision,
            deal=deal,
            table_revision=table_revision,
        )
    kwargs: dict[str, Any] = {}
    if formdata is not None:
        kwargs["formdata"] = formdata
    form = GAME_HAND_FORMS[ruleset](**kwargs)
    form.problems = {}
    form.names = {i: name for i, name in enumerate(players, 1)}
    form.dealer = dealer
    form.seats = active_seats(len(players), dealer) if len(players) in (3, 4) else tuple(form.names)
    form.setup(rules or {})
    if not form.is_submitted():
        _bind(form, revision, deal, table_revision)
        if hand is not None:
            form.fill(hand)
    return form


def read_hand(form: HandForm | GameHandForm) -> dict[str, Any] | None:
    """The hand of any game's form, or None with the problems attached to the fields."""
    if isinstance(form, HandForm):
        return hand_from_form(form)
    return form.to_hand()
