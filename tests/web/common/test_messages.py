"""The pages render refusals from their code: every engine code has a Spanish message and a field.

The refusals are real: the sessions of tests/engine/test_error_codes.py (one or more per code
of ``scorer.engine.errors.MESSAGES``), settled by the engine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer import limits, store
from scorer.engine import SessionError, settle
from scorer.engine.errors import ENTRIES
from scorer.engine.errors import MESSAGES as ENGLISH
from scorer.store.models import Table
from scorer.web.common import messages
from tests.engine.test_error_codes import CASES
from tests.web.tables.test_pages import text

ROOT = Path(__file__).resolve().parents[3]

# Words of the game and of the rules that the English templates share with Spanish pages.
SHARED = {
    "jugador", "alcalde", "lance", "vuelta", "solera", "estuches", "contraestuches", "rendida", "defensor",
    "primeras", "bola", "hecha", "cortada", "contra", "puesta", "rendido", "pobre", "ajuste", "plato", "todos",
    "sienta", "contrabola", "matadores", "ombre", "falta", "faltas", "capote", "bandos", "tresillo", "pozo",
    "viuda", "favor", "seat", "player",  # "seat"/"player": keys of a session file, quoted as data («seat»)
    "json", "true", "false",  # the file format's own words
}  # fmt: skip


def _english_words() -> set[str]:
    """Every word of the engine's English templates and entry names that is not also a word of the game."""
    literal = " ".join(re.sub(r"\{[^}]*\}", " ", t) for t in [*ENGLISH.values(), *ENTRIES.values()])
    return {w.lower() for w in re.findall(r"[A-Za-z_]{3,}", literal)} - SHARED


ENGLISH_WORDS = _english_words()


def refusal(case: Any) -> SessionError:
    with pytest.raises(SessionError) as info:
        settle(case)
    return info.value


def test_every_engine_code_has_a_spanish_message() -> None:
    assert set(ENGLISH) <= set(messages.MESSAGES)
    for code in ENGLISH:
        assert messages.MESSAGES[code].strip(), code
        assert messages.MESSAGES[code] != ENGLISH[code], code


def test_every_field_the_engine_names_has_a_form_field_and_a_spanish_name() -> None:
    fields = {refusal(case).field for case, _, _ in CASES} - {None}
    hand_fields = {"jugador", "lance", "trump", "tricks", "estuches", "contraestuches", "primeras", "bola",
                   "rendida", "defensor", "matadores", "capote", "faltas"}  # fmt: skip
    for field in fields:
        assert field in messages.FIELD_WORDS, field
    for field in hand_fields & fields:
        assert messages.FORM_FIELDS[field] == field  # next to the same-named control of the hand forms
    # the ajuste and cambio forms (evening_forms) name their controls payer/to/amount, seat/player
    assert {messages.FORM_FIELDS[f] for f in ("from", "to", "amount", "seat", "player")} == {
        "payer",
        "to",
        "amount",
        "seat",
        "player",
    }


def test_every_code_is_placed_on_a_field() -> None:
    placed = {}
    for case, code, _ in CASES:
        placed[code] = messages.form_field(refusal(case))
    assert set(placed) == set(ENGLISH)
    assert placed["tricks_undecided"] == "tricks"
    assert placed["defensor_not_contra"] == "defensor"
    assert placed["ajuste_to_itself"] == "to"
    assert placed["missing_key"] in ("lance", "payer")
    assert placed["game_over"] == messages.GENERAL and placed["bandos_no_pass"] == messages.GENERAL


@pytest.mark.parametrize(("case", "code", "field"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_each_real_refusal_renders_in_spanish(case: Any, code: str, field: str | None) -> None:
    error = refusal(case)
    shown = messages.message(error)
    assert shown.strip() and shown != error.reason
    assert "{" not in shown and "}" not in shown, shown  # no placeholder left
    # the user's own values are quoted «…»: what is left is Spanish (and the game's words)
    words = {w.lower() for w in re.findall(r"[A-Za-z_]{3,}", re.sub(r"«[^»]*»", " ", shown))}
    assert not words & ENGLISH_WORDS, (shown, words & ENGLISH_WORDS)


def test_values_are_shown_with_the_words_of_the_game() -> None:
    rendida_solo = next(c for c, code, _ in CASES if code == "rendida_lance")
    assert "un solo" in messages.message(refusal(rendida_solo))
    error = SessionError("rendida_lance", "rendida", hand=1, lance="vuelta_solera")
    assert "vuelta solera" in messages.message(error)
    error = SessionError("player_count", "players", ruleset="pozo_viuda", counts=[3, 4], count=2)
    assert messages.message(error) == "Pozo y viuda se juega con 3 o 4 jugadores, no con 2."
    error = SessionError("unknown_word", "trump", hand=1, key="trump", value="'rosas'", choices=["oros", "copas"])
    assert messages.message(error) == "El triunfo: «rosas» no vale; elige oros o copas."


def test_templates_name_only_params_their_code_can_carry() -> None:
    # the params of each engine code's Spanish template are among those of its English one (or made here)
    made = {"what", "kilobytes"}
    for code, english in ENGLISH.items():
        assert messages.placeholders(messages.MESSAGES[code]) <= messages.placeholders(english) | made, code


def test_limits_and_services_errors_are_data_too(app: Flask) -> None:
    with pytest.raises(limits.LimitError) as caught:
        limits.check_session({"players": ["Ana", "B\u202eb"]})
    error = caught.value
    assert (error.code, error.params["seat"], error.params["char"]) == ("text_bad_char", 2, "U+202E")
    assert error.reason == "the name of player 2 contains a bidi control U+202E"  # the API's English
    assert messages.message(error) == "El nombre del asiento 2 tiene un carácter no permitido (U+202E)."
    too_many = limits.LimitError("too_many_hands", limit=limits.HANDS_MAX)
    assert messages.message(too_many) == "Demasiadas manos: como mucho 20.000."
    with app.app_context(), pytest.raises(store.Invalid) as invalid:
        store.import_session("{not json")
    assert invalid.value.code == "not_json" and "JSON válido" in messages.message(invalid.value)
    for code in (*limits.ENGLISH, "not_json", "request_id_too_long", "closing_unknown", "table_closed"):
        assert code in messages.MESSAGES, code


def test_invalid_of_carries_the_engine_data() -> None:
    error = refusal(next(c for c, code, _ in CASES if code == "tricks_undecided"))
    wrapped = store.Invalid.of(error)
    assert (wrapped.code, wrapped.field, wrapped.params, wrapped.hand) == (error.code, "tricks", error.params, 1)
    assert messages.explain(wrapped) == messages.explain(error)


def test_no_regex_reads_a_message_back() -> None:
    """The pages never parse English text: no re.search/re.match in the web layer at all."""
    for path in (ROOT / "scorer" / "web").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\bre\.(search|match|fullmatch)\(", source), path
        assert "\n_REASONS" not in source and "explain_session" not in source, path


# ---------------------------------------------------------------- next to the field, in the HTML form

LEGENDS = {"tricks": "Bazas", "defensor": "Defensor", "rendida": "Rendida", "bola": "Bola"}

SAMPLES = [
    # (form data of a Tresillo hand, field, code): the engine refuses, the page says why next to the field
    ({"jugador": "2", "trump": "oros", "tricks_2": "4", "tricks_3": "4", "tricks_4": "0"}, "tricks",
     "tricks_undecided"),
    ({"jugador": "2", "trump": "oros", "tricks_2": "5", "tricks_3": "2", "defensor": "3"}, "defensor",
     "defensor_without_rendida"),
    ({"jugador": "2", "lance": "solo", "trump": "oros", "tricks_2": "5", "tricks_3": "2", "rendida": "y"},
     "rendida", "rendida_lance"),
    ({"jugador": "2", "trump": "oros", "tricks_2": "8", "tricks_3": "1", "bola": "hecha"}, "bola",
     "bola_hecha_not_nine"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "field", "code"), SAMPLES, ids=[s[2] for s in SAMPLES])
def test_the_html_form_shows_the_message_next_to_its_field(
    client: FlaskClient, make_table: Callable[..., Table], fields: dict[str, str], field: str, code: str
) -> None:
    t = make_table(hands=[])
    data = {"lance": "entrada", "request_id": f"m-{code}", "save": "1", **fields}
    response = client.post(f"/t/{t.edit_token}/mano", data=data)
    assert response.status_code == 400
    html = text(response)
    owner = [f for f in re.findall(r"<fieldset[^>]*>.*?</fieldset>", html, flags=re.S)
             if re.search(rf"<legend>{LEGENDS[field]}", f)]  # fmt: skip
    assert owner, field
    # the catalog's message for that code, as rendered from the engine's refusal, sits in its field's fieldset
    static = messages.MESSAGES[code].split("{")[0].strip()
    assert static and static in owner[0], (static, owner[0][-600:])
    assert "field-error" in owner[0]


def test_a_game_module_form_shows_the_message_next_to_its_field(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    """Pozo y viuda (scorer/games/pozo_viuda.py): a declared bola must count nine tricks (P9)."""
    t = make_table(hands=[], players=["Ana", "Benito", "Carmen"], rules={"ruleset": "pozo_viuda"})
    data = {"jugador": "2", "lance": "bola", "trump": "oros", "tricks_1": "1", "tricks_2": "5", "tricks_3": "2",
            "request_id": "m-pozo", "save": "1"}  # fmt: skip
    response = client.post(f"/t/{t.edit_token}/mano", data=data)
    assert response.status_code == 400
    owner = [f for f in re.findall(r"<fieldset[^>]*>.*?</fieldset>", text(response), flags=re.S)
             if re.search(r"<legend>Bazas", f)]  # fmt: skip
    assert owner
    expected = messages.render("declared_tricks_not_nine", {"lance": "bola", "count": 8})
    assert expected in owner[0] and "field-error" in owner[0]


def _web_codes() -> set[str]:
    """The codes the web layer and the store it writes through raise, with the limits it checks input by
    (scorer/limits.py): ``code="…"`` keywords and LimitError's first argument."""
    import ast

    codes = set()
    for path in [
        *(ROOT / "scorer" / "web").rglob("*.py"),
        *(ROOT / "scorer" / "store").rglob("*.py"),
        ROOT / "scorer" / "limits.py",
    ]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            for keyword in node.keywords:
                if keyword.arg == "code" and isinstance(keyword.value, ast.Constant):
                    codes.add(keyword.value.value)
            limit = isinstance(node.func, ast.Name | ast.Attribute) and ast.unparse(node.func).endswith("LimitError")
            if limit and node.args and isinstance(node.args[0], ast.Constant):
                codes.add(node.args[0].value)
    return codes


def test_every_code_the_web_raises_has_a_spanish_message() -> None:
    raised = _web_codes()
    assert {"not_json", "table_closed", "which_person", "text_not_a_string", "too_many_hands"} <= raised
    assert raised <= set(messages.MESSAGES), raised - set(messages.MESSAGES)
    for code in raised | set(limits.ENGLISH):
        names = messages.placeholders(messages.MESSAGES[code]) - {"what", "kilobytes"}
        shown = messages.render(code, {**dict.fromkeys(names, "x"), "what": "name", "limit": 2000})
        assert "{" not in shown and shown.strip(), code
