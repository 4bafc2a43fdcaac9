"""Writers of the per-sentence records on aligned words (``evalcore attach --per-sentence`` for a
system of another tokenization; docs/attachment.md, "Every analysis on aligned words")."""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.metrics.aligned import SentenceRecord
from evalcore.report.tables import Cell, csv_text, text_table

__all__ = ["records_csv", "records_json", "records_text"]

_COUNTS = ("gold", "system", "aligned", "uas", "las", "ned")
_F1 = ("uas", "las", "ned")


def _name(r: SentenceRecord) -> str:
    return r.sent_id or f"#{r.index + 1}"


def records_text(records: Sequence[SentenceRecord]) -> str:
    """One row per gold sentence: its counts and UAS / LAS / NED F1 in percent; then the total
    (the NED line is the corpus NED on aligned words)."""
    rows: list[list[Cell]] = [
        [_name(r), *(getattr(r, c) for c in _COUNTS), *(f"{100 * r.f1(m):.2f}" for m in _F1)] for r in records
    ]
    t = sum(records, SentenceRecord(-1, None, 0, 0, 0, 0, 0, 0))
    rows.append(["(all)", *(getattr(t, c) for c in _COUNTS), *(f"{100 * t.f1(m):.2f}" for m in _F1)])
    headers = ["gold sentence", *_COUNTS, "UAS F1", "LAS F1", "NED F1"]
    return (
        "per gold sentence (system words: those whose first character is in it; correct: aligned pairs)\n"
        + text_table(headers, rows, numeric_columns=range(1, len(headers)))
    )


def records_json(records: Sequence[SentenceRecord]) -> list[dict[str, object]]:
    """``[{sentence, index, gold, system, aligned, uas, las, ned, uas_f1, las_f1, ned_f1}]``."""
    return [
        {"sentence": _name(r), "index": r.index}
        | {c: getattr(r, c) for c in _COUNTS}
        | {f"{m}_f1": r.f1(m) for m in _F1}
        for r in records
    ]


def records_csv(records: Sequence[SentenceRecord], signature: str) -> str:
    rows: list[list[Cell]] = [
        [_name(r), r.index, *(getattr(r, c) for c in _COUNTS), *(r.f1(m) for m in _F1), signature]
        for r in records
    ]
    return csv_text(["sentence", "index", *_COUNTS, *(f"{m}_f1" for m in _F1), "signature"], rows)
