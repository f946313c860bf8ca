"""The season sheet of a peña: an A4 PDF (WeasyPrint) with the standings, the evening table,
the fewest payments, the open platos, the statistics and the charts.

The context comes ready-made from the peña's pages (texts and trusted SVG only).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping, Sequence
from typing import Any

import jinja2
from markupsafe import Markup

from scorer.resources import TEMPLATES
from scorer.sheet.printed import printed_environment
from scorer.words import date_text
from scorer.words import translate as _

CSS_PATH = TEMPLATES / "pena" / "season.css"


@functools.lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    environment = printed_environment()
    environment.filters["fecha"] = date_text
    return environment


def season_html(
    *,
    pena: str,
    start: dt.date | None,
    end: dt.date | None,
    ledger: Mapping[str, Any],
    stats: Mapping[str, Any],
    people: Sequence[tuple[str, Mapping[str, Any]]],
) -> str:
    if start or end:
        season = _(
            "del %(start)s al %(end)s",
            start=date_text(start) if start else _("principio"),
            end=date_text(end) if end else _("día de hoy"),
        )
    else:
        season = _("todas las noches")
    template = _environment().get_template("pena/season.html")
    return template.render(
        pena=pena,
        season=season,
        printed=date_text(dt.date.today()),
        ledger=ledger,
        stats=stats,
        people=people,
        css=Markup(CSS_PATH.read_text(encoding="utf-8")),
        svg=Markup,
    )


def render_pdf(**context: Any) -> bytes:
    import weasyprint  # type: ignore[import-untyped]  # heavy: only the sheet needs it

    html = season_html(**context)
    pdf = weasyprint.HTML(string=html, base_url=str(TEMPLATES / "pena")).write_pdf()
    assert pdf is not None
    return bytes(pdf)
