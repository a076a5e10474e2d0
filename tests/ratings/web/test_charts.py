"""The SVG rating-history chart: a pure function, checked by parsing its output."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.web.charts import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, ChartPoint, rating_chart

NS = {"s": "http://www.w3.org/2000/svg"}


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _circles(root: ET.Element) -> list[ET.Element]:
    return root.findall(".//s:circle", NS)


def test_one_circle_per_point_with_its_value_in_a_tooltip():
    points = [
        ChartPoint(date(2024, 1, 1), 1800.0, label="2024Q1"),
        ChartPoint(date(2024, 4, 1), 1812.5, label="2024Q2"),
        ChartPoint(date(2024, 7, 1), 1790.49, label="2024Q3"),
    ]
    root = _parse(rating_chart(points))
    circles = _circles(root)
    assert len(circles) == 3
    tips = [c.find("s:title", NS).text for c in circles]
    # Named as the history table names them (the list's period), not by date.
    assert tips == [
        "2024Q1: rating 1800",
        "2024Q2: rating 1813",  # half-up, not banker's rounding (1812)
        "2024Q3: rating 1790",
    ]


def test_x_axis_is_true_time():
    first = date(2020, 1, 1)
    offsets = [0, 10, 400, 1000]
    points = [ChartPoint(first + timedelta(days=d), 1500.0 + d) for d in offsets]
    xs = [float(c.get("cx")) for c in _circles(_parse(rating_chart(points)))]
    plot_width = WIDTH - LEFT - RIGHT
    for x, d in zip(xs, offsets, strict=True):
        assert abs(x - (LEFT + plot_width * d / 1000)) < 0.06


def test_y_axis_higher_rating_is_higher_on_screen():
    points = [ChartPoint(date(2020, 1, 1), 1500.0), ChartPoint(date(2021, 1, 1), 1700.0)]
    ys = [float(c.get("cy")) for c in _circles(_parse(rating_chart(points)))]
    assert ys[1] < ys[0]
    assert all(TOP <= y <= HEIGHT - BOTTOM for y in ys)


def test_rd_band_only_with_rd_and_it_spans_rating_plus_minus_rd():
    plain = _parse(rating_chart([ChartPoint(date(2020, 1, 1), 1500.0)]))
    assert plain.find(".//s:polygon", NS) is None
    points = [
        ChartPoint(date(2020, 1, 1), 1500.0, rd=100.0),
        ChartPoint(date(2021, 1, 1), 1600.0, rd=50.0),
    ]
    root = _parse(rating_chart(points))
    polygon = root.find(".//s:polygon", NS)
    assert polygon is not None and polygon.get("class") == "band"
    corners = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
    assert len(corners) == 4
    centre = [float(c.get("cy")) for c in _circles(root)]
    # upper edge at rating + RD, lower at rating - RD: symmetric about each point
    (x0, up0), (x1, up1), (_, lo1), (_, lo0) = corners
    assert abs((up0 + lo0) / 2 - centre[0]) < 0.1 and abs((up1 + lo1) / 2 - centre[1]) < 0.1
    assert abs((lo0 - up0) / (lo1 - up1) - 2.0) < 0.01  # RD 100 vs 50
    tip = _circles(root)[0].find("s:title", NS).text
    assert tip.endswith("rating 1500 ± 100")


def test_single_point_and_empty_history():
    root = _parse(rating_chart([ChartPoint(date(2020, 5, 1), 1500.0)]))
    assert len(_circles(root)) == 1
    empty = _parse(rating_chart([]))
    assert not _circles(empty)
    assert "no rated history" in "".join(empty.itertext())


def test_text_is_escaped_and_chart_scales_with_its_container():
    svg = rating_chart([ChartPoint(date(2020, 1, 1), 1.0, label="<b>&")], title="A & <B>")
    root = _parse(svg)
    assert root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    assert root.get("width") is None  # sized by CSS, readable on a phone
    assert root.find("s:title", NS).text == "A & <B>"


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.dates(min_value=date(1990, 1, 1), max_value=date(2040, 1, 1)),
            st.floats(min_value=0, max_value=3500),
            st.one_of(st.none(), st.floats(min_value=0, max_value=350)),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_any_history_gives_valid_svg_with_every_point_inside_the_plot(rows):
    points = [ChartPoint(d, v, rd) for d, v, rd in rows]
    root = _parse(rating_chart(points))
    circles = _circles(root)
    assert len(circles) == len(points)
    for c in circles:
        assert LEFT - 0.1 <= float(c.get("cx")) <= WIDTH - RIGHT + 0.1
        assert TOP - 0.1 <= float(c.get("cy")) <= HEIGHT - BOTTOM + 0.1
