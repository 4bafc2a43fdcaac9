"""Line charts as plain SVG (no streamlit, no JavaScript library): FREVAL's curves (the paper's
Figures 1–3).

A chart is a small SVG written here, shown inline and fitted to its column like every drawing
(:mod:`workbench.fit`): the page needs no chart library in the browser (plotly's is 4.7 MB of
JavaScript, which a fresh browser downloaded and parsed on every first visit of the FREVAL page:
5–11 s).  Each line has its own colour, dash pattern and marker shape (colour is never the only
cue); each point has a tooltip (an SVG ``<title>``) with its values.

Every string from the data (parser names, titles) is escaped with
:func:`evalcore.render.text.xml_escape`; numbers are formatted by us.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.render.text import xml_escape
from workbench.text import shortened

__all__ = ["FONT_PX", "Chart", "Line", "line_chart", "nice_ticks"]

FONT_PX = 12.0
"""Tick labels and legend entries (the chart's smallest text, which fitting keeps at 9 px or more)."""

COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 2", "1 2")
MARKERS = ("circle", "square", "triangle", "diamond", "cross")


@dataclass(frozen=True, slots=True)
class Line:
    """One curve: ``points`` ``(x, y)`` in drawing order; ``tips[i]`` is the tooltip of point i."""

    name: str
    points: tuple[tuple[float, float], ...]
    tips: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Chart:
    """An SVG chart and its size (px; fitting reads both and its smallest text from the SVG)."""

    svg: str
    width: float
    height: float


def nice_ticks(lo: float, hi: float, count: int = 6) -> tuple[float, ...]:
    """Round tick values covering ``[lo, hi]``: steps of 1, 2 or 5 × 10^k, about ``count`` ticks."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return (0.0, 1.0)
    if hi < lo:
        lo, hi = hi, lo
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    raw = (hi - lo) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw - 1e-12)
    first = math.floor(lo / step + 1e-9) * step
    last = math.ceil(hi / step - 1e-9) * step
    n = round((last - first) / step)
    return tuple(round(first + k * step, 10) for k in range(n + 1))


def _number(v: float) -> str:
    return f"{v:g}" if abs(v) >= 1e-9 else "0"


def _look(k: int) -> tuple[str, str, str]:
    """The colour, dashes and marker of the ``k``-th line."""
    return COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)], MARKERS[k % len(MARKERS)]


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    r = 3.6
    if shape == "square":
        side = 2 * r
        return (
            f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{side:.1f}" height="{side:.1f}" fill="{colour}"/>'
        )
    if shape == "triangle":
        pts = f"{x:.1f},{y - r - 0.8:.1f} {x - r - 0.4:.1f},{y + r:.1f} {x + r + 0.4:.1f},{y + r:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if shape == "diamond":
        pts = (
            f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y:.1f} {x:.1f},{y + r + 1:.1f} {x - r - 1:.1f},{y:.1f}"
        )
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if shape == "cross":
        return (
            f'<path d="M{x - r:.1f},{y - r:.1f}L{x + r:.1f},{y + r:.1f}M{x - r:.1f},{y + r:.1f}'
            f'L{x + r:.1f},{y - r:.1f}" stroke="{colour}" stroke-width="2"/>'
        )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}"/>'


def line_chart(
    lines: Sequence[Line],
    *,
    title: str,
    x_title: str,
    y_title: str,
    zero_line: bool = False,
    width: float = 640.0,
    height: float = 400.0,
    css_class: str = "wb-chart",
) -> Chart:
    """A line chart of ``lines`` (integer-like x values are shown as integers on the axis)."""
    pts = [p for line in lines for p in line.points if math.isfinite(p[0]) and math.isfinite(p[1])]
    xs = [p[0] for p in pts] or [0.0, 1.0]
    ys = [p[1] for p in pts] or [0.0, 1.0]
    if zero_line:
        ys.append(0.0)
    x_ticks = nice_ticks(min(xs), max(xs), 8)
    if all(float(v).is_integer() for v in xs):
        x_ticks = tuple(v for v in x_ticks if float(v).is_integer()) or x_ticks
    y_ticks = nice_ticks(min(ys), max(ys), 6)
    # legend rows above the plot: entries of about 7 px per character, wrapped to the width
    entries = [(k, shortened(line.name, 48)) for k, line in enumerate(lines)]
    rows: list[list[tuple[int, str, float]]] = [[]]
    used = 0.0
    for k, text in entries:
        w = 38 + 7.0 * len(text)
        if rows[-1] and used + w > width - 20:
            rows.append([])
            used = 0.0
        rows[-1].append((k, text, used))
        used += w + 14
    legend_h = 20.0 * len(rows) if entries else 0.0
    top = 30.0 + legend_h + 8
    left, right, bottom = 58.0, 16.0, 46.0
    height = max(height, top + bottom + 160)
    plot_w, plot_h = width - left - right, height - top - bottom
    x0, x1 = x_ticks[0], x_ticks[-1]
    y0, y1 = y_ticks[0], y_ticks[-1]

    def sx(v: float) -> float:
        return left + (v - x0) / (x1 - x0) * plot_w if x1 != x0 else left + plot_w / 2

    def sy(v: float) -> float:
        return top + plot_h - (v - y0) / (y1 - y0) * plot_h if y1 != y0 else top + plot_h / 2

    font = f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="{FONT_PX:g}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{xml_escape(css_class)}" width="{width:.0f}px" '
        f'height="{height:.0f}px" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        f'aria-label="{xml_escape(title)}">',
        f"<title>{xml_escape(title)}</title>",
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        f'<text x="{left:.0f}" y="19" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
        f'font-size="14" font-weight="600" fill="#262730">{xml_escape(shortened(title, 90))}</text>',
    ]
    for v in y_ticks:
        y = sy(v)
        out.append(
            f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{left + plot_w:.1f}" y2="{y:.1f}" stroke="#eeeeee"/>'
        )
        out.append(
            f'<text class="tick" x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" {font} '
            f'fill="#555555">{_number(v)}</text>'
        )
    for v in x_ticks:
        x = sx(v)
        out.append(
            f'<line x1="{x:.1f}" y1="{top + plot_h:.1f}" x2="{x:.1f}" y2="{top + plot_h + 4:.1f}" '
            'stroke="#888888"/>'
        )
        out.append(
            f'<text class="tick" x="{x:.1f}" y="{top + plot_h + 17:.1f}" text-anchor="middle" {font} '
            f'fill="#555555">{_number(v)}</text>'
        )
    out.append(
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{plot_w:.1f}" height="{plot_h:.1f}" fill="none" '
        'stroke="#bbbbbb"/>'
    )
    if zero_line and y0 < 0 < y1:
        out.append(
            f'<line x1="{left:.1f}" y1="{sy(0):.1f}" x2="{left + plot_w:.1f}" y2="{sy(0):.1f}" '
            'stroke="#888888" stroke-width="1.2"/>'
        )
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 8:.1f}" text-anchor="middle" {font} '
        f'fill="#262730">{xml_escape(x_title)}</text>'
    )
    out.append(
        f'<text transform="translate(15,{top + plot_h / 2:.1f}) rotate(-90)" text-anchor="middle" {font} '
        f'fill="#262730">{xml_escape(y_title)}</text>'
    )
    for k, line in enumerate(lines):
        colour, dash, shape = _look(k)
        good = [(i, p) for i, p in enumerate(line.points) if math.isfinite(p[0]) and math.isfinite(p[1])]
        out.append(f'<g class="line" data-name="{xml_escape(line.name)}">')
        if len(good) > 1:
            path = " ".join(
                f"{'M' if j == 0 else 'L'}{sx(p[0]):.1f},{sy(p[1]):.1f}" for j, (_, p) in enumerate(good)
            )
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash_attr}/>')
        for i, p in good:
            tip = line.tips[i] if i < len(line.tips) else f"{line.name}: {_number(p[0])}, {p[1]:.2f}"
            out.append(f"<g><title>{xml_escape(tip)}</title>{_marker(shape, sx(p[0]), sy(p[1]), colour)}</g>")
        out.append("</g>")
    for r, row in enumerate(rows):
        y = 30.0 + 20.0 * r + 8
        for k, text, x in row:
            colour, dash, shape = _look(k)
            lx = left + x
            dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(
                f'<g class="legend"><title>{xml_escape(lines[k].name)}</title>'
                f'<line x1="{lx:.1f}" y1="{y:.1f}" x2="{lx + 28:.1f}" y2="{y:.1f}" stroke="{colour}" '
                f'stroke-width="2"{dash_attr}/>{_marker(shape, lx + 14, y, colour)}'
                f'<text x="{lx + 34:.1f}" y="{y + 4:.1f}" {font} fill="#262730">{xml_escape(text)}</text></g>'
            )
    out.append("</svg>")
    return Chart("\n".join(out), width, height)
