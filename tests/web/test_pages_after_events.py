"""What the table page and the sheet say after events a quick glance might get wrong.

The pots of pozo y viuda with a reserve (R31's check counts every tanto in the pots), the next
hand's roles right after a change of player (R33: the new seating, not the one before), and the
sheet's line naming when the new player sat down and whom he replaced; one condition written
without a sum of one term on the hand's page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from scorer.store.models import Table
from tests.conftest import EXAMPLES, load_json


def text_of(html: str) -> str:
    """The page's words, tags and extra spaces left out."""
    inline = re.sub(r"</?(?:bdi|strong|span|a|em)\b[^>]*>", "", html)
    return " ".join(re.sub(r"<[^>]+>", " ", inline).split())


def four_passes_of_three() -> dict[str, Any]:
    return {
        "format": "tresillo-session/1",
        "players": ["Ana", "Benito", "Carmen"],
        "rules": {"ruleset": "pozo_viuda"},
        "hands": [{"pass": True}] * 4,
    }


def test_the_pozo_check_counts_its_reserves(client: FlaskClient, make_table: Callable[..., Table]) -> None:
    table = make_table(four_passes_of_three())
    ledger = client.get(f"/api/tables/{table.view_token}/ledger").get_json()
    assert ledger["pozo"] == {"amount": 60, "reserves": [15]}  # P-rules: the pozo is full at 60
    assert ledger["viuda"] == 75
    assert sum(ledger["balances"].values()) == -150
    for token in (table.edit_token, table.view_token):
        page = text_of(client.get(f"/t/{token}").get_data(as_text=True))
        assert "Cuadra: saldos −150 + 75 (pozo) + 75 (viuda) = 0." in page  # R31
        assert "No cuadra" not in page


def evening_with_a_cambio() -> dict[str, Any]:
    night = load_json(EXAMPLES / "real_evening.json")
    night["hands"] = [*night["hands"][:9], {"sienta": {"seat": 2, "player": "Fermín"}}]
    return dict(night)


def roles_of(page: str) -> dict[str, str]:
    panel = page.split('class="panel turn"', 1)[1].split("</section>", 1)[0]
    pairs = re.findall(r"<dt>([^<]+)</dt><dd[^>]*><bdi>([^<]+)</bdi>", panel)
    return dict(pairs)


def test_the_turn_panel_seats_the_new_player_from_the_next_hand(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    table = make_table(evening_with_a_cambio())
    ledger = client.get(f"/api/tables/{table.view_token}/ledger").get_json()
    assert ledger["next_dealer"] == 1  # Ana deals hand 11 (sits it out): Benito's seat is mano
    page = client.get(f"/t/{table.edit_token}").get_data(as_text=True)
    assert roles_of(page) == {"Da": "Ana", "Mano": "Fermín", "Medio": "Carmen", "Postre": "Elena"}
    quick = page.rsplit('<nav class="quick"', 1)[1].split("</nav>", 1)[0]  # the bottom bar's "Juega"
    assert re.findall(r'<span class="name[^"]*">([^<]+)</span>', quick) == ["Fermín", "Carmen", "Elena"]


def test_the_sheet_names_the_entry_and_the_player_replaced(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    table = make_table(evening_with_a_cambio())
    sheet = text_of(client.get(f"/tables/{table.view_token}/sheet").get_data(as_text=True)).replace("&nbsp;", " ")
    assert "2 Fermín se sienta en la anotación 10 en lugar de Benito" in sheet
    assert "4 Elena se sienta en la anotación 6 en lugar de Diego" in sheet


def test_the_hand_page_writes_one_condition_without_a_sum(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    table = make_table(load_json(EXAMPLES / "walkthrough.json"))
    first = text_of(client.get(f"/t/{table.edit_token}/mano/1").get_data(as_text=True))
    seventh = text_of(client.get(f"/t/{table.edit_token}/mano/7").get_data(as_text=True))
    assert "5 por jugar" in first and "5 por jugar = 5" not in first  # R16
    assert "2 vuelta → 5" in seventh and "2 vuelta = 2" not in seventh  # R15
