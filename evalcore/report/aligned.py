"""Writers of a system of another tokenization scored on aligned words (``evalcore attach`` then
aligns characters; docs/attachment.md, "Every analysis on aligned words"): its JSON document and
tidy table, and its per-sentence records."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from evalcore.display import Table, rows_of
from evalcore.metrics.aligned import SentenceRecord
from evalcore.report.tables import Cell, csv_text, text_table

if TYPE_CHECKING:
    from evalcore.families.attach import AlignedOutcome

__all__ = [
    "aligned_confusion_signature",
    "aligned_outcome_json",
    "aligned_table",
    "records_csv",
    "records_json",
    "records_text",
]

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


def aligned_confusion_signature(deprel_base: bool) -> str:
    """The signature of the confusion table on aligned words."""
    from evalcore.metrics.base import make_signature

    return make_signature("confusion", [("align", "chars"), ("deprel", "base" if deprel_base else "full")])


def aligned_outcome_json(outcome: AlignedOutcome, per_sentence: bool = False) -> dict[str, object]:
    """The ``evalcore attach --format json`` document of a system aligned by characters: the
    scorer's rows (:func:`~evalcore.report.conll18.aligned_json`), the bootstrap's intervals, the
    breakdowns and the confusion asked for, and (``per_sentence``) the records of the gold
    sentences; of two systems, their paired test's document."""
    from evalcore.report.breakdown import breakdown_json, confusion_json
    from evalcore.report.conll18 import aligned_json
    from evalcore.report.resampling import intervals_json, paired_json

    if outcome.comparison is not None:
        cmp = outcome.comparison
        return paired_json(cmp, *outcome.names, cmp.sign(outcome.result.signature))
    doc = aligned_json(outcome.result, outcome.difference)
    if outcome.intervals is not None:
        doc.update(intervals_json(outcome.intervals))
    parts = outcome.breakdowns
    if parts is not None and outcome.by:
        doc["breakdowns"] = breakdown_json(parts)
    if parts is not None and outcome.confusion:
        doc["confusion"] = confusion_json(parts.confusion, aligned_confusion_signature(outcome.deprel_base))
    if per_sentence:
        doc["sentences"] = records_json(outcome.records)
    return doc


def aligned_table(outcome: AlignedOutcome) -> Table:
    """The scorer's rows as one tidy table: ``metric, precision, recall, f1, aligned_accuracy,
    correct, gold, system, aligned`` (fractions; ``None`` where the scorer prints nothing)."""
    from evalcore.report.conll18 import COLUMNS

    rows = [[getattr(r, c) for c in COLUMNS] for r in outcome.result.scores]
    return Table(COLUMNS, rows_of(rows), outcome.result.signature)
