"""End to end, the sentence inspector at 1400×1000 and 1024×768: a link copied
after choosing protocol 2011, the single-gold target and a non-default parse reopens in a fresh
browser context with identical numbers; the gold-vs-gold order and the filters report their counts.

Expected numbers: the edit-script summary computed here with evalcore's ``inspect_sentence``
(independent of the page code); the sentence counts from the CoNLL-U files read here line by line.
Every wait is on a condition (the script finished, nothing stale, a text shown), never a sleep.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import pytest
from appserver import CHROMIUM, ROOT, wait_settled, wait_started

from evalcore.conversion import ConversionConfig
from evalcore.formats.conllu import read_conllu
from evalcore.inspection import inspect_sentence

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(300),  # a server start and two sessions; minutes on a loaded 2-core machine
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")

TIMEOUT_MS = 90_000
FR = ROOT / "assets" / "fr_gsd"
FR_UD = FR / "fr_gsd-ud-test.r2.16.conllu.gz"
FR_SUD = FR / "fr_gsd-sud-test.r2.16.conllu.gz"
FR_SPACY_SUD = FR / "parses" / "fr_gsd-test.spacy-sud.conllu.gz"
VIEWPORTS = [(1400, 1000), (1024, 768)]


def settled(page: object, text: str = "") -> None:
    wait_settled(page, text, timeout_ms=TIMEOUT_MS)


def started(page: object, text: str) -> None:
    wait_started(page, text, TIMEOUT_MS)


@pytest.fixture(params=VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def context(browser: object, request: pytest.FixtureRequest) -> Iterator[tuple[object, dict[str, int]]]:
    width, height = request.param
    viewport = {"width": width, "height": height}
    ctx = browser.new_context(viewport=viewport)  # type: ignore[attr-defined]
    try:
        yield ctx, viewport
    finally:
        ctx.close()


def choose(page: object, label: str, option: str, tries: int = 3) -> None:
    """Open the selectbox labelled ``label`` and pick ``option``.  A rerun that lands between the
    click and the pick (a busy machine: the box drawn again, its list closed) is met by opening it
    again, up to ``tries`` times; the option must then be there."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    for attempt in range(tries):
        box = page.get_by_role("combobox", name=label, exact=True)  # type: ignore[attr-defined]
        box.scroll_into_view_if_needed()
        box.click()
        box.fill(option)  # long lists only render what is in view: narrow them down
        item = page.get_by_role("option", name=option, exact=True)  # type: ignore[attr-defined]
        try:
            item.wait_for(timeout=10_000)
        except PlaywrightTimeoutError:
            if attempt + 1 == tries:
                raise
            page.keyboard.press("Escape")  # type: ignore[attr-defined]
            continue
        item.click()
        return


def radio(page: object, label: str) -> None:
    option = page.locator("[data-testid=stRadioOption]").filter(has_text=re.compile(f"^{re.escape(label)}$"))  # type: ignore[attr-defined]
    option.click()


def summary(page: object) -> str:
    """The edit-script line: ``L-TED of … = **x**``."""
    line = page.locator("[data-testid=stMarkdownContainer] p").filter(has_text="-TED of ").first  # type: ignore[attr-defined]
    return str(line.inner_text())


def query(page: object) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)  # type: ignore[attr-defined]


def test_copied_link_reopens_with_identical_numbers(
    app_url: str, context: tuple[object, dict[str, int]], browser: object
) -> None:
    ctx, viewport = context
    page = ctx.new_page()  # type: ignore[attr-defined]
    page.goto(f"{app_url}/?data=fr_gsd&sent=fr-ud-test_00030")
    settled(page, "fr-ud-test_00030 —")
    radio(page, "2011")
    settled(page, "TedEval (2011)")
    radio(page, "single gold")
    started(page, "(SINGLE, no discount)")
    settled(page, "(SINGLE, no discount)")
    choose(page, "Parse (edit script)", "spaCy SUD parser")
    started(page, "turning spaCy SUD parser")
    settled(page, "turning spaCy SUD parser")
    q = query(page)
    assert q["protocol"] == ["2011"] and q["target"] == ["single"] and q["parse"] == ["spaCy SUD parser"]
    before = summary(page)
    # the number, computed here: labeled, 2011, against the SUD parse's single gold
    ud, sud, parse = (list(read_conllu(f))[29] for f in (FR_UD, FR_SUD, FR_SPACY_SUD))
    ted = (
        inspect_sentence([("UD", ud), ("SUD", sud)], [("p", "SUD", parse)], ConversionConfig(protocol="2011"))
        .parses[0]
        .single[1]
    )
    assert before.startswith("L-TED of spaCy SUD parser against gold SUD")
    assert before.endswith(f"score 1 − {ted.delta}/{ted.norm} = {ted.score:.4f}"), before
    link = page.url
    # a fresh browser context (nothing of this session), the same link
    other = browser.new_context(viewport=viewport)  # type: ignore[attr-defined]
    try:
        again = other.new_page()
        again.goto(link)
        settled(again, "turning spaCy SUD parser")
        assert summary(again) == before
        assert again.locator("[data-testid=stException]").count() == 0
        assert query(again) == q
    finally:
        other.close()


# ---------------------------------------------------------------------------
# gold-vs-gold order and filters, counted here from the files


def _sentences(path: object) -> list[tuple[str, list[tuple[str, str]]]]:
    """``(sent_id, [(form, deprel), ...])`` per sentence, read line by line (no evalcore)."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    sid, words = "", []
    with gzip.open(path, "rt", encoding="utf-8") as f:  # type: ignore[arg-type]
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# sent_id = "):
                sid = line.split("= ", 1)[1]
            elif line and not line.startswith("#"):
                cols = line.split("\t")
                if cols[0].isdigit():
                    words.append((cols[1], cols[7]))
            elif not line and words:
                out.append((sid, words))
                sid, words = "", []
    if words:
        out.append((sid, words))
    return out


def _gold_gap_first(min_words: int) -> str:
    """The sentence of at least ``min_words`` words whose UD gold, read as a parse of the SUD gold,
    has the lowest L-TED (SINGLE: against the SUD gold alone, every disagreement counted)."""
    from evalcore.conversion import to_span_tree
    from evalcore.metrics.tedeval import sentence_ted

    scores = []
    for k, (ud, sud) in enumerate(zip(read_conllu(FR_UD), read_conllu(FR_SUD), strict=True)):
        if len(ud.tokens) < min_words:
            continue
        try:
            g = to_span_tree(sud)
            scores.append((sentence_ted(to_span_tree(ud), g, g).score, k, ud.sent_id))
        except Exception:  # words that differ: no TedEval, ordered last
            continue
    return min(scores)[2]


def test_gold_vs_gold_order_and_its_count(app_url: str, context: tuple[object, dict[str, int]]) -> None:
    ctx, _ = context
    page = ctx.new_page()  # type: ignore[attr-defined]
    page.goto(f"{app_url}/?data=fr_gsd&sent=fr-ud-test_00001")
    settled(page, "fr-ud-test_00001 —")
    choose(page, "Order", "largest gold-vs-gold discrepancy first (UD gold vs SUD gold, L-TED)")
    started(page, "sentences match")
    settled(page, "sentences match")
    ud = _sentences(FR_UD)
    long_enough = sum(len(w) >= 4 for _, w in ud)
    assert long_enough < len(ud) == 416  # the default hides some short sentences
    page.get_by_text(f"{long_enough:,} of 416 sentences match (at least 4 words)").wait_for(
        timeout=TIMEOUT_MS
    )
    first = _gold_gap_first(4)
    settled(page, f"{first} —")
    assert query(page)["order"] == ["gold-gap"] and query(page)["sent"] == [first]
    assert page.locator("[data-testid=stException]").count() == 0


def test_filters_combined_report_their_count(app_url: str, context: tuple[object, dict[str, int]]) -> None:
    ctx, _ = context
    page = ctx.new_page()  # type: ignore[attr-defined]
    page.goto(f"{app_url}/?data=fr_gsd&sent=fr-ud-test_00001")
    settled(page, "fr-ud-test_00001 —")
    page.get_by_text("Filters", exact=True).click()
    choose(page, "Relation label in the trees", "iobj")
    started(page, "sentences match")
    settled(page, "sentences match")
    # iobj or a subtype of it, in any of the dataset's trees (golds and its three parses of the gold
    # words, not the raw-text ones beside them), counted from the files
    files = [FR_UD, FR_SUD, *sorted((FR / "parses").glob("fr_gsd-test.spacy-*.conllu.gz"))]
    per_file = [_sentences(f) for f in files]
    with_iobj = {
        k
        for sents in per_file
        for k, (_, w) in enumerate(sents)
        if any(d.split(":")[0] == "iobj" for _, d in w)
    }
    assert 0 < len(with_iobj) < 416
    page.get_by_text(f"{len(with_iobj):,} of 416 sentences match (the filters)").wait_for(timeout=TIMEOUT_MS)
    # and a search on the id, combined: the sentences 100-199
    box = page.get_by_label("Find (id, number or words)")
    box.fill("test_001")
    box.press("Enter")
    started(page, "“test\\_001”")
    both = sorted(k for k in with_iobj if 99 <= k <= 198)
    page.get_by_text(f"{len(both):,} of 416 sentences match (the filters, “test_001”)").wait_for(
        timeout=TIMEOUT_MS
    )
    settled(page)
    q = query(page)
    assert q["label"] == ["iobj"] and q["find"] == ["test_001"]
    assert page.locator("[data-testid=stException]").count() == 0


def test_drawings_download_as_svg_and_dot(app_url: str, browser: object) -> None:
    """The links under a drawing (made in the browser, workbench/svghost.py) give the drawing as a
    standalone SVG and its DOT text; the words are those of the gold file read here."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)  # type: ignore[attr-defined]
    try:
        page = ctx.new_page()
        page.goto(f"{app_url}/?data=fr_gsd&sent=fr-ud-test_00005")
        settled(page, "fr-ud-test_00005 —")
        forms = list(list(read_conllu(FR_UD))[4].forms)
        links = page.locator("div.wb-downloads a.wb-download")
        svg_link = links.filter(has_text=re.compile(r"^UD gold SVG$")).first
        with page.expect_download(timeout=TIMEOUT_MS) as got:
            svg_link.click()
        download = got.value
        assert download.suggested_filename == "fr-ud-test_00005_UD_gold.svg"
        svg = open(download.path(), encoding="utf-8").read()  # noqa: SIM115 - Playwright's temp file
        assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
        assert 'class="dep-tree"' in svg and "style=" not in svg.split(">", 1)[0]
        for form in forms:
            assert f">{form.replace('&', '&amp;')}<" in svg, form
        dot_link = page.locator("div.wb-downloads a.wb-download").filter(has_text=re.compile(r"^DOT$")).first
        with page.expect_download(timeout=TIMEOUT_MS) as got:
            dot_link.click()
        assert got.value.suggested_filename.endswith(".dot")
        dot = open(got.value.path(), encoding="utf-8").read()  # noqa: SIM115
        assert dot.lstrip().startswith(("digraph", "graph"))
    finally:
        ctx.close()


def test_each_operation_says_why_in_the_table_and_on_hover(app_url: str, browser: object) -> None:
    """Item 7 in a real browser: the edit-script table has the reasons' columns (discounted rows name
    the operation of the parse's own gold that excuses them, counted ones the golds they contradict),
    and every marked node of the function trees carries the same reasons as its hover text."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    try:
        page = ctx.new_page()
        page.goto(f"{app_url}/?data=fr_gsd&sent=fr-ud-test_00030")
        settled(page, "fr-ud-test_00030 —")
        table = page.locator("table.wb-table").filter(has_text="excused by").first
        table.scroll_into_view_if_needed()
        headers = [str(h) for h in table.locator("th").all_inner_texts()]
        assert headers[-3:] == ["construction", "excused by", "contradicts"], headers
        col = {h: k for k, h in enumerate(headers)}
        rows = [[str(c) for c in r.locator("td").all_inner_texts()] for r in table.locator("tbody tr").all()]
        assert rows and {r[col["status"]] for r in rows} == {"counted", "discounted"}
        for r in rows:
            if r[col["status"]] == "discounted":
                assert r[col["excused by"]].startswith("gold UD's own script: " + r[col["operation"]]), r
            else:
                assert r[col["excused by"]] == "" and r[col["contradicts"]].startswith("gold "), r
        titles = page.evaluate(
            "() => [...document.querySelectorAll('svg a')].map(a => a.getAttribute('xlink:title') || '')"
        )
        reasons = [t for t in titles if "contradicts: " in t]
        drawn = page.locator("svg g.node.counted, svg g.node.discounted").count()
        assert len(reasons) == drawn > 0, (len(reasons), drawn)
        assert any("excused by: gold UD's own script: " in t for t in reasons)
    finally:
        ctx.close()
