"""End to end, a parse of raw text on the cross-scheme page and in the inspector (docs/app.md, "A parse of
raw text on the cross-scheme page and in the inspector"), in Debian's headless chromium against the real
server, the way a user goes: the home page first, the cross-scheme page by the sidebar, "Your files
(upload)", the two golds and the parse of docs/rawtext.md's moved sentence boundary (the SUD gold
first: the parse is SUD's and is scored against the first gold), the row of scores shown, then one
click on a sentence of the row (same tab) opens the inspector at it, where the block's edit script
marks its operations from segmentation apart (✂, teal, the origin column): as many as docs/rawtext.md's
"from segmentation" column says; then the sentence list's operation filters on the block's
script, and the parse chosen against the other gold (its block against that gold alone), checked
at 1400x1000 and 1024x768.  The trees, the table of counts and the scores are read from
docs/rawtext.md.  On every page reached: no exception, no control whose text is cut and no text of a
drawing under 9 px (tests/e2e/test_journey_e2e.py).  Every wait is on a condition, never a sleep.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from appserver import CHROMIUM, ROOT, wait_settled
from test_inspector_e2e import choose
from test_journey_e2e import _settled as journey_checks
from test_rawtext import CASES, ROWS  # the doc's cases, read as tests/test_rawtext.py reads them

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(420),  # a server start, three uploads and two pages on a loaded machine
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")

ARTIFACTS = ROOT / "tests" / "artifacts"
TIMEOUT_MS = 180_000

# the markdown table of the cross-scheme page: {against|metric: cell text}
TABLE_JS = """
() => {
  const out = {};
  const tables = document.querySelectorAll('[data-testid=stMain] [data-testid=stMarkdownContainer] table');
  for (const table of tables) {
    let against = '';
    for (const tr of table.querySelectorAll('tbody tr')) {
      const cells = [...tr.querySelectorAll('td')].map(td => td.innerText.trim());
      against = cells[0] || against;
      out[`${against}|${cells[1]}`] = cells[2];
    }
  }
  return out;
}
"""
# the edit script's table (HTML, in the drawing host): each row's status and origin
SCRIPT_JS = """
() => {
  for (const table of document.querySelectorAll('[data-testid=stMain] table.wb-table')) {
    const heads = [...table.querySelectorAll('th')].map(th => th.innerText.trim());
    const origin = heads.indexOf('origin'), status = heads.indexOf('status');
    if (origin < 0) continue;
    return [...table.querySelectorAll('tbody tr')].map(tr => {
      const td = tr.querySelectorAll('td');
      return [td[status].innerText.trim(), td[origin].innerText.trim()];
    });
  }
  return null;
}
"""


def settled(page: object, text: str = "") -> None:
    """``text`` shown and the run over; no exception, no control cut, no drawing text under 9 px (the
    journey's checks)."""
    wait_settled(page, text, timeout_ms=TIMEOUT_MS)
    journey_checks(page)


def upload(page: object, label: str, paths: list[Path]) -> None:
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text=label).first  # type: ignore[attr-defined]
    box.locator('input[type="file"]').set_input_files([str(p) for p in paths])


def doc_files(folder: Path) -> tuple[Path, Path, Path]:
    """docs/rawtext.md's moved boundary as files: the SUD gold (the parse's own), the UD gold, the parse."""
    (ud, sud, parse), own = CASES["moved"]
    assert own == "sud"
    out = []
    for name, text in (("sud.conllu", sud), ("ud.conllu", ud), ("moved-parse.conllu", parse)):
        (folder / name).write_text(text + "\n", encoding="utf-8")
        out.append(folder / name)
    return out[0], out[1], out[2]


def test_a_parse_of_raw_text_from_the_cross_scheme_page_to_its_blocks_script(
    app_url: str, page: object, tmp_path: Path
) -> None:
    sud, ud, parse = doc_files(tmp_path)
    counts = {t: (ops, d, n, seg) for c, t, ops, d, n, seg in ROWS if c == "moved"}
    page.goto(app_url)  # type: ignore[attr-defined]  # home first: the sentence inspector
    page.wait_for_selector("svg.dep-tree", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    settled(page)
    page.locator("[data-testid=stSidebarNav] a", has_text="Cross scheme").first.click()  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/Cross_scheme"), timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Cross-scheme TedEval").wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    settled(page)
    page.get_by_role("combobox", name="Dataset", exact=True).click()  # type: ignore[attr-defined]
    page.get_by_role("option", name="Your files (upload)", exact=True).click()  # type: ignore[attr-defined]
    settled(page, "Upload a gold file")
    upload(page, "Gold file(s)", [sud, ud])
    settled(page, "Loaded: sud.conllu (gold), ud.conllu (gold)")
    upload(page, "Parse file(s)", [parse])
    settled(page, "a parse of the raw text")

    # the row of scores: docs/rawtext.md's δ over the normalizer, unlabeled, against each target
    table = page.evaluate(TABLE_JS)  # type: ignore[attr-defined]
    for target, label in (("sud", "sud.conllu gold"), ("ud", "ud.conllu gold")):
        _, delta, norm, _ = counts[target]
        assert table[f"{label}|U-TED"].strip("*? ") == f"{1 - delta / norm:.4f}", (target, table)
    _, delta, norm, _ = counts["ud+sud"]
    general = "sud.conllu+ud.conllu (generalized gold)|U-TED"
    assert table[general].strip("*? ") == f"{1 - delta / norm:.4f}", table
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "e2e_rawtext_cross_scheme.png"))  # type: ignore[attr-defined]

    # one click on a sentence of the row: the inspector, in this tab, at that sentence
    link = page.locator("[data-testid=stMain] [data-testid=stPageLink]", has_text="moved-1")  # type: ignore[attr-defined]
    link.first.locator("a:visible").first.click()
    page.wait_for_url(re.compile(r"sent=moved-1"), timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Sentence inspector").wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    settled(page, "The block of this sentence")
    # the doc's counts are unlabeled: the sidebar's switch
    page.locator("[data-testid=stSidebar] label").filter(has_text="Labeled edit script").first.click()  # type: ignore[attr-defined]
    settled(page, "U-TED of the block")
    ops, delta, norm, seg = counts["ud+sud"]
    body = page.locator("body").inner_text()  # type: ignore[attr-defined]
    assert f"{ops} operations: {delta} counted, {ops - delta} discounted, {seg} from segmentation (✂)" in body
    rows = page.evaluate(SCRIPT_JS)  # type: ignore[attr-defined]
    assert rows is not None and len(rows) == ops, rows
    assert sum(origin.startswith("✂ segmentation") for _, origin in rows) == seg
    assert sum(origin == "attachment" for _, origin in rows) == ops - seg
    marked = page.locator("[data-testid=stMain] svg g.node.segmentation")  # type: ignore[attr-defined]
    assert marked.count() == seg  # drawn teal with ✂, apart from the attachment's
    assert page.locator("[data-testid=stMain] svg g.node.discounted").count() == ops - delta  # type: ignore[attr-defined]
    marked.first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "e2e_rawtext_block_script.png"))  # type: ignore[attr-defined]

    # the sentence list's operation filters read the block's script: the moved block's discounted
    # deletion keeps both of its gold sentences (docs/rawtext.md; against UD+SUD, unlabeled)
    page.get_by_text("Filters", exact=True).click()  # type: ignore[attr-defined]
    choose(page, f"Operation of {parse.name}", "discounted")
    settled(page, "Sentence (2 of 2)")
    choose(page, "Kind of operation", "insertion")  # no insertion is discounted
    settled(page, "0 of 2 sentences match (the filters)")
    choose(page, "Kind of operation", "any kind")
    settled(page, "Sentence (2 of 2)")
    # and the parse against the other gold, as any parse: its block against the UD gold alone
    choose(page, "Parse (edit script)", f"{parse.name}, against {ud.name}")
    page.locator("[data-testid=stSidebar] label").filter(has_text=re.compile("^single gold$")).first.click()  # type: ignore[attr-defined]
    settled(page, f"U-TED of the block against gold {ud.name}")
    ops, delta, norm, seg = counts["ud"]
    body = page.locator("body").inner_text()  # type: ignore[attr-defined]
    assert f"{ops} operations: {delta} counted, 0 discounted, {seg} from segmentation (✂)" in body
    assert f"δ = {delta} · |p| + |G| = {norm}" in body
    for width, height in ((1400, 1000), (1024, 768)):  # no control cut, no text under 9 px
        page.set_viewport_size({"width": width, "height": height})  # type: ignore[attr-defined]
        settled(page)
