"""SVG writer for a :class:`~evalcore.render.layout.DepLayout` (displaCy-style dependency drawing).

Every string from the data goes through :func:`evalcore.render.text.xml_escape` (docs/app.md,
"Safety of drawings"); nothing from the data is ever an element or attribute *name*, a ``style`` or
a path, and the output is a standalone SVG document without scripts, usable inline in HTML.  Arc
statuses are drawn with colour *and* line pattern as docs/app.md, "How to read a dependency
drawing" shows them (:data:`STATUS_STYLES`), with the CSS classes ``arc-plain``, ``arc-correct``,
``arc-wrong-head`` and ``arc-wrong-label``; right-to-left words get ``direction="rtl"`` and
``unicode-bidi="embed"`` (the layout already mirrors a right-to-left sentence).
"""

from __future__ import annotations

from dataclasses import dataclass

from evalcore.render.layout import ArcBox, DepLayout, WordBox
from evalcore.render.text import is_rtl_text, text_width, xml_escape

__all__ = ["STATUS_STYLES", "StatusStyle", "dep_svg"]

FONT_FAMILY = "DejaVu Sans, Verdana, sans-serif"


@dataclass(frozen=True, slots=True)
class StatusStyle:
    colour: str
    width: float
    dash: str  # SVG stroke-dasharray ("" = solid)
    label_colour: str
    legend: str


STATUS_STYLES: dict[str, StatusStyle] = {
    "plain": StatusStyle("#3c3c3c", 1.4, "", "#222222", "arc"),
    "correct": StatusStyle("#3c3c3c", 1.4, "", "#222222", "right head and label"),
    "wrong-head": StatusStyle("#d62728", 2.2, "7 4", "#b01e1e", "wrong head"),
    "wrong-label": StatusStyle("#e07b00", 2.2, "2 3", "#b35f00", "wrong label: obl (gold obj)"),
}


HIGHLIGHT_FILL = "#ffe066"
"""The fill of a highlighted node or word (an atlas group's operation, a construction's word,
followed to the inspector)."""


def _f(v: float) -> str:
    """Compact number formatting for coordinates."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _dir_attrs(text: str) -> str:
    return ' direction="rtl" unicode-bidi="embed"' if is_rtl_text(text) else ""


def _arc_path(arc: ArcBox, layout: DepLayout) -> str:
    s = layout.style
    base = layout.base_y
    tip = base - s.arrow
    y = arc.y
    if arc.vertical:
        return f"M{_f(arc.x_dep)},{_f(y)} L{_f(arc.x_dep)},{_f(tip)}"
    x1, x2 = arc.x_head, arc.x_dep
    direction = 1.0 if x2 > x1 else -1.0
    r = min(s.corner, abs(x2 - x1) / 2, (base - y) / 2)
    return (
        f"M{_f(x1)},{_f(base)} L{_f(x1)},{_f(y + r)} Q{_f(x1)},{_f(y)} {_f(x1 + direction * r)},{_f(y)} "
        f"L{_f(x2 - direction * r)},{_f(y)} Q{_f(x2)},{_f(y)} {_f(x2)},{_f(y + r)} L{_f(x2)},{_f(tip)}"
    )


def _arrow(arc: ArcBox, layout: DepLayout) -> str:
    s = layout.style
    base = layout.base_y
    x = arc.x_dep
    half = s.arrow * 0.8
    return f"M{_f(x - half)},{_f(base - s.arrow)} L{_f(x + half)},{_f(base - s.arrow)} L{_f(x)},{_f(base)} Z"


def _tooltip(arc: ArcBox, layout: DepLayout) -> str:
    forms = {w.id: w.form for w in layout.words}

    def name(i: int | None) -> str:
        if i is None:
            return "?"
        if i < 0:  # a gold head that no word of this drawing stands for (a parse of raw text)
            return "a gold word the parse does not have"
        return "ROOT" if i == 0 else f"{i} {forms.get(i, '?')}"

    text = f"{arc.label}: {name(arc.head)} → {name(arc.dependent)}"
    if arc.status == "wrong-head":
        text += f" (gold: {arc.gold_label} from {name(arc.gold_head)})"
    elif arc.status == "wrong-label":
        text += f" (gold label: {arc.gold_label})"
    return text


def _text(cls: str, x: float, y: float, size: float, fill: str, text: str) -> str:
    """One centred line of text under a word (its form, tag or a note)."""
    return (
        f'<text class="{cls}" x="{_f(x)}" y="{_f(y)}" text-anchor="middle" '
        f'font-size="{_f(size)}" fill="{fill}"{_dir_attrs(text)}>{xml_escape(text)}</text>'
    )


def _word(word: WordBox, layout: DepLayout) -> list[str]:
    s = layout.style
    opacity = ' opacity="0.4"' if word.dimmed else ""
    cls = "word dimmed" if word.dimmed else "word"
    out = [f'<g class="{cls}{" highlighted" if word.highlighted else ""}" data-id="{word.id}"{opacity}>']
    if word.highlighted:  # a yellow box with a dark outline behind the form: not colour alone
        top = layout.word_y - s.word_size
        out.append(
            f'<rect class="highlight" x="{_f(word.left)}" y="{_f(top)}" width="{_f(word.width)}" '
            f'height="{_f(s.word_size * 1.35)}" rx="3" fill="{HIGHLIGHT_FILL}" stroke="#333333" '
            'stroke-width="1"/>'
        )
    out.append(_text("form", word.x, layout.word_y, s.word_size, "#111111", word.form))
    if word.tag:
        out.append(_text("tag", word.x, layout.tag_y, s.tag_size, "#6b6b6b", word.tag))
    for k, note in enumerate(word.notes):
        out.append(_text("note", word.x, layout.note_y(k), s.note_size, "#333333", note))
    out.append("</g>")
    return out


_LEGEND_LINE = 24.0  # the sample line of a legend entry; its text starts 6 px after it
_LEGEND_GAP = 16.0  # between two entries


def _legend(layout: DepLayout, y: float) -> list[str]:
    out = ['<g class="legend">']
    x = layout.style.margin
    size = layout.style.legend_size
    for status in ("correct", "wrong-head", "wrong-label"):
        st = STATUS_STYLES[status]
        dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
        out.append(
            f'<path d="M{_f(x)},{_f(y - 4)} L{_f(x + _LEGEND_LINE)},{_f(y - 4)}" stroke="{st.colour}" '
            f'stroke-width="{_f(st.width)}"{dash} fill="none"/>'
        )
        out.append(
            f'<text x="{_f(x + _LEGEND_LINE + 6)}" y="{_f(y)}" font-size="{_f(size)}" '
            f'fill="{st.label_colour}">{xml_escape(st.legend)}</text>'
        )
        x += _LEGEND_LINE + 6 + text_width(st.legend, size) + _LEGEND_GAP
    out.append("</g>")
    return out


def legend_width(layout: DepLayout) -> float:
    s = layout.style
    x = s.margin
    for status in ("correct", "wrong-head", "wrong-label"):
        x += _LEGEND_LINE + 6 + text_width(STATUS_STYLES[status].legend, s.legend_size) + _LEGEND_GAP
    return x


def dep_svg(layout: DepLayout, *, title: str | None = None, legend: bool | None = None) -> str:
    """A standalone SVG document for ``layout``.

    ``legend`` (default: only when the drawing is compared against a gold)
    adds one line explaining colours and dash patterns under the words.
    """
    s = layout.style
    show_legend = layout.compared if legend is None else legend
    width = max(layout.width, legend_width(layout) if show_legend else 0.0)
    height = layout.height + (s.legend_size + 8 if show_legend else 0)
    label = title if title is not None else (f"dependency tree {layout.sent_id}" if layout.sent_id else "")
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="dep-tree" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="{FONT_FAMILY}" role="img" '
        f'aria-label="{xml_escape(label)}" data-rtl="{"yes" if layout.rtl else "no"}">',
        f"<title>{xml_escape(label)}</title>",
        f'<rect class="background" x="0" y="0" width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>',
        '<g class="arcs">',
    ]
    for arc in layout.arcs:
        st = STATUS_STYLES[arc.status]
        dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
        classes = (
            f"arc arc-{arc.status}" + (" arc-root" if arc.is_root else "") + (" dimmed" if arc.dimmed else "")
        )
        opacity = ' opacity="0.4"' if arc.dimmed else ""
        out.append(
            f'<g class="{classes}" data-dep="{arc.dependent}" data-head="{arc.head}"{opacity}>'
            f"<title>{xml_escape(_tooltip(arc, layout))}</title>"
            f'<path d="{_arc_path(arc, layout)}" fill="none" stroke="{st.colour}" '
            f'stroke-width="{_f(st.width)}"{dash} stroke-linecap="butt"/>'
            f'<path d="{_arrow(arc, layout)}" fill="{st.colour}" stroke="none"/></g>'
        )
    out.append("</g>")
    out.append('<g class="labels">')
    for arc in layout.arcs:
        st = STATUS_STYLES[arc.status]
        x0, y0, x1, y1 = layout.label_box(arc)
        opacity = ' opacity="0.4"' if arc.dimmed else ""
        border = ""
        if arc.status in ("wrong-head", "wrong-label"):
            border = f' stroke="{st.colour}" stroke-width="0.8" stroke-dasharray="{st.dash}"'

        out.append(
            f'<g class="arc-label label-{arc.status}" data-dep="{arc.dependent}"{opacity}>'
            f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(x1 - x0)}" height="{_f(y1 - y0)}" rx="2" '
            f'fill="#ffffff"{border}/>'
            f'<text x="{_f(arc.label_x)}" y="{_f(arc.y + s.label_size * 0.36)}" text-anchor="middle" '
            f'font-size="{_f(s.label_size)}" fill="{st.label_colour}"{_dir_attrs(arc.text)}>'
            f"{xml_escape(arc.text)}</text></g>"
        )
    out.append("</g>")
    out.append('<g class="words">')
    for word in layout.words:
        out.extend(_word(word, layout))
    out.append("</g>")
    if show_legend:
        out.extend(_legend(layout, layout.height + 8))
    out.append("</svg>")
    return "\n".join(out)
