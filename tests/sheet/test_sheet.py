"""The session sheet: what it shows (context, HTML, PDF) and its routes."""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Callable
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from scorer.engine import settle
from scorer.sheet.build import render_html, render_pdf
from scorer.sheet.context import sheet_context
from scorer.web.tables import present as table_present
from tests.conftest import EXAMPLES, load_json
from tests.web.conftest import app_config, make_app, sample_session  # noqa: F401  (fixtures)

HOSTILE = ["=cmd|' /C calc'!A0", "<b>Ana</b>", "Carmen", "Diego"]


def walkthrough(**keys: Any) -> dict[str, Any]:
    session: dict[str, Any] = load_json(EXAMPLES / "walkthrough.json")
    session.update(
        {"name": "Jueves en el Casino", "date": "2025-03-14", "place": "Oviedo", "keeper": 4, "tanto_value": "0.10"}
    )
    session.update(currency="€", **keys)
    return session


def expected_ledger(name: str) -> dict[str, Any]:
    """The ledger the shared examples give (written by hand, not by our engine)."""
    ledger: dict[str, Any] = load_json(EXAMPLES / f"{name}.ledger.json")
    return ledger


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    return re.sub(r"[\s\u00a0]+", " ", text)


def signed(value: int) -> str:
    return ("+" if value > 0 else "\u2212" if value < 0 else "") + str(abs(value))


class TextAndTags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_html(html: str) -> TextAndTags:
    parser = TextAndTags()
    parser.feed(html)
    return parser


# ---------------------------------------------------------------- the PDF


@pytest.fixture(scope="module")
def walkthrough_pdf_text() -> str:
    session = walkthrough()
    return pdf_text(render_pdf(session, settle(session)))


def test_pdf_shows_players_and_final_balances(walkthrough_pdf_text: str) -> None:
    text = walkthrough_pdf_text
    ledger = expected_ledger("walkthrough")
    for name in ledger["players"].values():
        assert name in text
    for seat, balance in ledger["balances"].items():
        name = ledger["players"][seat]
        # the final balances table: name, tantos, money (tanto at 0,10 €)
        money = f"{abs(Decimal(balance) / 10):.2f}".replace(".", ",")
        assert re.search(rf"{name} {re.escape(signed(balance))} {re.escape(signed(balance)[0])}{money} €", text), name
    assert "Jueves en el Casino" in text
    assert "14/03/2025" in text  # dates as dd/mm/aaaa, as on the pages


def test_pdf_has_page_numbers_title_and_suits(walkthrough_pdf_text: str) -> None:
    text = walkthrough_pdf_text
    pages = int(re.findall(r"Página 1 de (\d+)", text)[0])
    assert pages >= 1
    for page in range(1, pages + 1):
        assert f"Página {page} de {pages}" in text
    assert text.count("Jueves en el Casino") >= pages  # the page header repeats the table's name
    for symbol in "\u2666\u2665\u2660\u2663":
        assert symbol in text
    assert "lleva la cartulina" in text


def test_hostile_names_are_plain_text_in_pdf_and_html() -> None:
    session = walkthrough(players=HOSTILE)
    ledger = settle(session)
    text = pdf_text(render_pdf(session, ledger))
    for name in HOSTILE[:2]:
        assert name in text
    html = render_html(session, ledger)
    parsed = parse_html(html)
    assert "b" not in parsed.tags
    assert "&lt;b&gt;Ana&lt;/b&gt;" in html
    joined = "".join(parsed.text)
    for name in HOSTILE[:2]:
        assert name in joined


def test_all_fonts_are_embedded_dejavu() -> None:
    session = walkthrough(name="Peña de Añón: 5 €")
    reader = PdfReader(io.BytesIO(render_pdf(session, settle(session))))
    fonts: set[str] = set()
    for page in reader.pages:
        resources = page["/Resources"]
        for font in resources.get("/Font", {}).values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert fonts
    assert all("DejaVu" in font for font in fonts), fonts
    assert "Peña de Añón: 5 €" in pdf_text(reader_bytes(reader))


def reader_bytes(reader: PdfReader) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter(clone_from=reader)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# ---------------------------------------------------------------- the context


def test_hand_rows_follow_the_ledger() -> None:
    session = walkthrough()
    ledger = expected_ledger("walkthrough")
    context = sheet_context(session, ledger)
    assert [r["n"] for r in context["hands"]] == [h["n"] for h in ledger["hands"]]
    previous = dict.fromkeys(ledger["players"], 0)
    for row, entry in zip(context["hands"], ledger["hands"], strict=True):
        changes = [entry["balances"][s] - previous[s] for s in sorted(previous, key=int)]
        assert [d["text"] for d in row["deltas"]] == [signed(c) if c else "" for c in changes]
        assert row["pots"][0].startswith(str(entry["plato"]["amount"]))
        assert row["dealer"] == ledger["players"][str(entry["dealer"])]
        previous = entry["balances"]
    hand3 = context["hands"][2]
    assert (hand3["jugador"], hand3["lance"], hand3["suit"]["symbol"], hand3["tricks"]) == (
        "Diego",
        "solo",
        "♣",
        "5-0-0",  # R13: primeras, and he stops
    )
    assert context["hands"][9]["kind"] == "pass"


def test_open_table_says_what_is_still_on_the_table() -> None:
    ledger = expected_ledger("walkthrough")  # not closed: plato 75 with Ana's puesta, Diego's 60 pending
    context = sheet_context(walkthrough(), ledger)
    assert not context["closed"]
    on_table = visible(" ".join(context["settle"]["on_table"]))
    assert f"{ledger['plato']['amount']} tantos" in on_table
    pending = [p for p in ledger["cartulina"] if p["state"] == "pendiente"]
    assert pending
    for p in pending:
        assert f"{ledger['players'][str(p['owner'])]} {p['amount']}" in on_table
    assert any("solo los saldos" in s for s in context["settle"]["coverage"])
    # the payments square the balances, the plato's tantos staying on the table
    net = {name: 0 for name in ledger["players"].values()}
    to_pot = 0
    for p in context["settle"]["payments"]:
        amount = int(p["tantos"])
        net[p["payer"]] -= amount
        if p["to_pot"]:
            to_pot += amount
        else:
            net[p["payee"]] += amount
    for seat, balance in ledger["balances"].items():
        assert net[ledger["players"][seat]] == balance
    assert to_pot == ledger["plato"]["amount"]


def test_closed_table_says_so_and_squares_everything() -> None:
    session = walkthrough()
    session["hands"].append({"close": "devolver"})
    ledger = settle(session)
    context = sheet_context(session, ledger)
    assert context["closed"]
    assert ledger["plato"]["amount"] == 0
    assert not any(p["to_pot"] for p in context["settle"]["payments"])
    assert len(context["settle"]["payments"]) <= len(ledger["players"]) - 1
    net = dict.fromkeys(ledger["players"].values(), 0)
    for p in context["settle"]["payments"]:
        net[p["payer"]] -= int(p["tantos"])
        net[p["payee"]] += int(p["tantos"])
    assert all(net[ledger["players"][s]] == b for s, b in ledger["balances"].items())
    states = {p["state"] for box in context["cartulina"] for p in box["puestas"]}
    assert {"anulada", "devuelta", "cobrada"} <= states
    html = render_html(session, ledger)
    text = " ".join(parse_html(html).text)
    assert "Mesa cerrada" in text
    assert "se cerró en la mano 12" in text
    assert "anulada" in text and "devuelta" in text


@pytest.mark.parametrize("name", ["pozo_viuda_table", "ombre_three", "bandos_game"])
def test_other_rule_sets_degrade(name: str) -> None:
    session = load_json(EXAMPLES / f"{name}.json")
    ledger = expected_ledger(name)
    context = sheet_context(session, ledger)
    assert "cartulina" not in context
    assert "Plato" not in context["pot_headers"]
    assert len(context["hands"]) == len(ledger["hands"])
    html = render_html(session, ledger)
    text = " ".join(parse_html(html).text)
    for player in ledger["players"].values():
        assert player in text
    if "balances" in ledger:
        assert [b["tantos"] for b in context["balances"]] == [
            ledger["balances"][s] for s in sorted(ledger["balances"], key=int)
        ]
    else:
        assert "balances" not in context and "settle" not in context
        assert [s["tantos"] for s in context["scores"]] == [
            ledger["scores"][s] for s in sorted(ledger["scores"], key=int)
        ]
        assert f"Gana el equipo {ledger['winner']}" in text  # as the pages say it
    if ledger["hands"][-1]["result"] == "cierre":
        assert context["closed"]
        assert "Mesa cerrada" in text


def test_keeper_and_missing_app_keys() -> None:
    base = load_json(EXAMPLES / "three_players.json")
    ledger = settle(base)
    bare = sheet_context(base, ledger)
    assert bare["keeper"] is None and bare["tanto_value"] == "" and bare["title"]
    assert all(b["money_text"] == "" for b in bare["balances"])
    by_name = sheet_context({**base, "keeper": base["players"][1]}, ledger)
    assert by_name["keeper"] == base["players"][1]
    nonsense = sheet_context({**base, "keeper": 9, "tanto_value": "abc", "date": "el jueves"}, ledger)
    assert nonsense["keeper"] is None and nonsense["tanto_value"] == "" and nonsense["date"] == "el jueves"


def test_the_sheet_and_the_pages_say_the_same() -> None:
    """One vocabulary (scorer.words): balances, money and result words as the table page shows them."""
    from scorer.games import views as present

    session = {**load_json(EXAMPLES / "walkthrough.json"), "tanto_value": "0.05", "currency": "EUR"}
    ledger = settle(session)
    sheet = sheet_context(session, ledger)
    page = table_present.table_view(session, ledger)
    assert [(b["name"], b["tantos_text"], b["money_text"]) for b in sheet["balances"]] == [
        (b.name, b.text, b.money) for b in page.balances
    ]
    assert any("\u00a0€" in b["money_text"] for b in sheet["balances"])  # EUR shown as its sign, on both
    for row, entry in zip(sheet["hands"], ledger["hands"], strict=True):
        if entry["result"] != "codillo":  # the sheet names who gave the codillo
            assert row["result_word"] == present.result_words(entry["result"]), row


def test_empty_session_renders() -> None:
    session = {"format": "tresillo-session/1", "players": ["Ana", "Benito", "Carmen"], "hands": []}
    html = render_html(session, settle(session))
    assert "Todavía no se ha jugado ninguna mano" in html


# ---------------------------------------------------------------- the routes


@pytest.fixture
def sheet_app(make_app: Callable[..., Flask]) -> Flask:  # noqa: F811
    app = make_app(WTF_CSRF_ENABLED=False)
    from scorer.web.tables.sheet import bp

    if "sheet" not in app.blueprints:  # until create_app registers it
        app.register_blueprint(bp)
    return app


def _table(app: Flask, session: dict[str, Any]) -> tuple[str, str]:
    from scorer import store

    with app.app_context():
        table = store.create_table(copy.deepcopy(session))
        return table.edit_token, table.view_token


def test_routes_serve_pdf_and_html_for_both_tokens(sheet_app: Flask) -> None:
    session = sample_session(players=HOSTILE, keeper=2)
    edit, view = _table(sheet_app, session)
    client: FlaskClient = sheet_app.test_client()
    ledger = settle(session)
    for token in (edit, view):
        response = client.get(f"/tables/{token}/sheet.pdf")
        assert response.status_code == 200
        assert response.mimetype == "application/pdf"
        assert response.data.startswith(b"%PDF")
        text = pdf_text(response.data)
        for seat, name in ledger["players"].items():
            assert name in text
            assert signed(ledger["balances"][seat]) in text
        page = client.get(f"/tables/{token}/sheet")
        assert page.status_code == 200 and page.mimetype == "text/html"
        html = page.get_data(as_text=True)
        assert "<style" not in html and "style=" not in html  # the app's CSP forbids inline styles
        assert "&lt;b&gt;Ana&lt;/b&gt;" in html and "<b>" not in html
        assert f"/tables/{token}/sheet.pdf" in html
        css_href = re.search(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert css_href is not None
        css = client.get(css_href.group(1))
        assert css.status_code == 200 and css.mimetype == "text/css" and b"@page" in css.data


def test_routes_404_for_unknown_token(sheet_app: Flask) -> None:
    client = sheet_app.test_client()
    assert client.get("/tables/no-such-token/sheet.pdf").status_code == 404
    assert client.get("/tables/no-such-token/sheet").status_code == 404


def test_route_of_a_closed_table(sheet_app: Flask) -> None:
    from scorer import store

    edit, view = _table(sheet_app, sample_session())
    with sheet_app.app_context():
        store.close_table(store.require_edit(edit))
    response = sheet_app.test_client().get(f"/tables/{view}/sheet")
    text = " ".join(parse_html(response.get_data(as_text=True)).text)
    assert "Mesa cerrada" in text


def visible(text: str) -> str:
    """Text without the zero-width marks that isolate names (FSI, PDI: D8)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def test_examples_have_not_changed_shape() -> None:
    # the sheet's tests read these expected ledgers directly
    assert json.loads((EXAMPLES / "walkthrough.ledger.json").read_text())["plato"]["amount"] > 0


def test_pdf_hand_lines_keep_columns_aligned() -> None:
    """The PDF's monospaced hand table: one line per hand, every line as wide as the header."""
    from scorer.sheet.lines import hand_lines

    session = load_json(EXAMPLES / "walkthrough.json")
    session["players"][1] = "Benito Pérez de la Fuente"  # longer than its column: cut, not spilled
    context = sheet_context(session, settle(session))
    table = hand_lines(context)
    assert len(table["lines"]) == len(session["hands"])
    widths = {len(visible(line["text"])) for line in table["lines"]}
    assert widths == {len(visible(table["header"]))}
    assert "Benito P…" in table["header"] or "Benito …" in table["header"]
    # hand 3: Diego's solo of bastos won, +215 for Diego in the last seat column
    third = visible(table["lines"][2]["text"])
    assert "solo ♣" in third and third.split()[-2] == "+215"


# ------------------------------------------------------- a real evening (R30, R32, R33)


def test_real_evening_sheet_is_by_person_in_pdf_and_html() -> None:
    """Ajuste and change of player are lines of their own with their note; balances and settle-up by person."""
    session = load_json(EXAMPLES / "real_evening.json")
    session["tanto_value"] = "0.10"
    ledger = expected_ledger("real_evening")
    people = ledger["people"]
    html = " ".join(parse_html(render_html(session, ledger)).text)
    text = pdf_text(render_pdf(session, ledger))
    for shown in (re.sub(r"[\s\u00a0]+", " ", html), text):
        assert "Benito paga 25 al plato" in shown and "renuncio de Benito" in shown  # R32 with its note
        assert "Diego deja el asiento 4; se sienta Elena" in shown and "Diego se va" in shown  # R33
        assert "bola cortada" in shown  # R19, named in the hand line
        assert "se fue" in shown  # Diego left and is still settled
        for name, balance in people.items():
            assert name in shown
            assert signed(balance) in shown
    context = sheet_context(session, ledger)
    paid = dict(people)
    for payment in context["settle"]["payments"]:
        paid[payment["payer"]] += int(payment["tantos"])
        paid[payment["payee"]] -= int(payment["tantos"])
    assert set(paid.values()) == {0}  # the fewest payments square every person, Diego included
