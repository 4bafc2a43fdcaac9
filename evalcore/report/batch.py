"""The table of ``evalcore batch`` (docs/batch.md): one row per gold × system × metric × score and
one per paired test, as text, CSV or JSON (the shared writers of :mod:`evalcore.report.tables`)."""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.batch import BatchRow
from evalcore.report.tables import Cell, csv_text, json_text, text_table

__all__ = ["BATCH_COLUMNS", "batch_csv", "batch_json", "batch_output", "batch_text"]

BATCH_COLUMNS = ("gold", "system", "other", "metric", "score", "kind", "value", "signature")
"""``other``: the second system of a p-value row (``kind`` ``p``), empty for a score."""


def _cells(row: BatchRow) -> list[Cell]:
    return [row.gold, row.system, row.other, row.metric, row.score, row.kind, row.value, row.signature]


def batch_csv(rows: Sequence[BatchRow]) -> str:
    return csv_text(BATCH_COLUMNS, [_cells(r) for r in rows])


def batch_json(rows: Sequence[BatchRow]) -> str:
    """A list of objects, one per row, with the :data:`BATCH_COLUMNS` keys."""
    return json_text([dict(zip(BATCH_COLUMNS, _cells(r), strict=True)) for r in rows])


def batch_text(rows: Sequence[BatchRow]) -> str:
    """The aligned table without the signatures, then each distinct signature once."""
    table = text_table(BATCH_COLUMNS[:-1], [_cells(r)[:-1] for r in rows], digits=4)
    signatures = "\n".join(dict.fromkeys(r.signature for r in rows))
    return f"{table}\n{signatures}\n"


def batch_output(fmt: str, rows: Sequence[BatchRow]) -> str:
    if fmt == "json":
        return batch_json(rows)
    if fmt == "csv":
        return batch_csv(rows)
    return batch_text(rows)
