"""What an AppTest run shows: its Markdown and its drawings (the SVG host of
:mod:`workbench.svghost`, which AppTest lists as an element it does not model)."""

from __future__ import annotations

import contextlib
import json
from html.parser import HTMLParser

import pandas as pd
from streamlit.testing.v1 import AppTest

from workbench.svghost import COMPONENT_NAME


def _hosts(at: AppTest) -> list[dict[str, object]]:
    out = []
    for el in at.get("bidi_component"):
        proto = el.proto  # type: ignore[attr-defined]
        if proto.component_name == COMPONENT_NAME:
            out.append(json.loads(proto.json))
    return out


def drawings(at: AppTest) -> list[str]:
    """The HTML of every drawing box on the page, in page order."""
    return [str(h["html"]) for h in _hosts(at)]


def download_names(at: AppTest) -> list[str]:
    """The file names of every download link under the drawings."""
    return [str(f["name"]) for h in _hosts(at) for f in h["files"]]  # type: ignore[attr-defined]


def page_text(at: AppTest) -> str:
    """Every Markdown element's text, then every drawing's HTML, one per line."""
    return "\n".join([m.value for m in at.markdown] + drawings(at))


class _Tables(HTMLParser):
    """The ``<table class="wb-table">`` of an HTML text: header row and body rows, cells as text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("class", "wb-table") in attrs:
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1].append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables(at: AppTest) -> list[pd.DataFrame]:
    """Every HTML table of the page (:mod:`workbench.tables`), in page order, cells as text."""
    out = []
    for html in drawings(at):
        parser = _Tables()
        parser.feed(html)
        out.extend(_numbers(pd.DataFrame(rows[1:], columns=rows[0])) for rows in parser.tables)
    return out


def _numbers(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns whose every cell is a number (or empty) as numbers, as the table had them."""
    for column in frame.columns:
        with contextlib.suppress(ValueError, TypeError):
            frame[column] = pd.to_numeric(frame[column].replace("", float("nan")))
    return frame


def table_with(at: AppTest, *columns: str) -> pd.DataFrame:
    """The first HTML table of the page that has all these columns."""
    return next(t for t in tables(at) if set(columns) <= set(t.columns))


def status_table(at: AppTest) -> pd.DataFrame:
    """The inspector's edit-script table (the one with a ``status`` column)."""
    return next(t for t in tables(at) if "status" in t.columns)


def upload(at: AppTest, key: str, name: str, data: bytes) -> None:
    """``data`` uploaded as ``name`` to the workbench's upload slot ``key``; the page runs without
    a traceback."""
    at.file_uploader(key=f"wb_slot:{key}").upload(name, data).run()
    assert not at.exception, [e.value for e in at.exception]
