"""The cambio de palo de favor (Tresillo R34): ``/t/<token>/favor``, beside the ajuste and the
cambio de jugador. A preview, then the entry ``{"favor": SUIT}`` (with its note); undone by deleting it
from its hand page, like any entry. Kept offline like the ajuste (``data-offline="favor"``, read by
``_read_favor_form`` in the entries endpoint's registry, api/entries.py). The page's view is in
``evening.routes`` (``favor``); its form and reader are in scorer/web/common/evening_forms.py; its page
and the table page's words are here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import render_template
from flask_babel import gettext as _

from scorer import evening, store, words
from scorer.web.common.evening import favor_in_force
from scorer.web.common.evening_forms import FavorForm
from scorer.words import suit_text


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
    history = evening.favor_history(store.read(table).session_copy())
    page = render_template(
        "evening/favor.html", table=table, token=token, form=form, preview=preview, history=history, suit_text=suit_text
    )
    return page, status


def favor_words(table: Any) -> tuple[str, list[str]]:
    """The table page (Tresillo): the favour suit in force, and the evening's suits when it changed (R34)."""
    suit = favor_in_force(table)
    now = _("Palo de favor: %(suit)s.", suit=suit_text(suit)) if suit else _("Sin palo de favor.")
    spans = store.read(table).kept("favor_spans", lambda: evening.favor_history_shared(store.read(table).favor_session))
    # the words of the same changes again (a hand saved changes none): said once per language, not per revision
    lines: list[str] = _lines.made((spans, words.language()), lambda: evening.span_lines(spans))
    return now, lines


_lines = store.page_cache(256)  # (favour spans, language) → the lines that say them
