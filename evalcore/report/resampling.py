"""Writers of bootstrap intervals and of two systems' paired tests (``--bootstrap``, ``GOLD A B``).

Shared by the commands that print them (``attach``, ``freval``, ``tedeval``): intervals next to
the scores in text (``[low, high]`` in percent), ``low``/``high`` fields in JSON and CSV; the
paired table gives both systems' scores, the difference B − A and the approximate-randomization
p-value ``(r + 1) / (N + 1)`` (docs/tedeval.md, "The numbers in the table"), marked ``n.s.`` at p ≥ 0.05 as
the papers mark it.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.report.tables import Cell, csv_text, json_text, text_table
from evalcore.resampling import BootstrapSettings, Intervals, PairedComparison
from evalcore.significance import Interval

__all__ = [
    "bootstrap_json",
    "interval_text",
    "intervals_json",
    "level_header",
    "paired_csv",
    "paired_json",
    "paired_output",
    "paired_text",
]


def interval_text(iv: Interval | None) -> str:
    """``[low, high]`` in percent, two decimals (empty without an interval)."""
    if iv is None:
        return ""
    return f"[{100 * iv.low:.2f}, {100 * iv.high:.2f}]"


def level_header(settings: BootstrapSettings) -> str:
    """``95% CI`` for level 0.95."""
    return f"{100 * settings.level:g}% CI"


def bootstrap_json(settings: BootstrapSettings) -> dict[str, object]:
    return {"samples": settings.samples, "level": settings.level, "seed": settings.seed}


def intervals_json(ivs: Intervals) -> dict[str, object]:
    """``{"bootstrap": settings, "intervals": {metric: {"low", "high"}}}``."""
    return {
        "bootstrap": bootstrap_json(ivs.settings),
        "intervals": {
            n: {"low": iv.low, "high": iv.high} for n, iv in zip(ivs.names, ivs.values, strict=True)
        },
    }


def paired_text(
    cmp: PairedComparison,
    name_a: str,
    name_b: str,
    labels: Sequence[str],
    signature: str,
    only: Sequence[int] | None = None,
) -> str:
    """One row per metric (``labels`` are the displayed names of ``cmp.names``; ``only`` the indices
    of the metrics shown, default all): A, B in percent, B − A in points, the p-value; with
    intervals, each system's."""
    ia, ib = cmp.intervals_a, cmp.intervals_b
    headers = [
        "metric",
        f"{name_a} %",
        *([level_header(ia.settings)] if ia is not None else []),
        f"{name_b} %",
        *([level_header(ia.settings)] if ia is not None else []),
        "B-A",
        "p",
        "",
    ]
    rows: list[list[Cell]] = []
    for i in range(len(cmp.names)) if only is None else only:
        label, t = labels[i], cmp.tests[i]
        rows.append(
            [
                label,
                100 * cmp.a[i],
                *([interval_text(ia.values[i])] if ia is not None else []),
                100 * cmp.b[i],
                *([interval_text(ib.values[i])] if ib is not None else []),
                100 * (cmp.b[i] - cmp.a[i]),
                f"{t.p_value:.4f}",
                "" if t.significant else "n.s.",
            ]
        )
    s = cmp.settings
    return (
        text_table(headers, rows, digits=2)
        + f"\nA = {name_a}, B = {name_b}; p: approximate randomization, {s.shuffles} shuffles, seed "
        f"{s.seed}, p = (r+1)/(N+1); n.s. = not significant at 0.05\nsignature: {signature}\n"
    )


def paired_json(cmp: PairedComparison, name_a: str, name_b: str, signature: str) -> dict[str, object]:
    """Both systems' values, the difference and the test per metric; intervals if any."""
    metrics = []
    for i, name in enumerate(cmp.names):
        t = cmp.tests[i]
        row: dict[str, object] = {
            "metric": name,
            "a": cmp.a[i],
            "b": cmp.b[i],
            "difference": cmp.b[i] - cmp.a[i],
            "p_value": t.p_value,
            "significant": t.significant,
        }
        for side, ivs in (("a", cmp.intervals_a), ("b", cmp.intervals_b)):
            if ivs is not None:
                row[f"{side}_low"], row[f"{side}_high"] = ivs.values[i].low, ivs.values[i].high
        metrics.append(row)
    out: dict[str, object] = {
        "a": name_a,
        "b": name_b,
        "test": {"method": "ar", "shuffles": cmp.settings.shuffles, "seed": cmp.settings.seed},
    }
    if cmp.intervals_a is not None:
        out["bootstrap"] = bootstrap_json(cmp.intervals_a.settings)
    out |= {"metrics": metrics, "signature": signature}
    return out


def paired_csv(cmp: PairedComparison) -> str:
    """``metric,a,b,difference,p_value`` (and ``a_low,a_high,b_low,b_high`` with intervals)."""
    ia, ib = cmp.intervals_a, cmp.intervals_b
    headers = ["metric", "a", "b", "difference", "p_value"]
    if ia is not None:
        headers += ["a_low", "a_high", "b_low", "b_high"]
    rows: list[list[Cell]] = []
    for i, name in enumerate(cmp.names):
        row: list[Cell] = [name, cmp.a[i], cmp.b[i], cmp.b[i] - cmp.a[i], cmp.tests[i].p_value]
        if ia is not None and ib is not None:
            row += [ia.values[i].low, ia.values[i].high, ib.values[i].low, ib.values[i].high]
        rows.append(row)
    return csv_text(headers, rows)


def paired_output(
    fmt: str,
    cmp: PairedComparison,
    name_a: str,
    name_b: str,
    labels: Sequence[str],
    signature: str,
    only: Sequence[int] | None = None,
) -> str:
    """The two-system report in ``fmt`` (``json``, ``csv``, else text; see :func:`paired_text`)."""
    if fmt == "json":
        return json_text(paired_json(cmp, name_a, name_b, signature))
    if fmt == "csv":
        return paired_csv(cmp)
    return paired_text(cmp, name_a, name_b, labels, signature, only)
