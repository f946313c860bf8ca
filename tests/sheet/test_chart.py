"""The balance chart is valid SVG with one polyline per player, and names stay text."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.sheet.chart import balance_chart, nice_step

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def polylines(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}polyline"))


def test_one_polyline_per_player_with_one_point_per_hand() -> None:
    names = ["Ana", "Benito", "Carmen", "Diego"]
    series = [[0, -10, -5], [0, 20, 20], [0, -5, -45], [0, -5, 30]]
    root = parse(balance_chart(names, series))
    lines = polylines(root)
    assert len(lines) == 4
    for line, values in zip(lines, series, strict=True):
        points = [tuple(map(float, p.split(","))) for p in line.get("points", "").split()]
        assert len(points) == len(values)
        xs = [p[0] for p in points]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
    # higher balance is drawn higher (smaller y): Benito's 20 above Carmen's -45 after hand 2
    y_benito = float(lines[1].get("points", "").split()[2].split(",")[1])
    y_carmen = float(lines[2].get("points", "").split()[2].split(",")[1])
    assert y_benito < y_carmen
    titles = [line.find(f"{SVG}title") for line in lines]
    assert [t.text for t in titles if t is not None] == names


def test_hostile_names_are_escaped_text() -> None:
    names = ["<b>Ana</b>", "=cmd|' /C calc'!A0", 'Ben "&" Co']
    svg = balance_chart(names, [[0, 5], [0, -10], [0, 5]])
    root = parse(svg)
    assert root.find(f".//{SVG}b") is None
    assert "<b>" not in svg
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    for name in names:
        assert name in texts


def test_no_inline_style_or_script() -> None:
    svg = balance_chart(["Ana", "Benito", "Carmen"], [[0, 5, 10], [0, -10, -5], [0, 5, -5]])
    root = parse(svg)
    for element in root.iter():
        assert "style" not in element.attrib
        assert element.tag != f"{SVG}script"


def test_a_session_without_hands_still_draws() -> None:
    root = parse(balance_chart(["Ana", "Benito", "Carmen"], [[0], [0], [0]]))
    assert len(polylines(root)) == 3


def test_series_must_match_names() -> None:
    with pytest.raises(ValueError):
        balance_chart(["Ana", "Benito"], [[0, 1]])


@settings(max_examples=100, deadline=None)
@given(
    st.integers(min_value=3, max_value=8).flatmap(
        lambda n: st.lists(st.lists(st.integers(-5000, 5000), min_size=1, max_size=40), min_size=n, max_size=n)
    )
)
def test_points_stay_inside_the_picture(series: list[list[int]]) -> None:
    names = [f"Jugador {i}" for i in range(len(series))]
    root = parse(balance_chart(names, series))
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    assert len(polylines(root)) == len(series)
    for line in polylines(root):
        for point in line.get("points", "").split():
            x, y = map(float, point.split(","))
            assert 0 <= x <= width and 0 <= y <= height


@pytest.mark.parametrize(("span", "ticks", "expected"), [(100, 5, 20), (1000, 6, 200), (7, 10, 1), (0, 5, 1)])
def test_nice_step(span: int, ticks: int, expected: int) -> None:
    assert nice_step(span, ticks) == expected
