"""The players' answers on the sheet: the sum that squares (R31) and each hand agreed, disputed or not answered.

Rendered here, in the table's language, and handed to the sheet as one finished section
(``addenda`` of :func:`scorer.sheet.build.render_html`): the sheet itself knows nothing of answers.
Shared: the table's sheet (tables/sheet.py) shows it; the sum itself is in scorer/web/common/square.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import render_template
from markupsafe import Markup

from scorer.store import answers as service
from scorer.store.answers import Given
from scorer.store.models import Table
from scorer.web.common.square import square


def section(table: Table, session: Mapping[str, Any], ledger: Mapping[str, Any]) -> Markup:
    """The section, as HTML for the sheet (HTML and PDF)."""
    html = render_template(
        "answers/_sheet.html",
        square=square(ledger),
        answers=sheet(table, session, ledger),
        hands=len(ledger.get("hands") or []),
    )
    return Markup(html)  # our own template, autoescaped


# ------------------------------------------------------------------ the sheet


def ranges(numbers: Sequence[int]) -> str:
    """Hand numbers as ranges: ``1–4, 7, 9–10``."""
    runs = itertools.groupby(enumerate(sorted(numbers)), key=lambda pair: pair[1] - pair[0])
    return ", ".join(_run_text([n for _i, n in run]) for _step, run in runs)


def _run_text(run: list[int]) -> str:
    """One run of consecutive numbers: ``7`` or ``1–4``."""
    return str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}"


@dataclass(frozen=True, slots=True)
class SheetAnswers:
    """The sheet's marks: every hand agreed (by all), partly agreed, disputed or not answered."""

    agreed: str
    partly: tuple[tuple[int, int, int], ...]  # n, agreed, seated
    disputed: tuple[tuple[int, Given], ...]
    open: str
    any: bool


def sheet(table: Table, session: Mapping[str, Any], ledger: Mapping[str, Any]) -> SheetAnswers:
    """Each hand of the sheet with its answers' status."""
    by_number = service.by_number(table)
    seatings = service.seatings(session, ledger)
    agreed: list[int] = []
    partly: list[tuple[int, int, int]] = []
    disputed: list[tuple[int, Given]] = []
    unanswered: list[int] = []
    for n in range(1, len(ledger.get("hands") or []) + 1):
        answers = by_number.get(n, [])
        seated = set(seatings[n - 1].values())
        status = _status(answers, seated)
        if status == "disputed":
            disputed.extend((n, a) for a in answers if not a.agrees)
        elif status == "partly":
            partly.append((n, len(answers), len(seated)))
        else:
            (agreed if status == "agreed" else unanswered).append(n)
    return SheetAnswers(ranges(agreed), tuple(partly), tuple(disputed), ranges(unanswered), bool(by_number))


def _status(answers: Sequence[Given], seated: set[str]) -> str:
    """``disputed`` (someone says no), ``open`` (no answer), ``agreed`` (everyone seated) or ``partly``."""
    if any(not a.agrees for a in answers):
        return "disputed"
    if not answers:
        return "open"
    return "agreed" if seated <= {a.person for a in answers} else "partly"
