"""Writers of ``evalcore attach --by`` and ``--confusion`` (MaltEval-style; docs/attachment.md, "The five
numbers", docs/attachment.md).

A group's recall-side scores (UAS, LAS, label accuracy, LAS recall) are over the tokens whose
*gold* property is the group, its precision over the tokens whose *system* property is the group
(:mod:`evalcore.metrics.breakdown`).  A score whose denominator is 0 is ``None`` (N/A in text,
``null`` in JSON, empty in CSV), never a silent 0.
"""

from __future__ import annotations

from evalcore.metrics.breakdown import Breakdown, BreakdownResult, Confusion, GroupCounts
from evalcore.report.tables import Cell, csv_text, text_table

__all__ = [
    "ERROR_CLASSES",
    "breakdown_csv",
    "breakdown_json",
    "breakdown_text",
    "confusion_csv",
    "confusion_json",
    "confusion_text",
]

ERROR_CLASSES = (
    ("both_right", "right head, right label"),
    ("label_wrong", "right head, wrong label"),
    ("head_wrong", "wrong head, right label"),
    ("both_wrong", "wrong head, wrong label"),
)
"""The head/label error classes of :class:`evalcore.metrics.breakdown.HeadErrors`: (key, text)."""

TOP_CONFUSIONS = 20
"""Off-diagonal cells listed in the text output, most frequent first (JSON and CSV have all)."""


def _div(num: int, den: int) -> float | None:
    return None if den == 0 else num / den


_COUNT_KEYS = (
    "gold",
    "system",
    "gold_uas",
    "gold_las",
    "gold_label",
    "system_uas",
    "system_las",
    "system_label",
)
_SCORE_KEYS = ("uas", "las", "label", "precision", "recall", "f1")


def _counts(c: GroupCounts) -> list[int]:
    return [getattr(c, k) for k in _COUNT_KEYS]


def _scores(c: GroupCounts) -> list[float | None]:
    """A group's :data:`_SCORE_KEYS`, ``None`` when their denominator is 0."""
    p, r = _div(c.system_las, c.system), _div(c.gold_las, c.gold)
    f1 = None if p is None or r is None else (0.0 if p + r == 0 else 2 * p * r / (p + r))
    return [_div(c.gold_uas, c.gold), r, _div(c.gold_label, c.gold), p, r, f1]


def breakdown_text(result: BreakdownResult) -> str:
    """One table per grouping: group, gold and system token counts, UAS / LAS / label accuracy
    (gold side), LAS precision (system side), recall and F1; then its signature."""
    out = []
    for b, sig in zip(result.breakdowns, result.signatures, strict=True):
        rows: list[list[Cell]] = [[key, c.gold, c.system, *_scores(c)] for key, c in b.groups]
        total = b.total()
        rows.append(["(all)", total.gold, total.system, *_scores(total)])
        out.append(
            f"by {b.by} (UAS, LAS, label: of the tokens whose gold {b.by} is the group; "
            f"precision: of those whose system {b.by} is)\n"
            + text_table(["group", "gold", "system", "UAS", "LAS", "label", "LAS P", "LAS R", "LAS F1"], rows)
            + f"signature: {sig}\n"
        )
    return "\n".join(out)


def breakdown_json(result: BreakdownResult) -> list[dict[str, object]]:
    """``[{by, signature, groups: [{group, <counts>, <scores>}]}]``."""
    return [
        {
            "by": b.by,
            "signature": sig,
            "groups": [_group_json(key, c) for key, c in b.groups],
        }
        for b, sig in zip(result.breakdowns, result.signatures, strict=True)
    ]


def _group_json(key: str, c: GroupCounts) -> dict[str, object]:
    out: dict[str, object] = {"group": key}
    out |= dict(zip(_COUNT_KEYS, _counts(c), strict=True))
    out |= dict(zip(_SCORE_KEYS, _scores(c), strict=True))
    return out


def breakdown_csv(breakdowns: tuple[Breakdown, ...], signatures: tuple[str, ...]) -> str:
    """One row per (grouping, group): ``by, group``, the counts, the scores, the signature."""
    rows: list[list[Cell]] = [
        [b.by, key, *_counts(c), *_scores(c), sig]
        for b, sig in zip(breakdowns, signatures, strict=True)
        for key, c in b.groups
    ]
    return csv_text(["by", "group", *_COUNT_KEYS, *_SCORE_KEYS, "signature"], rows)


def confusion_text(confusion: Confusion, signature: str) -> str:
    """The head/label error classes, the gold × system relation table (rows: gold) and the most
    frequent confusions."""
    e = confusion.errors
    n = e.both_right + e.label_wrong + e.head_wrong + e.both_wrong
    classes: list[list[Cell]] = [
        [text, getattr(e, key), _div(getattr(e, key), n)] for key, text in ERROR_CLASSES
    ]
    out = "head and label errors\n" + text_table(["tokens", "count", "share"], classes)
    cells = dict(confusion.cells)
    gold = sorted({g for g, _ in cells})
    system = sorted({s for _, s in cells})
    rows = [
        [g, *(str(cells.get((g, s), ".")) for s in system), str(sum(cells.get((g, s), 0) for s in system))]
        for g in gold
    ]
    rows.append(["(all)", *(str(sum(cells.get((g, s), 0) for g in gold)) for s in system), str(n)])
    out += "\nrelations: gold (rows) x system (columns), counted tokens ('.' = none)\n"
    out += text_table(["gold \\ system", *system, "(all)"], rows, numeric_columns=range(1, len(system) + 2))
    wrong = sorted(((k, v) for k, v in cells.items() if k[0] != k[1]), key=lambda kv: (-kv[1], kv[0]))
    if wrong:
        examples = dict(confusion.examples)
        top: list[list[Cell]] = [
            [g, s, v, next(iter(examples.get((g, s), ())), "")] for (g, s), v in wrong[:TOP_CONFUSIONS]
        ]
        shown = f"the {len(top)} most frequent of {len(wrong)}" if len(wrong) > len(top) else "all"
        out += f"\nconfusions ({shown}; example: the first gold sentence with it, JSON names up to 3)\n"
        out += text_table(["gold", "system", "count", "example"], top)
    return out + f"signature: {signature}\n"


def confusion_json(confusion: Confusion, signature: str) -> dict[str, object]:
    """``{cells: [{gold, system, count}], errors: {both_right, label_wrong, head_wrong, both_wrong},
    signature}``."""
    examples = dict(confusion.examples)
    return {
        "cells": [
            {"gold": g, "system": s, "count": n, "examples": list(examples.get((g, s), ()))}
            for (g, s), n in confusion.cells
        ],
        "errors": {key: getattr(confusion.errors, key) for key, _ in ERROR_CLASSES},
        "signature": signature,
    }


def confusion_csv(confusion: Confusion, signature: str) -> str:
    """``gold,system,count,signature`` rows (the error classes are in the text and JSON output)."""
    rows: list[list[Cell]] = [[g, s, n, signature] for (g, s), n in confusion.cells]
    return csv_text(["gold", "system", "count", "signature"], rows)
