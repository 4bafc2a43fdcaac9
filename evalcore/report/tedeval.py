"""Writers of the cross-scheme TedEval experiment (``evalcore tedeval``; docs/tedeval.md, "Definitions"): the
papers' table as text and LaTeX, the JSON document, and the long CSV."""

from __future__ import annotations

from collections.abc import Callable

from evalcore.display import Table, rows_of
from evalcore.experiment import ExperimentConfig, ExperimentResult, Row, cell_name
from evalcore.report.resampling import bootstrap_json, interval_text, level_header
from evalcore.report.tables import Cell, csv_text, latex_escape, pick, text_table
from evalcore.resampling import Intervals, with_settings

__all__ = [
    "cell_name",
    "latex_table",
    "result_csv",
    "result_json",
    "result_table",
    "result_text",
    "table_rows",
]


def _signature(result: ExperimentResult, intervals: Intervals | None) -> str:
    if intervals is None:
        return result.signature
    return with_settings(result.signature, intervals.settings.items()[:2])  # the seed is the test's


def _fmt_cell(row: Row, parse: str, best: str = "{}*", unsure: str = "?") -> str:
    """A cell's score (4 decimals) marked as ``best`` in its row (a format of the text) and ``unsure``
    where it is not significantly different from the best."""
    cell = row.cell(parse)
    if cell is None:
        return ""
    text = f"{cell.score:.4f}"
    if parse in row.best and len(row.cells) > 1:
        text = best.format(text)
    if row.not_significant_with_best(parse):
        text += unsure
    return text


def _rows(result: ExperimentResult, cell_text: Callable[[Row, str], str]) -> list[list[str]]:
    """Rows (against, metric; ``against`` once per group), one column per parse."""
    rows: list[list[str]] = []
    last = None
    for row in result.rows:
        label = row.against if row.against != last else ""
        last = row.against
        rows.append([label, row.metric, *(cell_text(row, p) for p, _ in result.parses)])
    return rows


def table_rows(result: ExperimentResult) -> tuple[list[str], list[list[str]]]:
    """The papers' Table 1 layout: rows (against, metric), one column per parse."""
    headers = ["against", "metric", *(f"{p} ({s})" for p, s in result.parses)]
    return headers, _rows(result, _fmt_cell)


def result_text(
    result: ExperimentResult, config: ExperimentConfig, intervals: Intervals | None = None
) -> str:
    """The table, what its marks mean (with the test's settings), the counts and the signature;
    with ``intervals``, the same table of each cell's bootstrap interval (percent) after it."""
    headers, rows = table_rows(result)
    out = text_table(headers, rows) + (
        f"\n* best in row; ? not significantly different from the best (p >= {config.alpha}, "
        f"{config.method}, {config.shuffles} trials)\n"
        f"{result.sentences} sentences; skipped {result.skipped_mismatched} (words differ), "
        f"{result.skipped_invalid} (not a tree)\n"
    )
    if intervals is not None:
        st = intervals.settings

        def ci(row: Row, p: str) -> str:
            return (
                interval_text(intervals.get(cell_name(row.against, row.metric, p)))
                if row.cell(p) is not None
                else ""
            )

        out += (
            f"\n{level_header(st)} (bootstrap percentile, {st.samples} resamples of the {result.sentences} "
            f"sentences, seed {st.seed}; percent):\n" + text_table(headers, _rows(result, ci))
        )
    return out + f"signature: {_signature(result, intervals)}\n"


def latex_table(result: ExperimentResult) -> str:
    """LaTeX tabular: best per row in bold, ``?`` where not significantly different from the best."""
    cols = "ll" + "r" * len(result.parses)
    out = [
        f"\\begin{{tabular}}{{{cols}}}",
        "\\hline",
        " & ".join(["Gold", "Metric", *(latex_escape(p) for p, _ in result.parses)]) + r" \\",
        "\\hline",
    ]
    for label, *cells in _rows(result, lambda row, p: _fmt_cell(row, p, "\\textbf{{{}}}", "$^?$")):
        out.append(" & ".join([latex_escape(label), *cells]) + r" \\")
    out += ["\\hline", "\\end{tabular}", f"% {result.signature}"]
    return "\n".join(out) + "\n"


CSV_HEADERS = ("parse", "scheme", "against", "metric", "score", "best")


def result_table(result: ExperimentResult) -> Table:
    """One row per (parse, against, metric), as the CSV (``best``: a best score of its row)."""
    return Table(CSV_HEADERS, rows_of(_csv_rows(result, None)), result.signature)


def result_csv(result: ExperimentResult, intervals: Intervals | None = None) -> str:
    """One line per (parse, against, metric), in the order of the rows and their cells; with
    ``intervals``, two more columns ``low,high``."""
    rows = _csv_rows(result, intervals)
    return csv_text((*CSV_HEADERS, *(("low", "high") if intervals is not None else ())), rows)


def _csv_rows(result: ExperimentResult, intervals: Intervals | None) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    for row in result.rows:
        for cell in row.cells:
            line: list[Cell] = [
                cell.parse,
                cell.scheme,
                row.against,
                row.metric,
                cell.score,
                cell.parse in row.best,
            ]
            if intervals is not None:
                iv = intervals.get(cell_name(row.against, row.metric, cell.parse))
                line += [iv.low, iv.high]
            rows.append(line)
    return rows


def result_json(
    result: ExperimentResult, per_sentence: bool = False, intervals: Intervals | None = None
) -> dict[str, object]:
    """The JSON document: every cell with its significance against the row's other parses (and,
    with ``intervals``, its ``low``/``high``), and (``per_sentence``) every sentence's scores and
    edit scripts."""
    intervals = result.intervals if intervals is None else intervals
    rows = []
    for row in result.rows:
        for cell in row.cells:
            vs = {}
            for t in row.tests:
                if cell.parse in (t.a, t.b):
                    other = t.b if t.a == cell.parse else t.a
                    vs[other] = {"p_value": t.p_value, "significant": t.significant}
            entry = pick(cell, "parse", "scheme") | pick(row, "against", "metric") | {"score": cell.score}
            if intervals is not None:
                iv = intervals.get(cell_name(row.against, row.metric, cell.parse))
                entry |= {"low": iv.low, "high": iv.high}
            rows.append(entry | {"best": cell.parse in row.best, "significant_vs": vs})
    out: dict[str, object] = (
        {"signature": _signature(result, intervals)}
        | pick(result, "sentences", "skipped_mismatched", "skipped_invalid")
        | {"parses": [{"parse": p, "scheme": s} for p, s in result.parses], "rows": rows}
    )
    if intervals is not None:
        out["bootstrap"] = bootstrap_json(intervals.settings)
    if per_sentence:
        out["per_sentence"] = [
            pick(d, "parse", "against", "labeled", "sent_id", "index")
            | pick(d.ted, "score", "delta", "norm")
            | {
                "path": "words",
                "counted": [str(op) for op in d.ted.counted],
                "discounted": [str(op) for op in d.ted.discounted],
            }
            for d in result.details
        ] + [
            pick(r, "parse", "against", "labeled")
            | {
                "gold_sentences": list(r.gold),
                "parse_sentences": list(r.sentences),
                "score": 1.0 - r.delta / r.norm if r.norm else 1.0,
            }
            | pick(r, "delta", "norm", "path", "segmentation")
            for r in result.raw_blocks
        ]
    return out
