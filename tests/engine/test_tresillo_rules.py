"""One test (at least) per rule R1–R31 of docs/rules/tresillo.md, numbers worked out by hand.

Every expected figure comes from the document, with the arithmetic in a comment; none is copied
from the engine's output. Seats are 1..n; with four players the dealer (alcalde) sits out.
R30 repartir, R32 ajuste and R33 sienta are in test_tresillo_evening.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorer.engine import SessionError, settle, start
from scorer.engine.tresillo import active_seats

NAMES = ["Ana", "Benito", "Carmen", "Diego"]


def session(hands: list[dict[str, Any]], players: int = 4, first_dealer: int = 1, **rules: Any) -> dict[str, Any]:
    return {
        "format": "tresillo-session/1",
        "players": NAMES[:players],
        "rules": rules,
        "first_dealer": first_dealer,
        "hands": hands,
    }


def ledger(hands: list[dict[str, Any]], players: int = 4, first_dealer: int = 1, **rules: Any) -> dict[str, Any]:
    return settle(session(hands, players, first_dealer, **rules))


def bal(entry: dict[str, Any]) -> list[int]:
    """Balances of a ledger entry (or the ledger) in seat order."""
    return [entry["balances"][str(s)] for s in range(1, len(entry["balances"]) + 1)]


def plato(entry: dict[str, Any]) -> tuple[int, str]:
    return entry["plato"]["amount"], entry["plato"]["kind"]


def cart(entry: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Cartulina entries as (owner, amount, state)."""
    return [(e["owner"], e["amount"], e["state"]) for e in entry["cartulina"]]


def played(j: int, lance: str, trump: str, tricks: dict[int, int], **extra: Any) -> dict[str, Any]:
    return {"jugador": j, "lance": lance, "trump": trump, "tricks": {str(k): v for k, v in tricks.items()}, **extra}


def rendida(j: int, lance: str = "entrada", trump: str = "oros", **extra: Any) -> dict[str, Any]:
    return {"jugador": j, "lance": lance, "trump": trump, "rendida": True, **extra}


PASS = {"pass": True}
CLOSE = {"close": "devolver"}


def rejects(hands: list[dict[str, Any]], hand_no: int | None, players: int = 4, **rules: Any) -> str:
    with pytest.raises(SessionError) as info:
        ledger(hands, players, **rules)
    assert info.value.hand == hand_no
    prefix = "session: " if hand_no is None else f"hand {hand_no}: "
    assert str(info.value).startswith(prefix)
    return info.value.reason


def check_r31(led: dict[str, Any]) -> None:
    for entry in led["hands"]:
        assert sum(bal(entry)) + entry["plato"]["amount"] == 0


# -------------------------------------------------------------------- seats and turns


def test_r1_three_or_four_players_in_seat_order() -> None:
    led = ledger([PASS, PASS, PASS, PASS, PASS])
    assert led["players"] == {"1": "Ana", "2": "Benito", "3": "Carmen", "4": "Diego"}
    # play (and the deal) goes from seat k to k+1 and from 4 back to 1
    assert [h["dealer"] for h in led["hands"]] == [1, 2, 3, 4, 1]
    assert ledger([PASS], players=3)["players"] == {"1": "Ana", "2": "Benito", "3": "Carmen"}
    for names in (NAMES[:2], [*NAMES, "Elena"]):
        with pytest.raises(SessionError) as info:
            settle({"format": "tresillo-session/1", "players": names, "hands": []})
        assert info.value.hand is None


def test_r2_first_dealer_then_rotation_and_named_dealer_corrects_it() -> None:
    hands = [PASS, PASS, {"pass": True, "dealer": 1}, PASS, played(4, "entrada", "oros", {4: 5, 1: 2, 2: 2})]
    led = ledger(hands, first_dealer=3)
    # 3, 4, then corrected to 1, continuing 2, 3 (the played hand is dealt by 3)
    assert [h["dealer"] for h in led["hands"]] == [3, 4, 1, 2, 3]
    assert led["next_dealer"] == 4
    assert ledger([], first_dealer=2)["next_dealer"] == 2


def test_r3_alcalde_sits_out_with_four_players() -> None:
    assert active_seats(4, 1) == (2, 3, 4)
    assert sorted(active_seats(3, 1)) == [1, 2, 3]
    # dealer 1 is the alcalde: he cannot be the Jugador nor hold tricks
    rejects([played(1, "entrada", "oros", {1: 5, 2: 2, 3: 2})], 1)
    rejects([played(2, "entrada", "oros", {1: 5, 2: 2, 3: 2})], 1)
    # with three players the dealer plays: dealer 1 wins 5-2-2 as Jugador
    led = ledger([played(1, "entrada", "oros", {1: 5, 2: 2, 3: 2})], players=3)
    # 1 puts 5, collects 5 from 2 and 3 and the plato 5: -5 + 10 + 5 = 10
    assert bal(led) == [10, -5, -5]


def test_r4_each_participant_includes_the_alcalde() -> None:
    # 4 players, dealer 1: seat 2 wins entrada 5-2-2; 1 (alcalde), 3, 4 pay 5 each
    led = ledger([played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2})])
    assert bal(led) == [-10, 20, -5, -5]  # 1: stake 5 + 5; 2: 15 + plato 5
    # 3 players, dealer 1: seat 2 wins; only 1 and 3 pay
    led = ledger([played(2, "entrada", "oros", {1: 2, 2: 5, 3: 2})], players=3)
    assert bal(led) == [-10, 15, -5]  # 2: 10 + plato 5


# -------------------------------------------------------------------- the plato


def test_r5_dealer_stake_every_hand() -> None:
    led = ledger([PASS, PASS, PASS])
    assert [plato(h) for h in led["hands"]] == [(5, "sin_puesta"), (10, "sin_puesta"), (15, "sin_puesta")]
    assert bal(led) == [-5, -5, -5, 0]
    led = ledger([PASS, PASS], dealer_stake=7)
    assert plato(led) == (14, "sin_puesta")


def test_r6_enchilada_only_when_the_plato_holds_no_puesta() -> None:
    led = ledger([PASS, PASS, played(4, "entrada", "oros", {4: 5, 1: 2, 2: 2})], enchilada=25)
    # hand 1: 5 + 25 = 30 primera; hand 2: +5 only = 35 primera; hand 3 (dealer 3): +5 = 40
    assert [plato(h) for h in led["hands"][:2]] == [(30, "primera"), (35, "primera")]
    # hand 3: case 1 (primera), each of 1, 2, 3 pays 5; 4 takes 15 + 40 = 55
    assert bal(led) == [-35, -10, -10, 55]
    assert plato(led) == (0, "sin_puesta")


def test_r7_plato_states() -> None:
    hands = [
        PASS,  # 5 sin_puesta
        played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}),  # puesta into the plato: primera
        played(4, "entrada", "oros", {4: 4, 1: 4, 2: 1}),  # puesta onto the cartulina
        played(1, "entrada", "oros", {1: 5, 2: 2, 3: 2}),  # ganada: the reserved puesta goes in
    ]
    kinds = [h["plato"]["kind"] for h in ledger(hands)["hands"]]
    assert kinds == ["sin_puesta", "primera", "primera", "reservada"]


def test_r8_case_one_and_case_two() -> None:
    # the same ganada pays 5 + 0 -> 5 in case 1 and round(0) = 0 in case 2 (see R16 for full numbers)
    first = ledger([played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2})])
    assert [t["amount"] for t in first["hands"][0]["transfers"] if t["to"] == 2 and t["from"] != "plato"] == [5, 5, 5]
    hands = [
        played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1}),
        played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}),
        played(4, "entrada", "oros", {4: 5, 1: 2, 2: 2}),
        played(1, "entrada", "oros", {1: 5, 2: 2, 3: 2}),  # plato reservada: case 2
    ]
    last = ledger(hands)["hands"][3]
    assert not [t for t in last["transfers"] if t["to"] == 1 and t["from"] != "plato"]


# -------------------------------------------------------------------- outcome


@pytest.mark.parametrize(
    ("split", "result"),
    [
        ((4, 3, 2), "ganada"),
        ((5, 4, 0), "ganada"),
        ((4, 4, 1), "puesta"),
        ((3, 3, 3), "puesta"),
        ((1, 4, 4), "puesta"),  # puesta real
        ((2, 5, 2), "codillo"),
        ((3, 2, 4), "codillo"),
        ((0, 5, 4), "codillo"),
    ],
)
def test_r9_outcome_of_the_split(split: tuple[int, int, int], result: str) -> None:
    j, a, b = split
    led = ledger([played(2, "entrada", "oros", {2: j, 3: a, 4: b})])
    assert led["hands"][0]["result"] == result


def test_r9_codillo_giver_is_the_contra_with_most_tricks() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 3, 3: 2, 4: 4})])
    # PL 5, P = 25 into the plato; 2 also pays P to 4: 2 = -25 - 25 = -50
    assert bal(led) == [-5, -50, 0, 25]


@pytest.mark.parametrize(("split", "result"), [((5, 0, 0), "ganada"), ((5, 3, 0), "ganada"), ((2, 5, 0), "codillo")])
def test_r10_short_split_that_decides_the_hand(split: tuple[int, int, int], result: str) -> None:
    j, a, b = split
    assert ledger([played(2, "entrada", "oros", {2: j, 3: a, 4: b})])["hands"][0]["result"] == result


@pytest.mark.parametrize("split", [(4, 4, 0), (4, 3, 0), (3, 3, 2), (0, 0, 0), (1, 4, 3)])
def test_r10_short_split_that_does_not_decide_is_invalid(split: tuple[int, int, int]) -> None:
    j, a, b = split
    rejects([PASS, played(3, "entrada", "oros", {3: j, 4: a, 1: b})], 2)


def test_r10_more_than_nine_tricks_is_invalid() -> None:
    rejects([played(2, "entrada", "oros", {2: 5, 3: 3, 4: 2})], 1)


# -------------------------------------------------------------------- conditions


@pytest.mark.parametrize(
    ("lance", "each"),
    [("entrada", 5), ("vuelta", 10), ("vuelta_solera", 25), ("solo", 25)],
    # 5 + 0; 5 + 2 = 7 -> 10; 5 + 20; 5 + 20
)
def test_r11_lance_values(lance: str, each: int) -> None:
    led = ledger([played(2, lance, "oros", {2: 5, 3: 2, 4: 2})])
    assert bal(led) == [-5 - each, 3 * each + 5, -each, -each]


def test_r11_bola_hecha_adds_one_hundred() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 9, 3: 0, 4: 0}, bola="hecha")])
    # 5 + 100 (bola) + 1 (primeras) = 106 -> 110 each; 2: 330 + plato 5
    assert bal(led) == [-115, 335, -110, -110]
    assert led["hands"][0]["result"] == "bola"


def test_r19_nine_tricks_are_a_bola_hecha_without_the_flag() -> None:
    # R19: 9-0-0 is a bola hecha whether or not the hand says so (the keeper forgot to tick it)
    flagless = ledger([played(2, "entrada", "oros", {2: 9, 3: 0, 4: 0})])
    assert flagless["hands"][0]["result"] == "bola"
    assert bal(flagless) == [-115, 335, -110, -110]  # as above: 106 -> 110 each, not the 10 of a plain ganada
    also = ledger([played(2, "entrada", "oros", {2: 9, 3: 0, 4: 0}, primeras="jugador")])
    assert bal(also) == bal(flagless)


def test_r12_estuches_capped_at_five() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2}, estuches=7)])
    # 5 + min(7, 5) = 10 each
    assert bal(led) == [-15, 35, -10, -10]


def test_r12_all_estuches_count_with_the_bola() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 9, 3: 0, 4: 0}, estuches=7, bola="hecha")])
    # 5 + 100 + 7 + 1 = 113 -> 115 each
    assert bal(led) == [-120, 350, -115, -115]


def test_r12_contraestuches_count_like_estuches() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2}, contraestuches=3)])
    # 5 + 3 = 8 -> 10 each
    assert bal(led) == [-15, 35, -10, -10]


@pytest.mark.parametrize(
    "extra",
    [
        {"estuches": 1},
        {"estuches": 2},
        {"estuches": 13},
        {"contraestuches": 2},
        {"estuches": 3, "contraestuches": 3},
        {"estuches": "3"},
        {"estuches": -3},
    ],
)
def test_r12_impossible_estuches_are_invalid(extra: dict[str, Any]) -> None:
    rejects([played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2}, **extra)], 1)


def test_r12_twelve_estuches_only_in_a_long_suit() -> None:
    ok = ledger([played(2, "entrada", "copas", {2: 9, 3: 0, 4: 0}, estuches=12, bola="hecha")])
    # 5 + 100 + 12 + 1 = 118 -> 120 each
    assert bal(ok) == [-125, 365, -120, -120]
    rejects([played(2, "entrada", "espadas", {2: 9, 3: 0, 4: 0}, estuches=12, bola="hecha")], 1)
    rejects([played(2, "entrada", "bastos", {2: 5, 3: 2, 4: 2}, contraestuches=12)], 1)


def test_r13_primeras_for_the_jugador() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 5, 3: 0, 4: 0}, primeras="jugador")])
    # he stops after the first five: 5 + 1 = 6 -> 10 each
    assert bal(led) == [-15, 35, -10, -10]
    assert led["hands"][0]["result"] == "ganada"


def test_r13_five_nil_nil_has_primeras_without_the_flag() -> None:
    # rounding 1 shows the primera: 5 + 1 = 6 each (a plain 5-3-1 would be 5)
    led = ledger([played(2, "entrada", "oros", {2: 5, 3: 0, 4: 0})], rounding=1)
    assert bal(led) == [-11, 23, -6, -6]
    plain = ledger([played(2, "entrada", "oros", {2: 5, 3: 3, 4: 1})], rounding=1)
    assert bal(plain) == [-10, 20, -5, -5]


@pytest.mark.parametrize("split", [(5, 2, 2), (6, 2, 1), (5, 3, 1), (6, 3, 0), (5, 4, 0), (7, 2, 0), (5, 1, 1)])
def test_r13_primeras_for_the_jugador_only_with_five_nil_nil_or_a_bola(split: tuple[int, int, int]) -> None:
    j, a, b = split
    reason = rejects([played(2, "entrada", "oros", {2: j, 3: a, 4: b}, primeras="jugador")], 1)
    assert "R13" in reason


@pytest.mark.parametrize("j", [6, 7, 8])
def test_r13_every_trick_played_but_not_five_or_nine_is_impossible(j: int) -> None:
    # after primeras the Jugador stops at 5 or plays on to 9 (or until the contra's first trick)
    for extra in ({}, {"primeras": "jugador"}):
        assert "R13" in rejects([played(2, "entrada", "oros", {2: j, 3: 0, 4: 0}, **extra)], 1)


def test_r13_primeras_for_the_contra_on_a_puesta() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1}, primeras="contra")])
    # conditions 1 -> 5 to each of 1, 3, 4; P = 5 + 20 = 25 into the plato
    assert bal(led) == [0, -40, 5, 5]
    assert plato(led) == (30, "primera")


@pytest.mark.parametrize(
    ("split", "primeras"),
    [
        ((4, 3, 2), "jugador"),  # a ganada with fewer than five tricks
        ((5, 2, 2), "jugador"),  # five tricks, but the contra took some before the play stopped
        ((3, 5, 1), "jugador"),  # a codillo
        ((5, 2, 2), "contra"),  # a ganada
        ((2, 5, 2), "contra"),  # a codillo
        ((5, 2, 2), "todas"),
    ],
)
def test_r13_primeras_contradicting_the_split_are_invalid(split: tuple[int, int, int], primeras: str) -> None:
    j, a, b = split
    rejects([PASS, PASS, played(4, "entrada", "oros", {4: j, 1: a, 2: b}, primeras=primeras)], 3)


def test_r14_round_up_conditions_not_puestas() -> None:
    hand = played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2}, estuches=3)
    # 5 + 3 = 8: exactly 8 with rounding 1, 10 with 5 and with 10, 9 with 3
    for rounding, each in ((1, 8), (5, 10), (10, 10), (3, 9)):
        assert bal(ledger([hand], rounding=rounding))[2] == -each
    # a puesta is not rounded: PL 5 + 20 = 25 even with rounding 10 (conditions 0)
    led = ledger([played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1})], rounding=10)
    assert plato(led) == (30, "primera")
    assert bal(led) == [-5, -25, 0, 0]


def test_r14_losing_jugador_pays_his_estuches() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 3, 3: 3, 4: 3}, estuches=4)])
    # conditions 4 -> 5 each to 1, 3, 4; P = 25 into the plato: 2 = -15 - 25
    assert bal(led) == [0, -40, 5, 5]


def test_r15_favor_doubling_options() -> None:
    hand = played(2, "vuelta", "bastos", {2: 5, 3: 2, 4: 2})  # simple 5 + 2 = 7
    # double_rounded: 2 x round(7) = 2 x 10 = 20; round_doubled: round(14) = 15
    assert bal(ledger([hand], favor_suit="bastos"))[2] == -20
    assert bal(ledger([hand], favor_suit="bastos", favor_doubling="round_doubled"))[2] == -15
    # vuelta_at_favor false: a vuelta turned to bastos is no favor: round(7) = 10
    assert bal(ledger([hand], favor_suit="bastos", vuelta_at_favor=False))[2] == -10
    # an entrada in bastos is a favor whatever vuelta_at_favor says: 2 x 5 = 10
    entrada = played(2, "entrada", "bastos", {2: 5, 3: 2, 4: 2})
    assert bal(ledger([entrada], favor_suit="bastos", vuelta_at_favor=False))[2] == -10
    # another suit is no favor
    assert bal(ledger([played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2})], favor_suit="bastos"))[2] == -5


# -------------------------------------------------------------------- won hand

R16_HANDS = [
    played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1}),  # PL 5 sin_puesta: P 25 into the plato (30 primera)
    played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}),  # PL 35 primera: P 55 pending, owner 3
    played(4, "entrada", "oros", {4: 5, 1: 2, 2: 2}),  # PL 40 case 1: 5 each, takes 40; 3 puts 55 in
    played(1, "solo", "oros", {1: 5, 2: 2, 3: 2}),  # PL 60 case 2: round(20) = 20 each, takes 60
]


def test_r16_ganada_pays_five_plus_conditions_in_case_one_conditions_in_case_two() -> None:
    led = ledger(R16_HANDS)
    # after hand 3: 1 -5-5 = -10; 2 -25-5-5 = -35; 3 -5-5-55 = -65; 4 +15+40 = 55
    assert bal(led["hands"][2]) == [-10, -35, -65, 55]
    # hand 4 (dealer 4 puts 5): 1 +60+60 = 110; 2 -55; 3 -85; 4 55-5-20 = 30
    assert bal(led) == [110, -55, -85, 30]


def test_r17_jugador_takes_the_plato_and_the_reserved_puesta_is_cobrada() -> None:
    led = ledger(R16_HANDS)
    assert plato(led["hands"][2]) == (55, "reservada")
    assert cart(led["hands"][2]) == [(3, 55, "en_plato")]
    assert plato(led) == (0, "sin_puesta")
    assert led["hands"][3]["cartulina"] == []
    assert led["cartulina"] == [{"id": 1, "owner": 3, "amount": 55, "hand": 2, "state": "cobrada"}]


def test_r18_largest_pending_puesta_goes_in_first() -> None:
    hands = [
        played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1}),  # P 25 into the plato: 30 primera
        played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}),  # PL 35: P 55 pending (id 1, owner 3)
        played(4, "entrada", "oros", {4: 4, 1: 4, 2: 1}),  # PL 40: P 60 pending (id 2, owner 4)
        played(1, "entrada", "oros", {1: 5, 2: 2, 3: 2}),  # ganada: 60 (the largest) goes in
    ]
    led = ledger(hands)
    assert cart(led) == [(3, 55, "pendiente"), (4, 60, "en_plato")]
    assert plato(led) == (60, "reservada")


def test_r18_ties_go_in_oldest_first() -> None:
    hands = [
        played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1}),  # 30 primera
        # dealer 2, PL 35: defended 3-3-3, twin puestas of 55 on the cartulina, surrenderer (3) first
        rendida(3, defensor=4, tricks={"3": 3, "4": 3, "1": 3}),
        played(4, "entrada", "oros", {4: 5, 1: 2, 2: 2}),  # ganada: the older 55 (owner 3) goes in
    ]
    led = ledger(hands)
    assert [(e["id"], e["owner"], e["state"]) for e in led["cartulina"]] == [(1, 3, "en_plato"), (2, 4, "pendiente")]


def test_r19_bola_cortada_is_a_ganada_and_pays_the_bola() -> None:
    hand = played(2, "entrada", "oros", {2: 7, 3: 1, 4: 0}, bola="cortada")
    led = ledger([hand])
    # ganada with primeras: 5 + 1 = 6 -> 10 each; then 2 pays round(100) = 100 to each
    # 2: 30 + 5 - 300 = -265; 1: -5 - 10 + 100 = 85; 3, 4: 90
    assert led["hands"][0]["result"] == "bola_cortada"
    assert bal(led) == [85, -265, 90, 90]
    free = ledger([hand], failed_bola="free")
    assert bal(free) == [-15, 35, -10, -10]
    # a favor: 2 x 10 = 20 each, and 2 x 100 = 200 to each: 2 = 60 + 5 - 600 = -535
    fav = ledger([played(2, "entrada", "oros", {2: 7, 3: 0, 4: 1}, bola="cortada")], favor_suit="oros")
    assert bal(fav) == [175, -535, 180, 180]


@pytest.mark.parametrize("j", [5, 6, 7, 8])
def test_r19_primeras_and_the_contras_first_trick_are_a_bola_cortada(j: int) -> None:
    # "primeras" with J-1-0: the Jugador played for the bola and the contra cut it, flag or no flag
    led = ledger([played(2, "entrada", "oros", {2: j, 3: 1, 4: 0}, primeras="jugador")])
    assert led["hands"][0]["result"] == "bola_cortada"
    assert bal(led) == [85, -265, 90, 90]  # as above, whatever J is
    # without primeras, J-1-0 is a plain ganada (the contra's trick may have come early)
    plain = ledger([played(2, "entrada", "oros", {2: j, 3: 1, 4: 0})])
    assert plain["hands"][0]["result"] == "ganada"
    assert bal(plain) == [-10, 20, -5, -5]


@pytest.mark.parametrize(
    ("split", "bola"),
    [
        ((8, 1, 0), "hecha"),
        ((9, 0, 0), "cortada"),
        ((4, 3, 2), "cortada"),
        ((3, 3, 3), "hecha"),
        ((5, 2, 2), "sí"),
        ((7, 1, 1), "cortada"),  # the play stops at the contra's first trick: J-1-0 only
        ((5, 0, 0), "cortada"),
        ((6, 2, 0), "cortada"),
    ],
)
def test_r19_bola_contradicting_the_split_is_invalid(split: tuple[int, int, int], bola: str) -> None:
    j, a, b = split
    rejects([played(2, "entrada", "oros", {2: j, 3: a, 4: b}, bola=bola)], 1)


# -------------------------------------------------------------------- lost hand


def test_r20_losing_jugador_pays_conditions() -> None:
    led = ledger([played(2, "vuelta", "oros", {2: 4, 3: 4, 4: 1})])
    # vuelta 2 -> 5 to each of 1, 3, 4; P 25 into the plato
    assert bal(led) == [0, -40, 5, 5]
    plain = ledger([played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1})])
    assert bal(plain) == [-5, -25, 0, 0]  # a plain entrada: no conditions


def test_r21_puesta_is_plato_plus_twenty() -> None:
    led = ledger([PASS, played(3, "entrada", "oros", {3: 3, 4: 3, 1: 3})])
    # PL = 5 + 5 = 10: P = 30 into the plato -> 40
    assert plato(led) == (40, "primera")
    assert bal(led)[2] == -30


def test_r21_puesta_a_favor_is_plato_plus_forty() -> None:
    led = ledger([played(2, "entrada", "copas", {2: 3, 3: 3, 4: 3})], favor_suit="copas")
    # PL 5: P = 45; plato 50
    assert plato(led) == (50, "primera")
    assert bal(led) == [-5, -45, 0, 0]


def test_r21_puesta_in_case_two_is_the_plato() -> None:
    hands = [*R16_HANDS[:3], played(1, "entrada", "oros", {1: 3, 2: 3, 3: 3})]
    led = ledger(hands)
    # plato 55 reservada + 5 (dealer 4) = 60 = P, written on the cartulina
    assert cart(led) == [(3, 55, "en_plato"), (1, 60, "pendiente")]
    assert plato(led) == (60, "reservada")
    assert bal(led)[0] == -10  # the reserved puesta costs nothing yet (R31)


def test_r22_puesta_into_a_plato_sin_puesta_else_on_the_cartulina() -> None:
    hands = [
        played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1}),  # sin_puesta: into the plato (30)
        played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}),  # primera: 35 + 20 = 55 on the cartulina
    ]
    led = ledger(hands)
    assert plato(led["hands"][0]) == (30, "primera")
    assert led["hands"][0]["cartulina"] == []
    assert led["hands"][1]["cartulina"] == [{"id": 1, "owner": 3, "amount": 55, "hand": 2, "state": "pendiente"}]
    assert plato(led) == (35, "primera")


def test_r23_codillo_pays_the_puesta_to_the_giver() -> None:
    led = ledger([played(2, "entrada", "oros", {2: 3, 3: 5, 4: 1})])
    # P = 25 into the plato and 25 to seat 3: 2 = -50
    assert led["hands"][0]["result"] == "codillo"
    assert bal(led) == [-5, -50, 25, 0]
    assert plato(led) == (30, "primera")


def test_r24_solo_codillo_makes_no_puesta() -> None:
    hand = played(2, "solo", "oros", {2: 3, 3: 5, 4: 1})
    led = ledger([hand])
    # "paga únicamente el codillo sin puesta": P = 5 + 20 = 25 to seat 3 and nothing else
    assert bal(led) == [-5, -25, 25, 0]
    assert plato(led) == (5, "sin_puesta")
    both = ledger([hand], solo_codillo="codillo_and_conditions")
    # the option: conditions 20 -> 20 to each of 1, 3, 4 as well; plato untouched (5)
    assert bal(both) == [15, -85, 45, 20]
    assert plato(both) == (5, "sin_puesta")
    # vuelta solera likewise
    assert bal(ledger([played(2, "vuelta_solera", "oros", {2: 3, 3: 5, 4: 1})])) == [-5, -25, 25, 0]
    solera_both = ledger(
        [played(2, "vuelta_solera", "oros", {2: 3, 3: 5, 4: 1})], solo_codillo="codillo_and_conditions"
    )
    assert bal(solera_both) == [15, -85, 45, 20]
    # a solo lost by puesta does make the puesta: 20 each and P 25 into the plato
    put = ledger([played(2, "solo", "oros", {2: 3, 3: 3, 4: 3})])
    assert bal(put) == [15, -85, 20, 20]
    assert plato(put) == (30, "primera")


# -------------------------------------------------------------------- rendidas


@pytest.mark.parametrize("lance", ["solo", "vuelta_solera"])
def test_r25_only_entrada_or_vuelta_may_be_surrendered(lance: str) -> None:
    rejects([rendida(2, lance)], 1)


def test_r25_rendida_puesta_placed_as_r22() -> None:
    led = ledger([rendida(2), rendida(3)])
    # hand 1: P 25 into the plato; hand 2: PL 35 -> P 55 pending
    assert plato(led) == (35, "primera")
    assert cart(led) == [(3, 55, "pendiente")]
    assert [h["result"] for h in led["hands"]] == ["rendida", "rendida"]


def test_r26_vuelta_rendida_pays_only_the_vuelta_condition() -> None:
    led = ledger([rendida(2, "vuelta", estuches=4)])
    # round(2) = 5 to each of 1, 3, 4 (estuches do not count); P 25 into the plato
    assert bal(led) == [0, -40, 5, 5]
    fav = ledger([rendida(2, "vuelta", "oros")], favor_suit="oros")
    # a favor: 2 x 5 = 10 each; P = 5 + 40 = 45
    assert bal(fav) == [5, -75, 10, 10]
    rejects([rendida(2, "vuelta", defensor=3, tricks={"2": 2, "3": 5, "4": 2})], 1)


def test_r27_entrada_rendida_pays_no_conditions() -> None:
    led = ledger([rendida(2, estuches=5)])
    assert bal(led) == [-5, -25, 0, 0]
    assert plato(led) == (30, "primera")


R28_CASES = [
    # (surrenderer 2, defensor 3, mano pobre 4) tricks, result, balances, plato
    # a: D beats both: 2 pays P = 25 to 3; plato untouched (5)
    ((2, 5, 2), "defendida_ganada", [-5, -25, 25, 0], (5, "sin_puesta")),
    # b: D equals the larger: both make P = 25, both into a plato sin_puesta: 5 + 50
    ((3, 3, 3), "defendida_puesta", [-5, -25, -25, 0], (55, "primera")),
    # b again: D = M > S (S 1, D 4, M 4)
    ((1, 4, 4), "defendida_puesta", [-5, -25, -25, 0], (55, "primera")),
    # c: S beats D: D makes P instead
    ((5, 2, 2), "defendida_codillo", [-5, 0, -25, 0], (30, "primera")),
    # c: S = M > D
    ((4, 1, 4), "defendida_codillo", [-5, 0, -25, 0], (30, "primera")),
    # d: M beats both: S makes P, D pays P to M
    ((2, 2, 5), "defendida_codillo_pobre", [-5, -25, -25, 25], (30, "primera")),
]


@pytest.mark.parametrize(("split", "result", "balances", "pot"), R28_CASES)
def test_r28_defended_rendida_four_cases(
    split: tuple[int, int, int], result: str, balances: list[int], pot: tuple[int, str]
) -> None:
    s, d, m = split
    led = ledger([rendida(2, defensor=3, tricks={"2": s, "3": d, "4": m})])
    assert led["hands"][0]["result"] == result
    assert bal(led) == balances
    assert plato(led) == pot


def test_r28_twin_puestas_on_the_cartulina_surrenderer_first() -> None:
    led = ledger([PASS, rendida(3, defensor=1, tricks={"3": 3, "1": 3, "4": 3})], enchilada=10)
    # hand 1: 5 + 10 enchilada = 15 primera; hand 2 PL 20: P = 40, twins pending, 3 then 1
    assert cart(led) == [(3, 40, "pendiente"), (1, 40, "pendiente")]
    assert [e["id"] for e in led["cartulina"]] == [1, 2]


def test_r28_short_split_and_invalid_defences() -> None:
    led = ledger([rendida(2, defensor=4, tricks={"2": 0, "3": 0, "4": 5})])  # D 5: decided, case a
    assert led["hands"][0]["result"] == "defendida_ganada"
    rejects([rendida(2, defensor=4, tricks={"2": 3, "3": 3, "4": 2})], 1)  # not decided
    rejects([rendida(2, defensor=2, tricks={"2": 2, "3": 5, "4": 2})], 1)  # the surrenderer
    rejects([rendida(2, defensor=1, tricks={"2": 2, "3": 5, "4": 2})], 1)  # the alcalde
    rejects([played(2, "entrada", "oros", {2: 2, 3: 5, 4: 2}, defensor=3)], 1)  # no rendida
    rejects([rendida(2, bola="cortada")], 1)
    rejects([rendida(2, primeras="contra")], 1)


# -------------------------------------------------------------------- passes and closing


def test_r29_passed_hand_only_stakes() -> None:
    led = ledger([PASS, PASS], players=3, first_dealer=2, enchilada=5)
    # hand 1 dealer 2: 5 + 5 enchilada; hand 2 dealer 3: 5
    assert bal(led) == [0, -10, -5]
    assert plato(led) == (15, "primera")
    assert [h["result"] for h in led["hands"]] == ["paso", "paso"]
    assert led["next_dealer"] == 1


def test_r30_closing_gives_back_the_plato() -> None:
    hands = [*R16_HANDS[:3], PASS, played(2, "entrada", "oros", {2: 3, 3: 3, 4: 3}), CLOSE]
    led = ledger(hands)
    # after hand 3: [-10, -35, -65, 55], plato 55 (3's reserved puesta)
    # hand 4 pass (dealer 4): 4 puts 5 -> 60; hand 5 (dealer 1): 1 puts 5 -> 65, case 2: 2's P 65 pending
    assert bal(led["hands"][4]) == [-15, -35, -65, 50]
    # closing: 3 gets 55 back, 4 gets 5, 1 gets 5
    assert bal(led) == [-10, -35, -10, 55]
    assert plato(led) == (0, "sin_puesta")
    assert led["hands"][5]["result"] == "cierre"
    assert led["hands"][5]["dealer"] is None
    assert led["hands"][5]["cartulina"] == []
    assert cart(led) == [(3, 55, "devuelta"), (2, 65, "anulada")]
    assert led["next_dealer"] == 2  # the closing uses up no deal


def test_r30_closing_returns_enchilada_and_primera_puesta() -> None:
    led = ledger([PASS, played(3, "entrada", "oros", {3: 4, 4: 4, 1: 1}), CLOSE], enchilada=20)
    # 1 put 5 + 20, 2 put 5, 3's puesta (PL 30 + 20 = 50) went to the cartulina; all back
    assert bal(led["hands"][1]) == [-25, -5, 0, 0]
    assert bal(led) == [0, 0, 0, 0]
    assert cart(led) == [(3, 50, "anulada")]


def test_r30_no_hand_after_the_closing() -> None:
    rejects([PASS, CLOSE, PASS], 3)
    rejects([CLOSE, CLOSE], 2)
    rejects([{"close": "devolver", "dealer": 2}], 1)
    rejects([{"close": "tirar"}], 1)


# -------------------------------------------------------------------- invariant


def test_r31_balances_plus_plato_is_zero_and_reserved_puestas_cost_nothing() -> None:
    led = ledger([*R16_HANDS[:3], played(1, "entrada", "oros", {1: 3, 2: 3, 3: 3}), PASS])
    check_r31(led)
    # seat 1's pending puesta of 60 has not moved: only its stakes (hands 1 and 5) and 5 in hand 3
    assert bal(led)[0] == -15
    assert sum(bal(led)) + plato(led)[0] == 0


# -------------------------------------------------------------------- the worked session

WORKED = [
    # dealer, balances 1..4, plato, kind, open cartulina (owner, amount, state)
    (1, [-10, 20, -5, -5], 0, "sin_puesta", []),
    (2, [-5, 20, -45, 0], 30, "primera", []),
    (3, [-65, -40, -110, 215], 0, "sin_puesta", []),
    (4, [-130, -10, -105, 215], 30, "primera", []),
    (1, [-135, -10, -105, 215], 35, "primera", [(2, 55, "pendiente")]),
    (2, [-155, -90, -5, 195], 55, "reservada", [(2, 55, "en_plato")]),
    (3, [-150, -85, -5, 180], 60, "reservada", [(2, 55, "en_plato"), (4, 60, "pendiente")]),
    (4, [-150, -85, -5, 175], 65, "reservada", [(2, 55, "en_plato"), (4, 60, "pendiente"), (1, 65, "pendiente")]),
    (1, [-220, -15, -5, 175], 65, "reservada", [(4, 60, "pendiente"), (1, 65, "en_plato")]),
    (2, [-220, -20, -5, 175], 70, "reservada", [(4, 60, "pendiente"), (1, 65, "en_plato")]),
    (3, [-145, -20, -10, 100], 75, "reservada", [(4, 60, "pendiente"), (1, 65, "en_plato")]),
]

WORKED_HANDS = [
    played(2, "entrada", "oros", {2: 5, 3: 3, 4: 1}),
    played(3, "vuelta", "copas", {3: 4, 4: 4, 1: 1}, primeras="contra"),
    played(4, "solo", "bastos", {4: 5, 1: 0, 2: 0}, estuches=4),  # R13: 5-0-0 has primeras
    played(1, "entrada", "espadas", {1: 3, 2: 5, 3: 1}, contraestuches=3),
    played(2, "entrada", "oros", {2: 4, 3: 4, 4: 1}),
    played(3, "entrada", "bastos", {3: 5, 4: 2, 1: 2}, estuches=3),
    played(4, "vuelta", "oros", {4: 3, 1: 3, 2: 3}),
    rendida(1, "entrada", "copas"),
    played(2, "entrada", "oros", {2: 5, 3: 2, 4: 2}),
    PASS,
    rendida(4, "entrada", "oros", defensor=1, tricks={"1": 5, "4": 2, "2": 2}),
]


@pytest.mark.parametrize("row", range(len(WORKED)))
def test_worked_session_row_by_row(row: int) -> None:
    led = ledger(WORKED_HANDS, favor_suit="bastos")
    entry = led["hands"][row]
    dealer, balances, amount, kind, open_entries = WORKED[row]
    assert entry["dealer"] == dealer
    assert bal(entry) == balances
    assert plato(entry) == (amount, kind)
    assert cart(entry) == open_entries


def test_worked_session_hand_three_in_words() -> None:
    # case 1: 20 solo + 4 estuches + 1 primeras = 25; 5 + 25 = 30; a favor 60 from 1, 2, 3; plus plato 35
    entry = ledger(WORKED_HANDS[:3], favor_suit="bastos")["hands"][2]
    paid = [t for t in entry["transfers"] if t["to"] == 4]
    assert sorted(t["amount"] for t in paid) == [35, 60, 60, 60]
    assert entry["result"] == "ganada"


def test_worked_session_final_cartulina_and_preview() -> None:
    s = session(WORKED_HANDS, favor_suit="bastos")
    led = settle(s)
    assert cart(led) == [(2, 55, "cobrada"), (4, 60, "pendiente"), (1, 65, "en_plato")]
    assert led["next_dealer"] == 4
    # start + add previews one more hand without changing the settled state
    base = start(s)
    preview = base.add(played(1, "entrada", "oros", {1: 5, 2: 2, 3: 2}))
    assert base.count == 11 and preview.count == 12
    # dealer 4; plato 75 + 5 = 80, case 2: conditions 0, 1 takes 80 then 4 puts its 60 in
    assert bal(preview.entries[-1]) == [-65, -20, -10, 35]
    assert plato(preview.entries[-1]) == (60, "reservada")
