"""Small tables as plain HTML in the page (a click under half a second: docs/app.md, "Speed").

``st.table`` makes a Markdown element of every cell and ``st.dataframe`` loads 1.3 MB of
JavaScript; a table of a few dozen rows needs neither: :func:`table_html` writes one escaped
``<table>``, :func:`show_table` puts it in the page through :mod:`workbench.svghost` with its CSV as
a download link under it.  Long cells wrap after commas and bars (no sideways scrolling).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping

import pandas as pd

from workbench.svghost import DownloadFile, show_html
from workbench.text import safe_stem

__all__ = ["TABLE_CSS", "csv_bytes", "show_table", "table_html"]

TABLE_CSS = (
    "<style>table.wb-table{border-collapse:collapse;width:100%;font-size:0.875rem;margin:0 0 0.5rem 0;"
    "table-layout:auto}"
    "table.wb-table th,table.wb-table td{border-bottom:1px solid rgba(49,51,63,0.12);padding:4px 6px;"
    "text-align:left;vertical-align:top;overflow-wrap:break-word;white-space:normal}"
    "table.wb-table th{font-weight:600;color:rgba(49,51,63,0.8);border-bottom-width:2px;"
    "overflow-wrap:break-word}"
    "table.wb-table td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "div.wb-table-box{overflow-y:auto}</style>"
)
"""The tables' look (close to ``st.table``'s): inside the host, which keeps the page's styles."""

CellCss = Callable[[str, object], str]
"""The inline CSS of a cell from its column's name and its value ("" for none)."""

RowCss = Callable[[pd.Series], str]
"""The inline CSS of a row from its values ("" for none)."""


def _text(value: object, fmt: str | None) -> tuple[str, bool]:
    """A cell's text and whether it is a number (right-aligned)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "", False
    if isinstance(value, bool):
        return str(value), False
    if isinstance(value, int | float):
        return (fmt.format(value) if fmt else str(value)), True
    return str(value), False


def _cell(text: str) -> str:
    """Escaped, with a line-break opportunity after each comma and bar (spans such as {5,6,...,29}
    and signatures wrap there rather than widen the table or break inside a word)."""
    return html.escape(text).replace(",", ",<wbr>").replace("|", "|<wbr>")


def _style(css: str) -> str:
    return f' style="{html.escape(css, quote=True)}"' if css else ""


def table_html(
    frame: pd.DataFrame,
    *,
    formats: Mapping[str, str] | None = None,
    cell_css: CellCss | None = None,
    row_css: RowCss | None = None,
    index: bool = False,
    height: int | None = None,
) -> str:
    """``frame`` as one escaped ``<table class="wb-table">`` (with :data:`TABLE_CSS`).

    ``formats``: a format string by column (e.g. ``{"F1 %": "{:.2f}"}``; other numbers as Python
    prints them); ``index``: the index as a first column; ``height``: at most this many px high,
    scrolling down (never sideways)."""
    formats = formats or {}
    columns = [str(c) for c in frame.columns]
    head = ([html.escape(str(frame.index.name or ""))] if index else []) + [html.escape(c) for c in columns]
    parts = [TABLE_CSS]
    box = f' style="max-height:{int(height)}px"' if height else ""
    parts.append(f'<div class="wb-table-box"{box}><table class="wb-table"><thead><tr>')
    parts.extend(f"<th>{h}</th>" for h in head)
    parts.append("</tr></thead><tbody>")
    for label, (_, row) in zip(frame.index, frame.iterrows(), strict=True):
        parts.append(f"<tr{_style(row_css(row) if row_css else '')}>")
        if index:
            parts.append(f"<th>{html.escape(str(label))}</th>")
        for column, value in zip(columns, row, strict=True):
            text, number = _text(value, formats.get(column))
            css = cell_css(column, value) if cell_css else ""
            cls = ' class="num"' if number else ""
            parts.append(f"<td{cls}{_style(css)}>{_cell(text)}</td>")
        parts.append("</tr>")
    parts.append("</tbody></table></div>")
    return "".join(parts)


def csv_bytes(df: pd.DataFrame) -> bytes:
    """The CSV of a table, text cells that a spreadsheet would run as formulas neutralized
    (a leading ``'``, as the command line's CSV: ``evalcore.report.tables.csv_cell``)."""
    from evalcore.report.tables import csv_cell

    safe = df.copy()
    safe.columns = [csv_cell(str(c)) for c in safe.columns]
    for col in safe.columns:
        if pd.api.types.is_object_dtype(safe[col]) or pd.api.types.is_string_dtype(safe[col]):
            safe[col] = safe[col].map(csv_cell)
    return safe.to_csv(index=False).encode("utf-8")


def show_table(
    frame: pd.DataFrame,
    *,
    key: str,
    stem: str | None = None,
    label: str = "CSV",
    formats: Mapping[str, str] | None = None,
    cell_css: CellCss | None = None,
    row_css: RowCss | None = None,
    index: bool = False,
    height: int | None = None,
    export: pd.DataFrame | None = None,
) -> None:
    """Show ``frame`` as an HTML table (:func:`table_html`); with ``stem``, its CSV (the frame as it
    is, or ``export`` when given, e.g. with the uncut texts; spreadsheet formulas neutralized) is
    offered under it as ``<stem>.csv``."""
    files = []
    if stem is not None:
        data = export if export is not None else frame.reset_index() if index else frame
        text = csv_bytes(data).decode("utf-8")
        files.append(DownloadFile(label, f"{safe_stem(stem)}.csv", "text/csv", text))
    body = table_html(frame, formats=formats, cell_css=cell_css, row_css=row_css, index=index, height=height)
    show_html(body, key=f"table:{key}", files=files)
