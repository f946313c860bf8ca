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
from scorer.engine.core import SESSION_FORMAT
from scorer.engine.tresillo import LONG_SUITS, OPTION_DEFAULTS, active_seats

from .present import LANCE_WORDS, SUIT_SYMBOLS, parse_decimal

# Spanish names of the rule sets a table can choose ("Juego"); a rule set registered
# in scorer.engine.registry appears here by itself, under its own name if not listed.
GAME_LABELS = {"tresillo": "Tresillo", "pozo_viuda": "Pozo y viuda", "ombre": "Hombre", "bandos": "Bandos"}
SUITS = ("oros", "copas", "espadas", "bastos")
SUIT_PAIRS = [(s, f"{s} {SUIT_SYMBOLS[s]}") for s in SUITS]
MAX_PLAYERS = 4


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


REQUIRED = InputRequired(message="Hace falta un número.")


def options(pairs: Sequence[tuple[str, str]]) -> list[SelectChoice]:
    """Choices for WTForms (tuples are deprecated there); templates read ``.value`` and ``.label``."""
    return [SelectChoice(value, label) for value, label in pairs]


NAME_MAX = 40


def game_choices() -> list[SelectChoice]:
    """The rule sets of the engine's registry, Tresillo first."""
    names = sorted(RULESETS, key=lambda n: (n != "tresillo", n))
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
    "solo_codillo": "Un solo o vuelta solera perdido por codillo: el codillo y las condiciones, o solo el codillo.",
    "failed_bola": "Bola cortada: el jugador paga la bola (100) a cada uno, o no paga nada.",
}


class NewTableForm(FlaskForm):
    """A new table: players as they sit, who keeps the cartulina, first dealer, house rules, money."""

    game = SelectField("Juego", choices=game_choices, default="tresillo")
    name = StringField("Nombre de la partida", validators=[Optional(), longest(80)])
    player1 = StringField("Asiento 1", validators=[Optional(), longest(NAME_MAX)])
    player2 = StringField("Asiento 2", validators=[Optional(), longest(NAME_MAX)])
    player3 = StringField("Asiento 3", validators=[Optional(), longest(NAME_MAX)])
    player4 = StringField("Asiento 4 (vacío si sois tres)", validators=[Optional(), longest(NAME_MAX)])
    keeper = SelectField(
        "Lleva la cartulina",
        choices=options([(str(i), f"Asiento {i}") for i in range(1, 5)]),
        default="1",
        validate_choice=True,
    )
    first_dealer = SelectField(
        "Da la primera mano",
        choices=options([(str(i), f"Asiento {i}") for i in range(1, 5)]),
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
        choices=options([("codillo_and_conditions", "codillo y condiciones"), ("codillo_only", "solo el codillo")]),
        default="codillo_and_conditions",
    )
    failed_bola = RadioField(
        "Bola cortada", choices=options([("pays_bola", "paga la bola"), ("free", "no paga")]), default="pays_bola"
    )
    tanto_value = StringField("Valor del tanto", default="0,05", validators=[Optional(), longest(20)])
    currency = StringField("Moneda", default="€", validators=[Optional(), longest(8)])
    date = DateField("Fecha", default=dt.date.today, validators=[Optional()])  # type="date": the browser picks it
    place = StringField("Lugar", validators=[Optional(), longest(80)])
    notes = TextAreaField("Notas", validators=[Optional(), longest(2000)])
    submit = SubmitField("Empezar la partida")

    def player_fields(self) -> list[StringField]:
        return [self.player1, self.player2, self.player3, self.player4]

    def names(self) -> list[str]:
        """The names entered, in seat order, without the empty fourth seat."""
        names = [(f.data or "").strip() for f in self.player_fields()]
        while names and not names[-1]:
            names.pop()
        return names

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        return self._check_players() and ok

    def _check_players(self) -> bool:
        names = self.names()
        fields = self.player_fields()
        for i, name in enumerate(names):
            if not name:
                fields[i].errors.append("Falta el nombre: los jugadores se anotan seguidos, como se sientan.")
        for i in range(len(names), 3):
            fields[i].errors.append("Falta el nombre: hacen falta 3 o 4 jugadores.")
        seen: set[str] = set()
        for i, name in enumerate(names):
            key = name.casefold()
            if name and key in seen:
                fields[i].errors.append(f"«{name}» ya está en la mesa: cada jugador con un nombre distinto.")
            seen.add(key)
        return not any(f.errors for f in fields)

    def validate_keeper(self, field: SelectField) -> None:
        if int(field.data or 1) > max(3, len(self.names())):
            raise ValidationError("Con tres jugadores, la cartulina la lleva uno de los asientos 1 a 3.")

    def validate_first_dealer(self, field: SelectField) -> None:
        if int(field.data or 1) > max(3, len(self.names())):
            raise ValidationError("Con tres jugadores, da uno de los asientos 1 a 3.")

    def validate_tanto_value(self, field: StringField) -> None:
        if not (field.data or "").strip():
            return
        value = parse_decimal(field.data)
        if value is None:
            raise ValidationError(f"«{field.data}» no es una cantidad: escribe por ejemplo 0,05.")
        if value < 0:
            raise ValidationError("El valor del tanto no puede ser negativo.")


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
        "keeper": int(form.keeper.data or 1),
    }
    session.update({k: v for k, v in app_keys.items() if v != ""})
    return session


# ----------------------------------------------------------------------- hand

ESTUCHE_CHOICES = options([("", "no"), ("3", "3"), ("4", "4"), ("5", "5"), ("mas", "más")])
TRICK_CHOICES = options([(str(i), str(i)) for i in range(10)])


class HandForm(FlaskForm):
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
    request_id = HiddenField()
    revision = HiddenField()
    preview = SubmitField("Ver pagos")
    save = SubmitField("Guardar")

    # set by hand_form()
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


def hand_form(
    players: Sequence[str],
    dealer: int,
    rules: Mapping[str, Any] | None = None,
    *,
    formdata: Any = None,
    hand: Mapping[str, Any] | None = None,
    revision: int | None = None,
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
        form.request_id.data = uuid.uuid4().hex
        if revision is not None:
            form.revision.data = str(revision)
        if hand is not None:
            fill_hand_form(form, hand)
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
    (r"bola hecha needs all nine tricks, not (\d+)", "bola",
     "Bola hecha: el jugador hace las nueve bazas (aquí {0})."),
    (r"bola cortada needs a won hand with 5 to 8 tricks, not " + _SPLIT, "bola",
     "Bola cortada: el jugador gana con 5 a 8 bazas, no con {0}."),
    (r"primeras for the jugador need a won hand with 5 tricks, not " + _SPLIT, "primeras",
     "Primeras del jugador: gana la mano con las cinco primeras bazas, no con {0}."),
    (r"primeras for the contra need a puesta, not " + _SPLIT, "primeras",
     "Primeras de la contra: solo cuando la mano es puesta (4-4-1, 3-3-3…), no con {0}."),
    (r"no hand may follow the closing", "general", "La partida está cerrada: no se anotan más manos."),
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
        (r"needs (.+) players, not (\d+)", "Hacen falta {0} jugadores, no {1}."),
        (r"missing players", "Faltan los jugadores."),
        (r"first_dealer must be a seat from 1 to (\d+)", "El que da primero ha de ser un asiento de 1 a {0}."),
        (r"unknown rule '(\w+)'", "Regla desconocida: «{0}»."),
        (r"unknown ruleset", "Juego desconocido."),
        (r"missing format|unknown format", "No es un archivo de partida (tresillo-session/1)."),
    ]
    for pattern, message in patterns:
        match = re.search(pattern, reason)
        if match:
            return message.format(*(g.replace(" or ", " o ") for g in match.groups()))
    return reason


# ---------------------------------------------------------------- other forms


class ConfirmForm(FlaskForm):
    """A button that only carries the CSRF token (todos pasan, borrar, restaurar, cerrar)."""

    submit = SubmitField("Confirmar")


class ImportForm(FlaskForm):
    """Upload a session file (or paste its text) to make a new table."""

    file = FileField("Archivo de partida (.json)")
    text = TextAreaField("…o pega aquí su contenido", validators=[Optional(), longest(2_000_000)])
    submit = SubmitField("Importar")

    def content(self) -> str | None:
        """The uploaded or pasted text; None when nothing came."""
        upload = self.file.data
        if upload is not None and getattr(upload, "filename", ""):
            raw = upload.read(2_000_001)
            if len(raw) > 2_000_000:
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
