"""The reason for each operation on screen (docs/tedeval.md, "Why an operation is counted or
discounted"): the Tour's first step shows, for each parse the doc works by hand, the reasons the
doc's table gives (the expected texts are read from the doc, not from evalcore); the hover text of
the drawn nodes and the CSV say the same."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pandas as pd
import pytest
from app_view import _hosts, drawings, status_table
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "tedeval.md"
MARKER = "<!-- reasons-worked-example -->"
REASON_COLUMNS = ["operation", "status", "construction", "excused by", "contradicts"]


def worked_example() -> pd.DataFrame:
    """The table under the doc's marker, cells stripped (an empty cell is '')."""
    lines = DOC.read_text(encoding="utf-8").split(MARKER, 1)[1].strip().splitlines()
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    header, body = rows[0], rows[2:]
    return pd.DataFrame(body, columns=header)


EXAMPLE = worked_example()


def tour_on_sunday(parse: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/5_Tour.py").run()
    assert at.radio(key="tour_step").value == "on_sunday"
    if at.radio(key="tour_on_sunday_parse").value != parse:
        at.radio(key="tour_on_sunday_parse").set_value(parse).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_doc_works_two_parses_by_hand() -> None:
    assert list(EXAMPLE.columns) == ["parse", *REASON_COLUMNS]
    assert set(EXAMPLE["parse"]) == {"sunday", "arrive"}
    assert len(EXAMPLE) == 5


@pytest.mark.parametrize("parse", ["sunday", "arrive"])
def test_the_tour_shows_the_hand_worked_reasons(parse: str) -> None:
    at = tour_on_sunday(parse)
    shown = status_table(at)[REASON_COLUMNS].fillna("")
    expected = EXAMPLE[EXAMPLE["parse"] == parse][REASON_COLUMNS].reset_index(drop=True)
    assert shown.astype(str).values.tolist() == expected.values.tolist()


def test_hover_text_on_the_drawn_nodes_gives_the_same_reasons() -> None:
    at = tour_on_sunday("arrive")
    html = "\n".join(drawings(at))
    titles = [
        t.replace("&#10;", "\n").replace("&#39;", "'") for t in re.findall(r'xlink:title="([^"]*)"', html)
    ]
    expected = EXAMPLE[EXAMPLE["parse"] == "arrive"]
    for _, row in expected.iterrows():
        lines = [f"{row['operation']} ({row['status']})", f"construction: {row['construction']}"]
        if row["excused by"]:
            lines.append(f"excused by: {row['excused by']}")
        lines.append(f"contradicts: {row['contradicts']}")
        assert any(t == "\n".join(lines) for t in titles), (lines, titles)


def test_the_csv_carries_sentence_parse_target_protocol_and_uncut_words() -> None:
    at = tour_on_sunday("arrive")
    files = [f for h in _hosts(at) for f in h["files"]]  # type: ignore[attr-defined]
    script = next(f for f in files if str(f["name"]).endswith("_script.csv"))
    rows = list(csv.DictReader(io.StringIO(str(script["text"]))))
    assert [r["operation"] for r in rows] == list(EXAMPLE[EXAMPLE["parse"] == "arrive"]["operation"])
    first = rows[0]
    assert (first["parse"], first["target"], first["protocol"], first["measure"]) == (
        "parse",
        "generalized gold A+B",
        "2012",
        "labeled",
    )
    assert first["sentence"] and first["words"] == "{2,3} on Sunday"
    assert first["excused by"] == "" and rows[2]["excused by"].startswith("gold A's own script")
    json.dumps(rows)  # plain strings throughout
