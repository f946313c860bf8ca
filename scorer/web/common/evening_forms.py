"""The forms of the entries of an evening of Tresillo: ajuste (R32), cambio de jugador (R33), cambio de
palo de favor (R34), and the "última vuelta" mark (R30). Shared: the evening's pages show and read them,
the entries endpoint (api) reads them for the offline queue, the table page shows the mark.

Each form maps to exactly the entry of format.md the table means, nothing more:
the stored data is what the table entered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, StringField, SubmitField
from wtforms.validators import Length, Optional

from scorer import evening, store
from scorer.evening import PLATO, TODOS, join_note, split_note
from scorer.games.fields import SUIT_PAIRS, WholeField, options
from scorer.store import penas as pena_services
from scorer.web.common.evening import seating_for
from scorer.words import AJUSTE_REASON_WORDS, AJUSTE_REASONS, suit_text

MAX_AMOUNT = 100_000  # tantos: far above any ajuste a table agrees
MAX_NOTE = 200
MAX_NAME = 40
OTHER = "otro"


class EventForm(FlaskForm):
    """What the event forms share: double-submit id, revision (edit), the two buttons, problems."""

    request_id = HiddenField()
    revision = HiddenField()
    note = StringField(
        _l("Nota (opcional)"),
        validators=[Optional(), Length(max=MAX_NOTE, message=_l("Como mucho %(max)d caracteres."))],
    )
    preview = SubmitField(_l("Ver pagos"))
    save = SubmitField(_l("Guardar"))

    problems: dict[str, list[str]]

    def problem(self, name: str, message: str) -> None:
        self.problems.setdefault(name, []).append(message)

    def messages(self, name: str) -> list[str]:
        field = getattr(self, name, None)
        own = list(field.errors) if field is not None and hasattr(field, "errors") else []
        return own + self.problems.get(name, [])

    def has_problems(self) -> bool:
        return any(self.problems.values())


def _seat_choices(seating: Mapping[int, str]) -> list[Any]:
    return options([(str(seat), seating[seat]) for seat in sorted(seating)])


def _seat(value: object, seating: Mapping[int, str]) -> int | None:
    text = str(value or "")
    # ascii and short: "²" is a digit to isdigit, and int() refuses 5,000 digits (the fuzz test found both)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 3 and int(text) in seating else None


# ------------------------------------------------------------------- ajuste


class AjusteForm(EventForm):
    """R32: who pays, to whom (a player, the plato, each of the others), how much, why."""

    payer = RadioField(_l("Quién paga"), choices=[], validate_choice=False)
    to = RadioField(_l("A quién"), choices=[], validate_choice=False)
    amount = WholeField(_l("Cuántos tantos"))
    reason = RadioField(_l("Por qué"), choices=[], default="", validate_choice=False)

    seating: dict[int, str]


def ajuste_form(seating: Mapping[int, str], *, hand: Mapping[str, Any] | None = None, **kwargs: Any) -> AjusteForm:
    """The ajuste form for the seating now (or the entry being corrected, ``hand``)."""
    form = AjusteForm(**kwargs)
    form.problems = {}
    form.seating = dict(seating)
    form.payer.choices = _seat_choices(seating)
    form.to.choices = [
        *_seat_choices(seating),
        *options([(PLATO, _l("El plato")), (TODOS, _l("Cada uno de los demás"))]),
    ]
    form.reason.choices = options([*((r, AJUSTE_REASON_WORDS[r]) for r in AJUSTE_REASONS), ("", _l("otro"))])
    if hand is not None and not form.is_submitted():
        _show_ajuste(form, hand)
    return form


def _show_ajuste(form: AjusteForm, hand: Mapping[str, Any]) -> None:
    """The stored ajuste in the form, to correct it."""
    ajuste = hand.get("ajuste") or {}
    form.payer.data = str(ajuste.get("from", ""))
    form.to.data = str(ajuste.get("to", ""))
    form.amount.data = ajuste.get("amount")
    form.reason.data, form.note.data = split_note(hand.get("note"))


def read_ajuste(form: AjusteForm) -> dict[str, Any] | None:
    """The entry ``{"ajuste": {...}, "note": ...}``, or None with the problems attached in Spanish."""
    payer = _ajuste_payer(form)
    to = _ajuste_to(form, payer)
    amount = _ajuste_amount(form)
    reason = str(form.reason.data or "")
    if form.has_problems() or form.amount.errors or form.note.errors:
        return None
    note = join_note(reason if reason in AJUSTE_REASONS else "", form.note.data or "")
    return _with_note({"ajuste": {"from": payer, "to": to, "amount": amount}}, note)


def _ajuste_payer(form: AjusteForm) -> int | None:
    """Who pays: one of the seats."""
    payer = _seat(form.payer.data, form.seating)
    if payer is None:
        form.problem("payer", _("Elige quién paga."))
    return payer


def _ajuste_to(form: AjusteForm, payer: int | None) -> int | str | None:
    """Whom the ajuste pays: a seat, the plato or each of the others; never the payer."""
    raw = str(form.to.data or "")
    to: int | str | None = raw if raw in (PLATO, TODOS) else _seat(raw, form.seating)
    if to is None:
        form.problem("to", _("Elige a quién paga: un jugador, el plato o cada uno de los demás."))
    elif to == payer:
        form.problem("to", _("Quien paga no puede pagarse a sí mismo: elige a otro, el plato o cada uno de los demás."))
    return to


def _ajuste_amount(form: AjusteForm) -> int | None:
    """How many tantos: a whole number from 1 to MAX_AMOUNT (the field itself refuses what is not a number)."""
    amount = form.amount.data
    if form.amount.errors:
        return amount
    if amount is None:
        form.problem("amount", _("Escribe cuántos tantos."))
    elif not 1 <= amount <= MAX_AMOUNT:
        form.problem("amount", _("Ha de ser un número de %(min)s a %(max)s.", min=1, max=MAX_AMOUNT))
    return amount


def _with_note(entry: dict[str, Any], note: str) -> dict[str, Any]:
    """The entry with its note, when there is one."""
    if note:
        entry["note"] = note
    return entry


def _clean_name(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------ cambio de jugador


class CambioForm(EventForm):
    """R33: a seat and the person who sits there from the next hand."""

    seat = RadioField(_l("Asiento"), choices=[], validate_choice=False)
    player = RadioField(_l("Quién se sienta"), choices=[], default=OTHER, validate_choice=False)
    new_name = StringField(_l("Nombre de quien llega"), validators=[Optional()])
    confirm = SubmitField(_l("Confirmar el cambio"))

    seating: dict[int, str]
    free: list[str]


def cambio_form(
    seating: Mapping[int, str], used: Sequence[str], *, hand: Mapping[str, Any] | None = None, **kwargs: Any
) -> CambioForm:
    """The form: the seats with who sits there now; the names already used at this table not seated now."""
    form = CambioForm(**kwargs)
    form.problems = {}
    form.seating = dict(seating)
    form.free = _free_names(used, seating)
    form.seat.choices = options([(str(s), f"{s} · {seating[s]}") for s in sorted(seating)])
    form.player.choices = options([*((name, name) for name in form.free), (OTHER, _l("Otro nombre"))])
    if hand is not None and not form.is_submitted():
        _show_cambio(form, hand)
    return form


def _free_names(used: Sequence[str], seating: Mapping[int, str]) -> list[str]:
    """The names already used at the table that are not seated now: who may come back."""
    seated = {name.casefold() for name in seating.values()}
    return [name for name in used if name.casefold() not in seated]


def _show_cambio(form: CambioForm, hand: Mapping[str, Any]) -> None:
    """The stored change of player in the form, to correct it: a name not free now is written as another."""
    change = hand.get("sienta") or {}
    form.seat.data = str(change.get("seat", ""))
    name = str(change.get("player", ""))
    if name in form.free:
        form.player.data = name
    else:
        form.player.data, form.new_name.data = OTHER, name
    form.note.data = str(hand.get("note") or "")


def read_cambio(form: CambioForm) -> dict[str, Any] | None:
    """The entry ``{"sienta": {"seat", "player"}}`` (with its note), or None with the problems in Spanish."""
    seat = _seat(form.seat.data, form.seating)
    if seat is None:
        form.problem("seat", _("Elige el asiento que cambia."))
    name = _who_sits(form)
    problem = _name_problem(name, form.seating)
    if problem is not None:
        form.problem("player", problem)
    if form.has_problems() or form.note.errors:
        return None
    return _with_note({"sienta": {"seat": seat, "player": name}}, _clean_name(form.note.data or ""))


def _who_sits(form: CambioForm) -> str:
    """The name chosen among the free ones, or the one written (anything else chosen reads as written)."""
    chosen = str(form.player.data or OTHER)
    return chosen if chosen != OTHER and chosen in form.free else _clean_name(form.new_name.data or "")


def _name_problem(name: str, seating: Mapping[int, str]) -> str | None:
    """What is wrong with the name of who sits down, in Spanish; None when nothing is."""
    if not name:
        return _("Elige quién se sienta o escribe su nombre.")
    if len(name) > MAX_NAME:
        return _("El nombre tiene como mucho %(max)s caracteres.", max=MAX_NAME)
    if not name.isprintable():
        return _("El nombre lleva caracteres que no se pueden escribir.")
    where = next((s for s, n in seating.items() if n.casefold() == name.casefold()), None)
    if where is not None:
        return _("%(name)s ya está sentado (asiento %(seat)s): elige a otra persona.", name=seating[where], seat=where)
    return None


def cambio_form_for(table: Any, n: int | None, **kwargs: Any) -> CambioForm:
    """The cambio form for the seating now (or at entry ``n``), offering the names already used at the
    table and its peña's people; the cambio page and the offline queue (api/entries.py) read it."""
    session, ledger = store.read(table).session_copy(), store.read(table).ledger_copy()
    used = evening.names_used(session, ledger)
    used += [name for name in pena_services.roster_for_table(table) if name not in used]
    return cambio_form(seating_for(session, ledger, n), used, **kwargs)


# ------------------------------------------------------- cambio de palo de favor

SUITS = tuple(value for value, _label in SUIT_PAIRS)


class FavorForm(EventForm):
    """R34: the suit that is favour from the next hand on."""

    suit = RadioField(_l("Nuevo palo de favor"), choices=options(SUIT_PAIRS), validate_choice=False)

    current: str | None


def favor_form(current: str | None, **kwargs: Any) -> FavorForm:
    form = FavorForm(**kwargs)
    form.problems = {}
    form.current = current
    return form


def read_favor(form: FavorForm) -> dict[str, Any] | None:
    """The entry ``{"favor": SUIT}`` (with its note), or None with the problem next to the suit, in Spanish."""
    suit = str(form.suit.data or "")
    problem = _suit_problem(suit, form.current)
    if problem is not None:
        form.problem("suit", problem)
    if form.has_problems() or form.note.errors:
        return None
    return _with_note({"favor": suit}, _clean_name(form.note.data or ""))


def _suit_problem(suit: str, current: str | None) -> str | None:
    """What is wrong with the new favour suit, in Spanish: none chosen, or the one in force already."""
    if suit not in SUITS:
        return _("Elige el nuevo palo de favor: oros, copas, espadas o bastos.")
    if suit == current:
        return _(
            "El palo de favor ya es %(suit)s: un cambio de palo de favor nombra otro palo (R34).", suit=suit_text(suit)
        )
    return None


def favor_closed_words() -> str:
    return _("La partida está cerrada (R30): después del cierre no se cambia el palo de favor.")


# ------------------------------------------------------------- the closing


class EndingForm(FlaskForm):
    """ "Jugar hasta que se gane el plato": the keeper marks the evening as ending (or takes it back)."""

    ending = HiddenField()
    submit = SubmitField(_l("Última vuelta"))
