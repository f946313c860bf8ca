"""The players' answers on the sheet: the sum that squares (R31) and each hand agreed, disputed or not answered.

Rendered here, in the table's language, and handed to the sheet as one finished section
(``addenda`` of :func:`scorer.sheet.build.render_html`): the sheet itself knows nothing of answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import render_template
from markupsafe import Markup

from scorer.store.models import Table

from . import present


def section(table: Table, session: Mapping[str, Any], ledger: Mapping[str, Any]) -> Markup:
    """The section, as HTML for the sheet (HTML and PDF)."""
    html = render_template(
        "answers/_sheet.html",
        square=present.square(ledger),
        answers=present.sheet(table, session, ledger),
        hands=len(ledger.get("hands") or []),
    )
    return Markup(html)  # our own template, autoescaped
