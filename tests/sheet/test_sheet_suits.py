"""Suit symbols in the sheet: ♥ and ♦ (copas, oros) red as on screen, ♠ and ♣ not.

Read back from the PDF itself (pypdf): the fill colour in force when each symbol is drawn; and
from the HTML the PDF is made from: every red symbol inside a ``suit red`` element.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from pypdf import PdfReader

from scorer.engine import settle
from scorer.sheet.build import render_html, render_pdf
from scorer.sheet.text import red_suits
from tests.conftest import EXAMPLES, load_json

RED = (0.75, 0.22, 0.17)  # sheet.css: .suit.red { color: #c0392b }
# favour changes (rules and event lines), Tresillo's copas and oros, pozo y viuda's and Ombre's
EXAMPLES_WITH_SUITS = ["favor_change.json", "real_evening.json", "pozo_viuda_table.json", "ombre_three.json"]


def drawn_suits(pdf: bytes) -> list[tuple[str, tuple[float, ...] | None]]:
    """(symbol, fill colour) for every suit symbol the PDF draws."""
    colour: list[tuple[float, ...] | None] = [None]
    seen: list[tuple[str, tuple[float, ...] | None]] = []

    def operator(op: bytes, args: Any, cm: Any, tm: Any) -> None:
        if op == b"rg":
            colour[0] = tuple(round(float(a), 2) for a in args)

    def text(shown: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        seen.extend((ch, colour[0]) for ch in shown if ch in "♥♦♠♣")

    for page in PdfReader(io.BytesIO(pdf)).pages:
        page.extract_text(visitor_operand_before=operator, visitor_text=text)
    return seen


@pytest.mark.parametrize("name", EXAMPLES_WITH_SUITS)
def test_pdf_draws_copas_and_oros_red_and_espadas_and_bastos_not(name: str) -> None:
    session = load_json(EXAMPLES / name)
    seen = drawn_suits(render_pdf(session, settle(session)))
    red = [colour for symbol, colour in seen if symbol in "♥♦"]
    black = [colour for symbol, colour in seen if symbol in "♠♣"]
    assert red and black
    assert all(colour == RED for colour in red), seen
    assert not any(colour == RED for colour in black), seen


@pytest.mark.parametrize("name", EXAMPLES_WITH_SUITS)
def test_html_sheet_puts_every_red_symbol_in_a_red_suit(name: str) -> None:
    session = load_json(EXAMPLES / name)
    html = render_html(session, settle(session))
    text = re.sub(r"<(script|style|title)\b.*?</\1>", "", html, flags=re.S)
    text = re.sub(r'title="[^"]*"', "", text)
    assert text.count("♥") + text.count("♦") > 0
    bare = re.sub(r'<span class="suit red"[^>]*>[♥♦]</span>', "", text)
    assert "♥" not in bare and "♦" not in bare


def test_red_suits_marks_the_suit_words_only() -> None:
    said = red_suits("Palo de favor: oros ♦; Ana ♥ <b>")
    assert said == 'Palo de favor: oros <span class="suit red">♦</span>; Ana ♥ &lt;b&gt;'
