"""Drawings that fit: every drawing of every page, measured in headless Chromium.

``streamlit run app.py`` on a free local port, Debian's chromium through Playwright, at
1400×1000 and 1024×768, in the default drawing size ("fit"), on short, median and long
built-in sentences (French-GSD: "Il n'y en a point ." 7 words; fr-ud-test_00139, 22 words, the
median length of the 416 sentences; fr-ud-test_00005, 38 words), English-EWT, the Hebrew yap
sentence (right to left), evalb's constituency sample, the NED and Lattice pages and the five
steps of the tour.

The rule checked on every drawing box (tests/e2e/fitting.py measures it in the browser):
no text is ever under 9 px (rendered font size, from the text's bounding rectangle and its
screen transform); a drawing scrolls sideways only if fitting it to its box would bring its
smallest text under 9 px, and then its box stands in one column (its Streamlit column, if any,
spans the whole row); a drawing that does not scroll is no wider than its box.  The edit
script's table (under the trees) never scrolls sideways either.

Measurements are written to ``tests/artifacts/fit_measurements.txt`` (ignored by git).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from appserver import CHROMIUM, ROOT
from fitting import BoxMeasure, measure, scrolling_tables

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

ARTIFACTS = ROOT / "tests" / "artifacts"
TIMEOUT_MS = 90_000
VIEWPORTS = [(1400, 1000), (1024, 768)]
SHORT, MEDIAN, LONG = "fr-ud-test_00097", "fr-ud-test_00139", "fr-ud-test_00005"

VIEWS: dict[str, str] = {
    "inspector short": f"/?data=fr_gsd&sent={SHORT}",
    "inspector median": f"/?data=fr_gsd&sent={MEDIAN}",
    "inspector long": f"/?data=fr_gsd&sent={LONG}",
    "inspector English": "/?data=en_ewt&sent=2",
    "inspector Hebrew": "/?data=hebrew_yap",
    "inspector evalb": "/?data=evalb&sent=5",
    "NED median": f"/NED?data=fr_gsd&sent={MEDIAN}",
    "lattice": "/Lattice?data=hebrew_yap",
    **{f"tour {s}": f"/Tour?step={s}" for s in ("on_sunday", "coordination", "verb_group")},
    "tour john_loves_mary": "/Tour?step=john_loves_mary",
    "tour bclm_hneim": "/Tour?step=bclm_hneim",
}


@pytest.fixture(scope="module")
def report() -> Iterator[list[str]]:
    lines: list[str] = []
    yield lines
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "fit_measurements.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _settled(page: object) -> None:
    """Wait for the drawings, then for the script run to finish (the status widget disappears)."""
    page.wait_for_selector("div.wb-fit svg", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=TIMEOUT_MS
    )
    page.wait_for_timeout(600)  # type: ignore[attr-defined]


def _open(browser: object, url: str, size: tuple[int, int]) -> object:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})  # type: ignore[attr-defined]
    page = ctx.new_page()
    page.goto(url)
    _settled(page)
    return page


def _check(boxes: list[BoxMeasure], where: str, report: list[str]) -> None:
    report.append(f"== {where}: {len(boxes)} drawing boxes")
    report.extend("   " + b.row() for b in boxes)
    assert boxes, f"{where}: no drawing box"
    problems = [f"{b.row()}: {'; '.join(b.problems())}" for b in boxes if b.problems()]
    assert not problems, f"{where}:\n" + "\n".join(problems)
    assert not any(b.fit != "fit" for b in boxes), "the default drawing size is fit"


@pytest.mark.parametrize("size", VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
@pytest.mark.parametrize("view", list(VIEWS))
def test_every_drawing_fits_or_stands_alone(
    app_url: str, browser: object, report: list[str], view: str, size: tuple[int, int]
) -> None:
    page = _open(browser, app_url + VIEWS[view], size)
    try:
        assert page.locator("[data-testid=stException]").count() == 0  # type: ignore[attr-defined]
        _check(measure(page), f"{size[0]}x{size[1]} {view}", report)
        if view in ("inspector median", "inspector long"):  # a parse with operations: a table is shown
            assert page.locator("table.wb-table").count() >= 1  # type: ignore[attr-defined]
        assert scrolling_tables(page) == [], "the edit script's table is cut on the right"
    finally:
        page.context.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_short_sentence_is_whole(app_url: str, browser: object, size: tuple[int, int]) -> None:
    """The issue's example: "Il n'y en a point ." lost its last words; now no drawing of it scrolls,
    and at 1400 px the UD and SUD drawings stand side by side."""
    page = _open(browser, app_url + VIEWS["inspector short"], size)
    try:
        boxes = measure(page)
        assert boxes and not any(b.scrolls for b in boxes), [b.row() for b in boxes]
        forms = page.locator("svg.dep-tree").first.locator("text.form").all_text_contents()  # type: ignore[attr-defined]
        assert forms == ["Il", "n'", "y", "en", "a", "point", "."]
        deps = [b for b in boxes if "wb-stack" in b.cls]
        assert len(deps) == 2  # one box per scheme (UD, SUD)
        if size[0] == 1400:
            assert all(b.in_columns and not b.alone for b in deps)
    finally:
        page.context.close()  # type: ignore[attr-defined]


def test_titles_are_inside_the_drawings(app_url: str, browser: object) -> None:
    """Function-tree titles are drawn at the start (left) of their picture, inside its box, also
    for a long sentence whose tree scrolls; dependency titles sit inside their box."""
    page = _open(browser, app_url + VIEWS["inspector long"], (1024, 768))
    try:
        box = page.locator("div.wb-dot").first  # type: ignore[attr-defined]
        title = box.locator("svg > g > text").first  # Graphviz writes the graph label first
        assert title.text_content().startswith("gold UD")
        b, t = box.bounding_box(), title.bounding_box()
        assert b["x"] <= t["x"] and t["x"] + t["width"] <= b["x"] + b["width"]
        dep_box = page.locator("div.wb-stack").first  # type: ignore[attr-defined]
        titles = dep_box.locator(".wb-fig-title").all_text_contents()
        assert titles[0].startswith("UD gold") and any(x.startswith("spaCy UD parser") for x in titles)
    finally:
        page.context.close()  # type: ignore[attr-defined]


def test_zoom_control_shows_drawings_at_their_own_size(app_url: str, browser: object) -> None:
    """ "Drawing size" 100 %: every drawing at its own width (scrolling when wider than its box)."""
    page = _open(browser, app_url + VIEWS["inspector long"], (1400, 1000))
    try:
        control = page.locator('[data-testid="stSlider"]').filter(has_text="Drawing size")  # type: ignore[attr-defined]
        slider = control.get_by_role("slider")
        # one step at a time, each followed by its rerun (a key pressed during a rerun may be lost)
        for _ in range(8):  # fit -> 50% -> 75% -> 100%
            if slider.get_attribute("aria-valuetext") == "100%":
                break
            slider.focus()
            slider.press("ArrowRight")
            page.wait_for_timeout(400)  # type: ignore[attr-defined]
            _settled(page)
        assert slider.get_attribute("aria-valuetext") == "100%"
        page.wait_for_function(  # type: ignore[attr-defined]
            """() => { const boxes = [...document.querySelectorAll('div.wb-fit')]
                   .filter(b => b.offsetParent !== null);  // not the boxes of hidden tabs
                 return boxes.length > 0 && boxes.every(b => b.dataset.fit === 'zoom' &&
                   Math.abs(b.querySelector('svg').getBoundingClientRect().width
                            - parseFloat(b.querySelector('svg').getAttribute('width'))) < 1.5); }""",
            timeout=TIMEOUT_MS,
        )
        _settled(page)
        boxes = measure(page)
        assert boxes
        for b in boxes:
            assert abs(b.svg_width - b.natural) <= 1.5, b.row()
        assert any(b.scrolls for b in boxes)  # a 38-word sentence at its own size is wider than the page
        # the choice is kept when the user goes to another page
        page.get_by_role("link", name="Tour", exact=True).click()  # type: ignore[attr-defined]
        page.wait_for_selector("div.wb-fit[data-fit=zoom]", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    finally:
        page.context.close()  # type: ignore[attr-defined]
