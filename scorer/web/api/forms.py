"""The forms a phone keeps offline, read by the API's queue (scorer/web/api/entries.py) with the
very code of each form's own page: the fields exactly as the form had them, its own reader, the
messages its page would show next to each field when it refuses them.

A form saved with no network is kept by the phone (static/offline.js) as its fields, with an
Idempotency-Key; when the network returns the queue is sent in order. The phone knows nothing of
the game. A new queueable form needs only its reader in ``OFFLINE_FORMS``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from scorer import store
from scorer.games import game_of
from scorer.web.api.queue import Refused
from scorer.web.common.evening import favor_in_force, seating_for
from scorer.web.common.evening_forms import (
    ajuste_form,
    cambio_form_for,
    favor_closed_words,
    favor_form,
    read_ajuste,
    read_cambio,
    read_favor,
)
from scorer.web.common.forms import read_hand
from scorer.web.common.hand_form import hand_form


def _form_problems(form: Any) -> dict[str, list[str]]:
    """Every message the form attached, per field (what its page would show next to each)."""
    problems: dict[str, list[str]] = {}

    def flat(errors: Any) -> list[str]:
        if isinstance(errors, dict):
            return [m for v in errors.values() for m in flat(v)]
        if isinstance(errors, (list, tuple)):
            return [m for v in errors for m in flat(v)]
        return [str(errors)]

    for field in form:
        if field.errors:
            problems.setdefault(field.name, []).extend(flat(field.errors))
    for name, said in form.problems.items():
        problems.setdefault(name, []).extend(said)
    return problems


def read_form(form: Any, read: Callable[[Any], dict[str, Any] | None]) -> dict[str, Any]:
    """What a page's form (made with the posted fields) records, read by that page's own reader;
    refused with the messages the page would show next to each field. A new queueable form needs
    only its reader in OFFLINE_FORMS, e.g. ``lambda table, fields: read_form(ajuste_form(…,
    formdata=fields), read_ajuste)``."""
    entry = read(form) if form.validate() else None
    if entry is None:
        problems = _form_problems(form)
        first = next(iter(problems.values()), [gettext("Revisa lo anotado.")])[0]
        raise Refused(gettext("No se ha guardado: %(reason)s", reason=first), 422, problems, reason=first)
    return entry


def _read_hand_form(table: Any, fields: MultiDict[str, str]) -> dict[str, Any]:
    """The new-hand form (any game), read exactly as ``tables.hands.new_hand`` reads its POST."""
    dealer = int(store.read(table).ledger_copy().get("next_dealer") or 1)
    return read_form(hand_form(table, dealer, formdata=fields), read_hand)


def _read_pass_form(_table: Any, _fields: MultiDict[str, str]) -> dict[str, Any]:
    """ "Todos pasan": the form carries nothing but its ids (tables.hands.all_pass)."""
    return {"pass": True}


def _read_ajuste_form(table: Any, fields: MultiDict[str, str]) -> dict[str, Any]:
    """An ajuste (R32), read as ``evening.routes.ajuste`` reads its POST, for the seating now."""
    if not game_of(table.ruleset).evening:  # R32: Tresillo's
        raise Refused(gettext("Esta partida no admite ajustes: sus reglas no los tienen."), 422)
    seating = seating_for(store.read(table).session_copy(), store.read(table).ledger_copy(), None)
    return read_form(ajuste_form(seating, formdata=fields), read_ajuste)


def _read_cambio_form(table: Any, fields: MultiDict[str, str]) -> dict[str, Any]:
    """A change of player (R33), read as ``evening.routes.cambio`` reads its POST, for the seating now.
    Offline its page showed, before the confirming tap, what the server knew the change cancels."""
    if not game_of(table.ruleset).evening:  # R33: Tresillo's
        raise Refused(gettext("Esta partida no admite cambios de jugador: sus reglas no los tienen."), 422)
    return read_form(cambio_form_for(table, None, formdata=fields), read_cambio)


def _read_favor_form(table: Any, fields: MultiDict[str, str]) -> dict[str, Any]:
    """A change of favour suit (R34), read as ``evening.routes.favor`` reads its POST, for the suit now."""
    if not game_of(table.ruleset).evening:  # R34: Tresillo's
        raise Refused(gettext("Esta partida no admite cambios de palo de favor: sus reglas no los tienen."), 422)
    if table.closed:
        raise Refused(favor_closed_words(), 422)
    form = favor_form(favor_in_force(table), formdata=fields)
    return read_form(form, read_favor)


# The queueable forms: the value of the form's data-offline attribute → its reader. An ajuste and a
# cambio de jugador use up no deal (R32, R33): static/offline.js counts only "hand" and "pass".
OFFLINE_FORMS: dict[str, Callable[[Any, MultiDict[str, str]], dict[str, Any]]] = {
    "hand": _read_hand_form,
    "pass": _read_pass_form,
    "ajuste": _read_ajuste_form,
    "cambio": _read_cambio_form,
    "favor": _read_favor_form,
}
