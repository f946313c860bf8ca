"""Hostile input and the sheet: long, reversed or broken names stored before the limits (D1, D2, D8),
and the PDF's time budget."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.engine import settle
from scorer.sheet import build
from scorer.sheet.build import render_html, render_pdf
from scorer.sheet.context import sheet_context
from scorer.sheet.lines import hand_lines
from tests.sheet.test_sheet import pdf_text, walkthrough

RLO = "\u202e"


def stored_before_the_limits(*names: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The walkthrough (not closed: Ana's puesta of 65 in the plato) with names the limits now refuse."""
    session = walkthrough(players=[*names, "Benito", "Carmen", "Diego"][:4])
    return session, settle(session)


def test_d1_a_stored_name_of_ten_thousand_characters_is_clipped_in_the_sheet() -> None:
    session, ledger = stored_before_the_limits("A" * 10_000)
    context = sheet_context(session, ledger)
    shown = {p["name"] for p in context["players"]} | set(context["seat_names"])
    assert max(len(name) for name in shown) == 40
    assert "A" * 39 + "…" in shown
    pdf = render_pdf(session, ledger)  # bounded: the layout only ever sees 40 characters
    assert "A" * 39 in pdf_text(pdf)
    assert "A" * 41 not in pdf_text(pdf)


def test_d1_long_table_texts_are_clipped_too() -> None:
    session = walkthrough(name="N" * 5_000, place="P" * 5_000, notes="x " * 5_000)
    session["currency"] = "€" * 100
    context = sheet_context(session, settle(session))
    assert (len(context["title"]), len(context["place"]), len(context["notes"])) == (80, 80, 500)
    assert len(context["currency"]) == 8
    assert len(context["running_title"]) == 45  # the page header's copy: leaves room for the other corner


def test_d8_a_stored_bidi_override_no_longer_reverses_the_line() -> None:
    session, ledger = stored_before_the_limits(f"Ana{RLO}")
    context = sheet_context(session, ledger)
    assert all(RLO not in p["name"] for p in context["players"])
    text = pdf_text(render_pdf(session, ledger))
    # "con la puesta reservada de Ana (65)" used to come out as "de )56( anA" and the rest backwards
    assert "con la puesta reservada de Ana" in text
    assert "(65)" in text
    assert "anA" not in text


def test_d2_d8_control_characters_and_surrogates_stored_earlier_are_replaced() -> None:
    session, ledger = stored_before_the_limits("Ana\x00\x1b[31m\ud800")
    name = sheet_context(session, ledger)["players"][0]["name"]
    assert name == "Ana\ufffd\ufffd[31m\ufffd"
    assert render_pdf(session, ledger).startswith(b"%PDF")
    assert "Ana\ufffd" in render_html(session, ledger).encode("utf-8").decode("utf-8")


def test_d8_names_are_isolated_in_the_html_sheet_and_the_pdf_lines() -> None:
    session, ledger = stored_before_the_limits("עמית")
    html = render_html(session, ledger)
    assert '<bdi class="name">עמית</bdi>' in html
    assert "<td><bdi>עמית</bdi></td>" in html
    statements = " ".join(sheet_context(session, ledger)["settle"]["on_table"])
    assert "reservada de \u2068עמית\u2069 (65)" in statements
    lines = hand_lines(sheet_context(session, ledger))
    assert "\u2068עמית\u2069" in lines["header"]


def test_d1_the_pdf_gives_up_after_its_time_budget() -> None:
    from scorer.sheet.build import RenderTimeout, render_pdf_within

    session, ledger = stored_before_the_limits("Ana")
    with pytest.raises(RenderTimeout):
        render_pdf_within(session, ledger, 0.001)
    assert render_pdf_within(session, ledger, 60).startswith(b"%PDF")


def test_a_renderer_that_fails_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.sheet.build import render_pdf_within

    def broken(_session: Any, _ledger: Any, **_options: Any) -> bytes:
        raise ValueError("no fonts")

    monkeypatch.setattr(build, "render_pdf", broken)
    monkeypatch.setattr(build, "_warm", True)
    session, ledger = stored_before_the_limits("Ana")
    with pytest.raises(RuntimeError, match="ValueError: no fonts"):
        render_pdf_within(session, ledger, 60)
