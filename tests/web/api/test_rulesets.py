"""Invalid hands of every rule set through the API: 400 naming the hand, and nothing saved."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import EXAMPLES, load_json

# (example session, a hand the rule set must refuse at the end of it, words of the reason)
CASES = [
    ("walkthrough", {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"1": 4, "2": 4, "3": 0}}, "decide"),
    ("walkthrough", {"jugador": 2, "lance": "solo", "trump": "oros", "rendida": True}, "surrender"),
    (
        "three_players",
        {"jugador": 1, "lance": "entrada", "trump": "oros", "estuches": 2, "tricks": {"1": 5, "2": 2, "3": 2}},
        "estuches",
    ),
    (
        "pozo_viuda_seed",
        {"jugador": 2, "lance": "juego", "trump": "oros", "matadores": 5, "tricks": {"1": 2, "2": 5, "3": 2}},
        "matadores",
    ),
    (
        "pozo_viuda_seed",
        {"jugador": 2, "lance": "contrabola", "trump": "oros", "tricks": {"1": 4, "2": 0, "3": 5}},
        "contrabola",
    ),
    ("pozo_viuda_seed", {"jugador": 2, "lance": "tute", "trump": "oros", "tricks": {"1": 2, "2": 5, "3": 2}}, "lance"),
    ("ombre_three", {"pass": True}, "over"),
    ("bandos_game", {"primeras": "A"}, "over"),
    ("bandos_game", {"primeras": "C"}, "primeras"),
]


def _without_last(name: str) -> dict[str, Any]:
    session: dict[str, Any] = load_json(EXAMPLES / f"{name}.json")
    if name == "bandos_game":  # keep the game open so a refused hand is refused for itself
        session["hands"] = session["hands"][:-1]
    return session


@pytest.mark.parametrize(("name", "hand", "words"), CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_invalid_hand_is_400_and_saves_nothing(
    client: FlaskClient, name: str, hand: dict[str, Any], words: str
) -> None:
    session = _without_last(name)
    if name == "bandos_game" and words == "over":
        session = load_json(EXAMPLES / f"{name}.json")  # the game is over at its last hand (B4)
    created = client.post("/api/tables", json=session)
    assert created.status_code == 201, created.get_json()
    token = created.get_json()["edit_token"]
    before = client.get(f"/api/tables/{token}/ledger").get_json()
    answer = client.post(f"/api/tables/{token}/hands", json=hand)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error.startswith(f"hand {len(session['hands']) + 1}: ")
    assert words in error.lower()
    assert client.get(f"/api/tables/{token}/ledger").get_json() == before
    assert len(client.get(f"/api/tables/{token}").get_json()["hands"]) == len(session["hands"])
