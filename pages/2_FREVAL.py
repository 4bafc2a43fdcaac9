"""FREVAL: PARSEVAL per fragment size (Bastings & Sima'an; docs/freval.md, "FREVAL"; docs/app.md,
"FREVAL page"): the F1_s curves of every parser file (the paper's Figures 1–3), their difference to a
baseline and the paper's Table 1.  Every number comes from :mod:`evalcore.metrics.freval` through
:mod:`workbench.freval_view`.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from evalcore.families.freval import FrevalSettings
from workbench.charts import Chart, Line, line_chart
from workbench.freval_view import (
    BUILTIN_PRM,
    VARIANTS,
    Series,
    TreeFile,
    builtin_files,
    counts_frame,
    curves_frame,
    params_of,
    problems_frame,
    run_series,
    sentence_view,
    sentences_frame,
    summary_frame,
    table1,
    validate_prm,
    validate_trees,
)
from workbench.settings_form import Field, bind, settings_form
from workbench.tables import show_table
from workbench.uploads import choose_source, forget_button, show_name_clashes, upload_slot
from workbench.widgets import download_table, graphviz_figure, lazy_expander, md_code, md_escape, svg_figure

SLOTS = ("freval_gold", "freval_tests", "freval_prm")


def inputs() -> tuple[str, TreeFile | None, list[TreeFile], list[TreeFile]]:
    """(dataset key, gold, parser files, parameter files) from a built-in dataset or the uploads."""
    spec = choose_source(("constituency",))
    if spec is not None:
        gold, tests, prms = builtin_files(spec)
        return spec.key, gold, tests, prms
    st.sidebar.markdown(
        "**Your files** — bracketed trees (evalb's `.gld`/`.tst` one sentence per line, or treebank "
        "`.mrg`/`.psd`; gzip accepted) and evalb parameter files. They stay in memory and are only read, "
        "never run or saved."
    )
    gold = upload_slot("Gold trees", key="freval_gold", validate=validate_trees)
    tests = upload_slot("Parser output(s)", key="freval_tests", validate=validate_trees, multiple=True)
    prms = upload_slot(
        "Parameter file(s) (.prm, optional)", key="freval_prm", validate=validate_prm, multiple=True
    )
    show_name_clashes([u.name for u in gold], [u.name for u in tests], parse_role="parser output")
    if gold or tests or prms:
        loaded = [md_code(u.name) for u in (*gold, *tests, *prms)]
        st.sidebar.markdown("Loaded: " + ", ".join(loaded))
        forget_button(SLOTS)
    return (
        "upload",
        TreeFile(gold[0].name, gold[0].data) if gold else None,
        [TreeFile(u.name, u.data) for u in tests],
        [TreeFile(u.name, u.data) for u in prms],
    )


def settings(
    key: str, prms: list[TreeFile], tests: list[TreeFile]
) -> tuple[TreeFile | None, FrevalSettings, list[str], list[str]]:
    """The settings row (parameter file, labels, sizes, sentence length) as declared
    (:class:`~evalcore.families.freval.FrevalSettings`), and the files and variants to plot."""
    c1, c2, c3 = st.columns([2.2, 1.2, 1.2], vertical_alignment="bottom")
    c4 = st.container()  # the toggle under them (its label was cut in a fourth column at 1024 px)
    names = [p.name for p in prms] + [BUILTIN_PRM]
    m1, m2, m3, m4 = st.expander("More settings").columns(4)
    chosen = settings_form(
        FrevalSettings(prm=names[0]),
        {
            # a new parameter file (upload) is selected at once: the widget key changes with the list
            "prm": Field("Parameter file", c1, f"freval_prm:{key}:{len(names)}", offered=names),
            "max_size": Field("Max size", c2, placeholder="all"),
            "cutoff_len": Field("Max words", c3, placeholder="all"),
            "unlabeled": Field("Unlabeled", c4),
            "function_separators": Field("Function tags start at", m1),
            "drop_unlabeled_root": Field("Drop the outer unlabeled bracket of '( (S ...) )'", m2),
            "delete_root": Field("Delete ROOT and TOP brackets", m3),
            "max_error": Field("MAX_ERROR", m4, placeholder="the parameter file's"),
        },
        prefix="freval",
    )
    f1, f2 = st.columns([3, 2])
    file_names = [t.name for t in tests]
    files = f1.multiselect("Parser files", file_names, default=file_names, key=f"freval_files:{key}")
    variants = bind(
        "variants",
        f"freval_variants:{key}",
        ["as set", "labels ignored"] if len(file_names) == 1 else ["as set"],
        f2.multiselect,
        "Score each file",
        list(VARIANTS),
        help="Each choice is a curve of its own: 'labels ignored' shows how much of the drop at larger "
        "sizes comes from labels; '--strict' also requires the fragment's edges in the test tree.",
        offered=tuple(VARIANTS),
        many=True,
    )
    prm = next((p for p in prms if p.name == chosen.prm), None)
    return prm, chosen, files, variants


def curve_chart(frame: pd.DataFrame, y: str, title: str, y_title: str, *, zero_line: bool = False) -> Chart:
    """One line per parser (SVG, :mod:`workbench.charts`); each point's tooltip has its numbers."""
    lines = []
    for parser, rows in frame.groupby("parser", sort=False):
        points = tuple((float(r.size), float(getattr(r, y))) for r in rows.itertuples())
        tips = tuple(
            f"{parser} · size {r.size}: F1 {r.f1:.2f} (LR {r.recall:.2f}, LP {r.precision:.2f})"
            + (f"; {getattr(r, y):+.2f} points" if y != "f1" else "")
            for r in rows.itertuples()
        )
        lines.append(Line(str(parser), points, tips))
    return line_chart(
        lines, title=title, x_title="fragment size s (brackets)", y_title=y_title, zero_line=zero_line
    )


def headline(s: Series, max_size: int | None) -> None:
    """The first curve's PARSEVAL (size 1) and FREVAL numbers as metrics."""
    sc = s.scored(max_size)
    one = sc.per_size[0] if sc.per_size else None
    cols = [*st.columns(3), *st.columns(3)]  # two rows: six labels in one were cut at 1024 px
    if one is not None:
        cols[0].metric("LR₁ (evalb recall)", f"{100 * one.recall:.2f}")
        cols[1].metric("LP₁ (evalb precision)", f"{100 * one.precision:.2f}")
        cols[2].metric("F1₁", f"{100 * one.f1:.2f}")
    cols[3].metric(f"FLR (sizes 1-{sc.limit})", f"{100 * sc.flr:.2f}")
    cols[4].metric(f"FLP (sizes 1-{sc.limit})", f"{100 * sc.flp:.2f}")
    cols[5].metric(f"F1 (sizes 1-{sc.limit})", f"{100 * sc.f1:.2f}")
    st.caption(
        f"{md_escape(s.name)}: {sc.valid} valid sentences of {sc.sentences} ({sc.errors} errors, "
        f"{sc.skipped} skipped: excluded, as evalb does); uniform weights over sizes 1-{sc.limit}."
    )


def curves(series: list[Series], max_size: int | None, key: str) -> None:
    ok = [s.name for s in series if s.result is not None]
    st.subheader("F1 by fragment size")
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.caption(
        "F1_s: harmonic mean of LR_s (matched gold fragments of s brackets / gold fragments) and LP_s "
        "(/ test fragments), over the valid sentences. Size 1 is PARSEVAL (evalb's recall and precision). "
        "Right: each curve minus the baseline's (the paper's Figures 1-3)."
    )
    widget = f"freval_baseline:{key}"
    baseline = bind("baseline", widget, ok[0], c2.selectbox, "Baseline", ok, offered=ok)
    frame = curves_frame(series, max_size, baseline=baseline)
    left, right = st.columns(2)
    charts = (
        ("freval_f1_chart", curve_chart(frame, "f1", "F1_s by fragment size", "F1_s (%)")),
        (
            "freval_diff_chart",
            curve_chart(
                frame,
                "f1_minus_baseline",
                f"F1_s minus F1_s of {baseline}",
                "difference (points)",
                zero_line=True,
            ),
        ),
    )
    for column, (chart_key, chart) in zip((left, right), charts, strict=True):
        with column:
            svg_figure(chart.svg, key=chart_key, css_class="wb-chart")
    download_table(frame, stem=f"freval_{key}_f1_by_size", key="freval-curves", label="CSV (curves)")


def table_one(series: list[Series], key: str) -> None:
    st.subheader("Table 1: FLR, FLP and F1 by size limit")
    st.caption(
        "As in the paper's Table 1: uniform weights over sizes 1..L for L = 1 (PARSEVAL), 15, 25 and all "
        "(the largest valid gold tree); percent."
    )
    frame = table1(series)
    flat = frame.copy()
    flat.columns = [f"{sizes} {metric}" for sizes, metric in frame.columns]
    show_table(
        flat,
        key="freval-table1",
        index=True,
        formats=dict.fromkeys(flat.columns, "{:.2f}"),
        stem=f"freval_{key}_table1",
        label="CSV (Table 1)",
    )


def one_sentence(
    gold: TreeFile, tests: list[TreeFile], series: list[Series], max_size: int | None, key: str
) -> None:
    """One sentence of one run, its missed and extra brackets drawn on the two trees."""
    ok = [s for s in series if s.result is not None]
    st.subheader("One sentence: missed and extra brackets")
    c1, c2 = st.columns([2, 3], vertical_alignment="bottom")
    runs = [s.name for s in ok]
    run = bind("run", f"freval_run:{key}", runs[0], c1.selectbox, "Run", runs, offered=runs)
    s = next(x for x in ok if x.name == run)
    frame = sentences_frame(s, max_size)
    scored = frame[frame["missed fragments"].notna()]
    if scored.empty:
        st.info("No valid sentence in this run.")
        return
    numbers = [int(n) for n in scored["sentence"]]
    missed = dict(zip(numbers, (int(m) for m in scored["missed fragments"]), strict=True))
    sent_key = f"freval_sent:{key}:{run}"
    number = bind(
        "sentno",
        sent_key,
        numbers[0],
        c2.selectbox,
        "Sentence (worst first: most gold fragments missed)",
        numbers,
        format_func=lambda n: f"{n} · {missed[n]} fragments missed",
        offered=numbers,
    )
    test = next(t for t in tests if t.name == s.file)
    view = sentence_view(gold, test, s, int(number), max_size)
    comp = view.comparison
    st.caption(
        f"Sentence {comp.index} (gold line {comp.gold_line}, test line {comp.test_line}): "
        f"{len(comp.gold)} gold brackets, {len(comp.test)} test brackets, {comp.matched} matched. "
        "Gold: a **missed** bracket (no test bracket with its label and span) is red, dashed and struck "
        "through; ✗N = the gold fragments it spoils (every fragment that contains it is missed). Test: an "
        "**extra** bracket (not in the gold) is green and bold."
    )
    left, right = st.columns(2)
    with left:
        graphviz_figure(view.gold_dot, stem=f"freval_{key}_{comp.index}_gold", key=f"freval:{key}:gold")
    with right:
        graphviz_figure(view.test_dot, stem=f"freval_{key}_{comp.index}_test", key=f"freval:{key}:test")
    t1, t2, t3 = st.columns([2, 2, 3])
    with t1:
        columns = ["missed", "from word", "to word", "fragments spoiled"]
        show_table(pd.DataFrame(list(view.missed), columns=columns), key="freval-missed")
    with t2:
        extra = pd.DataFrame(list(view.extra), columns=["extra", "from word", "to word"])
        show_table(extra, key="freval-extra")
    with t3:
        show_table(view.sizes, key="freval-sizes")
    with lazy_expander(f"All sentences of {s.name}, worst first", key="freval_x_sentences") as shown:
        if shown:
            st.dataframe(frame, hide_index=True, width="stretch")
            download_table(
                frame, stem=f"freval_{key}_sentences", key="freval-sentences", label="CSV (sentences)"
            )


def main() -> None:
    st.set_page_config(page_title="evalcore — FREVAL", layout="wide")
    st.title("FREVAL: PARSEVAL per fragment size")
    st.caption(
        "A fragment is a connected set of brackets of a tree; a gold fragment is matched when all its "
        "brackets are matched (evalb's matching). Bastings & Sima'an; docs/freval.md, 'Fragments'; "
        "on the command line: `evalcore freval`."
    )
    key, gold, tests, prms = inputs()
    if gold is None or not tests:
        st.info(
            "Upload a gold file and at least one parser output in the sidebar, or pick a built-in dataset."
        )
        return
    prm, chosen, files, variants = settings(key, prms, tests)
    max_size = chosen.max_size
    picked = [t for t in tests if t.name in files]
    if not picked:
        st.info("Choose at least one parser file.")
        return
    params = params_of(prm)
    for w in params.warnings:
        st.warning(w)
    with st.spinner("Counting fragments…"):
        series = run_series(gold, picked, prm, chosen, variants)
    for s in series:
        if s.error is not None:
            st.error(f"{s.name}: {s.error}", icon="⚠️")
    if not any(s.result is not None for s in series):
        return
    headline(next(s for s in series if s.result is not None), max_size)
    curves(series, max_size, key)
    table_one(series, key)
    st.subheader("Runs")
    summary = summary_frame(series, max_size)
    show_table(
        summary,
        key="freval-summary",
        formats=dict.fromkeys(("FLR %", "FLP %", "F1 %"), "{:.2f}"),
        stem=f"freval_{key}_summary",
        label="CSV (runs)",
    )
    with lazy_expander("Counts per size (matched, gold and test fragments)", key="freval_x_counts") as shown:
        if shown:
            counts = counts_frame(series, max_size)
            st.dataframe(counts, hide_index=True, width="stretch")
            download_table(counts, stem=f"freval_{key}_counts", key="freval-counts", label="CSV (counts)")
    for s in series:
        if s.result is None:
            continue
        problems = problems_frame(s)
        if len(problems):
            label = f"{s.name}: {len(problems)} error and skip sentences (excluded, as evalb does)"
            with lazy_expander(label, key=f"freval_x_problems:{s.name}") as shown:
                if shown:
                    st.dataframe(problems, hide_index=True, width="stretch")
                    download_table(
                        problems, stem=f"freval_{key}_{s.name}_problems", key=f"freval-problems:{s.name}"
                    )
    one_sentence(gold, picked, series, max_size, key)


main()
