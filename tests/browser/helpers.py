"""What the journeys do with their thumbs, and what they read off the screen.

Locators go by role and accessible name (the words a player sees) wherever the
page gives them; the few CSS selectors read numbers out of the balances table.
"""

from __future__ import annotations

import copy
import pathlib
import re
from typing import Any

from playwright.sync_api import Locator, Page, expect

from scorer.engine import settle
from scorer.engine.tresillo import active_seats

from .conftest import LiveServer, Taps

MINUS = "−"
PLAYERS = ["Ana", "Benito", "Carmen", "Diego"]
LANCES = {"entrada": "entrada", "vuelta": "vuelta", "vuelta_solera": "vuelta solera", "solo": "solo"}
PRIMERAS = {"jugador": "del jugador", "contra": "de la contra"}
EXTRAS = "Estuches, primeras, bola, rendida"
TOKEN_URL = re.compile(r"/t/([A-Za-z0-9_-]{20,})$")


_REPORTED: set[str] = set()


def report_taps(artifacts: pathlib.Path, line: str) -> None:
    """Print a tap count and keep it in artifacts/taps.txt (shown in the test summary), one line per journey."""
    path = artifacts / "taps.txt"
    mode = "a" if _REPORTED and path.exists() else "w"
    with path.open(mode, encoding="utf-8") as out:
        out.write(line.rstrip("\n") + "\n")
    _REPORTED.add(line)
    print(line)


def new_session(players: list[str] | None = None, **rules: Any) -> dict[str, Any]:
    """The session file the journey builds alongside its taps (the engine's input)."""
    return {
        "format": "tresillo-session/1",
        "players": list(players or PLAYERS),
        "rules": dict(rules),
        "first_dealer": 1,
        "hands": [],
    }


def next_dealer(session: dict[str, Any]) -> int:
    return int(settle(session)["next_dealer"])


def with_hand(session: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    """A copy of the session with the hand appended, carrying the dealer it is dealt by."""
    result = copy.deepcopy(session)
    dealt = dict(hand, dealer=next_dealer(session))
    if "tricks" in dealt:
        dealt["tricks"] = {str(seat): count for seat, count in dealt["tricks"].items()}
    result["hands"].append(dealt)
    return result


def expected(session: dict[str, Any]) -> tuple[dict[str, int], int]:
    """What the engine says the page must show: balances by player name, and the plato."""
    ledger = settle(session)
    names = session["players"]
    return {names[int(seat) - 1]: int(v) for seat, v in ledger["balances"].items()}, int(ledger["plato"]["amount"])


def night(a: int, b: int, c: int) -> list[dict[str, Any]]:
    """Twelve hands by role (a, b, c = mano, medio, postre of that deal): every kind of result."""
    return [
        {"jugador": a, "lance": "entrada", "trump": "oros", "tricks": {a: 5, b: 3, c: 1}},  # ganada
        {"jugador": b, "lance": "entrada", "trump": "copas", "tricks": {b: 4, c: 4, a: 1}},  # puesta
        {"jugador": c, "lance": "entrada", "trump": "espadas", "tricks": {c: 3, a: 5, b: 1}},  # codillo
        {"jugador": a, "lance": "entrada", "trump": "copas", "rendida": True},  # rendida
        {"jugador": b, "lance": "entrada", "trump": "oros", "rendida": True, "defensor": c,
         "tricks": {b: 2, c: 5, a: 2}},  # rendida defendida
        {"jugador": c, "lance": "entrada", "trump": "espadas", "tricks": {c: 9, a: 0, b: 0}},  # bola hecha (R19)
        {"pass": True},  # todos pasan
        {"jugador": a, "lance": "solo", "trump": "bastos", "estuches": 3, "tricks": {a: 6, b: 2, c: 1}},  # a favor
        {"jugador": b, "lance": "vuelta", "trump": "oros", "primeras": "jugador", "tricks": {b: 5, c: 0, a: 0}},
        {"jugador": c, "lance": "entrada", "trump": "copas", "primeras": "jugador", "tricks": {c: 8, a: 1, b: 0}},
        {"jugador": a, "lance": "entrada", "trump": "oros", "primeras": "contra", "tricks": {a: 3, b: 3, c: 3}},
        {"jugador": b, "lance": "entrada", "trump": "espadas", "contraestuches": 3, "tricks": {b: 6, c: 2, a: 1}},
    ]  # fmt: skip


def night_session(count: int = 12, **rules: Any) -> dict[str, Any]:
    """The first ``count`` hands of :func:`night`, each carrying its dealer."""
    session = new_session(**(rules or {"favor_suit": "bastos"}))
    for i in range(count):
        roles = active_seats(len(session["players"]), next_dealer(session))
        session = with_hand(session, night(*roles)[i])
    return session


# ------------------------------------------------------------------ reading


def tantos(text: str) -> int:
    """ "+215" / "−65" / "0" as shown → an int."""
    cleaned = text.strip().replace(MINUS, "-").replace("+", "")
    assert re.fullmatch(r"-?\d+", cleaned), f"not a tantos figure: {text!r}"
    return int(cleaned)


def read_balances(scope: Page | Locator) -> dict[str, int]:
    """The balances table (first one in ``scope``): player name → tantos."""
    table = scope.locator("table.balances").first
    shown: dict[str, int] = {}
    for row in table.locator("tbody tr").all():
        cells = row.locator("td")
        shown[cells.nth(0).inner_text().strip()] = tantos(cells.nth(1).inner_text())
    return shown


def read_plato(page: Page) -> int:
    return tantos(page.get_by_role("region", name="Plato").locator(".amount").inner_text())


def assert_table_shows(page: Page, session: dict[str, Any], saldos: str = "Saldos") -> None:
    """The table page shows the engine's balances and plato for ``session`` (``saldos``: the heading's words)."""
    balances, plato = expected(session)
    assert read_balances(page.get_by_role("region", name=saldos)) == balances
    assert read_plato(page) == plato


# ------------------------------------------------------------------ doing


def seed_table(server: LiveServer, session: dict[str, Any], **keys: Any) -> tuple[str, str]:
    """A table made directly through the services (for journeys that start later in the night)."""
    from scorer import store

    data = copy.deepcopy(session)
    data.update(keys)
    with server.app.app_context():
        table = store.create_table(data)
        return table.edit_token, table.view_token


def table_url(server: LiveServer, token: str) -> str:
    return server.url(f"/t/{token}")


def seat_field(page: Page, seat: int) -> Locator:
    """The name field of a seat on the new-table form ("Asiento 4 (vacío si sois tres)" …)."""
    return page.get_by_label(re.compile(rf"^Asiento {seat}(\D|$)"))


def create_table_from_home(page: Page, taps: Taps, server: LiveServer, name: str, players: list[str]) -> str:
    """Journey 1: home → Nueva partida → names → Empezar. Returns the edit token."""
    page.goto(server.url("/"))
    taps(page.get_by_role("main").get_by_role("link", name="Nueva partida"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Nueva partida")
    page.get_by_label("Nombre de la partida").fill(name)
    for seat, player in enumerate(players, 1):
        seat_field(page, seat).fill(player)
    taps(page.get_by_role("group", name="Palo de favor").get_by_role("radio", name="bastos"))
    taps(page.get_by_role("button", name="Empezar la partida"))
    expect(page).to_have_url(TOKEN_URL)
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    match = TOKEN_URL.search(page.url)
    assert match
    return match.group(1)


def tricks_row(page: Page, name: str) -> Locator:
    """A player's row of tricks chips; its name may carry "(jugador)" / "(calculado)" from the CSS."""
    return page.get_by_role("radiogroup", name=re.compile(rf"^{re.escape(name)}(\s*\(.*\))?$"))


def tap_tricks(page: Page, taps: Taps, players: list[str], tricks: dict[str, int], jugador: int) -> None:
    """The Jugador's tricks, then one contra player's: the page fills in the third (tapped only if it differs)."""
    order = [jugador] + [int(s) for s in tricks if int(s) != jugador]
    if tricks[str(order[1])] == 0 and tricks[str(order[2])] != 0:
        order[1], order[2] = order[2], order[1]  # the contra player with tricks is the one to tap
    for seat in order[:2]:
        row = tricks_row(page, players[seat - 1])
        taps(row.get_by_role("radio", name=str(tricks[str(seat)]), exact=True))
    third = tricks_row(page, players[order[2] - 1])
    wanted = third.get_by_role("radio", name=str(tricks[str(order[2])]), exact=True)
    if sum(tricks.values()) == 9:
        expect(wanted).to_be_checked()  # filled in by the page
    else:
        taps(wanted)


def quick(page: Page, name: str) -> Locator:
    """The one-tap buttons of the tricks: "Primeras y se planta (5-0-0)", "Bola cortada"."""
    return page.get_by_role("group", name="Bazas").get_by_role("button", name=name)


def fill_hand(page: Page, taps: Taps, players: list[str], hand: dict[str, Any], *, chosen: bool = False) -> None:
    """Tap a hand into the hand form (already open; ``chosen``: the Jugador came from the table page).

    Primeras and bola are read from the tricks (R13/R19): 9-0-0 is tapped as 9 and nothing else,
    5-0-0 with primeras is the one tap "Primeras y se planta", a bola cortada J-1-0 is "Bola cortada",
    the Jugador's count and a 1 for the contra player who cut it.
    """
    jugador_name = players[hand["jugador"] - 1]
    jugador = page.get_by_role("group", name="Jugador", exact=True).get_by_role("radio", name=jugador_name)
    if chosen:
        expect(jugador).to_be_checked()
    else:
        taps(jugador)
    if hand.get("lance", "entrada") != "entrada":
        taps(page.get_by_role("group", name="Lance").get_by_role("radio", name=LANCES[hand["lance"]], exact=True))
    taps(page.get_by_role("group", name="Triunfo").get_by_role("radio", name=hand["trump"], exact=True))
    tricks = {str(s): c for s, c in (hand.get("tricks") or {}).items()}
    split = sorted(tricks.values())
    plantado = hand.get("primeras") == "jugador" and split == [0, 0, 5]
    cortada = hand.get("primeras") == "jugador" and split[:2] == [0, 1] and 5 <= tricks[str(hand["jugador"])] <= 8
    extras = [k for k in ("estuches", "contraestuches", "rendida", "defensor") if k in hand]
    if hand.get("primeras") == "contra" or (hand.get("bola") and not (cortada or split == [0, 0, 9])):
        extras.append("primeras")
    if extras:
        details = page.locator("details", has=page.get_by_text(EXTRAS))
        if details.get_attribute("open") is None:
            taps(page.get_by_text(EXTRAS))
    for key in ("estuches", "contraestuches"):
        if key in hand:
            group = page.get_by_role("group", name=key.capitalize(), exact=True)
            taps(group.get_by_role("radio", name=str(hand[key]), exact=True))
    if hand.get("primeras") == "contra":
        taps(page.get_by_role("group", name="Primeras").get_by_role("radio", name=PRIMERAS["contra"]))
    rendida = page.get_by_role("checkbox", name="El jugador se rinde")
    if "defensor" in hand:
        group = page.get_by_role("group", name="Defensor (rendida defendida)")
        taps(group.get_by_role("radio", name=players[hand["defensor"] - 1], exact=True))
        expect(rendida).to_be_checked()  # choosing a defensor marks the rendida
    elif hand.get("rendida"):
        taps(rendida)
    if not tricks or (hand.get("rendida") and "defensor" not in hand):
        return
    if plantado:
        taps(quick(page, "Primeras y se planta"))
        expect(page.get_by_role("group", name="Bazas")).to_contain_text("Primeras y se planta (5-0-0)")
    elif cortada:
        taps(quick(page, "Bola cortada"))
        taps(tricks_row(page, jugador_name).get_by_role("radio", name=str(tricks[str(hand["jugador"])]), exact=True))
        cutter = next(int(s) for s, c in tricks.items() if c == 1)
        taps(tricks_row(page, players[cutter - 1]).get_by_role("radio", name="1", exact=True))
        expect(page.get_by_role("group", name="Bazas")).to_contain_text(f"Bola cortada por {players[cutter - 1]}")
    else:
        tap_tricks(page, taps, players, tricks, hand["jugador"])
        if split == [0, 0, 9]:
            expect(page.get_by_role("group", name="Bazas")).to_contain_text("Bola hecha (9-0-0)")


def enter_hand(
    page: Page, taps: Taps, players: list[str], hand: dict[str, Any], n: int, *, by_name: bool = True
) -> None:
    """From the table page: "Juega <name>" (or Anotar mano) → the hand → Guardar → back on the table page, saved."""
    table_page = page.url
    if hand.get("pass"):
        taps(page.get_by_role("button", name="Todos pasan"))
        expect(page.get_by_role("status")).to_contain_text(f"Mano {n}: todos pasan")
        assert page.url == table_page
        return
    if by_name:
        taps(page.get_by_role("link", name=f"Juega {players[hand['jugador'] - 1]}", exact=True))
    else:
        taps(page.get_by_role("link", name="Anotar mano"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    fill_hand(page, taps, players, hand, chosen=by_name)
    taps(page.get_by_role("button", name="Guardar"))
    expect(page.get_by_role("status").first).to_contain_text(f"Mano {n} anotada")
    assert page.url == table_page
