"""The ombre rule set (docs/rules/ombre.md, O1–O8).

Expected numbers are worked out by hand from the document; the arithmetic is in the comments.
Defaults: stake 10, solo_stake 20, vole_bonus 10, matador_bonus 5.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.engine import SessionError, settle, start
from tests.engine.cli import assert_rejected, settle_cli
from tests.engine.properties import PROPERTY, assert_deterministic_and_incremental

NAMES = ("Elena", "Fermín", "Gloria")
SUITS = ("oros", "copas", "espadas", "bastos")
PASS = {"pass": True}
CLOSE = {"close": "repartir"}


def session(hands: list[Any], first_dealer: int = 1, players: int = 3, **rules: Any) -> dict[str, Any]:
    names = [*NAMES, "Hugo", "Inés"][:players]
    return {
        "format": "tresillo-session/1",
        "players": names,
        "rules": {"ruleset": "ombre", **rules},
        "first_dealer": first_dealer,
        "hands": hands,
    }


def run(hands: list[Any], **rules: Any) -> dict[str, Any]:
    return settle(session(hands, **rules))


def played(jugador: int, lance: str, tricks: tuple[int, int, int], trump: str = "oros", **extra: Any) -> dict[str, Any]:
    """``tricks`` are those of seats 1, 2, 3."""
    seats = dict(zip("123", tricks, strict=True))
    return {"jugador": jugador, "lance": lance, "trump": trump, "tricks": seats, **extra}


def bal(entry: dict[str, Any]) -> list[int]:
    return [entry["balances"][str(i)] for i in (1, 2, 3)]


# ----------------------------------------------------------------- O1


def test_o1_exactly_three_players() -> None:
    for players in (4, 2):
        with pytest.raises(SessionError, match=rf"^session: ombre needs 3 players, not {players}"):
            settle(session([], players=players))


def test_o1_pass_pays_nothing_and_rotates_the_deal() -> None:
    ledger = run([PASS, PASS, PASS, PASS], first_dealer=2)
    assert [h["dealer"] for h in ledger["hands"]] == [2, 3, 1, 2]
    assert all(h["result"] == "paso" and h["transfers"] == [] and bal(h) == [0, 0, 0] for h in ledger["hands"])
    assert ledger["next_dealer"] == 3


def test_o1_no_primeras_or_bola_keys() -> None:
    with pytest.raises(SessionError, match=r"^hand 1: an ombre hand has no primeras"):
        run([played(1, "entrada", (5, 2, 2), primeras="jugador")])
    with pytest.raises(SessionError, match=r"^hand 1: an ombre hand has no bola"):
        run([played(1, "entrada", (9, 0, 0), bola="hecha")])


# ----------------------------------------------------------------- O2–O5


def test_o2_sacada_each_defender_pays_the_stake() -> None:
    # Seat 2 entrada, 5 tricks: seats 1 and 3 pay 10 each → -10, 20, -10.
    entry = run([played(2, "entrada", (2, 5, 2))])["hands"][0]
    assert entry["result"] == "ganada"
    assert bal(entry) == [-10, 20, -10]
    # A vuelta pays the same stake.
    assert bal(run([played(2, "vuelta", (2, 5, 2))])["hands"][0]) == [-10, 20, -10]


def test_o2_solo_pays_solo_stake() -> None:
    # Seat 1 solo, 6-2-1: 20 from each → 40, -20, -20.
    assert bal(run([played(1, "solo", (6, 2, 1))])["hands"][0]) == [40, -20, -20]
    # With the options: stake 3, solo_stake 7 → 14, -7, -7.
    assert bal(run([played(1, "solo", (6, 2, 1))], stake=3, solo_stake=7)["hands"][0]) == [14, -7, -7]


def test_o2_vole_adds_the_bonus() -> None:
    # Seat 3 entrada, all nine: 10 + 10 vole = 20 each → -20, -20, 40.
    assert bal(run([played(3, "entrada", (0, 0, 9))])["hands"][0]) == [-20, -20, 40]
    # Solo vole with vole_bonus 25: 20 + 25 = 45 each.
    assert bal(run([played(3, "solo", (0, 0, 9))], vole_bonus=25)["hands"][0]) == [-45, -45, 90]


def test_o2_majority_rule_four_tricks_is_a_puesta() -> None:
    # 4-3-2 wins under R9 but not here: a puesta, 2 × 10 into the bote.
    entry = run([played(1, "entrada", (4, 3, 2))])["hands"][0]
    assert entry["result"] == "puesta"
    assert bal(entry) == [-20, 0, 0]
    assert entry["bote"] == 20


def test_o2_short_split_only_when_decided() -> None:
    # 5-0-0 is already a sacada: 10 each.
    assert bal(run([played(1, "entrada", (5, 0, 0))])["hands"][0]) == [20, -10, -10]
    # 0-5-0 is already a codille by seat 2 (hombre 1): twice the sacada, 2 × 2 × 10, to seat 2 (O4).
    assert bal(run([played(1, "entrada", (0, 5, 0))])["hands"][0]) == [-40, 40, 0]
    with pytest.raises(SessionError, match=r"^hand 1: tricks 4-4-0 do not decide the hand"):
        run([played(1, "entrada", (4, 4, 0))])


@pytest.mark.parametrize(
    ("split", "majority_five", "most_tricks"),
    [
        ((4, 3, 2), ("puesta", [-20, 0, 0]), ("ganada", [20, -10, -10])),  # more tricks than each defender
        ((3, 4, 2), ("puesta", [-20, 0, 0]), ("codillo", [-40, 40, 0])),  # defender 2 beats both
        ((4, 4, 1), ("puesta", [-20, 0, 0]), ("puesta", [-20, 0, 0])),
        ((3, 3, 3), ("puesta", [-20, 0, 0]), ("puesta", [-20, 0, 0])),
        ((1, 4, 4), ("puesta", [-20, 0, 0]), ("puesta", [-20, 0, 0])),  # puesta real
        ((5, 4, 0), ("ganada", [20, -10, -10]), ("ganada", [20, -10, -10])),
        ((2, 5, 2), ("codillo", [-40, 40, 0]), ("codillo", [-40, 40, 0])),
    ],
)
def test_o2_outcome_option_decides_full_splits(
    split: tuple[int, int, int], majority_five: tuple[str, list[int]], most_tricks: tuple[str, list[int]]
) -> None:
    # hombre seat 1, entrada (stake 10): sacada 10 from each, puesta 2 × 10 into the bote, codille 2 × 2 × 10
    for outcome, (result, balances) in (("majority_five", majority_five), ("most_tricks", most_tricks)):
        entry = run([played(1, "entrada", split)], outcome=outcome)["hands"][0]
        assert (entry["result"], bal(entry)) == (result, balances), outcome
    assert run([played(1, "entrada", split)])["hands"][0]["result"] == majority_five[0]  # the default


def test_o2_short_splits_are_decided_under_the_chosen_rule_only() -> None:
    # 3-3-2: nobody can reach 5, so the majority rule already says puesta; under R9 the last trick
    # decides (4-3-2 wins, 3-4-2 codille, 3-3-3 puesta): refused (R10).
    assert run([played(1, "entrada", (3, 3, 2))])["hands"][0]["result"] == "puesta"
    with pytest.raises(SessionError, match=r"^hand 1: tricks 3-3-2 do not decide the hand"):
        run([played(1, "entrada", (3, 3, 2))], outcome="most_tricks")
    # 2-4-2: under R9 seat 2 keeps more tricks than both whatever the last trick: codille; under the
    # majority rule 2-5-2 is a codille but 3-4-2 a puesta: refused.
    entry = run([played(1, "entrada", (2, 4, 2))], outcome="most_tricks")["hands"][0]
    assert (entry["result"], bal(entry)) == ("codillo", [-40, 40, 0])
    with pytest.raises(SessionError, match=r"^hand 1: tricks 2-4-2 do not decide the hand"):
        run([played(1, "entrada", (2, 4, 2))])


@pytest.mark.parametrize("value", ["mayoria", "", 5, "NoneType", True])
def test_o2_unknown_outcome_is_refused(value: Any) -> None:
    with pytest.raises(SessionError, match=r"^session: rule outcome must be one of majority_five, most_tricks"):
        run([], outcome=value)


def test_o2_null_outcome_is_the_default() -> None:
    assert run([played(1, "entrada", (4, 3, 2))], outcome=None)["hands"][0]["result"] == "puesta"


def test_o2_sacada_takes_the_whole_bote() -> None:
    # Hand 1: seat 1 puesta 3-3-3 → bote 20, -20, 0, 0. Hand 2: seat 2 vuelta 5 tricks: 10 from
    # seats 1 and 3, plus the bote 20 → -30, 40, -10, bote 0.
    ledger = run([played(1, "entrada", (3, 3, 3)), played(2, "vuelta", (2, 5, 2))])
    assert bal(ledger["hands"][1]) == [-30, 40, -10]
    assert ledger["hands"][1]["bote"] == 0


def test_o3_puesta_puts_twice_the_stake_into_the_bote() -> None:
    # Solo 3-3-3: 2 × 20 = 40 into the bote.
    entry = run([played(2, "solo", (3, 3, 3))])["hands"][0]
    assert entry["result"] == "puesta"
    assert bal(entry) == [0, -40, 0]
    assert entry["bote"] == 40


@pytest.mark.parametrize(("codille", "paid"), [(None, 80), ("double_sacada", 80), ("double_stake", 40)])
def test_o4_codille_pays_twice_the_sacada_to_the_giver(codille: str | None, paid: int) -> None:
    # Hand 1: seat 3 puesta → bote 20, balances 0, 0, -20. Hand 2: seat 1 solo (S = 20), seat 2
    # takes 5: codille. The sacada is S from each defender, 40: by default he pays twice that, 80;
    # with double_stake twice one defender's payment, 40. The bote is untouched (20).
    rules = {} if codille is None else {"codille": codille}
    ledger = run([played(3, "entrada", (3, 3, 3)), played(1, "solo", (2, 5, 2), trump="espadas")], **rules)
    entry = ledger["hands"][1]
    assert entry["result"] == "codillo"
    assert bal(entry) == [-paid, paid, -20]
    assert entry["bote"] == 20


@pytest.mark.parametrize("value", ["double", "", 2, True, ["double_sacada"]])
def test_o4_unknown_codille_is_refused_naming_the_rule(value: Any) -> None:
    with pytest.raises(SessionError, match=r"^session: rule codille must be one of double_sacada, double_stake"):
        run([], codille=value)


def test_o5_matador_honour_is_paid_from_the_bote_first() -> None:
    # Hand 1: seat 1 puesta → bote 20. Hand 2: seat 2 puesta 4-4-1 with matadores held by seat 3:
    # seat 3 takes 5 (bote 15), then seat 2 puts 20 (bote 35) → -20, -20, 5.
    ledger = run([played(1, "entrada", (3, 3, 3)), played(2, "entrada", (4, 4, 1), matadores_en=3)])
    entry = ledger["hands"][1]
    assert bal(entry) == [-20, -20, 5]
    assert entry["bote"] == 35
    assert entry["transfers"][0]["from"] == "bote" and entry["transfers"][0]["to"] == 3


def test_o5_matador_honour_is_what_the_bote_holds_at_most() -> None:
    # matador_bonus 30, bote 20 → the holder (seat 1, the winning hombre) takes 20 then the
    # sacada 10 + 10 and the empty bote: -20 + 20 + 20 = 20 for seat 1.
    ledger = run([played(1, "entrada", (3, 3, 3)), played(1, "entrada", (5, 2, 2), matadores_en=1)], matador_bonus=30)
    assert bal(ledger["hands"][1]) == [20, -10, -10]
    # With an empty bote nothing moves for the honour.
    entry = run([played(2, "entrada", (2, 5, 2), matadores_en=1)])["hands"][0]
    assert [t["concept"] for t in entry["transfers"]] == ["sacada", "sacada"]


def test_o6_deals_end_the_session() -> None:
    # deals 2: a pass and a hand make two deals; over after the second; a third is refused.
    ledger = run([PASS, played(2, "entrada", (2, 5, 2))], deals=2)
    assert [h["over"] for h in ledger["hands"]] == [False, True]
    assert ledger["over"] is True
    with pytest.raises(SessionError, match=r"^hand 3: the session is over"):
        run([PASS, played(2, "entrada", (2, 5, 2)), PASS], deals=2)


def test_o6_target_ends_the_session() -> None:
    # target 20: seat 2's sacada brings him to 20 → over.
    assert run([played(2, "entrada", (2, 5, 2))], target=20)["hands"][0]["over"] is True
    assert run([played(2, "entrada", (2, 5, 2))], target=21)["hands"][0]["over"] is False
    with pytest.raises(SessionError, match=r"^hand 2: the session is over"):
        run([played(2, "entrada", (2, 5, 2)), PASS], target=20)


def test_o7_closing_splits_the_bote_odd_points_to_seat_1_first() -> None:
    # Seat 1 puesta: bote 20, -20, 0, 0. 20 / 3 = 6 rest 2 → 7, 7, 6 → -13, 7, 6.
    ledger = run([played(1, "entrada", (3, 3, 3)), CLOSE])
    close = ledger["hands"][1]
    assert close["result"] == "cierre"
    assert close["dealer"] is None
    assert bal(close) == [-13, 7, 6]
    assert close["bote"] == 0 and close["over"] is True
    assert ledger["next_dealer"] == 2
    with pytest.raises(SessionError, match=r"^hand 3: no hand may follow the closing"):
        run([played(1, "entrada", (3, 3, 3)), CLOSE, PASS])


def test_o6_no_closing_after_the_session_is_over() -> None:
    # O6: once over, every further entry, the closing included, is refused; the bote stays (20).
    ledger = run([played(1, "entrada", (3, 3, 3))], deals=1)
    assert ledger["over"] is True and ledger["bote"] == 20
    with pytest.raises(
        SessionError, match=r"^hand 2: the session is over \(O6\): no further entry, not even the closing"
    ):
        run([played(1, "entrada", (3, 3, 3)), CLOSE], deals=1)


# ----------------------------------------------------------------- property tests (O8)


def _outcome(j: int, a: int, b: int) -> str:
    return "ganada" if j >= 5 else "codillo" if a >= 5 or b >= 5 else "puesta"


def _decided(j: int, a: int, b: int) -> bool:
    rest = 9 - j - a - b
    return len({_outcome(j + x, a + y, b + rest - x - y) for x in range(rest + 1) for y in range(rest + 1 - x)}) == 1


@st.composite
def sessions(draw: st.DrawFn) -> dict[str, Any]:
    """A random valid session: hands are drawn until the session is over (O6)."""
    rules: dict[str, Any] = {}
    if draw(st.booleans()):
        rules = {
            "stake": draw(st.integers(1, 30)),
            "solo_stake": draw(st.integers(1, 60)),
            "codille": draw(st.sampled_from(["double_sacada", "double_stake", None])),
            "vole_bonus": draw(st.integers(0, 20)),
            "matador_bonus": draw(st.integers(0, 20)),
            "deals": draw(st.none() | st.integers(1, 15)),
            "target": draw(st.none() | st.integers(1, 150)),
        }
    s = session([], first_dealer=draw(st.integers(1, 3)), **rules)
    settlement = start(s)
    hands: list[Any] = []
    for _ in range(draw(st.integers(0, 20))):
        if settlement.entries and settlement.entries[-1]["over"]:
            break
        hand: dict[str, Any] = {}
        if draw(st.integers(0, 9)) == 0:
            hand["dealer"] = draw(st.integers(1, 3))
        if draw(st.integers(0, 5)) == 0:
            hand["pass"] = True
        else:
            j = draw(st.integers(0, 9))
            a = draw(st.integers(0, 9 - j))
            split = [j, a, 9 - j - a]
            short = [c - draw(st.integers(0, min(c, 2))) for c in split]
            if _decided(*short):
                split = short
            jugador = draw(st.integers(1, 3))
            defenders = [x for x in (1, 2, 3) if x != jugador]
            hand.update(
                {
                    "jugador": jugador,
                    "lance": draw(st.sampled_from(["entrada", "vuelta", "solo"])),
                    "trump": draw(st.sampled_from(SUITS)),
                    "tricks": {str(x): c for x, c in zip([jugador, *defenders], split, strict=True)},
                }
            )
            if draw(st.booleans()):
                hand["matadores_en"] = draw(st.integers(1, 3))
        settlement = settlement.add(hand)
        hands.append(hand)
    over = bool(settlement.entries) and settlement.entries[-1]["over"]
    if not over and draw(st.booleans()):  # O6: nothing follows the end, not even the closing
        hands.append(CLOSE)
    return {**s, "hands": hands}


@PROPERTY
@given(sessions())
def test_o8_balances_and_bote_sum_to_zero_and_transfers_add_up(s: dict[str, Any]) -> None:
    ledger = settle(s)
    balances = [0, 0, 0]
    bote = 0
    was_over = False
    for entry in ledger["hands"]:
        for t in entry["transfers"]:
            assert t["amount"] > 0 and t["detail"]
            for end, sign in ((t["from"], -1), (t["to"], 1)):
                if end == "bote":
                    bote += sign * t["amount"]
                else:
                    balances[end - 1] += sign * t["amount"]
        assert bal(entry) == balances
        assert entry["bote"] == bote >= 0
        assert sum(balances) + bote == 0  # O8
        assert entry["over"] or not was_over  # once over, always over
        was_over = entry["over"]
        if entry["result"] == "cierre":
            assert bote == 0 and entry["over"]
    assert bal(ledger) == balances and ledger["bote"] == bote


@PROPERTY
@given(sessions())
def test_settling_is_deterministic_and_incremental(s: dict[str, Any]) -> None:
    assert_deterministic_and_incremental(s)


@PROPERTY
@given(sessions())
def test_o6_over_exactly_when_deals_or_target_are_reached(s: dict[str, Any]) -> None:
    ledger = settle(s)
    rules = s["rules"]
    deals = 0
    for hand, entry in zip(s["hands"], ledger["hands"], strict=True):
        if "close" in hand:
            continue
        deals += 1
        reached = rules.get("deals") is not None and deals >= rules["deals"]
        reached = reached or (rules.get("target") is not None and max(bal(entry)) >= rules["target"])
        assert entry["over"] == reached


# ----------------------------------------------------------------- invalid input through the CLI


GOOD = played(2, "entrada", (2, 5, 2))

INVALID = [
    ("four players", session([], players=4), "session: ombre needs 3 players, not 4"),
    ("unknown rule", session([], plato=5), "session: unknown rule 'plato'"),
    ("deals zero", session([], deals=0), "session: rule deals must be at least 1"),
    ("target text", session([], target="50"), "session: rule target must be a whole number"),
    ("stake negative", session([], stake=-1), "session: rule stake must be at least 1"),
    ("jugador text", session([{**GOOD, "jugador": "2"}]), "hand 1: jugador must be a seat"),
    ("jugador out of range", session([{**GOOD, "jugador": 4}]), "hand 1: jugador 4 is not a seat"),
    ("unknown lance", session([{**GOOD, "lance": "vuelta_solera"}]), "hand 1: unknown lance"),
    ("unknown trump", session([{**GOOD, "trump": "rosas"}]), "hand 1: unknown trump"),
    ("unknown key", session([{**GOOD, "estuches": 3}]), "hand 1: unknown key 'estuches'"),
    ("primeras", session([{**GOOD, "primeras": "jugador"}]), "hand 1: an ombre hand has no primeras"),
    ("missing lance", session([{k: v for k, v in GOOD.items() if k != "lance"}]), "hand 1: missing lance"),
    ("missing tricks", session([{k: v for k, v in GOOD.items() if k != "tricks"}]), "hand 1: missing tricks"),
    ("tricks of a seat 4", session([{**GOOD, "tricks": {"1": 2, "2": 5, "4": 2}}]), "hand 1: tricks names seat"),
    ("undecided", session([played(1, "entrada", (4, 4, 0))]), "hand 1: tricks 4-4-0 do not decide"),
    ("matadores_en seat", session([{**GOOD, "matadores_en": 4}]), "hand 1: matadores_en 4 is not a seat"),
    ("matadores_en on a pass", session([{"pass": True, "matadores_en": 1}]), "hand 1: unknown key 'matadores_en'"),
    ("pass false", session([{"pass": False}]), "hand 1: pass must be true"),
    ("after over", session([GOOD, GOOD], deals=1), "hand 2: the session is over"),
    ("after the closing", session([CLOSE, GOOD]), "hand 2: no hand may follow the closing"),
    ("close with dealer", session([{"close": "repartir", "dealer": 1}]), "hand 1: the closing has no dealer"),
    ("close word", session([{"close": "devolver"}]), "hand 1: unknown close"),
]


@pytest.mark.parametrize(("payload", "prefix"), [(p, m) for _, p, m in INVALID], ids=[i for i, _, _ in INVALID])
def test_invalid_input_exits_2_with_one_line(payload: Any, prefix: str) -> None:
    assert_rejected(settle_cli(payload), prefix)


def test_valid_session_through_the_cli() -> None:
    proc = settle_cli(session([GOOD, CLOSE]))
    assert proc.returncode == 0, proc.stderr
    ledger = json.loads(proc.stdout)
    assert ledger["ruleset"] == "ombre"
    assert bal(ledger) == [-10, 20, -10]
    assert ledger["over"] is True
