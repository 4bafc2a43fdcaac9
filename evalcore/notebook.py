"""The writers behind :mod:`evalcore.display`: what a value shows in Jupyter (docs/api.md), and its
table: the app's drawings (:mod:`evalcore.render`; Graphviz's ``dot`` makes SVG, ``None`` without
it) and the command line's tables (:mod:`evalcore.report`), every string from the data escaped.

Everything is imported inside the functions: looking a writer up costs nothing at start-up.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence

from evalcore.display import Cell, Table

__all__ = ["dot_svg", "html_table", "report_html", "result_dict", "result_table", "svg"]


def _writer(result: object, what: str) -> object:
    """What the writer ``what`` (``table`` or ``json``) of ``result``'s family makes of it: the
    result is looked up in the registry (:mod:`evalcore.families`), its writer in its module."""
    import importlib

    from evalcore.registry import writers_of

    found = writers_of(result)
    if found is None:
        raise TypeError(f"no {'table' if what == 'table' else 'JSON document'} for a {type(result).__name__}")
    writers = found[1]
    write = getattr(importlib.import_module(writers.module), getattr(writers, what))
    if what == "json" and writers.per_sentence is not None:
        return write(result, per_sentence=bool(getattr(result, writers.per_sentence)))
    return write(result)


def result_table(result: object) -> Table:
    """The tidy table of a result object (the rows of the command line's CSV)."""
    table = _writer(result, "table")
    assert isinstance(table, Table)
    return table


def result_dict(result: object) -> dict[str, object]:
    """The ``--format json`` document of a result object (``per_sentence`` when it was kept)."""
    document = _writer(result, "json")
    assert isinstance(document, dict)
    return document


def _html_rows(headers: Sequence[str], rows: Sequence[Sequence[Cell]], digits: int) -> list[str]:
    from evalcore.render.text import xml_escape
    from evalcore.report.tables import _fmt

    out = ["<thead><tr>" + "".join(f"<th>{xml_escape(h)}</th>" for h in headers) + "</tr></thead>", "<tbody>"]
    for row in rows:
        cells = []
        for c in row:
            number = isinstance(c, int | float) and not isinstance(c, bool)
            align = ' style="text-align:right"' if number else ""
            cells.append(f"<td{align}>{xml_escape(_fmt(c, digits))}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody>")
    return out


def html_table(table: Table, *, title: str = "", digits: int = 4) -> str:
    """``table`` as a small HTML table (numbers right-aligned), the signature as its caption."""
    from evalcore.render.text import xml_escape

    caption = f"{xml_escape(title)}: " if title else ""
    return "\n".join(
        [
            '<table class="evalcore-result">',
            f"<caption>{caption}<code>{xml_escape(table.signature)}</code></caption>",
            *_html_rows(table.headers, table.rows, digits),
            "</table>",
        ]
    )


def dot_svg(dot: str, *, timeout: float = 60.0) -> str | None:
    """The SVG Graphviz's ``dot`` draws for ``dot`` (from ``<svg`` on, to sit inline in HTML), or
    ``None`` without a ``dot`` program or when it fails."""
    exe = shutil.which("dot")
    if exe is None:
        return None
    try:
        done = subprocess.run(
            [exe, "-Tsvg"], input=dot.encode("utf-8"), capture_output=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    svg_text = done.stdout.decode("utf-8", errors="replace")
    start = svg_text.find("<svg")
    return svg_text[start:] if done.returncode == 0 and start >= 0 else None


def svg(value: object) -> str | None:
    """The app's drawing of a tree, function tree or lattice, as SVG."""
    from evalcore.render.dot import lattice_to_dot, tree_to_dot
    from evalcore.render.edits import marked_tree_dot
    from evalcore.render.layout import layout_dep
    from evalcore.render.svg import dep_svg
    from evalcore.trees import DepTree, Lattice, MFTree, SpanTree, Tree

    if isinstance(value, DepTree):
        return dep_svg(layout_dep(value))
    if isinstance(value, Tree | MFTree):
        return dot_svg(tree_to_dot(value))
    if isinstance(value, SpanTree):
        return dot_svg(marked_tree_dot(value))
    if isinstance(value, Lattice):
        return dot_svg(lattice_to_dot(value))
    raise TypeError(f"no drawing for a {type(value).__name__}")


def _ted_line(ted: object) -> str:
    from evalcore.metrics.tedeval import SentenceTed

    assert isinstance(ted, SentenceTed)
    return (
        f"{len(ted.script)} operations, {len(ted.discounted)} discounted; "
        f"δ = {ted.delta}; |p| + |G| = {ted.norm}; score {ted.score:.4f}"
    )


def report_html(value: object) -> str:
    """One sentence's edit scripts: for a :class:`~evalcore.metrics.tedeval.SentenceTed`, its
    operations; for a :class:`~evalcore.inspection.SentenceReport`, each parse's labeled script
    to the generalized gold drawn as the inspector draws it (deletions on the parse, insertions
    on the generalized gold, counted or discounted) with its operations."""
    from evalcore.inspection import SentenceReport, with_discount
    from evalcore.metrics.tedeval import SentenceTed
    from evalcore.reasons import hover_lines, operation_table, reasons_of
    from evalcore.render.edits import marked_tree_dot
    from evalcore.render.text import xml_escape

    if isinstance(value, SentenceTed):
        rows = [
            [str(op), "discounted" if disc else "counted"]
            for op, disc in with_discount(value.script, value.discounted)
        ]
        body = "\n".join(_html_rows(("operation", "status"), rows, 4))
        return (
            f'<div class="evalcore-script"><p>{xml_escape(_ted_line(value))}</p><table>{body}</table></div>'
        )
    if not isinstance(value, SentenceReport):
        raise TypeError(f"no page for a {type(value).__name__}")
    out = ['<div class="evalcore-sentence">']
    for view in value.parses:
        ted = view.multiple[1]
        marks = view.marks(value.general, labeled=True)
        whys = reasons_of(value, view, marks, single=False, target="generalized gold")
        notes = [hover_lines(w) for w in whys]
        out.append(
            f"<h4>{xml_escape(view.name)} ({xml_escape(view.scheme)}) against the generalized gold: "
            f"{xml_escape(_ted_line(ted))}</h4>"
        )
        dots = (
            (f"{view.name}: deletions", marked_tree_dot(view.span_tree, marks, side="parse", notes=notes)),
            (
                "generalized gold: insertions",
                marked_tree_dot(value.general, marks, side="general", notes=notes),
            ),
        )
        for title, dot in dots:
            drawing = dot_svg(dot)
            out.append(
                f"<div><p>{xml_escape(title)}</p>{drawing}</div>"
                if drawing
                else f"<pre>{xml_escape(dot)}</pre>"
            )
        table = operation_table(
            whys,
            sentence=value.general.sent_id,
            parse=view.name,
            target="generalized gold",
            protocol=value.config.protocol,
            labeled=True,
        )
        cells: list[list[Cell]] = [list(row) for row in table.rows]
        out.append("<table>" + "\n".join(_html_rows(table.columns, cells, 4)) + "</table>")
    out.append("</div>")
    return "\n".join(out)
