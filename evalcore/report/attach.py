"""Writers of attachment scores (``evalcore attach``; docs/attachment.md, "The five numbers"): text, JSON,
CSV."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalcore.display import Table, rows_of
from evalcore.report.tables import Cell, csv_text, pick, text_table

if TYPE_CHECKING:  # the intervals' writers are imported with --bootstrap only (kept out of start-up)
    from evalcore.metrics.attachment import AttachResult
    from evalcore.resampling import Intervals

__all__ = ["attach_csv", "attach_json", "attach_result_table", "attach_text", "labels_header"]


def labels_header(signature: str) -> str:
    """The text table's first line: how relation labels were compared, as the signature says
    (``deprel:base`` or ``deprel:full``; docs/attachment.md, "Relation labels")."""
    if "|deprel:base|" in signature:
        return "relation labels: universal (the DEPREL before ':', as the CoNLL 2018 scorer; --labels full)\n"
    return "relation labels: full (each DEPREL as written, as eval.pl; --labels universal)\n"


def _values(result: AttachResult) -> list[tuple[str, str, float | None]]:
    """(text name, JSON key, value); ``None`` when no token was scored (never a silent 0)."""
    s = result.score
    pairs = [
        ("UAS", "uas", s.uas),
        ("LAS", "las", s.las),
        ("label acc", "label", s.label),
        ("undirected", "undirected", s.undirected),
        ("NED", "ned", s.ned),
    ]
    return [(name, key, None if s.tokens == 0 else value) for name, key, value in pairs]


def _signature(result: AttachResult, intervals: Intervals | None) -> str:
    return result.score.signature if intervals is None else intervals.settings.sign(result.score.signature)


def attach_json(
    result: AttachResult, per_sentence: bool = False, intervals: Intervals | None = None
) -> dict[str, object]:
    """The JSON document: scores, counts, signature, and every sentence's counts if asked; with
    ``intervals`` (or those of an :class:`~evalcore.families.attach.AttachOutcome`), the bootstrap
    settings and each score's ``low``/``high``; an outcome of two systems: their paired test's document
    (``evalcore attach GOLD A B --format json``)."""
    from evalcore.families.attach import AttachOutcome

    if isinstance(result, AttachOutcome):
        if result.comparison is not None:
            from evalcore.report.resampling import paired_json

            cmp = result.comparison
            return paired_json(cmp, *result.names, cmp.sign(result.score.signature))
        intervals = intervals or result.intervals
    s = result.score
    out: dict[str, object] = {key: value for _, key, value in _values(result)}
    if intervals is not None:
        from evalcore.report.resampling import intervals_json

        out |= intervals_json(intervals)
    out |= pick(s, "tokens", "sentences", "skipped") | {
        "excluded_by_length": s.excluded,
        "signature": _signature(result, intervals),
    }
    if per_sentence:
        out["per_sentence"] = [
            {"sent_id": sid}
            | pick(c, "tokens", "uas", "las", "label", "undirected", "ned")
            | {"skipped": bool(c.skipped), "excluded": bool(c.excluded)}
            for sid, c in result.per_sentence
        ]
    return out


def _count_rows(result: AttachResult) -> list[list[Cell]]:
    s = result.score
    return [
        ["tokens", s.tokens],
        ["sentences", s.sentences],
        ["skipped", s.skipped],
        ["excluded_by_length", s.excluded],
    ]


def attach_result_table(result: AttachResult) -> Table:
    """``metric, value`` rows: the scores (``None`` when no token was scored), then the counts."""
    rows: list[list[Cell]] = [[name, value] for name, _, value in _values(result)]
    return Table(("metric", "value"), rows_of(rows + _count_rows(result)), result.score.signature)


def attach_csv(result: AttachResult, intervals: Intervals | None = None) -> str:
    """``metric,value`` rows: the scores, the counts and the signature; with ``intervals``, two more
    columns ``low,high`` (empty on the count rows)."""
    rows: list[list[Cell]] = [[name, value] for name, _, value in _values(result)]
    if intervals is not None:
        rows = [
            [*row, intervals.get(key).low, intervals.get(key).high] if row[1] is not None else row
            for row, (_, key, _v) in zip(rows, _values(result), strict=True)
        ]
    rows += [*_count_rows(result), ["signature", _signature(result, intervals)]]
    headers = ["metric", "value"] if intervals is None else ["metric", "value", "low", "high"]
    return csv_text(headers, [row + [None] * (len(headers) - len(row)) for row in rows])


def attach_text(result: AttachResult, per_sentence: bool = False, intervals: Intervals | None = None) -> str:
    """The table of scores (fraction and percent; with ``intervals``, each score's bootstrap interval
    in percent), the counts, the signature; then every sentence's counts if asked."""
    s = result.score
    values = _values(result)
    pct = ["N/A" if v is None else f"{100 * v:.2f}" for _, _, v in values]
    width = max(len(p) for p in [*pct, "%"])
    headers = ["metric", "score", "%".rjust(width)]
    rows: list[list[Cell]] = [[name, v, p.rjust(width)] for (name, _, v), p in zip(values, pct, strict=True)]
    if intervals is not None:
        from evalcore.report.resampling import interval_text, level_header

        headers.append(level_header(intervals.settings))
        for row, (_, key, v) in zip(rows, values, strict=True):
            row.append("" if v is None else interval_text(intervals.get(key)))
    out = labels_header(s.signature) + text_table(headers, rows)
    out += (
        f"\n{s.tokens} tokens in {s.sentences} sentences; skipped {s.skipped} (not a tree); "
        f"excluded {s.excluded} (longer than --max-len)\n"
    )
    if intervals is not None:
        st = intervals.settings
        out += (
            f"intervals: bootstrap percentile, {st.samples} resamples of the {s.sentences} scored "
            f"sentences, seed {st.seed}\n"
        )
    out += f"signature: {_signature(result, intervals)}\n"
    if per_sentence:
        sentence_rows: list[list[Cell]] = [
            [sid, c.tokens, c.uas, c.las, c.label, c.undirected, c.ned, "skipped" if c.skipped else ""]
            for sid, c in result.per_sentence
        ]
        sentence_headers = ["sent_id", "tokens", "uas", "las", "label", "undir", "ned", "note"]
        out += "\n" + text_table(sentence_headers, sentence_rows)
    return out
