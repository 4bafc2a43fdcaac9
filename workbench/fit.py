"""Drawings that fit their box: the one sizing rule of every SVG the workbench shows (no streamlit;
docs/app.md, "Drawings that fit": fit to the box while every text stays :data:`MIN_TEXT_PX` high,
else a column of its own, else scrolling; a zoom; one scale per box).

What a drawing says about itself is read from its SVG, the one declaration of its sizes: its width,
its ``viewBox`` (our dependency SVGs are in px; Graphviz's in points, 1 pt = 4/3 px, shown at
``scale`` × their size) and the ``font-size`` of each of its ``<text>`` elements, the smallest of
which the rule keeps at 9 px or more (:func:`smallest_font`).  The strings in the SVGs were escaped
by their writers (:mod:`evalcore.render.text`), the titles added here by
:func:`~evalcore.render.text.xml_escape`; ids and styles are made of our numbers and
``[A-Za-z0-9_-]`` only.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.render.text import xml_escape

__all__ = [
    "MIN_TEXT_PX",
    "PT",
    "ZOOMS",
    "Drawing",
    "box_html",
    "box_id",
    "column_css",
    "dep_drawing",
    "graphviz_drawing",
    "min_box_width",
    "smallest_font",
    "svg_drawing",
    "zoom_factor",
]

MIN_TEXT_PX = 9.0
"""No text of a drawing is drawn smaller than this (px) when fitting: below it, one column, then scroll."""

PT = 4 / 3  # px per point (CSS: 96 px = 72 pt)

ZOOMS: tuple[str, ...] = ("fit", "50%", "75%", "100%", "125%", "150%")
"""The choices of the "Drawing size" control; ``fit`` is the rule above, a percentage a fixed size."""

BORDER = 2.0  # the box's left and right border (px), added to its narrowest width

# the box is as wide as its drawing (no empty frame around a small one), at most its column
_BOX_STYLE = "width:fit-content;overflow-x:auto;overflow-y:hidden;max-width:100%;border:1px solid #e6e6e6;"
_BOX_STYLE += "border-radius:4px;background:#fff;line-height:0;"


@dataclass(frozen=True, slots=True)
class Drawing:
    """One SVG with what the sizing rule needs.

    ``svg`` is the ``<svg>`` element (no XML prolog); ``width`` its width in
    px at 100 %; ``text_px`` the font size of its smallest text in px at 100 %;
    ``text_font`` that font size in the SVG's own units (what the
    ``font-size`` attribute of its smallest text says, for tests and measurements).
    """

    svg: str
    width: float
    text_px: float
    text_font: float
    title: str = ""
    note: str = ""


def zoom_factor(choice: str) -> float | None:
    """``None`` for ``fit``, else the share of the drawing's size (``"75%"`` -> 0.75)."""
    if choice == "fit" or not choice.endswith("%"):
        return None
    try:
        value = float(choice[:-1]) / 100
    except ValueError:
        return None
    return value if value > 0 else None


_WIDTH = re.compile(r'\bwidth="([0-9.]+)(pt|px)?"')


def _svg_element(svg: str) -> str:
    """The text from ``<svg`` on (drops an XML prolog, DOCTYPE and comments before it)."""
    start = svg.find("<svg")
    if start < 0:
        raise ValueError("not an SVG document")
    return svg[start:]


def _opening_width(svg: str) -> tuple[float, str]:
    head = svg[: svg.find(">") + 1]
    m = _WIDTH.search(head)
    if m is None:
        raise ValueError("the SVG has no width")
    return float(m.group(1)), m.group(2) or "px"


_FONT = re.compile(r'<text\b[^>]*?\sfont-size="([0-9.]+)(?:px)?"')
_VIEWBOX = re.compile(r'\bviewBox="\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+[0-9.]+\s*"')
_GRAPH_SCALE = re.compile(r'<g\b[^>]*\bclass="graph"[^>]*\btransform="scale\(([0-9.]+)')


def smallest_font(svg: str) -> float | None:
    """The smallest ``font-size`` of the ``<text>`` elements of ``svg``, in its own units (``None``:
    no text).  Our writers and Graphviz give every text its size as an attribute."""
    sizes = [float(m.group(1)) for m in _FONT.finditer(svg)]
    return min((x for x in sizes if x > 0), default=None)


def svg_drawing(svg: str, *, scale: float = 1.0, title: str = "", note: str = "") -> Drawing:
    """Any SVG shown at ``scale`` × its own size: its width in px and its smallest text in px, read
    from the SVG (its ``width``, ``viewBox``, the scale of a Graphviz graph and its texts' sizes)."""
    svg = _svg_element(svg)
    width, unit = _opening_width(svg)
    px = width * (PT if unit == "pt" else 1.0) * scale
    head = svg[: svg.find(">") + 1]
    box = _VIEWBOX.search(head)
    unit_px = px / float(box.group(1)) if box is not None and float(box.group(1)) > 0 else px / width
    graph = _GRAPH_SCALE.search(svg)
    if graph is not None and float(graph.group(1)) > 0:
        unit_px *= float(graph.group(1))  # Graphviz draws its graph through one scale (1 unless asked)
    font = smallest_font(svg)
    if font is None:  # no text: never shrunk (as if its texts were at the minimum already)
        return Drawing(svg, px, MIN_TEXT_PX, 0.0, title, note)
    return Drawing(svg, px, font * unit_px, font, title, note)


def dep_drawing(svg: str, *, title: str = "", note: str = "") -> Drawing:
    """A dependency drawing of :func:`evalcore.render.svg.dep_svg` (px)."""
    return svg_drawing(svg, title=title, note=note)


def graphviz_drawing(svg: str, *, scale: float = 1.0, title: str = "") -> Drawing:
    """A Graphviz SVG (points) shown at ``scale`` × its size."""
    return svg_drawing(svg, scale=scale, title=title)


def _scale(drawings: Sequence[Drawing], zoom: float | None) -> tuple[float, float, float]:
    """``(natural width, narrowest width, widest width)`` of the inner block holding ``drawings``."""
    width = max((d.width for d in drawings), default=0.0)
    if zoom is not None:
        return width, width * zoom, width * zoom
    text = min((d.text_px for d in drawings), default=MIN_TEXT_PX)
    # one px more: the browser rounds widths, and texts must not land a hair under the minimum
    narrowest = min(width, width * MIN_TEXT_PX / text + 1.0) if text > 0 else width
    return width, narrowest, width


def min_box_width(drawings: Sequence[Drawing], zoom: float | None) -> float:
    """The narrowest box (px) in which ``drawings`` are shown whole without going under the rule."""
    return _scale(drawings, zoom)[1] + BORDER


def box_id(key: str) -> str:
    """An HTML id for the box of the figure ``key`` (``[A-Za-z0-9_-]`` only, unique per key)."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", key).strip("-")[:40]
    digest = hashlib.sha1(key.encode("utf-8"), usedforsecurity=False).hexdigest()[:10]
    return f"wb-fit-{stem}-{digest}"


def column_css(ident: str, min_width: float) -> str:
    """A ``<style>`` making every Streamlit column that holds box ``ident`` at least ``min_width`` px
    wide (or the whole row): its row then wraps, and the column stands alone, full width."""
    return (
        f'<style>div[data-testid="stColumn"]:has(#{ident})'
        f"{{min-width:min(100%, {min_width:.0f}px) !important}}</style>"
    )


_HEIGHT = re.compile(r'\bheight="([0-9.]+)(pt|px)?"')


def _sized_svg(d: Drawing, share: float, rtl: bool) -> str:
    """The SVG as a block of ``share`` % of the inner width, height from its ``viewBox``; its
    ``width``/``height`` attributes become its size at 100 % in px (what the box shrinks to)."""
    align = "margin-left:auto;" if rtl else ""
    style = f'style="display:block;width:{share:.3f}%;height:auto;max-width:none;{align}"'
    head, sep, rest = d.svg.partition(">")
    head = re.sub(r'\sstyle="[^"]*"', "", head)  # ours replaces any style of the writer
    width, _ = _opening_width(d.svg)
    factor = d.width / width if width > 0 else 1.0
    head = _WIDTH.sub(f'width="{d.width:.1f}px"', head, count=1)
    head = _HEIGHT.sub(lambda m: f'height="{float(m.group(1)) * factor:.1f}px"', head, count=1)
    return f"<svg {style}{head[4:]}{sep}{rest}"


def box_html(
    drawings: Sequence[Drawing],
    *,
    key: str,
    zoom: float | None = None,
    rtl: bool = False,
    css_class: str = "",
    titles: bool = False,
) -> str:
    """HTML for one box holding ``drawings`` (one scale for all), sized by the rule of this module.

    ``rtl``: the box starts scrolled to its right end and right-aligns the drawings;
    ``titles``: each drawing's title (and note) is written inside the box above it.
    """
    ident = box_id(key)
    natural, narrowest, widest = _scale(drawings, zoom)
    if zoom is None:
        inner = f"width:100%;max-width:{widest:.1f}px;min-width:{narrowest:.1f}px;"
    else:
        inner = f"width:{widest:.1f}px;"
    if rtl:
        inner += "margin-left:auto;"
    parts = [column_css(ident, narrowest + BORDER)]
    text = min((d.text_px for d in drawings), default=0.0)
    fonts = ",".join(sorted({f"{d.text_font:g}" for d in drawings}))
    mode = "fit" if zoom is None else "zoom"
    side = "direction:rtl;margin-left:auto;" if rtl else ""  # right-aligned, scrolled from the right
    parts.append(
        f'<div id="{ident}" class="wb-figure wb-fit {css_class}" data-fit="{mode}" '
        f'data-text-px="{text:.2f}" data-text-font="{fonts}" data-natural-width="{natural:.1f}" '
        f'data-min-width="{narrowest + BORDER:.1f}" style="{_BOX_STYLE}{side}">'
    )
    parts.append(f'<div class="wb-fit-inner" style="direction:ltr;{inner}">')
    for d in drawings:
        if titles and d.title:
            note = xml_escape(d.note)
            note = f'<span style="font-weight:400;color:#666"> — {note}</span>' if note else ""
            parts.append(
                f'<div class="wb-fig-title" style="position:sticky;{"right" if rtl else "left"}:0;'
                "display:inline-block;line-height:1.4;padding:6px 8px 0 8px;font-weight:600;background:#fff;"
                f'direction:ltr;unicode-bidi:isolate;white-space:normal">{xml_escape(d.title)}{note}</div>'
            )
        share = 100.0 * d.width / natural if natural > 0 else 100.0
        parts.append(_sized_svg(d, share, rtl))
    parts.append("</div></div>")
    # a blank line would end the HTML block in markdown: our writers never put data on one
    return "\n".join(line for p in parts for line in p.splitlines() if line.strip())
