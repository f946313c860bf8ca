"""The peña's charts as SVG strings (no JavaScript, no ``style``: they fit the strict CSP and print).

- :func:`evenings_chart`: each person's running balance after each evening (as the sheet's chart of
  :mod:`scorer.sheet.chart`, drawn at a phone's width).
- :func:`mix_chart`: horizontal bars of counts (the contract mix: lances, trumps, outcomes).
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from scorer.sheet.chart import PALETTE, Plot, _fmt, _label, _short, legend_rows, nice_step, value_axis
from scorer.words import RED_SUITS, SUIT_SYMBOLS
from scorer.words import translate as _

RED_SYMBOLS = tuple(SUIT_SYMBOLS[suit] for suit in RED_SUITS)
RED_SUIT = "#c0392b"  # templates/sheet/sheet.css .suit.red

BAR_WIDTH = 360
BAR_ROW = 26
BAR_LABEL = 120


LINE_WIDTH = 360  # the phone's width in CSS pixels: the labels stay at their size
LINE_HEIGHT = 220
LEFT = 44
RIGHT = 10
TOP = 10
LEGEND_ROW = 18


_END = ' text-anchor="end"'  # the last night's date ends at the plot's right edge, whole


def _grid(plot: Plot, ticks: range) -> list[str]:
    """The horizontal grid, the y labels and the zero line."""
    right = LINE_WIDTH - RIGHT
    out = ['<g class="grid" stroke="#d5d8dc" stroke-width="0.6">']
    out += [f'<line x1="{LEFT}" y1="{_fmt(plot.y(v))}" x2="{right}" y2="{_fmt(plot.y(v))}"/>' for v in ticks]
    out.append('</g><g class="y-labels" fill="#333" text-anchor="end">')
    out += [f'<text x="{LEFT - 4}" y="{_fmt(plot.y(v) + 4)}">{_label(v)}</text>' for v in ticks]
    out.append("</g>")
    out.append(f'<line x1="{LEFT}" y1="{_fmt(plot.y(0))}" x2="{right}" y2="{_fmt(plot.y(0))}" stroke="#555"/>')
    return out


def _nights_axis(plot: Plot, points: int, labels: Sequence[str]) -> list[str]:
    """The x labels: the evenings' dates when there is one per point (a few), else their numbers."""
    dated = len(labels) == points
    last, bottom = plot.last, plot.top + plot.height
    out = ['<g class="x-labels" fill="#333" text-anchor="middle" font-size="11">']
    out += [
        f'<text x="{_fmt(plot.x(k))}" y="{_fmt(bottom + 15)}"{_END if k == last and k else ""}>'
        f"{escape(labels[k]) if dated else k}</text>"
        for k in range(0, points, nice_step(last, 3 if dated else 6))
    ]
    out.append("</g>")
    axis_word = "" if dated else escape(_("noche"))
    out.append(
        f'<text x="{LINE_WIDTH - RIGHT}" y="{_fmt(bottom + 29)}" fill="#333" text-anchor="end">{axis_word}</text>'
    )
    return out


def _dash(dash: str) -> str:
    return f' stroke-dasharray="{dash}"' if dash else ""


def _person_lines(plot: Plot, names: Sequence[str], series: Sequence[Sequence[int]]) -> list[str]:
    out = []
    for i, values_i in enumerate(series):
        colour, dash = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{_fmt(plot.x(k))},{_fmt(plot.y(v))}" for k, v in enumerate(values_i))
        out.append(
            f'<polyline class="person" points="{coords}" fill="none" stroke="{colour}" stroke-width="2"'
            f"{_dash(dash)}><title>{escape(names[i])}</title></polyline>"
        )
    return out


def _legend(legend: Sequence[tuple[float, int, int, str]]) -> list[str]:
    out = ['<g class="legend" fill="#222">']
    for lx, lrow, i, label in legend:
        colour, dash = PALETTE[i % len(PALETTE)]
        ly = LINE_HEIGHT + lrow * LEGEND_ROW + 4
        out.append(
            f'<line x1="{_fmt(lx)}" y1="{_fmt(ly - 4)}" x2="{_fmt(lx + 22)}" y2="{_fmt(ly - 4)}" '
            f'stroke="{colour}" stroke-width="2.4"{_dash(dash)}/>'
        )
        out.append(f'<text x="{_fmt(lx + 26)}" y="{_fmt(ly)}">{escape(label)}</text>')
    return out


def evenings_chart(
    names: Sequence[str], series: Sequence[Sequence[int]], *, unit: str, labels: Sequence[str] = ()
) -> str:
    """One line per person: ``series[i][k]`` is the running balance after evening k (k = 0: before the first).

    Drawn 360 units wide, so on a phone the labels keep their size; ``unit`` ("tantos", "€") is in the title,
    drawn above the plot; ``labels[k]`` (the evenings' dates) name the points of the x axis.
    """
    title = _("Saldo acumulado por noche (%(unit)s)", unit=unit)
    points = max((len(s) for s in series), default=0)
    low, high, step = value_axis(series, 4)
    shown = [_short(name, 40) for name in names]  # whole names: the legend wraps to more rows instead
    legend, row = legend_rows(shown, 0, LINE_WIDTH, lambda label: 26 + 7.0 * len(label) + 14)
    height = LINE_HEIGHT + (row + 1) * LEGEND_ROW
    plot = Plot(LEFT, TOP, LINE_WIDTH - LEFT - RIGHT, LINE_HEIGHT - TOP - 34, max(points - 1, 1), low, high)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart evenings" viewBox="0 0 {LINE_WIDTH} {height + 20}" '
        f'width="{LINE_WIDTH}" height="{height + 20}" role="img" aria-label={quoteattr(title)} '
        'font-family="DejaVu Sans, sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<text x="0" y="14" fill="#222" font-weight="bold">{escape(title)}</text>',
        '<g transform="translate(0 20)">',
        *_grid(plot, range(int(low), int(high) + 1, step)),
        *_nights_axis(plot, points, labels),
        *_person_lines(plot, names, series),
        *_legend(legend),
        "</g></g></svg>",
    ]
    return "\n".join(out)


def _red_symbols(label: str) -> str:
    """A label with copas' ♥ and oros' ♦ red, as on screen and on the sheet."""
    text = escape(label)
    for symbol in RED_SYMBOLS:
        text = text.replace(symbol, f'<tspan fill="{RED_SUIT}">{symbol}</tspan>')
    return text


def mix_chart(items: Sequence[tuple[str, int]], *, title: str) -> str:
    """Horizontal bars, one per (label, count), longest first as given; readable at 195 px wide."""
    rows = max(len(items), 1)
    height = 28 + rows * BAR_ROW
    top = max((count for _label, count in items), default=0) or 1
    span = BAR_WIDTH - BAR_LABEL - 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart mix" viewBox="0 0 {BAR_WIDTH} {height}" '
        f'width="{BAR_WIDTH}" height="{height}" role="img" aria-label={quoteattr(title)} '
        'font-family="DejaVu Sans, sans-serif" font-size="13">',
        f"<title>{escape(title)}</title>",
        f'<text x="0" y="16" fill="#222" font-weight="bold">{escape(title)}</text>',
    ]
    if not items:
        none = escape(_("sin manos"))
        out.append(f'<text x="0" y="44" fill="#555">{none}</text>')
    for i, (label, count) in enumerate(items):
        y = 28 + i * BAR_ROW
        width = round(span * count / top, 1)
        colour = PALETTE[i % len(PALETTE)][0]
        out.append(
            f'<g class="bar"><text x="{BAR_LABEL - 6}" y="{y + 16}" fill="#222" text-anchor="end">'
            f"{_red_symbols(label)}</text>"
            f'<rect x="{BAR_LABEL}" y="{y + 3}" width="{width}" height="18" fill="{colour}"/>'
            f'<text x="{BAR_LABEL + width + 6}" y="{y + 16}" fill="#222">{count}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)
