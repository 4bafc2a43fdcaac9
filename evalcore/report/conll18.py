"""The CoNLL 2018 scorer's own tables, as ``conll18_ud_eval.py -v`` and ``-c`` print them.

Pure functions of :class:`evalcore.metrics.conll18.MetricScore` rows, so that a user can diff
evalcore's output with the scorer's.  The layout (column widths, the ``AligndAcc`` header, blank
aligned accuracy for Tokens/Sentences/Words, ``0.00`` when nothing is aligned) is the scorer's
``build_evaluation_table``.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.metrics.conll18 import MetricScore, signature
from evalcore.report.resampling import interval_text, level_header
from evalcore.report.tables import Cell, text_table
from evalcore.resampling import Intervals

__all__ = ["format_conll18_counts", "format_conll18_intervals", "format_conll18_table"]

_RULE = "-----------+-----------+-----------+-----------+-----------"


def format_conll18_table(rows: Sequence[MetricScore]) -> str:
    """The ``-v`` table: precision, recall, F1 and aligned accuracy in percent, two decimals."""
    out = ["Metric     | Precision |    Recall |  F1 Score | AligndAcc", _RULE]
    for r in rows:
        acc = f"{100 * r.aligned_accuracy:10.2f}" if r.aligned_accuracy is not None else ""
        out.append(
            f"{r.metric:11}|{100 * r.precision:10.2f} |{100 * r.recall:10.2f} |{100 * r.f1:10.2f} |{acc}"
        )
    return "\n".join(out)


def format_conll18_counts(rows: Sequence[MetricScore]) -> str:
    """The ``-c`` table: correct, gold, predicted and aligned counts."""
    out = ["Metric     | Correct   |      Gold | Predicted | Aligned", _RULE]
    for r in rows:
        # the scorer prints ``aligned_total or (correct if Words else "")``: 0 aligned prints blank
        aligned: int | str = r.aligned or (r.correct if r.metric == "Words" else "")
        out.append(f"{r.metric:11}|{r.correct:10} |{r.gold:10} |{r.system:10} |{aligned:10}")
    return "\n".join(out)


def format_conll18_intervals(rows: Sequence[MetricScore], intervals: Intervals) -> str:
    """``--bootstrap`` after the ``-v`` table: each row's F1 and aligned accuracy with their
    percentile intervals (from the per-gold-sentence counts), in percent, and the signature."""
    level = level_header(intervals.settings)
    table: list[list[Cell]] = []
    for r in rows:
        acc = r.aligned_accuracy
        table.append(
            [
                r.metric,
                f"{100 * r.f1:.2f}",
                interval_text(intervals.get(f"{r.metric} f1")),
                "" if acc is None else f"{100 * acc:.2f}",
                "" if acc is None else interval_text(intervals.get(f"{r.metric} aligned_accuracy")),
            ]
        )
    st = intervals.settings
    return (
        text_table(["Metric", "F1 Score", f"F1 {level}", "AligndAcc", f"AligndAcc {level}"], table)
        + f"\nintervals: bootstrap percentile, {st.samples} resamples of the gold sentences (each with the "
        f"system words that start in it), seed {st.seed}\nsignature: {st.sign(signature())}\n"
    )
