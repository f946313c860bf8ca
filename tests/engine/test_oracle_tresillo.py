"""The Tresillo oracle and its generator on their own (no engine): is the judge fair?

- amounts and states worked by hand from ``rules/tresillo.md`` (R13/R19 tricks imply primeras and
  bola, R24, R30 both closings, R32 ajuste, R33 sienta and ``people``);
- the refusals the documents state;
- the generator makes valid sessions with every kind of entry, and mutated sessions are either
  accepted or refused with an entry number, the invariants of R31 holding on the accepted ones.

The engine is compared with the oracle in ``test_tresillo_properties.py`` and on the shared examples
in ``test_tresillo_examples.py``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from tests.engine import oracle_tresillo as oracle
from tests.engine.strategies import random_session
from tests.engine.test_tresillo_properties import mutated

THREE = {"format": "tresillo-session/1", "players": ["Ana", "Benito", "Carmen"]}


def sit(seat: int, name: str) -> dict[str, Any]:
    return {"sienta": {"seat": seat, "player": name}}


def s3(*hands: Any, **rules: Any) -> dict[str, Any]:
    """Three players, first dealer seat 1 (all three seats active)."""
    return {**THREE, "rules": rules, "hands": list(hands)}


def played(j: int, lance: str, split: tuple[int, int, int], **extra: Any) -> dict[str, Any]:
    """A hand of three players: ``split`` gives the tricks of the Jugador, then of the next seats in order."""
    seats = [j, j % 3 + 1, (j + 1) % 3 + 1]
    return {"jugador": j, "lance": lance, "trump": "oros", "tricks": dict(zip(map(str, seats), split, strict=True)),
            **extra}  # fmt: skip


def balances(ledger: dict[str, Any], n: int | None = None) -> list[int]:
    got = ledger["balances"] if n is None else ledger["hands"][n - 1]["balances"]
    return [got[str(s)] for s in range(1, len(got) + 1)]


# ----------------------------------------------------------------------------- worked by hand


def test_tricks_imply_primeras_and_bola() -> None:
    # 6-1-0 without primeras is a plain ganada stopped when decided (R10): round(5) from each, plato 5.
    led = oracle.settle(s3(played(2, "entrada", (6, 1, 0))))
    assert led["hands"][0]["result"] == "ganada" and balances(led) == [-10, 15, -5]
    # With primeras it is a bola cortada (R19): round(5 + 1) = 10 from each, then 100 to each.
    led = oracle.settle(s3(played(2, "entrada", (6, 1, 0), primeras="jugador")))
    assert led["hands"][0]["result"] == "bola_cortada" and balances(led) == [85, -175, 90]
    led = oracle.settle(s3(played(2, "entrada", (6, 0, 1), bola="cortada"), failed_bola="free"))
    assert led["hands"][0]["result"] == "bola_cortada" and balances(led) == [-15, 25, -10]
    # 5-0-0 has primeras without the flag (R13): round(5 + 1) = 10 from each.
    for flags in ({}, {"primeras": "jugador"}):
        led = oracle.settle(s3(played(2, "entrada", (5, 0, 0), **flags)))
        assert led["hands"][0]["result"] == "ganada" and balances(led) == [-15, 25, -10]
    # 9-0-0 is a bola hecha without the flag (R19): round(5 + 1 + 100) = 110 from each.
    for flags in ({}, {"bola": "hecha"}, {"primeras": "jugador"}):
        led = oracle.settle(s3(played(2, "entrada", (9, 0, 0), **flags)))
        assert led["hands"][0]["result"] == "bola" and balances(led) == [-115, 225, -110]


def test_r24_solo_codillo_both_ways() -> None:
    # Solo, 3 estuches, 2-5-2, codillo by seat 3; P = 5 + 20 = 25 (case 1), conditions round(23) = 25.
    hand = played(2, "solo", (2, 5, 2), estuches=3)
    assert balances(oracle.settle(s3(hand))) == [-5, -25, 25]  # default codillo_only: no puesta
    assert balances(oracle.settle(s3(hand, solo_codillo="codillo_only"))) == [-5, -25, 25]
    led = oracle.settle(s3(hand, solo_codillo="codillo_and_conditions"))
    assert balances(led) == [20, -75, 50] and led["plato"] == {"amount": 5, "kind": "sin_puesta"}


def test_r32_ajustes_and_r30_closings() -> None:
    entries = [
        {"pass": True},  # seat 1 deals: 5 into the plato
        {"ajuste": {"from": 2, "to": "plato", "amount": 11}, "note": "renuncio"},
        {"ajuste": {"from": 3, "to": "todos", "amount": 7}},
        {"ajuste": {"from": 1, "to": 3, "amount": 2}, "dealer": None},
    ]
    led = oracle.settle(s3(*entries))
    assert [h["result"] for h in led["hands"]] == ["paso", "ajuste", "ajuste", "ajuste"]
    assert [h["dealer"] for h in led["hands"]] == [1, None, None, None] and led["next_dealer"] == 2
    assert balances(led) == [0, -4, -12] and led["plato"] == {"amount": 16, "kind": "sin_puesta"}
    # repartir: 16 = 3 x 5, the odd one to seat 1
    led = oracle.settle(s3(*entries, {"close": "repartir"}))
    assert balances(led) == [6, 1, -7] and led["plato"] == {"amount": 0, "kind": "sin_puesta"}
    # devolver: 5 back to seat 1, 11 to seat 2
    led = oracle.settle(s3(*entries, {"close": "devolver"}))
    assert balances(led) == [5, 7, -12] and led["hands"][-1]["dealer"] is None


def test_r33_sienta_people_and_devolver_to_the_seat() -> None:
    led = oracle.settle(s3({"pass": True}, {"sienta": {"seat": 1, "player": "Dora"}}, {"close": "devolver"}))
    assert led["hands"][1]["seating"] == {"1": "Dora", "2": "Benito", "3": "Carmen"}
    assert "seating" not in led["hands"][0] and "seating" not in led["hands"][2]
    assert balances(led) == [0, 0, 0]  # the seat gets its 5 back ...
    assert list(led["people"].items()) == [("Ana", -5), ("Benito", 0), ("Carmen", 0), ("Dora", 5)]  # ... for Dora
    assert led["players"] == {"1": "Ana", "2": "Benito", "3": "Carmen"}


def _puestas() -> list[dict[str, Any]]:
    return [
        played(2, "entrada", (4, 1, 4)),  # seat 2: P = 25 into the empty plato (primera), plato 30
        played(3, "entrada", (3, 3, 3)),  # seat 3: P = 35 + 20 = 55 pending on the cartulina
    ]


def test_r33_a_leavers_pending_puesta_is_anulada() -> None:
    led = oracle.settle(s3(*_puestas(), {"sienta": {"seat": 3, "player": "Dora"}}, played(1, "entrada", (5, 2, 2))))
    assert led["hands"][2]["cartulina"] == []
    assert led["cartulina"] == [{"id": 1, "owner": 3, "amount": 55, "hand": 2, "state": "anulada"}]
    assert led["plato"] == {"amount": 0, "kind": "sin_puesta"}  # nothing pending is brought in (R18)
    assert balances(led) == [45, -35, -10]
    assert led["people"] == {"Ana": 45, "Benito": -35, "Carmen": 0, "Dora": -10}


def test_r33_a_puesta_in_the_plato_stays_and_goes_back_to_the_seat() -> None:
    hands = [*_puestas(), played(1, "entrada", (5, 2, 2))]  # seat 3's 55 goes into the plato (R18)
    led = oracle.settle(s3(*hands, {"sienta": {"seat": 3, "player": "Dora"}}, {"close": "devolver"}))
    assert led["hands"][3]["cartulina"] == [{"id": 1, "owner": 3, "amount": 55, "hand": 2, "state": "en_plato"}]
    assert led["cartulina"][0]["state"] == "devuelta"
    assert balances(led) == [45, -35, -10]
    assert led["people"] == {"Ana": 45, "Benito": -35, "Carmen": -65, "Dora": 55}
    led = oracle.settle(s3(*hands, {"close": "repartir"}))
    assert led["cartulina"][0]["state"] == "repartida"
    assert balances(led) == [45 + 19, -35 + 18, -65 + 18]


def test_returning_player_keeps_one_balance() -> None:
    hands = [
        {"pass": True},  # Ana deals
        {"sienta": {"seat": 1, "player": "Dora"}},
        {"pass": True},  # Benito deals
        {"pass": True},  # Carmen deals
        {"pass": True},  # Dora deals
        {"sienta": {"seat": 2, "player": "Ana"}},  # Ana comes back at another seat
        {"pass": True},  # Ana deals, at seat 2
        {"close": "repartir"},  # 25 = 3 x 8 + 1
    ]
    led = oracle.settle(s3(*hands))
    assert balances(led) == [-1, -2, 3]
    # Ana paid 5 at seat 1 and 5 at seat 2 and got 8 at seat 2; Benito left before the closing.
    assert list(led["people"].items()) == [("Ana", -2), ("Benito", -5), ("Carmen", 3), ("Dora", 4)]
    assert sum(led["people"].values()) == 0


# ----------------------------------------------------------------------------- refusals

REFUSED: list[tuple[str, dict[str, Any], int | None]] = [
    # (what, session, entry the documents refuse (0: the session) or None when valid)
    ("primeras with 5-2-2", s3(played(2, "entrada", (5, 2, 2), primeras="jugador")), 1),
    ("primeras with 6-2-1", s3(played(2, "entrada", (6, 2, 1), primeras="jugador")), 1),
    ("primeras with 5-3-1", s3(played(2, "entrada", (5, 3, 1), primeras="jugador")), 1),
    ("6-0-0", s3(played(2, "entrada", (6, 0, 0))), 1),
    ("7-0-0 with primeras", s3(played(2, "entrada", (7, 0, 0), primeras="jugador")), 1),
    ("8-0-0 bola cortada", s3(played(2, "entrada", (8, 0, 0), bola="cortada")), 1),
    ("bola cortada 6-2-0", s3(played(2, "entrada", (6, 2, 0), bola="cortada")), 1),
    ("bola cortada 9-0-0", s3(played(2, "entrada", (9, 0, 0), bola="cortada")), 1),
    ("bola hecha 8-1-0", s3(played(2, "entrada", (8, 1, 0), bola="hecha")), 1),
    ("primeras contra 5-0-0", s3(played(2, "entrada", (5, 0, 0), primeras="contra")), 1),
    ("primeras contra on a codillo", s3(played(2, "entrada", (3, 5, 1), primeras="contra")), 1),
    ("bola with primeras contra", s3(played(2, "entrada", (6, 1, 0), primeras="contra", bola="cortada")), 1),
    ("bola on a rendida", s3({"jugador": 2, "lance": "entrada", "trump": "oros", "rendida": True, "bola": "hecha"}), 1),
    ("5-0-0 alone", s3(played(2, "entrada", (5, 0, 0))), None),
    ("5-1-0 primeras", s3(played(2, "entrada", (5, 1, 0), primeras="jugador")), None),
    ("8-0-1 bola cortada", s3(played(2, "entrada", (8, 0, 1), bola="cortada")), None),
    ("primeras contra 4-4-1", s3(played(2, "entrada", (4, 4, 1), primeras="contra")), None),
    ("ajuste to itself", s3({"ajuste": {"from": 2, "to": 2, "amount": 5}}), 1),
    ("ajuste amount 0", s3({"ajuste": {"from": 2, "to": 1, "amount": 0}}), 1),
    ("ajuste amount negative", s3({"ajuste": {"from": 2, "to": "plato", "amount": -5}}), 1),
    ("ajuste amount text", s3({"ajuste": {"from": 2, "to": "todos", "amount": "5"}}), 1),
    ("ajuste amount fraction", s3({"ajuste": {"from": 2, "to": "todos", "amount": 2.5}}), 1),
    ("ajuste amount true", s3({"ajuste": {"from": 2, "to": "todos", "amount": True}}), 1),
    ("ajuste to seat 4 of 3", s3({"ajuste": {"from": 2, "to": 4, "amount": 5}}), 1),
    ("ajuste to nobody", s3({"ajuste": {"from": 2, "to": "nadie", "amount": 5}}), 1),
    ("ajuste without amount", s3({"pass": True}, {"ajuste": {"from": 2, "to": 1}}), 2),
    ("ajuste with a dealer", s3({"ajuste": {"from": 2, "to": 1, "amount": 5}, "dealer": 1}), 1),
    ("ajuste with a jugador", s3({"ajuste": {"from": 2, "to": 1, "amount": 5}, "jugador": 1}), 1),
    ("ajuste before any hand", s3({"ajuste": {"from": 1, "to": "plato", "amount": 5}}), None),
    ("sienta a seated player", s3({"sienta": {"seat": 2, "player": "Ana"}}), 1),
    ("sienta at his own seat", s3({"sienta": {"seat": 1, "player": "Ana"}}), 1),
    ("sienta the newcomer twice", s3(sit(1, "D"), sit(2, "D")), 2),
    ("sienta without a name", s3({"sienta": {"seat": 1, "player": " "}}), 1),
    ("sienta seat 4 of 3", s3({"sienta": {"seat": 4, "player": "Dora"}}), 1),
    ("sienta with a dealer", s3({"sienta": {"seat": 1, "player": "Dora"}, "dealer": 2}), 1),
    ("sienta back after leaving", s3(sit(1, "D"), sit(1, "Ana")), None),
    ("hand after the closing", s3({"close": "repartir"}, {"pass": True}), 2),
    ("ajuste after the closing", s3({"close": "devolver"}, {"ajuste": {"from": 2, "to": 1, "amount": 5}}), 2),
    ("sienta after the closing", s3({"close": "repartir"}, {"sienta": {"seat": 1, "player": "Dora"}}), 2),
    ("closing after the closing", s3({"close": "repartir"}, {"close": "devolver"}), 2),
    ("unknown closing", s3({"close": "guardar"}), 1),
    # R34: a change of favour suit
    ("favor where none was", s3({"favor": "copas"}), None),
    ("favor the same suit", s3({"favor": "copas"}, {"favor": "copas"}), 2),
    ("favor the rules' suit", {**s3({"favor": "bastos"}), "rules": {"favor_suit": "bastos"}}, 1),
    ("favor not a suit", s3({"favor": "rosas"}), 1),
    ("favor null", s3({"favor": None}), 1),
    ("favor with a dealer", s3({"favor": "oros", "dealer": 1}), 1),
    ("favor with a jugador", s3({"favor": "oros", "jugador": 1}), 1),
    ("favor after the closing", s3({"close": "repartir"}, {"favor": "oros"}), 2),
    ("favor_suit null rule", {**s3({"pass": True}), "rules": {"favor_suit": None, "rounding": None}}, None),
    ("bad solo_codillo", s3(solo_codillo="puesta"), 0),
    ("solo_codillo codillo_only", s3(solo_codillo="codillo_only"), None),
]  # fmt: skip


@pytest.mark.parametrize(("what", "session", "refused_at"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refusals_as_the_documents_say(what: str, session: dict[str, Any], refused_at: int | None) -> None:
    if refused_at is None:
        oracle.settle(session)
        return
    with pytest.raises(oracle.OracleError) as exc:
        oracle.settle(session)
    assert (exc.value.hand or 0) == refused_at, exc.value


# ----------------------------------------------------------------------------- the generator


def test_generator_makes_valid_sessions_with_every_kind_of_entry() -> None:
    rng = random.Random(7)
    results: set[str] = set()
    seen: set[str] = set()
    for _ in range(400):
        session = random_session(rng, rng.randint(1, 40))
        ledger = oracle.settle(session)  # raises if invalid
        rules = session["rules"]
        ever = set(session["players"])
        favour = rules.get("favor_suit")
        for hand, entry in zip(session["hands"], ledger["hands"], strict=True):
            results.add(entry["result"])
            if "favor" in hand:  # R34
                seen.add("favor named where none was" if favour is None else "favor changed")
                assert entry["favor_suit"] == hand["favor"] != favour
                favour = hand["favor"]
            elif "ajuste" in hand:
                to = hand["ajuste"]["to"]
                seen.add(f"ajuste {to if isinstance(to, str) else 'seat'}")
            elif "sienta" in hand:
                name = hand["sienta"]["player"]
                seen.add("returning player" if name in ever else "new player")
                ever.add(name)
                assert entry["seating"][str(hand["sienta"]["seat"])] == name
            elif "close" in hand:
                seen.add(f"close {hand['close']}")
            elif "tricks" in hand and not hand.get("rendida"):
                j = str(hand["jugador"])
                split = (hand["tricks"][j], *sorted(v for k, v in hand["tricks"].items() if k != j))
                if split == (5, 0, 0) and "primeras" not in hand:
                    seen.add("5-0-0 without flag")
                if split == (9, 0, 0) and "bola" not in hand:
                    seen.add("9-0-0 without bola")
                if split[1:] == (0, 1) and "bola" not in hand and hand.get("primeras") == "jugador":
                    seen.add("J-1-0 with primeras only")
                if entry["result"] == "codillo" and hand["lance"] in ("solo", "vuelta_solera"):
                    seen.add(f"solo codillo {rules.get('solo_codillo', 'default')}")
        assert set(ledger["people"]) == ever
        assert ledger["favor_suit"] == favour
        assert list(ledger["people"])[: len(session["players"])] == session["players"]
    assert results == {
        "paso", "ganada", "bola", "bola_cortada", "puesta", "codillo", "rendida", "defendida_ganada",
        "defendida_puesta", "defendida_codillo", "defendida_codillo_pobre", "ajuste", "sienta", "favor", "cierre",
    }  # fmt: skip
    assert seen == {
        "ajuste plato", "ajuste todos", "ajuste seat", "new player", "returning player", "close devolver",
        "close repartir", "5-0-0 without flag", "9-0-0 without bola", "J-1-0 with primeras only",
        "solo codillo codillo_only", "solo codillo codillo_and_conditions", "solo codillo default",
        "favor changed", "favor named where none was",
    }  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_oracle_on_mutated_sessions_refuses_with_an_entry_number_or_keeps_r31(session: dict[str, Any]) -> None:
    try:
        ledger = oracle.settle(session)
    except oracle.OracleError as exc:
        assert exc.hand is None or 1 <= exc.hand <= len(session["hands"])
        return
    for entry in ledger["hands"]:
        assert sum(entry["balances"].values()) + entry["plato"]["amount"] == 0
    assert sum(ledger["people"].values()) + ledger["plato"]["amount"] == 0
