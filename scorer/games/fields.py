"""The form building blocks of the games (WTForms, no Flask): number and choice fields that refuse in
Spanish naming the rule, and the hand form every game's own derives from.

A game's hand form here is a plain ``wtforms.Form``; the web app makes it a Flask-WTF form (CSRF, the
request's data) by putting ``FlaskForm`` in front of it (``scorer.web.forms.game_hand_form``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from babel.lists import format_list
from wtforms import Form, HiddenField, IntegerField, RadioField, SubmitField  # type: ignore[import-untyped]
from wtforms.fields.choices import SelectChoice  # type: ignore[import-untyped]
from wtforms.validators import InputRequired, NumberRange, ValidationError  # type: ignore[import-untyped]

from scorer import hand_fields, words
from scorer.engine.tresillo import active_seats
from scorer.games.text import Text, _, _l
from scorer.words import SUITS, suit_text

SUIT_PAIRS = [(s, suit_text(s)) for s in SUITS]


class WholeField(IntegerField):  # type: ignore[misc]
    """An integer field whose complaint is in Spanish."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or str(valuelist[0]).strip() == "":
            self.data = None
            return
        try:
            self.data = int(str(valuelist[0]).strip())
        except ValueError:
            self.data = None
            raise ValueError(_("«%(value)s» no es un número entero.", value=valuelist[0])) from None


def between(low: int, high: int, rule: str | None = None) -> NumberRange:
    """A whole number from ``low`` to ``high``; ``rule``: the rule the option serves, named when refused."""
    if rule is None:
        return NumberRange(low, high, message=_l("Ha de ser un número de %(min)s a %(max)s."))
    return RuleRange(low, high, rule)


class RuleRange(NumberRange):  # type: ignore[misc]
    """:func:`between` for a game's option: the message names its rule ("… de 1 a 100 (R14).")."""

    def __init__(self, low: int, high: int, rule: str) -> None:
        super().__init__(low, high)
        self.rule = rule

    def __call__(self, form: Any, field: Any) -> None:
        try:
            super().__call__(form, field)
        except ValidationError:
            raise ValidationError(
                _("Ha de ser un número de %(min)s a %(max)s (%(rule)s).", min=self.min, max=self.max, rule=self.rule)
            ) from None


REQUIRED = InputRequired(message=_l("Hace falta un número."))


def options(pairs: Sequence[tuple[str, Text]]) -> list[SelectChoice]:
    """Choices for WTForms (tuples are deprecated there); templates read ``.value`` and ``.label``."""
    return [SelectChoice(value, label) for value, label in pairs]


class RuleChoice(RadioField):  # type: ignore[misc]
    """A house rule with a closed set of values: a value not offered is refused naming the rule (R15, O4, B5…)."""

    def __init__(self, *args: Any, rule: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rule = rule

    def pre_validate(self, form: Any) -> None:
        if self.validate_choice and self.data not in {c.value for c in self.choices}:
            raise ValidationError(
                _(
                    "«%(value)s» no es una de sus opciones (%(rule)s): elige %(choices)s.",
                    value=self.data,
                    rule=self.rule,
                    choices=format_list([str(c.label) for c in self.choices], style="or", locale=words.language()),
                )
            )


TRICK_CHOICES = options([(str(i), str(i)) for i in range(10)])


class HandFormBase(Form):  # type: ignore[misc]
    """What every hand form shares: the hidden ids, the two buttons, seats and names, problems next to fields."""

    request_id = HiddenField()
    revision = HiddenField()  # the edited hand's revision (editing)
    deal = HiddenField()  # the number the new hand takes: a form of an earlier deal is refused
    table_revision = HiddenField()  # the table's revision when the form was opened
    preview = SubmitField(_l("Ver pagos"))
    save = SubmitField(_l("Guardar"))

    # set when the form is made for a table
    seats: tuple[int, ...] = ()
    names: dict[int, str] = {}  # noqa: RUF012  (replaced per instance)
    dealer: int = 1
    problems: dict[str, list[str]]
    gaps: dict[str, list[str]]  # the problems that only say a field is not filled in yet

    def is_submitted(self) -> bool:
        """Outside a request a form is never sent (Flask-WTF's, in front of this one, reads the request)."""
        return False

    def trick_field(self, seat: int) -> RadioField:
        field: RadioField = getattr(self, f"tricks_{seat}")
        return field

    def problem(self, name: str, message: str, *, missing: bool = False) -> None:
        """Attach a message to a field ("general" for the whole hand), in the page's language.

        ``missing``: the field is only not filled in yet (no jugador chosen, one tricks count): the
        form is still being filled in, not wrong (the live preview says so without alarm)."""
        self.problems.setdefault(name, []).append(message)
        if missing:
            self.gaps.setdefault(name, []).append(message)

    def messages(self, name: str) -> list[str]:
        field = getattr(self, name, None)
        own = list(field.errors) if field is not None and hasattr(field, "errors") else []
        return own + self.problems.get(name, [])

    def missing(self, name: str) -> list[str]:
        """The messages of a field that say it is not filled in yet (those of :meth:`problem` ``missing``)."""
        return list(self.gaps.get(name, []))

    def setup(self, rules: Mapping[str, Any]) -> None:
        """Choices that depend on the table."""

    def fill(self, hand: Mapping[str, Any]) -> None:
        """Prefill from a stored hand (editing)."""

    def to_hand(self) -> dict[str, Any] | None:
        """The hand dict of format.md, or None with Spanish messages attached to the fields."""
        raise NotImplementedError


def bind_hidden(form: HandFormBase, revision: int | None, deal: int | None, table_revision: int | None) -> None:
    """A fresh form's hidden fields: its request id (double submit) and the state it was opened for."""
    form.request_id.data = uuid.uuid4().hex
    if revision is not None:
        form.revision.data = str(revision)
    if deal is not None:
        form.deal.data = str(deal)
    if table_revision is not None:
        form.table_revision.data = str(table_revision)


def read_tricks(form: HandFormBase) -> dict[str, int] | None:
    """The tricks of the seats that play: two counts are enough (:func:`scorer.hand_fields.read_tricks`)."""
    reading = hand_fields.Reading()
    tricks = hand_fields.read_tricks(lambda name: getattr(form, name).data, form.seats, reading, _)
    show_reading(form, reading)
    return tricks


def show_reading(form: HandFormBase, reading: hand_fields.Reading) -> None:
    """What :mod:`scorer.hand_fields` read, on the form: its problems beside their fields, and the third
    tricks count (what is left of the nine) filled in."""
    for name, message, missing in reading.problems:
        form.problem(name, message, missing=missing)
    if reading.third is not None:
        seat, rest = reading.third
        form.trick_field(seat).data = str(rest)


# Pozo y viuda, Ombre sencillo and the juego de bandos: one form each, same look and
# the same two-counts-are-enough tricks as Tresillo's; the engine decides the rest.


class GameHandForm(HandFormBase):
    """The base of the hand forms of pozo y viuda, Ombre and bandos (scorer.games): shared pieces."""

    def take(self, reading: hand_fields.Reading) -> dict[str, Any] | None:
        """The hand a :mod:`scorer.hand_fields` reader made of the fields (the lines a phone runs offline),
        its messages attached to the fields and the tricks count it filled in shown."""
        for name, message, missing in reading.problems:
            self.problem(name, message, missing=missing)
        if reading.third is not None:
            seat, rest = reading.third
            self.trick_field(seat).data = str(rest)
        return reading.hand

    def _fill_played(self, hand: Mapping[str, Any]) -> None:
        self.jugador.data = str(hand.get("jugador", "")) or None
        self.lance.data = str(hand.get("lance", self.lance.default))
        self.trump.data = hand.get("trump")
        for seat, count in (hand.get("tricks") or {}).items():
            if int(seat) in self.seats:
                self.trick_field(int(seat)).data = str(count)


_IN_FRONT: dict[tuple[type[Any], type[HandFormBase]], type[HandFormBase]] = {}


def in_front(front: type[Any] | None, kind: type[HandFormBase]) -> type[HandFormBase]:
    """``kind`` with ``front`` before it (the web app's ``FlaskForm``: CSRF and the request's data), made once."""
    if front is None:
        return kind
    made = _IN_FRONT.get((front, kind))
    if made is None:
        made = _IN_FRONT[(front, kind)] = type(kind.__name__, (front, kind), {"__module__": kind.__module__})
    return made


def build_hand_form(
    kind: type[HandFormBase],
    players: Sequence[str],
    dealer: int,
    rules: Mapping[str, Any] | None = None,
    *,
    front: type[Any] | None = None,
    formdata: Any = None,
    hand: Mapping[str, Any] | None = None,
    revision: int | None = None,
    deal: int | None = None,
    table_revision: int | None = None,
) -> Any:
    """A game's hand form for a table whose hand ``dealer`` deals; prefilled from ``hand`` when editing.

    ``front``: a form class put in front of ``kind`` (the web app's ``FlaskForm``)."""
    kwargs: dict[str, Any] = {}
    if formdata is not None:
        kwargs["formdata"] = formdata
    form = in_front(front, kind)(**kwargs)
    form.problems = {}
    form.gaps = {}
    form.names = {i: name for i, name in enumerate(players, 1)}
    form.dealer = dealer
    # R3: with three or four players the alcalde is not offered; six (bandos) all play
    form.seats = active_seats(len(players), dealer) if len(players) in (3, 4) else tuple(form.names)
    form.setup(rules or {})
    if not form.is_submitted():
        bind_hidden(form, revision, deal, table_revision)
        if hand is not None:
            form.fill(hand)
    return form
