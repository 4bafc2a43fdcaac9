"""The table of ``evalcore batch`` (docs/batch.md): one row per gold × system × metric × score and
one per paired test, as text, CSV or JSON (the shared writers of :mod:`evalcore.report.tables`)."""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.batch import BatchRow
from evalcore.report.tables import Cell, csv_text, json_text, text_table

__all__ = [
    "BATCH_COLUMNS",
    "LOWER_IS_BETTER",
    "batch_csv",
    "batch_json",
    "batch_output",
    "batch_text",
    "ranked",
    "selected",
]

BATCH_COLUMNS = ("gold", "system", "other", "metric", "score", "kind", "value", "low", "high", "signature")
"""``other``: the second system of a p-value row (``kind`` ``p``), empty for a score; ``low`` and
``high``: the bounds of a score's bootstrap interval (``conll18``), empty where there is none."""


def _cells(row: BatchRow) -> list[Cell]:
    return [
        row.gold,
        row.system,
        row.other,
        row.metric,
        row.score,
        row.kind,
        row.value,
        row.low,
        row.high,
        row.signature,
    ]


LOWER_IS_BETTER = frozenset({"average_crossing"})
"""Scores where less is better (evalb's crossing brackets per sentence); every other is a
fraction where more is better."""


def selected(rows: Sequence[BatchRow], scores: Sequence[str]) -> tuple[list[BatchRow], list[str]]:
    """The rows of ``scores`` (scores and p-values), and the names of ``scores`` no row has."""
    wanted = set(scores)
    found = {r.score for r in rows}
    return [r for r in rows if r.score in wanted], [s for s in scores if s not in found]


def ranked(rows: Sequence[BatchRow]) -> list[BatchRow]:
    """``rows`` (in the table's order) with each gold × metric's scores grouped by score, in the
    order the scores first appear, and within a score the systems from best to worst (ties in
    the table's order); the p-values stay after them."""
    first: dict[tuple[str, str, str], int] = {}
    for r in rows:
        first.setdefault((r.gold, r.metric, r.score), len(first))
    block: dict[tuple[str, str], int] = {}
    for r in rows:
        block.setdefault((r.gold, r.metric), len(block))

    def key(item: tuple[int, BatchRow]) -> tuple[int, bool, int, float, int]:
        i, r = item
        if r.kind == "p":
            return block[(r.gold, r.metric)], True, 0, 0.0, i
        best = r.value if r.score in LOWER_IS_BETTER else -r.value
        return block[(r.gold, r.metric)], False, first[(r.gold, r.metric, r.score)], best, i

    return [r for _, r in sorted(enumerate(rows), key=key)]


def batch_csv(rows: Sequence[BatchRow]) -> str:
    return csv_text(BATCH_COLUMNS, [_cells(r) for r in rows])


def batch_json(rows: Sequence[BatchRow]) -> str:
    """A list of objects, one per row, with the :data:`BATCH_COLUMNS` keys."""
    return json_text([dict(zip(BATCH_COLUMNS, _cells(r), strict=True)) for r in rows])


def batch_text(rows: Sequence[BatchRow]) -> str:
    """The aligned table without the signatures, then each distinct signature once."""
    cells = [["" if c is None else c for c in _cells(r)[:-1]] for r in rows]  # no interval: blank
    table = text_table(BATCH_COLUMNS[:-1], cells, digits=4, numeric_columns=(7, 8))
    signatures = "\n".join(dict.fromkeys(r.signature for r in rows))
    return f"{table}\n{signatures}\n"


def batch_output(fmt: str, rows: Sequence[BatchRow]) -> str:
    if fmt == "json":
        return batch_json(rows)
    if fmt == "csv":
        return batch_csv(rows)
    return batch_text(rows)
