"""A hand the whole table agrees on: each player answers each hand from his own phone.

The watchers' page (the view link) asks once which of the people seated the phone is (a
cookie for that table: the table's own honesty, not a login), then offers *De acuerdo* and
*No es así* (+ a short note) on every hand that person sat at. The keeper's pages show per
hand ✓ n of m and, at the top, every disagreement standing. Editing, deleting or restoring
a hand asks again: the answers belong to the version of the hand they were given to
(``scorer.store.answers``), and the history keeps them all.

``routes`` (blueprints ``answers`` and ``api_answers``), ``present`` (a hand's mark, a page's answers).
``init_app`` is the one hook of the app factory; the pages reach the view-models through
the template globals ``answers_page(table, token)`` and ``answers_square(table)`` (R31's sum,
``scorer/web/common/square.py``); the sheet's section is ``scorer/web/common/answers_sheet.py``.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

__all__ = ["init_app"]

# Answers per client address, from the pages and the API together (Flask-Limiter syntax).
DEFAULT_LIMIT = "60 per minute;2000 per day"
DEFAULT_REFRESH_SECONDS = 5


def init_app(app: Flask) -> None:
    """Register the forms' and the API's blueprints and the templates' globals."""
    from scorer import limits, store
    from scorer.web.common.extensions import csrf
    from scorer.web.common.square import Square, square

    from . import routes

    app.config.setdefault("CARTULINA_ANSWER_LIMIT", DEFAULT_LIMIT)
    # how often an open page asks for new answers (the keeper's table page and hand list), in seconds
    app.config.setdefault("CARTULINA_REFRESH_SECONDS", DEFAULT_REFRESH_SECONDS)
    csrf.exempt(routes.api)  # JSON only, as the rest of the API
    app.register_blueprint(routes.bp)
    app.register_blueprint(routes.api)

    def table_square(table: Any) -> Square | None:
        return square(store.read(table).totals)

    app.jinja_env.globals.update(
        answers_page=routes.page_of, answers_square=table_square, answers_note_max=limits.ANSWER_NOTE_MAX
    )
