"""The sheet's answers section and R31's sum (scorer/web/common/answers_sheet.py, square.py), read directly."""

from __future__ import annotations

import pytest
from flask import Flask

from scorer.web.common.answers_sheet import ranges
from scorer.web.common.square import square


@pytest.mark.parametrize(
    ("numbers", "text"),
    [
        ([], ""),
        ([7], "7"),
        ([1, 2, 3, 4, 7, 9, 10], "1–4, 7, 9–10"),
        ([10, 9, 1, 2], "1–2, 9–10"),  # in any order
        ([3, 5], "3, 5"),
    ],
)
def test_hand_numbers_read_as_runs(numbers: list[int], text: str) -> None:
    assert ranges(numbers) == text


def test_the_sum_counts_every_pot_of_the_game(app: Flask) -> None:
    with app.test_request_context():
        tresillo = square({"balances": {"1": 5, "2": -3, "3": -4}, "plato": {"amount": 2}})
        pozo = square({"balances": {"1": -6, "2": 2}, "pozo": {"amount": 1, "reserves": [2, 1]}, "viuda": 0})
        bote = square({"balances": {"1": 1}, "bote": None})
    assert tresillo is not None and tresillo.squares
    assert tresillo.pots == (("plato", 2),)
    assert pozo is not None and pozo.squares
    assert pozo.pots == (("pozo", 4), ("viuda", 0))
    assert bote is not None and bote.pots == (("bote", 0),) and not bote.squares


def test_a_game_without_balances_has_no_sum(app: Flask) -> None:
    with app.test_request_context():
        assert square({"balances": {}}) is None
        assert square({"teams": {"A": 3}}) is None
