"""Take the documentation screenshots (docs/screenshots/*.png, 1400x1000) of the running app.

    python3 scripts/screenshots.py

Starts the app on a free local port (tests/e2e/appserver.py), drives Debian's
chromium headless with Playwright, saves one PNG per view, stops the app.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from appserver import CHROMIUM, CHROMIUM_ARGS, running_app  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def scroll_to(selector: str) -> Callable[[Page], None]:
    def act(page: Page) -> None:
        page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.mouse.move(800, 500)  # over the main area, not the sidebar
        page.mouse.wheel(0, -140)  # leave a little context above

    return act


def stacked(page: Page) -> None:
    page.get_by_text("Schemes side by side").click()
    page.wait_for_selector("div.wb-stack svg.dep-tree", timeout=60_000)
    page.locator("div.wb-stack").first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.mouse.move(800, 500)
    page.mouse.wheel(0, -300)


# (file name, path + query, selector to wait for, action before the shot)
VIEWS: list[tuple[str, str, str, Callable[[Page], None] | None]] = [
    ("inspector_fr_gsd_top.png", "/?data=fr_gsd&sent=fr-ud-test_00005", "svg.dep-tree .arc-wrong-head", None),
    (
        "inspector_fr_gsd_side_by_side.png",
        "/?data=fr_gsd&sent=fr-ud-test_00005",
        "svg.dep-tree .arc-wrong-head",
        scroll_to("svg.dep-tree"),
    ),
    ("inspector_fr_gsd_stacked.png", "/?data=fr_gsd&sent=fr-ud-test_00012", "svg.dep-tree", stacked),
    (
        "inspector_en_ewt.png",
        "/?data=en_ewt&sent=2",
        "svg.dep-tree .arc-wrong-label",
        scroll_to("svg.dep-tree"),
    ),
    ("inspector_hebrew_rtl.png", "/?data=hebrew_yap", "svg.dep-tree", None),
    ("inspector_evalb.png", "/?data=evalb&sent=5", "div.wb-dot svg", None),
    ("ned_fr_gsd_corpus.png", "/NED?data=fr_gsd&sent=fr-ud-test_00012", "svg.dep-tree .note", None),
    (
        "ned_fr_gsd_sentence.png",
        "/NED?data=fr_gsd&sent=fr-ud-test_00012",
        "svg.dep-tree .note",
        scroll_to("div.wb-stack"),
    ),
]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with running_app() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for name, path, selector, action in VIEWS:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(url + path)
                page.wait_for_selector(selector, timeout=60_000)
                page.wait_for_timeout(500)
                if action is not None:
                    action(page)
                    page.wait_for_timeout(700)
                page.screenshot(path=str(OUT / name))
                page.close()
                print(f"saved {OUT / name}")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
