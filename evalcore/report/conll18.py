"""The CoNLL 2018 evaluation's writers (docs/attachment.md).

* The scorer's own tables, as ``conll18_ud_eval.py -v`` and ``-c`` print them
  (``--format conll18``): pure functions of :class:`evalcore.metrics.conll18.MetricScore` rows,
  so that a user can diff evalcore's output with the scorer's.  The layout (column widths, the
  ``AligndAcc`` header, blank aligned accuracy for Tokens/Sentences/Words, ``0.00`` when nothing
  is aligned) is the scorer's ``build_evaluation_table``.
* evalcore's text, JSON and CSV of the same rows (:func:`aligned_text`, :func:`aligned_json`,
  :func:`aligned_csv`): what ``evalcore attach`` prints for a system of another tokenization.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.metrics.conll18 import Conll18Result, MetricScore, signature
from evalcore.report.resampling import interval_text, level_header
from evalcore.report.tables import Cell, csv_text, pick, text_table
from evalcore.resampling import Intervals

__all__ = [
    "aligned_csv",
    "aligned_json",
    "aligned_text",
    "format_conll18_counts",
    "format_conll18_intervals",
    "format_conll18_table",
]

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


def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.2f}"


COLUMNS = ("metric", "precision", "recall", "f1", "aligned_accuracy", "correct", "gold", "system", "aligned")
"""The fields of a :class:`~evalcore.metrics.conll18.MetricScore` in the JSON and CSV, in order."""


def aligned_text(result: Conll18Result, why: str) -> str:
    """The 13 rows with precision, recall, F1 and aligned accuracy in percent and their counts;
    the reason the files were aligned by characters (``why``: where the tokens first differ) and
    the signature."""
    headers = ["metric", "precision", "recall", "F1", "aligned acc", "correct", "gold", "system", "aligned"]
    rows: list[list[Cell]] = [
        [
            r.metric,
            *(_pct(v) for v in (r.precision, r.recall, r.f1, r.aligned_accuracy)),
            *(str(n) for n in (r.correct, r.gold, r.system)),
            "" if r.aligned is None else str(r.aligned),
        ]
        for r in result.scores
    ]
    from evalcore.report.attach import labels_header

    return (
        f"aligned by characters (CoNLL 2018): {why}\n"
        + labels_header(result.signature)
        + "\n"
        + text_table(headers, rows, numeric_columns=range(1, len(headers)))
        + "\nscores in %: precision = correct/system, recall = correct/gold, F1, "
        f"aligned acc = correct/aligned words\n{_where_note(result.signature)}signature: {result.signature}\n"
    )


def _where_note(signature: str) -> str:
    """What ``--where`` restricted (docs/patterns.md, "On a parse of raw text"), when it did."""
    if "|where:" not in signature:
        return ""
    return (
        "restricted by --where: Words ... BLEX count only the words it covers, each on its own tree "
        "(a pair: both its words); Tokens and Sentences count all\n"
    )


def aligned_json(result: Conll18Result, why: str) -> dict[str, object]:
    """The JSON document: ``alignment``, ``first_difference``, one object per metric (fractions
    in [0, 1], counts; ``aligned``/``aligned_accuracy`` are ``null`` for Tokens, Sentences, Words),
    ``signature``."""
    return {
        "alignment": "characters",
        "first_difference": why,
        "metrics": [pick(r, *COLUMNS) for r in result.scores],
        "signature": result.signature,
    }


def aligned_csv(result: Conll18Result) -> str:
    """One row per metric: scores (fractions), counts, and the signature on every row."""
    rows: list[list[Cell]] = [[*(getattr(r, c) for c in COLUMNS), result.signature] for r in result.scores]
    return csv_text([*COLUMNS, "signature"], rows)


def format_conll18_intervals(
    rows: Sequence[MetricScore], intervals: Intervals, *, deprel_base: bool = True
) -> str:
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
        f"system words that start in it), seed {st.seed}\nsignature: {st.sign(signature(deprel_base))}\n"
    )
