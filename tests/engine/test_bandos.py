"""The bandos rule set (shared/rules/bandos.md, B1–B5).

Expected numbers are worked out by hand from the document; the arithmetic is in the comments.
Defaults: target 12, fuera_de_turno 1, renuncio 1. Team A = seats 1, 3, 5; team B = 2, 4, 6.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.engine import SessionError, settle, start
from scorer.engine.bandos import game_winner
from tests.engine.cli import assert_rejected, settle_cli
from tests.engine.properties import PROPERTY, assert_deterministic_and_incremental

NAMES = ["A1", "B1", "A2", "B2", "A3", "B3", "X", "Y"]


def session(hands: list[Any], first_dealer: int = 1, players: int = 6, **rules: Any) -> dict[str, Any]:
    return {
        "format": "tresillo-session/1",
        "players": NAMES[:players],
        "rules": {"ruleset": "bandos", **rules},
        "first_dealer": first_dealer,
        "hands": hands,
    }


def run(hands: list[Any], **rules: Any) -> dict[str, Any]:
    return settle(session(hands, **rules))


def scores(entry: dict[str, Any]) -> list[int]:
    return [entry["scores"][str(i)] for i in range(1, 7)]


def team(a: int, b: int) -> list[int]:
    """Scores of seats 1..6 when team A has ``a`` each and team B ``b`` each."""
    return [a, b, a, b, a, b]


def falta(seat: int, kind: str, points: int | None = None) -> dict[str, Any]:
    return {"seat": seat, "falta": kind} if points is None else {"seat": seat, "falta": kind, "points": points}


# ----------------------------------------------------------------- B1


def test_b1_exactly_six_players() -> None:
    for players in (5, 7, 4):
        with pytest.raises(SessionError, match=rf"^session: bandos needs 6 players, not {players}"):
            settle(session([], players=players))


def test_b1_teams_alternate_and_the_deal_rotates_over_six() -> None:
    ledger = settle(session([{"primeras": "A"}] * 7, first_dealer=5))
    assert ledger["teams"] == {"A": [1, 3, 5], "B": [2, 4, 6]}
    assert [h["dealer"] for h in ledger["hands"]] == [5, 6, 1, 2, 3, 4, 5]
    assert ledger["next_dealer"] == 6
    assert "balances" not in ledger and "transfers" not in ledger["hands"][0]


def test_b1_a_hand_may_correct_the_dealer() -> None:
    ledger = run([{"primeras": "A"}, {"primeras": "A", "dealer": 5}, {"primeras": "B"}])
    assert [h["dealer"] for h in ledger["hands"]] == [1, 5, 6]


# ----------------------------------------------------------------- B2


def test_b2_primeras_score_one_each_capote_two() -> None:
    # Hand 1: A primeras → 1 each in A. Hand 2: B capote → 2 each in B.
    ledger = run([{"primeras": "A"}, {"primeras": "B", "capote": True}])
    assert scores(ledger["hands"][0]) == team(1, 0)
    assert scores(ledger["hands"][1]) == team(1, 2)
    assert [h["result"] for h in ledger["hands"]] == ["mano", "mano"]
    assert ledger["hands"][1]["over"] is False and ledger["hands"][1]["winner"] is None


def test_b2_capote_false_is_no_capote() -> None:
    assert scores(run([{"primeras": "B", "capote": False}])["hands"][0]) == team(0, 1)


def test_b2_a_hand_needs_primeras_or_a_fault() -> None:
    with pytest.raises(SessionError, match=r"^hand 1: a hand needs primeras or a falta"):
        run([{}])
    with pytest.raises(SessionError, match=r"^hand 2: a hand needs primeras or a falta"):
        run([{"primeras": "A"}, {"faltas": []}])
    with pytest.raises(SessionError, match=r"^hand 1: capote needs primeras"):
        run([{"capote": True, "faltas": [falta(1, "renuncio")]}])


# ----------------------------------------------------------------- B3


def test_b3_offender_with_tantos_and_partners_lose_the_penalty_not_below_zero() -> None:
    # Hand 1: B capote → B 2. Hand 2: seat 4 (B, 2 tantos) renuncio for 3 → B max(0, 2 - 3) = 0.
    ledger = run([{"primeras": "B", "capote": True}, {"faltas": [falta(4, "renuncio", 3)]}])
    assert scores(ledger["hands"][1]) == team(0, 0)
    # With the default penalty 1: 2 - 1 = 1 each.
    ledger = run([{"primeras": "B", "capote": True}, {"faltas": [falta(6, "renuncio")]}])
    assert scores(ledger["hands"][1]) == team(0, 1)


def test_b3_offender_without_tantos_gives_the_other_team_the_penalty() -> None:
    # Seat 1 (A, 0 tantos) plays out of turn: each of B scores 1; with the option 3: 3 each.
    assert scores(run([{"faltas": [falta(1, "fuera_de_turno")]}])["hands"][0]) == team(0, 1)
    assert scores(run([{"faltas": [falta(1, "fuera_de_turno")]}], fuera_de_turno=3)["hands"][0]) == team(0, 3)
    # "points" overrides the option, 0 included.
    assert scores(run([{"faltas": [falta(1, "fuera_de_turno", 0)]}], fuera_de_turno=3)["hands"][0]) == team(0, 0)


def test_b3_faults_apply_after_primeras() -> None:
    # A primeras (A 1) then seat 3 faults: he has 1 → A loses 1 → 0; B stays 0.
    # (Before B2 he would have had none, and B would have scored.)
    entry = run([{"primeras": "A", "faltas": [falta(3, "fuera_de_turno")]}])["hands"][0]
    assert scores(entry) == team(0, 0)


def test_b3_faults_apply_in_order() -> None:
    # [seat 2 for 2: B has none → A +2; seat 1 for 1: A has 2 → A 1] → A 1, B 0.
    first = run([{"faltas": [falta(2, "renuncio", 2), falta(1, "renuncio", 1)]}])["hands"][0]
    assert scores(first) == team(1, 0)
    # The other order: [seat 1 for 1: A none → B +1; seat 2 for 2: B 1 → max(0, -1) = 0] → 0, 0.
    second = run([{"faltas": [falta(1, "renuncio", 1), falta(2, "renuncio", 2)]}])["hands"][0]
    assert scores(second) == team(0, 0)


def test_b3_renuncio_option() -> None:
    # renuncio 4: B capote (2), seat 2 renuncio → max(0, 2 - 4) = 0; seat 5 renuncio with A 0 → B +4.
    ledger = run(
        [{"primeras": "B", "capote": True}, {"faltas": [falta(2, "renuncio"), falta(5, "renuncio")]}], renuncio=4
    )
    assert scores(ledger["hands"][1]) == team(0, 4)


# ----------------------------------------------------------------- B4


def test_b4_game_over_when_a_team_is_ahead_at_the_target() -> None:
    # target 3: A capote (2), B primeras (A 2, B 1), A primeras (3 ≥ 3, 3 > 1) → over, A wins.
    ledger = run([{"primeras": "A", "capote": True}, {"primeras": "B"}, {"primeras": "A"}], target=3)
    assert [h["result"] for h in ledger["hands"]] == ["mano", "mano", "fin"]
    assert [h["over"] for h in ledger["hands"]] == [False, False, True]
    assert [h["winner"] for h in ledger["hands"]] == [None, None, "A"]
    assert scores(ledger["hands"][2]) == team(3, 1)
    assert ledger["over"] is True and ledger["winner"] == "A" and scores(ledger) == team(3, 1)


def test_b4_team_b_can_win_on_the_other_teams_fault() -> None:
    # target 2: seat 3 (A, none) renuncio for 2 → B 2 each, ahead of A 0 → B wins.
    entry = run([{"faltas": [falta(3, "renuncio", 2)]}], target=2)["hands"][0]
    assert entry["winner"] == "B" and entry["result"] == "fin"


def test_b4_no_hand_after_the_game_is_over() -> None:
    with pytest.raises(SessionError, match=r"^hand 2: the game is over: team A won"):
        run([{"primeras": "A", "capote": True}, {"primeras": "B"}], target=2)


def test_b4_a_tie_of_the_best_players_plays_on() -> None:
    # Within one team all scores move together, so a tie at the target needs scores the rules
    # cannot reach in play; the rule itself: best A 12 = best B 12 → no winner; 13 > 12 → A.
    assert game_winner(team(12, 12), 12) is None
    assert game_winner(team(13, 12), 12) == "A"
    assert game_winner([0, 12, 0, 0, 0, 0], 12) == "B"
    assert game_winner(team(11, 10), 12) is None


# ----------------------------------------------------------------- property tests


@st.composite
def sessions(draw: st.DrawFn) -> dict[str, Any]:
    """A random valid session, drawn until the game is over."""
    rules: dict[str, Any] = {}
    if draw(st.booleans()):
        rules = {
            "target": draw(st.integers(1, 15)),
            "fuera_de_turno": draw(st.integers(0, 3)),
            "renuncio": draw(st.integers(0, 3)),
        }
    s = session([], first_dealer=draw(st.integers(1, 6)), **rules)
    settlement = start(s)
    hands: list[Any] = []
    for _ in range(draw(st.integers(0, 25))):
        if settlement.entries and settlement.entries[-1]["over"]:
            break
        hand: dict[str, Any] = {}
        faults = [
            {
                "seat": draw(st.integers(1, 6)),
                "falta": draw(st.sampled_from(["fuera_de_turno", "renuncio"])),
                **({"points": draw(st.integers(0, 4))} if draw(st.booleans()) else {}),
            }
            for _ in range(draw(st.integers(0, 2)))
        ]
        if faults:
            hand["faltas"] = faults
        if not faults or draw(st.booleans()):
            hand["primeras"] = draw(st.sampled_from(["A", "B"]))
            if draw(st.booleans()):
                hand["capote"] = True
        if draw(st.integers(0, 9)) == 0:
            hand["dealer"] = draw(st.integers(1, 6))
        settlement = settlement.add(hand)
        hands.append(hand)
    return {**s, "hands": hands}


@PROPERTY
@given(sessions())
def test_scores_never_below_zero_and_teams_move_together(s: dict[str, Any]) -> None:
    ledger = settle(s)
    target = s["rules"].get("target", 12)
    for i, entry in enumerate(ledger["hands"]):
        got = scores(entry)
        assert min(got) >= 0
        assert got[0] == got[2] == got[4] and got[1] == got[3] == got[5]
        last = i == len(ledger["hands"]) - 1
        assert entry["over"] == (entry["winner"] is not None)
        assert entry["over"] is False or last  # nothing is accepted after the end (B4)
        if entry["over"]:
            assert entry["result"] == "fin" and max(got) >= target
            winner, loser = (got[0], got[1]) if entry["winner"] == "A" else (got[1], got[0])
            assert winner > loser
        else:
            assert entry["result"] == "mano"
            assert max(got) < target or got[0] == got[1]


@PROPERTY
@given(sessions())
def test_each_hand_changes_scores_as_b2_and_b3_say(s: dict[str, Any]) -> None:
    """Replays every hand with a few lines of arithmetic written from the document."""
    ledger = settle(s)
    rules = s["rules"]
    a = b = 0
    for hand, entry in zip(s["hands"], ledger["hands"], strict=True):
        gain = 2 if hand.get("capote") else 1
        if hand.get("primeras") == "A":
            a += gain
        elif hand.get("primeras") == "B":
            b += gain
        for f in hand.get("faltas", []):
            points = f.get("points", rules.get(f["falta"], 1))
            if f["seat"] % 2:  # team A offends
                a, b = (max(0, a - points), b) if a > 0 else (a, b + points)
            else:
                a, b = (a, max(0, b - points)) if b > 0 else (a + points, b)
        assert scores(entry) == team(a, b)


@PROPERTY
@given(sessions())
def test_settling_is_deterministic_and_incremental(s: dict[str, Any]) -> None:
    assert_deterministic_and_incremental(s)


# ----------------------------------------------------------------- invalid input through the CLI


GOOD = {"primeras": "A"}

INVALID = [
    ("five players", session([], players=5), "session: bandos needs 6 players, not 5"),
    ("unknown rule", session([], plato=1), "session: unknown rule 'plato'"),
    ("target zero", session([], target=0), "session: rule target must be at least 1"),
    ("renuncio text", session([], renuncio="1"), "session: rule renuncio must be a whole number"),
    ("fuera_de_turno negative", session([], fuera_de_turno=-1), "session: rule fuera_de_turno must be at least 0"),
    ("first_dealer", {**session([]), "first_dealer": 7}, "session: first_dealer must be a seat from 1 to 6"),
    ("empty hand", session([{}]), "hand 1: a hand needs primeras or a falta"),
    ("primeras team", session([{"primeras": "C"}]), "hand 1: unknown primeras"),
    ("primeras seat", session([{"primeras": 1}]), "hand 1: unknown primeras"),
    ("capote text", session([{"primeras": "A", "capote": "yes"}]), "hand 1: capote must be true or false"),
    ("capote alone", session([{"capote": True}]), "hand 1: capote needs primeras"),
    ("unknown key", session([{"primeras": "A", "bazas": 3}]), "hand 1: unknown key 'bazas'"),
    ("faltas object", session([{"faltas": {"seat": 1}}]), "hand 1: faltas must be a list"),
    ("falta not object", session([{"faltas": [1]}]), "hand 1: falta 1 must be an object"),
    ("falta seat 7", session([{"faltas": [falta(7, "renuncio")]}]), "hand 1: seat of falta 1 7 is not a seat"),
    ("falta seat text", session([{"faltas": [{"seat": "1", "falta": "renuncio"}]}]), "hand 1: seat of falta 1 must be"),
    ("falta word", session([{"faltas": [falta(1, "trampa")]}]), "hand 1: unknown falta 1"),
    ("falta missing seat", session([{"faltas": [{"falta": "renuncio"}]}]), "hand 1: missing seat in falta 1"),
    ("falta missing word", session([{"faltas": [{"seat": 2}]}]), "hand 1: missing falta in falta 1"),
    ("falta unknown key", session([{"faltas": [{**falta(1, "renuncio"), "x": 1}]}]), "hand 1: unknown key 'x'"),
    ("falta points", session([{"faltas": [falta(1, "renuncio", -1)]}]), "hand 1: points of falta 1 must be at least 0"),
    ("pass", session([GOOD, {"pass": True}]), "hand 2: bandos has no passed hand"),
    ("close", session([GOOD, {"close": "repartir"}]), "hand 2: bandos has no closing"),
    ("after the end", session([GOOD, GOOD, GOOD], target=2), "hand 3: the game is over: team A won"),
    ("bad dealer", session([{**GOOD, "dealer": 0}]), "hand 1: dealer 0 is not a seat"),
]


@pytest.mark.parametrize(("payload", "prefix"), [(p, m) for _, p, m in INVALID], ids=[i for i, _, _ in INVALID])
def test_invalid_input_exits_2_with_one_line(payload: Any, prefix: str) -> None:
    assert_rejected(settle_cli(payload), prefix)


def test_valid_session_through_the_cli() -> None:
    proc = settle_cli(session([GOOD, {"primeras": "B", "capote": True}]))
    assert proc.returncode == 0, proc.stderr
    ledger = json.loads(proc.stdout)
    assert ledger["ruleset"] == "bandos"
    assert scores(ledger) == team(1, 2)
    assert ledger["over"] is False and ledger["winner"] is None
