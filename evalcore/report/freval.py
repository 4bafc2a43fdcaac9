"""Writers of FREVAL (``evalcore freval``; docs/freval.md, "FREVAL"): per-size table as text (with the paper's
Table 1 size limits), JSON and CSV."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalcore.display import Table, rows_of
from evalcore.metrics.freval import TABLE1_LIMITS, FrevalResult, limit_name
from evalcore.report.tables import Cell, csv_text, json_text, pick, text_table

if TYPE_CHECKING:  # with --bootstrap only (kept out of start-up)
    from evalcore.families.freval_resampled import FrevalPaired
    from evalcore.resampling import Intervals

__all__ = ["freval_csv", "freval_json", "freval_output", "freval_table", "freval_text"]


def _resampled(result: FrevalResult) -> tuple[Intervals | None, FrevalPaired | None]:
    """The bootstrap's intervals and the comparison with a second parse the result carries, if any."""
    from evalcore.families.freval_resampled import FrevalResampled

    return (result.intervals, result.paired) if isinstance(result, FrevalResampled) else (None, None)


def _signature(result: FrevalResult, intervals: Intervals | None) -> str:
    s = result.score.signature
    return s if intervals is None else intervals.settings.sign(s)


def _bounds(intervals: Intervals | None, name: str) -> dict[str, float]:
    if intervals is None:
        return {}
    iv = intervals.get(name)
    return {f"{name.rsplit('_', 1)[0]}_low": iv.low, f"{name.rsplit('_', 1)[0]}_high": iv.high}


def _empty(result: FrevalResult) -> tuple[int | str, int, int] | None:
    """The sizes up to the limit that no tree of either file has, as one row: its label (``35``,
    or ``35-1000000`` for several), first and last size.  Every count of those sizes is 0, and
    so is every resample's (so are the bounds of their intervals): a size limit past the largest
    tree costs one row, not a row per size."""
    empty = result.score.empty_sizes
    if empty is None:
        return None
    first, last = empty
    return (first if first == last else f"{first}-{last}", first, last)


_HEADERS = ("size", "matched", "gold", "test", "recall", "precision", "f1")
_ZERO_BOUNDS = {f"{m}_{b}": 0.0 for m in ("recall", "precision", "f1") for b in ("low", "high")}


def freval_json(result: FrevalResult) -> dict[str, object]:
    """The JSON document: counts and scores per fragment size, FLR / FLP / F1, signature; with
    ``intervals``, ``recall_low``, ``recall_high``, ... per size and ``flr_low``, ... overall.
    Sizes past the largest tree are one entry, with ``last_size`` when there are several."""
    intervals, p = _resampled(result)
    if p is not None:
        from evalcore.report.resampling import paired_json

        return paired_json(p.comparison, *p.names, p.signature)
    s = result.score
    per_size: list[dict[str, object]] = [
        pick(r, *_HEADERS)
        | _bounds(intervals, f"recall_{r.size}")
        | _bounds(intervals, f"precision_{r.size}")
        | _bounds(intervals, f"f1_{r.size}")
        for r in s.per_size
    ]
    empty = _empty(result)
    if empty is not None:
        _, first, last = empty
        span: dict[str, object] = {"size": first} if first == last else {"size": first, "last_size": last}
        zeros = {"matched": 0, "gold": 0, "test": 0, "recall": 0.0, "precision": 0.0, "f1": 0.0}
        per_size.append(span | zeros | (_ZERO_BOUNDS if intervals is not None else {}))
    out: dict[str, object] = (
        {"signature": _signature(result, intervals)}
        | pick(s, "sentences", "valid", "errors", "skipped")
        | {"per_size": per_size}
        | pick(s, "flr", "flp", "f1")
    )
    if intervals is not None:
        from evalcore.report.resampling import intervals_json

        out["bootstrap"] = intervals_json(intervals)["bootstrap"]
        for name in ("flr", "flp", "f1"):
            iv = intervals.get(name)
            out[f"{name}_low"], out[f"{name}_high"] = iv.low, iv.high
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def _ci(intervals: Intervals | None, name: str) -> str:
    if intervals is None:
        return ""
    from evalcore.report.resampling import interval_text

    return f" {interval_text(intervals.get(name))}"


def freval_text(result: FrevalResult) -> str:
    """Per-size table in percent, the mixed scores, the sentence counts, and (all sizes scored)
    the scores at the size limits of the paper's Table 1; then the signature.  With ``intervals``,
    F1_s's interval per size and FLR / FLP / F1's."""
    intervals = _resampled(result)[0]
    s = result.score
    rows: list[list[Cell]] = [
        [r.size, r.matched, r.gold, r.test, _pct(r.recall), _pct(r.precision), _pct(r.f1)] for r in s.per_size
    ]
    headers = ["size", "matched", "gold", "test", "LR_s %", "LP_s %", "F1_s %"]
    if intervals is not None:
        from evalcore.report.resampling import interval_text, level_header

        headers.append(f"F1_s {level_header(intervals.settings)}")
        for row, r in zip(rows, s.per_size, strict=True):
            row.append(interval_text(intervals.get(f"f1_{r.size}")))
    empty = _empty(result)
    if empty is not None:
        rows.append([empty[0], 0, 0, 0, _pct(0.0), _pct(0.0), _pct(0.0)])
        if intervals is not None:
            rows[-1].append(f"[{_pct(0.0)}, {_pct(0.0)}]")
    out = [text_table(headers, rows, numeric_columns=(0,))]
    weights = "uniform" if result.config.alpha is None else "given"
    out.append(
        f"\nFLR {_pct(s.flr)}{_ci(intervals, 'flr')}  FLP {_pct(s.flp)}{_ci(intervals, 'flp')}  "
        f"F1 {_pct(s.f1)}{_ci(intervals, 'f1')}  ({weights} alpha over sizes 1-{s.limit})\n"
        f"{s.sentences} sentences: {s.valid} valid, {s.errors} errors, {s.skipped} skipped "
        "(error and skip sentences are excluded, as evalb does)\n"
    )
    if intervals is not None:
        st = intervals.settings
        out.append(
            f"intervals: bootstrap percentile, {st.samples} resamples of the {s.valid} valid sentences, "
            f"seed {st.seed}\n"
        )
    if result.config.max_size is None:
        t1 = []
        for limit in TABLE1_LIMITS:
            sc = result.rescore(limit)
            t1.append([limit_name(limit), _pct(sc.flr), _pct(sc.flp), _pct(sc.f1)])
        out.append("\nsize limits as in the paper's Table 1 (uniform alpha):\n")
        out.append(text_table(["sizes", "FLR %", "FLP %", "F1 %"], t1))
    out.append(f"signature: {_signature(result, intervals)}\n")
    return "".join(out)


def _size_rows(result: FrevalResult) -> list[list[Cell]]:
    s = result.score
    rows: list[list[Cell]] = [
        [r.size, r.matched, r.gold, r.test, r.recall, r.precision, r.f1] for r in s.per_size
    ]
    empty = _empty(result)
    if empty is not None:
        rows.append([empty[0], 0, 0, 0, 0.0, 0.0, 0.0])
    rows.append(["all", None, None, None, s.flr, s.flp, s.f1])
    return rows


def freval_table(result: FrevalResult) -> Table:
    """One row per fragment size (fractions), then ``all`` with FLR / FLP / F1 (as the CSV)."""
    return Table(_HEADERS, rows_of(_size_rows(result)), result.score.signature)


def freval_csv(result: FrevalResult) -> str:
    """One line per fragment size (fractions), then ``all`` with FLR / FLP / F1; with
    ``intervals``, ``low``/``high`` columns of recall, precision and F1."""
    intervals = _resampled(result)[0]
    s = result.score
    rows = _size_rows(result)
    headers = list(_HEADERS)
    if intervals is not None:
        headers += [f"{m}_{b}" for m in ("recall", "precision", "f1") for b in ("low", "high")]
        names = [(f"recall_{r.size}", f"precision_{r.size}", f"f1_{r.size}") for r in s.per_size]
        names.append(("flr", "flp", "f1"))
        sized, empty_row, total = rows[: len(s.per_size)], rows[len(s.per_size) : -1], rows[-1:]
        for row, triple in zip(sized + total, names, strict=True):
            for name in triple:
                row += [intervals.get(name).low, intervals.get(name).high]
        for row in empty_row:  # sizes no tree has: 0 in every resample
            row += [0.0] * 6
    return csv_text(headers, rows)


def freval_output(fmt: str, result: FrevalResult) -> str:
    """``evalcore freval``'s report in ``fmt`` (``json``, ``csv``, else text); two parses: both
    parses' scores and their paired test (F1 per size, then FLR / FLP / F1 in the text)."""
    p = _resampled(result)[1]
    if p is None:
        if fmt == "json":
            return json_text(freval_json(result))
        return freval_csv(result) if fmt == "csv" else freval_text(result)
    from evalcore.report.resampling import paired_output

    names = p.comparison.names
    labels = [n.replace("recall_", "LR_").replace("precision_", "LP_").replace("f1_", "F1_") for n in names]
    labels[-3:] = ["FLR", "FLP", "F1"]  # text: F1 per size, then the mixed scores
    shown = [i for i, n in enumerate(names) if n.startswith("f1_")] + list(
        range(len(labels) - 3, len(labels))
    )
    return paired_output(fmt, p.comparison, *p.names, labels, p.signature, shown)
