"""Screenshots of the TedEval views (docs/screenshots/{inspector_tedeval,cross_scheme,tour}.png, 1400x1000).

    python3 scripts/screenshots_tedeval.py [NAME ...]

Starts the app on a free local port (tests/e2e/appserver.py), drives Debian's
chromium headless with Playwright (never downloads a browser), saves one PNG
per view, stops the app.
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
WAIT_MS = 90_000


def scroll_to_text(text: str, up: int = 60) -> Callable[[Page], None]:
    def act(page: Page) -> None:
        page.get_by_text(text, exact=True).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.mouse.move(800, 500)  # over the main area, not the sidebar
        page.mouse.wheel(0, -up)
        page.wait_for_timeout(600)

    return act


def settled(page: Page) -> None:
    """Wait until the script run is over (Streamlit's status widget is gone): no half-drawn page."""
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=WAIT_MS)


def flip_head(page: Page) -> None:
    """Step 1 of the tour: make the preposition head 'on Sunday' (LAS collapses, TedEval stays 1.0)."""
    page.get_by_text("on — the preposition heads", exact=False).first.click()
    page.wait_for_timeout(2500)
    page.get_by_text("Which word heads", exact=False).first.evaluate(
        "e => e.scrollIntoView({block: 'start'})"
    )
    page.mouse.move(800, 500)
    page.mouse.wheel(0, -120)
    page.wait_for_timeout(600)


def scroll_to_edit_script(page: Page) -> None:
    """The parse's tree, the generalized gold and the operations table under them."""
    page.locator("div.wb-dot svg .counted").first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.mouse.move(800, 500)
    page.mouse.wheel(0, -150)
    page.wait_for_timeout(600)


# (file name, path + query, selector to wait for, action before the shot)
VIEWS: list[tuple[str, str, str, Callable[[Page], None] | None]] = [
    (
        "inspector_tedeval.png",
        "/?data=fr_gsd&sent=fr-ud-test_00242",
        "div.wb-dot svg .counted",
        scroll_to_edit_script,
    ),
    ("cross_scheme.png", "/Cross_scheme?data=fr_gsd", "text=UD+SUD (generalized gold)", None),
    ("tour.png", "/Tour?step=on_sunday", "div.wb-dot svg", flip_head),
    (
        "tour_verb_group.png",
        "/Tour?step=verb_group",
        "div.wb-dot svg .discounted",
        scroll_to_text("The parse's edit script", 200),
    ),
    ("tour_bclm.png", "/Tour?step=bclm_hneim", "div.wb-dot svg .inserted", scroll_to_text("The lattice", 40)),
]


def main(names: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with running_app() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for name, path, selector, action in VIEWS:
                if names and name not in names:
                    continue
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(url + path)
                page.wait_for_selector(selector, timeout=WAIT_MS)
                page.wait_for_timeout(2000)
                settled(page)
                if action is not None:
                    action(page)
                    settled(page)
                page.screenshot(path=str(OUT / name))
                print(f"wrote {OUT / name}")
                page.close()
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
