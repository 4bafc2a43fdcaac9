"""Widgets shared by the pages: the sentence picker, figures, downloads (the dataset choice and
uploads are :mod:`workbench.uploads`'; ``choose_dataset`` is re-exported here).

State that must survive page switches lives under ``_wb_*`` keys of ``st.session_state`` (widget
keys are dropped when a page does not draw the widget); the dataset and the sentence are in the URL,
read only through :mod:`workbench.links` (docs/app.md, "Links").
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import pandas as pd
import streamlit as st

from workbench.datasets import LoadedDataset, SentenceInfo
from workbench.fit import (
    MIN_TEXT_PX,
    ZOOMS,
    Drawing,
    box_html,
    dep_drawing,
    graphviz_drawing,
    svg_drawing,
    zoom_factor,
)
from workbench.links import (
    current_link,
    keep_widget,
    report_link_problem,
    seed_widget,
    widget_value,
    write_link,
)
from workbench.settings_form import bind
from workbench.svghost import DownloadFile, show_html
from workbench.tables import csv_bytes
from workbench.text import md_code, md_escape, safe_stem
from workbench.uploads import UPLOAD_KEY, choose_dataset, current_dataset_key

__all__ = [
    "UPLOAD_KEY",
    "Figure",
    "Ordering",
    "choose_dataset",
    "csv_bytes",
    "current_dataset_key",
    "current_zoom",
    "download_table",
    "drawing_size_control",
    "graphviz_figure",
    "lazy_expander",
    "linked_table",
    "md_code",
    "md_escape",
    "prerender",
    "safe_stem",
    "sentence_picker",
    "sentence_table",
    "stacked_figures",
    "svg_figure",
]

# ---------------------------------------------------------------------------
# sentence picker


def _match(info: SentenceInfo, query: str) -> bool:
    q = query.strip().lower()
    if not q:
        return True
    if q.isascii() and q.isdigit() and int(q) == info.index + 1:
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


@dataclass(frozen=True)
class Ordering:
    """One order of the picker: ``id`` (``order=`` in the URL), its label, and a score per sentence
    index (lower first; computed only when the order is chosen).  A ranked order (worst first)
    hides short sentences by default (``short`` of :func:`sentence_picker`)."""

    id: str
    label: str
    scores: Callable[[], Mapping[int, float]]
    ranked: bool = True


SHORT = 4
"""Worst-first orders hide sentences of fewer words than this unless the user says otherwise."""


def _start_sentence(loaded: LoadedDataset, perm: str, select_key: str) -> None:
    """The sentence a link asks for, when it was followed (or the session's, else the first);
    an id or number the dataset does not have is said, not silently replaced."""
    sents = loaded.sentences
    url_key = "_wb_sent_url"  # the last ?sent= this app wrote (any dataset)
    ref = current_link().sentence()  # validated: a number of ASCII digits, or a printable id
    wanted = None if ref is None else ref.id if ref.id is not None else str(ref.number)
    external = wanted is not None and wanted != st.session_state.get(url_key)
    if perm in st.session_state and not external:
        return
    start: int | None = None
    # a sentence this app wrote for another dataset (the dataset was just changed) is not asked for
    if ref is not None and external:
        by_id = {s.sent_id: s.index for s in sents}
        if wanted in by_id:
            start = by_id[wanted]
        elif ref.number is not None and 1 <= ref.number <= len(sents):
            start = ref.number - 1
        else:
            shown = md_escape(wanted or "")
            st.warning(
                f"The link asks for sentence **{shown}**, which {md_escape(loaded.spec.title)} does not have "
                f"(it has {len(sents):,} sentences: a number from 1 to {len(sents):,} or an id such as "
                f"{md_code(sents[0].sent_id)}); showing "
                + ("the sentence shown before." if perm in st.session_state else "the first sentence."),
                icon="🔗",
            )
    if start is not None:
        st.session_state[perm] = start
        st.session_state.pop(select_key, None)
    elif perm not in st.session_state:  # a first visit: the dataset's telling sentence, else the first
        st.session_state[perm] = next((s.index for s in sents if s.sent_id == loaded.spec.start), 0)


def _order_choices(
    key: str, rankings: Sequence[Ordering], worst_label: str
) -> tuple[list[str], dict[str, str]]:
    """The order ids and labels of the picker; the order widget seeded from ``order=``."""
    labels = {"file": "file order", **{o.id: o.label for o in rankings}}
    if not rankings:
        labels["worst"] = worst_label
    ids = list(labels)
    widget = f"wb_order:{key}"
    refused = seed_widget("order", widget, "file", lambda v: v if v in ids else None)
    if refused is not None:
        report_link_problem(f"order: '{refused}' is not an order of this page")
    if st.session_state.get(widget) not in ids:
        st.session_state[widget] = "file"
    return ids, labels


def sentence_picker(
    loaded: LoadedDataset,
    *,
    worst: Callable[[], Mapping[int, float]] | None = None,
    worst_label: str = "worst first",
    key: str = "main",
    orders: Sequence[Ordering] = (),
    keep: Callable[[int], bool] | None = None,
    short: int = 0,
) -> SentenceInfo:
    """Pick a sentence by id or words, in file order or worst first, or step with ◀ ▶ (docs/app.md,
    "Picking a sentence"; ``sent=``, ``find=``, ``order=``, ``minwords=`` in the URL).

    ``worst`` returns a score per sentence index (lower = worse), called only when the user orders
    worst first; ``orders`` adds more orderings after it; ``keep``: the page's own filters (an index
    is shown when it returns true); ``short``: ranked orders hide sentences of fewer words by default.
    """
    sents = loaded.sentences
    if not sents:
        st.warning("This dataset has no sentence to show.")
        st.stop()
    dataset = loaded.spec.key
    perm = f"_wb_sent:{dataset}"
    select_key = f"wb_sent:{key}:{dataset}"
    _start_sentence(loaded, perm, select_key)
    cur = int(st.session_state[perm])
    if not 0 <= cur < len(sents):
        cur = 0

    rankings = [*([Ordering("worst", worst_label, worst)] if worst is not None else []), *orders]
    # ◀ ▶ share one column, each as wide as its glyph (two narrow columns cut them at 1400 px)
    widths = [2.2, 1.6, *([1.4] if short else []), 5.1, 1.2]
    cols = st.columns(widths, vertical_alignment="bottom")
    c_find, c_order, *c_len, c_pick, c_step = cols
    c_prev = c_next = c_step.container(horizontal=True, gap="small")
    query = bind("find", f"wb_find:{key}", "", c_find.text_input, "Find (id, number or words)")
    ids, labels = _order_choices(key, rankings, worst_label)
    c_order.selectbox(
        "Order",
        ids,
        key=f"wb_order:{key}",
        format_func=lambda x: labels.get(x, x),
        disabled=not rankings,
    )
    order = str(st.session_state[f"wb_order:{key}"])
    keep_widget("order", f"wb_order:{key}", None if order == "file" else order)
    ranked = next((o for o in rankings if o.id == order), None)
    min_words = 0
    if short:
        auto = short if ranked is not None and ranked.ranked else 1
        chosen = bind(
            "minwords",
            f"wb_minwords:{key}",
            None,
            c_len[0].number_input,
            "Min. words",
            min_value=0,
            max_value=9999,
            step=1,
            placeholder=f"auto: {auto}",
            help=f"Hide sentences of fewer words. Empty: {short} in worst-first orders (short sentences "
            "are often trivially worst), 1 in file order.",
        )
        min_words = auto if chosen is None else int(chosen)
    options = [
        s.index
        for s in sents
        if s.length >= min_words and (keep is None or keep(s.index)) and _match(s, query)
    ]
    matching = len(options)
    if ranked is not None:
        scores = ranked.scores()
        options.sort(key=lambda i: (scores.get(i, float("inf")), i))
    if not options:
        c_pick.warning("No sentence matches; showing the current one.")
        options = [cur]
    order_key = f"_wb_order:{key}:{dataset}"
    if st.session_state.get(order_key, "file") != order:
        cur = options[0]  # a new order starts at its top: worst first shows the worst sentence
    st.session_state[order_key] = order
    if cur not in options:
        cur = options[0]
    st.session_state[perm] = cur
    st.session_state[select_key] = cur
    c_pick.selectbox(
        f"Sentence ({matching:,} of {len(sents):,})",
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
    if matching < len(sents):
        why = [f"at least {min_words} words"] if min_words > 1 else []
        why += ["the filters"] if keep is not None else []
        why += [f"“{md_escape(query)}”"] if query.strip() else []
        st.caption(f"{matching:,} of {len(sents):,} sentences match ({', '.join(why) or 'the filters'}).")
    chosen_info = sents[int(st.session_state[select_key])]
    write_link("sent", chosen_info.sent_id)
    st.session_state["_wb_sent_url"] = chosen_info.sent_id
    return chosen_info


# ---------------------------------------------------------------------------
# figures and downloads (sizing: workbench/fit.py)

ZOOM_KEY = "wb_zoom"  # the "Drawing size" widget (its value is kept across pages by links.keep_widget)


def drawing_size_control() -> None:
    """Sidebar control: drawings fitted to their box (default) or at a fixed share of their size
    (``zoom=`` in the URL)."""
    seed_widget("zoom", ZOOM_KEY, "fit", lambda v: v if v in ZOOMS else None)
    st.sidebar.select_slider(
        "Drawing size",
        ZOOMS,
        key=ZOOM_KEY,
        help="fit: each drawing is scaled to its column while its texts stay at least "
        f"{MIN_TEXT_PX:.0f} px high; below that its column takes the whole width, and only then does "
        "it scroll sideways. A percentage: that share of the drawing's own size (scrolls when wider).",
    )
    zoom = str(st.session_state[ZOOM_KEY])
    keep_widget("zoom", ZOOM_KEY, None if zoom == "fit" else zoom)


def current_zoom() -> float | None:
    """The chosen drawing size: ``None`` = fit, else a share of the drawings' own size."""
    return zoom_factor(str(widget_value(ZOOM_KEY, "fit")))


def _show_box(
    drawings: Sequence[Drawing],
    *,
    key: str,
    css_class: str,
    rtl: bool,
    titles: bool,
    files: Sequence[DownloadFile] = (),
) -> None:
    """Put SVGs we wrote (every data string escaped) in the page, sized by workbench/fit.py, with
    download links for ``files`` under them (:mod:`workbench.svghost`: no Markdown, no widget)."""
    html = box_html(drawings, key=key, zoom=current_zoom(), rtl=rtl, css_class=css_class, titles=titles)
    show_html(html, key=key, files=files)


def svg_file(drawing: int, stem: str, label: str = "SVG") -> DownloadFile:
    """The ``drawing``-th SVG of a box, as shown at 100 % (:class:`~workbench.svghost.DownloadFile`)."""
    return DownloadFile(label, f"{safe_stem(stem)}.svg", "image/svg+xml", drawing=drawing)


def dot_file(dot: str, stem: str, label: str = "DOT") -> DownloadFile:
    return DownloadFile(label, f"{safe_stem(stem)}.dot", "text/vnd.graphviz", dot)


@dataclass(frozen=True, slots=True)
class Figure:
    """One drawing for :func:`stacked_figures`."""

    title: str
    svg: str
    dot: str | None
    stem: str
    key: str
    note: str = ""


def stacked_figures(figures: Sequence[Figure]) -> None:
    """Several dependency drawings in one box, one scale for all (aligned words stay aligned).

    Titles are inside the box, above each drawing; download links (SVG, DOT) are below it.
    """
    rtl = all('data-rtl="yes"' in fig.svg for fig in figures)
    drawings = [dep_drawing(f.svg, title=f.title, note=f.note) for f in figures]
    key = "stack:" + "|".join(f.key for f in figures)
    files: list[DownloadFile] = []
    for i, fig in enumerate(figures):
        name = f"{fig.title} " if len(figures) > 1 else ""
        files.append(svg_file(i, fig.stem, f"{name}SVG"))
        if fig.dot is not None:
            files.append(dot_file(fig.dot, fig.stem, f"{name}DOT"))
    _show_box(drawings, key=key, css_class="wb-stack", rtl=rtl, titles=True, files=files)


def svg_figure(svg: str, *, key: str, css_class: str = "wb-svg") -> None:
    """An SVG we wrote (every data string escaped; e.g. a chart of :mod:`workbench.charts`), fitted to
    its column by workbench/fit.py (its width and its smallest text read from the SVG)."""
    _show_box([svg_drawing(svg)], key=key, css_class=css_class, rtl=False, titles=False)


class SvgStore:
    """Graphviz SVGs already rendered, by DOT text (the most recent ``size``), shared by every
    session (:func:`_svg_store`, an ``st.cache_resource``); thread-safe."""

    def __init__(self, size: int = 4096) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[str, str | None] = OrderedDict()
        self._size = size

    def get(self, dot: str) -> tuple[bool, str | None]:
        with self._lock:
            if dot not in self._items:
                return False, None
            self._items.move_to_end(dot)
            return True, self._items[dot]

    def put(self, dot: str, svg: str | None) -> None:
        with self._lock:
            self._items[dot] = svg
            self._items.move_to_end(dot)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


@st.cache_resource(show_spinner=False)
def _svg_store() -> SvgStore:
    return SvgStore()


_GV_NOISE = re.compile(r"<!--.*?-->|(?<=>)\s+(?=<)", re.S)


def compact_svg(svg: str) -> str:
    """A Graphviz SVG without what the browser does not use: comments and the white space between
    tags (less to send and for the page's Markdown to parse).  Node titles stay: they name the
    nodes (``s0`` of a lattice) for tooltips and tests."""
    return _GV_NOISE.sub("", svg)


def _run_dot(dots: Sequence[str]) -> list[str | None]:
    """Render DOT texts with one run of Graphviz's ``dot`` (it reads several graphs and writes one
    SVG document after another; a run costs tens of milliseconds, a small graph's layout far less);
    one run per graph if the batch fails.  ``None`` where Graphviz is missing or fails."""
    try:
        import graphviz

        out = graphviz.pipe("dot", "svg", "\n".join(dots).encode("utf-8")).decode("utf-8")
        docs = ["<?xml" + d for d in out.split("<?xml")[1:]]
        if len(docs) == len(dots):
            return [compact_svg(d) for d in docs]
    except Exception:  # graphviz missing (ExecutableNotFound) or a graph it refuses: one by one
        pass
    svgs: list[str | None] = []
    for dot in dots:
        try:
            import graphviz

            svgs.append(compact_svg(graphviz.Source(dot).pipe(format="svg", encoding="utf-8")))
        except Exception:  # graphviz missing or failing: DOT download only
            svgs.append(None)
    return svgs


def prerender(dots: Sequence[str]) -> None:
    """Render, in one run of ``dot``, the drawings a view is about to show (those not rendered yet)."""
    store = _svg_store()
    missing = list(dict.fromkeys(d for d in dots if not store.get(d)[0]))
    if missing:
        for dot, svg in zip(missing, _run_dot(missing), strict=True):
            store.put(dot, svg)


def dot_to_svg(dot: str) -> str | None:
    """Render DOT with the Graphviz ``dot`` program (kept for every session), or ``None`` if it is
    not installed."""
    store = _svg_store()
    found, svg = store.get(dot)
    if not found:
        svg = _run_dot([dot])[0]
        store.put(dot, svg)
    return svg


def graphviz_figure(
    dot: str,
    *,
    stem: str,
    key: str,
    scale: float = 1.0,
    rtl: bool = False,
) -> None:
    """Show a DOT figure (rendered by Graphviz on the server when installed, else in the browser).

    Downloads: DOT always, SVG when Graphviz is installed.  ``scale``: the size in the page at 100 %
    (also the downloaded SVG's size); the drawing is fitted to its column by the rule of
    workbench/fit.py (its smallest text read from the SVG).  ``rtl``: the box starts scrolled
    to its right end (a lattice drawn right to left).
    """
    svg = dot_to_svg(dot)
    if svg is None:
        st.graphviz_chart(dot)
        show_html("", key=f"gv:{key}", files=[dot_file(dot, stem)])
        return
    drawing = graphviz_drawing(svg, scale=scale)
    marked = drawing.svg.replace("<svg ", '<svg data-rtl="yes" ', 1) if rtl else drawing.svg
    _show_box(
        [Drawing(marked, drawing.width, drawing.text_px, drawing.text_font)],
        key=f"gv:{key}",
        css_class="wb-dot",
        rtl=rtl,
        titles=False,
        files=[svg_file(0, stem), dot_file(dot, stem)],
    )


@contextmanager
def lazy_expander(label: str, *, key: str) -> Iterator[bool]:
    """An expander whose content is made only when it is open (``with ... as shown: if shown:``):
    a closed expander's tables are otherwise rendered by the browser all the same (the
    FREVAL page drew nine tables, four of them in closed expanders).  Opening it reruns the page."""
    box = st.expander(label, key=key, on_change="rerun")
    with box:
        yield bool(box.open)


def sentence_table(
    frame: pd.DataFrame, *, key: str, height: int = 300, hidden: Sequence[str] = ()
) -> int | None:
    """A table of sentences of which a click on a row, or on any of its cells, picks one: its
    position in ``frame`` (that run only: the next page drawn has a fresh table).  ``hidden``:
    columns kept in the data (and tests) but not shown."""
    event = st.dataframe(
        frame,
        hide_index=True,
        width="stretch",
        height=height,
        key=key,
        on_select="rerun",
        selection_mode=["single-row", "single-cell"],
        column_order=[c for c in frame.columns if c not in hidden],
    )
    selection = event.selection  # type: ignore[attr-defined]
    rows = list(selection.rows) or [cell[0] for cell in selection.cells]
    return int(rows[0]) if rows else None


def linked_table(
    frame: pd.DataFrame, *, height: int, key: str, open_link: Callable[[Mapping[str, str]], object]
) -> None:
    """A table of sentences whose ``inspect`` column is each one's link to the sentence inspector: a
    click on a sentence opens it in this tab and session (``open_link``, e.g.
    :func:`workbench.inspector.open_inspector`: the uploads stay), not in a new one."""
    picked = sentence_table(frame, key=key, height=height, hidden=("inspect",))
    if picked is not None:
        open_link(dict(parse_qsl(urlsplit(str(frame.iloc[picked]["inspect"])).query)))


def download_table(df: pd.DataFrame, *, stem: str, key: str, label: str = "CSV") -> None:
    st.download_button(
        label,
        csv_bytes(df),
        file_name=f"{safe_stem(stem)}.csv",
        mime="text/csv",
        key=f"csv:{key}",
        on_click="ignore",
    )
