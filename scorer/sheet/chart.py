"""A line chart of every player's balance after each hand, as an SVG string (no JavaScript).

Only presentation attributes are used (no ``style``), so the SVG can be inlined in a
page served under a strict Content-Security-Policy. Every name is XML-escaped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Plot:
    """Where a chart's points go: x from ``left`` across ``width`` for points 0 … ``last``, y from
    ``top`` down ``height`` for values ``high`` … ``low`` (the sheet's chart and the peña's)."""

    left: float
    top: float
    width: float
    height: float
    last: int
    low: float
    high: float

    def x(self, k: float) -> float:
        return self.left + self.width * k / self.last

    def y(self, v: float) -> float:
        return self.top + self.height * (self.high - v) / (self.high - self.low)


def _grid(plot: Plot, ticks: range) -> list[str]:
    """The horizontal grid, the y labels, the zero line and the frame."""
    right = plot.left + plot.width
    out = ['<g class="grid" stroke="#d5d8dc" stroke-width="0.6">']
    out += [f'<line x1="{LEFT}" y1="{_fmt(plot.y(v))}" x2="{right}" y2="{_fmt(plot.y(v))}"/>' for v in ticks]
    out.append("</g>")
    out.append('<g class="y-labels" fill="#444" text-anchor="end">')
    out += [f'<text x="{LEFT - 6}" y="{_fmt(plot.y(v) + 4)}">{_label(v)}</text>' for v in ticks]
    out.append("</g>")
    out.append(
        f'<line class="zero" x1="{LEFT}" y1="{_fmt(plot.y(0))}" x2="{right}" y2="{_fmt(plot.y(0))}" '
        'stroke="#555" stroke-width="1"/>'
    )
    return out


def _hands_axis(plot: Plot, points: int) -> list[str]:
    """The x labels (hands, about ten of them), the axis' word and the plot's frame."""
    bottom = plot.top + plot.height
    out = ['<g class="x-labels" fill="#444" text-anchor="middle">']
    out += [
        f'<text x="{_fmt(plot.x(k))}" y="{_fmt(bottom + 15)}">{k}</text>'
        for k in range(0, points, nice_step(plot.last, 10))
    ]
    out.append("</g>")
    out.append(
        f'<text class="x-title" x="{WIDTH - RIGHT}" y="{_fmt(bottom + 28)}" fill="#444" text-anchor="end">mano</text>'
    )
    out.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{plot.width}" height="{_fmt(plot.height)}" fill="none" '
        'stroke="#aab" stroke-width="0.6"/>'
    )
    return out


def _dash(dash: str) -> str:
    return f' stroke-dasharray="{dash}"' if dash else ""


def _player_lines(plot: Plot, names: Sequence[str], series: Sequence[Sequence[int]]) -> list[str]:
    """One polyline per player, in the palette's colour and dash (at most four points per unit of width)."""
    out = []
    for i, (name, values_i) in enumerate(zip(names, series, strict=True)):
        colour, dash = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{_fmt(plot.x(k))},{_fmt(plot.y(v))}" for k, v in _decimated(values_i, plot.width))
        out.append(
            f'<polyline class="player" data-seat="{i + 1}" points="{coords}" fill="none" stroke="{colour}" '
            f'stroke-width="1.8" stroke-linejoin="round"{_dash(dash)}><title>{escape(name)}</title></polyline>'
        )
    return out


def _legend(legend: Sequence[tuple[float, int, int, str]], base: float) -> list[str]:
    out = ['<g class="legend" fill="#222">']
    for lx, lrow, i, label in legend:
        colour, dash = PALETTE[i % len(PALETTE)]
        ly = base + lrow * LEGEND_ROW
        out.append(
            f'<line x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 24)}" y2="{_fmt(ly - 4)}" '
            f'stroke="{colour}" stroke-width="2.2"{_dash(dash)}/>'
        )
        out.append(f'<text x="{_fmt(lx + 30)}" y="{_fmt(ly)}">{escape(label)}</text>')
    out.append("</g>")
    return out


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
    plot = Plot(LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - bottom, max(points - 1, 1), low, high)
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label={quoteattr(title)} '
            'font-family="DejaVu Sans, sans-serif" font-size="11">',
            f"<title>{escape(title)}</title>",
            *_grid(plot, range(int(low), int(high) + 1, step)),
            *_hands_axis(plot, points),
            *_player_lines(plot, names, series),
            *_legend(legend, TOP + plot.height + 44),
            "</svg>",
        ]
    )


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
