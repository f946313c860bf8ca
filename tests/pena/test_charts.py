"""The peña's SVG charts: one line per person, escaped names, no inline style (strict CSP), phone-sized."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from scorer.pena.charts import evenings_chart, mix_chart

SVG = "{http://www.w3.org/2000/svg}"


def test_evenings_chart_has_one_line_per_person_through_every_evening() -> None:
    svg = evenings_chart(["Ana <A&B>", "Benito"], [[0, 30, -20], [0, -30, 20]], unit="tantos")
    root = ET.fromstring(svg)  # well-formed: the name is escaped
    lines = root.findall(f".//{SVG}polyline")
    assert [line.find(f"{SVG}title").text for line in lines] == ["Ana <A&B>", "Benito"]  # type: ignore[union-attr]
    assert all(len(line.get("points", "").split()) == 3 for line in lines)
    assert root.get("width") == "360" and "style" not in svg and "<script" not in svg
    assert "tantos" in (root.get("aria-label") or "")


def test_mix_chart_bars_are_proportional_to_the_counts() -> None:
    root = ET.fromstring(mix_chart([("entrada", 6), ("solo", 3), ("vuelta", 0)], title="Lances"))
    widths = [float(rect.get("width", "0")) for rect in root.iter(f"{SVG}rect")]
    assert widths[0] == 2 * widths[1] and widths[2] == 0
    assert [t.text for t in root.iter(f"{SVG}text")][-1] == "0"


def test_the_last_nights_date_is_whole_inside_the_chart() -> None:
    """The last date, "19/02/2", was cut at the right edge; the last date now ends at the plot's edge."""
    dates = ["inicio", "08/01/2026", "15/01/2026", "19/02/2026"]
    root = ET.fromstring(evenings_chart(["Ana"], [[0, 5, -5, 10]], unit="tantos", labels=dates))
    labels = {t.text: t for t in root.iter(f"{SVG}text") if t.text in dates}
    last = labels["19/02/2026"]
    assert last.get("text-anchor") == "end"
    assert float(last.get("x", "0")) <= float(root.get("viewBox", "0 0 360 0").split()[2])


def test_the_trump_chart_draws_copas_and_oros_red() -> None:
    root = ET.fromstring(mix_chart([("oros ♦", 3), ("copas ♥", 2), ("espadas ♠", 1)], title="Triunfos"))
    red = [t.text for t in root.iter(f"{SVG}tspan") if t.get("fill") == "#c0392b"]
    assert red == ["♦", "♥"]  # and espadas' ♠ stays as the text around it
