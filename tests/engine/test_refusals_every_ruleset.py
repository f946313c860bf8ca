"""format.md "Every rule set": refusals name the rule or the key, in words, and save nothing.

An unknown option value, an option out of its range, an unknown key in ``rules``, in an entry or
inside an ``ajuste``/``sienta``/``faltas`` item, ``"none"`` under the default bandos scoring, the
same favour suit again and a favour change after the closing (R34): each is a SessionError whose
line names the rule or key; null options are the defaults.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorer.engine import SessionError, settle
from tests.engine.cli import assert_rejected, settle_cli

FORMAT = "tresillo-session/1"
THREE = ["Ana", "Benito", "Carmen"]
SIX = ["A1", "B1", "A2", "B2", "A3", "B3"]
TRESILLO_HAND = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"1": 2, "2": 5, "3": 2}}
POZO_HAND = {"jugador": 2, "lance": "juego", "trump": "copas", "tricks": {"1": 2, "2": 5, "3": 2}}
OMBRE_HAND = {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"1": 2, "2": 5, "3": 2}}


def game(ruleset: str, *hands: Any, **rules: Any) -> dict[str, Any]:
    players = SIX if ruleset == "bandos" else THREE
    return {"format": FORMAT, "players": players, "rules": {"ruleset": ruleset, **rules}, "hands": list(hands)}


REFUSED: list[tuple[str, dict[str, Any], str]] = [
    # unknown option values: the line ends with the rule that defines the option
    (
        "tresillo word",
        game("tresillo", failed_bola="gratis"),
        "session: rule failed_bola must be one of pays_bola, free, not 'gratis' (R19)",
    ),
    (
        "tresillo favour",
        game("tresillo", favor_doubling="twice"),
        "session: rule favor_doubling must be one of double_rounded, round_doubled, not 'twice' (R15)",
    ),
    (
        "pozo favour",
        game("pozo_viuda", favor_suit="rosas"),
        "session: rule favor_suit must be one of oros, copas, espadas, bastos, not 'rosas' (P5)",
    ),
    (
        "ombre codille",
        game("ombre", codille="triple"),
        "session: rule codille must be one of double_sacada, double_stake, not 'triple' (O4)",
    ),
    (
        "ombre outcome",
        game("ombre", outcome=3),
        "session: rule outcome must be one of majority_five, most_tricks, not 3 (O2)",
    ),
    (
        "bandos scoring",
        game("bandos", scoring="literal"),
        "session: rule scoring must be one of first_to_three, first_three_tricks, not 'literal' (B5)",
    ),
    # out of range
    ("tresillo rounding", game("tresillo", rounding=0), "session: rule rounding must be at least 1, not 0"),
    ("tresillo stake", game("tresillo", dealer_stake=-1), "session: rule dealer_stake must be at least 0"),
    ("pozo viuda", game("pozo_viuda", viuda_stake=0), "session: rule viuda_stake must be at least 1, not 0"),
    ("ombre stake", game("ombre", stake=0), "session: rule stake must be at least 1, not 0"),
    ("ombre solo", game("ombre", solo_stake=0), "session: rule solo_stake must be at least 1"),
    ("ombre vole", game("ombre", vole_bonus=-1), "session: rule vole_bonus must be at least 0"),
    ("ombre deals", game("ombre", deals=0), "session: rule deals must be at least 1"),
    ("ombre target", game("ombre", target=0), "session: rule target must be at least 1"),
    ("bandos target", game("bandos", target=0), "session: rule target must be at least 1"),
    ("bandos penalty", game("bandos", renuncio=-1), "session: rule renuncio must be at least 0"),
    ("not a number", game("pozo_viuda", pozo_cap="4"), "session: rule pozo_cap must be a whole number"),
    # unknown keys
    ("rules tresillo", game("tresillo", plato=5), "session: unknown rule 'plato'"),
    ("rules pozo", game("pozo_viuda", rounding=5), "session: unknown rule 'rounding' for pozo_viuda"),
    ("rules ombre", game("ombre", codillo="x"), "session: unknown rule 'codillo' for ombre"),
    ("rules bandos", game("bandos", stake=1), "session: unknown rule 'stake' for bandos"),
    ("entry tresillo", game("tresillo", {**TRESILLO_HAND, "matadores": 2}), "hand 1: unknown key 'matadores'"),
    ("entry pozo", game("pozo_viuda", {**POZO_HAND, "estuches": 3}), "hand 1: unknown key 'estuches'"),
    ("entry ombre", game("ombre", {**OMBRE_HAND, "capote": True}), "hand 1: unknown key 'capote'"),
    ("entry bandos", game("bandos", {"primeras": "A", "tricks": {}}), "hand 1: unknown key 'tricks'"),
    ("ombre pass", game("ombre", {"pass": True, "matadores_en": 1}), "hand 1: unknown key 'matadores_en'"),
    (
        "ajuste item",
        game("tresillo", {"ajuste": {"from": 1, "to": 2, "amount": 5, "motivo": "x"}}),
        "hand 1: unknown key 'motivo' in the ajuste",
    ),
    (
        "sienta item",
        game("tresillo", {"sienta": {"seat": 1, "player": "Zoe", "edad": 3}}),
        "hand 1: unknown key 'edad' in the change of player",
    ),
    (
        "faltas item",
        game("bandos", {"primeras": "A", "faltas": [{"seat": 1, "falta": "renuncio", "why": 1}]}),
        "hand 1: unknown key 'why' in falta 1",
    ),
    ("favour entry key", game("tresillo", {"favor": "oros", "suit": "oros"}), "hand 1: unknown key 'suit'"),
    # B5
    ("none by default", game("bandos", {"primeras": "none"}), 'hand 1: primeras "none" needs the rule scoring'),
    (
        "none first_to_three",
        game("bandos", {"primeras": "none"}, scoring="first_to_three"),
        'hand 1: primeras "none" needs the rule scoring first_three_tricks',
    ),
    (
        "none with capote",
        game("bandos", {"primeras": "none", "capote": True}, scoring="first_three_tricks"),
        'hand 1: capote with primeras "none"',
    ),
    # R34
    (
        "same favour again",
        game("tresillo", TRESILLO_HAND, {"favor": "copas"}, {"favor": "copas"}),
        "hand 3: the favour suit is already copas: a change of favour names another suit (R34)",
    ),
    (
        "the rules' favour",
        game("tresillo", {"favor": "bastos"}, favor_suit="bastos"),
        "hand 1: the favour suit is already bastos",
    ),
    ("not a suit", game("tresillo", {"favor": "rosas"}), "hand 1: unknown favor 'rosas' (expected oros, copas"),
    (
        "favour with a dealer",
        game("tresillo", {"favor": "oros", "dealer": 2}),
        "hand 1: a change of favour suit has no dealer (R34)",
    ),
    (
        "favour after the closing",
        game("tresillo", TRESILLO_HAND, {"close": "repartir"}, {"favor": "copas"}),
        "hand 3: no hand may follow the closing (R30)",
    ),
    (
        "favour in ombre",
        game("ombre", {"favor": "copas"}),
        "hand 1: a change of favour suit (favor, R34) is a Tresillo entry",
    ),
]


@pytest.mark.parametrize(("session", "line"), [(s, m) for _, s, m in REFUSED], ids=[r[0] for r in REFUSED])
def test_each_refusal_names_the_rule_or_key(session: dict[str, Any], line: str) -> None:
    with pytest.raises(SessionError) as info:
        settle(session)
    assert str(info.value).startswith(line), str(info.value)
    assert "Error" not in str(info.value) and "Traceback" not in str(info.value)


@pytest.mark.parametrize(
    ("ruleset", "rules"),
    [
        ("tresillo", {"favor_suit": None, "rounding": None, "failed_bola": None}),
        ("pozo_viuda", {"favor_suit": None, "pozo_stake": None, "viuda_stake": None}),
        ("ombre", {"stake": None, "codille": None, "outcome": None, "deals": None}),
        ("bandos", {"target": None, "scoring": None, "renuncio": None}),
    ],
)
def test_null_options_are_the_defaults(ruleset: str, rules: dict[str, Any]) -> None:
    hand = {"tresillo": TRESILLO_HAND, "pozo_viuda": POZO_HAND, "ombre": OMBRE_HAND, "bandos": {"primeras": "A"}}
    assert settle(game(ruleset, hand[ruleset], **rules)) == settle(game(ruleset, hand[ruleset]))


def test_a_favour_change_moves_no_money_and_counts_from_the_next_hand() -> None:
    # R34: no favour suit at first; seat 2 wins an entrada de oros (5 each); the table names oros;
    # the same hand is then a favor: 2 × 5 = 10 each.
    ledger = settle(
        game(
            "tresillo",
            TRESILLO_HAND,
            {"favor": "oros"},
            {**TRESILLO_HAND, "jugador": 3, "tricks": {"1": 2, "2": 2, "3": 5}},
            dealer_stake=0,
        )
    )
    first, change, third = ledger["hands"]
    assert change == {**change, "dealer": None, "result": "favor", "favor_suit": "oros", "transfers": []}
    assert change["balances"] == first["balances"] and change["plato"] == first["plato"]
    assert [t["amount"] for t in first["transfers"] if t["concept"] == "juego"] == [5, 5]
    assert [t["amount"] for t in third["transfers"] if t["concept"] == "juego"] == [10, 10]
    assert third["dealer"] == 2 and ledger["favor_suit"] == "oros"
    assert settle(game("tresillo", TRESILLO_HAND))["favor_suit"] is None


# The refusals format.md names, through the command line: each line ends with the rule it breaks.
CLI_REFUSED = [
    (game("ombre", codille="triple"), "session: rule codille must be one of", "(O4)"),
    (game("bandos", scoring="triple"), "session: rule scoring must be one of", "(B5)"),
    (game("tresillo", solo_codillo="triple"), "session: rule solo_codillo must be one of", "(R24)"),
    (game("pozo_viuda", favor_suit="triple"), "session: rule favor_suit must be one of", "(P5)"),
    (game("bandos", {"primeras": "none"}), 'hand 1: primeras "none" needs the rule scoring', "(B5)"),
    (game("tresillo", {"favor": "copas"}, {"favor": "copas"}), "hand 2: the favour suit is already copas", "(R34)"),
    (game("tresillo", {"close": "devolver"}, {"favor": "copas"}), "hand 2: no hand may follow the closing", "(R30)"),
]


@pytest.mark.parametrize(("session", "start", "rule"), CLI_REFUSED, ids=[c[2] + c[1][:30] for c in CLI_REFUSED])
def test_scorer_settle_names_the_rule(session: dict[str, Any], start: str, rule: str) -> None:
    line = assert_rejected(settle_cli(session), start)  # exit 2, nothing on standard output
    assert line.endswith(rule), line
