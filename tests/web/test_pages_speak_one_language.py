"""An English evening says nothing in Spanish but the glossary's game words, to the last word.

A played evening (real_evening.json: hands, an ajuste, a change of player, all pass, the closing)
is crawled in English: the table and its view, every hand, the hand list, the forms of a hand, an
ajuste, a cambio, a favour change and the closing, the sheet of the open and of the closed table,
the peña it belongs to and a person's page. Besides the common Spanish words of
``test_english_pages``, the crawl fails on the interface's Spanish chrome words, on any word with
a Spanish accent or ñ that is no game word nor a name, and on a numeric date (12/02/2026 reads as
two different days on the two sides of the Atlantic: English writes "2 Dec 2026"). The reverse mix
is checked too: a Spanish page names the languages in Spanish.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from flask.testing import FlaskClient

from tests.conftest import EXAMPLES, load_json
from tests.web.test_english_pages import SPANISH, Visible, game_words

REAL = load_json(EXAMPLES / "real_evening.json")
NAMES = {"ana", "benito", "carmen", "diego", "elena", "thursday", "club"}
# the interface's own Spanish words, beyond the short common ones of test_english_pages
CHROME = frozenset(
    re.findall(
        r"\S+",
        """volver imprimir usa navegador devuelta devueltas reservada reservadas corrección reparto mal otro
        otra hoja guardar borrar corregir editar deshacer anotación anotaciones tras quién eres acuerdo
        jugada jugadas perdida perdidas rendido sentó fue cuadra según idioma español inglés""",
    )
)
NUMERIC_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b")
ACCENTED = re.compile(r"[a-záéíóúñü]*[áéíóúñü¿¡][a-záéíóúñü]*")


def spanish_in(page: str) -> list[str]:
    reader = Visible()
    reader.feed(page)
    allowed = game_words() | NAMES | {"peña", "peñas"}
    found = []
    for line in reader.lines:
        low = line.lower()
        for phrase in ("palo de favor", "fuera de turno", "juego de bandos", "pozo y viuda"):
            low = low.replace(phrase, " ")
        bad = {w for w in re.findall(r"[a-záéíóúñü]+", low) if (w in SPANISH or w in CHROME) and w not in allowed}
        bad |= {w for w in ACCENTED.findall(low) if w not in allowed}
        bad |= set(NUMERIC_DATE.findall(line))
        if "¿" in line or "¡" in line:
            bad.add("¿¡")
        if bad:
            found.append(f"{line}  <- {', '.join(sorted(bad))}")
    return found


def evening() -> dict[str, Any]:
    session = copy.deepcopy(REAL)
    session.update(name="Thursday club", place="Club", tanto_value="0.05", currency="€", language="en")
    session["date"] = "2026-12-02"
    for hand in session["hands"]:
        hand.pop("note", None)  # what people typed is data, not the page's words
    return session


def get(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


def crawl(client: FlaskClient, make_table: Any) -> dict[str, str]:
    session = evening()
    opened = make_table(dict(session, hands=session["hands"][:9]))
    closed = make_table(session)
    token, done = opened.edit_token, closed.edit_token
    pages = {
        "table": get(client, f"/t/{token}"),
        "view": get(client, f"/t/{opened.view_token}"),
        "closed table": get(client, f"/t/{done}"),
        "hand list": get(client, f"/t/{token}/manos"),
        "hand form": get(client, f"/t/{token}/mano"),
        "ajuste form": get(client, f"/t/{token}/ajuste"),
        "ajuste edit": get(client, f"/t/{token}/ajuste/4"),
        "cambio form": get(client, f"/t/{token}/cambio"),
        "cambio edit": get(client, f"/t/{token}/cambio/6"),
        "favor form": get(client, f"/t/{token}/favor"),
        "closing": get(client, f"/t/{token}/cerrar"),
        "sheet": get(client, f"/tables/{token}/sheet"),
        "closed sheet": get(client, f"/tables/{done}/sheet"),
    }
    for n in range(1, len(session["hands"]) + 1):
        pages[f"hand {n}"] = get(client, f"/t/{done}/mano/{n}")
    pena = client.post("/api/penas", json={"name": "Thursday club", "people": ["Ana", "Benito", "Carmen", "Diego"]})
    assert pena.status_code == 201, pena.get_json()
    pena_token = pena.get_json()["edit_token"]
    attached = client.post(f"/api/penas/{pena_token}/tables", json={"session": session})
    assert attached.status_code == 201, attached.get_json()
    pages["peña"] = get(client, f"/p/{pena_token}")
    person = client.get(f"/api/penas/{pena_token}").get_json()["people"][0]["id"]
    pages["peña person"] = get(client, f"/p/{pena_token}/personas/{person}")
    return pages


def test_an_english_evening_and_its_sheet_say_nothing_in_spanish(client: FlaskClient, make_table: Any) -> None:
    client.set_cookie("lang", "en")
    pages = crawl(client, make_table)
    found = {name: spanish_in(page) for name, page in pages.items()}
    found = {name: lines for name, lines in found.items() if lines}
    assert not found, "\n".join(f"{name}:\n  " + "\n  ".join(lines) for name, lines in found.items())
    assert "2 Dec 2026" in pages["sheet"]  # the evening's date, with the month's name


def test_plural_puestas_in_english_read_reserved_puestas(client: FlaskClient, make_table: Any) -> None:
    client.set_cookie("lang", "en")
    table = make_table(evening())
    sheet = get(client, f"/tables/{table.edit_token}/sheet")
    lines = " ".join(visible_lines(sheet))
    assert "puesta reservada" not in lines and "puestas reservadas" not in lines
    assert "reserved puesta" in lines


def visible_lines(page: str) -> list[str]:
    reader = Visible()
    reader.feed(page)
    return reader.lines


def test_each_language_names_the_languages_in_its_own_words(client: FlaskClient, make_table: Any) -> None:
    table = make_table(evening())  # the sheet prints in English
    client.set_cookie("lang", "es")
    spanish = get(client, f"/t/{table.edit_token}")
    assert "en English" not in spanish and "en inglés" in spanish
    table_es = make_table(dict(evening(), language="es"))
    client.set_cookie("lang", "en")
    english = get(client, f"/t/{table_es.edit_token}")
    assert "in Español" not in english and "in Spanish" in english
    sheet = get(client, f"/tables/{table_es.edit_token}/sheet")  # printed in Spanish, read by an English keeper
    assert "02/12/2026" in sheet  # Spanish dates stay dd/mm/aaaa
    nav = sheet[sheet.index("<nav") : sheet.index("</nav>")]
    assert 'lang="en"' in nav and "Volver" not in nav and "Para imprimir" not in nav, nav
    assert not spanish_in(nav), spanish_in(nav)
