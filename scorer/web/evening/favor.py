"""The cambio de palo de favor (Tresillo R34): ``/t/<token>/favor``, beside the ajuste and the
cambio de jugador. A preview, then the entry ``{"favor": SUIT}`` (with its note); undone by deleting it
from its hand page, like any entry. Kept offline like the ajuste (``data-offline="favor"``, read by
``_read_favor_form`` in the entries endpoint's registry, api/entries.py). The page's view is in
``evening.routes`` (``favor``); its form, reader and words are here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import render_template
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import RadioField

from scorer import evening
from scorer.games.fields import SUIT_PAIRS, options
from scorer.web import services
from scorer.web.evening.forms import EventForm
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
    suit = services.totals_of(table).get("favor_suit")  # the ledger's top keys, not a copy of every entry
    return str(suit) if suit else None


@dataclass(frozen=True)
class FavorPreview:
    """What the change does: from which hand on which suit is favour; no money moves (R34)."""

    before: str | None
    after: str
    first_hand: int  # the number of the first entry played under the new suit


def register(bp: Any) -> None:
    """The table page's words of the favour suit (evening.routes registers the page itself)."""

    @bp.app_context_processor
    def favor_context() -> dict[str, Any]:
        return {"favor_words": favor_words}


def page(table: Any, token: str, form: FavorForm, preview: FavorPreview | None, status: int) -> tuple[str, int]:
    history = evening.favor_history(services.session_of(table))
    page = render_template(
        "evening/favor.html", table=table, token=token, form=form, preview=preview, history=history, suit_text=suit_text
    )
    return page, status


def favor_words(table: Any) -> tuple[str, list[str]]:
    """The table page (Tresillo): the favour suit in force, and the evening's suits when it changed (R34)."""
    suit = favor_in_force(table)
    now = _("Palo de favor: %(suit)s.", suit=suit_text(suit)) if suit else _("Sin palo de favor.")
    return now, services.kept(table, "favor_lines", lambda: evening.favor_lines(services.favor_session(table)))
