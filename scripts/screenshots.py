"""Take the documentation screenshots (docs/screenshots/*.png, 1400x1000) of the running app.

    python3 scripts/screenshots.py            # every view
    python3 scripts/screenshots.py freval     # the views whose file name contains "freval"

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


def scroll_to(selector: str, above: int = 140) -> Callable[[Page], None]:
    def act(page: Page) -> None:
        page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.mouse.move(800, 500)  # over the main area, not the sidebar
        page.mouse.wheel(0, -above)  # leave a little context above

    return act


def upload(label: str, *files: Path) -> Callable[[Page], None]:
    """Put files into the sidebar uploader whose label starts with ``label``."""

    def act(page: Page) -> None:
        box = page.locator('[data-testid="stFileUploader"]').filter(has_text=label).first
        box.locator('input[type="file"]').set_input_files([str(f) for f in files])
        page.wait_for_timeout(1500)

    return act


def then(*actions: Callable[[Page], None]) -> Callable[[Page], None]:
    def act(page: Page) -> None:
        for a in actions:
            a(page)

    return act


def wait_for(selector: str) -> Callable[[Page], None]:
    def act(page: Page) -> None:
        page.wait_for_selector(selector, timeout=90_000)
        page.wait_for_timeout(800)

    return act


FIXTURES = ROOT / "tests" / "fixtures"


def settled(page: Page) -> None:
    """Wait until the script run is over (Streamlit's status widget is gone): no half-drawn page."""
    page.wait_for_function("() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=90_000)


def stacked(page: Page) -> None:
    page.get_by_text("Schemes side by side").click()
    page.wait_for_selector("div.wb-stack svg.dep-tree", timeout=60_000)
    page.wait_for_timeout(500)
    settled(page)
    page.locator("div.wb-stack").first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.mouse.move(800, 500)
    page.mouse.wheel(0, -300)


# (file name, path + query, selector to wait for, action before the shot)
VIEWS: list[tuple[str, str, str, Callable[[Page], None] | None]] = [
    # sentences whose drawings are whole at 1400 px (docs/app.md, "Drawings that fit"): 12 words side
    # by side, 23 words stacked in one column
    ("inspector_fr_gsd_top.png", "/?data=fr_gsd&sent=fr-ud-test_00217", "svg.dep-tree .arc-wrong-head", None),
    (
        "inspector_fr_gsd_side_by_side.png",
        "/?data=fr_gsd&sent=fr-ud-test_00217",
        "svg.dep-tree .arc-wrong-head",
        scroll_to("svg.dep-tree"),
    ),
    ("inspector_fr_gsd_stacked.png", "/?data=fr_gsd&sent=fr-ud-test_00149", "svg.dep-tree", stacked),
    (
        "inspector_en_ewt.png",
        "/?data=en_ewt&sent=2",
        "svg.dep-tree .arc-wrong-label",
        scroll_to("svg.dep-tree"),
    ),
    ("inspector_hebrew_rtl.png", "/?data=hebrew_yap", "svg.dep-tree", None),
    ("inspector_evalb.png", "/?data=evalb&sent=5", "div.wb-dot svg", None),
    ("ned_fr_gsd_corpus.png", "/NED?data=fr_gsd&sent=fr-ud-test_00217", "svg.dep-tree .note", None),
    (
        "ned_fr_gsd_sentence.png",
        "/NED?data=fr_gsd&sent=fr-ud-test_00217",
        "svg.dep-tree .note",
        scroll_to("div.wb-stack"),
    ),
    ("freval_evalb.png", "/FREVAL?data=evalb", "svg.wb-chart", scroll_to("[data-testid=stMetric]")),
    (
        "freval_farpahc.png",
        "/FREVAL?data=farpahc",
        "svg.wb-chart",
        scroll_to('[data-testid="stHeadingWithActionElements"]:has-text("F1 by fragment size")', 90),
    ),
    ("lattice_hebrew_yap.png", "/Lattice?data=hebrew_yap", "div.wb-figure svg g.edge", None),
    (
        "lattice_hebrew_yap_uploaded_analysis.png",
        "/Lattice?data=hebrew_yap",
        "div.wb-figure svg g.edge",
        then(
            upload("Gold file", FIXTURES / "yap_alternative.conll"),
            upload("Gold lattice file", FIXTURES / "yap_alternative.lattice"),
            wait_for('[data-testid="stMetric"]'),
            scroll_to('[data-testid="stMetric"]'),
        ),
    ),
    (
        "lattice_hebrew_yap_trees.png",
        "/Lattice?data=hebrew_yap",
        "div.wb-figure svg g.edge",
        then(
            upload("Gold file", FIXTURES / "yap_alternative.conll"),
            upload("Gold lattice file", FIXTURES / "yap_alternative.lattice"),
            wait_for('[data-testid="stMetric"]'),
            scroll_to('p:has-text("Trees over the lattice")'),
        ),
    ),
]


def tedeval_views() -> list[tuple[str, str, str, Callable[[Page], None] | None]]:
    """The TedEval views (inspector panel, Cross-scheme and Tour pages) as scripts/screenshots_tedeval.py
    defines them, when that script exists."""
    if not (ROOT / "scripts" / "screenshots_tedeval.py").exists():
        return []
    sys.path.insert(0, str(ROOT / "scripts"))
    import screenshots_tedeval

    return list(screenshots_tedeval.VIEWS)


def main(argv: list[str]) -> int:
    """``screenshots.py [NAME_PART ...]``: all views, or those whose file name contains a NAME_PART."""
    OUT.mkdir(parents=True, exist_ok=True)
    views = VIEWS + tedeval_views()
    if argv:
        views = [v for v in views if any(part in v[0] for part in argv)]
    with running_app() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for name, path, selector, action in views:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(url + path)
                page.wait_for_selector(selector, timeout=90_000)
                settled(page)
                page.wait_for_timeout(500)
                if action is not None:
                    action(page)
                    page.wait_for_timeout(700)
                    settled(page)
                page.screenshot(path=str(OUT / name))
                page.close()
                print(f"saved {OUT / name}")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
