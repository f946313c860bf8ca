"""The PDF of a long night stays fast without losing anything: hand lines in bands, old puestas as text."""

from __future__ import annotations

import io
import random
import re

from markupsafe import Markup
from pypdf import PdfReader

from scorer.engine import settle
from scorer.sheet import lines as sheet_lines
from scorer.sheet.build import render_pdf
from scorer.sheet.context import sheet_context
from scorer.sheet.lines import hand_lines
from tests.engine.strategies import random_session


def long_night(hands: int = 300, seed: int = 5) -> tuple[dict, dict]:  # type: ignore[type-arg]
    session = random_session(random.Random(seed), hands, closing=True, players=4)
    return session, settle(session)


def test_bands_keep_every_hand_line_in_order_with_its_note() -> None:
    session, ledger = long_night()
    lines = hand_lines(sheet_context(session, ledger))["lines"]
    bands = sheet_lines._bands(lines)
    assert len(bands) < len(lines) / 2  # far fewer boxes than hands
    texts = [t for band in bands for t in str(band["text"]).split("\n")]
    strip = [t.removeprefix('<span class="pass">').removesuffix("</span>") for t in texts]
    strip = [re.sub(r'<span class="suit red">([♥♦])</span>', r"\1", t) for t in strip]  # red as on screen
    escaped = [str(Markup.escape(x["text"])) for x in lines]
    assert strip == escaped  # every hand, once, in order
    notes = [x["note"] for x in lines if x["note"]]
    assert [b["note"] for b in bands if b["note"]] == notes  # each note right after its hand's band
    assert all(len(str(b["text"]).split("\n")) <= sheet_lines.BAND for b in bands)
    assert bands[-1]["kind"] == "close" and "\n" not in str(bands[-1]["text"])  # the closing alone, bold


def test_pdf_cartulina_draws_open_and_latest_crossed_and_lists_every_older_one() -> None:
    session, ledger = long_night(600, seed=9)
    boxes = sheet_context(session, ledger)["cartulina"]
    drawn = sheet_lines.pdf_cartulina(boxes)
    for before, after in zip(boxes, drawn, strict=True):
        crossed = [p for p in before["puestas"] if p["state"] not in ("pendiente", "en_plato")]
        kept_crossed = [p for p in after["puestas"] if p["state"] not in ("pendiente", "en_plato")]
        assert kept_crossed == crossed[-sheet_lines.PDF_CROSSED_MARKS :]
        assert [p for p in after["puestas"] if p not in kept_crossed] == [
            p for p in before["puestas"] if p["state"] in ("pendiente", "en_plato")
        ]
        older = crossed[: len(crossed) - len(kept_crossed)]
        listed = after["older"].split(" · ") if after["older"] else []
        assert listed == [f"{p['amount']} (m. {p['hand']}, {p['state_word']})" for p in older]
    assert any(b["older"] for b in drawn)  # a long night does list some


def test_long_pdf_has_every_hand() -> None:
    session, ledger = long_night(120, seed=2)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(render_pdf(session, ledger))).pages)
    flat = " ".join(text.split())
    lines = hand_lines(sheet_context(session, ledger))["lines"]
    for line in lines:  # each hand's number, dealer and what was played, in the PDF's text
        start = " ".join(re.sub("[\u2066-\u2069]", "", line["text"]).split()[:3])  # bidi isolates: not in the text
        assert start in flat


def test_a_long_chart_keeps_every_column_extremes_and_both_ends() -> None:
    from scorer.sheet.chart import _decimated

    rng = random.Random(1)
    values = [0]
    for _ in range(6000):
        values.append(values[-1] + rng.randint(-50, 50))
    points = _decimated(values, 400)
    assert len(points) <= 4 * 400
    assert points[0] == (0, values[0]) and points[-1] == (len(values) - 1, values[-1])
    kept = [v for _, v in points]
    assert max(kept) == max(values) and min(kept) == min(values)
    assert [k for k, _ in points] == sorted({k for k, _ in points})  # in order, no repeats
    assert _decimated(values[:500], 400) == list(enumerate(values[:500]))  # short lines: every point


def test_a_table_too_wide_for_the_upright_page_goes_on_turned_pages_whole() -> None:
    """Many people sat down over the night (R33): a hand line no longer fits A4 upright, so the
    hands are printed on landscape pages (smaller type beyond) instead of losing the last columns."""
    session = random_session(random.Random(7), 200)
    ledger = settle(session)
    table = hand_lines(sheet_context(session, ledger))
    chars = len(re.sub("[\u2066-\u2069]", "", table["header"]))
    assert chars > sheet_lines.PAGE_FITS[0][0] and table["fit"]  # this night's line is wider than an upright page
    pages = PdfReader(io.BytesIO(render_pdf(session, ledger))).pages
    turned = [p for p in pages if p.mediabox.width > p.mediabox.height]
    assert turned and pages[0].mediabox.width < pages[0].mediabox.height  # the summary stays upright
    # the turned page holds the whole line: 0.602 em per character of the monospaced font, 14 mm margins
    size = {"wide": 6.9, "wider": 5.6, "widest": 4.6}[table["fit"]]
    assert chars * 0.602 * size <= float(turned[0].mediabox.width) - 2 * 14 / 25.4 * 72
    # a four-player table stays on upright pages
    small, small_ledger = long_night(40, seed=3)
    if not hand_lines(sheet_context(small, small_ledger))["fit"]:
        upright = PdfReader(io.BytesIO(render_pdf(small, small_ledger))).pages
        assert all(p.mediabox.width < p.mediabox.height for p in upright)
