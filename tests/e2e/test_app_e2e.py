"""End to end: ``streamlit run app.py`` on a free local port, driven in headless Chromium.

Uses Debian's chromium (``/usr/bin/chromium``) through Playwright; never
downloads a browser.  Skipped, with the reason shown, only when that binary is
missing.  Screenshots go to ``tests/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from appserver import CHROMIUM, CHROMIUM_ARGS, ROOT, running_app

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")

ARTIFACTS = ROOT / "tests" / "artifacts"
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    with running_app() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def page(browser: object) -> Iterator[object]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    p = ctx.new_page()
    try:
        yield p
    finally:
        ctx.close()


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
    assert_no_exception(page)
    page.screenshot(path=str(ARTIFACTS / "e2e_ned_fr_gsd.png"))  # type: ignore[attr-defined]
