"""The rating-history chart: a pure function from points to an SVG string (no Django, no JS).

The x axis is true time (a gap of two years is twice as wide as one year), each point is a circle
carrying its value in a <title> (the browser's tooltip; screen readers read it too), and an ICCF
chart draws the rating ± RD as a band. The SVG scales with its container (viewBox, no fixed
width), so it reads on a phone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from html import escape

from ratings.engines.core.rounding import half_up_int

WIDTH, HEIGHT = 640, 280
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 16, 36


@dataclass(frozen=True)
class ChartPoint:
    when: date
    value: float
    rd: float | None = None
    label: str = ""  # how the table beside the chart names the point (the list's period)
    published: int | None = None  # the value as the table shows it (else rounded half-up)
    published_rd: int | None = None


def _nice_step(span: float, target_ticks: int = 5) -> float:
    raw = span / max(target_ticks, 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _y_ticks(low: float, high: float) -> list[float]:
    step = _nice_step(high - low)
    first = math.ceil(low / step) * step
    ticks, value = [], first
    while value <= high + 1e-9:
        ticks.append(value)
        value += step
    return ticks


def _x_ticks(first: date, last: date) -> list[date]:
    """1 January of each year in range; quarters when the range is short."""
    years = list(range(first.year, last.year + 2))
    ticks = [date(y, 1, 1) for y in years if first <= date(y, 1, 1) <= last]
    if len(ticks) < 2:
        ticks = [
            date(y, m, 1) for y in years for m in (1, 4, 7, 10) if first <= date(y, m, 1) <= last
        ]
    stride = max(1, math.ceil(len(ticks) / 8))
    return ticks[::stride]


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def rating_chart(
    points: Sequence[ChartPoint],
    *,
    title: str = "Rating history",
    value_name: str = "rating",
    empty_text: str = "no rated history",
) -> str:
    """SVG markup of the history; an empty history gives a short note instead of axes."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-labelledby="chart-title">'
        f'<title id="chart-title">{escape(title)}</title>'
    )
    if not points:
        return head + f'<text x="20" y="40">{escape(empty_text)}</text></svg>'
    pts = sorted(points, key=lambda p: p.when)
    lows = [p.value - (p.rd or 0) for p in pts]
    highs = [p.value + (p.rd or 0) for p in pts]
    low, high = min(lows), max(highs)
    pad = max(10.0, (high - low) * 0.08)
    low, high = low - pad, high + pad
    first, last = pts[0].when, pts[-1].when
    if first == last:
        first = date.fromordinal(first.toordinal() - 45)
        last = date.fromordinal(last.toordinal() + 45)
    days = (last - first).days
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(d: date) -> float:
        return LEFT + plot_w * (d - first).days / days

    def y_of(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    parts = [head, '<g class="axes">']
    for tick in _y_ticks(low, high):
        y = y_of(tick)
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{_fmt(y)}" y2="{_fmt(y)}"/>'
            f'<text class="ylabel" x="{LEFT - 6}" y="{_fmt(y + 4)}" text-anchor="end">'
            f"{tick:g}</text>"
        )
    for tick in _x_ticks(first, last):
        x = x_of(tick)
        label = str(tick.year) if tick.month == 1 else f"{tick.year}-{tick.month:02d}"
        parts.append(
            f'<line class="grid" x1="{_fmt(x)}" x2="{_fmt(x)}" y1="{TOP}" y2="{HEIGHT - BOTTOM}"/>'
            f'<text class="xlabel" x="{_fmt(x)}" y="{HEIGHT - BOTTOM + 18}" '
            f'text-anchor="middle">{label}</text>'
        )
    parts.append("</g>")
    # Each point's coordinates formatted once: the band, the line and the circles share them.
    xs = [_fmt(x_of(p.when)) for p in pts]
    ys = [_fmt(y_of(p.value)) for p in pts]
    if any(p.rd is not None for p in pts):
        upper = [f"{x},{_fmt(y_of(p.value + (p.rd or 0)))}" for x, p in zip(xs, pts, strict=True)]
        lower = [f"{x},{_fmt(y_of(p.value - (p.rd or 0)))}" for x, p in zip(xs, pts, strict=True)]
        parts.append(f'<polygon class="band" points="{" ".join(upper + lower[::-1])}"/>')
    line = " ".join(f"{x},{y}" for x, y in zip(xs, ys, strict=True))
    parts.append(f'<polyline class="line" points="{line}"/>')
    parts.append('<g class="points">')
    for p, x, y in zip(pts, xs, ys, strict=True):
        shown = p.published if p.published is not None else half_up_int(p.value)
        tip = f"{p.label or p.when.isoformat()}: {value_name} {shown}"
        if p.rd is not None:
            tip += f" ± {p.published_rd if p.published_rd is not None else half_up_int(p.rd)}"
        parts.append(
            f'<circle class="point" cx="{x}" cy="{y}" r="4"><title>{escape(tip)}</title></circle>'
        )
    parts.append("</g></svg>")
    return "".join(parts)
