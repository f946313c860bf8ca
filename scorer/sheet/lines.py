"""The PDF's hand table as fixed-width text lines, in bands of ten, and the PDF's cartulina.

WeasyPrint lays out every table cell and every nested box separately, which made a 200-hand sheet
take seconds: the PDF prints the hands as monospaced lines (the HTML page keeps the real table) and
draws only the latest crossed-out puestas (bench/sheet.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from scorer.words import translate as _

from .text import FSI, PDI, iso, red_suits


def _fit(text: str, width: int, right: bool = False, isolate: bool = False) -> str:
    """Pad or cut a cell of the monospaced hand table to ``width`` characters (isolated: a name, D8)."""
    text = " ".join(text.split())
    visible = len(text) - text.count(FSI) - text.count(PDI)  # the marks take no room
    if isolate or visible > width:
        text = text.replace(FSI, "").replace(PDI, "")
        visible = len(text)
    if visible > width:
        text = text[: width - 1] + "…"
        visible = width
    pad = " " * (width - visible)
    if isolate and text:
        text = iso(text)
    return pad + text if right else text + pad


def _played_cells(r: Mapping[str, Any]) -> tuple[list[str], str]:
    """A played hand's cells from the Jugador to the result, and its red suit symbol ("" if none)."""
    suit = r.get("suit") or {}
    lance = f"{r['lance']} {suit.get('symbol') or suit.get('name', '')}".strip()
    cells = [
        _fit(r["jugador"], 8, isolate=True),
        _fit(lance, 12),
        _fit(str(r["extras"]), 8),
        _fit(str(r["tricks"]), 5),
        _fit(r["result_word"], 22),
    ]
    return cells, suit.get("symbol", "") if suit.get("red") else ""


def _line(r: Mapping[str, Any], n_w: int, seat_w: int, pot_w: int) -> dict[str, Any]:
    """One row as a text line (any other row than a played hand says its text across the middle columns)."""
    middle, red = _played_cells(r) if r["kind"] == "played" else ([_fit(r["text"], 8 + 12 + 8 + 5 + 22 + 4)], "")
    cells = [_fit(str(r["n"]), n_w, True), _fit(r["dealer"], 8, isolate=True), *middle]
    cells += [_fit(d["text"], seat_w, True) for d in r["deltas"]]
    cells += [_fit(str(p), pot_w, True) for p in r["pots"]]
    text = " ".join(cells)
    return {
        "text": text,
        "html": _red_suit(text, cells, red) if red else red_suits(text),
        "kind": r["kind"],
        "note": r.get("note") or "",
    }


def hand_lines(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The hand-by-hand table as fixed-width text lines, for the PDF.

    WeasyPrint lays out every table cell separately, which made a 200-hand sheet take
    seconds; one line of monospaced text per hand keeps the columns aligned at a
    fraction of the cost (bench/sheet.py). The HTML page keeps the real table.
    """
    seat_w = max(6, min(9, max((len(n) for n in sheet["seat_names"]), default=6)))
    pot_w = 7
    n_w = max([3, *(len(str(r["n"])) for r in sheet["hands"])])  # hand 1,000 and on keep their number whole
    columns = [
        (_("Nº"), n_w, True, False),
        (_("Da"), 8, False, False),
        (_("Jugador"), 8, False, False),
        (_("Lance"), 12, False, False),
        (sheet["extras_header"], 8, False, False),
        (_("Bazas"), 5, False, False),
        (_("Resultado"), 22, False, False),
    ]
    columns += [(name, seat_w, True, True) for name in sheet["seat_names"]]
    columns += [(h, pot_w, True, False) for h in sheet["pot_headers"]]
    header = " ".join(_fit(title, width, right, isolate) for title, width, right, isolate in columns)
    lines = [_line(r, n_w, seat_w, pot_w) for r in sheet["hands"]]
    return {"header": header, "lines": lines, "fit": page_fit(len(header) - header.count(FSI) - header.count(PDI))}


def _red_suit(text: str, cells: Sequence[str], symbol: str) -> Markup:
    """A hand line as HTML: its lance's ♥ or ♦ red as on screen (one inline box, only on red hands)."""
    if symbol not in cells[3]:
        return Markup.escape(text)
    start = len(" ".join(cells[:3])) + 1 + cells[3].index(symbol)  # the lance cell's symbol, not a name's
    red = Markup('<span class="suit red">{}</span>').format(symbol)
    return Markup.escape(text[:start]) + red + Markup.escape(text[start + len(symbol) :])


# characters of the hand lines' 6.9 pt DejaVu Sans Mono (0.602 em each) across A4's 182 mm, upright
# and turned (269 mm); a wider table (many people sat down, R33) also takes a smaller font (sheet.css)
PAGE_FITS = ((124, ""), (183, "wide"), (226, "wider"))


def page_fit(chars: int) -> str:
    """The class of the hands section whose page and font hold a hand line of ``chars`` characters."""
    return next((fit for most, fit in PAGE_FITS if chars <= most), "widest")


BAND = 10  # hand lines per block of the PDF's hand table


def banded(table: dict[str, Any]) -> dict[str, Any]:
    return {**table, "lines": _bands(table["lines"])}


def _groups(lines: Sequence[Mapping[str, str]]) -> list[list[Mapping[str, str]]]:
    """The hand lines in bands of up to BAND lines (shaded in turn, as a ledger's rows).

    A band ends after a line with a note (the note follows it); a closing stands alone (bold).
    """
    groups: list[list[Mapping[str, str]]] = []
    current: list[Mapping[str, str]] = []
    for line in lines:
        if line["kind"] == "close":
            if current:
                groups.append(current)
            groups.append([line])
            current = []
            continue
        current.append(line)
        if len(current) == BAND or line["note"]:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def _bands(lines: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The bands of :func:`_groups`, one block of text each, for WeasyPrint's layout of the hand lines.

    WeasyPrint's cost grows with the number of boxes: one block per 10 hands, whose only inline boxes
    are the red suits (♥ ♦ as on screen), lays out a 5,000-hand sheet in well under half the
    time of one block per hand.
    """
    return [
        {
            "text": Markup("\n").join(x.get("html") or Markup.escape(x["text"]) for x in group),
            "kind": "close" if group[-1]["kind"] == "close" else "band",
            "note": group[-1]["note"],
        }
        for group in _groups(lines)
    ]


PDF_CROSSED_MARKS = 16  # crossed-out puestas drawn per box in the PDF; older ones are listed as text


def pdf_cartulina(boxes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cartulina of the PDF: every open puesta drawn, and the latest crossed ones; older ones as one line.

    Each drawn puesta is a few nested boxes for WeasyPrint (~10 ms each): a long night's
    hundreds of collected puestas are written as text instead, still every one of them.
    """
    return [_pdf_box(box) for box in boxes]


def _pdf_box(box: dict[str, Any]) -> dict[str, Any]:
    """One maker's box: its open puestas and latest crossed ones drawn, the older ones in ``older`` as text."""
    puestas = box["puestas"]
    crossed = [i for i, p in enumerate(puestas) if p["state"] not in ("pendiente", "en_plato")]
    older = set(crossed[: max(0, len(crossed) - PDF_CROSSED_MARKS)])
    text = " · ".join(
        _("%(amount)s (m. %(n)s, %(state)s)", amount=p["amount"], n=p["hand"], state=p["state_word"])
        for i, p in enumerate(puestas)
        if i in older
    )
    return {**box, "puestas": [p for i, p in enumerate(puestas) if i not in older], "older": text}
