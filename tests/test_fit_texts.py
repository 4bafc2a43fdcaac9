"""No text of any drawing under 9 px once fitted (docs/app.md, "Drawings that fit").

Every kind of drawing the workbench shows is made here as its view makes it (dependency trees with
their tags, relation labels, wrong-label notes and legend; the NED page's per-word verdicts; a parse
of raw text aligned with its gold; function trees with positions and edit-script marks; constituency
trees; lattices and trees over them; FREVAL's charts), put in a box by :func:`workbench.fit.box_html`
at the narrowest width the rule allows, and every ``<text>`` of it is read with an XML parser (its
font size, inherited or its own, times the scales of its ancestors and of the box): none is under
9 px.  The rule reads the smallest text by a pattern (:func:`workbench.fit.smallest_font`); the
parser here is the independent check that the pattern misses no text.
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import pytest
from test_app_raw_text import GOLD, RAW

from evalcore.conversion import to_span_tree
from evalcore.formats.conllu import read_conllu
from evalcore.inspection import arc_verdicts
from evalcore.lattice.model import LatticeTree, Lexeme
from evalcore.metrics.conll18 import align_words
from evalcore.render.dot import lattice_to_dot, tree_to_dot
from evalcore.render.edits import marked_tree_dot
from evalcore.render.lattice_draw import lattice_tree_to_dot
from evalcore.render.layout import LayoutStyle, layout_dep, merge_grids, word_grid
from evalcore.render.svg import dep_svg
from evalcore.trees import Arc, DepTree, Lattice, Tree
from workbench.aligned_drawing import aligned_drawing, aligned_layouts
from workbench.charts import Line, line_chart
from workbench.fit import (
    MIN_TEXT_PX,
    PT,
    Drawing,
    box_html,
    dep_drawing,
    graphviz_drawing,
    min_box_width,
    smallest_font,
    svg_drawing,
)

ROOT = Path(__file__).resolve().parents[1]
FR = ROOT / "assets" / "fr_gsd"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot draws these")

# ---------------------------------------------------------------------------
# reading an SVG's texts with a parser


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _font(el: ET.Element) -> float | None:
    style = re.search(r"font-size:\s*([0-9.]+)", el.get("style", ""))
    if style is not None:
        return float(style.group(1))
    size = el.get("font-size")
    return float(size.removesuffix("px")) if size else None


def _scale(el: ET.Element) -> float:
    m = re.search(r"scale\(\s*([0-9.]+)", el.get("transform", ""))
    return float(m.group(1)) if m else 1.0


def text_sizes(svg: str) -> list[tuple[float, str]]:
    """``(font size in the root's user units, text)`` of every non-empty ``<text>`` of ``svg``."""
    root = ET.fromstring(svg[svg.index("<svg") :])
    out: list[tuple[float, str]] = []

    def walk(el: ET.Element, font: float | None, scale: float) -> None:
        font = _font(el) or font
        scale *= _scale(el)
        if _local(el.tag) == "text" and "".join(el.itertext()).strip():
            assert font is not None, f"a text without a size: {''.join(el.itertext())!r}"
            out.append((font * scale, "".join(el.itertext()).strip()))
        for child in el:
            walk(child, font, scale)

    walk(root, None, 1.0)
    return out


def px_per_unit(d: Drawing) -> float:
    """Screen px per user unit of ``d``'s SVG at 100 % (its width in px over its viewBox width)."""
    box = re.search(r'viewBox="[-0-9.]+[ ,]+[-0-9.]+[ ,]+([0-9.]+)', d.svg[: d.svg.index(">")])
    assert box is not None, "every drawing we show has a viewBox"
    return d.width / float(box.group(1))


def fitted_texts(drawings: Sequence[Drawing]) -> list[tuple[float, str]]:
    """Every text's height in px when the box of ``drawings`` is as narrow as the rule lets it be
    (the CSS ``min-width`` of :func:`box_html`; all drawings of a box share one scale)."""
    html = box_html(drawings, key="probe")
    narrowest = float(re.search(r"min-width:([0-9.]+)px;", html).group(1))  # type: ignore[union-attr]
    natural = max(d.width for d in drawings)
    scale = narrowest / natural
    assert narrowest + 2.0 == pytest.approx(min_box_width(drawings, None), abs=0.06)
    return [(size * px_per_unit(d) * scale, text) for d in drawings for size, text in text_sizes(d.svg)]


def assert_readable(drawings: Sequence[Drawing]) -> None:
    texts = fitted_texts(drawings)
    assert texts, "no text found"
    small = sorted(t for t in texts if t[0] < MIN_TEXT_PX - 1e-6)
    assert not small, small[:10]


# ---------------------------------------------------------------------------
# the drawings, as the views make them


def _french(n: int) -> tuple[list[DepTree], list[DepTree], list[DepTree]]:
    def read(path: str) -> list[DepTree]:
        trees = []
        for t in read_conllu(FR / path):
            trees.append(t)
            if len(trees) == n:
                break
        return trees

    return (
        read("fr_gsd-ud-test.r2.16.conllu.gz"),
        read("fr_gsd-sud-test.r2.16.conllu.gz"),
        read("parses/fr_gsd-test.spacy-sud.conllu.gz"),
    )


UD, SUD, SUD_PARSE = _french(12)


def _inspector_box(gold: DepTree, parses: Sequence[DepTree]) -> list[Drawing]:
    """One scheme's box in the inspector: its gold and its parses on one grid, compared."""
    items = [(gold, None), *((p, arc_verdicts(gold, p)) for p in parses)]
    first = [layout_dep(t, v) for t, v in items]
    grid = merge_grids([word_grid(x) for x in first])
    return [dep_drawing(dep_svg(layout_dep(t, v, grid=grid)), title=t.sent_id) for t, v in items]


@pytest.mark.parametrize("i", range(12))
def test_inspector_dependency_boxes(i: int) -> None:
    """Words, tags, relation labels, ``obl (gold obj)`` notes and the legend: French-GSD's first
    sentences (fr-ud-test_00001 is the first), the SUD box as the inspector draws it, with the SUD
    parse and the UD gold read as a parse of the SUD gold (many wrong labels)."""
    box = _inspector_box(SUD[i], [SUD_PARSE[i], UD[i]])
    assert UD[0].sent_id == "fr-ud-test_00001"
    assert "(gold " in box[2].svg  # a wrong label's note
    svg = box[1].svg
    assert 'class="tag"' in svg and 'class="legend"' in svg and 'class="arc-label' in svg
    assert_readable(box)


def test_ned_verdicts_under_the_words() -> None:
    """The NED page's per-word verdicts are notes under the words (``UAS ✓`` ...)."""
    gold, parse = SUD[0], SUD_PARSE[0]
    notes = {t.id: ("UAS ✓", "und. ✗", "NED ✓") for t in parse.tokens}
    svg = dep_svg(layout_dep(parse, arc_verdicts(gold, parse), notes=notes, dimmed=[1]))
    assert svg.count('class="note"') == 3 * len(parse.tokens)
    assert_readable([dep_drawing(dep_svg(layout_dep(gold))), dep_drawing(svg)])


def test_a_parse_of_raw_text_aligned_with_its_gold() -> None:
    """Faded words and their notes (``merges sleeps+.``, ``its sentence goes on``)."""
    d = aligned_drawing(align_words(GOLD, RAW), 0)
    gold, system = aligned_layouts(d)
    svgs = [dep_svg(gold), dep_svg(system)]
    assert "merges sleeps+." in svgs[1]
    assert_readable([dep_drawing(s) for s in svgs])


def test_every_text_of_a_dependency_drawing_is_as_large_as_its_words() -> None:
    """The layout draws tags, labels, notes and the legend at the words' size: fitting by the
    smallest text then costs no more room than fitting by the words did."""
    s = LayoutStyle()
    assert s.tag_size == s.label_size == s.note_size == s.legend_size == s.word_size
    svg = dep_svg(layout_dep(SUD_PARSE[0], arc_verdicts(SUD[0], SUD_PARSE[0]), notes={1: ("a note",)}))
    assert {size for size, _ in text_sizes(svg)} == {s.word_size}
    assert smallest_font(svg) == s.word_size and dep_drawing(svg).text_px == s.word_size


def _dot_svg(dot: str) -> str:
    import graphviz

    return str(graphviz.Source(dot).pipe(format="svg", encoding="utf-8"))


@needs_dot
@pytest.mark.parametrize("scale", [0.8, 1.0])
def test_function_trees_with_positions_and_marks(scale: float) -> None:
    """fr-ud-test_00001's UD function tree: terminals with their positions (drawn as large as the
    words), a node marked and highlighted, a title; the inspector's trees at 0.8, the tour's at 1."""
    span = to_span_tree(UD[0])
    plain = _dot_svg(tree_to_dot(span.to_mftree(), title="gold UD"))
    assert re.search(r">\s*29</text>", plain), "the positions are drawn"
    d = graphviz_drawing(plain, scale=scale)
    # positions no smaller than the words (12 pt); Graphviz's viewBox is a hair off its width
    assert d.text_px == pytest.approx(12 * PT * scale, rel=1e-3)
    assert_readable([d])
    styled = tree_to_dot(
        span.to_mftree(), styles={1: "counted", 2: "discounted", 3: "deleted"}, highlighted=[1]
    )
    assert_readable([graphviz_drawing(_dot_svg(styled), scale=scale)])


@needs_dot
def test_edit_script_and_constituency_trees() -> None:
    """The edit script's trees (edits.marked_tree_dot) and a bracketed tree (the inspector's evalb)."""
    nested = ("S", ("NP", ("DT", "The"), ("NN", "cat")), ("VP", ("VBZ", "sleeps")), (".", "."))
    for dot in (
        marked_tree_dot(to_span_tree(SUD[0]), title="spaCy SUD parser: deletions"),
        tree_to_dot(Tree.from_nested(nested), title="evalb"),
    ):
        assert_readable([graphviz_drawing(_dot_svg(dot), scale=0.8)])
        assert_readable([graphviz_drawing(_dot_svg(dot))])


@needs_dot
@pytest.mark.parametrize("scale", [0.75, 1.0])
def test_lattices_and_trees_over_them(scale: float) -> None:
    """State numbers, segment/tag labels, a path arc not in the lattice (the Lattice page at 1, the
    tour at 0.75); a tree over a lattice path, mirrored."""
    arcs = (
        Arc(0, 1, "B", "_", "IN", "IN", "_", 1),
        Arc(1, 2, "H", "_", "DEF", "DEF", "_", 1),
        Arc(2, 3, "GN", "_", "NN", "NN", "_", 1),
        Arc(0, 3, "BGN", "_", "NN", "NN", "_", 1),
        Arc(3, 4, "NEIM", "_", "JJ", "JJ", "_", 2),
    )
    other = Arc(3, 4, "NEIM", "_", "VB", "VB", "_", 2)
    dot = lattice_to_dot(
        Lattice(arcs), gold_path=arcs[:3] + arcs[4:], pred_path=(arcs[3], other), title="lattice"
    )
    svg = _dot_svg(dot)
    assert "not in lattice" in svg
    assert_readable([graphviz_drawing(svg, scale=scale)])
    lexemes = tuple(Lexeme(a.segment, a.cpos, a.token_id, a.start, a.end) for a in (*arcs[:3], arcs[4]))
    tree = LatticeTree(
        ("NP", "IN", "DEF", "NN", "JJ"), ((1, 2, 3, 4), (), (), (), ()), (None, *lexemes), sent_id="1"
    )
    assert_readable([graphviz_drawing(_dot_svg(lattice_tree_to_dot(tree, title="gold")), scale=scale)])


def test_freval_charts() -> None:
    lines = [Line("a parser", ((1, 80.0), (2, 85.5), (3, 90.0))), Line("b", ((1, 70.0), (3, 95.0)))]
    chart = line_chart(lines, title="F1_s by fragment size", x_title="size", y_title="F1_s (%)")
    d = svg_drawing(chart.svg)
    assert d.width == pytest.approx(chart.width)
    assert_readable([d])


# ---------------------------------------------------------------------------
# the rule's reading of sizes


def test_smallest_font_reads_every_text() -> None:
    svg = (
        '<svg width="100" height="20" viewBox="0 0 100 20"><text x="0" font-size="14">a</text>'
        '<g><text class="t" font-size="10.5px" x="1">b</text></g><text font-size="12">c</text></svg>'
    )
    assert smallest_font(svg) == 10.5
    assert smallest_font('<svg width="1" height="1"><rect width="1"/></svg>') is None


def test_graphviz_scale_and_view_box_are_read() -> None:
    """A Graphviz SVG whose viewBox is in px and whose graph is scaled (some versions write it so):
    the texts' size on screen is what the rule keeps, not the raw attribute."""
    svg = (
        '<svg width="300pt" height="90pt" viewBox="0.00 0.00 400.00 120.00" xmlns="http://www.w3.org/2000/svg">'
        '<g id="graph0" class="graph" transform="scale(1.3333 1.3333) rotate(0) translate(4 86)">'
        '<text font-size="12.00">w</text></g></svg>'
    )
    d = graphviz_drawing(svg)
    assert d.width == pytest.approx(400.0)
    assert d.text_px == pytest.approx(12 * 1.3333)
    assert_readable([d])
