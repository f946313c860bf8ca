"""The cambio de palo de favor (Tresillo R34, issue 22): ``/t/<token>/favor``, beside the ajuste and the
cambio de jugador. A preview, then the entry ``{"favor": SUIT}`` (with its note); undone by deleting it
from its hand page, like any entry. Kept offline like the ajuste (``data-offline="favor"``, read by
:func:`read_favor_fields` in the entries endpoint's registry).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict
from wtforms import RadioField

from scorer import evening
from scorer.web import services
from scorer.web.evening.forms import EventForm
from scorer.web.forms import SUIT_PAIRS, options
from scorer.web.pages import Page
from scorer.words import suit_text

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
    if suit not in SUITS:
        form.problem("suit", _("Elige el nuevo palo de favor: oros, copas, espadas o bastos."))
    elif suit == form.current:
        form.problem(
            "suit",
            _(
                "El palo de favor ya es %(suit)s: un cambio de palo de favor nombra otro palo (R34).",
                suit=suit_text(suit),
            ),
        )
    if form.has_problems() or form.note.errors:
        return None
    entry: dict[str, Any] = {"favor": suit}
    note = " ".join((form.note.data or "").split())
    if note:
        entry["note"] = note
    return entry


def closed_words() -> str:
    return _("La partida está cerrada (R30): después del cierre no se cambia el palo de favor.")


def favor_in_force(table: Any) -> str | None:
    """The favour suit in force after the last entry (the ledger's top-level ``favor_suit``, R34)."""
    suit = services.ledger_of(table).get("favor_suit")
    return str(suit) if suit else None


def read_favor_fields(table: Any, fields: MultiDict[str, str]) -> dict[str, Any]:
    """The entries endpoint's reader (api/entries.py): the form as the page reads its POST, for the suit now."""
    from scorer.web.api.entries import Refused, read_form
    from scorer.web.games import game_of

    if not game_of(table.ruleset).evening:  # R34: Tresillo's
        raise Refused(_("Esta partida no admite cambios de palo de favor: sus reglas no los tienen."), 422)
    if table.closed:
        raise Refused(closed_words(), 422)
    return read_form(favor_form(favor_in_force(table), formdata=fields), read_favor)


@dataclass(frozen=True)
class FavorPreview:
    """What the change does: from which hand on which suit is favour; no money moves (R34)."""

    before: str | None
    after: str
    first_hand: int  # the number of the first entry played under the new suit


def register(bp: Any) -> None:
    """The page on the evening blueprint (called by evening.routes)."""
    from scorer.web.evening import routes

    @bp.app_context_processor
    def favor_context() -> dict[str, Any]:
        return {"favor_words": favor_words}

    @bp.route("/t/<token>/favor", methods=["GET", "POST"])
    def favor(token: str) -> Page:
        """R34: the table changes its palo de favor from the next hand on."""
        if request.method == "POST":
            replay = routes._already_saved(services.require_edit(token))
            if replay is not None:
                return replay
            table = services.require_edit(token)
            if table.closed:
                flash(closed_words(), "error")
                return redirect(url_for("tables.table", token=token))
        table = routes._tresillo_table(token)
        if table is None:
            return redirect(url_for("tables.table", token=token))
        current = favor_in_force(table)
        form = favor_form(current, formdata=request.form if request.method == "POST" else None)
        if request.method == "GET":
            form.request_id.data = uuid.uuid4().hex
            return _page(table, token, form, None, 200)
        hand = read_favor(form) if form.validate() else None
        if hand is None:
            return _page(table, token, form, None, 400)
        if form.preview.data:
            try:
                services.preview_hand(table, hand)
            except services.Invalid as exc:
                routes._refusal(form, exc, 0)
                return _page(table, token, form, None, 400)
            number = len(services.ledger_of(table).get("hands") or []) + 1
            return _page(table, token, form, FavorPreview(current, hand["favor"], number + 1), 200)
        number = routes._save(table, hand, None, form)
        if number is None:
            return _page(table, token, form, None, 400)
        flash(_("Cambio de palo de favor anotado (%(n)s): %(what)s.", n=number, what=evening.favor_text(hand["favor"])))
        return redirect(url_for("tables.table", token=token))


def _page(table: Any, token: str, form: FavorForm, preview: FavorPreview | None, status: int) -> tuple[str, int]:
    history = evening.favor_history(services.session_of(table))
    page = render_template(
        "evening/favor.html", table=table, token=token, form=form, preview=preview, history=history, suit_text=suit_text
    )
    return page, status


def favor_words(table: Any) -> tuple[str, list[str]]:
    """The table page (Tresillo): the favour suit in force, and the evening's suits when it changed (R34)."""
    suit = favor_in_force(table)
    now = _("Palo de favor: %(suit)s.", suit=suit_text(suit)) if suit else _("Sin palo de favor.")
    return now, evening.favor_lines(services.session_of(table))
