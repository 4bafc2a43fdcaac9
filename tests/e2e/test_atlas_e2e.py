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


COP = "pattern { X -[cop]-> Y }"


def _api_cop() -> tuple[object, object]:
    """The request's rate and the spaCy UD parser's UAS against its own gold, from evalcore's API on
    the same built-in files (not from the page)."""
    import evalcore
    from evalcore.atlas import AtlasConfig, build_atlas, with_golds_as_parses
    from evalcore.construction_scores import Coverage, construction_report
    from evalcore.experiment import NamedTrees, Scheme
    from evalcore.families.tedeval import TedevalSettings, ted_config
    from evalcore.patterns import where
    from evalcore.ranking import OWN_GOLD, RankingConfig
    from evalcore.resampling_settings import BootstrapSettings

    def named(name: str, path: object) -> NamedTrees:
        return NamedTrees(name, tuple(evalcore.read(str(path))))

    parses = FR / "parses"
    schemes = (
        Scheme(
            "UD",
            named("UD gold", FR_UD),
            (
                named("spaCy UD parser", FR_SPACY_UD),
                named("spaCy UD parser, seed 1", parses / "fr_gsd-test.spacy-ud-seed1.conllu.gz"),
            ),
        ),
        Scheme(
            "SUD",
            named("SUD gold", FR / "fr_gsd-sud-test.r2.16.conllu.gz"),
            (named("spaCy SUD parser", parses / "fr_gsd-test.spacy-sud.conllu.gz"),),
        ),
    )
    config = AtlasConfig(ted_config(TedevalSettings(skip_mismatched=True), ["UD", "SUD"]), True, True)
    _, result = build_atlas(schemes, config)
    report = construction_report(
        with_golds_as_parses(schemes),
        result,
        config,
        Coverage(request=where(COP)),
        RankingConfig(),
        parses=["spaCy UD parser", "spaCy UD parser, seed 1", "spaCy SUD parser"],
        bootstrap=BootstrapSettings(200),
        tests=False,
    )
    return report.rates[0], report.of("pattern").cell(OWN_GOLD, "UAS", "spaCy UD parser")  # type: ignore[union-attr]


@pytest.mark.timeout(600)
def test_a_pasted_request_scores_then_one_click_opens_the_inspector_highlighted(
    app_url: str, browser: object
) -> None:
    """Home, the Atlas by the sidebar, paste `pattern { X -[cop]-> Y }`: its rate and the parsers'
    scores are evalcore's; one click on its first sentence opens the inspector in this tab at that
    sentence with the construction's words boxed and its operations marked."""
    from test_journey_e2e import MIN_TEXT_PX, SMALL_TEXT_JS

    from evalcore.report.constructions import score_text

    rate, uas = _api_cop()
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    try:
        page = ctx.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{app_url}/?data=fr_gsd")
        page.locator("svg.dep-tree").first.wait_for(timeout=TIMEOUT_MS)
        wait_settled(page)
        page.locator("[data-testid=stSidebarNav] a", has_text="Atlas").first.click()
        page.wait_for_url(re.compile(r"/Atlas"), timeout=TIMEOUT_MS)
        page.wait_for_selector(".js-plotly-plot svg.main-svg g.trace", timeout=TIMEOUT_MS)
        wait_settled(page, "Constructions from")
        page.get_by_text("a request (paste it)", exact=True).click()
        wait_settled(page, "A request in Grew")
        box = page.get_by_label(re.compile(r"A request in Grew"))
        box.fill(COP)
        box.press("Enter")
        wait_settled(page, "covers a word of a gold")
        # the rate: words in UD, in SUD, in either, agreed on, share -- evalcore's numbers
        words = f"{rate.words_a}", f"{rate.words}", f"{rate.agree}", f"{100 * rate.share:.1f}"  # type: ignore[attr-defined]
        rates_row = page.locator("table.wb-table tr", has_text="UD / SUD").first.inner_text()
        assert all(w in rates_row for w in words), (rates_row, words)
        scores_row = page.locator("table.wb-table tr", has_text="own gold").first.inner_text()  # UAS first
        assert score_text(uas) in scores_row, (scores_row, score_text(uas))  # type: ignore[arg-type]
        assert page.locator("[data-testid=stException]").count() == 0
        small = page.evaluate(SMALL_TEXT_JS, MIN_TEXT_PX)
        assert not small, small[:12]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "e2e_atlas_units.png"), full_page=True)
        links = page.locator("[data-testid=stPageLink] a")
        first = next(
            links.nth(i)
            for i in range(links.count())
            if "unit=request" in (links.nth(i).get_attribute("href") or "")
        )
        sid = first.inner_text().strip().split(" · ")[0]
        assert sid
        first.click()
        page.wait_for_url(re.compile(r"sent="), timeout=TIMEOUT_MS)
        assert len(ctx.pages) == 1  # this tab, no new one
        assert f"sent={sid}" in page.url and "unit=request%3Apattern" in page.url
        page.wait_for_function("() => document.title.includes('sentence inspector')", timeout=TIMEOUT_MS)
        said = page.get_by_text(re.compile(r"operations of this script are owned by the construction"))
        sync_api.expect(said).to_be_visible(timeout=TIMEOUT_MS)
        assert not re.search(r"◆ 0 of", said.inner_text())
        assert sid in page.locator("body").inner_text()
        assert page.locator("svg g.word.highlighted").count() >= 2  # X and Y in the UD gold at least
        assert page.locator("svg g.node.highlighted").count() >= 1  # an operation it owns
        wait_settled(page)
        small = page.evaluate(SMALL_TEXT_JS, MIN_TEXT_PX)
        assert not small, small[:12]
        page.screenshot(path=str(ARTIFACTS / "e2e_atlas_units_inspector.png"))
        assert page.locator("[data-testid=stException]").count() == 0
    finally:
        ctx.close()
