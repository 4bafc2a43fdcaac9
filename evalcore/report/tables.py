"""The shared writers: aligned text tables, CSV, JSON, LaTeX escaping.

CSV is opened in spreadsheets, where a cell starting with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return is a formula (CSV injection): every text
cell that starts so is written with a leading ``'`` (:func:`csv_cell`; the
app's downloads use it too).  Numbers are written as numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "FORMULA_STARTS",
    "LATEX_ESCAPES",
    "Cell",
    "csv_cell",
    "csv_text",
    "json_text",
    "latex_escape",
    "pick",
    "text_table",
]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP, CSV injection)."""


def csv_cell(value: object) -> object:
    """A text cell that a spreadsheet would run as a formula gets a leading ``'``; others as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


Cell = str | int | float | None
"""A table cell: text, a number, or ``None`` (N/A in text, empty in CSV)."""


def _fmt(cell: Cell, digits: int) -> str:
    if cell is None:
        return "N/A"
    if isinstance(cell, float):
        return f"{cell:.{digits}f}"
    return str(cell)


def text_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    digits: int = 4,
    numeric_columns: Sequence[int] = (),
) -> str:
    """An aligned table: text columns left-aligned, numbers (and ``numeric_columns``, e.g. a
    column of numbers and ranges) right-aligned."""
    cells = [[_fmt(c, digits) for c in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))
    numeric = [
        i in numeric_columns or all(isinstance(r[i], int | float) or r[i] is None for r in rows)
        for i in range(len(headers))
    ]

    def line(values: Sequence[str]) -> str:
        out = (v.rjust(widths[i]) if numeric[i] else v.ljust(widths[i]) for i, v in enumerate(values))
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(list(headers)), rule, *(line(r) for r in cells)]) + "\n"


def csv_text(headers: Sequence[str], rows: Sequence[Sequence[Cell]]) -> str:
    """CSV with formula cells neutralized (:func:`csv_cell`); ``None`` is an empty cell."""
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([csv_cell(h) for h in headers])
    for row in rows:
        writer.writerow(["" if c is None else csv_cell(c) for c in row])
    return buf.getvalue()


def pick(obj: object, *names: str) -> dict[str, object]:
    """``{name: obj.name}`` for each of ``names``, in that order: a JSON object of a value's fields."""
    return {name: getattr(obj, name) for name in names}


def json_text(obj: object) -> str:
    """Indented JSON, non-ASCII kept as it is, with a final newline."""
    import json  # the JSON writers only (kept out of start-up)

    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


LATEX_ESCAPES = str.maketrans(
    {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\%",
        "_": r"\_",
        "#": r"\#",
        "$": r"\$",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
    }
)
"""LaTeX's special characters, replaced in one pass (a backslash is ``\textbackslash{}``, whose
braces are not escaped again)."""


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (:data:`LATEX_ESCAPES`)."""
    return text.translate(LATEX_ESCAPES)
