"""End to end: ``streamlit run app.py`` on a free local port, driven in headless Chromium.

Uses Debian's chromium (``/usr/bin/chromium``) through Playwright; never
downloads a browser.  Skipped, with the reason shown, only when that binary is
missing.  Screenshots go to ``tests/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import re

import pytest
from appserver import CHROMIUM, ROOT, wait_settled

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")

ARTIFACTS = ROOT / "tests" / "artifacts"
TIMEOUT_MS = 60_000


def assert_no_exception(page: object) -> None:
    assert page.locator("[data-testid=stException]").count() == 0  # type: ignore[attr-defined]


def test_deep_link_draws_red_arcs_for_wrong_heads(app_url: str, page: object) -> None:
    page.goto(f"{app_url}/?data=fr_gsd&sent=fr-ud-test_00005")  # type: ignore[attr-defined]
    page.wait_for_selector("svg.dep-tree", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    wrong = page.locator("svg.dep-tree g.arc-wrong-head")  # type: ignore[attr-defined]
    wrong.first.wait_for(timeout=TIMEOUT_MS)
    assert wrong.count() > 0
    stroke = wrong.first.locator("path").first.evaluate("e => getComputedStyle(e).stroke")
    assert stroke == "rgb(214, 39, 40)"  # #d62728
    dash = wrong.first.locator("path").first.evaluate("e => getComputedStyle(e).strokeDasharray")
    assert dash not in ("", "none")
    # gold drawings have no wrong arcs; the parse has some of each kind
    assert page.locator("svg.dep-tree g.arc-wrong-label").count() > 0  # type: ignore[attr-defined]
    assert "fr-ud-test_00005" in page.locator("body").inner_text()  # type: ignore[attr-defined]
    assert_no_exception(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "e2e_inspector_fr_gsd.png"))  # type: ignore[attr-defined]


def test_next_button_updates_the_link(app_url: str, page: object) -> None:
    page.goto(f"{app_url}/?data=fr_gsd&sent=fr-ud-test_00005")  # type: ignore[attr-defined]
    page.wait_for_selector("svg.dep-tree", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.get_by_role("button", name="▶").click()  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"sent=fr-ud-test_00006"), timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.get_by_text("fr-ud-test_00006 —").wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    assert_no_exception(page)


def test_rtl_sentence(app_url: str, page: object) -> None:
    page.goto(f"{app_url}/?data=hebrew_yap")  # type: ignore[attr-defined]
    svg = page.locator('svg.dep-tree[data-rtl="yes"]')  # type: ignore[attr-defined]
    svg.wait_for(timeout=TIMEOUT_MS)
    # word 1 is drawn to the right of word 2
    x1 = svg.locator('g.word[data-id="1"] text.form').bounding_box()
    x2 = svg.locator('g.word[data-id="2"] text.form').bounding_box()
    assert x1 is not None and x2 is not None and x1["x"] > x2["x"]
    assert_no_exception(page)
    page.screenshot(path=str(ARTIFACTS / "e2e_inspector_hebrew.png"))  # type: ignore[attr-defined]


def test_ned_page(app_url: str, page: object) -> None:
    page.goto(f"{app_url}/NED?data=fr_gsd&sent=fr-ud-test_00005")  # type: ignore[attr-defined]
    page.get_by_text("0.5164").first.wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.wait_for_selector("svg.dep-tree text.note", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    notes = page.locator("svg.dep-tree text.note").all_text_contents()  # type: ignore[attr-defined]
    assert any(n.startswith("NED ✓ grandp") for n in notes)
    # the attachment page's breakdown chart (plotly) and the scorer's table, each
    # in its tab (made when chosen: the first render)
    page.get_by_role("heading", name="Attachment & NED").wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    assert page.locator("[data-testid=stPlotlyChart]").count() == 0  # type: ignore[attr-defined]
    page.get_by_role("tab", name="Breakdown and confusion").click()  # type: ignore[attr-defined]
    page.locator("[data-testid=stPlotlyChart] g.trace.bars").first.wait_for(
        state="attached", timeout=TIMEOUT_MS
    )  # type: ignore[attr-defined]
    page.get_by_role("tab", name="CoNLL 2018 table").click()  # type: ignore[attr-defined]
    page.get_by_text("CoNLL 2018 shared task").first.wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    assert "section=conll18" in page.url  # type: ignore[attr-defined]
    assert_no_exception(page)
    page.screenshot(path=str(ARTIFACTS / "e2e_ned_fr_gsd.png"), full_page=True)  # type: ignore[attr-defined]


def test_attachment_page_link(app_url: str, page: object) -> None:
    """A link with the breakdown's choices (the page's own settings in its URL) reopens
    them: grouped by direction, the sentences of the group "right" listed, the chart drawn; a click
    on a bar lists that group's sentences (root: the default, so ``group=`` leaves the URL)."""
    page.goto(f"{app_url}/NED?data=fr_gsd&by=direction&group=right")  # type: ignore[attr-defined]
    page.get_by_text("whose gold or system direction is right").wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    charts = page.locator("[data-testid=stPlotlyChart]")  # type: ignore[attr-defined]
    breakdown = charts.filter(has=page.locator("g.legend"))  # type: ignore[attr-defined]
    bars = breakdown.locator("g.trace.bars g.point path")
    bars.first.wait_for(state="attached", timeout=TIMEOUT_MS)
    assert bars.count() == 6  # UAS and LAS for root, left, right
    # a click on a bar chooses its group: the first bar is UAS of "root"
    bars.first.scroll_into_view_if_needed()
    box = bars.first.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # type: ignore[attr-defined]
    page.get_by_text("whose gold or system direction is root").wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.wait_for_function("() => !new URL(location.href).searchParams.has('group')", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    assert_no_exception(page)


# ---------------------------------------------------------------------------
# FREVAL and lattice pages; hostile labels

FIXTURES = ROOT / "tests" / "fixtures"
HOSTILE_FORM = "<script>alert(1)</script>"
HOSTILE_LABEL = '"]; a -> b [label="x'


def test_freval_page_draws_its_charts(app_url: str, page: object) -> None:
    page.goto(f"{app_url}/?data=fr_gsd&sent=fr-ud-test_00005")  # type: ignore[attr-defined]
    page.wait_for_selector("svg.dep-tree g.arc-wrong-head", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    # switch pages through the sidebar navigation, as a user does
    page.get_by_role("link", name="FREVAL").click()  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/FREVAL"), timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.get_by_role("combobox").first.wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    # the dataset choice is shared: French-GSD is not a constituency dataset, so FREVAL falls back to evalb
    # the curves are SVG written by workbench/charts.py (no chart library to download)
    plot = page.locator("svg.wb-chart").first  # type: ignore[attr-defined]
    plot.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_selector("svg.wb-chart g.line path", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    # both charts, each with at least two curves: wait until they are drawn, then assert
    sync_api.expect(page.locator("svg.wb-chart")).to_have_count(2, timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    sync_api.expect(page.locator("svg.wb-chart").first.locator("g.line").nth(1)).to_be_attached(  # type: ignore[attr-defined]
        timeout=TIMEOUT_MS
    )
    page.get_by_text("87.76").first.wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    assert "data=evalb" in page.url  # type: ignore[attr-defined]
    assert_no_exception(page)
    plot.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "e2e_freval_evalb.png"))  # type: ignore[attr-defined]


def test_lattice_page_draws_the_lattice_right_to_left(app_url: str, page: object) -> None:
    page.goto(f"{app_url}/Lattice?data=hebrew_yap")  # type: ignore[attr-defined]
    svg = page.locator('div.wb-figure svg[data-rtl="yes"]').first  # type: ignore[attr-defined]
    svg.wait_for(timeout=TIMEOUT_MS)
    assert svg.locator("g.edge.pred").count() == 7  # yap's path: 7 morphemes
    assert svg.locator("g.edge.gold").count() == 0  # no gold ships with this sentence
    # state 0 (the start of the sentence) is drawn to the right of state 9 (its end)
    x_of = (
        "(svg, name) => [...svg.querySelectorAll('g.node')]"
        ".find(g => g.querySelector('title').textContent === name).getBoundingClientRect().x"
    )
    assert svg.evaluate(x_of, "s0") > svg.evaluate(x_of, "s9")
    labels = " ".join(svg.locator("g.edge text").all_text_contents())
    assert "גידל/VB" in labels
    assert_no_exception(page)
    page.screenshot(path=str(ARTIFACTS / "e2e_lattice_hebrew_yap.png"))  # type: ignore[attr-defined]


def _record_dialogs(page: object) -> list[str]:
    seen: list[str] = []

    def on_dialog(dialog: object) -> None:
        seen.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    page.on("dialog", on_dialog)  # type: ignore[attr-defined]
    return seen


def _upload(page: object, label: str, path: object) -> None:
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text=label).first  # type: ignore[attr-defined]
    box.locator('input[type="file"]').set_input_files(str(path))


def test_hostile_labels_are_shown_literally(app_url: str, page: object) -> None:
    dialogs = _record_dialogs(page)
    page.goto(f"{app_url}/?data=upload")  # type: ignore[attr-defined]
    _upload(page, "Gold file(s)", FIXTURES / "hostile.conllu")
    svg = page.locator("svg.dep-tree").first  # type: ignore[attr-defined]
    svg.wait_for(timeout=TIMEOUT_MS)
    texts = svg.locator("text").all_text_contents()
    assert HOSTILE_FORM in texts
    assert HOSTILE_LABEL in texts
    # the lattice page draws the same file with Graphviz (union lattice and function tree)
    page.get_by_role("link", name="Lattice").click()  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/Lattice"), timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    _upload(page, "Predicted file(s)", FIXTURES / "hostile.conllu")
    drawn = page.locator("div.wb-figure svg").first  # type: ignore[attr-defined]
    drawn.wait_for(timeout=TIMEOUT_MS)
    # the page reruns after the upload and draws the lattice before the function tree:
    # wait until both drawings of the new file are there, not a fixed time
    page.wait_for_function(  # type: ignore[attr-defined]
        "([sel, needles]) => { const t = Array.from(document.querySelectorAll(sel))"
        ".map(e => e.textContent).join(' '); return needles.every(n => t.includes(n)); }",
        arg=["div.wb-figure svg text", [f"{HOSTILE_FORM}/X", HOSTILE_LABEL]],
        timeout=TIMEOUT_MS,
    )
    all_text = " ".join(page.locator("div.wb-figure svg text").all_text_contents())  # type: ignore[attr-defined]
    assert f"{HOSTILE_FORM}/X" in all_text
    assert HOSTILE_LABEL in all_text
    # nothing ran: no dialog, no script element inside any drawing
    assert page.evaluate("document.querySelectorAll('svg script, .wb-figure script').length") == 0  # type: ignore[attr-defined]
    assert dialogs == []
    assert_no_exception(page)
    page.screenshot(path=str(ARTIFACTS / "e2e_hostile_lattice.png"))  # type: ignore[attr-defined]


def test_hostile_file_name_in_chart_legend(app_url: str, page: object) -> None:
    dialogs = _record_dialogs(page)
    page.goto(f"{app_url}/FREVAL?data=upload")  # type: ignore[attr-defined]
    sample = ROOT / "assets" / "evalb" / "sample"
    _upload(page, "Gold trees", sample / "sample.gld")
    # the gold upload is taken when its file name is listed in the uploader (not after a fixed time)
    page.locator('[data-testid="stFileUploader"]').filter(has_text="Gold trees").first.get_by_text(  # type: ignore[attr-defined]
        "sample.gld"
    ).wait_for(timeout=TIMEOUT_MS)
    wait_settled(page, "Loaded: sample.gld", timeout_ms=TIMEOUT_MS)  # and read by the server's run
    name = "<img src=x onerror=alert(1)><b>bold</b>.tst"
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text="Parser output(s)").first  # type: ignore[attr-defined]
    box.locator('input[type="file"]').set_input_files(
        {"name": name, "mimeType": "text/plain", "buffer": (sample / "sample.tst").read_bytes()}
    )
    page.wait_for_selector("svg.wb-chart g.legend text", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "([sel, needle]) => Array.from(document.querySelectorAll(sel)).some(e => e.textContent === needle)",
        arg=["svg.wb-chart g.legend text", name],
        timeout=TIMEOUT_MS,
    )
    legend = page.locator("svg.wb-chart").first.locator("g.legend text").all_text_contents()  # type: ignore[attr-defined]
    assert name in legend, legend
    assert page.locator("svg.wb-chart img, svg.wb-chart b, div.wb-figure img").count() == 0  # type: ignore[attr-defined]
    assert dialogs == []
    assert_no_exception(page)
