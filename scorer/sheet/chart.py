"""A line chart of every player's balance after each hand, as an SVG string (no JavaScript).

Only presentation attributes are used (no ``style``), so the SVG can be inlined in a
page served under a strict Content-Security-Policy. Every name is XML-escaped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape, quoteattr

from scorer.limits import NAME_MAX

# Colour and dash pattern per line: the dashes keep lines apart on a black-and-white print.
PALETTE: tuple[tuple[str, str], ...] = (
    ("#1f5fbf", ""),
    ("#c0392b", "6 3"),
    ("#1e8449", "2 2.5"),
    ("#7d3c98", "8 3 2 3"),
    ("#b9770e", "12 4"),
    ("#17808a", "4 2 1 2 1 2"),
    ("#5d6d7e", "1 3"),
    ("#a04000", "10 2 2 2"),
)

WIDTH = 720
HEIGHT = 300
LEFT = 58
RIGHT = 14
TOP = 12
LEGEND_ROW = 18
CHAR_WIDTH = 6.6  # rough width of a legend character at font-size 11


def nice_step(span: float, ticks: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` intervals over ``span``."""
    if span <= 0:
        return 1
    raw = span / max(ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, int(factor * power))
    return max(1, int(10 * power))  # pragma: no cover - the loop always returns


def value_axis(series: Sequence[Sequence[int]], ticks: int) -> tuple[int, int, int]:
    """The y axis of balance lines: lowest and highest tick (zero always in view) and the round step
    between ticks, about ``ticks`` of them (the sheet's chart and the peña's)."""
    values = [v for s in series for v in s] or [0]
    low, high = min(0, *values), max(0, *values)
    if low == high:
        high = low + 10
    step = nice_step(high - low, ticks)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def legend_rows(
    labels: Sequence[str], start: float, end: float, width: Callable[[str], float]
) -> tuple[list[tuple[float, int, int, str]], int]:
    """The legend laid out left to right from ``start``, a new row where the next item would pass ``end``:
    (x, row, index, label) per label ("width" is an item's, its swatch included), and the last row."""
    legend: list[tuple[float, int, int, str]] = []
    x, row = float(start), 0
    for i, label in enumerate(labels):
        item = width(label)
        if x + item > end and x > start:
            x, row = float(start), row + 1
        legend.append((x, row, i, label))
        x += item
    return legend, row


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _label(value: int) -> str:
    sign = "\u2212" if value < 0 else ""
    return f"{sign}{abs(value):,}".replace(",", ".")


def _short(name: str, limit: int = NAME_MAX) -> str:
    """A legend's name: whole (a name is at most NAME_MAX characters: never "Benito Pérez (B…")."""
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


def balance_chart(names: Sequence[str], series: Sequence[Sequence[int]], *, title: str = "Saldos") -> str:
    """SVG of one polyline per player; ``series[i][k]`` is player i's balance after hand k (k = 0: start)."""
    if len(names) != len(series):
        raise ValueError("one series per name")
    points = max((len(s) for s in series), default=0)
    low, high, step = value_axis(series, 6)

    legend, row = legend_rows(
        [_short(name) for name in names], LEFT, WIDTH - RIGHT, lambda label: 30 + CHAR_WIDTH * len(label) + 18
    )
    rows = row + 1 if names else 0
    bottom = 30 + max(rows, 1) * LEGEND_ROW
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - bottom
    last = max(points - 1, 1)

    def sx(k: float) -> float:
        return LEFT + plot_w * k / last

    def sy(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label={quoteattr(title)} '
        'font-family="DejaVu Sans, sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
    ]
    # horizontal grid and y labels
    out.append('<g class="grid" stroke="#d5d8dc" stroke-width="0.6">')
    for v in range(int(low), int(high) + 1, step):
        out.append(f'<line x1="{LEFT}" y1="{_fmt(sy(v))}" x2="{WIDTH - RIGHT}" y2="{_fmt(sy(v))}"/>')
    out.append("</g>")
    out.append('<g class="y-labels" fill="#444" text-anchor="end">')
    for v in range(int(low), int(high) + 1, step):
        out.append(f'<text x="{LEFT - 6}" y="{_fmt(sy(v) + 4)}">{_label(v)}</text>')
    out.append("</g>")
    out.append(
        f'<line class="zero" x1="{LEFT}" y1="{_fmt(sy(0))}" x2="{WIDTH - RIGHT}" y2="{_fmt(sy(0))}" '
        'stroke="#555" stroke-width="1"/>'
    )
    # x ticks: hands
    xstep = nice_step(last, 10)
    out.append('<g class="x-labels" fill="#444" text-anchor="middle">')
    for k in range(0, points, xstep):
        out.append(f'<text x="{_fmt(sx(k))}" y="{_fmt(TOP + plot_h + 15)}">{k}</text>')
    out.append("</g>")
    out.append(
        f'<text class="x-title" x="{WIDTH - RIGHT}" y="{_fmt(TOP + plot_h + 28)}" fill="#444" '
        'text-anchor="end">mano</text>'
    )
    out.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{_fmt(plot_h)}" fill="none" '
        'stroke="#aab" stroke-width="0.6"/>'
    )
    # one polyline per player
    for i, (name, values_i) in enumerate(zip(names, series, strict=True)):
        colour, dash = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{_fmt(sx(k))},{_fmt(sy(v))}" for k, v in _decimated(values_i, plot_w))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<polyline class="player" data-seat="{i + 1}" points="{coords}" fill="none" stroke="{colour}" '
            f'stroke-width="1.8" stroke-linejoin="round"{dash_attr}><title>{escape(name)}</title></polyline>'
        )
    # legend
    out.append('<g class="legend" fill="#222">')
    base = TOP + plot_h + 44
    for lx, lrow, i, label in legend:
        colour, dash = PALETTE[i % len(PALETTE)]
        ly = base + lrow * LEGEND_ROW
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 24)}" y2="{_fmt(ly - 4)}" '
            f'stroke="{colour}" stroke-width="2.2"{dash_attr}/>'
        )
        out.append(f'<text x="{_fmt(lx + 30)}" y="{_fmt(ly)}">{escape(label)}</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def _decimated(values: Sequence[int], width: float) -> list[tuple[int, int]]:
    """The (hand, value) points of a line, at most four per unit of width: first, lowest, highest, last.

    A long night has more hands than the chart has room for; drawing every one only
    costs time (thousands of points per line in the PDF). Keeping each column's extremes
    draws the same picture.
    """
    count = len(values)
    columns = max(1, int(width))
    if count <= 2 * columns:
        return list(enumerate(values))
    points: list[tuple[int, int]] = []
    per = count / columns
    for c in range(columns):
        start, end = int(c * per), min(count, int((c + 1) * per))
        if start >= end:
            continue
        chunk = range(start, end)
        low = min(chunk, key=values.__getitem__)
        high = max(chunk, key=values.__getitem__)
        for k in sorted({start, low, high, end - 1}):
            points.append((k, values[k]))
    return points
