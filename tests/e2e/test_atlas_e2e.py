"""End to end: the Atlas page in headless Chromium — choose a group, click one of its sentences,
land in the inspector at that sentence with the group's operations highlighted."""

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
TIMEOUT_MS = 120_000  # the French atlas is built on the first visit


@pytest.mark.timeout(600)  # the atlas of 416 sentences is built on the first visit
def test_group_then_sentence_lands_in_the_inspector(app_url: str, browser: object) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    try:
        _group_then_sentence(app_url, ctx.new_page())
    finally:
        ctx.close()


def _group_then_sentence(app_url: str, page: object) -> None:
    page.set_default_timeout(TIMEOUT_MS)  # type: ignore[attr-defined]
    page.goto(f"{app_url}/Atlas?data=fr_gsd")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Discrepancy atlas").wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.wait_for_selector(".js-plotly-plot svg.main-svg g.trace", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "e2e_atlas_first_view.png"))  # type: ignore[attr-defined]
    # choose the group "copula" in the group selector
    group = page.get_by_role("combobox", name="Group", exact=True)  # type: ignore[attr-defined]
    group.click()
    group.fill("copula")  # the selectbox filters its options as one types
    page.get_by_role("option", name="copula", exact=True).click()  # type: ignore[attr-defined]
    sync_api.expect(page.get_by_text("operations in copula")).to_be_visible(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    # the rerun is over: no element left from the previous group
    sync_api.expect(page.locator("[data-stale=true]")).to_have_count(0, timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.screenshot(path=str(ARTIFACTS / "e2e_atlas_fr_gsd.png"), full_page=True)  # type: ignore[attr-defined]
    # click the first sentence of the group: the inspector opens at it
    link = page.locator("[data-testid=stPageLink] a").first  # type: ignore[attr-defined]
    link.wait_for(timeout=TIMEOUT_MS)
    sid = link.inner_text().strip().split(" · ")[0]  # "fr-ud-test_00123 · 2 ◆ · 9 w"
    assert sid
    link.click()
    page.wait_for_url(re.compile(r"sent="), timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    assert "sent=" + sid in page.url  # type: ignore[attr-defined]
    assert "group=construction%3Acopula" in page.url  # type: ignore[attr-defined]
    page.wait_for_selector("svg.dep-tree", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    assert sid in page.locator("body").inner_text()  # type: ignore[attr-defined]
    # the group's operations are highlighted: said, drawn (◆, yellow) on the function trees, marked
    # in the edit-script table -- at least one, since the sentence is listed under the group
    said = page.get_by_text(re.compile(r"operations of this script are in the atlas group"))  # type: ignore[attr-defined]
    sync_api.expect(said).to_be_visible(timeout=TIMEOUT_MS)
    assert not re.search(r"◆ 0 of", said.inner_text())
    lit = page.locator("svg g.node.highlighted")  # type: ignore[attr-defined]
    lit.first.wait_for(timeout=TIMEOUT_MS)
    assert lit.count() >= 1
    rows = page.locator("table.wb-table td", has_text="◆")  # type: ignore[attr-defined]
    rows.first.wait_for(timeout=TIMEOUT_MS)
    lit.first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "e2e_atlas_inspector_highlight.png"))  # type: ignore[attr-defined]
    assert page.locator("[data-testid=stException]").count() == 0  # type: ignore[attr-defined]


FR = ROOT / "assets" / "fr_gsd"
FR_UD = FR / "fr_gsd-ud-test.r2.16.conllu.gz"
FR_SPACY_UD = FR / "parses" / "fr_gsd-test.spacy-ud.conllu.gz"

EDIT_SCRIPT_TOP_JS = """() => {
  const p = [...document.querySelectorAll('[data-testid=stMain] [data-testid=stMarkdownContainer] p')]
    .find(e => e.innerText.startsWith('Edit script'));
  return p ? p.getBoundingClientRect().top : null;
}"""


def _upload(page: object, label: str, path: object) -> None:
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text=label).first  # type: ignore[attr-defined]
    box.locator('input[type="file"]').set_input_files(str(path))


@pytest.mark.timeout(600)
def test_one_click_in_the_sentence_table_opens_the_inspector_here_with_the_uploads(
    app_url: str, browser: object
) -> None:
    """Item 8 the way a user goes: home, upload a gold and a parse, the Atlas by the sidebar, one click
    on the first sentence of the group's table: the inspector opens in the same tab (no new page), at
    that sentence, the uploads still loaded, the page scrolled to the edit script with the group's
    operations highlighted."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    try:
        page = ctx.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(app_url)
        page.locator("svg.dep-tree").first.wait_for(timeout=TIMEOUT_MS)
        wait_settled(page)
        page.get_by_role("combobox", name="Dataset", exact=True).click()
        page.get_by_role("option", name="Your files (upload)", exact=True).click()
        wait_settled(page, "Gold file(s)")
        _upload(page, "Gold file(s)", FR_UD)
        wait_settled(page, f"Loaded: {FR_UD.name}")
        _upload(page, "Parse file(s)", FR_SPACY_UD)
        wait_settled(page, FR_SPACY_UD.name)
        page.locator("[data-testid=stSidebarNav] a", has_text="Atlas").first.click()
        page.wait_for_url(re.compile(r"/Atlas"), timeout=TIMEOUT_MS)
        page.wait_for_selector(".js-plotly-plot svg.main-svg g.trace", timeout=TIMEOUT_MS)
        wait_settled(page, "the best examples first")
        first = page.locator("[data-testid=stPageLink] a").first
        sid = first.inner_text().strip().split(" · ")[0]
        table = page.locator("[data-testid=stDataFrame]").nth(1)  # the groups, then the group's sentences
        table.scroll_into_view_if_needed()
        box = table.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + 60, box["y"] + 35 + 17)  # the first row's first cell (under the header)
        page.wait_for_url(re.compile(r"sent="), timeout=TIMEOUT_MS)
        assert len(ctx.pages) == 1  # this tab, no new one
        assert f"sent={sid}" in page.url and "group=construction" in page.url
        said = page.get_by_text(re.compile(r"operations of this script are in the atlas group"))
        sync_api.expect(said).to_be_visible(timeout=TIMEOUT_MS)
        assert not re.search(r"◆ 0 of", said.inner_text())
        sidebar = str(page.locator("[data-testid=stSidebar]").inner_text())
        assert FR_UD.name in sidebar and FR_SPACY_UD.name in sidebar  # the uploads stayed
        # scrolled to the edit script: its heading is in the upper part of the window
        page.wait_for_function(
            f"() => {{ const t = ({EDIT_SCRIPT_TOP_JS})(); return t !== null && t >= -5 && t < 500; }}",
            timeout=TIMEOUT_MS,
        )
        assert page.locator("[data-testid=stException]").count() == 0
    finally:
        ctx.close()
