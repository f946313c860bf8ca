"""The PDF's hand pages: lines of monospaced text written straight into the PDF.

WeasyPrint lays out and draws text at about a millisecond a line (``bench/sheet.py``): a
5,000-hand sheet took 7–8 s, nearly all of it the hand table. That table is fixed-width
text in one font, so the sheet places it itself:

1. :func:`plan` cuts the lines into pages (a hand and its note never part; a closing stands
   alone, bold) and says how tall each page's block of lines is.
2. WeasyPrint lays out everything else as before — the summary pages, and on each hand page
   the title, the column header, the page's header and footer ("Página 9 de 80") — around an
   empty block of exactly that height, with an ``id`` whose position :meth:`Plan.placed` reads
   back from the laid-out pages (WeasyPrint's public ``Page.anchors``).
3. :meth:`Plan.finish`, WeasyPrint's ``finisher``, appends to each of those pages a content
   stream with the lines, the bands' shading and rules, in DejaVu Sans Mono (the same font the
   column header uses), embedded here as a subset with a ToUnicode map, so the text can still
   be searched and copied.

Only text that needs nothing but placing one glyph after another is drawn this way: a
right-to-left name, a combining mark, a wide character or one the font lacks sends the whole
table back to WeasyPrint's own layout (:func:`drawable`, used by ``build.render_pdf``), which
applies the bidi algorithm, shaping and font fallback. So does a plan WeasyPrint did not
place where it was meant to go (:meth:`Plan.placed`).
"""

from __future__ import annotations

import io
import pathlib
import shutil
import subprocess
import textwrap
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

MM = 72 / 25.4  # points per millimetre
PX = 0.75  # points per CSS pixel

# sheet.css: @page margins (top, right, bottom, left) and the hand lines' font sizes by page fit
PAGE_MARGINS = (18 * MM, 14 * MM, 16 * MM, 14 * MM)
A4 = (595.28, 841.89)
FONT_SIZES = {"": 6.9, "wide": 6.9, "wider": 5.6, "widest": 4.6}
LINE_HEIGHT = 1.35  # .hand-lines { line-height }
BAND_PADDING = 0.4 * MM  # .hl { padding: 0.4mm 0.5mm }, above and below a band
SIDE_PADDING = 0.5 * MM
NOTE_SCALE = 0.93  # a hand's note, a little smaller than its line
NOTE_INDENT = 22 * MM
# the section's top margin, then the h2: its line, margin, padding and rule
TITLE_HEIGHT = 6 * MM + 11.5 * 1.2 + 2.5 * MM + 1 * MM + 0.6
SLACK = 6.0  # points left unused at the foot of each hand page, for rounding

FAMILY = "DejaVu Sans Mono"
STYLES = ("regular", "bold")
_FC_PATTERNS = {"regular": f"{FAMILY}:style=Book", "bold": f"{FAMILY}:style=Bold"}
_FILES = {"regular": "DejaVuSansMono.ttf", "bold": "DejaVuSansMono-Bold.ttf"}
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/usr/X11R6/lib/X11/fonts", "/Library/Fonts")

# grey levels of sheet.css: text #111, a pass #555, a note #444, the shading #f4f4f4, the rules #ccc and #333
INK, PASS_INK, NOTE_INK, SHADE, RULE, STRONG_RULE = 0.067, 0.333, 0.267, 0.957, 0.8, 0.2
SLANT = 0.2  # an event (ajuste, cambio) is written slanted, as sheet.css's italic


# ---------------------------------------------------------------- the font


@dataclass(frozen=True)
class MonoFont:
    """One style of the monospaced font: its file, glyphs and metrics (1000 units to the em)."""

    path: str
    cmap: Mapping[int, int]  # code point -> glyph id
    advance: int  # every drawable glyph's width
    widths: Mapping[int, int]  # glyph id -> width, to refuse a glyph that is not one cell wide
    ascent: float
    descent: float
    bbox: tuple[int, int, int, int]
    cap_height: int

    def hex_of(self, char: str) -> str:
        return f"{self.cmap[ord(char)]:04x}"


def _font_file(style: str) -> str | None:
    """The file fontconfig gives for the family (as WeasyPrint would), else one found in the usual folders."""
    if shutil.which("fc-match"):
        try:
            found = subprocess.run(
                ["fc-match", "--format=%{file}", _FC_PATTERNS[style]],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            found = ""
        if pathlib.Path(found).name == _FILES[style]:
            return found
    for folder in _FONT_DIRS:
        for path in sorted(pathlib.Path(folder).rglob(_FILES[style])) if pathlib.Path(folder).is_dir() else ():
            return str(path)
    return None


@cache
def font(style: str) -> MonoFont | None:
    """The style's font, read once per process; None if it is not installed (then WeasyPrint draws)."""
    path = _font_file(style)
    if path is None:
        return None
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]  # WeasyPrint's own dependency

    try:
        with TTFont(path) as tt:
            units = tt["head"].unitsPerEm
            scale = 1000 / units
            hmtx = tt["hmtx"]
            names = tt.getBestCmap()  # code point -> glyph name
            ids = {glyph: tt.getGlyphID(glyph) for glyph in set(names.values())}
            cmap = {point: ids[glyph] for point, glyph in names.items()}
            widths = {ids[glyph]: round(hmtx[glyph][0] * scale) for glyph in ids}
            advance = widths[cmap[ord("0")]]
            head, hhea, os2 = tt["head"], tt["hhea"], tt["OS/2"]
            return MonoFont(
                path=path,
                cmap=cmap,
                advance=advance,
                widths=widths,
                ascent=hhea.ascent / units,
                descent=-hhea.descent / units,
                bbox=tuple(round(v * scale) for v in (head.xMin, head.yMin, head.xMax, head.yMax)),  # type: ignore[arg-type]
                cap_height=round(getattr(os2, "sCapHeight", 0) * scale) or round(0.73 * 1000),
            )
    except Exception:  # an unreadable font file: WeasyPrint draws instead
        return None


_REFUSED_BIDI = {"R", "AL", "AN", "NSM", "RLE", "LRE", "RLO", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI", "B", "S"}
ISOLATES = "\u2066\u2067\u2068\u2069"  # LRI RLI FSI PDI: nothing to isolate in left-to-right text


def _char_ok(char: str, fonts: Sequence[MonoFont]) -> bool:
    if char == " ":
        return True
    if not char.isprintable() or unicodedata.combining(char) or unicodedata.bidirectional(char) in _REFUSED_BIDI:
        return False
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return False
    for f in fonts:
        gid = f.cmap.get(ord(char))
        if gid is None or gid == 0 or f.widths.get(gid) != f.advance:
            return False
    return True


def drawable(texts: Iterable[str]) -> bool:
    """Whether these lines can be written glyph after glyph, left to right, in both styles of the font."""
    fonts = [f for f in (font(style) for style in STYLES) if f is not None]
    if len(fonts) != len(STYLES):
        return False
    chars: set[str] = set()
    for text in texts:
        chars.update(text)
    return all(_char_ok(c, fonts) for c in chars - set(ISOLATES))


def plain(text: str) -> str:
    """The line as drawn: the bidi isolates around names taken out (left-to-right text only, see drawable)."""
    return text.translate({ord(c): None for c in ISOLATES})


# ---------------------------------------------------------------- the pages


@dataclass
class Band:
    """Lines shaded (or not) together, as a ledger's rows; a note goes with the line before it."""

    lines: list[tuple[str, str]]  # (text, kind): kind a hand line's ("played", "pass", "close", "event") or "note"
    shaded: bool
    closing: bool = False

    def height(self, size: float) -> float:
        rows = sum(NOTE_SCALE if kind == "note" else 1.0 for _, kind in self.lines)
        return rows * size * LINE_HEIGHT + 2 * BAND_PADDING


@dataclass
class Page:
    anchor: str
    bands: list[Band] = field(default_factory=list)

    def height(self, size: float) -> float:
        return sum(b.height(size) for b in self.bands)


@dataclass
class Plan:
    """The hand pages: what goes on each, the fit (upright, turned, smaller) and the font size."""

    fit: str
    size: float
    pages: list[Page]
    placed_at: dict[str, tuple[int, float, float]] = field(default_factory=dict)  # anchor -> page index, x, y (pt)

    def css(self) -> str:
        """Each page's empty block, as tall as its lines (the HTML gives each its own class, no inline style)."""
        return "\n".join(
            f".hl-rows.hl-p{i} {{ height: {page.height(self.size):.3f}pt; }}" for i, page in enumerate(self.pages)
        )

    def placed(self, document: Any) -> bool:
        """Read where WeasyPrint put each block; False unless each is on its own page in order, within it."""
        where: dict[str, tuple[int, float, float]] = {}
        for index, page in enumerate(document.pages):
            for anchor, (x, y, *_end) in page.anchors.items():
                if anchor.startswith("hl-"):
                    where[anchor] = (index, x * PX, y * PX)
        indexes = []
        for i, p in enumerate(self.pages):
            if p.anchor not in where or f"{p.anchor}-head" not in where:
                return False
            index, _x, y = where[p.anchor]
            if where[f"{p.anchor}-head"][0] != index or (i == 0 and where.get("hl-title", (-1,))[0] != index):
                return False  # the column header (and the title) must head the page of lines
            page_height = document.pages[index].height * PX
            if y + p.height(self.size) > page_height - PAGE_MARGINS[2] + 0.5:
                return False  # it would run into the bottom margin
            if i and index != indexes[-1] + 1:
                return False
            indexes.append(index)
        self.placed_at = where
        return True

    def finish(self, document: Any, pdf: Any) -> None:
        """WeasyPrint's finisher: the fonts and one more content stream on each hand page."""
        import pydyf  # type: ignore[import-untyped]  # WeasyPrint's own dependency

        bands = [band for page in self.pages for band in page.bands]
        names = {style: f"CartulinaMono{style.title()}" for style in STYLES}
        # every page shares WeasyPrint's one Resources dictionary: add the fonts to its Font dictionary
        first_page = pdf.objects[int(pdf.pages["Kids"][0])]
        fonts = _deref(pdf, _deref(pdf, first_page["Resources"])["Font"])
        for style in STYLES:
            chars = {c for band in bands if band.closing == (style == "bold") for text, _ in band.lines for c in text}
            if chars:  # the bold one only for a closing line
                fonts[names[style]] = _embed(pdf, pydyf, font(style), frozenset(chars), names[style])
        kids = pdf.pages["Kids"][::3]
        save = pydyf.Stream([b"q"], compress=False)  # the drawing starts from the page's own state
        pdf.add_object(save)
        for page in self.pages:
            index, x, y = self.placed_at[page.anchor]
            pdf_page = pdf.objects[int(kids[index])]
            height = document.pages[index].height * PX
            width = document.pages[index].width * PX
            content = self._draw(page, x, height - y, width - PAGE_MARGINS[1] - x, names)
            stream = pydyf.Stream([content], compress=True)
            pdf.add_object(stream)
            pdf_page["Contents"] = pydyf.Array([save.reference, pdf_page["Contents"], stream.reference])

    def _draw(self, page: Page, left: float, top: float, width: float, names: Mapping[str, str]) -> bytes:
        """One page's lines (PDF user space: points, from the bottom left corner)."""
        size = self.size
        regular, bold = font("regular"), font("bold")
        assert regular is not None and bold is not None
        hexes = {"regular": {}, "bold": {}}  # type: dict[str, dict[str, str]]
        out = ["Q q"]  # back to the page's own coordinates (the q before WeasyPrint's stream)
        text_ops: list[str] = []
        y = top
        for band in page.bands:
            height = band.height(size)
            if band.shaded:
                out.append(f"{SHADE} g {left:.2f} {y - height:.2f} {width:.2f} {height:.2f} re f")
            if band.closing:
                out.append(f"{STRONG_RULE} G 0.8 w {left:.2f} {y:.2f} m {left + width:.2f} {y:.2f} l S")
            out.append(f"{RULE} G 0.3 w {left:.2f} {y - height:.2f} m {left + width:.2f} {y - height:.2f} l S")
            row_top = y - BAND_PADDING
            for text, kind in band.lines:
                row_size = size * NOTE_SCALE if kind == "note" else size
                pitch = row_size * LINE_HEIGHT
                half_leading = (pitch - row_size * (regular.ascent + regular.descent)) / 2
                baseline = row_top - half_leading - row_size * regular.ascent
                row_top -= pitch
                if not text.strip():
                    continue
                style = "bold" if band.closing else "regular"
                table = hexes[style]
                mono = bold if style == "bold" else regular
                for char in text:
                    if char not in table:
                        table[char] = mono.hex_of(char)
                glyphs = "".join(table[c] for c in text)
                ink = NOTE_INK if kind == "note" else PASS_INK if kind == "pass" else INK
                x = left + SIDE_PADDING + (NOTE_INDENT if kind == "note" else 0)
                slant = SLANT if kind == "event" else 0
                text_ops.append(
                    f"/{names[style]} {row_size:g} Tf {ink} g 1 0 {slant:g} 1 {x:.2f} {baseline:.2f} Tm <{glyphs}> Tj"
                )
            y -= height
        out.append("BT")
        out.extend(text_ops)
        out.append("ET")
        return "\n".join(out).encode("ascii")


def _deref(pdf: Any, value: Any) -> Any:
    """An object of the PDF from its reference (``b"12 0 R"``), or the object itself."""
    if isinstance(value, bytes | str):
        return pdf.objects[int(value.split()[0])]
    return value


@lru_cache(maxsize=16)
def _subset(path: str, chars: frozenset[str]) -> bytes:
    """The font file cut down to these characters, glyph ids kept (the text is written in glyph ids)."""
    from fontTools import subset  # type: ignore[import-untyped]
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    options = subset.Options()
    options.retain_gids = True
    options.notdef_outline = True
    options.hinting = False
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "kern", "FFTM"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in chars))
    out = io.BytesIO()
    with TTFont(path) as tt:
        subsetter.subset(tt)
        tt.save(out)
    return out.getvalue()


def _embed(pdf: Any, pydyf: Any, mono: MonoFont | None, chars: frozenset[str], name: str) -> bytes:
    """A Type 0 font (Identity-H, glyph ids) with the subset embedded and a ToUnicode map; its reference."""
    assert mono is not None
    drawn = sorted(chars | {" "})
    data = _subset(mono.path, frozenset(drawn))
    file_stream = pydyf.Stream([data], pydyf.Dictionary({"Length1": len(data)}), compress=True)
    pdf.add_object(file_stream)
    tag = "CRTLN" + name[-1].upper()  # a subset's name: six capitals and a plus
    base = f"/{tag}+DejaVuSansMono{'-Bold' if name.endswith('Bold') else ''}"
    descriptor = pydyf.Dictionary(
        {
            "Type": "/FontDescriptor",
            "FontName": base,
            "Flags": 1 + 32,  # fixed pitch, non-symbolic
            "FontBBox": pydyf.Array(mono.bbox),
            "ItalicAngle": 0,
            "Ascent": round(mono.ascent * 1000),
            "Descent": round(-mono.descent * 1000),
            "CapHeight": mono.cap_height,
            "StemV": 80,
            "FontFile2": file_stream.reference,
        }
    )
    pdf.add_object(descriptor)
    gids = sorted({mono.cmap[ord(c)] for c in drawn})
    widths = pydyf.Array()
    for gid in gids:
        widths.extend([gid, pydyf.Array([mono.widths.get(gid, mono.advance)])])
    cid = pydyf.Dictionary(
        {
            "Type": "/Font",
            "Subtype": "/CIDFontType2",
            "BaseFont": base,
            "CIDSystemInfo": pydyf.Dictionary(
                {"Registry": pydyf.String("Adobe"), "Ordering": pydyf.String("Identity"), "Supplement": 0}
            ),
            "FontDescriptor": descriptor.reference,
            "DW": mono.advance,
            "W": widths,
            "CIDToGIDMap": "/Identity",
        }
    )
    pdf.add_object(cid)
    to_unicode = pydyf.Stream([_cmap({mono.cmap[ord(c)]: c for c in drawn})], compress=True)
    pdf.add_object(to_unicode)
    type0 = pydyf.Dictionary(
        {
            "Type": "/Font",
            "Subtype": "/Type0",
            "BaseFont": base,
            "Encoding": "/Identity-H",
            "DescendantFonts": pydyf.Array([cid.reference]),
            "ToUnicode": to_unicode.reference,
        }
    )
    pdf.add_object(type0)
    reference: bytes = type0.reference
    return reference


def _cmap(chars: Mapping[int, str]) -> bytes:
    """A ToUnicode CMap from glyph ids to the characters they show."""
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def",
        "/CMapType 2 def",
        "1 begincodespacerange <0000> <ffff> endcodespacerange",
    ]
    items = sorted(chars.items())
    for start in range(0, len(items), 100):
        chunk = items[start : start + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        lines.extend(f"<{gid:04x}> <{char.encode('utf-16-be').hex()}>" for gid, char in chunk)
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines).encode("ascii")


def plan(fit: str, bands: Sequence[Sequence[Mapping[str, str]]]) -> Plan:
    """Cut the bands of hand lines into pages of the fit's size (upright or turned).

    ``bands`` are the lines grouped as the sheet shades them (``build._groups``): a band never
    breaks across pages, so a hand's note stays under it, and the column header heads each page.
    A note longer than the line is wrapped at spaces (a word longer than the line is cut).
    """
    size = FONT_SIZES[fit]
    page_w, page_h = A4 if not fit else (A4[1], A4[0])
    head = size * LINE_HEIGHT + 2 * BAND_PADDING + 0.8  # the column header WeasyPrint draws, with its rule
    room = page_h - PAGE_MARGINS[0] - PAGE_MARGINS[2] - head - SLACK
    note_room = page_w - PAGE_MARGINS[1] - PAGE_MARGINS[3] - 2 * SIDE_PADDING - NOTE_INDENT
    note_chars = max(10, int(note_room / (size * NOTE_SCALE * 0.602)))  # DejaVu Sans Mono: 0.602 em a character
    pages: list[Page] = [Page("hl-rows-0")]
    used = TITLE_HEIGHT  # the first hand page also has the section's title
    for i, group in enumerate(bands):
        rows: list[tuple[str, str]] = []
        for line in group:
            rows.append((plain(line["text"]), line["kind"]))
            note = " ".join(plain(line.get("note") or "").split())
            rows += [(part, "note") for part in textwrap.wrap(note, note_chars, break_on_hyphens=False)]
        band = Band(rows, shaded=i % 2 == 0, closing=any(line["kind"] == "close" for line in group))
        height = band.height(size)
        if pages[-1].bands and used + height > room:
            pages.append(Page(f"hl-rows-{len(pages)}"))
            used = 0.0
        pages[-1].bands.append(band)
        used += height
    return Plan(fit=fit, size=size, pages=pages)
