"""Drawings that fit their box: the one sizing rule of every SVG the workbench shows (no streamlit;
docs/app.md, "Drawings that fit": fit to the box while word labels stay :data:`MIN_LABEL_PX` high,
else a column of its own, else scrolling; a zoom; one scale per box).

Sizes: our dependency SVGs are in px (word forms at ``LayoutStyle.word_size``); Graphviz SVGs are
in points (1 pt = 4/3 px), shown at ``scale`` × their size, their word labels the font sizes of
:mod:`evalcore.render.dot` (:data:`GRAPHVIZ_TREE_PT`, :data:`GRAPHVIZ_LATTICE_PT`).  The strings in
the SVGs were escaped by their writers (:mod:`evalcore.render.text`), the titles added here by
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
    "GRAPHVIZ_LATTICE_PT",
    "GRAPHVIZ_TREE_PT",
    "MIN_LABEL_PX",
    "PT",
    "ZOOMS",
    "Drawing",
    "box_html",
    "box_id",
    "column_css",
    "dep_drawing",
    "graphviz_drawing",
    "min_box_width",
    "zoom_factor",
]

MIN_LABEL_PX = 9.0
"""Word labels are never drawn smaller than this (px) when fitting: below it, one column, then scroll."""

PT = 4 / 3  # px per point (CSS: 96 px = 72 pt)

GRAPHVIZ_TREE_PT = 12.0  # tree_to_dot's node font size (words and labels)
GRAPHVIZ_LATTICE_PT = 11.0  # lattice_to_dot's edge labels (segment/tag)

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
    px at 100 %; ``label_px`` the font size of its word labels in px at 100 %;
    ``label_font`` that font size in the SVG's own units (what the
    ``font-size`` attribute of a word label says, for tests and measurements).
    """

    svg: str
    width: float
    label_px: float
    label_font: float
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


def dep_drawing(svg: str, word_size: float, *, title: str = "", note: str = "") -> Drawing:
    """A dependency drawing of :func:`evalcore.render.svg.dep_svg` (px), word forms at ``word_size`` px."""
    svg = _svg_element(svg)
    width, unit = _opening_width(svg)
    factor = PT if unit == "pt" else 1.0
    return Drawing(svg, width * factor, word_size * factor, word_size, title, note)


def graphviz_drawing(
    svg: str, *, scale: float = 1.0, label_pt: float = GRAPHVIZ_TREE_PT, title: str = ""
) -> Drawing:
    """A Graphviz SVG shown at ``scale`` × its size; its word labels are ``label_pt`` points."""
    svg = _svg_element(svg)
    width, unit = _opening_width(svg)
    factor = (PT if unit == "pt" else 1.0) * scale
    return Drawing(svg, width * factor, label_pt * factor, label_pt, title)


def _scale(drawings: Sequence[Drawing], zoom: float | None) -> tuple[float, float, float]:
    """``(natural width, narrowest width, widest width)`` of the inner block holding ``drawings``."""
    width = max((d.width for d in drawings), default=0.0)
    if zoom is not None:
        return width, width * zoom, width * zoom
    label = min((d.label_px for d in drawings), default=MIN_LABEL_PX)
    # one px more: the browser rounds widths, and labels must not land a hair under the minimum
    narrowest = min(width, width * MIN_LABEL_PX / label + 1.0) if label > 0 else width
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
    label = min((d.label_px for d in drawings), default=0.0)
    fonts = ",".join(sorted({f"{d.label_font:g}" for d in drawings}))
    mode = "fit" if zoom is None else "zoom"
    side = "direction:rtl;margin-left:auto;" if rtl else ""  # right-aligned, scrolled from the right
    parts.append(
        f'<div id="{ident}" class="wb-figure wb-fit {css_class}" data-fit="{mode}" '
        f'data-label-px="{label:.2f}" data-label-font="{fonts}" data-natural-width="{natural:.1f}" '
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
