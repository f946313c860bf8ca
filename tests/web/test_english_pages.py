"""English pages speak English: no Spanish outside the glossary's game words.

The visible text (and the titles, labels and placeholders a reader meets) of the English table
page, the hand form with its preview (the page's and the live one), every hand's detail, the
closing and the sheet printed in English is read word by word. A word of Spanish that is not a
game word the glossary keeps (``/glosario``) fails, with the line it is on. What people typed
(names, the place, the notes) is data and is left out by using English or neutral data.
"""

from __future__ import annotations

import copy
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorer.web.common.i18n import GLOSSARY
from tests.conftest import EXAMPLES, load_json

REAL = load_json(EXAMPLES / "real_evening.json")
VOID = {"area", "br", "col", "hr", "img", "input", "link", "meta", "source", "wbr"}
# Spanish words that never occur in English text (short and common enough to catch any sentence);
# "a", "no", "solo", "once"… are left out: they are English words too.
SPANISH = frozenset(
    re.findall(
        r"\S+",
        """el la los las del de se que por para con una unos unas pone paga pagan cobra lleva ganada ganadas
    todos pasan pasa cada calculado hecha cortada devolver repartir reparte devuelve sin anotar manos saldo
    saldos jugar juega cerrar cierre cambio jugadores persona personas dinero nadie nada recibe queda quedan
    está son hay partida mesa hoja aún ya lo le su sus más menos entre resto gana pierde deja sienta
    asiento mano""",
    )
)


def game_words() -> set[str]:
    words = {"bola", "bolas", "puestas", "tantos", "oros", "copas", "espadas", "bastos", "solera", "contraestuches"}
    for term, _meaning in GLOSSARY:
        words.update(w for w in re.findall(r"[a-záéíóúñü]+", term) if w != "de")  # "palo de favor"
    return words


class Visible(HTMLParser):
    """Text a reader meets: element text outside scripts, styles and hidden elements, plus titles,
    aria-labels, placeholders and alt texts, and the lines of the page's own CSS ``content``."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.hidden = 0
        self.lines: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if not self.hidden:
            self.lines += [str(a[k]) for k in ("title", "aria-label", "placeholder", "alt") if a.get(k)]
            self.lines += [str(v) for k, v in a.items() if k in ("data-filled", "data-jugador", "data-both") and v]
        if tag in VOID:
            return
        hide = tag in ("script", "style", "template") or "hidden" in a or a.get("lang") == "es"
        self.stack.append(hide)
        self.hidden += hide

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.hidden -= self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.lines.append(" ".join(data.split()))


def spanish_lines(page: str) -> list[str]:
    reader = Visible()
    reader.feed(page)
    allowed = game_words()
    found = []
    # "palo de favor", "fuera de turno" (of "falta, fuera de turno")
    phrases = [part.strip() for term, _meaning in GLOSSARY for part in term.split(",") if " " in part.strip()]
    for line in reader.lines:
        low = line.lower()
        for phrase in phrases:
            low = low.replace(phrase, " ")
        words = re.findall(r"[a-záéíóúñü]+", low)
        bad = sorted({w for w in words if w in SPANISH and w not in allowed})
        if bad:
            found.append(f"{line}  <- {', '.join(bad)}")
    return found


def english(client: FlaskClient, url: str, **post: Any) -> str:
    response = client.post(url, data=post) if post else client.get(url)
    assert response.status_code in (200, 400), (url, response.status_code)
    return response.get_data(as_text=True)


def evening() -> dict[str, Any]:
    session = copy.deepcopy(REAL)
    session.update(name="Thursday club", place="Club", tanto_value="0.05", currency="€", language="en")
    for hand in session["hands"]:
        hand.pop("note", None)  # what people typed is data, not the page's words
    return session


def test_english_pages_have_no_spanish_outside_the_game_words(app: Flask, client: FlaskClient, make_table: Any) -> None:
    client.set_cookie("lang", "en")
    open_table = make_table(dict(evening(), hands=evening()["hands"][:9]))
    closed = make_table(evening())
    pages = {
        "table": english(client, f"/t/{open_table.edit_token}"),
        "closed table": english(client, f"/t/{closed.edit_token}"),
        "hand form": english(client, f"/t/{open_table.edit_token}/mano"),
        "closing": english(client, f"/t/{open_table.edit_token}/cerrar"),
        "sheet": english(client, f"/tables/{closed.edit_token}/sheet"),
    }
    a = 3  # the next deal is seat 2's (Benito): Carmen, Elena, Ana play
    form = {"jugador": str(a), "lance": "entrada", "trump": "oros", "tricks_3": "5", "tricks_4": "3", "tricks_1": "1"}
    pages["hand form with preview"] = english(
        client, f"/t/{open_table.edit_token}/mano", **form, preview="1", request_id="r-en"
    )
    live = client.post(f"/t/{open_table.edit_token}/mano/pagos", data=form)
    if live.status_code == 200:
        data = live.get_json()
        pages["live preview"] = (
            "<p>" + "</p><p>".join(str(data.get(k) or "") for k in ("result", "summary", "after")) + "</p>"
        )
    for n in range(1, len(REAL["hands"]) + 1):
        pages[f"hand {n}"] = english(client, f"/t/{closed.edit_token}/mano/{n}")
    assert "<p>won</p>" in pages["live preview"]  # the result word in English (it was "Ganada")
    found = {name: spanish_lines(page) for name, page in pages.items()}
    found = {name: lines for name, lines in found.items() if lines}
    assert not found, "\n".join(f"{name}:\n  " + "\n  ".join(lines) for name, lines in found.items())


# the other games' pages too (their explanations are data, said through the catalogs)
GAMES: dict[str, tuple[str, int, dict[str, str]]] = {
    # example, hands on the open table, a hand for the preview (seat 1 plays a won entrada / primeras)
    "pozo_viuda": (
        "pozo_viuda_table.json",
        6,
        {"jugador": "2", "lance": "juego", "trump": "oros", "matadores": "2", "tricks_2": "5", "tricks_3": "2"},
    ),
    "ombre": (
        "ombre_codille.json",
        3,
        {"jugador": "1", "lance": "entrada", "trump": "oros", "tricks_1": "5", "tricks_2": "2", "tricks_3": "2"},
    ),
    "bandos": (
        "bandos_game.json",
        5,
        {"primeras": "B", "capote": "y", "faltas-0-seat": "3", "faltas-0-falta": "renuncio"},
    ),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_english_pages_have_no_spanish(client: FlaskClient, make_table: Any, game: str) -> None:
    example, opened, form = GAMES[game]
    session = load_json(EXAMPLES / example)
    session.update(name="Thursday club", place="Club", tanto_value="0.05", currency="€", language="en")
    for hand in session["hands"]:
        hand.pop("note", None)
    client.set_cookie("lang", "en")
    open_table = make_table(dict(session, hands=session["hands"][:opened]))
    closed = make_table(session)
    token = open_table.edit_token
    pages = {
        "table": english(client, f"/t/{token}"),
        "closed table": english(client, f"/t/{closed.edit_token}"),
        "hand form": english(client, f"/t/{token}/mano"),
        "hand form with preview": english(client, f"/t/{token}/mano", **form, preview="1", request_id=f"r-{game}"),
        "sheet": english(client, f"/tables/{closed.edit_token}/sheet"),
    }
    closing = client.get(f"/t/{token}/cerrar")
    if closing.status_code == 200:
        pages["closing"] = closing.get_data(as_text=True)
    live = client.post(f"/t/{token}/mano/pagos", data=form)
    assert live.status_code == 200, live.get_data(as_text=True)
    data = live.get_json()
    pages["live preview"] = (
        "<p>" + "</p><p>".join(str(data.get(k) or "") for k in ("result", "summary", "after")) + "</p>"
    )
    for n in range(1, len(session["hands"]) + 1):
        pages[f"hand {n}"] = english(client, f"/t/{closed.edit_token}/mano/{n}")
    found = {name: spanish_lines(page) for name, page in pages.items()}
    found = {name: lines for name, lines in found.items() if lines}
    assert not found, "\n".join(f"{name}:\n  " + "\n  ".join(lines) for name, lines in found.items())
