"""Small cases of scorer.pena.stats worked out by hand: bolas from the tricks, seasons, money of mixed tanto values."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from scorer.pena.stats import Evening, bola_of, codillo_giver, in_season, lifetime_ledger


def hand(j: int, tricks: dict[int, int], **keys: Any) -> dict[str, Any]:
    return {"jugador": j, "lance": "entrada", "trump": "oros", "tricks": {str(s): t for s, t in tricks.items()}, **keys}


def test_bolas_are_read_from_the_tricks_r13_r19() -> None:
    assert bola_of("tresillo", hand(2, {2: 9, 3: 0, 4: 0}), "ganada") == (True, False)  # 9-0-0 without the flag
    assert bola_of("tresillo", hand(2, {2: 7, 3: 1, 4: 0}, primeras="jugador"), "ganada") == (False, True)
    assert bola_of("tresillo", hand(2, {2: 6, 3: 2, 4: 1}, primeras="jugador"), "ganada") == (False, False)
    assert bola_of("tresillo", hand(2, {2: 5, 3: 0, 4: 0}), "ganada") == (False, False)  # primeras, he stops
    assert bola_of("ombre", hand(2, {1: 0, 2: 9, 3: 0}), "ganada") == (False, False)  # no bola in Ombre
    assert bola_of("pozo_viuda", hand(2, {2: 6, 3: 1, 4: 0}, bola="cortada"), "ganada") == (False, True)


def test_codillo_giver_is_the_contra_with_most_tricks() -> None:
    assert codillo_giver(hand(1, {1: 3, 2: 5, 3: 1})) == 2


def evening(date: str, value: str | None, balances: dict[str, int], pot: int = 0) -> Evening:
    names = list(balances)
    ledger = {
        "balances": {str(i): b for i, b in enumerate(balances.values(), 1)},
        "plato": {"amount": pot, "kind": "primera" if pot else "sin_puesta"},
        "hands": [{"result": "paso", "balances": {str(i): b for i, b in enumerate(balances.values(), 1)}}],
    }
    session = {"players": names, "hands": [{"pass": True}]}
    return Evening(
        key=date,
        name=date,
        date=date,
        session=session,
        ledger=ledger,
        people={n: n for n in names},
        value=None if value is None else Decimal(value),
    )


def test_money_of_mixed_tanto_values_and_the_settle_up() -> None:
    one = evening("2026-01-01", "0.05", {"A": 100, "B": -40, "C": -60})  # +5,00 −2,00 −3,00
    two = evening("2026-01-08", "0.10", {"A": -30, "B": 50, "C": -20})  # −3,00 +5,00 −2,00
    three = evening("2026-01-15", "0.05", {"A": 10, "B": 10, "C": -45}, pot=25)  # open: 25 on the plato
    ledger = lifetime_ledger([one, two, three])
    money = {s.person: s.money for s in ledger.standings}
    assert money == {"A": Decimal("2.50"), "B": Decimal("3.50"), "C": Decimal("-7.25")}
    assert [s.person for s in ledger.standings] == ["B", "A", "C"]
    assert all(s.tantos is None for s in ledger.standings)  # two tanto values
    assert [line.evening.key for line in ledger.open_pots] == ["2026-01-15"]
    # settled: A +2,00, B +3,00, C −5,00 (cents), two payments
    paid = sorted((p.payer, p.payee, p.amount) for p in ledger.payments)
    assert paid == [("C", "A", 200), ("C", "B", 300)]
    same = lifetime_ledger([one, three])
    assert same.same_value == Decimal("0.05")
    assert {s.person: s.tantos for s in same.standings} == {"A": 110, "B": -30, "C": -105}


def test_season_bounds_are_inclusive() -> None:
    night = evening("2026-03-01", "0.05", {"A": 0, "B": 0, "C": 0})
    assert in_season(night, dt.date(2026, 3, 1), dt.date(2026, 3, 1))
    assert not in_season(night, dt.date(2026, 3, 2), None)
    assert in_season(night, None, None)


def test_without_any_tanto_value_everything_is_in_tantos() -> None:
    one = evening("2026-01-01", None, {"A": 100, "B": -40, "C": -60})
    two = evening("2026-01-08", None, {"A": -30, "B": 50, "C": -20})
    ledger = lifetime_ledger([one, two])
    assert ledger.tantos_only and ledger.places == 0
    assert [(s.person, s.tantos) for s in ledger.standings] == [("A", 70), ("B", 10), ("C", -80)]
    assert sorted((p.payer, p.payee, p.amount) for p in ledger.payments) == [("C", "A", 70), ("C", "B", 10)]
