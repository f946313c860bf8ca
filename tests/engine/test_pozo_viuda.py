"""The pozo y viuda rule set (shared/rules/pozo-viuda.md, P1–P13).

Expected numbers are worked out by hand from the document; the arithmetic is in the comments.
Defaults: pozo_stake 5, viuda_stake 25, pozo_cap 4, favor_suit oros.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.engine import SessionError, settle
from scorer.engine.pozo_viuda import fill
from tests.engine.cli import assert_rejected, settle_cli
from tests.engine.properties import PROPERTY, assert_deterministic_and_incremental

NAMES = ("Ana", "Benito", "Carmen", "Diego")
SUITS = ("oros", "copas", "espadas", "bastos")


def session(hands: list[Any], players: int = 3, first_dealer: int = 1, **rules: Any) -> dict[str, Any]:
    return {
        "format": "tresillo-session/1",
        "players": list(NAMES[:players]),
        "rules": {"ruleset": "pozo_viuda", **rules},
        "first_dealer": first_dealer,
        "hands": hands,
    }


def run(hands: list[Any], players: int = 3, first_dealer: int = 1, **rules: Any) -> dict[str, Any]:
    return settle(session(hands, players, first_dealer, **rules))


def played(jugador: int, lance: str, trump: str, tricks: dict[int, int], **extra: Any) -> dict[str, Any]:
    return {
        "jugador": jugador,
        "lance": lance,
        "trump": trump,
        "tricks": {str(k): v for k, v in tricks.items()},
        **extra,
    }


def bal(entry: dict[str, Any]) -> list[int]:
    return [entry["balances"][str(i)] for i in range(1, len(entry["balances"]) + 1)]


def pots(entry: dict[str, Any]) -> tuple[int, list[int], int]:
    return entry["pozo"]["amount"], entry["pozo"]["reserves"], entry["viuda"]


PASS = {"pass": True}


# ----------------------------------------------------------------- P1–P4: the pots


def test_p1_initial_stakes_are_paid_with_the_first_hand() -> None:
    # P1: each of 3 puts 5 + 25 → pozo 15, viuda 75. Seat 2 wins a plain juego (0 matadores,
    # premio 0): nobody pays him anything and he takes the pozo: -30 + 15 = -15.
    ledger = run([played(2, "juego", "espadas", {1: 2, 2: 5, 3: 2})])
    hand = ledger["hands"][0]
    assert hand["result"] == "ganada"
    assert bal(hand) == [-30, -15, -30]
    assert pots(hand) == (0, [], 75)
    initial = [t for t in hand["transfers"] if t["concept"] in ("pozo_inicial", "viuda_inicial")]
    assert sorted((t["from"], t["to"], t["amount"]) for t in initial) == [
        (1, "pozo", 5),
        (1, "viuda", 25),
        (2, "pozo", 5),
        (2, "viuda", 25),
        (3, "pozo", 5),
        (3, "viuda", 25),
    ]


def test_p2_empty_pozo_is_restaked_before_a_played_hand() -> None:
    # After hand 1 (above) the pozo is empty. Hand 2: P2 restakes 3 × 5 = 15; seat 3 wins a
    # juego copas with 1 matador (not a favor): M = 1, premio 0 → seats 1 and 2 pay 1 each; he
    # takes 15. Seat 1: -30 - 5 - 1 = -36; seat 2: -15 - 5 - 1 = -21; seat 3: -30 - 5 + 2 + 15 = -18.
    ledger = run(
        [
            played(2, "juego", "espadas", {1: 2, 2: 5, 3: 2}),
            played(3, "juego", "copas", {1: 2, 2: 2, 3: 5}, matadores=1),
        ]
    )
    hand = ledger["hands"][1]
    assert bal(hand) == [-36, -21, -18]
    assert pots(hand) == (0, [], 75)
    assert [t["amount"] for t in hand["transfers"] if t["concept"] == "pozo_nuevo"] == [5, 5, 5]


def test_p2_applies_before_a_pass_too() -> None:
    # Reading: the empty pozo is restaked (P2, 15) and then the pass stakes (P3, 15): pozo 30;
    # seats 1, 3: -30 - 10 = -40; seat 2: -15 - 10 = -25.
    ledger = run([played(2, "juego", "espadas", {1: 2, 2: 5, 3: 2}), PASS])
    hand = ledger["hands"][1]
    assert hand["result"] == "paso"
    assert bal(hand) == [-40, -25, -40]
    assert pots(hand) == (30, [], 75)


def test_p3_all_pass_stakes_the_pozo() -> None:
    # P1 30 each (pozo 15) + P3 5 each → -35, pozo 30; a second pass: -40, pozo 45 (no P2: not empty).
    ledger = run([PASS, PASS])
    assert [bal(h) for h in ledger["hands"]] == [[-35, -35, -35], [-40, -40, -40]]
    assert [pots(h) for h in ledger["hands"]] == [(30, [], 75), (45, [], 75)]
    assert [h["dealer"] for h in ledger["hands"]] == [1, 2]


def test_p4_fill_function() -> None:
    assert fill(30, (), 15, 60) == (45, ())
    assert fill(60, (), 15, 60) == (60, (15,))
    assert fill(60, (15,), 60, 60) == (60, (60, 15))  # the last reserve first, then a new one
    assert fill(50, (), 200, 60) == (60, (60, 60, 60, 10))


def test_p4_overflow_goes_to_reserves_first_in_first_out() -> None:
    # 3 players: cap 4 × 5 × 3 = 60. P1 15; passes: 30, 45, 60, then 75 → pozo 60, reserves [15].
    # Hand 5: seat 3 puesta 3-3-3: he puts 60 (the pozo proper) → last reserve 15 + 45 = 60,
    # new reserve 15: [60, 15]. Hand 6 won by seat 1: takes 60, pozo 60, [15]. Hand 7 won by
    # seat 2: takes 60, pozo 15, []. Hand 8 won by seat 3: takes 15. Hand 9 pass: P2 15 + P3 15.
    hands = [PASS] * 4 + [
        played(3, "juego", "copas", {1: 3, 2: 3, 3: 3}),
        played(1, "juego", "espadas", {1: 5, 2: 2, 3: 2}),
        played(2, "juego", "espadas", {1: 2, 2: 5, 3: 2}),
        played(3, "juego", "espadas", {1: 2, 2: 2, 3: 5}),
        PASS,
    ]
    ledger = run(hands)
    assert [pots(h)[:2] for h in ledger["hands"]] == [
        (30, []),
        (45, []),
        (60, []),
        (60, [15]),
        (60, [60, 15]),
        (60, [15]),
        (15, []),
        (0, []),
        (30, []),
    ]
    # P1 -30 and four passes -20: -50 each; seat 3 -60 → -110; seat 1 +60 → 10; seat 2 +60 → 10;
    # seat 3 +15 → -95; the last pass -10 each.
    assert bal(ledger["hands"][7]) == [10, 10, -95]
    assert bal(ledger["hands"][8]) == [0, 0, -105]


def test_p4_cap_follows_the_options() -> None:
    # 4 players, pozo_stake 2, pozo_cap 1: cap 1 × 2 × 4 = 8. P1 8, the pass 8 more → pozo 8, [8].
    ledger = run([PASS], players=4, pozo_stake=2, pozo_cap=1, viuda_stake=1)
    assert pots(ledger["hands"][0]) == (8, [8], 4)


# ----------------------------------------------------------------- P5–P10: the hands


@pytest.mark.parametrize("flag", [{"primeras": "jugador"}, {}])
def test_p5_won_hand_pays_matadores_premio_and_primeras(flag: dict[str, str]) -> None:
    # 4 players, dealer 1 sits out but pays. Seat 2 roben copas (not a favor), 3 matadores,
    # stops at 5-0-0 (primeras, with or without the flag, P13): M 3 + premio 10 + 1 = 14 from each
    # of seats 1, 3, 4. P1: pozo 20, viuda 100. Seat 2: -30 + 42 + 20 = 32; the others -30 - 14 = -44.
    hand = played(2, "roben", "copas", {2: 5, 3: 0, 4: 0}, matadores=3, **flag)
    entry = run([hand], players=4)["hands"][0]
    assert entry["result"] == "ganada"
    assert bal(entry) == [-44, 32, -44, -44]
    assert pots(entry) == (0, [], 100)


@pytest.mark.parametrize(
    "tricks", [{2: 6, 3: 2, 4: 1}, {2: 7, 3: 2, 4: 0}, {2: 6, 3: 1, 4: 0}, {2: 8, 3: 0, 4: 1}, {2: 5, 3: 2, 4: 2}]
)
@pytest.mark.parametrize(
    "flags", [{"primeras": "jugador"}, {"bola": "cortada"}, {"primeras": "jugador", "bola": "cortada"}]
)
def test_p13_primeras_with_a_trick_to_the_defenders_is_a_cut_bola(
    tricks: dict[int, int], flags: dict[str, str]
) -> None:
    # P13/P10: played out to nine or stopped at the defenders' first trick. Roben copas, 3 matadores:
    # 14 from each of seats 1, 3, 4 and the pozo (20), then he doubles the viuda (100) and pays 40
    # to each: seat 2 -30 + 42 + 20 - 100 - 120 = -188; the others -30 - 14 + 40 = -4.
    entry = run([played(2, "roben", "copas", tricks, matadores=3, **flags)], players=4)["hands"][0]
    assert entry["result"] == "ganada"
    assert bal(entry) == [-4, -188, -4, -4]
    assert pots(entry) == (0, [], 200)


def test_p13_nine_tricks_are_a_bola_hecha_without_the_flags() -> None:
    # 9-0-0 unflagged, juego copas, no matadores (4 players): each pays 0 + 1 + 40; he takes the pozo
    # (20) and the viuda (100), everyone restakes 25: seat 2 -30 + 123 + 120 - 25 = 188; others -96.
    entry = run([played(2, "juego", "copas", {2: 9, 3: 0, 4: 0})], players=4)["hands"][0]
    assert entry["result"] == "bola"
    assert bal(entry) == [-96, 188, -96, -96]


@pytest.mark.parametrize(
    ("tricks", "flags", "message"),
    [
        ({2: 6, 3: 0, 4: 0}, {}, "hand 1: tricks 6-0-0: a Jugador who won the first five stops at 5-0-0"),
        ({2: 8, 3: 0, 4: 0}, {"primeras": "jugador"}, "hand 1: tricks 8-0-0: a Jugador who won the first five"),
        ({2: 5, 3: 2, 4: 1}, {"primeras": "jugador"}, "hand 1: primeras for the Jugador only as 5-0-0, 9-0-0"),
        ({2: 6, 3: 2, 4: 0}, {"bola": "cortada"}, "hand 1: a bola cortada has 5 to 8 tricks for the Jugador"),
        ({2: 5, 3: 0, 4: 0}, {"bola": "cortada"}, "hand 1: a bola cortada has 5 to 8 tricks"),
        ({2: 9, 3: 0, 4: 0}, {"bola": "cortada"}, "hand 1: a bola cortada has 5 to 8 tricks"),
        ({2: 8, 3: 1, 4: 0}, {"bola": "hecha"}, "hand 1: bola hecha needs all nine tricks, not 8-1-0 (P13)"),
    ],
)
def test_p13_impossible_splits_are_refused_naming_the_rule(
    tricks: dict[int, int], flags: dict[str, str], message: str
) -> None:
    with pytest.raises(SessionError) as info:
        run([played(2, "juego", "copas", tricks, **flags)], players=4)
    assert str(info.value).startswith(message), str(info.value)
    assert "(P13)" in str(info.value)


def test_p5_primeras_count_only_when_declared() -> None:
    # The same 6-2-1 without "primeras": 3 + 10 = 13 each; seat 2: -30 + 39 + 20 = 29.
    entry = run([played(2, "roben", "copas", {2: 6, 3: 2, 4: 1}, matadores=3)], players=4)["hands"][0]
    assert bal(entry) == [-43, 29, -43, -43]


def test_p5_roben_a_favor_takes_and_restakes_the_viuda() -> None:
    # Seat 2 roben oros (favor), 2 matadores: M 2 × 2 = 4 + premio 20 = 24 from seats 1, 3.
    # He takes pozo 15 and viuda 75; everyone restakes 25.
    # Seat 2: -30 + 48 + 15 + 75 - 25 = 83; seats 1, 3: -30 - 24 - 25 = -79.
    entry = run([played(2, "roben", "oros", {1: 1, 2: 6, 3: 2}, matadores=2)])["hands"][0]
    assert bal(entry) == [-79, 83, -79]
    assert pots(entry) == (0, [], 75)


def test_p5_favor_suit_option_moves_the_favor() -> None:
    # favor_suit copas: roben copas 1 matador → M 2 + premio 20 = 22; seat 2 also takes the viuda.
    # Seat 2: -30 + 44 + 15 + 75 - 25 = 79; seats 1, 3: -30 - 22 - 25 = -77.
    entry = run([played(2, "roben", "copas", {1: 1, 2: 6, 3: 2}, matadores=1)], favor_suit="copas")["hands"][0]
    assert bal(entry) == [-77, 79, -77]


def test_p6_puesta_doubles_the_pozo() -> None:
    # Seat 2 volteo copas, 2 matadores, 3-3-3: puts 15 (pozo → 30), M 2 to the viuda (77),
    # premio 5 to seats 1 and 3. Seat 2: -30 - 15 - 2 - 10 = -57; seats 1, 3: -30 + 5 = -25.
    entry = run([played(2, "volteo", "copas", {1: 3, 2: 3, 3: 3}, matadores=2)])["hands"][0]
    assert entry["result"] == "puesta"
    assert bal(entry) == [-25, -57, -25]
    assert pots(entry) == (30, [], 77)


def test_p6_roben_a_favor_puesta_doubles_the_viuda_before_the_matadores() -> None:
    # Seat 2 roben oros, 1 matador, 4-4-1: pozo 15 → 30; viuda 75 + 75 = 150, then M 2 → 152;
    # premio 20 to seats 1, 3. Seat 2: -30 - 15 - 75 - 2 - 40 = -162; seats 1, 3: -30 + 20 = -10.
    entry = run([played(2, "roben", "oros", {1: 4, 2: 4, 3: 1}, matadores=1)])["hands"][0]
    assert entry["result"] == "puesta"
    assert bal(entry) == [-10, -162, -10]
    assert pots(entry) == (30, [], 152)


def test_p7_codillo_pays_the_giver_what_the_pozo_held() -> None:
    # Seat 1 volteo bastos, 2-5-2: codillo by seat 2. Puts 15 (pozo 30), premio 5 to 2 and 3,
    # codillo 15 (the pozo before P6) to seat 2. Seat 1: -30 - 15 - 10 - 15 = -70;
    # seat 2: -30 + 5 + 15 = -10; seat 3: -30 + 5 = -25.
    entry = run([played(1, "volteo", "bastos", {1: 2, 2: 5, 3: 2})])["hands"][0]
    assert entry["result"] == "codillo"
    assert bal(entry) == [-70, -10, -25]
    assert pots(entry) == (30, [], 75)


def test_p8_bola_after_primeras_takes_pozo_and_viuda() -> None:
    # Seat 3 volteo copas, 4 matadores, 9-0-0 bola hecha: M 4 + 1 + 40 = 45 from seats 1, 2
    # (the volteo's premio is replaced). Takes pozo 15, viuda 75, restake 25 each.
    # Seat 3: -30 + 90 + 15 + 75 - 25 = 125; seats 1, 2: -30 - 45 - 25 = -100.
    hand = played(3, "volteo", "copas", {1: 0, 2: 0, 3: 9}, matadores=4, bola="hecha")
    entry = run([hand])["hands"][0]
    assert entry["result"] == "bola"
    assert bal(entry) == [-100, -100, 125]
    assert pots(entry) == (0, [], 75)


def test_p9_declared_bola_won() -> None:
    # Seat 2 bola oros (favor), 1 matador: M 2 + 40 = 42 from seats 1, 3; pozo 15, viuda 75, restake.
    # Seat 2: -30 + 84 + 15 + 75 - 25 = 119; seats 1, 3: -30 - 42 - 25 = -97.
    entry = run([played(2, "bola", "oros", {1: 0, 2: 9, 3: 0}, matadores=1)])["hands"][0]
    assert entry["result"] == "bola"
    assert bal(entry) == [-97, 119, -97]
    assert pots(entry) == (0, [], 75)


def test_p9_declared_bola_lost() -> None:
    # Seat 2 bola espadas, 2 matadores, 8-1-0: pozo 15 → 30, viuda 75 → 150, M 2 → 152,
    # 40 to seats 1, 3. Seat 2: -30 - 15 - 75 - 2 - 80 = -202; seats 1, 3: -30 + 40 = 10.
    entry = run([played(2, "bola", "espadas", {1: 1, 2: 8, 3: 0}, matadores=2)])["hands"][0]
    assert entry["result"] == "perdida"
    assert bal(entry) == [10, -202, 10]
    assert pots(entry) == (30, [], 152)


def test_p9_contrabola_won_and_lost() -> None:
    # Won: seat 1 no trick: 40 from seats 2, 3; pozo 15, viuda 75, restake 25.
    # Seat 1: -30 + 80 + 15 + 75 - 25 = 115; seats 2, 3: -30 - 40 - 25 = -95.
    won = run([played(1, "contrabola", "copas", {1: 0, 2: 5, 3: 4})], contrabola=True)["hands"][0]
    assert won["result"] == "contrabola"
    assert bal(won) == [115, -95, -95]
    # Lost: one trick: pozo 30, viuda 150, 40 to each. Seat 1: -30 - 15 - 75 - 80 = -200; others 10.
    lost = run([played(1, "contrabola", "copas", {1: 1, 2: 4, 3: 4})], contrabola=True)["hands"][0]
    assert lost["result"] == "perdida"
    assert bal(lost) == [-200, 10, 10]
    assert pots(lost) == (30, [], 150)


def test_p9_contrabola_is_refused_unless_admitted() -> None:
    with pytest.raises(SessionError, match=r"^hand 1: contrabola is not admitted"):
        run([played(1, "contrabola", "copas", {1: 0, 2: 5, 3: 4})])
    with pytest.raises(SessionError, match=r"^hand 1: a contrabola must have matadores 0"):
        run([played(1, "contrabola", "copas", {1: 0, 2: 5, 3: 4}, matadores=1)], contrabola=True)


def test_p9_declared_tricks_must_add_up_to_nine() -> None:
    with pytest.raises(SessionError, match=r"^hand 1: tricks of a declared bola must add up to nine"):
        run([played(2, "bola", "oros", {1: 0, 2: 8, 3: 0})])


def test_p10_bola_cortada_wins_then_doubles_the_viuda() -> None:
    # Seat 1 juego oros (favor), 2 matadores, 7-1-0 cortada: M 4 + premio 0 + 1 primeras = 5
    # from seats 2, 3; takes pozo 15; puts the viuda's 75 (→ 150) and pays 40 to each.
    # Seat 1: -30 + 10 + 15 - 75 - 80 = -160; seats 2, 3: -30 - 5 + 40 = 5.
    entry = run([played(1, "juego", "oros", {1: 7, 2: 1, 3: 0}, matadores=2, bola="cortada")])["hands"][0]
    assert entry["result"] == "ganada"
    assert bal(entry) == [-160, 5, 5]
    assert pots(entry) == (0, [], 150)


def test_p10_roben_a_favor_cortada_takes_and_restakes_the_viuda_first() -> None:
    # Seat 1 roben oros, 0 matadores, 6-1-2 cortada: 20 + 1 = 21 from seats 2, 3; pozo 15;
    # viuda 75 taken, restaked 25 each (75), doubled (+75 → 150); 40 to each.
    # Seat 1: -30 + 42 + 15 + 75 - 25 - 75 - 80 = -78; seats 2, 3: -30 - 21 - 25 + 40 = -36.
    entry = run([played(1, "roben", "oros", {1: 6, 2: 1, 3: 2}, bola="cortada")])["hands"][0]
    assert bal(entry) == [-78, -36, -36]
    assert pots(entry) == (0, [], 150)


# ----------------------------------------------------------------- P11–P12


def test_p11_closing_shares_everything_odd_points_to_seat_1_first() -> None:
    # Hand 1: seat 1 volteo espadas, 1 matador, 4-4-1 puesta: pozo 30, viuda 76, premio 5 to 2, 3.
    # Seat 1: -30 - 15 - 1 - 10 = -56; seats 2, 3: -25. Closing: 106 / 3 = 35 rest 1 → 36, 35, 35:
    # -20, 10, 10.
    ledger = run([played(1, "volteo", "espadas", {1: 4, 2: 4, 3: 1}, matadores=1), {"close": "repartir"}])
    assert bal(ledger["hands"][0]) == [-56, -25, -25]
    close = ledger["hands"][1]
    assert close["result"] == "cierre"
    assert close["dealer"] is None
    assert bal(close) == [-20, 10, 10]
    assert pots(close) == (0, [], 0)
    assert ledger["next_dealer"] == 2  # the closing uses up no deal


def test_p11_closing_shares_the_reserves_too() -> None:
    # 3 players, four passes: pozo 60 + reserve 15 + viuda 75 = 150 → 50 each: -50 + 50 = 0.
    ledger = run([PASS] * 4 + [{"close": "repartir"}])
    assert bal(ledger["hands"][-1]) == [0, 0, 0]
    assert pots(ledger["hands"][-1]) == (0, [], 0)


def test_p11_no_hand_after_the_closing() -> None:
    with pytest.raises(SessionError, match=r"^hand 2: no hand may follow the closing"):
        run([{"close": "repartir"}, PASS])


def test_p12_seed_worked_example() -> None:
    # The document's worked example: José puesta (pays 15, pozo 30); Pedro wins with three
    # matadores (30 + 3 + 3 = 36 more); pozo restaked, Pablo gives José codillo (15 + 15).
    hands = [
        played(1, "juego", "copas", {1: 4, 2: 4, 3: 1}),
        played(2, "juego", "espadas", {1: 2, 2: 5, 3: 2}, matadores=3),
        played(1, "juego", "copas", {1: 2, 2: 2, 3: 5}),
    ]
    ledger = run(hands, first_dealer=3)
    # José: -30 - 15 = -45; -3 → -48; -5 - 15 - 15 = -83. Pedro: -30 + 36 = 6; -5 → 1.
    # Pablo: -30 - 3 = -33; -5 + 15 = -23.
    assert [bal(h) for h in ledger["hands"]] == [[-45, -30, -30], [-48, 6, -33], [-83, 1, -23]]
    for h in ledger["hands"]:
        pozo, reserves, viuda = pots(h)
        assert sum(bal(h)) + pozo + sum(reserves) + viuda == 0


# ----------------------------------------------------------------- property tests


def _r9(j: int, a: int, b: int) -> tuple[str, int]:
    if j > a and j > b:
        return ("ganada", 0)
    if a > j and a > b:
        return ("codillo", 1)
    if b > j and b > a:
        return ("codillo", 2)
    return ("puesta", 0)


def _decided(j: int, a: int, b: int) -> tuple[str, int] | None:
    rest = 9 - j - a - b
    results = {_r9(j + x, a + y, b + rest - x - y) for x in range(rest + 1) for y in range(rest + 1 - x)}
    return results.pop() if len(results) == 1 else None


@st.composite
def sessions(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.sampled_from([3, 4]))
    rules: dict[str, Any] = {}
    if draw(st.booleans()):
        rules = {
            "favor_suit": draw(st.sampled_from([*SUITS, None])),
            "pozo_stake": draw(st.integers(1, 10)),
            "viuda_stake": draw(st.integers(1, 30)),
            "pozo_cap": draw(st.integers(1, 4)),
            "contrabola": draw(st.booleans()),
        }
    first = draw(st.integers(1, players))
    dealer = first
    hands: list[Any] = []
    for _ in range(draw(st.integers(0, 20))):
        hand: dict[str, Any]
        if draw(st.integers(0, 9)) == 0:
            dealer = draw(st.integers(1, players))
            hand = {"dealer": dealer}
        else:
            hand = {}
        active = [s for s in range(1, players + 1) if players == 3 or s != dealer]
        kind = draw(st.sampled_from(["pass", "played", "played", "played", "played", "declared"]))
        if kind == "pass":
            hand["pass"] = True
        else:
            jugador = draw(st.sampled_from(active))
            contra = [s for s in active if s != jugador]
            trump = draw(st.sampled_from(SUITS))
            j = draw(st.integers(0, 9))
            a = draw(st.integers(0, 9 - j))
            split = [j, a, 9 - j - a]
            if kind == "declared":
                lance = "contrabola" if rules.get("contrabola") and draw(st.booleans()) else "bola"
                matadores = 0 if lance == "contrabola" else draw(st.integers(0, 4 if trump in ("oros", "copas") else 3))
            else:
                lance = draw(st.sampled_from(["juego", "volteo", "roben"]))
                matadores = draw(st.integers(0, 4 if trump in ("oros", "copas") else 3))
                # a short split, kept only when it still decides the hand (R10)
                cut = [draw(st.integers(0, min(c, 2))) for c in split]
                short = [c - x for c, x in zip(split, cut, strict=True)]
                if _decided(*short) is not None and not (short[1] + short[2] == 0 and 6 <= short[0] <= 8):
                    split = short  # (J-0-0 with 6-8 tricks is impossible, P13)
            hand.update({"jugador": jugador, "lance": lance, "trump": trump, "matadores": matadores})
            hand["tricks"] = {str(s): c for s, c in zip([jugador, *contra], split, strict=True)}
            outcome = _decided(*split) if kind == "played" else None
            result = outcome[0] if outcome else None
            played_out = sum(split) == 9 or split[1] + split[2] <= 1  # a cut bola's two recordings (P13)
            if result == "ganada" and split[0] >= 5 and played_out:
                extra = draw(st.sampled_from(["none", "primeras", "bola"]))
                if extra == "primeras":
                    hand["primeras"] = "jugador"
                elif extra == "bola" and split[0] == 9:
                    hand["bola"] = "hecha"
                elif extra == "bola" and split[0] <= 8 and split[1] + split[2] >= 1:
                    hand["bola"] = "cortada"
        hands.append(hand)
        dealer = dealer % players + 1
    if draw(st.booleans()):
        hands.append({"close": "repartir"})
    return {
        "format": "tresillo-session/1",
        "players": list(NAMES[:players]),
        "rules": {"ruleset": "pozo_viuda", **rules},
        "first_dealer": first,
        "hands": hands,
    }


@PROPERTY
@given(sessions())
def test_p12_pots_and_balances_sum_to_zero_and_transfers_add_up(s: dict[str, Any]) -> None:
    ledger = settle(s)
    count = len(s["players"])
    rules = s["rules"]
    cap = rules.get("pozo_cap", 4) * rules.get("pozo_stake", 5) * count
    balances = [0] * count
    pozo_total = viuda = 0
    for entry in ledger["hands"]:
        for t in entry["transfers"]:
            assert t["amount"] > 0
            assert t["detail"]
            for end, sign in ((t["from"], -1), (t["to"], 1)):
                if end == "pozo":
                    pozo_total += sign * t["amount"]
                elif end == "viuda":
                    viuda += sign * t["amount"]
                else:
                    balances[end - 1] += sign * t["amount"]
        pozo, reserves, v = pots(entry)
        assert bal(entry) == balances
        assert pozo + sum(reserves) == pozo_total
        assert v == viuda
        assert sum(balances) + pozo + sum(reserves) + v == 0  # P12
        # P4: nothing above the cap; reserves only behind a full pozo, all full but the last
        assert 0 <= pozo <= cap
        assert all(0 < r <= cap for r in reserves)
        if reserves:
            assert pozo == cap and all(r == cap for r in reserves[:-1])
    assert bal(ledger) == balances
    assert pots(ledger) == (pots(ledger["hands"][-1]) if ledger["hands"] else (0, [], 0))
    if ledger["hands"] and ledger["hands"][-1]["result"] == "cierre":
        assert pots(ledger) == (0, [], 0)


@PROPERTY
@given(sessions())
def test_settling_is_deterministic_and_incremental(s: dict[str, Any]) -> None:
    ledger = assert_deterministic_and_incremental(s)
    assert json.loads(json.dumps(ledger)) == ledger


@PROPERTY
@given(sessions())
def test_dealers_rotate_and_results_are_known_words(s: dict[str, Any]) -> None:
    ledger = settle(s)
    count = len(s["players"])
    expected = s["first_dealer"]
    for hand, entry in zip(s["hands"], ledger["hands"], strict=True):
        if "close" in hand:
            assert entry["dealer"] is None and entry["result"] == "cierre"
            continue
        expected = hand.get("dealer", expected)
        assert entry["dealer"] == expected
        assert entry["result"] in ("paso", "ganada", "puesta", "codillo", "bola", "contrabola", "perdida")
        expected = expected % count + 1
    assert ledger["next_dealer"] == expected


# ----------------------------------------------------------------- invalid input through the CLI


def four(hands: list[Any], **rules: Any) -> dict[str, Any]:
    return session(hands, players=4, **rules)


GOOD = {"jugador": 2, "lance": "juego", "trump": "copas", "tricks": {"2": 5, "3": 2, "4": 2}}

INVALID = [
    ("jugador as text", four([{**GOOD, "jugador": "2"}]), "hand 1: jugador must be a seat"),
    ("jugador is the dealer", four([{**GOOD, "jugador": 1}]), "hand 1: jugador 1 is the dealer"),
    ("unknown lance", four([{**GOOD, "lance": "entrada"}]), "hand 1: unknown lance"),
    ("unknown trump", four([{**GOOD, "trump": "rosas"}]), "hand 1: unknown trump"),
    ("unknown key", four([{**GOOD, "estuches": 3}]), "hand 1: unknown key 'estuches'"),
    ("missing trump", four([{k: v for k, v in GOOD.items() if k != "trump"}]), "hand 1: missing trump"),
    ("missing tricks", four([{k: v for k, v in GOOD.items() if k != "tricks"}]), "hand 1: missing tricks"),
    ("tricks of the dealer", four([{**GOOD, "tricks": {"1": 5, "3": 2, "4": 2}}]), "hand 1: tricks names seat"),
    ("tricks of a missing seat", four([{**GOOD, "tricks": {"2": 5, "3": 2}}]), "hand 1: tricks has no count"),
    ("too many tricks", four([{**GOOD, "tricks": {"2": 5, "3": 3, "4": 2}}]), "hand 1: tricks add up to 10"),
    ("undecided", four([{**GOOD, "tricks": {"2": 4, "3": 4, "4": 0}}]), "hand 1: tricks 4-4-0 do not decide"),
    ("matadores black", four([{**GOOD, "trump": "espadas", "matadores": 4}]), "hand 1: matadores with espadas"),
    ("matadores red", four([{**GOOD, "matadores": 5}]), "hand 1: matadores with copas"),
    ("matadores negative", four([{**GOOD, "matadores": -1}]), "hand 1: matadores with copas"),
    ("matadores text", four([{**GOOD, "matadores": "2"}]), "hand 1: matadores with copas must be a whole number"),
    ("primeras contra", four([{**GOOD, "primeras": "contra"}]), "hand 1: unknown primeras"),
    (
        "primeras on a puesta",
        four([{**GOOD, "tricks": {"2": 4, "3": 4, "4": 1}, "primeras": "jugador"}]),
        "hand 1: primeras for the Jugador only as 5-0-0, 9-0-0 or a bola cortada, not 4-4-1 (P13)",
    ),
    ("bola hecha short", four([{**GOOD, "bola": "hecha"}]), "hand 1: bola hecha needs all nine"),
    (
        "bola cortada on a puesta",
        four([{**GOOD, "tricks": {"2": 3, "3": 3, "4": 3}, "bola": "cortada"}]),
        "hand 1: a bola cortada has 5 to 8 tricks for the Jugador",
    ),
    ("bola word", four([{**GOOD, "bola": "si"}]), "hand 1: unknown bola"),
    (
        "contrabola not admitted",
        four([{**GOOD, "lance": "contrabola", "tricks": {"2": 0, "3": 5, "4": 4}}]),
        "hand 1: contrabola is not admitted",
    ),
    (
        "contrabola with matadores",
        four([{**GOOD, "lance": "contrabola", "matadores": 2, "tricks": {"2": 0, "3": 5, "4": 4}}], contrabola=True),
        "hand 1: a contrabola must have matadores 0",
    ),
    (
        "declared bola with primeras",
        four([{**GOOD, "lance": "bola", "tricks": {"2": 9, "3": 0, "4": 0}, "primeras": "jugador"}]),
        "hand 1: a declared bola has no primeras",
    ),
    (
        "declared bola short",
        four([{**GOOD, "lance": "bola", "tricks": {"2": 5, "3": 0, "4": 0}}]),
        "hand 1: tricks of a declared bola must add up to nine",
    ),
    ("pass false", four([{"pass": False}]), "hand 1: pass must be true"),
    ("pass with jugador", four([{"pass": True, "jugador": 2}]), "hand 1: unknown key 'jugador'"),
    ("hand not an object", four([PASS, [1, 2]]), "hand 2: a hand must be an object"),
    ("close word", four([{"close": "devolver"}]), "hand 1: unknown close"),
    ("close with dealer", four([{"close": "repartir", "dealer": 2}]), "hand 1: the closing has no dealer"),
    ("after the closing", four([PASS, {"close": "repartir"}, GOOD]), "hand 3: no hand may follow the closing"),
    ("bad dealer", four([{"pass": True, "dealer": 5}]), "hand 1: dealer 5 is not a seat"),
    ("unknown rule", four([], plato=5), "session: unknown rule 'plato'"),
    ("pozo_stake text", four([], pozo_stake="5"), "session: rule pozo_stake must be a whole number"),
    ("pozo_stake zero", four([], pozo_stake=0), "session: rule pozo_stake must be at least 1"),
    ("pozo_cap zero", four([], pozo_cap=0), "session: rule pozo_cap must be at least 1"),
    ("viuda_stake negative", four([], viuda_stake=-5), "session: rule viuda_stake must be at least 1"),
    ("viuda_stake zero", four([], viuda_stake=0), "session: rule viuda_stake must be at least 1"),
    ("contrabola text", four([], contrabola="yes"), "session: rule contrabola must be true or false"),
    ("favor_suit", four([], favor_suit="rosas"), "session: rule favor_suit must be one of oros, copas"),
    ("favor entry", four([{"favor": "copas"}]), "hand 1: a change of favour suit (favor, R34) is a Tresillo entry"),
    ("five players", {**four([]), "players": ["a", "b", "c", "d", "e"]}, "session: pozo_viuda needs 3 or 4"),
    ("two players", {**four([]), "players": ["a", "b"]}, "session: pozo_viuda needs 3 or 4"),
]


@pytest.mark.parametrize(("payload", "prefix"), [(p, m) for _, p, m in INVALID], ids=[i for i, _, _ in INVALID])
def test_invalid_input_exits_2_with_one_line(payload: Any, prefix: str) -> None:
    assert_rejected(settle_cli(payload), prefix)


def test_valid_session_through_the_cli() -> None:
    proc = settle_cli(four([GOOD, {"close": "repartir"}]))
    assert proc.returncode == 0, proc.stderr
    ledger = json.loads(proc.stdout)
    assert ledger["ruleset"] == "pozo_viuda"
    # P1: 30 each (pozo 20, viuda 100); seat 2 wins a plain juego: +20 → -10. Closing: 100 / 4 = 25.
    assert bal(ledger["hands"][0]) == [-30, -10, -30, -30]
    assert bal(ledger["hands"][1]) == [-5, 15, -5, -5]
