"""Widgets shared by the pages: dataset choice and uploads, the sentence picker, figures, downloads.

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

from evalcore.errors import EvalcoreError
from evalcore.render.layout import LayoutStyle
from workbench.cache import load_builtin, load_files, read_file
from workbench.datasets import (
    BUILTINS,
    FORMAT_NAMES,
    DatasetSpec,
    FileFormat,
    FileSpec,
    LoadedDataset,
    SentenceInfo,
    builtin,
    detect_format,
)
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
from workbench.links import UPLOAD_KEY, current_link, show_link_problems

__all__ = [
    "UPLOAD_KEY",
    "Figure",
    "choose_dataset",
    "csv_bytes",
    "current_zoom",
    "download_table",
    "drawing_size_control",
    "graphviz_figure",
    "md_escape",
    "safe_stem",
    "sentence_picker",
    "stacked_figures",
]

DEFAULT_DATASET = "fr_gsd"

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def md_escape(text: str) -> str:
    """Escape text for st.markdown: no markdown, no HTML, controls made visible, one line."""
    from evalcore.render.text import neutralize

    return _MD_SPECIAL.sub(r"\\\1", neutralize(text))


def safe_stem(text: str) -> str:
    """A file-name stem made of ``[A-Za-z0-9_.-]`` only."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._")
    return stem[:80] or "figure"


# ---------------------------------------------------------------------------
# dataset choice


def _dataset_title(key: str) -> str:
    if key == UPLOAD_KEY:
        return "Your files (upload)"
    return builtin(key).title


def _on_dataset_change() -> None:
    st.session_state["_wb_dataset"] = st.session_state["wb_dataset"]


def current_dataset_key() -> str:
    """The dataset of this session; a ``?data=`` the app did not write itself (a link followed
    within the session, e.g. from the cross-scheme page) takes over."""
    keys = [s.key for s in BUILTINS] + [UPLOAD_KEY]
    wanted = current_link().text("data")
    external = wanted is not None and wanted in keys and wanted != st.session_state.get("_wb_data_url")
    if "_wb_dataset" not in st.session_state or external:
        st.session_state["_wb_dataset"] = wanted if wanted in keys else DEFAULT_DATASET
    key = st.session_state["_wb_dataset"]
    return key if key in keys else DEFAULT_DATASET


def choose_dataset(*, kinds: Sequence[str] | None = None) -> LoadedDataset | None:
    """Sidebar dataset choice (built-in or upload); loads it with progress; shows per-file errors.

    ``kinds`` limits the built-ins offered (e.g. ``("dependency", "lattice")``).
    Returns ``None`` when there is nothing to show yet (no upload).
    """
    specs = [s for s in BUILTINS if kinds is None or s.kind in kinds]
    keys = [s.key for s in specs] + [UPLOAD_KEY]
    show_link_problems(current_link())
    key = current_dataset_key()
    if key not in keys:
        key = keys[0]
    st.session_state["_wb_dataset"] = key
    st.session_state["wb_dataset"] = key
    st.sidebar.selectbox(
        "Dataset", keys, key="wb_dataset", format_func=_dataset_title, on_change=_on_dataset_change
    )
    st.query_params["data"] = key
    st.session_state["_wb_data_url"] = key
    if key == UPLOAD_KEY:
        spec, blobs = upload_panel()
        if not blobs:
            st.info("Upload a gold file (and parse files) in the sidebar, or pick a built-in dataset.")
            return None
        loaded = load_files(spec, blobs)
    else:
        spec = builtin(key)
        with st.sidebar:
            st.caption(f"{md_escape(spec.description)} License: {md_escape(spec.license)}.")
        loaded = load_builtin(spec)
    for err in loaded.errors:
        st.error(err, icon="⚠️")
    return loaded


# ---------------------------------------------------------------------------
# uploads (kept in memory only)


@dataclass(frozen=True, slots=True)
class UploadRecord:
    name: str  # as shown and used in the dataset: the file name, or "NAME (role)" on a name clash
    data: bytes
    fmt: FileFormat
    role: str  # "gold" | "parse" | "lattice" | "tokens" | "params"
    size: int = 0  # bytes once decompressed (the session budget)
    file: str = ""  # the uploaded file's own name


def _uploads() -> dict[str, UploadRecord]:
    ups = st.session_state.setdefault("_wb_uploads", {})
    assert isinstance(ups, dict)
    return ups


def _upload_errors() -> dict[str, str]:
    errs = st.session_state.setdefault("_wb_upload_errors", {})
    assert isinstance(errs, dict)
    return errs


def _role_for(fmt: FileFormat, wanted: str) -> str:
    if fmt in ("conllu", "ptb"):
        return wanted
    return {"lattice": "lattice", "tokens": "tokens", "prm": "params"}[fmt]


def _upload_key(role: str, name: str) -> str:
    return f"{role}:{name}"


def _upload_clashes() -> dict[str, str]:
    clashes = st.session_state.setdefault("_wb_upload_clashes", {})
    assert isinstance(clashes, dict)
    return clashes


def accept_upload(
    name: str, data: bytes, wanted_role: str, fmt_choice: str = "auto", size: int = 0
) -> str | None:
    """Validate one uploaded file; on success store it under its role and name (replacing a file
    of the same role and name, never one of another role).

    A file whose name is already used by a file of another role (a parse named like its gold)
    is kept as ``NAME (role)``, and the clash is shown.  Returns the error text
    (``FILE:LINE: message``) or ``None``.  A bad file never removes what was loaded before.
    """
    try:
        fmt: FileFormat = detect_format(name, data) if fmt_choice == "auto" else fmt_choice  # type: ignore[assignment]
        role = _role_for(fmt, wanted_role)
        spec = FileSpec(name, name, fmt, role, scheme=name)  # type: ignore[arg-type]
        analysis = read_file(spec, data, name=name)
        if fmt in ("conllu", "ptb") and not analysis.trees:
            raise EvalcoreError("no sentence in this file", file=name)
    except EvalcoreError as exc:
        return str(exc)
    others = [r for k, r in _uploads().items() if k != _upload_key(role, name) and r.file == name]
    shown = name
    if others:
        shown = f"{name} ({role})"
        _upload_clashes()[_upload_key(role, name)] = (
            f"{name}: a {others[0].role} file of the same name is loaded; this {role} file is kept beside "
            f"it as '{shown}' (it replaces nothing)."
        )
    _uploads()[_upload_key(role, name)] = UploadRecord(shown, data, fmt, role, size, name)
    return None


def upload_panel() -> tuple[DatasetSpec, list[tuple[FileSpec, bytes]]]:
    """Sidebar uploaders; returns the upload dataset's spec and file bytes."""
    side = st.sidebar
    side.markdown(
        "**Your files** — CoNLL-U/X, PTB brackets, SPMRL/yap lattices, .tokens (gzip accepted). "
        "They stay in memory and are only read, never run or saved."
    )
    fmt_choice = side.selectbox(
        "Format", ["auto", *FORMAT_NAMES], format_func=lambda f: "detect" if f == "auto" else FORMAT_NAMES[f]
    )
    processed = st.session_state.setdefault("_wb_upload_seen", set())
    for role, label in (("gold", "Gold file(s)"), ("parse", "Parse file(s)")):
        files = side.file_uploader(label, accept_multiple_files=True, key=f"wb_upload_{role}")
        for up in files or []:
            token = f"{role}:{up.file_id}:{fmt_choice}"
            if token in processed:
                continue
            processed.add(token)
            # the app's own size checks, then the session budget (workbench/uploads.py)
            from workbench.uploads import budget_problem, size_problem

            data = up.getvalue()
            err = size_problem(up.name, data)
            size = 0
            if err is None:
                old = _uploads().get(_upload_key(role, up.name))
                size, err = budget_problem(up.name, data, replacing=old.size if old else 0)
            err = err or accept_upload(up.name, data, role, fmt_choice, size)
            if err is None:
                _upload_errors().pop(up.name, None)
            else:
                _upload_errors()[up.name] = err
    for err in _upload_errors().values():
        st.error(err, icon="⚠️")
    for clash in _upload_clashes().values():
        st.warning(clash, icon="⚠️")
    records = list(_uploads().values())
    golds = [r for r in records if r.role == "gold"]
    if records:
        side.markdown("Loaded: " + ", ".join(f"`{md_escape(r.name)}` ({r.role})" for r in records))
        if side.button("Forget uploaded files"):
            _uploads().clear()
            _upload_errors().clear()
            _upload_clashes().clear()
            st.rerun()
    against = ""
    if golds:
        against = golds[0].name
        if len(golds) > 1:
            against = side.selectbox("Score parses against", [g.name for g in golds])
    files: list[tuple[FileSpec, bytes]] = []
    for r in records:
        spec = FileSpec(
            r.name, r.name, r.fmt, r.role, scheme=r.name, against=against if r.role == "parse" else ""
        )  # type: ignore[arg-type]
        files.append((spec, r.data))
    kind = "dependency" if any(r.fmt == "conllu" for r in records) else "constituency"
    spec = DatasetSpec(UPLOAD_KEY, "your files", kind, tuple(f for f, _ in files))  # type: ignore[arg-type]
    return spec, files


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
    (a leading ``'``, as the command line's CSV: ``evalcore.report.tables.csv_cell``)."""
    from evalcore.report.tables import csv_cell

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
