"""Writers of FREVAL (``evalcore freval``; SPEC §7): per-size table as text (with the paper's
Table 1 size limits), JSON and CSV."""

from __future__ import annotations

from evalcore.metrics.freval import TABLE1_LIMITS, FrevalResult, limit_name
from evalcore.report.tables import Cell, csv_text, text_table

__all__ = ["freval_csv", "freval_json", "freval_text"]


def freval_json(result: FrevalResult) -> dict[str, object]:
    """The JSON document: counts and scores per fragment size, FLR / FLP / F1, signature."""
    s = result.score
    return {
        "signature": s.signature,
        "sentences": s.sentences,
        "valid": s.valid,
        "errors": s.errors,
        "skipped": s.skipped,
        "per_size": [
            {
                "size": r.size,
                "matched": r.matched,
                "gold": r.gold,
                "test": r.test,
                "recall": r.recall,
                "precision": r.precision,
                "f1": r.f1,
            }
            for r in s.per_size
        ],
        "flr": s.flr,
        "flp": s.flp,
        "f1": s.f1,
    }


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def freval_text(result: FrevalResult) -> str:
    """Per-size table in percent, the mixed scores, the sentence counts, and (all sizes scored)
    the scores at the size limits of the paper's Table 1; then the signature."""
    s = result.score
    rows: list[list[Cell]] = [
        [r.size, r.matched, r.gold, r.test, _pct(r.recall), _pct(r.precision), _pct(r.f1)] for r in s.per_size
    ]
    out = [text_table(["size", "matched", "gold", "test", "LR_s %", "LP_s %", "F1_s %"], rows)]
    weights = "uniform" if result.config.alpha is None else "given"
    out.append(
        f"\nFLR {_pct(s.flr)}  FLP {_pct(s.flp)}  F1 {_pct(s.f1)}  ({weights} alpha over sizes 1-{s.limit})\n"
        f"{s.sentences} sentences: {s.valid} valid, {s.errors} errors, {s.skipped} skipped "
        "(error and skip sentences are excluded, as evalb does)\n"
    )
    if result.config.max_size is None:
        t1 = []
        for limit in TABLE1_LIMITS:
            sc = result.rescore(limit)
            t1.append([limit_name(limit), _pct(sc.flr), _pct(sc.flp), _pct(sc.f1)])
        out.append("\nsize limits as in the paper's Table 1 (uniform alpha):\n")
        out.append(text_table(["sizes", "FLR %", "FLP %", "F1 %"], t1))
    out.append(f"signature: {s.signature}\n")
    return "".join(out)


def freval_csv(result: FrevalResult) -> str:
    """One line per fragment size (fractions), then ``all`` with FLR / FLP / F1."""
    s = result.score
    rows: list[list[Cell]] = [
        [r.size, r.matched, r.gold, r.test, r.recall, r.precision, r.f1] for r in s.per_size
    ]
    rows.append(["all", None, None, None, s.flr, s.flp, s.f1])
    return csv_text(["size", "matched", "gold", "test", "recall", "precision", "f1"], rows)
