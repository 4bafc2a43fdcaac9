"""End to end, the way users go: the home page
first, on the French GSD data (``/?data=fr_gsd``), then every page by the sidebar, then on each
page every link to another page of the app (``st.page_link``), each followed and the page it opens
checked; at 1400x1000 and at 1024x768.  A page opened after the home page had run once used to show
``StreamlitPageNotFoundError: Could not find page: app.py`` (the links to the inspector named the
entry file, which ``st.navigation`` does not take as a page); opened first, it did not, so a test
that opens a page alone could not see it.  On every page reached: no exception, no control whose
text is cut (a button, tab or label narrower than its text, or a label wrapped inside a word), and no
text of a drawing under 9 px (every visible ``svg text`` of the page, ours and Graphviz's: its font
size times the scale at which its SVG is shown; docs/app.md, "Drawings that fit").

Real ``streamlit run app.py`` and Debian's chromium; every wait is on a condition, never a sleep.
"""

from __future__ import annotations

import pytest
from appserver import CHROMIUM, wait_settled

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.timeout(900),  # seven pages and their links, twice, on a loaded machine
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="python playwright is not installed")

TIMEOUT_MS = 180_000
PAGES = {  # the sidebar's entries: their paths and their pages' titles
    "Cross scheme": ("/Cross_scheme", "Cross-scheme TedEval"),
    "FREVAL": ("/FREVAL", "FREVAL: PARSEVAL per fragment size"),
    "Lattice": ("/Lattice", "Joint segmentation and parsing: lattices"),
    "Attachment & NED": ("/NED", "Attachment & NED"),
    "Tour": ("/Tour", "A tour of TedEval"),
    "Atlas": ("/Atlas", "Discrepancy atlas"),
    "Sentence inspector": ("/", "Sentence inspector"),
}
TITLES = dict(PAGES.values())
# links to other pages on French GSD: five example sentences on each of two pages; the home page's
# pointers to the Tour and the three tasks
LINKS = {"Cross scheme": 5, "Atlas": 5, "Sentence inspector": 4}
LINK = "[data-testid=stMain] [data-testid=stPageLink]"  # one a link (a link with help has a hidden twin)
PATHS = {title: path for path, title in PAGES.values()}
TITLE_JS = """
() => [...document.querySelectorAll('[data-testid=stMain] h1')].map(h => h.innerText.trim()).join('|')
"""
AT_JS = """
([path, title]) => location.pathname === path
  && [...document.querySelectorAll('[data-testid=stMain] h1')].some(h => h.innerText.trim() === title)
"""


# controls whose text does not fit: a button, tab or label cut (its text wider than its box), or a
# label wrapped inside a word (a word wider than the label: "Min. words" went letter by letter)
CLIPPED_JS = """
() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const out = [];
  const sel = ['button', '[data-testid=stWidgetLabel]', '[data-testid=stMetricLabel]', '[data-testid=stTab]']
    .flatMap(s => [`[data-testid=stMain] ${s}`, `[data-testid=stSidebar] ${s}`]).join(', ');
  for (const el of document.querySelectorAll(sel)) {
    const text = el.innerText.trim();
    if (!el.offsetParent || !text || el.querySelector('[data-testid=stIconMaterial]')) continue;  // icons
    const cut = [el, ...el.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1
      && (getComputedStyle(e).overflow !== 'visible' || getComputedStyle(e).textOverflow === 'ellipsis'));
    const p = el.querySelector('p') || el;
    const cs = getComputedStyle(p);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const widest = Math.max(...text.split(/\\s+/).map(w => ctx.measureText(w).width));
    if (cut || widest > p.getBoundingClientRect().width + 1) out.push(text.slice(0, 60));
  }
  return out;
}
"""


# texts of drawings under the minimum: every visible SVG text in the main area, its rendered size the
# computed font size (SVG units) times the SVG's scale on screen (getScreenCTM: viewBox, transforms and
# the box's fitting; a rotated text counts its scale, not its cosine), and from its bounding rectangle
# (rendered height / height in SVG units); the smaller is kept
SMALL_TEXT_JS = """
(minPx) => {
  const out = [];
  for (const t of document.querySelectorAll('[data-testid=stMain] svg text')) {
    const text = t.textContent.trim();
    const host = t.closest('div');
    if (!text || !host || host.offsetParent === null || t.getClientRects().length === 0) continue;
    const fs = parseFloat(getComputedStyle(t).fontSize), m = t.getScreenCTM();
    let px = fs * Math.hypot(m.a, m.b);
    const bb = t.getBBox(), rect = t.getBoundingClientRect();
    if (bb.height > 0 && Math.abs(m.b) < 1e-6) px = Math.min(px, fs * rect.height / bb.height);
    if (px < minPx) {
      const box = t.closest('div.wb-fit'), where = box ? box.id : 'an SVG';
      out.push([px, `${px.toFixed(2)} px ${JSON.stringify(text.slice(0, 30))} in ${where}`]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]).map(x => x[1]);  // the smallest first
}
"""
MIN_TEXT_PX = 9.0 - 0.1  # the rule's 9 px, less what the browser rounds


def _settled(page: object) -> None:
    wait_settled(page, timeout_ms=TIMEOUT_MS)
    errors = page.locator("[data-testid=stException]")  # type: ignore[attr-defined]
    assert errors.count() == 0, errors.first.inner_text()[:500]
    clipped = page.evaluate(CLIPPED_JS)  # type: ignore[attr-defined]
    assert not clipped, (page.url, clipped)  # type: ignore[attr-defined]
    small = page.evaluate(SMALL_TEXT_JS, MIN_TEXT_PX)  # type: ignore[attr-defined]
    assert not small, (page.url, len(small), small[:12])  # type: ignore[attr-defined]


def _at(page: object, path: str) -> None:
    """Wait until the browser shows ``path`` with its page's title, and the page has run."""
    page.wait_for_function(AT_JS, arg=[path, TITLES[path]], timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    _settled(page)


def _sidebar(page: object, name: str) -> None:
    page.locator("[data-testid=stSidebarNav] a", has_text=name).first.click()  # type: ignore[attr-defined]
    _at(page, PAGES[name][0])


def _links(page: object) -> list[str]:
    """The labels of the page's links to other pages (in the main area)."""
    links = page.locator(LINK)  # type: ignore[attr-defined]
    return [t.strip() for t in links.all_inner_texts()]


@pytest.mark.parametrize("size", [(1400, 1000), (1024, 768)], ids=["1400x1000", "1024x768"])
def test_home_then_every_page_then_every_link(app_url: str, browser: object, size: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})  # type: ignore[attr-defined]
    try:
        page = ctx.new_page()
        page.goto(f"{app_url}/?data=fr_gsd")
        page.locator("svg.dep-tree").first.wait_for(timeout=TIMEOUT_MS)
        _settled(page)
        assert page.get_by_text("Deploy", exact=True).count() == 0  # the toolbar is minimal
        if size == (1400, 1000):  # a first visit sees a tree without scrolling
            box = page.locator("svg.dep-tree").first.bounding_box()
            assert box is not None and box["y"] + box["height"] / 2 < size[1], box
        followed = 0
        for name in PAGES:
            _sidebar(page, name)
            if LINKS.get(name):  # the page computes before it lists them
                page.wait_for_function(
                    f"() => document.querySelectorAll({LINK!r}).length >= {LINKS[name]}", timeout=TIMEOUT_MS
                )
            assert len(_links(page)) == LINKS.get(name, 0), name
            for label in _links(page):
                page.locator(LINK, has_text=label).first.locator("a:visible").first.click()
                # another page's title, then its path in the address bar (the link's own href is relative)
                page.wait_for_function(
                    f"() => ({TITLE_JS})() !== {PAGES[name][1]!r} && ({TITLE_JS})() !== ''",
                    timeout=TIMEOUT_MS,
                )
                _at(page, PATHS[page.evaluate(TITLE_JS)])
                followed += 1
                _sidebar(page, name)  # back, for the next link
        assert followed == sum(LINKS.values())
    finally:
        ctx.close()
