"""The phone's offline preview reads a hand form's fields with the server's own lines
(scorer/hand_fields.py) for every game: replaying each example session hand by hand, the preview of
the form's fields is the ledger entry the engine makes of the stored hand, as the server records it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorer import hand_fields
from scorer.engine import settle
from tests.conftest import EXAMPLES, load_json
from tests.web.tables.test_every_game import form_of

GAMES = {
    "pozo_viuda": ["pozo_viuda_table", "pozo_viuda_seed", "pozo_viuda_tricks_imply"],
    "ombre": ["ombre_three", "ombre_codille"],
    "bandos": ["bandos_game", "bandos_first_three_tricks"],
}
LANCES = {"pozo_viuda": ("juego", "volteo", "roben", "bola", "contrabola"), "ombre": (), "bandos": ()}


def played(hand: dict[str, Any]) -> bool:
    return not any(key in hand for key in ("pass", "close", "closing", "ajuste", "cambio", "dealer"))


@pytest.mark.parametrize(("ruleset", "name"), [(g, n) for g, names in GAMES.items() for n in names])
def test_the_preview_of_every_hand_is_the_servers_ledger_entry(ruleset: str, name: str) -> None:
    session = load_json(EXAMPLES / f"{name}.json")
    assert (session.get("rules") or {}).get("ruleset") == ruleset
    ledger = settle(session)
    checked = 0
    for n, hand in enumerate(session["hands"], 1):
        if not played(hand) or ("contrabola" in str(hand.get("lance")) and not session["rules"].get("contrabola")):
            continue
        before = {**copy.deepcopy(session), "hands": session["hands"][: n - 1]}
        fields = {k: v for k, v in form_of(hand, ruleset).items() if k != "save"}
        preview = hand_fields.offline_preview(before, [], fields, LANCES[ruleset])
        assert preview["ok"], (n, preview)
        assert preview["n"] == n
        assert preview["entry"] == ledger["hands"][n - 1]
        checked += 1
    assert checked >= 3


def test_waiting_entries_are_read_as_the_server_reads_them() -> None:
    """A pass and two hands of pozo y viuda waiting on the phone, then the form's: the fourth hand's entry."""
    session = load_json(EXAMPLES / "pozo_viuda_table.json")
    hands = session["hands"][:4]
    assert hands[0] == {"pass": True} and all(played(h) for h in hands[1:])
    start = {**session, "hands": []}
    queued: list[dict[str, Any]] = [{"form": "pass", "fields": []}]
    queued += [{"form": "hand", "fields": list(form_of(h, "pozo_viuda").items())} for h in hands[1:3]]
    preview = hand_fields.offline_preview(start, queued, form_of(hands[3], "pozo_viuda"), LANCES["pozo_viuda"])
    assert preview["ok"] and preview["n"] == 4
    assert preview["entry"] == settle({**session, "hands": hands})["hands"][-1]
    assert preview["hands"] == settle({**session, "hands": hands[:3]})["hands"]


@pytest.mark.parametrize(
    ("ruleset", "fields", "field"),
    [
        ("pozo_viuda", {"jugador": "2", "lance": "juego", "trump": "bastos", "matadores": "4"}, "matadores"),
        (
            "ombre",
            {"jugador": "2", "trump": "oros", "matadores_en": "9", "tricks_2": "5", "tricks_3": "2"},
            "matadores_en",
        ),
        ("bandos", {"primeras": "A", "faltas-0-points": "2"}, "faltas"),
        ("bandos", {"primeras": "A", "faltas-0-seat": "1", "faltas-0-points": "200"}, "faltas"),
    ],
)
def test_what_the_server_refuses_the_phone_says(ruleset: str, fields: dict[str, str], field: str) -> None:
    session = load_json(EXAMPLES / f"{GAMES[ruleset][0]}.json")
    preview = hand_fields.offline_preview({**session, "hands": []}, [], fields, LANCES[ruleset])
    assert not preview["ok"]
    assert preview["problems"][field]


def test_the_phone_says_the_readers_messages_in_the_pages_words() -> None:
    """An English page sends the reader's messages translated (data-offline-words): the offline
    preview says them in English, its numbers filled in; a message the page did not send stays Spanish."""
    session = load_json(EXAMPLES / "pozo_viuda_table.json")
    fields = {"jugador": "2", "lance": "juego", "trump": "bastos", "tricks_2": "12", "tricks_3": "1"}
    spanish = hand_fields.offline_preview({**session, "hands": []}, [], fields, LANCES["pozo_viuda"])
    said = {"Cada jugador hace de 0 a 9 bazas.": "Each player takes 0 to 9 tricks."}
    english = hand_fields.offline_preview({**session, "hands": []}, [], fields, LANCES["pozo_viuda"], said)
    assert spanish["problems"]["tricks"] == ["Cada jugador hace de 0 a 9 bazas."]
    assert english["problems"]["tricks"] == ["Each player takes 0 to 9 tricks."]
    with_number = {"Las bazas suman %(count)s: son 9 en total.": "The tricks add up to %(count)s: there are 9."}
    fields = {**fields, "tricks_2": "6", "tricks_3": "6"}
    english = hand_fields.offline_preview({**session, "hands": []}, [], fields, LANCES["pozo_viuda"], with_number)
    assert english["problems"]["tricks"] == ["The tricks add up to 12: there are 9."]
    assert hand_fields.translated({})("Faltan %(n)s.", n=2) == "Faltan 2."
