"""End to end, a parse of the raw text on the Attachment & NED page (docs/app.md, "Parses of the raw
text"), in Debian's headless chromium against the real server (127.0.0.1 only), the way a user
goes: the home page first, then the page by the sidebar, then "Your files (upload)".

The CoNLL 2018 shared task's English EWT gold and UDPipe-Future's parse of its raw text (1775
sentences for the gold's 2077) are uploaded; the page shows LAS 82.51, the official scorer's F1
(``tests/fixtures/reference/conll18/en_ewt.UDPipe-Future.verbose.txt``, read here), its breakdown
tab, and a sentence whose tokenization differs drawn aligned by characters.  Then a parse of
another text (French GSD) is uploaded: the page says why it cannot be used, and the sidebar's
"Loaded:" line does not list it.  The data is read from ``../shared/data``; the test skips, with
the reason, when it is absent.  Every wait is on a condition, never a sleep.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from appserver import CHROMIUM, ROOT, wait_settled

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(420),  # a server start, two uploads of 1 MB and the alignment on a loaded machine
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")

DATA = ROOT.parent / "shared" / "data" / "parser_outputs" / "conll2018"
EN_GOLD = DATA / "en_ewt" / "gold.en_ewt.conllu.gz"
EN_UDPIPE = DATA / "en_ewt" / "UDPipe-Future.en_ewt.conllu.gz"
FR_UDPIPE = DATA / "fr_gsd" / "UDPipe-Future.fr_gsd.conllu.gz"
SCORER = ROOT / "tests" / "fixtures" / "reference" / "conll18" / "en_ewt.UDPipe-Future.verbose.txt"
ARTIFACTS = ROOT / "tests" / "artifacts"
TIMEOUT_MS = 180_000

needs_data = pytest.mark.skipif(
    not all(p.exists() for p in (EN_GOLD, EN_UDPIPE, FR_UDPIPE)), reason=f"shared data not found at {DATA}"
)

# the metric tiles as {label: value}
METRICS_JS = """
() => Object.fromEntries([...document.querySelectorAll('[data-testid=stMetric]')].map(m => [
  m.querySelector('[data-testid=stMetricLabel]').innerText.trim(),
  m.querySelector('[data-testid=stMetricValue]').innerText.trim()]))
"""
LOADED_JS = """
() => [...document.querySelectorAll('[data-testid=stSidebar] [data-testid=stMarkdownContainer] p')]
  .map(p => p.innerText).filter(t => t.startsWith('Loaded:'))
"""


def scorer_f1(metric: str) -> str:
    """The F1 cell of ``metric`` in the official scorer's committed ``-v`` table."""
    for line in SCORER.read_text(encoding="utf-8").splitlines()[2:]:
        cells = [c.strip() for c in line.split("|")]
        if cells[0] == metric:
            return cells[3]
    raise KeyError(metric)


def settled(page: object, text: str = "") -> None:
    wait_settled(page, text, timeout_ms=TIMEOUT_MS)


def upload(page: object, label: str, path: Path) -> None:
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text=label).first  # type: ignore[attr-defined]
    box.locator('input[type="file"]').set_input_files(str(path))


def metric_shows(page: object, label: str, value: str) -> None:
    page.wait_for_function(  # type: ignore[attr-defined]
        f"([l, v]) => ({METRICS_JS})()[l] === v", arg=[label, value], timeout=TIMEOUT_MS
    )


def loaded(page: object) -> list[str]:
    return list(page.evaluate(LOADED_JS))  # type: ignore[attr-defined]


@needs_data
def test_a_parse_of_the_raw_text_on_the_attachment_page(app_url: str, page: object) -> None:
    las = scorer_f1("LAS")
    assert las == "82.51"
    page.goto(app_url)  # type: ignore[attr-defined]  # home first: the sentence inspector
    page.wait_for_selector("svg.dep-tree", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    settled(page)
    page.get_by_role("link", name="Attachment & NED").click()  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r"/NED"), timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Attachment & NED").wait_for(timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    settled(page)
    box = page.get_by_role("combobox", name="Dataset", exact=True)  # type: ignore[attr-defined]
    box.click()
    page.get_by_role("option", name="Your files (upload)", exact=True).click()  # type: ignore[attr-defined]
    settled(page, "Upload a gold file")
    upload(page, "Gold file(s)", EN_GOLD)
    settled(page, "Loaded: gold.en_ewt.conllu.gz (gold)")
    upload(page, "Parse file(s)", EN_UDPIPE)
    metric_shows(page, "LAS", las)
    settled(page)
    shown = page.evaluate(METRICS_JS)  # type: ignore[attr-defined]
    assert {m: shown[m] for m in ("UAS", "LAS", "CLAS", "MLAS", "BLEX")} == {
        m: scorer_f1(m) for m in ("UAS", "LAS", "CLAS", "MLAS", "BLEX")
    }
    assert loaded(page) == [
        "Loaded: gold.en_ewt.conllu.gz (gold), UDPipe-Future.en_ewt.conllu.gz (parse of the raw text)"
    ]
    body = page.locator("body").inner_text()  # type: ignore[attr-defined]
    assert "file not used" not in body and "but gold" not in body
    assert page.locator("[data-testid=stException]").count() == 0  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "e2e_raw_text_en_ewt.png"))  # type: ignore[attr-defined]

    # the breakdown on the aligned words (its totals: the scorer's, tests/test_aligned_breakdown.py)
    page.get_by_role("tab", name="Breakdown and confusion").click()  # type: ignore[attr-defined]
    settled(page, "Breakdown (MaltEval's --by)")
    settled(page, "Confusion (--confusion)")
    assert page.locator("[data-testid=stException]").count() == 0  # type: ignore[attr-defined]
    # a sentence whose tokenization differs, drawn aligned: UDPipe-Future splits the gold's token
    # "Argghhh!" (weblog-...floppingaces_20041126180010_ENG_20041126_180010-0002) in two
    page.get_by_role("tab", name="One sentence").click()  # type: ignore[attr-defined]
    settled(page)
    find = page.get_by_label("Find (id, number or words)")  # type: ignore[attr-defined]
    find.fill("Argghhh")
    find.press("Enter")
    note = page.locator("svg.dep-tree text", has_text="split: Argghhh !")  # type: ignore[attr-defined]
    note.first.wait_for(timeout=TIMEOUT_MS)
    assert page.locator("svg.dep-tree text", has_text="part of 'Argghhh!'").count() == 2  # type: ignore[attr-defined]
    assert page.locator("svg.dep-tree").count() == 2  # type: ignore[attr-defined]  # the gold, the parse
    note.first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "e2e_raw_text_aligned_sentence.png"))  # type: ignore[attr-defined]

    # a parse of another text: the reason is shown, the file is not listed as loaded
    upload(page, "Parse file(s)", FR_UDPIPE)
    settled(page, "not a parse of this gold's text")
    error = page.locator("[data-testid=stAlertContentError]").filter(has_text=FR_UDPIPE.name)  # type: ignore[attr-defined]
    text = error.first.inner_text()
    assert "the characters differ" in text and "file not used" in text
    assert all(FR_UDPIPE.name not in line for line in loaded(page))
    assert loaded(page) == [
        "Loaded: gold.en_ewt.conllu.gz (gold), UDPipe-Future.en_ewt.conllu.gz (parse of the raw text)"
    ]
    metric_shows(page, "LAS", las)  # what was loaded stays
    assert page.locator("[data-testid=stException]").count() == 0  # type: ignore[attr-defined]
    page.screenshot(path=str(ARTIFACTS / "e2e_raw_text_refused.png"))  # type: ignore[attr-defined]
