"""workbench.charts: FREVAL's curves as plain SVG (no chart library in the browser)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from workbench.charts import Line, line_chart, nice_ticks
from workbench.widgets import md_code

SVG = "{http://www.w3.org/2000/svg}"


def test_nice_ticks_cover_the_range_in_round_steps() -> None:
    assert nice_ticks(0, 100, 6) == (0, 20, 40, 60, 80, 100)
    assert nice_ticks(1, 34, 8) == (0, 5, 10, 15, 20, 25, 30, 35)
    assert nice_ticks(-2.5, 0.4, 6) == (-3, -2, -1, 0, 1)  # step 0.58 rounds up to 1
    assert nice_ticks(3, 3) == (2, 2.5, 3, 3.5, 4)  # one value: a range around it
    assert nice_ticks(float("nan"), 1) == (0.0, 1.0)


def test_line_chart_escapes_names_and_draws_every_point() -> None:
    hostile = "<img src=x onerror=alert(1)><b>bold</b>.tst"
    chart = line_chart(
        [
            Line("a & b", ((1, 90.0), (2, 80.0), (3, 70.0)), ("one", "two", "three")),
            Line(hostile, ((1, 85.0), (2, float("nan")), (3, 60.0))),
        ],
        title="F1 <by> size",
        x_title="size",
        y_title="F1",
        zero_line=True,
    )
    root = ET.fromstring(chart.svg)  # well-formed XML: every data string escaped
    assert root.find(f"{SVG}img") is None and "<b>" not in chart.svg
    lines = root.findall(f".//{SVG}g[@class='line']")
    assert [g.get("data-name") for g in lines] == ["a & b", hostile]
    tips = [t.text for t in lines[0].iter(f"{SVG}title")]
    assert tips == ["one", "two", "three"]
    assert len(list(lines[1].iter(f"{SVG}title"))) == 2  # the NaN point is left out
    legend = [t.text for t in root.iter(f"{SVG}text") if t.text and "bold" in t.text]
    assert legend == [hostile]
    assert root.get("viewBox") == f"0 0 {chart.width:.0f} {chart.height:.0f}"


def test_md_code_shows_a_name_literally() -> None:
    """A file name in a code span: no backslashes shown ("en\\_ewt" was md_escape inside backticks)."""
    assert md_code("en_ewt-ud-test.r2.16.conllu") == "`en_ewt-ud-test.r2.16.conllu`"
    assert md_code("a`b") == "``a`b``"  # a longer fence than any run of backticks inside
    assert md_code("`x`") == "`` `x` ``"
    assert "\n" not in md_code("two\nlines")
