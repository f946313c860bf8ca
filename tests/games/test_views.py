"""View-models from a session and its ledger: expectations come from rules/tresillo.md's worked session."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorer.engine import settle
from scorer.games import pots, tresillo_views
from scorer.games import views as present
from scorer.web.tables import present as table_present
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
    view = table_present.table_view(session, ledger)
    assert view.plato.words == words
    assert view.plato.amount == amount


def test_plato_with_only_dealer_stakes_is_sin_puesta() -> None:
    session = {**WALK, "hands": [{"pass": True}]}
    view = table_present.table_view(session, settle(session))
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
    view = table_present.table_view(WALK, WALK_LEDGER)
    # 11 hands from first dealer 1: hand 12 is dealt by seat 4 (R2)
    assert view.roles is not None
    assert view.roles.dealer == "Diego"
    assert view.roles.mano == "Ana"


def test_cartulina_marks_have_one_stroke_in_the_plato_and_a_cross_once_collected() -> None:
    boxes = {b.name: b for b in table_present.table_view(WALK, WALK_LEDGER).cartulina}
    # after hand 11: 2:55 cobrada, 4:60 pendiente, 1:65 en_plato (worked session)
    assert [(m.amount, m.strokes) for m in boxes["Benito"].marks] == [(55, 2)]
    assert [(m.amount, m.strokes) for m in boxes["Diego"].marks] == [(60, 0)]
    assert [(m.amount, m.strokes) for m in boxes["Ana"].marks] == [(65, 1)]
    assert boxes["Carmen"].marks == ()


def test_balances_are_the_ledgers_and_net_of_pending_puestas() -> None:
    view = table_present.table_view({**WALK, "tanto_value": "0.05", "currency": "€"}, WALK_LEDGER)
    by_name = {b.name: b for b in view.balances}
    assert {b.name: b.tantos for b in view.balances} == {"Ana": -145, "Benito": -20, "Carmen": -10, "Diego": 100}
    assert by_name["Diego"].pending == 60
    assert by_name["Diego"].net == 40
    assert by_name["Ana"].money == "−7,25\u00a0€"  # a no-break space: the sign stays with its amount
    assert by_name["Diego"].money == "+5,00\u00a0€"  # signed, as the tantos and as on the sheet
    assert view.pending_total == 60


def test_money_of_a_table_without_a_tanto_value_is_none() -> None:
    assert present.money(7, None, "€") is None
    assert present.money(-65, Decimal("0.05"), "EUR") == "−3,25\u00a0€"  # words.money_text: tests/test_words.py
    assert present.money(65, Decimal("0.05"), "€") == "+3,25\u00a0€"


def test_hand_line_of_the_solo_a_favor() -> None:
    session, ledger = upto(3)
    line = table_present.table_view(session, ledger).hands[0]
    # hand 3: Diego solo bastos, primeras and he stops: 5-0-0 (R13); Diego 0 → 215 (worked session)
    assert line.text == "3 · Diego · solo ♣ · 5-0-0 · ganada, primeras y se planta · +215"


def test_results_in_words_name_the_bola_and_the_codillo_giver() -> None:
    """R9, R19: "bola hecha", "bola cortada", "codillo de Ana" (the contra player with most tricks)."""
    players = ["Ana", "Benito", "Carmen", "Diego"]
    codillo = {"jugador": 2, "tricks": {"2": 3, "3": 1, "4": 5}}
    assert tresillo_views.result_phrase(codillo, {"result": "codillo"}, players) == "codillo de Diego"
    assert tresillo_views.result_phrase(
        {"jugador": 2, "tricks": {"2": 9, "3": 0, "4": 0}}, {"result": "bola"}, players
    ) == ("bola hecha")
    cut = {"jugador": 2, "tricks": {"2": 7, "3": 1, "4": 0}}
    assert tresillo_views.result_phrase(cut, {"result": "bola_cortada"}, players) == "bola cortada"
    assert tresillo_views.result_phrase(cut, {"result": "puesta"}, players) == "puesta"


def test_last_hands_newest_first_and_a_pass_has_its_own_words() -> None:
    view = table_present.table_view(WALK, WALK_LEDGER, last=3)
    assert [h.n for h in view.hands] == [11, 10, 9]
    assert view.hands[1].text == "10 · todos pasan · da Benito"


def test_summary_of_a_won_hand() -> None:
    # "Hand 3 in words: … 60 from each of seats 1, 2, 3, plus the plato 35."
    view = tresillo_views.hand_view(WALK, WALK_LEDGER, 3)
    assert view.summary == "Diego cobra 60 de cada uno y se lleva el plato: 35"


def test_summary_of_a_puesta_written_on_the_cartulina() -> None:
    view = tresillo_views.hand_view(WALK, WALK_LEDGER, 5)  # 5: seat 2 entrada 4-4-1 → 2:55 pendiente
    assert view.summary == "Benito apunta una puesta reservada de 55 en la cartulina"


def test_hand_view_shows_the_cartulina_before_and_after() -> None:
    view = tresillo_views.hand_view(WALK, WALK_LEDGER, 9)  # hand 9 collects 2:55 and brings 1:65 into the plato
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
    view = tresillo_views.hand_view(WALK, WALK_LEDGER, 3)
    assert all(t.detail for t in view.transfers)
    assert [t.source for t in view.transfers if t.concept == "por jugar"] == ["Ana", "Benito", "Carmen"]


def test_closed_table_has_no_next_deal() -> None:
    session = {**WALK, "hands": [*WALK["hands"], {"close": "devolver"}]}
    view = table_present.table_view(session, settle(session))
    assert view.closed
    assert view.roles is None
    assert view.plato.amount == 0  # R30: the plato goes back


# ------------------------------------------- the other games (shared examples)

POZO = load_json(EXAMPLES / "pozo_viuda_table.json")
POZO_LEDGER = load_json(EXAMPLES / "pozo_viuda_table.ledger.json")


def test_pozo_view_counts_the_reserves_and_the_cap() -> None:
    entry = POZO_LEDGER["hands"][8]  # hand 9: the pozo is full, two reserves wait
    view = present.pozo_view(entry, POZO["rules"], 4)
    assert view.cap == 4 * 5 * 4  # P4: pozo_cap × pozo_stake × players
    assert view.amount == entry["pozo"]["amount"]
    assert list(view.reserves) == entry["pozo"]["reserves"]
    assert view.viuda == entry["viuda"]
    assert "lleno" in view.words


def test_pots_summary_says_who_takes_the_pozo() -> None:
    settled = settle(POZO)
    text = pots.pots_summary(settled["hands"][2], POZO["players"])  # Diego's roben won with 3 matadores
    dulces = [t["amount"] for t in POZO_LEDGER["hands"][2]["transfers"] if t["concept"] == "dulces"]
    assert text.startswith(f"Diego cobra {dulces[0]} de cada uno")
    assert f"se lleva el pozo: {POZO_LEDGER['hands'][1]['pozo']['amount']}" in text


def test_bandos_line_and_teams() -> None:
    session = load_json(EXAMPLES / "bandos_game.json")
    ledger = load_json(EXAMPLES / "bandos_game.ledger.json")
    line = present.hand_line(session["hands"][4], ledger["hands"][4], None, session["players"], "bandos")
    assert line.text.startswith("5 · primeras B · falta de A1 (renuncio, 4)")
    teams = present.teams_view(session["players"], ledger["scores"], ledger["winner"])
    assert [t.name for t in teams] == ["A", "B"]
    assert teams[0].winner and not teams[1].winner
    assert [m[1] for m in teams[0].members] == ["A1", "A2", "A3"]  # B1: seats 1, 3, 5


def test_ombre_game_view_counts_deals_and_knows_when_it_is_over() -> None:
    session = load_json(EXAMPLES / "ombre_three.json")
    ledger = load_json(EXAMPLES / "ombre_three.ledger.json")
    view = present.game_view(session, ledger)
    assert view.deals_played == 8 and view.deals == 8
    assert view.over and not view.can_close  # O6: once over nothing follows, not even the closing
    assert view.close_label == ("Repartir el bote y cerrar" if ledger["bote"] else "Cerrar la partida")
    assert present.game_view(session, {**ledger, "over": False}).close_label == "Repartir y cerrar"
    assert view.bote == ledger["bote"]
