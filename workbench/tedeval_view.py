"""Streamlit pieces for TedEval, shared by the inspector, the cross-scheme page and the tour
(docs/app.md, "For developers: adding panels" and "Speed"): :func:`corpus_experiment`, the
cross-scheme experiment over a loaded dataset (cached on the files' digests and the settings: the
sentences scored once per counting setting, the golds read as parses scored apart and joined, the
tests of all pairs from one stream of draws), and :func:`edit_script_panel`, function trees with
the edit script drawn on them (counted / discounted) and its operations in a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pandas as pd
import streamlit as st

from evalcore.choices import PROTOCOL_2011
from evalcore.conversion import ConversionConfig, LabelMap, SchemeLabelMaps
from evalcore.experiment import ExperimentConfig, ExperimentResult, run_experiment
from evalcore.families.tedeval import TedevalSettings, experiment_config, ted_config
from evalcore.inspection import OpMark, ParseView, SentenceReport
from evalcore.metrics.tedeval import SentenceTed
from evalcore.reasons import OperationTable, OpWhy, hover_lines, operation_table, reasons_of, reasons_shown
from evalcore.render.dot import HIGHLIGHT_FILL
from evalcore.render.edits import EDIT_LEGEND, marked_tree_dot
from evalcore.trees import SpanTree
from workbench.cache import cached, in_chunks
from workbench.datasets import LoadedDataset
from workbench.labelmaps import merged_labels
from workbench.tables import CellCss, RowCss, show_table
from workbench.tedeval import (
    ParseTeds,
    TedParse,
    TedSentence,
    corpus_parse_teds,
    experiment_schemes,
    gold_parse_schemes,
    join_parses,
    ranked,
    sentence_tedeval,
)
from workbench.widgets import graphviz_figure, md_escape, prerender

__all__ = [
    "TREE_SCALE",
    "corpus_experiment",
    "corpus_scripts",
    "edit_script_panel",
    "function_tree_figure",
    "merged_label_table",
    "script_table",
    "sentence_report",
    "ted_summary",
]


TREE_SCALE = 0.8  # function trees are drawn a little smaller than Graphviz's size in the page

# the status column of the edit script (workbench.tables: the cell's inline style)
STATUS_COLOURS = {"counted": "color: #6a3d9a; font-weight: 600", "discounted": "color: #7f7f7f"}


def experiment_settings(settings: TedevalSettings, maps: SchemeLabelMaps) -> ExperimentConfig:
    """The experiment's configuration of the page's settings and per-scheme label maps (held in
    memory: docs/tedeval.md, "Per-scheme label maps"), built by :mod:`evalcore.families.tedeval`."""
    return experiment_config(settings, ted_config(settings, label_maps=(LabelMap(), maps)))


def counting(settings: TedevalSettings) -> TedevalSettings:
    """The settings the sentences are scored with (no significance test): a change of shuffles,
    seed or test does not score them again."""
    return replace(settings, shuffles=0, seed=12345, test="ar")


def _files_key(loaded: LoadedDataset) -> tuple[tuple[str, ...], ...]:
    return tuple(
        (a.name, a.digest, a.spec.role, a.spec.scheme, a.spec.against, a.spec.fmt) for a in loaded.analyses
    )


def _digests(files: tuple[tuple[str, ...], ...]) -> list[str]:
    """The content digests of a files key (:func:`workbench.cache.Cached.by`)."""
    return [f[1] for f in files]


@cached("data", show_spinner=False, max_entries=24)
def _counted(
    files: tuple[tuple[str, ...], ...],
    settings: TedevalSettings,
    maps: SchemeLabelMaps,
    golds: bool,
    label: str,
    indices: tuple[int, ...],
    _loaded: LoadedDataset,
) -> ExperimentResult:
    """Every sentence scored (cached across sessions on the files' digests and the counting settings):
    the parses, or (``golds``) each gold read as a parse, over the sentences ``indices``.  The bar is
    created here so that it can advance (a cached function may not write to an element made outside
    it); it is emptied at the end."""
    schemes = gold_parse_schemes(_loaded, indices) if golds else experiment_schemes(_loaded)
    what = "each gold as a parse" if golds else label
    bar = st.progress(0.0, text=f"{what}: starting")

    def progress(done: int, total: int) -> None:
        if total:
            bar.progress(min(done / total, 1.0), text=f"{what}: sentence {done} of {total}")

    try:
        return run_experiment(schemes, experiment_settings(settings, maps), progress=progress)
    finally:
        bar.empty()


@cached("data", show_spinner=False, max_entries=48)
def _experiment(
    files: tuple[tuple[str, ...], ...],
    settings: TedevalSettings,
    maps: SchemeLabelMaps,
    golds: bool,
    label: str,
    _loaded: LoadedDataset,
) -> ExperimentResult:
    """The experiment under ``settings``: the cached scores of the parses (and of the golds read as
    parses, scored apart and joined as their columns), ranked and tested."""
    config = experiment_settings(settings, maps)
    counted = _counted.by(*_digests(files))
    main = counted(files, counting(settings), maps, False, label, (), _loaded)
    if not golds:
        return ranked(main, config)
    extra = counted(files, counting(settings), maps, True, label, main.indices, _loaded)
    names = [scheme.name for scheme in experiment_schemes(_loaded)]
    return join_parses(main, extra, names, config)


def corpus_experiment(
    loaded: LoadedDataset,
    settings: TedevalSettings,
    maps: SchemeLabelMaps,
    *,
    golds: bool = False,
    label: str = "Scoring",
) -> ExperimentResult:
    """The cross-scheme experiment (docs/tedeval.md, "The cross-scheme experiment and significance") over the
    dataset (cached; raises EvalcoreError on bad input): the same result as ``run_experiment`` over
    :func:`~workbench.tedeval.experiment_schemes` in one go (``golds``: each gold also read as a
    parse of its scheme)."""
    files = _files_key(loaded)
    return _experiment.by(*_digests(files))(files, settings, maps, golds, label, loaded)


@cached("data", show_spinner=False, max_entries=24)
def _merged(
    files: tuple[tuple[str, ...], ...],
    settings: TedevalSettings,
    maps: SchemeLabelMaps,
    _loaded: LoadedDataset,
) -> pd.DataFrame:
    rows = merged_labels(experiment_schemes(_loaded), maps, settings)
    return pd.DataFrame(
        [{"scheme": m.scheme, "OLD → NEW": f"{m.old} → {m.new}", "occurrences": m.occurrences} for m in rows],
        columns=["scheme", "OLD → NEW", "occurrences"],
    )


def merged_label_table(
    loaded: LoadedDataset, settings: TedevalSettings, maps: SchemeLabelMaps
) -> pd.DataFrame:
    """The labels the per-scheme ``maps`` merge on the dataset (``workbench.labelmaps``), cached."""
    files = _files_key(loaded)
    return _merged.by(*_digests(files))(files, counting(settings), maps, loaded)


@cached("resource", show_spinner=False, max_entries=512)
def _sentence(
    files: tuple[tuple[str, ...], ...],
    index: int,
    conv: ConversionConfig,
    names: tuple[str, ...],
    _loaded: LoadedDataset,
    _choices: tuple[TedParse, ...],
) -> TedSentence:
    return sentence_tedeval(_loaded, index, conv, _choices)


def sentence_report(
    loaded: LoadedDataset, index: int, config: ConversionConfig, choices: Sequence[TedParse]
) -> TedSentence:
    """One sentence's TedEval report for ``choices`` (:func:`workbench.tedeval.sentence_tedeval`),
    kept for every session (``st.cache_resource``: frozen values, never copied), keyed on the
    files' digests, the sentence, the settings and the parses."""
    names = tuple(c.name for c in choices)
    files = _files_key(loaded)
    return _sentence.by(*_digests(files))(files, index, config, names, loaded, tuple(choices))


CHUNK = 200  # sentences per cached chunk of corpus_scripts


@cached("resource", show_spinner=False, max_entries=256)
def _scripts_chunk(
    files: tuple[tuple[str, ...], ...],
    name: str,
    conv: ConversionConfig,
    start: int,
    stop: int,
    _loaded: LoadedDataset,
    _choice: TedParse,
) -> tuple[ParseTeds | None, ...]:
    return corpus_parse_teds(_loaded, _choice, conv, start, stop)


def corpus_scripts(
    loaded: LoadedDataset, choice: TedParse, config: ConversionConfig
) -> tuple[ParseTeds | None, ...]:
    """Every sentence's TedEval scripts of ``choice`` (for filters and orders), computed in chunks
    behind a progress bar the first time this session asks, kept for every session."""
    files, n = _files_key(loaded), len(loaded.sentences)
    chunk = _scripts_chunk.by(*_digests(files))
    parts = in_chunks(
        f"Edit scripts of {choice.name}",
        n,
        CHUNK,
        f"scripts:{files}:{choice.name}:{config}",
        lambda a, b: chunk(files, choice.name, config, a, b, loaded, choice),
        show=n > CHUNK,
    )
    return tuple(x for part in parts for x in part)


# ---------------------------------------------------------------------------
# drawings


def function_tree_figure(
    tree: SpanTree,
    *,
    title: str,
    stem: str,
    key: str,
    marks: Sequence[OpMark] = (),
    side: str = "parse",
    scale: float = TREE_SCALE,
) -> None:
    """A function tree (Graphviz), optionally with operations drawn on it; SVG and DOT downloads."""
    dot = marked_tree_dot(tree, marks, side=side, title=title)  # type: ignore[arg-type]
    graphviz_figure(dot, stem=stem, key=key, scale=scale)


def ted_summary(ted: SentenceTed) -> str:
    """``3 operations: 1 counted, 2 discounted; δ = 1; |p| + |G| = 5; score 1 − 1/5 = 0.8000``."""
    n, d = len(ted.script), len(ted.discounted)
    return (
        f"{n} operation{'s' if n != 1 else ''}: {n - d} counted, {d} discounted · δ = {ted.delta} · "
        f"|p| + |G| = {ted.norm} · score 1 − {ted.delta}/{ted.norm} = **{ted.score:.4f}**"
        if ted.norm
        else f"no node to compare · score **{ted.score:.4f}**"
    )


def _status_css(column: str, value: object) -> str:
    """The colour of an operation's status (counted purple, discounted grey)."""
    return STATUS_COLOURS.get(str(value), "") if column == "status" else ""


def _highlight_row(row: pd.Series) -> str:
    """A yellow background for a highlighted operation's row (◆ in its ``group`` column)."""
    return f"background-color: {HIGHLIGHT_FILL}" if row.get("group") == "◆" else ""


def script_table(
    table: OperationTable,
    whys: Sequence[OpWhy],
    *,
    key: str,
    stem: str,
    cell_css: CellCss = _status_css,
    row_css: RowCss | None = None,
) -> None:
    """The edit script's table (:func:`evalcore.reasons.operation_table`) with its CSV, and a caption
    that explains each reason it has a column for."""
    show_table(
        pd.DataFrame(table.rows, columns=list(table.columns)),
        key=key,
        stem=stem,
        export=pd.DataFrame(table.export, columns=list(table.export_columns)),
        cell_css=cell_css,
        row_css=row_css,
    )
    st.caption(
        "Hover over a marked node for the same reasons. "
        + " · ".join(f"**{r.name}**: {r.help}" for r in reasons_shown(whys))
        + "."
    )


def edit_script_panel(
    report: SentenceReport,
    view: ParseView,
    *,
    labeled: bool,
    single: bool,
    general_name: str,
    stem: str,
    key: str,
    scale: float = TREE_SCALE,
    highlighted: Sequence[bool] = (),
) -> None:
    """The parse's function tree with deletions (and relabelings), the target tree with
    insertions, each marked counted or discounted, and the operations in a table beside them.

    ``single``: the script to the parse's single gold (nothing is discounted); otherwise to the
    generalized gold, discounted with the parse's own gold (docs/tedeval.md, "Edit scripts, discount and
    score").  ``highlighted``: one flag per operation of the script (its order), e.g. those of an atlas group:
    marked ◆ on the trees and in the table (a ``group`` column, the row in yellow).
    """
    ted = (view.single if single else view.multiple)[1 if labeled else 0]
    if single:
        target = report.gold(view.single_scheme or view.scheme)
        marks = view.single_marks(target, labeled)
        target_name = f"gold {view.single_scheme or view.scheme}"
    else:
        target = report.general
        marks = view.marks(report.general, labeled)
        target_name = f"generalized gold {general_name}"
    what = "labeled" if labeled else "unlabeled"
    st.markdown(
        f"{'U' if not labeled else 'L'}-TED of *{md_escape(view.name)}* against *{md_escape(target_name)}* "
        f"({what}"
        + (f", discounted with its own gold *{md_escape(view.scheme)}*" if not single else ", no discount")
        + f"): {ted_summary(ted)}"
    )
    # the two trees one under the other, each fitted to the page's width; the table under them, where
    # it has the whole width (beside the trees it was cut on the right); both drawn by one run of dot
    # why each operation counts or is discounted (evalcore.reasons): table columns, hover text, CSV
    whys = reasons_of(report, view, marks, single=single, target=target_name)
    notes = [hover_lines(w) for w in whys]
    deletions = "deletions" + (" and relabelings" if report.config.protocol == PROTOCOL_2011 else "")
    parse_dot = marked_tree_dot(
        view.span_tree,
        marks,
        side="parse",
        title=f"{view.name}: {deletions}",
        highlighted=highlighted,
        notes=notes,
    )
    target_dot = marked_tree_dot(
        target,
        marks,
        side="general",
        title=f"{target_name}: insertions",
        highlighted=highlighted,
        notes=notes,
    )
    prerender([parse_dot, target_dot])
    graphviz_figure(parse_dot, stem=f"{stem}_{view.name}_parse", key=f"{key}:parse", scale=scale)
    graphviz_figure(target_dot, stem=f"{stem}_{view.name}_target", key=f"{key}:target", scale=scale)
    if whys:
        table = operation_table(
            whys,
            sentence=report.general.sent_id or stem,
            parse=view.name,
            target=target_name,
            protocol=report.config.protocol,
            labeled=labeled,
            highlighted=highlighted,
        )
        script_table(
            table,
            whys,
            key=f"{key}:ops",
            stem=f"{stem}_{view.name}_script",
            row_css=_highlight_row if highlighted else None,
        )
    else:
        st.success("No operation: the parse already is the target tree (for this measure).")
    st.caption(EDIT_LEGEND)
