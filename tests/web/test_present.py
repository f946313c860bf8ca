"""View-models from a session and its ledger: expectations come from rules/tresillo.md's worked session."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorer.engine import settle
from scorer.web import present
from tests.conftest import EXAMPLES, load_json

WALK = load_json(EXAMPLES / "walkthrough.json")  # the worked session of rules/tresillo.md
WALK_LEDGER = settle(WALK)


def upto(n: int) -> tuple[dict, dict]:
    """The walkthrough after hand n: its session and its ledger."""
    session = {**WALK, "hands": WALK["hands"][:n]}
    return session, settle(session)


@pytest.mark.parametrize(
    ("n", "words", "amount"),
    [
        (1, "vacío", 0),  # table: hand 1 → 0 sin_puesta
        (2, "con puesta primera", 30),  # hand 2 → 30 primera
        (6, "con puesta reservada de Benito (55)", 55),  # hand 6 → 55 reservada, 2:55 en_plato
        (9, "con puesta reservada de Ana (65)", 65),  # hand 9 → 1:65 en_plato
    ],
)
def test_plato_words_follow_the_worked_session(n: int, words: str, amount: int) -> None:
    session, ledger = upto(n)
    view = present.table_view(session, ledger)
    assert view.plato.words == words
    assert view.plato.amount == amount


def test_plato_with_only_dealer_stakes_is_sin_puesta() -> None:
    session = {**WALK, "hands": [{"pass": True}]}
    view = present.table_view(session, settle(session))
    assert view.plato.amount == 5  # R5, R29
    assert view.plato.words == "sin puesta"


def test_roles_with_four_players_name_the_alcalde() -> None:
    roles = present.roles(["Ana", "Benito", "Carmen", "Diego"], 4)
    assert (roles.dealer, roles.alcalde) == ("Diego", "Diego")  # R3
    assert (roles.mano, roles.medio, roles.postre) == ("Ana", "Benito", "Carmen")  # R1


def test_roles_with_three_players_have_no_alcalde() -> None:
    roles = present.roles(["Elena", "Fermín", "Gloria"], 2)
    assert roles.alcalde is None
    assert (roles.mano, roles.medio, roles.postre) == ("Gloria", "Elena", "Fermín")


def test_next_deal_after_the_walkthrough() -> None:
    view = present.table_view(WALK, WALK_LEDGER)
    # 11 hands from first dealer 1: hand 12 is dealt by seat 4 (R2)
    assert view.roles is not None
    assert view.roles.dealer == "Diego"
    assert view.roles.mano == "Ana"


def test_cartulina_marks_have_one_stroke_in_the_plato_and_a_cross_once_collected() -> None:
    boxes = {b.name: b for b in present.table_view(WALK, WALK_LEDGER).cartulina}
    # after hand 11: 2:55 cobrada, 4:60 pendiente, 1:65 en_plato (worked session)
    assert [(m.amount, m.strokes) for m in boxes["Benito"].marks] == [(55, 2)]
    assert [(m.amount, m.strokes) for m in boxes["Diego"].marks] == [(60, 0)]
    assert [(m.amount, m.strokes) for m in boxes["Ana"].marks] == [(65, 1)]
    assert boxes["Carmen"].marks == ()


def test_balances_are_the_ledgers_and_net_of_pending_puestas() -> None:
    view = present.table_view({**WALK, "tanto_value": "0.05", "currency": "€"}, WALK_LEDGER)
    by_name = {b.name: b for b in view.balances}
    assert {b.name: b.tantos for b in view.balances} == {"Ana": -145, "Benito": -20, "Carmen": -10, "Diego": 100}
    assert by_name["Diego"].pending == 60
    assert by_name["Diego"].net == 40
    assert by_name["Ana"].money == "−7,25 €"
    assert by_name["Diego"].money == "5,00 €"
    assert view.pending_total == 60


@pytest.mark.parametrize(
    ("text", "value"),
    [("0,05", Decimal("0.05")), ("0.05", Decimal("0.05")), (" 1,5 ", Decimal("1.5")), ("1.234,50", Decimal("1234.50"))],
)
def test_parse_decimal_accepts_the_decimal_comma(text: str, value: Decimal) -> None:
    assert present.parse_decimal(text) == value


@pytest.mark.parametrize("text", ["", "abc", "1,2,3", "NaN", "inf", None])
def test_parse_decimal_refuses_what_is_not_a_number(text: str | None) -> None:
    assert present.parse_decimal(text) is None


def test_money_is_exact_with_the_decimal_comma() -> None:
    assert present.money(3, Decimal("0.1"), "€") == "0,30 €"  # a float would say 0.30000000000000004
    assert present.money(-65, Decimal("0.05"), "EUR") == "−3,25 EUR"
    assert present.money(7, Decimal("0.001"), "") == "0,007"
    assert present.money(7, None, "€") is None


def test_hand_line_of_the_solo_a_favor() -> None:
    session, ledger = upto(3)
    line = present.table_view(session, ledger).hands[0]
    # hand 3: Diego solo bastos 6-2-1 ganada; Diego 0 → 215 (worked session)
    assert line.text == "3 · Diego · solo ♣ · 6-2-1 · ganada · +215"


def test_last_hands_newest_first_and_a_pass_has_its_own_words() -> None:
    view = present.table_view(WALK, WALK_LEDGER, last=3)
    assert [h.n for h in view.hands] == [11, 10, 9]
    assert view.hands[1].text == "10 · todos pasan · da Benito"


def test_summary_of_a_won_hand() -> None:
    # "Hand 3 in words: … 60 from each of seats 1, 2, 3, plus the plato 35."
    view = present.hand_view(WALK, WALK_LEDGER, 3)
    assert view.summary == "Diego cobra 60 de cada uno y se lleva el plato: 35"


def test_summary_of_a_puesta_written_on_the_cartulina() -> None:
    view = present.hand_view(WALK, WALK_LEDGER, 5)  # 5: seat 2 entrada 4-4-1 → 2:55 pendiente
    assert view.summary == "Benito apunta una puesta reservada de 55 en la cartulina"


def test_hand_view_shows_the_cartulina_before_and_after() -> None:
    view = present.hand_view(WALK, WALK_LEDGER, 9)  # hand 9 collects 2:55 and brings 1:65 into the plato
    before = {b.name: [(m.amount, m.state) for m in b.marks] for b in view.cartulina_before}
    after = {b.name: [(m.amount, m.state) for m in b.marks] for b in view.cartulina_after}
    assert before["Benito"] == [(55, "en_plato")]
    assert after["Benito"] == [(55, "cobrada")]
    assert before["Ana"] == [(65, "pendiente")]
    assert after["Ana"] == [(65, "en_plato")]
    assert view.plato_before.words == "con puesta reservada de Benito (55)"
    assert view.plato_after.words == "con puesta reservada de Ana (65)"
    assert sum(t.amount for t in view.transfers if t.target == "Benito") == 70  # Benito -85 → -15


def test_every_transfer_keeps_its_explanation() -> None:
    view = present.hand_view(WALK, WALK_LEDGER, 3)
    assert all(t.detail for t in view.transfers)
    assert [t.source for t in view.transfers if t.concept == "juego"] == ["Ana", "Benito", "Carmen"]


def test_closed_table_has_no_next_deal() -> None:
    session = {**WALK, "hands": [*WALK["hands"], {"close": "devolver"}]}
    view = present.table_view(session, settle(session))
    assert view.closed
    assert view.roles is None
    assert view.plato.amount == 0  # R30: the plato goes back
