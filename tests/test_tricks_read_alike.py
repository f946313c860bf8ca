"""A hand's tricks read the same in the hand list, on the hand's page and on the sheet (scorer.tricks):
the Jugador's first, then the contra's in order of play (R3), as the engine counts them (R10)."""

from __future__ import annotations

from typing import Any

import pytest

from scorer import tricks
from scorer.engine import settle
from scorer.games import views as present
from scorer.sheet.context import sheet_context
from scorer.web.tables import present as table_present
from tests.conftest import example_sessions, load_json

# Ana deals (seat 1, out with four): Benito is mano, Carmen medio, Diego postre. Carmen's entrada,
# Carmen 4, Benito 1, Diego 4: puesta (R10).
LOST = {
    "format": "tresillo-session/1",
    "players": ["Ana", "Benito", "Carmen", "Diego"],
    "first_dealer": 1,
    "hands": [{"jugador": 3, "lance": "entrada", "trump": "oros", "tricks": {"3": 4, "2": 1, "4": 4}}],
}


def test_the_jugador_first_then_the_contra_in_order_of_play() -> None:
    assert tricks.order({"3": 4, "2": 1, "4": 4}, 3, 1, 4) == [3, 2, 4]
    assert tricks.split({"3": 4, "2": 1, "4": 4}, 3, 1, 4) == "4-1-4"
    assert tricks.split({"1": 2, "2": 5, "3": 2}, 2, 3, 3) == "5-2-2"  # three players: the dealer plays
    assert tricks.order({"1": 2, "2": 5, "3": 2}, 2, 3, 3) == [2, 1, 3]
    assert tricks.order({"4": 1, "1": 4, "2": 4}, 4, None, 4) == [4, 1, 2]  # no dealer known: seat order
    assert tricks.split({}, 2, 1, 4) == "" and tricks.split(None, 2, 1, 4) == ""


def test_the_lost_entrada_reads_the_same_in_the_list_and_on_the_sheet() -> None:
    ledger = settle(LOST)
    assert ledger["hands"][0]["result"] == "puesta"
    line = table_present.table_view(LOST, ledger).hands[0].text
    assert " · 4-1-4 · " in line
    sheet = sheet_context(LOST, ledger)
    assert sheet["hands"][0]["tricks"] == "4-1-4"


def stored(session: dict[str, Any], ledger: dict[str, Any]) -> list[dict[str, Any]]:
    """The hands as the app stores them: each with the dealer the engine gave it."""
    return [{**hand, "dealer": entry["dealer"]} for hand, entry in zip(session["hands"], ledger["hands"], strict=True)]


@pytest.mark.parametrize("path", example_sessions(), ids=lambda p: p.stem)
def test_every_example_hand_reads_alike_everywhere(path: Any) -> None:
    session = load_json(path)
    ledger = settle(session)
    players = len(session["players"])
    sheet_rows = sheet_context(session, ledger)["hands"]  # as `scorer sheet` prints a session file: no dealers
    app_session = {**session, "hands": stored(session, ledger)}
    app_rows = sheet_context(app_session, ledger)["hands"]  # as the app prints it: its stored hands
    for hand, sheet_row, app_row in zip(app_session["hands"], sheet_rows, app_rows, strict=True):
        if not hand.get("tricks") or hand.get("rendida"):
            continue
        listed = present.split_text(hand, players)
        assert listed == sheet_row["tricks"] == app_row["tricks"], (hand, listed, sheet_row["tricks"])
        named = [s for s in present.tricks_order(hand, players)]
        assert "-".join(str(hand["tricks"][str(s)]) for s in named) == listed  # the hand page's "Bazas"
