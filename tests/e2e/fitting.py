"""Measure, in the browser, how every drawing of a page sits in its box.

For each visible drawing box (``div.wb-fit``, written by ``workbench/fit.py``):

* ``box_width`` -- the box's inner width (``clientWidth``) and ``svg_width``, the widest SVG's
  rendered width (``getBoundingClientRect``); ``scrolls`` -- the box is wider inside than outside;
* ``text_px`` -- the smallest rendered font size of *every* text of its drawings (word forms, tags,
  relation labels, notes and legends of a dependency drawing; every text of a Graphviz tree or
  lattice, positions and titles included), measured twice: from the text's bounding rectangle
  (rendered height / height in SVG units × font size) and from the element's screen transform
  (font size × the scale of ``getScreenCTM()``); the smaller is kept;
* ``fit_px`` -- the smallest text's size if the drawing were scaled to the box's width (never
  above its own size): what "fitting would bring its texts to";
* ``alone`` -- the box is not in a Streamlit column, or its column spans its whole row.
"""

from __future__ import annotations

from dataclasses import dataclass

MEASURE_JS = """
() => [...document.querySelectorAll('div.wb-fit')].filter(b => b.offsetParent !== null && b.clientWidth > 0)
  .map(box => {
    const svgs = [...box.querySelectorAll(':scope > .wb-fit-inner > svg')];
    let rectPx = Infinity, ctmPx = Infinity, texts = 0;
    for (const svg of svgs) {
      for (const t of svg.querySelectorAll('text')) {
        if (!t.textContent.trim()) continue;
        const fs = parseFloat(getComputedStyle(t).fontSize), m = t.getScreenCTM();
        const bb = t.getBBox(), rect = t.getBoundingClientRect();
        if (bb.height > 0 && Math.abs(m.b) < 1e-6) rectPx = Math.min(rectPx, fs * rect.height / bb.height);
        ctmPx = Math.min(ctmPx, fs * Math.hypot(m.a, m.b));
        texts += 1;
      }
    }
    const natural = parseFloat(box.dataset.naturalWidth), text = parseFloat(box.dataset.textPx);
    const col = box.closest('[data-testid=stColumn]');
    const row = col ? col.closest('[data-testid=stHorizontalBlock]') : null;
    const alone = !col || col.getBoundingClientRect().width >= row.getBoundingClientRect().width - 2;
    return {
      id: box.id, cls: box.className, fit: box.dataset.fit,
      box_width: box.clientWidth, scroll_width: box.scrollWidth,
      svg_width: Math.max(0, ...svgs.map(s => s.getBoundingClientRect().width)),
      text_px: Math.min(rectPx, ctmPx), rect_px: rectPx, ctm_px: ctmPx, texts: texts,
      fit_px: text * Math.min(1, box.clientWidth / natural), alone: alone,
      in_columns: !!col, natural: natural,
    };
  })
"""


@dataclass(frozen=True, slots=True)
class BoxMeasure:
    id: str
    cls: str
    fit: str
    box_width: float
    scroll_width: float
    svg_width: float
    text_px: float
    rect_px: float
    ctm_px: float
    texts: int
    fit_px: float
    alone: bool
    in_columns: bool
    natural: float

    @property
    def scrolls(self) -> bool:
        return self.scroll_width > self.box_width + 1

    def problems(self, min_px: float = 9.0) -> list[str]:
        """What breaks the rule: a text under ``min_px``; a scroll that fitting would have avoided;
        a scrolling drawing that still shares its row; an SVG wider than a box that does not scroll."""
        out: list[str] = []
        if self.texts == 0:
            out.append("no text found")
        if self.text_px < min_px - 0.05:
            out.append(f"a text at {self.text_px:.2f} px")
        if self.scrolls:
            if self.fit_px >= min_px:
                out.append(f"scrolls although fitted texts would be {self.fit_px:.2f} px")
            if not self.alone:
                out.append("scrolls but shares its row with another column")
        elif self.svg_width > self.box_width + 1:
            out.append(f"SVG {self.svg_width:.0f} px in a {self.box_width} px box")
        return out

    def row(self) -> str:
        kind = "dot" if "wb-dot" in self.cls else "dep"
        fits = "SCROLLS" if self.scrolls else "fits   "
        return (
            f"{kind:3} box {self.box_width:5.0f} svg {self.svg_width:6.0f} natural {self.natural:6.0f} "
            f"texts {self.text_px:5.2f} px (fit {self.fit_px:5.2f}) {fits} "
            f"{'alone' if self.alone else 'shared'}"
        )


TABLES_JS = """
() => [...document.querySelectorAll('div.wb-table-box')].filter(t => t.offsetParent !== null)
  .flatMap(t => [t, ...t.querySelectorAll('*')])
  .filter(e => getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.tagName} ${e.clientWidth}/${e.scrollWidth}`)
"""


def scrolling_tables(page: object) -> list[str]:
    """Parts of visible tables (workbench.tables: the edit script's operations) that scroll sideways."""
    return list(page.evaluate(TABLES_JS))  # type: ignore[attr-defined]


def measure(page: object) -> list[BoxMeasure]:
    """Every visible drawing box of ``page`` (a Playwright page)."""
    rows = page.evaluate(MEASURE_JS)  # type: ignore[attr-defined]
    return [BoxMeasure(**r) for r in rows]
