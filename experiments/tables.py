"""Write an experiment's table as Markdown, CSV and LaTeX into docs/results/ (shared by the scripts)."""

from __future__ import annotations

from pathlib import Path

from evalcore.experiment import ExperimentResult
from evalcore.report.tables import csv_text, text_table
from evalcore.report.tedeval import latex_table, table_rows

RESULTS = Path(__file__).resolve().parent.parent / "docs" / "results"
CSV_HEADERS = ["parse", "scheme", "against", "metric", "score", "best", "not_significant_vs_best"]


def csv_rows(result: ExperimentResult) -> list[list[str | int | float | None]]:
    """The long CSV layout: one line per (parse, against, metric); scores rounded to 4 places."""
    return [
        [
            c.parse,
            c.scheme,
            r.against,
            r.metric,
            f"{c.score:.4f}",
            str(c.parse in r.best),
            str(r.not_significant_with_best(c.parse)),
        ]
        for r in result.rows
        for c in r.cells
    ]


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A Markdown table (the layout of :func:`~evalcore.report.tedeval.table_rows`)."""
    return (
        "| "
        + " | ".join(headers)
        + " |\n|"
        + "---|" * len(headers)
        + "\n"
        + "".join("| " + " | ".join(r) + " |\n" for r in rows)
    )


def write_tables(result: ExperimentResult, name: str, out: Path = RESULTS) -> None:
    out.mkdir(parents=True, exist_ok=True)
    headers, rows = table_rows(result)
    (out / f"{name}.md").write_text(
        markdown_table(headers, rows)
        + "\n`*` best in row; `?` not significantly different from the best (p ≥ 0.05). "
        f"{result.sentences} sentences; skipped {result.skipped_mismatched} (words differ), "
        f"{result.skipped_invalid} (not a tree).\n\nSignature: `{result.signature}`\n",
        encoding="utf-8",
    )
    (out / f"{name}.csv").write_text(csv_text(CSV_HEADERS, csv_rows(result)), encoding="utf-8")
    (out / f"{name}.tex").write_text(latex_table(result), encoding="utf-8")
    print(text_table(headers, rows))
