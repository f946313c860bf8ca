"""Errors as data: every refusal of the engine has a catalogued code, a field and params.

The catalog is ``scorer.engine.errors.MESSAGES``. These tests check that every code is
raised by some session (with the field it concerns), that every raise site in the
engine names a catalogued code with the parameters its template needs, and that the
English line the CLI prints is unchanged.
"""

from __future__ import annotations

import ast
import copy
import pickle
import re
import string
from pathlib import Path
from typing import Any

import pytest

from scorer.engine import SessionError, settle
from scorer.engine.errors import ENTRIES, LISTS, MESSAGES, HandError, render

ENGINE = Path(__file__).resolve().parents[2] / "scorer" / "engine"
FORMAT = "tresillo-session/1"
PLAYERS4 = ["Ana", "Benito", "Carmen", "Diego"]
PLAYERS3 = ["Ana", "Benito", "Carmen"]


def session(*hands: Any, players: list[str] | None = None, **rules: Any) -> dict[str, Any]:
    """A session of ``hands``; seat 1 deals first, so with four players 2, 3 and 4 play (R3)."""
    return {"format": FORMAT, "players": players or PLAYERS4, "rules": rules, "hands": list(hands)}


def played(**changes: Any) -> dict[str, Any]:
    """A Tresillo hand won by seat 2 (dealer 1, four players), changed by ``changes`` (None drops a key)."""
    hand: dict[str, Any] = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 2, "4": 2}}
    hand.update(changes)
    return {k: v for k, v in hand.items() if v is not None}


def split(j: int, a: int, b: int) -> dict[str, int]:
    return {"2": j, "3": a, "4": b}


def pozo(*hands: Any, players: list[str] | None = None, **rules: Any) -> dict[str, Any]:
    return session(*hands, players=players or PLAYERS3, ruleset="pozo_viuda", **rules)


def pozo_hand(**changes: Any) -> dict[str, Any]:
    """A pozo y viuda hand (three players, dealer 1: everyone plays)."""
    hand: dict[str, Any] = {"jugador": 2, "lance": "juego", "trump": "copas", "tricks": {"1": 2, "2": 5, "3": 2}}
    hand.update(changes)
    return hand


def ombre(*hands: Any, **rules: Any) -> dict[str, Any]:
    return session(*hands, players=PLAYERS3, ruleset="ombre", **rules)


OMBRE_HAND = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"1": 2, "2": 5, "3": 2}}


def bandos(*hands: Any, **rules: Any) -> dict[str, Any]:
    return session(*hands, players=["A1", "B1", "A2", "B2", "A3", "B3"], ruleset="bandos", **rules)


CLOSE = {"close": "devolver"}

# (session, expected code, expected field): at least one per code of the catalog.
CASES: list[tuple[Any, str, str | None]] = [
    # the session (core)
    ([], "session_not_an_object", None),
    ({"players": PLAYERS4}, "format_missing", "format"),
    ({**session(), "format": "x"}, "format_unknown", "format"),
    ({**session(), "rules": []}, "rules_not_an_object", "rules"),
    (session(ruleset="mus"), "ruleset_unknown", "ruleset"),
    ({"format": FORMAT}, "players_missing", "players"),
    ({"format": FORMAT, "players": "Ana"}, "players_not_a_list", "players"),
    (session(players=["Ana", "Benito"]), "player_count", "players"),
    (session(players=["Ana", " ", "Carmen"]), "player_name_missing", "players"),
    (session(players=["Ana", "Ana ", "Carmen"]), "player_name_twice", "players"),
    ({**session(), "first_dealer": 5}, "first_dealer_not_a_seat", "first_dealer"),
    ({**session(), "hands": {}}, "hands_not_a_list", "hands"),
    (session(3), "hand_not_an_object", None),
    (pozo({"ajuste": {"from": 1, "to": 2, "amount": 5}}), "ajuste_not_in_ruleset", "ajuste"),
    (ombre({"sienta": {"seat": 1, "player": "Zoe"}}), "sienta_not_in_ruleset", "sienta"),
    (pozo({"favor": "copas"}), "favor_not_in_ruleset", "favor"),
    (session(zzz=1), "unknown_rule", None),
    (pozo(zzz=1), "unknown_rule_for_ruleset", None),
    (ombre(zzz=1), "unknown_rule_for_ruleset", None),
    (bandos(zzz=1), "unknown_rule_for_ruleset", None),
    # values
    (session(played(zzz=1)), "unknown_key", None),
    (session({"ajuste": {"from": 1, "to": 2, "amount": 5, "why": "x"}}), "unknown_key", None),
    (session(played(lance=None)), "missing_key", "lance"),
    (session({"ajuste": {"to": 2, "amount": 5}}), "missing_key", "from"),
    (session(played(jugador="x")), "not_a_seat_number", "jugador"),
    (session(played(jugador=7)), "seat_out_of_range", "jugador"),
    (session({"sienta": {"seat": 5, "player": "Zoe"}}), "seat_out_of_range", "seat"),
    (session({"ajuste": {"from": 1, "to": 9, "amount": 5}}), "seat_out_of_range", "to"),
    (session(dealer_stake="5"), "not_a_whole_number", "dealer_stake"),
    (session(played(estuches="3")), "not_a_whole_number", "estuches"),
    (session(rounding=0), "rule_number_too_small", "rounding"),
    (session({"ajuste": {"from": 1, "to": 2, "amount": 0}}), "number_too_small", "amount"),
    (ombre(deals=0), "rule_number_too_small", "deals"),
    (pozo(pozo_hand(matadores=5)), "number_out_of_range", "matadores"),
    (session(played(trump="rosas")), "unknown_word", "trump"),
    (session(favor_doubling="x"), "rule_not_a_choice", "favor_doubling"),
    (ombre(codille="double"), "rule_not_a_choice", "codille"),
    (bandos(scoring="literal"), "rule_not_a_choice", "scoring"),
    (session({"close": "x"}), "unknown_word", "close"),
    (ombre({"close": "devolver"}), "unknown_word", "close"),
    (bandos({"primeras": "A", "faltas": [{"seat": 1, "falta": "x"}]}), "unknown_word", "faltas"),
    (session(vuelta_solera="yes"), "not_a_boolean", "vuelta_solera"),
    (session(played(rendida="yes")), "not_a_boolean", "rendida"),
    (session({"pass": False}), "pass_not_true", "pass"),
    (pozo({"pass": 1}), "pass_not_true", "pass"),
    (session({"close": "devolver", "dealer": 1}), "entry_has_dealer", "dealer"),
    (session({"ajuste": {"from": 1, "to": 2, "amount": 5}, "dealer": 2}), "entry_has_dealer", "dealer"),
    (pozo({"close": "repartir", "dealer": 1}), "entry_has_dealer", "dealer"),
    (session(CLOSE, played()), "after_closing", None),
    (pozo({"close": "repartir"}, pozo_hand()), "after_closing", None),
    (ombre({"close": "repartir"}, OMBRE_HAND), "after_closing", None),
    # tricks
    (session(played(tricks=[5, 2, 2])), "tricks_not_an_object", "tricks"),
    (session(played(tricks={"1": 5, "3": 2, "4": 2})), "tricks_inactive_seat", "tricks"),
    (session(played(tricks={"2": 5, 2: 1, "3": 2, "4": 1})), "tricks_seat_twice", "tricks"),
    (session(played(tricks=split(5, 2, "2"))), "tricks_not_a_number", "tricks"),
    (session(played(tricks=split(10, 0, 0))), "tricks_out_of_range", "tricks"),
    (session(played(tricks={"2": 5, "3": 2})), "tricks_missing_seat", "tricks"),
    (session(played(tricks=split(5, 3, 2))), "tricks_too_many", "tricks"),
    (session(played(tricks=split(4, 4, 0))), "tricks_undecided", "tricks"),
    (pozo(pozo_hand(tricks={"1": 4, "2": 4, "3": 0})), "tricks_undecided", "tricks"),
    (ombre({**OMBRE_HAND, "tricks": {"1": 4, "2": 4, "3": 0}}), "tricks_undecided", "tricks"),
    # Tresillo: a played hand
    (session(played(jugador=1)), "jugador_is_alcalde", "jugador"),
    (session(played(lance="vuelta_solera"), vuelta_solera=False), "vuelta_solera_not_admitted", "lance"),
    (session(played(estuches=3, contraestuches=4)), "estuches_and_contraestuches", "estuches"),
    (session(played(estuches=2)), "estuches_impossible", "estuches"),
    (session(played(trump="espadas", contraestuches=12)), "estuches_impossible", "contraestuches"),
    (session(played(defensor=3)), "defensor_without_rendida", "defensor"),
    (session(played(rendida=True, bola="hecha")), "rendida_with_bola", "bola"),
    (session(played(rendida=True, primeras="jugador")), "rendida_with_primeras", "primeras"),
    (session(played(rendida=True, lance="solo")), "rendida_lance", "rendida"),
    (session(played(rendida=True, lance="vuelta", defensor=3)), "vuelta_rendida_defended", "defensor"),
    (session(played(rendida=True, defensor=1)), "defensor_not_contra", "defensor"),
    (session(played(rendida=True, defensor=3, tricks=split(4, 4, 0))), "defended_tricks_undecided", "tricks"),
    (session(played(tricks=split(6, 0, 0))), "tricks_after_primeras", "tricks"),
    (session(played(bola="hecha")), "bola_hecha_not_nine", "bola"),
    (pozo(pozo_hand(bola="hecha")), "bola_hecha_not_nine", "bola"),
    (session(played(bola="cortada")), "bola_cortada_split", "bola"),
    (session(played(primeras="jugador")), "primeras_jugador_split", "primeras"),
    (session(played(primeras="contra")), "primeras_contra_split", "primeras"),
    # Tresillo: events of the evening
    (session({"ajuste": 5}), "ajuste_not_an_object", "ajuste"),
    (session({"ajuste": {"from": 1, "to": "x", "amount": 5}}), "ajuste_bad_target", "to"),
    (session({"ajuste": {"from": 1, "to": 1, "amount": 5}}), "ajuste_to_itself", "to"),
    (session({"sienta": "Zoe"}), "sienta_not_an_object", "sienta"),
    (session({"sienta": {"seat": 1, "player": " "}}), "sienta_player_not_a_name", "player"),
    (session({"sienta": {"seat": 1, "player": "Benito"}}), "player_already_seated", "player"),
    (session({"favor": "bastos"}, favor_suit="bastos"), "favor_same_suit", "favor"),
    # pozo y viuda
    (pozo(pozo_hand(jugador=1, tricks={"2": 5, "3": 2, "4": 2}), players=PLAYERS4), "jugador_is_dealer", "jugador"),
    (pozo(pozo_hand(lance="contrabola")), "contrabola_not_admitted", "lance"),
    (pozo(pozo_hand(lance="contrabola", matadores=1), contrabola=True), "contrabola_matadores", "matadores"),
    (pozo(pozo_hand(lance="bola", primeras="jugador")), "declared_with_primeras", "primeras"),
    (pozo(pozo_hand(lance="bola", bola="hecha")), "declared_with_bola", "bola"),
    (pozo(pozo_hand(lance="bola", tricks={"1": 1, "2": 5, "3": 2})), "declared_tricks_not_nine", "tricks"),
    (pozo(pozo_hand(bola="cortada", tricks={"1": 4, "2": 4, "3": 1})), "bola_cortada_not_won", "bola"),
    (pozo(pozo_hand(primeras="jugador", tricks={"1": 4, "2": 4, "3": 1})), "primeras_not_won", "primeras"),
    (pozo(pozo_hand(tricks={"1": 0, "2": 7, "3": 0})), "tricks_after_five", "tricks"),
    # ombre
    (ombre(OMBRE_HAND, OMBRE_HAND, deals=1), "session_over", None),
    (ombre({**OMBRE_HAND, "primeras": "jugador"}), "ombre_key", "primeras"),
    # bandos
    (bandos({"primeras": "A"}, {"primeras": "B"}, target=1), "game_over", None),
    (bandos({"close": "repartir"}), "bandos_no_closing", "close"),
    (bandos({"pass": True}), "bandos_no_pass", "pass"),
    (bandos({"capote": True}), "capote_without_primeras", "capote"),
    (bandos({}), "hand_without_primeras", "primeras"),
    (bandos({"primeras": "none"}), "primeras_none_not_literal", "primeras"),
    (bandos({"primeras": "none", "capote": True}, scoring="first_three_tricks"), "primeras_none_with_capote", "capote"),
    (bandos({"primeras": "A", "faltas": {}}), "faltas_not_a_list", "faltas"),
    (bandos({"primeras": "A", "faltas": [3]}), "falta_not_an_object", "faltas"),
    (bandos({"primeras": "A", "faltas": [{"seat": 1, "falta": "renuncio", "q": 1}]}), "falta_unknown_key", "faltas"),
    (bandos({"primeras": "A", "faltas": [{"falta": "renuncio"}]}), "falta_missing_seat", "faltas"),
    (bandos({"primeras": "A", "faltas": [{"seat": 1}]}), "falta_missing_kind", "faltas"),
]


def refusal(case: Any) -> SessionError:
    with pytest.raises(SessionError) as info:
        settle(case)
    return info.value


@pytest.mark.parametrize(("case", "code", "field"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_each_refusal_has_its_code_and_field(case: Any, code: str, field: str | None) -> None:
    error = refusal(case)
    assert (error.code, error.field) == (code, field), str(error)
    # the English reason is the code's template filled with the error's own params
    assert error.reason == render(error.code, error.params)
    prefix = "session" if error.hand is None else f"hand {error.hand}"
    assert str(error) == f"{prefix}: {error.reason}"


def test_every_code_of_the_catalog_is_raised_by_some_session() -> None:
    assert {code for _, code, _ in CASES} == set(MESSAGES)


# ---------------------------------------------------------------- the English text

# Literal lines, as the CLI has always printed them (tests/engine/test_cli.py, format.md).
ENGLISH: list[tuple[Any, str]] = [
    (session(played(tricks=split(4, 4, 0))), "hand 1: tricks 4-4-0 do not decide the hand (R10)"),
    ({**session(), "format": "x"}, "session: unknown format 'x' (expected 'tresillo-session/1')"),
    ({"players": PLAYERS4}, "session: missing format (expected 'tresillo-session/1')"),
    (session(players=["Ana", "Benito"]), "session: tresillo needs 3 or 4 players, not 2"),
    (session(ruleset="bandos"), "session: bandos needs 6 players, not 4"),
    (session(ruleset="mus"), "session: unknown ruleset 'mus' (expected bandos, ombre, pozo_viuda, tresillo)"),
    (session(players=["Ana", "Ana ", "Carmen"]), "session: player name 'Ana' appears twice"),
    (session(players=["Ana", 3, "Carmen"]), "session: player 2 must have a name, not 3"),
    ({**session(), "first_dealer": "1"}, "session: first_dealer must be a seat from 1 to 4, not '1'"),
    (session(rounding=0), "session: rule rounding must be at least 1, not 0 (R14)"),
    (session(zzz=1), "session: unknown rule 'zzz'"),
    (pozo(zzz=1), "session: unknown rule 'zzz' for pozo_viuda"),
    (session(3), "hand 1: a hand must be an object, not int"),
    (session(played(trump="rosas")), "hand 1: unknown trump 'rosas' (expected oros, copas, espadas, bastos)"),
    (session(played(zzz=1)), "hand 1: unknown key 'zzz' in a played hand"),
    (session({"pass": True, "x": 1}), "hand 1: unknown key 'x' in a passed hand"),
    (session(played(tricks={"1": 5, "3": 2, "4": 2})), "hand 1: tricks names seat '1', which is not active"
     " (active: 2, 3, 4)"),
    (session(played(tricks=split(10, 0, 0))), "hand 1: tricks of seat 2 must be between 0 and 9, not 10"),
    (session(played(tricks=split(5, True, 2))), "hand 1: tricks of seat 3 must be a whole number, not True"),
    (session(played(tricks=split(5, 3, 2))), "hand 1: tricks add up to 10, more than 9"),
    (session(played(jugador=1)), "hand 1: jugador 1 is the alcalde (dealer) and does not play"),
    (session(played(rendida=True, lance="solo")), "hand 1: a solo cannot be surrendered (R25)"),
    (session(played(rendida=True, lance="vuelta_solera")), "hand 1: a vuelta solera cannot be surrendered (R25)"),
    (session(played(rendida=True, defensor=1)), "hand 1: defensor 1 is not a contra player (contra: 3, 4)"),
    (session(played(estuches=2)), "hand 1: impossible estuches 2: 0, or 3 to 12 with oros (R12)"),
    (
        session(played(rendida=True, defensor=3, tricks=split(4, 4, 0))),
        "hand 1: tricks 4-4-0 (rendido-defensor-pobre) do not decide the hand (R10)",
    ),
    (session(played(primeras="contra")), "hand 1: primeras for the contra need a puesta, not 5-2-2 (R13)"),
    (session(CLOSE, {"close": "devolver", "dealer": 2}), "hand 2: no hand may follow the closing (R30)"),
    (session({"close": "devolver", "dealer": 1}), "hand 1: the closing has no dealer (R30)"),
    (session({"sienta": {"seat": 1, "player": "Zoe"}, "dealer": 1}), "hand 1: a change of player has no dealer (R33)"),
    (session({"ajuste": {"from": 1, "to": "x", "amount": 5}}), "hand 1: ajuste to must be a seat,"
     " plato or todos, not 'x' (R32)"),
    (session({"ajuste": {"from": 1, "to": 2, "amount": 0}}), "hand 1: ajuste amount must be at least 1, not 0"),
    (session({"sienta": {"seat": 3, "player": "Benito"}}), "hand 1: Benito is already seated at seat 2 (R33)"),
    (pozo({"ajuste": {"from": 1, "to": 2, "amount": 5}}), "hand 1: an ajuste (R32) is a Tresillo entry;"
     " the pozo_viuda rule set has none"),
    (pozo(pozo_hand(matadores=5)), "hand 1: matadores with copas must be between 0 and 4, not 5"),
    (pozo({"close": "x"}), "hand 1: unknown close 'x' (expected repartir)"),
    (pozo(pozo_hand(lance="bola", tricks={"1": 1, "2": 5, "3": 2})), "hand 1: tricks of a declared bola"
     " must add up to nine, not 8 (P9)"),
    (ombre({**OMBRE_HAND, "tricks": {"1": 4, "2": 4, "3": 0}}), "hand 1: tricks 4-4-0 do not decide the hand (O2)"),
    (ombre(OMBRE_HAND, OMBRE_HAND, deals=1),
     "hand 2: the session is over (O6): no further entry, not even the closing"),
    (bandos({"primeras": "A", "faltas": {}}), "hand 1: faltas must be a list of {seat, falta}"),
    (bandos({"primeras": "A", "faltas": [{"seat": 7, "falta": "renuncio"}]}),
     "hand 1: seat of falta 1 7 is not a seat (1-6)"),
    (bandos({"primeras": "A"}, {"primeras": "B"}, target=1), "hand 2: the game is over: team A won (B4)"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "line"), ENGLISH, ids=[line for _, line in ENGLISH])
def test_the_english_line_is_unchanged(case: Any, line: str) -> None:
    assert str(refusal(case)) == line


def test_the_cli_prints_the_english_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scorer.cli import main

    path = tmp_path / "s.json"
    path.write_text(
        '{"format": "tresillo-session/1", "players": ["A", "B", "C", "D"], "hands": [{"pass": true},'
        ' {"jugador": 3, "lance": "entrada", "trump": "oros", "tricks": {"3": 4, "4": 4, "1": 0}}]}',
        encoding="utf-8",
    )
    assert main(["settle", str(path)]) == 2
    assert capsys.readouterr().err == "hand 2: tricks 4-4-0 do not decide the hand (R10)\n"


# ---------------------------------------------------------------- the error objects


def test_the_core_copies_code_field_and_params_when_it_names_the_hand() -> None:
    error = refusal(session({"pass": True}, played(jugador=3, tricks={"3": 4, "4": 4, "1": 0})))
    assert (error.hand, error.code, error.field) == (2, "tricks_undecided", "tricks")
    assert error.params == {"split": "4-4-0", "rule": "R10"}
    assert error.reason == "tricks 4-4-0 do not decide the hand (R10)"


def test_rule_errors_name_the_option_and_carry_no_hand() -> None:
    error = refusal(session(rounding=0))
    assert (error.hand, error.code, error.field) == (None, "rule_number_too_small", "rounding")
    assert error.params == {"key": "rounding", "low": 1, "value": 0, "rule": "R14"}


def test_params_are_json_values() -> None:
    # a web layer may store or send them: only str, int, bool, None, or lists of them
    for case, _, _ in CASES:
        for value in refusal(case).params.values():
            items = value if isinstance(value, list) else [value]
            assert all(v is None or isinstance(v, (str, int)) for v in items), (case, value)


def test_hand_error_carries_the_same_data() -> None:
    error = HandError("tricks_undecided", "tricks", split="4-4-0", rule="R10")
    assert (error.code, error.field, error.params) == ("tricks_undecided", "tricks", {"split": "4-4-0", "rule": "R10"})
    assert str(error) == error.reason == "tricks 4-4-0 do not decide the hand (R10)"
    wrapped = SessionError.of(error, 7)
    assert str(wrapped) == "hand 7: tricks 4-4-0 do not decide the hand (R10)"
    assert (wrapped.code, wrapped.field, wrapped.params, wrapped.hand) == (error.code, "tricks", error.params, 7)


def test_errors_survive_pickle_and_copy() -> None:
    error = refusal(session(played(tricks=split(4, 4, 0))))
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error)):
        assert isinstance(again, SessionError)
        assert (again.code, again.field, again.params, again.hand) == (error.code, error.field, error.params, 1)
        assert str(again) == "hand 1: tricks 4-4-0 do not decide the hand (R10)"
    hand_error = pickle.loads(pickle.dumps(HandError("missing_key", "lance", key="lance")))
    assert (hand_error.code, hand_error.field, str(hand_error)) == ("missing_key", "lance", "missing lance")


# ---------------------------------------------------------------- the catalog


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_codes_are_unique_snake_case() -> None:
    tree = ast.parse((ENGINE / "errors.py").read_text(encoding="utf-8"))
    literal = next(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "MESSAGES"
    )
    assert isinstance(literal, ast.Dict)
    keys = [k.value for k in literal.keys if isinstance(k, ast.Constant)]
    assert len(keys) == len(literal.keys) == len(set(keys)) == len(MESSAGES)  # no key written twice
    for code in keys:
        assert re.fullmatch(r"[a-z]+(_[a-z0-9]+)*", code), code


def test_templates_name_only_plain_params() -> None:
    for code, template in MESSAGES.items():
        names = _placeholders(template)
        assert "hand" not in names, code  # SessionError(hand=…) is the hand number, not a param
        for name in names:
            assert name.isidentifier(), (code, name)
    assert set(ENTRIES) == {
        "played",
        "passed",
        "hand",
        "closing",
        "ajuste",
        "ajuste_body",
        "sienta",
        "sienta_body",
        "favor",
    }
    assert set(LISTS) <= {n for t in MESSAGES.values() for n in _placeholders(t)}


RAISERS = ("HandError", "SessionError")


def _raise_sites() -> list[tuple[str, int, ast.Call]]:
    sites = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in RAISERS:
                sites.append((path.name, node.lineno, node))
    return sites


def test_every_raise_site_names_a_catalogued_code_with_its_params() -> None:
    sites = _raise_sites()
    assert len(sites) > 80  # every refusal of the engine, not a handful
    used = set()
    for name, line, call in sites:
        where = f"{name}:{line}"
        assert call.args, where
        code = call.args[0]
        assert isinstance(code, ast.Constant) and isinstance(code.value, str), f"{where}: code is not a literal"
        assert code.value in MESSAGES, f"{where}: {code.value} is not in MESSAGES"
        used.add(code.value)
        assert len(call.args) <= 2, f"{where}: params go by keyword"
        if len(call.args) == 2:
            field = call.args[1]
            assert not isinstance(field, ast.JoinedStr), f"{where}: the field is a name, not a sentence"
        given = {k.arg for k in call.keywords if k.arg is not None and k.arg != "hand"}
        assert all(k.arg is not None for k in call.keywords), f"{where}: no **params at a raise site"
        assert _placeholders(MESSAGES[code.value]) <= given, f"{where}: {code.value} needs its params"
        for keyword in call.keywords:
            assert not isinstance(keyword.value, ast.JoinedStr) or keyword.arg == "key", f"{where}: {keyword.arg}"
    assert used == set(MESSAGES)  # no code left in the catalog that nothing raises
