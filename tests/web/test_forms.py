"""Form mappers: form → hand dict of format.md and form → session; engine reasons → Spanish next to a field."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from scorer.engine import SessionError, settle
from scorer.web.forms import NewTableForm, explain, hand_form, hand_from_form, session_from_form

PLAYERS = ["Ana", "Benito", "Carmen", "Diego"]


def parse(app: Flask, data: dict[str, str], dealer: int = 1, players: list[str] | None = None) -> tuple[Any, Any]:
    with app.test_request_context(method="POST", data=data):
        form = hand_form(players or PLAYERS, dealer, {}, formdata=MultiDict(data))
        return hand_from_form(form), form


def test_two_tricks_counts_fill_the_third(app: Flask) -> None:
    hand, _ = parse(app, {"jugador": "2", "lance": "entrada", "trump": "oros", "tricks_2": "5", "tricks_4": "1"})
    assert hand == {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 3, "4": 1}}


def test_three_counts_are_kept_as_given_for_a_short_split(app: Flask) -> None:
    data = {"jugador": "2", "trump": "copas", "tricks_2": "5", "tricks_3": "0", "tricks_4": "0", "primeras": "jugador"}
    hand, _ = parse(app, data)
    assert hand["tricks"] == {"2": 5, "3": 0, "4": 0}  # R10: decided after primeras
    assert hand["lance"] == "entrada"  # preselected


def test_the_alcalde_is_not_offered(app: Flask) -> None:
    hand, form = parse(app, {"jugador": "3", "trump": "oros", "tricks_1": "5", "tricks_2": "3"}, dealer=3)
    assert [c.value for c in form.jugador.choices] == ["4", "1", "2"]  # R3, in order of play from the dealer
    assert hand is None
    assert form.problems["jugador"]


def test_three_players_all_play(app: Flask) -> None:
    _, form = parse(app, {}, dealer=2, players=["Elena", "Fermín", "Gloria"])
    assert [c.value for c in form.jugador.choices] == ["3", "1", "2"]


def test_extras_map_to_the_hand_keys(app: Flask) -> None:
    data = {"jugador": "4", "lance": "solo", "trump": "bastos", "tricks_4": "9", "tricks_2": "0",
            "estuches": "mas", "estuches_mas": "7", "bola": "hecha"}  # fmt: skip
    hand, _ = parse(app, data)
    assert hand == {"jugador": 4, "lance": "solo", "trump": "bastos", "estuches": 7, "bola": "hecha",
                    "tricks": {"2": 0, "3": 0, "4": 9}}  # fmt: skip
    session = {"format": "tresillo-session/1", "players": PLAYERS, "hands": [hand]}
    assert settle(session)["hands"][0]["result"] == "bola"  # the mapped hand is one the engine accepts


def test_undefended_rendida_has_no_tricks(app: Flask) -> None:
    hand, _ = parse(app, {"jugador": "2", "trump": "oros", "rendida": "y", "tricks_2": "3"})
    assert hand == {"jugador": 2, "lance": "entrada", "trump": "oros", "rendida": True}


def test_prefilled_form_maps_back_to_the_same_hand(app: Flask) -> None:
    stored = {"jugador": 3, "lance": "vuelta", "trump": "espadas", "contraestuches": 4, "primeras": "contra",
              "tricks": {"2": 1, "3": 4, "4": 4}, "dealer": 1}  # fmt: skip
    with app.test_request_context():
        form = hand_form(PLAYERS, 1, {}, hand=stored, revision=2)
        data = {
            f.name: str(f.data) for f in form if f.data not in (None, False, "") and f.name not in ("preview", "save")
        }
    hand, _ = parse(app, data)
    assert hand == {k: v for k, v in stored.items() if k != "dealer"}


REASONS = [
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 4, "3": 4, "4": 0}}, "tricks"),
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "estuches": 3, "contraestuches": 3,
      "tricks": {"2": 5, "3": 3, "4": 1}}, "estuches"),
    ({"jugador": 2, "lance": "entrada", "trump": "espadas", "estuches": 12, "tricks": {"2": 5, "3": 3, "4": 1}},
     "estuches"),
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "primeras": "contra", "tricks": {"2": 5, "3": 3, "4": 1}},
     "primeras"),
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "bola": "cortada", "tricks": {"2": 4, "3": 4, "4": 1}},
     "bola"),
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "defensor": 3, "tricks": {"2": 5, "3": 3, "4": 1}},
     "defensor"),
    ({"jugador": 2, "lance": "vuelta", "trump": "oros", "rendida": True, "defensor": 3}, "defensor"),
    ({"jugador": 2, "lance": "solo", "trump": "oros", "rendida": True}, "rendida"),
    ({"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 3, "4": 1}}, "jugador"),
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "rendida": True, "bola": "hecha"}, "bola"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "field"), REASONS)
def test_engine_reasons_become_spanish_messages_on_their_field(hand: dict[str, Any], field: str) -> None:
    session = {"format": "tresillo-session/1", "players": PLAYERS, "hands": [hand]}
    with pytest.raises(SessionError) as caught:
        settle(session)
    name, message = explain(caught.value.reason)
    assert name == field, caught.value.reason
    assert caught.value.reason not in message  # translated, not echoed
    assert not any(word in message for word in (" the ", " not ", " must "))


def new_table(app: Flask, **changes: str) -> tuple[NewTableForm, bool]:
    data = {"game": "tresillo", "player1": "Ana", "player2": "Benito", "player3": "Carmen", "player4": "",
            "keeper": "1", "first_dealer": "1", "favor_suit": "", "dealer_stake": "5", "enchilada": "0",
            "rounding": "5", "favor_doubling": "double_rounded", "solo_codillo": "codillo_and_conditions",
            "failed_bola": "pays_bola", "vuelta_solera": "y", "vuelta_at_favor": "y", "tanto_value": "0,05",
            "currency": "€"}  # fmt: skip
    data.update(changes)
    with app.test_request_context(method="POST", data=data):
        form = NewTableForm()
        return form, form.validate()


def test_session_from_the_form_keeps_only_changed_rules(app: Flask) -> None:
    form, ok = new_table(app, enchilada="10", tanto_value="1,25")
    assert ok
    session = session_from_form(form)
    assert session["rules"] == {"ruleset": "tresillo", "enchilada": 10}
    assert session["tanto_value"] == "1.25"
    assert settle(session)["players"] == {"1": "Ana", "2": "Benito", "3": "Carmen"}


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"player1": ""}, "player1"), ({"player2": " ana "}, "player2"), ({"player3": ""}, "player3"),
     ({"tanto_value": "1,2,3"}, "tanto_value"), ({"first_dealer": "4"}, "first_dealer")],
)  # fmt: skip
def test_new_table_form_errors_name_the_field(app: Flask, changes: dict[str, str], field: str) -> None:
    if field == "player2":
        changes = {"player1": "Ana", **changes}
    form, ok = new_table(app, **changes)
    assert not ok
    assert getattr(form, field).errors
