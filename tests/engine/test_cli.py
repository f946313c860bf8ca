"""`scorer settle FILE|-` through a real subprocess: happy path and every kind of invalid file."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import EXAMPLES, load_json
from tests.engine.cli import assert_rejected

# format.md, "Ledger": the top-level keys of a Tresillo ledger
LEDGER_KEYS = {"format", "players", "hands", "balances", "plato", "cartulina", "next_dealer", "people", "favor_suit"}
HAND_KEYS = {"n", "dealer", "result", "transfers", "balances", "plato", "cartulina"}


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scorer", "settle", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def base(hands: list[Any] | None = None, players: int = 4, **extra: Any) -> dict[str, Any]:
    session: dict[str, Any] = {
        "format": "tresillo-session/1",
        "players": ["Ana", "Benito", "Carmen", "Diego", "Elena"][:players],
        "hands": hands if hands is not None else [],
    }
    session.update(extra)
    return session


def hand(**kw: Any) -> dict[str, Any]:
    """Hand 1 is dealt by seat 1 (the alcalde): seat 2 plays entrada oros 5-2-2 unless told otherwise."""
    h: dict[str, Any] = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 5, "3": 2, "4": 2}}
    h.update(kw)
    return {k: v for k, v in h.items() if v is not ...}


def test_settle_file_happy_path() -> None:
    path = EXAMPLES / "walkthrough.json"
    proc = run([str(path)])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    ledger = json.loads(proc.stdout)
    want = load_json(EXAMPLES / "walkthrough.ledger.json")
    assert ledger["balances"] == want["balances"]
    assert ledger["cartulina"] == want["cartulina"]


def test_settle_stdin_and_ledger_keys() -> None:
    session = base(
        [hand(), {"pass": True}, {"close": "devolver"}],
        rules={"favor_suit": "bastos"},
        date="2024-05-01",
        place="Oviedo",
    )
    proc = run(["-"], json.dumps(session))
    assert proc.returncode == 0, proc.stderr
    ledger = json.loads(proc.stdout)
    # The core also writes "ruleset" for every rule set (other rule sets' documents require it);
    # apart from it, exactly the keys of format.md.
    assert set(ledger) - {"ruleset"} == LEDGER_KEYS
    assert ledger.get("ruleset", "tresillo") == "tresillo"
    assert ledger["format"] == "tresillo-ledger/1"
    for entry in ledger["hands"]:
        assert set(entry) >= HAND_KEYS
    assert [e["result"] for e in ledger["hands"]] == ["ganada", "paso", "cierre"]
    # hand 1: 5 each to seat 2 + plato 5; hand 2 (dealer 2): 5 in; closing: back to seat 2
    assert ledger["balances"] == {"1": -10, "2": 20, "3": -5, "4": -5}
    assert ledger["plato"] == {"amount": 0, "kind": "sin_puesta"}
    assert ledger["next_dealer"] == 3


INVALID_HANDS: list[tuple[str, list[Any]]] = [
    ("jugador as text", [hand(jugador="2")]),
    ("jugador true", [hand(jugador=True)]),
    ("tricks as list", [hand(tricks=[5, 2, 2])]),
    ("tricks count as float", [hand(tricks={"2": 5.0, "3": 2, "4": 2})]),
    ("unknown lance", [hand(lance="misere")]),
    ("lance as list", [hand(lance=["entrada"])]),
    ("lance as object", [hand(lance={"entrada": 1})]),
    ("unknown trump", [hand(trump="corazones")]),
    ("unknown primeras", [hand(primeras="todas")]),
    ("unknown key", [hand(apuesta=5)]),
    ("pass false", [{"pass": False}]),
    ("hand not an object", [[2, "entrada"]]),
    ("missing jugador", [hand(jugador=...)]),
    ("missing lance", [hand(lance=...)]),
    ("missing trump", [hand(trump=...)]),
    ("missing tricks", [hand(tricks=...)]),
    ("jugador is the alcalde", [hand(jugador=1, tricks={"1": 5, "2": 2, "3": 2})]),
    ("tricks name the alcalde", [hand(tricks={"1": 5, "2": 2, "3": 2})]),
    ("tricks miss a seat", [hand(tricks={"2": 5, "3": 2})]),
    ("seat 5 of 4", [hand(jugador=5)]),
    ("split 4-4-0", [hand(tricks={"2": 4, "3": 4, "4": 0})]),
    ("ten tricks", [hand(tricks={"2": 6, "3": 2, "4": 2})]),
    ("negative tricks", [hand(tricks={"2": 5, "3": -1, "4": 2})]),
    ("estuches 1", [hand(estuches=1)]),
    ("estuches 2", [hand(estuches=2)]),
    ("estuches 13", [hand(estuches=13)]),
    ("estuches 12 in a short suit", [hand(trump="espadas", estuches=12)]),
    ("contraestuches 12 in a short suit", [hand(trump="bastos", contraestuches=12)]),
    ("estuches and contraestuches", [hand(estuches=3, contraestuches=4)]),
    ("primeras jugador on 4-3-2", [hand(tricks={"2": 4, "3": 3, "4": 2}, primeras="jugador")]),
    ("primeras contra on a ganada", [hand(primeras="contra")]),
    ("primeras contra on a codillo", [hand(tricks={"2": 2, "3": 5, "4": 2}, primeras="contra")]),
    ("bola hecha on 8 tricks", [hand(tricks={"2": 8, "3": 1, "4": 0}, bola="hecha")]),
    ("bola cortada on 9 tricks", [hand(tricks={"2": 9, "3": 0, "4": 0}, bola="cortada")]),
    ("bola on a puesta", [hand(tricks={"2": 3, "3": 3, "4": 3}, bola="cortada")]),
    ("solo rendida", [hand(lance="solo", rendida=True, tricks=...)]),
    ("vuelta solera rendida", [hand(lance="vuelta_solera", rendida=True, tricks=...)]),
    ("vuelta rendida defended", [hand(lance="vuelta", rendida=True, defensor=3)]),
    ("defensor is the surrenderer", [hand(rendida=True, defensor=2)]),
    ("defensor is the alcalde", [hand(rendida=True, defensor=1)]),
    ("defensor without rendida", [hand(defensor=3)]),
    ("bola with rendida", [hand(rendida=True, bola="hecha", tricks=...)]),
    ("defended split undecided", [hand(rendida=True, defensor=3, tricks={"2": 3, "3": 3, "4": 2})]),
    ("rendida not boolean", [hand(rendida="sí")]),
    ("vuelta solera not admitted", [hand(lance="vuelta_solera")]),
    ("closing with a dealer", [{"close": "devolver", "dealer": 2}]),
    ("unknown closing", [{"close": "tirar"}]),
    ("ajuste to itself", [{"ajuste": {"from": 2, "to": 2, "amount": 5}}]),
    ("sienta of a seated player", [{"sienta": {"seat": 4, "player": "Ana"}}]),
]


@pytest.mark.parametrize(("what", "hands"), INVALID_HANDS, ids=[w for w, _ in INVALID_HANDS])
def test_invalid_hand_names_it(what: str, hands: list[Any]) -> None:
    # two good hands first so that the bad one is hand 3 (dealt by seat 1 again: first_dealer 3)
    good = [{"pass": True}, {"pass": True}]
    session = base([*good, *hands], first_dealer=3, rules={"vuelta_solera": False})
    assert_rejected(run(["-"], json.dumps(session)), "hand 3: ")


def test_hand_after_the_closing() -> None:
    session = base([hand(), {"close": "devolver"}, {"pass": True}])
    assert_rejected(run(["-"], json.dumps(session)), "hand 3: ")


def test_error_names_the_hand_number(tmp_path: pathlib.Path) -> None:
    hands = [hand(), {"pass": True}, {"pass": True}, {"pass": True}, {"pass": True}, {"pass": True}]
    hands.append(hand(jugador=4, tricks={"4": 4, "1": 4, "2": 0}))  # hand 7, dealer 3: 4-4-0
    path = tmp_path / "s.json"
    path.write_text(json.dumps(base(hands)), encoding="utf-8")
    line = assert_rejected(run([str(path)]), "hand 7: ")
    assert "4-4-0" in line


INVALID_SESSIONS: list[tuple[str, Any]] = [
    ("two players", base(players=2)),
    ("five players", base(players=5)),
    ("no players", {"format": "tresillo-session/1", "hands": []}),
    ("empty name", base() | {"players": ["Ana", "", "Carmen"]}),
    ("wrong format", base() | {"format": "tresillo-session/2"}),
    ("missing format", {"players": ["Ana", "Benito", "Carmen"], "hands": []}),
    ("not an object", [1, 2, 3]),
    ("hands not a list", base() | {"hands": {"1": {"pass": True}}}),
    ("first dealer 5", base(first_dealer=5)),
    ("first dealer text", base(first_dealer="1")),
    ("unknown rule", base(rules={"palo": "oros"})),
    ("unknown favour suit", base(rules={"favor_suit": "corazones"})),
    ("rounding 0", base(rules={"rounding": 0})),
    ("negative stake", base(rules={"dealer_stake": -5})),
    ("enchilada text", base(rules={"enchilada": "25"})),
    ("vuelta_solera text", base(rules={"vuelta_solera": "no"})),
    ("unknown favor_doubling", base(rules={"favor_doubling": "triple"})),
    ("unknown solo_codillo", base(rules={"solo_codillo": "free"})),
    ("unknown failed_bola", base(rules={"failed_bola": "gratis"})),
    ("rules not an object", base(rules=["favor_suit"])),
    ("unknown ruleset", base(rules={"ruleset": "mus"})),
]


@pytest.mark.parametrize(("what", "session"), INVALID_SESSIONS, ids=[w for w, _ in INVALID_SESSIONS])
def test_invalid_session(what: str, session: Any) -> None:
    assert_rejected(run(["-"], json.dumps(session)), "session: ")


@pytest.mark.parametrize("text", ["", "{", "not json", '{"format": NaN}', "[1, 2,]", "\ud800"])
def test_not_json(text: str) -> None:
    proc = run(["-"], text.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
    assert_rejected(proc, "session: ")


def test_missing_file(tmp_path: pathlib.Path) -> None:
    assert_rejected(run([str(tmp_path / "nada.json")]), "session: ")


def test_file_not_utf8(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"format": "tresillo-session/1", "players": ["Fermín"]}'.encode("latin-1"))
    assert_rejected(run([str(path)]), "session: ")
