"""The PDF's hand table: one monospaced line per hand, laid out by WeasyPrint (the one PDF pipeline).

Checked from the PDF itself (pypdf): every hand line whole and in order, each note right under
its hand, hand numbers past 999 whole, a long note wrapped but kept, and names that need the
bidi algorithm or shaping still printed.
"""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from pypdf import PdfReader

from scorer.engine import settle
from scorer.sheet.build import render_pdf
from scorer.sheet.context import sheet_context
from scorer.sheet.lines import hand_lines
from tests.engine.strategies import random_session

ISOLATES = re.compile("[\u2066-\u2069]")


def night(
    hands: int, seed: int = 4, players: int | None = 4, closing: bool = True
) -> tuple[dict[str, Any], dict[str, Any]]:
    session = random_session(random.Random(seed), hands, closing=closing, players=players)
    return session, settle(session)


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages]


def squeezed(text: str) -> str:
    return " ".join(ISOLATES.sub("", text).split())


@pytest.mark.parametrize("closing", [True, False])
def test_every_hand_line_is_in_the_pdf_whole_and_in_order_with_its_note(closing: bool) -> None:
    session, ledger = night(300, closing=closing)
    table = hand_lines(sheet_context(session, ledger))
    pdf = render_pdf(session, ledger)
    text = squeezed(" ".join(pages_text(pdf)))
    position = 0
    for line in table["lines"]:
        expected = squeezed(line["text"])
        found = text.find(expected, position)
        assert found >= 0, expected  # the whole line, after the one before
        position = found + len(expected)
        if line["note"]:
            expected_note = squeezed(line["note"])
            note = text.find(expected_note, position)
            assert note >= 0 and text[position:note].strip() == "", expected_note  # right under its hand
            position = note + len(expected_note)


def test_the_title_heads_the_hand_pages_and_the_legend_follows_the_last_line() -> None:
    session, ledger = night(300)
    table = hand_lines(sheet_context(session, ledger))
    texts = [squeezed(t) for t in pages_text(render_pdf(session, ledger))]
    first_hand = squeezed(table["lines"][0]["text"])
    start = next(i for i, t in enumerate(texts) if first_hand in t)
    assert "Mano a mano" in texts[start] and squeezed(table["header"]) in texts[start]
    for t in texts:
        assert re.search(r"Página \d+ de " + str(len(texts)), t)  # every page's footer counts every page
    last = squeezed(table["lines"][-1]["text"])
    assert last in texts[-1] and "Da: quien reparte" in texts[-1]


def test_hand_numbers_past_999_keep_every_digit() -> None:
    session, ledger = night(1_050, seed=3)
    table = hand_lines(sheet_context(session, ledger))
    numbers = [ISOLATES.sub("", line["text"]).split()[0] for line in table["lines"] if line["kind"] != "close"]
    assert "1000" in numbers and "1049" in numbers and not any("…" in n for n in numbers)


def test_a_long_note_is_wrapped_on_the_page_and_kept_whole() -> None:
    session, ledger = night(30, seed=2)
    long_note = " ".join(f"palabra{i}" for i in range(120))
    session["hands"][3]["note"] = long_note
    ledger = settle(session)
    pages = pages_text(render_pdf(session, ledger))
    assert not any(long_note in line for page in pages for line in page.splitlines())  # on several rows
    assert long_note in squeezed(" ".join(pages))  # and whole


@pytest.mark.parametrize(
    ("name", "why"),
    [("שרה", "right to left"), ("علي", "right to left, joined letters"), ("Zoe\u0301", "a combining accent")],
)
def test_names_that_need_bidi_or_shaping_are_printed(name: str, why: str) -> None:
    session, ledger = night(40, seed=5)
    session["players"][0] = name
    ledger = settle(session)
    flat = squeezed(" ".join(pages_text(render_pdf(session, ledger))))
    assert "Mano a mano" in flat and ("ganada" in flat or "Todos pasan" in flat), why
