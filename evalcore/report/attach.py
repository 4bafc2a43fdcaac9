"""Writers of attachment scores (``evalcore attach``; SPEC §3): text, JSON, CSV."""

from __future__ import annotations

from evalcore.metrics.attachment import AttachResult
from evalcore.report.tables import Cell, csv_text, text_table

__all__ = ["attach_csv", "attach_json", "attach_text"]


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


def attach_json(result: AttachResult, per_sentence: bool = False) -> dict[str, object]:
    """The JSON document: scores, counts, signature, and every sentence's counts if asked."""
    s = result.score
    out: dict[str, object] = {key: value for _, key, value in _values(result)}
    out |= {
        "tokens": s.tokens,
        "sentences": s.sentences,
        "skipped": s.skipped,
        "excluded_by_length": s.excluded,
        "signature": s.signature,
    }
    if per_sentence:
        out["per_sentence"] = [
            {
                "sent_id": sid,
                "tokens": c.tokens,
                "uas": c.uas,
                "las": c.las,
                "label": c.label,
                "undirected": c.undirected,
                "ned": c.ned,
                "skipped": bool(c.skipped),
                "excluded": bool(c.excluded),
            }
            for sid, c in result.per_sentence
        ]
    return out


def attach_csv(result: AttachResult) -> str:
    """``metric,value`` rows: the scores, the counts and the signature."""
    s = result.score
    rows: list[list[Cell]] = [[name, value] for name, _, value in _values(result)]
    rows += [
        ["tokens", s.tokens],
        ["sentences", s.sentences],
        ["skipped", s.skipped],
        ["excluded_by_length", s.excluded],
        ["signature", s.signature],
    ]
    return csv_text(["metric", "value"], rows)


def attach_text(result: AttachResult, per_sentence: bool = False) -> str:
    """The table of scores (fraction and percent), the counts, the signature; then every sentence's
    counts if asked."""
    s = result.score
    values = _values(result)
    pct = ["N/A" if v is None else f"{100 * v:.2f}" for _, _, v in values]
    width = max(len(p) for p in [*pct, "%"])
    out = text_table(
        ["metric", "score", "%".rjust(width)],
        [[name, v, p.rjust(width)] for (name, _, v), p in zip(values, pct, strict=True)],
    )
    out += (
        f"\n{s.tokens} tokens in {s.sentences} sentences; skipped {s.skipped} (not a tree); "
        f"excluded {s.excluded} (longer than --max-len)\nsignature: {s.signature}\n"
    )
    if per_sentence:
        rows: list[list[Cell]] = [
            [sid, c.tokens, c.uas, c.las, c.label, c.undirected, c.ned, "skipped" if c.skipped else ""]
            for sid, c in result.per_sentence
        ]
        headers = ["sent_id", "tokens", "uas", "las", "label", "undir", "ned", "note"]
        out += "\n" + text_table(headers, rows)
    return out
