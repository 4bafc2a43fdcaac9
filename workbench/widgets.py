"""Widgets shared by the pages: the sentence picker, figures, downloads (the dataset choice and
uploads are :mod:`workbench.uploads`'; ``choose_dataset`` is re-exported here).

State that must survive page switches lives under ``_wb_*`` keys of
``st.session_state`` (widget keys are dropped when a page does not draw the
widget).  The dataset and the sentence are mirrored in the URL
(``?data=fr_gsd&sent=fr-ud-test_00005``) so any view can be linked; what a
link says is read only through :mod:`workbench.links` (validated values, and
the problems shown in the sidebar).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from evalcore.render.layout import LayoutStyle
from workbench.datasets import LoadedDataset, SentenceInfo
from workbench.fit import (
    GRAPHVIZ_TREE_PT,
    MIN_LABEL_PX,
    ZOOMS,
    Drawing,
    box_html,
    dep_drawing,
    graphviz_drawing,
    zoom_factor,
)
from workbench.links import current_link
from workbench.text import md_escape, safe_stem
from workbench.uploads import UPLOAD_KEY, choose_dataset, current_dataset_key

__all__ = [
    "UPLOAD_KEY",
    "Figure",
    "choose_dataset",
    "csv_bytes",
    "current_dataset_key",
    "current_zoom",
    "download_table",
    "drawing_size_control",
    "graphviz_figure",
    "md_escape",
    "safe_stem",
    "sentence_picker",
    "stacked_figures",
]

# ---------------------------------------------------------------------------
# sentence picker


def _match(info: SentenceInfo, query: str) -> bool:
    q = query.strip().lower()
    if not q:
        return True
    if q.isdigit() and int(q) == info.index + 1:
        return True
    return q in info.sent_id.lower() or q in info.text.lower()


def _move(perm: str, select_key: str, options: list[int], step: int) -> None:
    cur = st.session_state.get(select_key, options[0])
    pos = options.index(cur) if cur in options else 0
    new = options[max(0, min(len(options) - 1, pos + step))]
    st.session_state[select_key] = new
    st.session_state[perm] = new


def _copy(perm: str, select_key: str) -> None:
    st.session_state[perm] = st.session_state[select_key]


def sentence_picker(
    loaded: LoadedDataset,
    *,
    worst: Callable[[], Mapping[int, float]] | None = None,
    worst_label: str = "worst first",
    key: str = "main",
    orders: Sequence[tuple[str, Callable[[], Mapping[int, float]]]] = (),
) -> SentenceInfo:
    """Pick a sentence by id or words, in file order or worst first, or step with ◀ ▶.

    ``worst`` returns a score per sentence index (lower = worse); it is called
    only when the user orders worst first.  ``orders`` adds more such orderings
    (label, scores), listed after ``worst_label``.  The choice is kept per
    dataset and written to the URL as ``?sent=``; a ``?sent=`` the app did not
    write itself (a link followed within the session) takes over.
    """
    sents = loaded.sentences
    if not sents:
        st.warning("This dataset has no sentence to show.")
        st.stop()
    dataset = loaded.spec.key
    perm = f"_wb_sent:{dataset}"
    select_key = f"wb_sent:{key}:{dataset}"
    url_key = "_wb_sent_url"  # the last ?sent= this app wrote (any dataset)
    ref = current_link().sentence()  # validated: a number of ASCII digits, or a printable id
    wanted = None if ref is None else ref.id if ref.id is not None else str(ref.number)
    external = wanted is not None and wanted != st.session_state.get(url_key)
    if perm not in st.session_state or external:
        start: int | None = None
        if ref is not None:
            by_id = {s.sent_id: s.index for s in sents}
            if wanted in by_id:
                start = by_id[wanted]
            elif ref.number is not None and 1 <= ref.number <= len(sents):
                start = ref.number - 1
        if start is not None:
            st.session_state[perm] = start
            st.session_state.pop(select_key, None)
        elif perm not in st.session_state:
            st.session_state[perm] = 0
    cur = int(st.session_state[perm])
    if not 0 <= cur < len(sents):
        cur = 0

    c_find, c_order, c_pick, c_prev, c_next = st.columns(
        [2.2, 1.4, 6, 0.55, 0.55], vertical_alignment="bottom"
    )
    query = c_find.text_input("Find (id, number or words)", key=f"wb_find:{key}")
    rankings = dict(orders)
    if worst is not None:
        rankings = {worst_label: worst, **rankings}
    order = c_order.selectbox(
        "Order",
        ["file order", *rankings] if rankings else ["file order", worst_label],
        key=f"wb_order:{key}",
        disabled=not rankings,
    )
    options = [s.index for s in sents if _match(s, query)]
    if order in rankings:
        scores = rankings[order]()
        options.sort(key=lambda i: (scores.get(i, float("inf")), i))
    if not options:
        c_pick.warning("No sentence matches; showing the current one.")
        options = [cur]
    order_key = f"_wb_order:{key}:{dataset}"
    if st.session_state.get(order_key, "file order") != order:
        cur = options[0]  # a new order starts at its top: worst first shows the worst sentence
    st.session_state[order_key] = order
    if cur not in options:
        cur = options[0]
    st.session_state[perm] = cur
    st.session_state[select_key] = cur
    c_pick.selectbox(
        f"Sentence ({len(options)} of {len(sents)})",
        options,
        key=select_key,
        format_func=lambda i: sents[i].title(),
        on_change=_copy,
        args=(perm, select_key),
    )
    c_prev.button(
        "◀",
        key=f"wb_prev:{key}",
        help="previous sentence",
        on_click=_move,
        args=(perm, select_key, options, -1),
    )
    c_next.button(
        "▶", key=f"wb_next:{key}", help="next sentence", on_click=_move, args=(perm, select_key, options, 1)
    )
    chosen = sents[int(st.session_state[select_key])]
    st.query_params["sent"] = chosen.sent_id
    st.session_state[url_key] = chosen.sent_id
    return chosen


# ---------------------------------------------------------------------------
# figures and downloads (sizing: workbench/fit.py)

ZOOM_KEY = "_wb_zoom"  # the "Drawing size" choice, kept across pages


def _on_zoom_change() -> None:
    st.session_state[ZOOM_KEY] = st.session_state["wb_zoom"]


def drawing_size_control() -> None:
    """Sidebar control: drawings fitted to their box (default) or at a fixed share of their size."""
    choice = st.session_state.get(ZOOM_KEY, "fit")
    st.session_state["wb_zoom"] = choice if choice in ZOOMS else "fit"
    st.sidebar.select_slider(
        "Drawing size",
        ZOOMS,
        key="wb_zoom",
        on_change=_on_zoom_change,
        help="fit: each drawing is scaled to its column while its words stay at least "
        f"{MIN_LABEL_PX:.0f} px high; below that its column takes the whole width, and only then does "
        "it scroll sideways. A percentage: that share of the drawing's own size (scrolls when wider).",
    )


def current_zoom() -> float | None:
    """The chosen drawing size: ``None`` = fit, else a share of the drawings' own size."""
    return zoom_factor(str(st.session_state.get(ZOOM_KEY, "fit")))


def _show_box(drawings: Sequence[Drawing], *, key: str, css_class: str, rtl: bool, titles: bool) -> None:
    """Put SVGs we wrote (every data string escaped) inline in the page, sized by workbench/fit.py.

    ``st.html`` cannot be used: its sanitizer keeps HTML only and drops SVG.
    Markdown with raw HTML keeps the SVG as it is (blank lines are removed in
    :func:`~workbench.fit.box_html`: they would end the HTML block).
    """
    html = box_html(drawings, key=key, zoom=current_zoom(), rtl=rtl, css_class=css_class, titles=titles)
    st.markdown(html, unsafe_allow_html=True)


@dataclass(frozen=True, slots=True)
class Figure:
    """One drawing for :func:`stacked_figures`."""

    title: str
    svg: str
    dot: str | None
    stem: str
    key: str
    note: str = ""


def _word_size(svg: str) -> float:
    """The font size of the word forms of a dependency SVG (``LayoutStyle.word_size``)."""
    m = re.search(r'<text class="form"[^>]*\sfont-size="([0-9.]+)"', svg)
    return float(m.group(1)) if m else LayoutStyle().word_size


def stacked_figures(figures: Sequence[Figure]) -> None:
    """Several dependency drawings in one box, one scale for all (aligned words stay aligned).

    Titles are inside the box, above each drawing; downloads are listed below.
    """
    rtl = all('data-rtl="yes"' in fig.svg for fig in figures)
    drawings = [dep_drawing(f.svg, _word_size(f.svg), title=f.title, note=f.note) for f in figures]
    key = "stack:" + "|".join(f.key for f in figures)
    _show_box(drawings, key=key, css_class="wb-stack", rtl=rtl, titles=True)
    with st.expander("Download these drawings (SVG, DOT)"):
        for fig in figures:
            cols = st.columns([4, 1, 1])
            cols[0].markdown(md_escape(fig.title))
            cols[1].download_button(
                "SVG",
                fig.svg,
                file_name=f"{safe_stem(fig.stem)}.svg",
                mime="image/svg+xml",
                key=f"svg:{fig.key}",
                on_click="ignore",
            )
            if fig.dot is not None:
                cols[2].download_button(
                    "DOT",
                    fig.dot,
                    file_name=f"{safe_stem(fig.stem)}.dot",
                    mime="text/vnd.graphviz",
                    key=f"dot:{fig.key}",
                    on_click="ignore",
                )


@st.cache_data(show_spinner=False, max_entries=128)
def dot_to_svg(dot: str) -> str | None:
    """Render DOT with the Graphviz ``dot`` program, or ``None`` if it is not installed."""
    try:
        import graphviz

        return graphviz.Source(dot).pipe(format="svg", encoding="utf-8")
    except Exception:  # graphviz missing (ExecutableNotFound) or failing: DOT download only
        return None


def graphviz_figure(
    dot: str,
    *,
    stem: str,
    key: str,
    scale: float = 1.0,
    label_pt: float = GRAPHVIZ_TREE_PT,
    rtl: bool = False,
) -> None:
    """Show a DOT figure (rendered by Graphviz on the server when installed, else in the browser).

    Downloads: DOT always, SVG when Graphviz is installed.  ``scale``: the size in the page at 100 %
    (the downloaded SVG keeps Graphviz's size); the drawing is fitted to its column by the rule of
    workbench/fit.py, its word labels being ``label_pt`` points.  ``rtl``: the box starts scrolled
    to its right end (a lattice drawn right to left).
    """
    svg = dot_to_svg(dot)
    if svg is not None:
        drawing = graphviz_drawing(svg, scale=scale, label_pt=label_pt)
        marked = drawing.svg.replace("<svg ", '<svg data-rtl="yes" ', 1) if rtl else drawing.svg
        _show_box(
            [Drawing(marked, drawing.width, drawing.label_px, drawing.label_font)],
            key=f"gv:{key}",
            css_class="wb-dot",
            rtl=rtl,
            titles=False,
        )
    else:
        st.graphviz_chart(dot)
    row = st.container(horizontal=True, gap="small")
    if svg is not None:
        row.download_button(
            "SVG",
            svg,
            file_name=f"{safe_stem(stem)}.svg",
            mime="image/svg+xml",
            key=f"svg:{key}",
            on_click="ignore",
        )
    row.download_button(
        "DOT",
        dot,
        file_name=f"{safe_stem(stem)}.dot",
        mime="text/vnd.graphviz",
        key=f"dot:{key}",
        on_click="ignore",
    )


def csv_bytes(df: pd.DataFrame) -> bytes:
    """The CSV of a table, text cells that a spreadsheet would run as formulas neutralized
    (a leading ``'``, as the command line's CSV: ``evalcore.commands._output.csv_cell``)."""
    from evalcore.commands._output import csv_cell

    safe = df.copy()
    safe.columns = [csv_cell(str(c)) for c in safe.columns]
    for col in safe.columns:
        if pd.api.types.is_object_dtype(safe[col]) or pd.api.types.is_string_dtype(safe[col]):
            safe[col] = safe[col].map(csv_cell)
    return safe.to_csv(index=False).encode("utf-8")


def download_table(df: pd.DataFrame, *, stem: str, key: str, label: str = "CSV") -> None:
    st.download_button(
        label,
        csv_bytes(df),
        file_name=f"{safe_stem(stem)}.csv",
        mime="text/csv",
        key=f"csv:{key}",
        on_click="ignore",
    )
