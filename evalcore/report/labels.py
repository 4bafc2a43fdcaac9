"""Writers of ``evalcore align-labels`` (docs/labels.md): the map in the ``--labels-map`` format,
JSON, CSV and a text table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from evalcore.display import Table, rows_of
from evalcore.labelalign import LabelAlignment, Proposal
from evalcore.report.tables import csv_text, json_text, pick, text_table

if TYPE_CHECKING:
    from evalcore.families.align_labels import LabelAlignments

__all__ = [
    "alignment_csv",
    "alignment_json",
    "alignment_map",
    "alignment_text",
    "alignments_document",
    "alignments_table",
]


def _candidates(p: Proposal, limit: int = 3) -> str:
    return ", ".join(f"{b} {n}" for b, n in p.candidates[:limit]) or "none"


def _header(al: LabelAlignment) -> list[str]:
    skipped = []
    if al.skipped_mismatched:
        skipped.append(f"{al.skipped_mismatched} skipped: words differ")
    if al.skipped_invalid:
        skipped.append(f"{al.skipped_invalid} skipped: not trees")
    extra = f" ({'; '.join(skipped)})" if skipped else ""
    s = al.settings
    return [
        f"# evalcore align-labels: labels of {al.source} onto labels of {al.target}",
        f"# {al.sentences} sentences{extra}; {al.occurrences} label occurrences in {al.source}",
        f"# method: docs/labels.md (most frequent label on the same span; kept when support >= "
        f"{s.min_support} and share >= {s.min_share:.2f})",
        f"# coverage with this map {al.coverage:.4f} (without a map {al.baseline:.4f})",
        f"# signature: {al.signature}",
    ]


def alignment_map(alignments: Sequence[LabelAlignment]) -> str:
    """The ``--labels-map`` format: ``OLD=NEW`` lines, each after a ``#`` line with its counts; kept
    pairs that keep the name and the conflicts as comments only.  With two alignments (both
    directions) the second block maps the other scheme's labels (use the blocks separately)."""
    lines: list[str] = []
    for k, al in enumerate(alignments):
        if k:
            lines.append("")
        lines += _header(al)
        renamed = [p for p in al.proposals if p.kept and p.target != p.label]
        same = [p for p in al.proposals if p.kept and p.target == p.label]
        lines.append(f"# {len(renamed)} renamed, {len(same)} same name, {len(al.conflicts)} conflicts")
        for p in renamed:
            lines.append(f"# {p.label}: {p.support} of {p.occurrences} ({p.share:.3f}); {_candidates(p)}")
            lines.append(f"{p.label}={p.target}")
        for p in same:
            lines.append(
                f"# same: {p.label} {p.support} of {p.occurrences} ({p.share:.3f}); {_candidates(p)}"
            )
        for p in al.conflicts:
            lines.append(
                f"# conflict: {p.label} ({p.occurrences}) not mapped, {p.reason(al.settings)}; "
                f"candidates: {_candidates(p)}"
            )
    return "\n".join(lines) + "\n"


def _row(al: LabelAlignment, p: Proposal) -> list[str | int | float]:
    status = "conflict" if not p.kept else ("same" if p.target == p.label else "renamed")
    return [
        al.source,
        al.target,
        p.label,
        p.target,
        status,
        p.occurrences,
        p.best or "",
        p.support,
        round(p.share, 4),
        p.reason(al.settings),
    ]


HEADERS = ("from", "onto", "label", "new", "status", "occurrences", "best", "support", "share", "reason")


def alignment_csv(alignments: Sequence[LabelAlignment]) -> str:
    return csv_text(HEADERS, [_row(al, p) for al in alignments for p in al.proposals])


def alignment_text(alignments: Sequence[LabelAlignment]) -> str:
    parts = []
    for al in alignments:
        head = "\n".join(line.removeprefix("# ") for line in _header(al))
        parts.append(head + "\n\n" + text_table(HEADERS[2:], [_row(al, p)[2:] for p in al.proposals]))
    return "\n\n".join(parts)


def alignment_json(alignments: Sequence[LabelAlignment]) -> str:
    """The ``--format json`` document: one object per direction."""
    return json_text(_documents(alignments))


def alignments_document(result: LabelAlignments) -> dict[str, object]:
    """``to_dict()`` of the API's result: ``{"alignments": ...}``, the command's JSON list."""
    return {"alignments": _documents(result.alignments)}


def alignments_table(result: LabelAlignments) -> Table:
    """The tidy table: the CSV's rows (one per label and direction)."""
    rows = [_row(al, p) for al in result.alignments for p in al.proposals]
    return Table(HEADERS, rows_of(rows), result.signature)


def _documents(alignments: Sequence[LabelAlignment]) -> list[dict[str, object]]:
    return [
        {"from": al.source, "onto": al.target}
        | pick(
            al, "sentences", "skipped_mismatched", "skipped_invalid", "occurrences", "coverage", "baseline"
        )
        | pick(al.settings, "min_support", "min_share")
        | {
            "signature": al.signature,
            "map": [{"old": a, "new": b} for a, b in al.label_map.pairs],
            "labels": [
                {"label": p.label, "new": p.target}
                | pick(p, "kept", "occurrences", "best", "support", "share")
                | {
                    "reason": p.reason(al.settings),
                    "candidates": [{"label": b, "count": n} for b, n in p.candidates],
                }
                for p in al.proposals
            ],
        }
        for al in alignments
    ]
