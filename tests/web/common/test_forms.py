"""Form mappers: form → hand dict of format.md and form → session; engine reasons → Spanish next to a field."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from scorer.engine import SessionError, settle
from scorer.games.tresillo import hand_from_form
from scorer.web.common.forms import NewTableForm, game_hand_form, session_from_form
from scorer.web.common.messages import explain

PLAYERS = ["Ana", "Benito", "Carmen", "Diego"]


def parse(app: Flask, data: dict[str, str], dealer: int = 1, players: list[str] | None = None) -> tuple[Any, Any]:
    with app.test_request_context(method="POST", data=data):
        form = game_hand_form("tresillo", players or PLAYERS, dealer, {}, formdata=MultiDict(data))
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
        form = game_hand_form("tresillo", PLAYERS, 1, {}, hand=stored, revision=2)
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
    # R13/R19: the tricks say whether there were primeras and a bola
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "primeras": "jugador", "tricks": {"2": 6, "3": 2, "4": 1}},
     "primeras"),
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 7, "3": 0, "4": 0}}, "tricks"),
    ({"jugador": 2, "lance": "entrada", "trump": "oros", "bola": "hecha", "tricks": {"2": 8, "3": 1, "4": 0}}, "bola"),
    # R32, R33
    ({"ajuste": {"from": 2, "to": 2, "amount": 5}}, "to"),
    ({"ajuste": {"from": 2, "to": 3, "amount": 0}}, "amount"),
    ({"sienta": {"seat": 2, "player": "Ana"}}, "player"),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "field"), REASONS)
def test_engine_reasons_become_spanish_messages_on_their_field(hand: dict[str, Any], field: str) -> None:
    session = {"format": "tresillo-session/1", "players": PLAYERS, "hands": [hand]}
    with pytest.raises(SessionError) as caught:
        settle(session)
    name, message = explain(caught.value)
    assert name == field, caught.value.reason
    assert caught.value.reason not in message  # translated, not echoed
    assert not any(word in message for word in (" the ", " not ", " must "))


def new_table(app: Flask, **changes: str) -> tuple[NewTableForm, bool]:
    data = {"game": "tresillo", "player1": "Ana", "player2": "Benito", "player3": "Carmen", "player4": "",
            "keeper": "1", "first_dealer": "1", "favor_suit": "", "dealer_stake": "5", "enchilada": "0",
            "rounding": "5", "favor_doubling": "double_rounded", "solo_codillo": "codillo_only",
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


# ------------------------------------------------------------ the other games

from scorer.web.common.forms import read_hand  # noqa: E402

GAME_PLAYERS = {
    "pozo_viuda": ["Ana", "Benito", "Carmen"],
    "ombre": ["Elena", "Fermín", "Gloria"],
    "bandos": ["A1", "B1", "A2", "B2", "A3", "B3"],
}


def parse_game(app: Flask, ruleset: str, data: dict[str, str], rules: dict[str, Any] | None = None) -> tuple[Any, Any]:
    with app.test_request_context(method="POST", data=data):
        form = game_hand_form(ruleset, GAME_PLAYERS[ruleset], 1, rules or {}, formdata=MultiDict(data))
        return read_hand(form), form


def test_pozo_form_gives_the_hand_with_matadores_and_primeras(app: Flask) -> None:
    data = {"jugador": "2", "lance": "roben", "trump": "bastos", "matadores": "3", "tricks_2": "6", "tricks_3": "2",
            "primeras": "y", "bola": ""}  # fmt: skip
    hand, _ = parse_game(app, "pozo_viuda", data)
    assert hand == {"jugador": 2, "lance": "roben", "trump": "bastos", "matadores": 3, "primeras": "jugador",
                    "tricks": {"2": 6, "3": 2, "1": 1}}  # fmt: skip


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"matadores": "4", "trump": "espadas"}, "matadores"),  # 0–3 with black trumps
        ({"lance": "contrabola"}, "lance"),  # not admitted by default
        ({"lance": "bola", "primeras": "y"}, "primeras"),  # a declared bola has no primeras
        ({"lance": "bola", "bola": "hecha"}, "bola"),
        ({"jugador": "7"}, "jugador"),
        ({"tricks_3": ""}, "tricks"),  # one count is not enough
    ],
)
def test_pozo_form_refuses_what_cannot_be(app: Flask, data: dict[str, str], field: str) -> None:
    base = {"jugador": "2", "lance": "juego", "trump": "oros", "matadores": "0", "tricks_2": "5", "tricks_3": "2"}
    hand, form = parse_game(app, "pozo_viuda", {**base, **data})
    assert hand is None
    assert form.problems[field]


def test_ombre_form_keeps_who_held_the_matadores(app: Flask) -> None:
    data = {"jugador": "3", "lance": "solo", "trump": "oros", "tricks_3": "9", "tricks_1": "0", "matadores_en": "3"}
    hand, _ = parse_game(app, "ombre", data)
    assert hand == {"jugador": 3, "lance": "solo", "trump": "oros", "matadores_en": 3,
                    "tricks": {"2": 0, "3": 9, "1": 0}}  # fmt: skip


def test_bandos_form_gives_primeras_capote_and_several_faults(app: Flask) -> None:
    data = {"primeras": "B", "capote": "y", "faltas-0-seat": "1", "faltas-0-falta": "renuncio", "faltas-0-points": "4",
            "faltas-1-seat": "", "faltas-2-seat": "6", "faltas-2-falta": "fuera_de_turno"}  # fmt: skip
    hand, _ = parse_game(app, "bandos", data)
    faltas = [{"seat": 1, "falta": "renuncio", "points": 4}, {"seat": 6, "falta": "fuera_de_turno"}]
    assert hand == {"primeras": "B", "capote": True, "faltas": faltas}


@pytest.mark.parametrize(
    ("data", "field"),
    [({}, "primeras"), ({"capote": "y"}, "capote"), ({"primeras": "A", "faltas-0-points": "2"}, "faltas")],
)
def test_bandos_form_refuses_what_cannot_be(app: Flask, data: dict[str, str], field: str) -> None:
    hand, form = parse_game(app, "bandos", data)
    assert hand is None
    assert form.problems[field]


GAME_REASONS = [
    ("pozo_viuda", {"contrabola": False}, {"jugador": 2, "lance": "contrabola", "trump": "oros",
                                           "tricks": {"2": 0, "3": 5, "1": 4}}, "lance"),
    ("pozo_viuda", {}, {"jugador": 2, "lance": "juego", "trump": "bastos", "matadores": 4,
                        "tricks": {"2": 5, "3": 2, "1": 2}}, "matadores"),
    ("pozo_viuda", {}, {"jugador": 2, "lance": "bola", "trump": "oros", "primeras": "jugador",
                        "tricks": {"2": 9, "3": 0, "1": 0}}, "primeras"),
    ("pozo_viuda", {}, {"jugador": 2, "lance": "juego", "trump": "oros", "primeras": "jugador",
                        "tricks": {"2": 4, "3": 4, "1": 1}}, "primeras"),
    ("ombre", {}, {"jugador": 2, "lance": "entrada", "trump": "oros", "matadores_en": 5,
                   "tricks": {"1": 2, "2": 5, "3": 2}}, "matadores_en"),
    ("bandos", {}, {"capote": True}, "capote"),
    ("bandos", {}, {}, "primeras"),
    ("bandos", {}, {"faltas": [{"seat": 7, "falta": "renuncio"}]}, "faltas"),
    ("bandos", {}, {"pass": True}, "general"),
]  # fmt: skip


@pytest.mark.parametrize(("ruleset", "rules", "hand", "field"), GAME_REASONS)
def test_other_games_reasons_become_spanish_on_their_field(
    ruleset: str, rules: dict[str, Any], hand: dict[str, Any], field: str
) -> None:
    session = {"format": "tresillo-session/1", "players": GAME_PLAYERS[ruleset],
               "rules": {"ruleset": ruleset, **rules}, "hands": [hand]}  # fmt: skip
    with pytest.raises(SessionError) as caught:
        settle(session)
    name, message = explain(caught.value)
    assert name == field, caught.value.reason
    assert caught.value.reason not in message
    assert not any(word in message for word in (" the ", " not ", " must "))
