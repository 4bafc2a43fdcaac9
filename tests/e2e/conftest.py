"""Fixtures of the end-to-end tests: headless Debian chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from appserver import CHROMIUM, CHROMIUM_ARGS


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
