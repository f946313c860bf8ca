"""A hand's page draws the cartulina as it was before and right after that hand, as on paper: the
puestas collected earlier stay in their owner's box, crossed (R7, R18), exactly as the table page
showed them then. One hand's "Después" is the next one's "Antes", and the last hand's "Después" is
the table page's cartulina, a change of player (R33) included."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorer.engine import settle
from scorer.games import tresillo_views
from scorer.store.models import Table
from scorer.web.tables import present as table_present
from tests.conftest import example_sessions, load_json

# Ana's puesta of hand 2 is reserved, goes to the plato at hand 3, Ana collects it at hand 4; at
# hand 5 Elena takes Carmen's seat.
COLLECTED_THEN_CAMBIO: dict[str, Any] = {
    "format": "tresillo-session/1",
    "players": ["Ana", "Benito", "Carmen", "Diego"],
    "first_dealer": 1,
    "hands": [
        {"jugador": 2, "lance": "entrada", "trump": "oros", "tricks": {"2": 4, "3": 4, "4": 1}},
        {"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 4, "3": 4, "4": 1}},
        {"jugador": 4, "lance": "entrada", "trump": "oros", "tricks": {"4": 5, "1": 3, "2": 1}},
        {"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 5, "2": 3, "3": 1}},
        {"sienta": {"seat": 3, "player": "Elena"}},
    ],
}


def text_of(html: str) -> str:
    inline = re.sub(r"</?(?:bdi|strong|span|a|em)\b[^>]*>", "", html)
    return " ".join(re.sub(r"<[^>]+>", " ", inline).split())


def before_and_after(page: str) -> tuple[str, str]:
    """The cartulina's words of the "Antes" and "Después" columns."""
    split = text_of(page.split('<div class="split">', 1)[1])
    before, after = split.split(" Después ", 1)
    return before.split(" Jugador Tantos ", 1)[0], after.split(" Jugador Tantos ", 1)[0]


def test_the_cambio_hands_page_keeps_the_collected_puesta(
    client: FlaskClient, make_table: Callable[..., Table]
) -> None:
    table = make_table(COLLECTED_THEN_CAMBIO)
    ledger = client.get(f"/api/tables/{table.view_token}/ledger").get_json()
    assert ledger["cartulina"] == [{"id": 1, "owner": 1, "amount": 55, "hand": 2, "state": "cobrada"}]
    table_page = text_of(client.get(f"/t/{table.edit_token}").get_data(as_text=True))
    assert "Cartulina Ana 55 (cobrada, mano 2) Benito sin puestas Elena sin puestas Diego sin puestas" in table_page
    before, after = before_and_after(client.get(f"/t/{table.edit_token}/mano/5").get_data(as_text=True))
    assert "Ana 55 (cobrada, mano 2)" in before and "Ana 55 (cobrada, mano 2)" in after
    assert "Ana sin puestas" not in before + after
    assert "Elena sin puestas" in after and "Carmen sin puestas" in before
    _, after_4 = before_and_after(client.get(f"/t/{table.edit_token}/mano/4").get_data(as_text=True))
    assert "Ana 55 (cobrada, mano 2)" in after_4  # the hand that crossed it
    before_2, after_2 = before_and_after(client.get(f"/t/{table.edit_token}/mano/2").get_data(as_text=True))
    assert "Ana sin puestas" in before_2 and "Ana 55 (pendiente, mano 2)" in after_2  # not yet made, then made


def marks(boxes: list[tresillo_views.Box]) -> list[tuple[str, tuple[tuple[int, str], ...], int]]:
    return [(b.name, tuple((m.id, m.state) for m in b.marks), b.older) for b in boxes]


EVENINGS = [p for p in example_sessions("tresillo") if load_json(p.with_name(p.stem + ".ledger.json")).get("cartulina")]


@pytest.mark.parametrize("path", [*EVENINGS, None], ids=lambda p: p.stem if p else "collected_then_cambio")
def test_each_hands_after_is_the_next_hands_before_and_the_last_is_the_table_pages(path: Any) -> None:
    session = load_json(path) if path else COLLECTED_THEN_CAMBIO
    ledger = settle(session)
    count = len(ledger["hands"])
    views = [tresillo_views.hand_view(session, ledger, n) for n in range(1, count + 1)]
    for n in range(1, count):
        assert marks(views[n - 1].cartulina_after) == marks(views[n].cartulina_before), n
    table = table_present.table_view(session, ledger)
    assert marks(views[-1].cartulina_after) == marks(table.cartulina)
