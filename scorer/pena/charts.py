"""The peña's charts as SVG strings (no JavaScript, no ``style``: they fit the strict CSP and print).

- :func:`evenings_chart`: each person's running balance after each evening (the line chart of
  :mod:`scorer.sheet.chart`, with evenings on the x axis).
- :func:`mix_chart`: horizontal bars of counts (the contract mix: lances, trumps, outcomes).
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from scorer.sheet.chart import PALETTE, balance_chart

BAR_WIDTH = 360
BAR_ROW = 26
BAR_LABEL = 120


def evenings_chart(names: Sequence[str], series: Sequence[Sequence[int]], *, unit: str) -> str:
    """One line per person: ``series[i][k]`` is the running balance after evening k (k = 0: before the first).

    ``unit`` says what the numbers are ("tantos", "€"): the title names it.
    """
    svg = balance_chart(names, series, title=f"Saldo acumulado por noche ({unit})")
    return svg.replace('text-anchor="end">mano</text>', 'text-anchor="end">noche</text>')


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
        out.append('<text x="0" y="44" fill="#555">sin manos</text>')
    for i, (label, count) in enumerate(items):
        y = 28 + i * BAR_ROW
        width = round(span * count / top, 1)
        colour = PALETTE[i % len(PALETTE)][0]
        out.append(
            f'<g class="bar"><text x="{BAR_LABEL - 6}" y="{y + 16}" fill="#222" text-anchor="end">'
            f"{escape(label)}</text>"
            f'<rect x="{BAR_LABEL}" y="{y + 3}" width="{width}" height="18" fill="{colour}"/>'
            f'<text x="{BAR_LABEL + width + 6}" y="{y + 16}" fill="#222">{count}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)
