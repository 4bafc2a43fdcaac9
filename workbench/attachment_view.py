"""The views of the Attachment & NED page (``pages/4_NED.py``; docs/app.md, "Attachment & NED page").

Every number comes from :mod:`evalcore`: the CoNLL 2018 parity table from
:func:`evalcore.metrics.conll18.evaluate_conll18` (the 13 rows of the shared
task's scorer), the MaltEval-style breakdowns and the relation confusion table
from :mod:`evalcore.metrics.breakdown` (docs/attachment.md, "The five numbers"), the intervals from
:func:`evalcore.significance.bootstrap_interval` (percentile bootstrap over
sentences, seeded), called in one place, :func:`interval`.  This module draws
the charts (plotly) and builds the tables; the page only lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import pandas as pd
import plotly.graph_objects as go

from evalcore.errors import EvalcoreError
from evalcore.families.attach import AttachSettings, attach_config
from evalcore.metrics.aligned import aligned_breakdowns, aligned_groups_by_sentence
from evalcore.metrics.attachment import AttachCounts
from evalcore.metrics.base import ratio
from evalcore.metrics.breakdown import (
    GROUPINGS,
    Breakdown,
    BreakdownResult,
    Confusion,
    GroupBy,
    GroupCounts,
    GroupScore,
    breakdown_corpus,
    score_breakdown,
)
from evalcore.metrics.conll18 import Conll18Counts, Conll18Result, MetricScore, ratio_pairs
from evalcore.metrics.conll18 import score as score_conll18
from evalcore.significance import Interval, bootstrap_interval, bootstrap_ratio_intervals
from workbench.cache import CorpusAttach, aligned, cached, conll18_scores
from workbench.datasets import Analysis, LoadedDataset
from workbench.links import inspector_url
from workbench.text import shortened

__all__ = [
    "ALIGNED_METRICS",
    "BOOTSTRAP_SAMPLES",
    "BOOTSTRAP_SEED",
    "CORPUS_METRICS",
    "GROUPINGS",
    "SORTS",
    "BreakdownView",
    "GroupRow",
    "Parity",
    "aligned_breakdown_view",
    "aligned_intervals",
    "aligned_sentences_frame",
    "aligned_worst",
    "breakdown_figure",
    "breakdown_frame",
    "breakdown_view",
    "clicked_group",
    "confusion_figure",
    "confusion_frame",
    "corpus_intervals",
    "group_sentences_frame",
    "head_errors_frame",
    "interval",
    "interval_figure",
    "parity_table",
    "scorer_frame",
    "sentence_counts_frame",
]

BOOTSTRAP_SAMPLES = 1000
BOOTSTRAP_SEED = 12345
LEVEL = 0.95

CORPUS_METRICS: tuple[tuple[str, str], ...] = (
    ("UAS", "uas"),
    ("LAS", "las"),
    ("label acc", "label"),
    ("undirected", "undirected"),
    ("NED", "ned"),
)
"""The corpus metrics of the page (label, :class:`AttachCounts` field); each is correct / tokens."""

Sort = Literal["group", "LAS", "UAS", "tokens"]
SORTS: tuple[Sort, ...] = ("group", "LAS", "UAS", "tokens")
"""Orders of the breakdown (``sort=`` of :data:`workbench.links.BREAKDOWN_SORTS`): the grouping's own
order, worst LAS / UAS first, most tokens first."""

SORT_LABELS = {
    "group": "the grouping's order",
    "LAS": "LAS, worst first",
    "UAS": "UAS, worst first",
    "tokens": "tokens, most first",
}


def interval(pairs: Sequence[tuple[float, float]]) -> Interval:
    """The percentile interval of ``Σx/Σn`` over sentences (``pairs`` = per-sentence ``(x, n)``):
    the one call of the bootstrap on this page (1000 resamples, seed 12345, 95 %)."""
    return bootstrap_interval(pairs, samples=BOOTSTRAP_SAMPLES, level=LEVEL, seed=BOOTSTRAP_SEED)


def corpus_intervals(per_sentence: Sequence[AttachCounts]) -> tuple[tuple[str, Interval], ...]:
    """An interval for each corpus metric, resampling the scored sentences (skipped and
    ``--max-len``-excluded ones count nothing, as in the corpus score)."""
    scored = [c for c in per_sentence if not c.skipped and not c.excluded]
    return tuple(
        (label, interval([(getattr(c, f), c.tokens) for c in scored])) for label, f in CORPUS_METRICS
    )


def interval_figure(items: Sequence[tuple[str, Interval]], *, title: str = "") -> go.Figure:
    """One bar per metric (percent) with its interval as an error bar."""
    names = [n for n, _ in items]
    points = [100 * i.point for _, i in items]
    fig = go.Figure(
        go.Bar(
            x=names,
            y=points,
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [100 * (i.high - i.point) for _, i in items],
                "arrayminus": [100 * (i.point - i.low) for _, i in items],
            },
            text=[f"{p:.2f}" for p in points],
            textposition="inside",
            hovertemplate="%{x}: %{y:.2f}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title, yaxis_title="percent", yaxis_range=[0, 100], height=300, margin={"t": 40, "b": 30}
    )
    return fig


# --------------------------------------------------------------------------- CoNLL 2018 parity


@dataclass(frozen=True)
class Parity:
    """The scorer's 13 rows as a table (percent, two decimals as the scorer prints), or why not."""

    frame: pd.DataFrame | None
    error: str | None
    signature: str


def scorer_frame(scores: Sequence[MetricScore]) -> pd.DataFrame:
    """The rows of ``conll18_ud_eval.py -v`` as text, two decimals as the scorer prints them; the
    aligned accuracy of Tokens, Sentences and Words is blank, as in its table
    (:func:`evalcore.report.conll18.format_conll18_table`)."""

    def pct(value: float | None) -> str:
        return "" if value is None else f"{100 * value:.2f}"

    rows = [
        {
            "Metric": s.metric,
            "Precision": pct(s.precision),
            "Recall": pct(s.recall),
            "F1 Score": pct(s.f1),
            "AligndAcc": pct(s.aligned_accuracy),
        }
        for s in scores
    ]
    return pd.DataFrame(rows, columns=["Metric", "Precision", "Recall", "F1 Score", "AligndAcc"])


def parity_table(gold: Analysis, system: Analysis) -> Parity:
    """``evalcore attach --format conll18`` on the two analyses (character alignment of the whole
    document, as the shared task's scorer; cached on their contents)."""
    try:
        result = conll18_scores(gold, system)
    except EvalcoreError as exc:
        return Parity(None, str(exc), "")
    return Parity(scorer_frame(result.scores), None, result.signature)


ALIGNED_METRICS = ("UAS", "LAS", "CLAS", "MLAS", "BLEX")
"""The corpus numbers shown for a parse of the raw text: the scorer's F1 of each (percent)."""


def aligned_intervals(result: Conll18Result) -> tuple[tuple[str, Interval], ...]:
    """The F1 of each of :data:`ALIGNED_METRICS` with its interval, resampling the gold sentences
    (:func:`evalcore.metrics.conll18.ratio_pairs`: F1 as a ratio of sums over sentences)."""
    return tuple((m, interval(ratio_pairs(result.sentences, m))) for m in ALIGNED_METRICS)


def aligned_sentences_frame(loaded: LoadedDataset, result: Conll18Result) -> pd.DataFrame:
    """One row per gold sentence (:func:`evaluate_conll18`'s ``per_sentence`` counts: the gold words
    of the sentence and the system words whose first character falls in it), worst LAS F1 first:
    gold and system words, F1 of UAS, LAS, CLAS (percent, two decimals), a link to the inspector."""
    records = []
    for info, counts in zip(loaded.sentences, result.sentences, strict=True):
        rows = {s.metric: s for s in score_conll18(counts)}
        records.append(
            {
                "sentence": info.sent_id,
                "words": shortened(info.text),
                "gold words": counts.words_gold,
                "system words": counts.words_system,
                **{m: round(100 * rows[m].f1, 2) for m in ("UAS", "LAS", "CLAS")},
                "inspect": inspector_url(loaded.spec.key, info.sent_id),
            }
        )
    frame = pd.DataFrame(records)
    return frame.sort_values(["LAS", "gold words"], ascending=[True, False], kind="stable")


def sentence_counts_frame(counts: Conll18Counts) -> pd.DataFrame:
    """One gold sentence's share of the scorer's table (Words to BLEX): correct, gold and system
    counts, then precision, recall, F1 and aligned accuracy as :func:`scorer_frame` shows them."""
    rows = [r for r in score_conll18(counts) if r.metric not in ("Tokens", "Sentences")]
    frame = pd.DataFrame(
        [{"Metric": r.metric, "correct": r.correct, "gold": r.gold, "system": r.system} for r in rows]
    )
    return frame.merge(scorer_frame(rows), on="Metric")


def aligned_worst(result: Conll18Result) -> dict[int, float]:
    """Per gold sentence (its position), the LAS F1 of its words: the "worst first" order."""
    return {i: ratio(2 * c.las, c.words_gold + c.words_system, 1.0) for i, c in enumerate(result.sentences)}


# --------------------------------------------------------------------------- breakdowns


@dataclass(frozen=True)
class GroupRow:
    """One group: its scores, the intervals of its UAS and LAS (recall side) and its sentences
    (file positions of the sentences with a counted token of the group, gold or system side)."""

    score: GroupScore
    uas: Interval
    las: Interval
    sentences: tuple[int, ...]


@dataclass(frozen=True)
class BreakdownView:
    """A breakdown by ``by`` with intervals, and the relation confusion table."""

    by: GroupBy
    rows: tuple[GroupRow, ...]
    confusion: Confusion
    signature: str

    def row(self, group: str) -> GroupRow | None:
        return next((r for r in self.rows if r.score.group == group), None)


@cached("data", show_spinner=False, max_entries=64)
def _breakdown(
    gold_digest: str,
    system_digest: str,
    indices: tuple[int, ...],
    settings: AttachSettings,
    by: GroupBy,
    _gold: Analysis,
    _system: Analysis,
) -> BreakdownView:
    cfg = attach_config(settings, _gold.dialect)
    pairs = [(_gold.dep_trees[i], _system.dep_trees[i]) for i in indices]
    per: list[dict[str, GroupCounts]] = []

    def seen(_k: int, parts: tuple[Breakdown, ...]) -> None:
        per.append(dict(parts[0].groups))

    result = breakdown_corpus(pairs, (by,), cfg, on_sentence=seen)
    return _view(by, result, dict(zip(indices, per, strict=True)))


def _view(by: GroupBy, result: BreakdownResult, per: dict[int, dict[str, GroupCounts]]) -> BreakdownView:
    """The view of the breakdown ``by`` of ``result``: each group's bootstrap intervals over the
    sentences (``per``: each scored sentence's counts by group; every interval from one stream of
    draws, as :func:`interval` gives it alone) and its sentences."""
    empty = GroupCounts()
    scores = score_breakdown(result.get(by))
    counts = [{i: p.get(s.group, empty) for i, p in per.items()} for s in scores]
    ratios = [
        [(getattr(c, x), c.gold) for c in group.values()]
        for group in counts
        for x in ("gold_uas", "gold_las")
    ]
    intervals = bootstrap_ratio_intervals(ratios, samples=BOOTSTRAP_SAMPLES, level=LEVEL, seed=BOOTSTRAP_SEED)
    rows = [
        GroupRow(
            s,
            intervals[2 * k],
            intervals[2 * k + 1],
            tuple(i for i, c in group.items() if c.gold or c.system),
        )
        for k, (s, group) in enumerate(zip(scores, counts, strict=True))
    ]
    return BreakdownView(by, tuple(rows), result.confusion, result.signatures[0])


@cached("data", show_spinner=False, max_entries=64)
def _aligned_breakdown(
    gold_digest: str, system_digest: str, by: GroupBy, _gold: Analysis, _system: Analysis
) -> BreakdownView:
    alignment = aligned(_gold, _system)
    per: dict[int, dict[str, GroupCounts]] = {i: {} for i in range(len(alignment.sentences))}
    for group, sentences in aligned_groups_by_sentence(alignment, by).items():
        for i, c in sentences.items():
            per[i][group] = c
    return _view(by, aligned_breakdowns(alignment, (by,)), per)


def aligned_breakdown_view(gold: Analysis, system: Analysis, by: GroupBy) -> BreakdownView:
    """The breakdown of a parse of the raw text on the character-aligned words (docs/attachment.md,
    "Every analysis on aligned words"; a system word is in the gold sentence its first character
    falls in), cached on the files and the grouping."""
    return _aligned_breakdown.by(gold.digest, system.digest)(gold.digest, system.digest, by, gold, system)


def breakdown_view(
    gold: Analysis, system: Analysis, corpus: CorpusAttach, settings: AttachSettings, by: GroupBy
) -> BreakdownView:
    """The breakdown of the pair's scored sentences (those of the corpus numbers: words equal, both
    trees valid), cached on the files, the settings and the grouping."""
    indices = tuple(
        i for i, (_, c) in zip(corpus.indices, corpus.result.per_sentence, strict=True) if not c.skipped
    )
    return _breakdown.by(gold.digest, system.digest)(
        gold.digest, system.digest, indices, settings, by, gold, system
    )


def breakdown_frame(view: BreakdownView, sort: Sort = "group") -> pd.DataFrame:
    """One row per group (MaltEval's columns): gold and system tokens, UAS, LAS (= recall), label
    accuracy, LAS precision and F1, the intervals, the number of sentences; percent."""
    rows = list(view.rows)
    if sort == "LAS":
        rows.sort(key=lambda r: (r.score.las, -r.score.counts.gold))
    elif sort == "UAS":
        rows.sort(key=lambda r: (r.score.uas, -r.score.counts.gold))
    elif sort == "tokens":
        rows.sort(key=lambda r: -r.score.counts.gold)
    records = []
    for r in rows:
        s, c = r.score, r.score.counts
        shares = (s.uas, r.uas.low, r.uas.high, s.las, r.las.low, r.las.high, s.label, s.precision, s.f1)
        records.append((s.group, c.gold, c.system, *(round(100 * x, 2) for x in shares), len(r.sentences)))
    columns = [
        "group", "gold tokens", "system tokens", "UAS", "UAS low", "UAS high", "LAS", "LAS low",
        "LAS high", "label acc", "LAS precision", "LAS F1", "sentences",
    ]  # fmt: skip
    return pd.DataFrame(records, columns=columns)


def breakdown_figure(frame: pd.DataFrame, by: str) -> go.Figure:
    """UAS and LAS per group (recall side, percent) with their intervals as error bars, in the
    frame's order; a click on a bar selects its group (``on_select``)."""
    groups = [str(g) for g in frame["group"]]
    fig = go.Figure()
    for metric, colour in (("UAS", "#4c78a8"), ("LAS", "#f58518")):
        fig.add_bar(
            name=metric,
            x=groups,
            y=list(frame[metric]),
            marker_color=colour,
            error_y={
                "type": "data",
                "symmetric": False,
                "array": list(frame[f"{metric} high"] - frame[metric]),
                "arrayminus": list(frame[metric] - frame[f"{metric} low"]),
            },
            customdata=list(frame["gold tokens"]),
            hovertemplate="%{x}: " + metric + " %{y:.2f} (%{customdata} gold tokens)<extra></extra>",
        )
    fig.update_layout(
        barmode="group",
        xaxis={"type": "category", "categoryorder": "array", "categoryarray": groups, "title": by},
        yaxis={"title": "percent", "range": [0, 105]},
        height=360,
        margin={"t": 30, "b": 40},
        legend={"orientation": "h", "y": 1.1},
        clickmode="event+select",
    )
    return fig


def clicked_group(event: object) -> str | None:
    """The group of the bar clicked in :func:`breakdown_figure` (Streamlit's selection event)."""
    selection = getattr(event, "selection", None)
    points = getattr(selection, "points", None) if selection is not None else None
    if not points:
        return None
    first = points[0]
    x = first.get("x") if isinstance(first, dict) else getattr(first, "x", None)
    return None if x is None else str(x)


def group_sentences_frame(loaded: LoadedDataset, row: GroupRow) -> pd.DataFrame:
    """The sentences of one group, with a link each to the sentence inspector."""
    records = []
    for i in row.sentences:
        info = loaded.sentences[i]
        url = inspector_url(loaded.spec.key, info.sent_id)
        records.append({"sentence": info.sent_id, "words": shortened(info.text), "inspect": url})
    return pd.DataFrame(records, columns=["sentence", "words", "inspect"])


# --------------------------------------------------------------------------- confusion


def confusion_frame(confusion: Confusion, top: int = 30) -> pd.DataFrame:
    """Gold relation (rows) × system relation (columns), counted tokens; the ``top`` most frequent
    relations of each side, the others summed into ``(other)`` (nothing is dropped)."""
    gold_total: dict[str, int] = {}
    sys_total: dict[str, int] = {}
    for (g, s), n in confusion.cells:
        gold_total[g] = gold_total.get(g, 0) + n
        sys_total[s] = sys_total.get(s, 0) + n

    def keep(totals: dict[str, int]) -> list[str]:
        return [k for k, _ in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:top]]

    rows, cols = keep(gold_total), keep(sys_total)
    other = "(other)"
    row_names = rows + ([other] if len(gold_total) > len(rows) else [])
    col_names = cols + ([other] if len(sys_total) > len(cols) else [])
    table = pd.DataFrame(0, index=row_names, columns=col_names, dtype="int64")
    for (g, s), n in confusion.cells:
        table.loc[g if g in rows else other, s if s in cols else other] += n
    table.index.name = "gold \\ system"
    return table


def confusion_figure(table: pd.DataFrame) -> go.Figure:
    """The confusion table as a heatmap (log-scaled colour so small confusions show; the hover and
    the text give the counts)."""
    import numpy as np

    values = table.to_numpy()
    fig = go.Figure(
        go.Heatmap(
            z=np.log10(values + 1),
            x=[str(c) for c in table.columns],
            y=[str(r) for r in table.index],
            text=values,
            texttemplate="%{text}",
            customdata=values,
            hovertemplate="gold %{y} → system %{x}: %{customdata} tokens<extra></extra>",
            colorscale="Blues",
            showscale=False,
        )
    )
    size = max(len(table.index), len(table.columns))
    fig.update_layout(
        height=min(900, 160 + 22 * size),
        xaxis={"title": "system relation", "type": "category", "side": "top"},
        yaxis={"title": "gold relation", "type": "category", "autorange": "reversed"},
        margin={"t": 60, "b": 20},
    )
    return fig


def head_errors_frame(confusion: Confusion) -> pd.DataFrame:
    """Counted tokens by what is wrong (head, relation, both, neither)."""
    e = confusion.errors
    total = e.both_right + e.label_wrong + e.head_wrong + e.both_wrong
    rows = [
        ("head and relation right", e.both_right),
        ("right head, wrong relation", e.label_wrong),
        ("wrong head, right relation", e.head_wrong),
        ("head and relation wrong", e.both_wrong),
    ]
    return pd.DataFrame(
        [
            {"tokens": what, "count": n, "percent": round(100 * n / total, 2) if total else 0.0}
            for what, n in rows
        ]
    )
