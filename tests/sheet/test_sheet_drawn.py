"""The PDF's hand pages written into the PDF directly (scorer/sheet/drawn.py, issue 14's 5,000-hand sheet).

Checked from the PDF itself (pypdf): every hand line, whole and in order, under a column header
on each hand page; the fonts embedded; and WeasyPrint's own layout whenever the lines need the
bidi algorithm, shaping or another font, or the planned pages were not laid out as planned.
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from pypdf import PdfReader

from scorer.engine import settle
from scorer.sheet import build, drawn
from scorer.sheet.build import hand_lines, render_pdf, sheet_context
from tests.engine.strategies import random_session

pytestmark = pytest.mark.skipif(drawn.font("regular") is None, reason="DejaVu Sans Mono is not installed")

ISOLATES = re.compile("[\u2066-\u2069]")


def night(
    hands: int, seed: int = 4, players: int | None = 4, closing: bool = True
) -> tuple[dict[str, Any], dict[str, Any]]:
    session = random_session(random.Random(seed), hands, closing=closing, players=players)
    return session, settle(session)


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


def drawn_font_in(pdf: bytes) -> bool:
    """Whether the PDF carries the hand lines' own font (drawn.py embeds it as CRTLN?+DejaVuSansMono)."""
    reader = PdfReader(io.BytesIO(pdf))
    for page in reader.pages:
        fonts = page["/Resources"].get_object().get("/Font")
        names = [str(f.get_object()["/BaseFont"]) for f in (fonts.get_object().values() if fonts else [])]
        if any(name.startswith("/CRTLN") for name in names):
            return True
    return False


@pytest.mark.parametrize("closing", [True, False])
def test_every_hand_line_is_in_the_pdf_whole_and_in_order_with_its_note(closing: bool) -> None:
    session, ledger = night(400, closing=closing)  # the bold font is embedded for a closing line only
    table = hand_lines(sheet_context(session, ledger))
    pdf = render_pdf(session, ledger)
    assert drawn_font_in(pdf)
    text = "\n".join(pages_text(pdf))
    position = 0
    for line in table["lines"]:
        expected = ISOLATES.sub("", line["text"]).rstrip()
        found = text.find(expected, position)
        assert found >= 0, expected  # the whole line, its columns' spaces included, after the one before
        position = found + len(expected)
        if line["note"]:
            expected_note = ISOLATES.sub("", line["note"])
            note = text.find(expected_note, position)
            assert note >= 0 and text[position:note].strip() == "", expected_note  # right under its hand
            position = note + len(expected_note)


def test_each_hand_page_has_the_column_header_and_the_title_heads_the_first() -> None:
    session, ledger = night(400)
    table = hand_lines(sheet_context(session, ledger))
    header = ISOLATES.sub("", table["header"]).strip()
    texts = pages_text(render_pdf(session, ledger))
    first_hand = ISOLATES.sub("", table["lines"][0]["text"]).rstrip()
    start = next(i for i, t in enumerate(texts) if first_hand in t)
    assert "Mano a mano" in texts[start]
    hand_pages = texts[start:]
    assert len(hand_pages) > 5
    for t in hand_pages:
        assert header in t
        assert re.search(r"Página \d+ de " + str(len(texts)), t)  # the page's footer counts every page
    last = ISOLATES.sub("", table["lines"][-1]["text"]).rstrip()
    assert last in hand_pages[-1] and "Da: quien reparte" in hand_pages[-1]  # the legend after the last line


def test_the_plan_keeps_bands_whole_and_each_page_within_its_room() -> None:
    session, ledger = night(600, seed=8)
    table = hand_lines(sheet_context(session, ledger))
    groups = build._groups(table["lines"])
    plan = drawn.plan(table["fit"], groups)
    bands = [band for page in plan.pages for band in page.bands]
    assert len(bands) == len(groups)  # no band split, none lost
    for band, group in zip(bands, groups, strict=True):
        hand_rows = [text for text, kind in band.lines if kind != "note"]
        assert hand_rows == [ISOLATES.sub("", line["text"]) for line in group]
        assert band.closing == (group[-1]["kind"] == "close")
    page_height = drawn.A4[1] if not table["fit"] else drawn.A4[0]
    room = page_height - drawn.PAGE_MARGINS[0] - drawn.PAGE_MARGINS[2]
    assert all(page.height(plan.size) < room for page in plan.pages)
    assert all(len(page.bands) > 1 for page in plan.pages[:-1])


def test_hand_numbers_past_999_keep_every_digit() -> None:
    session, ledger = night(1_050, seed=3)
    table = hand_lines(sheet_context(session, ledger))
    numbers = [ISOLATES.sub("", line["text"]).split()[0] for line in table["lines"] if line["kind"] != "close"]
    assert "1000" in numbers and not any("…" in n for n in numbers)


def test_a_long_note_is_wrapped_on_the_page_and_kept_whole() -> None:
    session, ledger = night(30, seed=2)
    long_note = " ".join(f"palabra{i}" for i in range(120))
    session["hands"][3]["note"] = long_note
    ledger = settle(session)
    table = hand_lines(sheet_context(session, ledger))
    plan = drawn.plan(table["fit"], build._groups(table["lines"]))
    rows = [text for page in plan.pages for band in page.bands for text, kind in band.lines if kind == "note"]
    assert long_note in " ".join(rows) and not any(long_note in r for r in rows)  # whole, on several rows
    width = (drawn.A4[0] if not table["fit"] else drawn.A4[1]) - drawn.PAGE_MARGINS[1] - drawn.PAGE_MARGINS[3]
    assert max(len(r) for r in rows) * 0.602 * plan.size * drawn.NOTE_SCALE + drawn.NOTE_INDENT < width
    flat = " ".join(" ".join(pages_text(render_pdf(session, ledger))).split())
    assert long_note in flat


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("שרה", "right to left"),
        ("علي", "right to left, joined letters"),
        ("Zoe\u0301", "a combining accent"),
        ("山田", "wide characters the font lacks"),
    ],
)
def test_lines_that_need_bidi_shaping_or_another_font_go_back_to_weasyprint(name: str, why: str) -> None:
    session, ledger = night(40, seed=5)
    session["players"][0] = name
    ledger = settle(session)
    table = hand_lines(sheet_context(session, ledger))
    assert not drawn.drawable([x["text"] for x in table["lines"]]), why
    pdf = render_pdf(session, ledger)
    assert not drawn_font_in(pdf)
    if why.startswith("wide"):
        return  # no font on the machine has these: WeasyPrint draws empty boxes and the text is not extractable
    flat = " ".join(" ".join(pages_text(pdf)).split())
    assert "Mano a mano" in flat and ("ganada" in flat or "Todos pasan" in flat)


def test_accents_suits_signs_and_the_ellipsis_are_drawn() -> None:
    assert drawn.drawable(["Fermín Íñigo Çağlar Łukasz ♠♥♦♣ −12 +5 … 22p · «x»", "\u2068Ana\u2069"])
    assert not drawn.drawable(["tab\there"])
    assert not drawn.drawable(["\u202eAna"])  # an override: only the isolates around names are taken out


def test_without_the_font_weasyprint_lays_the_lines_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawn, "font", lambda style: None)
    session, ledger = night(40, seed=6)
    pdf = render_pdf(session, ledger)
    assert not drawn_font_in(pdf)
    first = ISOLATES.sub("", hand_lines(sheet_context(session, ledger))["lines"][0]["text"]).split()
    assert " ".join(first[:3]) in " ".join(" ".join(pages_text(pdf)).split())


def test_a_plan_not_laid_out_as_planned_goes_back_to_weasyprint(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the first page's title took more room than planned, its lines would land under the next
    page's header or run into the margin: the check of the laid-out pages catches it."""
    monkeypatch.setattr(drawn, "TITLE_HEIGHT", -400.0)  # a plan that overfills the first hand page
    session, ledger = night(300, seed=7)
    pdf = render_pdf(session, ledger)
    assert not drawn_font_in(pdf)
    first = ISOLATES.sub("", hand_lines(sheet_context(session, ledger))["lines"][0]["text"]).split()
    assert " ".join(first[:3]) in " ".join(" ".join(pages_text(pdf)).split())


def test_the_drawing_follows_sheet_css() -> None:
    """drawn.py repeats a few measures of sheet.css (the page margins, the lines' sizes): they must agree."""
    css = build.CSS_PATH.read_text(encoding="utf-8")
    margins = re.search(r"@page \{\s*size: A4;\s*margin: ([\d.]+)mm ([\d.]+)mm ([\d.]+)mm ([\d.]+)mm;", css)
    assert margins is not None
    assert [round(float(m) * drawn.MM, 3) for m in margins.groups()] == [round(m, 3) for m in drawn.PAGE_MARGINS]
    base = re.search(r"\.hand-lines \{[^}]*font-size: ([\d.]+)pt; line-height: ([\d.]+);", css)
    assert base is not None
    assert float(base.group(1)) == drawn.FONT_SIZES[""] == drawn.FONT_SIZES["wide"]
    assert float(base.group(2)) == drawn.LINE_HEIGHT
    for fit in ("wider", "widest"):
        size = re.search(rf"\.hands\.{fit} \.hand-lines \{{ font-size: ([\d.]+)pt; \}}", css)
        assert size is not None and float(size.group(1)) == drawn.FONT_SIZES[fit]
    assert "padding: 0.4mm 0.5mm" in css and round(0.4 * drawn.MM, 6) == round(drawn.BAND_PADDING, 6)
