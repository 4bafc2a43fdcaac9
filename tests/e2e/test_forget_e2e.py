"""End to end, FREVAL's "Forget uploaded files" (docs/app.md, "Datasets"): after it no file is listed
as loaded and no message from a forgotten file remains; a file uploaded next shows its own outcome
only.  The way users go: the home page first, then the FREVAL page by the sidebar, then "Your files".
Real ``streamlit run app.py`` and Debian's chromium; every wait is on a condition."""

from __future__ import annotations

import re

import pytest
from appserver import CHROMIUM, ROOT, wait_settled

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(300),
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")

TIMEOUT_MS = 180_000
SAMPLE = ROOT / "assets" / "evalb" / "sample"


def _upload(page: object, label: str, name: str, data: bytes) -> None:
    box = page.locator('[data-testid="stFileUploader"]').filter(has_text=label).first  # type: ignore[attr-defined]
    box.locator('input[type="file"]').set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": data}
    )


def _sidebar_text(page: object) -> str:
    return str(page.locator("[data-testid=stSidebar]").inner_text())  # type: ignore[attr-defined]


def test_forget_uploaded_files_on_the_freval_page(app_url: str, browser: object) -> None:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    try:
        page = ctx.new_page()
        page.goto(app_url)
        page.locator("svg.dep-tree").first.wait_for(timeout=TIMEOUT_MS)
        wait_settled(page)
        page.locator("[data-testid=stSidebarNav] a", has_text="FREVAL").first.click()
        page.wait_for_url(re.compile(r"/FREVAL"), timeout=TIMEOUT_MS)
        wait_settled(page, "FREVAL")
        page.get_by_role("combobox", name="Dataset", exact=True).click()
        page.get_by_role("option", name="Your files (upload)", exact=True).click()
        wait_settled(page, "Gold trees")
        _upload(page, "Gold trees", "sample.gld", (SAMPLE / "sample.gld").read_bytes())
        wait_settled(page, "sample.gld")
        _upload(page, "Parser output(s)", "sample.tst", (SAMPLE / "sample.tst").read_bytes())
        wait_settled(page, "Loaded: sample.gld, sample.tst")
        _upload(page, "Parser output(s)", "broken.mrg", b"(S (NP (DT a)\n")
        wait_settled(page, "broken.mrg:1:")
        assert "sample.gld" in _sidebar_text(page) and "sample.tst" in _sidebar_text(page)
        page.get_by_role("button", name="Forget uploaded files").click()
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=stSidebar]').innerText.includes('Loaded:')",
            timeout=TIMEOUT_MS,
        )
        wait_settled(page)
        body = page.locator("body").inner_text()
        for name in ("sample.gld", "sample.tst", "broken.mrg"):
            assert name not in body, name  # neither listed as loaded nor in a message
        _upload(page, "Gold trees", "other.mrg", b"(S (NP (DT a)))\n")
        wait_settled(page, "Loaded: other.mrg")
        body = page.locator("body").inner_text()
        assert "sample.tst" not in body and "broken.mrg" not in body
        assert page.locator("[data-testid=stException]").count() == 0
    finally:
        ctx.close()
