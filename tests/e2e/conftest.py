"""Fixtures of the end-to-end tests: one app server and one headless Chromium per test module.

The server is ``streamlit run app.py`` on a free local port (appserver.py); the browser is
Debian's chromium driven by Playwright (never downloaded).  Test modules skip themselves when
chromium or python playwright is missing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from appserver import CHROMIUM, CHROMIUM_ARGS, running_app


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    with running_app() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium (never a downloaded browser); the tests skip when it is missing."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def page(browser: object) -> Iterator[object]:
    """A page in a browser context of its own at 1400x1000, closed after the test (a module may define
    its own ``page``)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    p = ctx.new_page()
    try:
        yield p
    finally:
        ctx.close()
