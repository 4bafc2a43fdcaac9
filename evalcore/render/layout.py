"""Pure geometry of a displaCy-style dependency drawing (no I/O, no strings escaped here).

What the drawing shows and the layout's rules (sentence order, arcs from head to dependent, heights
by nesting, labels that never overlap, spacing by word width, mirrored right-to-left sentences,
verdicts computed by :func:`evalcore.inspection.arc_verdicts` and only drawn here): docs/app.md,
"How to read a dependency drawing"; ``tests/test_render.py`` checks them.  Besides: every arc has
its own *ports* (at a word, arcs going left use the left half, shorter arcs further out, arcs going
right the right half, the root arrow the centre), so legs never coincide and nested arcs never
cross; without verdicts an arc's status is ``plain``, and nothing in :mod:`evalcore.render`
imports a metric.  Everything is iterative: a 1,000-word chain lays out like a 3-word sentence.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from evalcore.render.text import is_rtl_text, text_width
from evalcore.trees import ArcVerdict, DepTree

__all__ = [
    "ArcBox",
    "ArcStatus",
    "DepLayout",
    "LayoutStyle",
    "WordBox",
    "WordGrid",
    "detect_rtl",
    "layout_dep",
    "merge_grids",
    "word_grid",
]

ArcStatus = Literal["plain", "correct", "wrong-head", "wrong-label"]


@dataclass(frozen=True, slots=True)
class LayoutStyle:
    """Sizes in px.  ``level_height`` must exceed ``label_size + 2 * label_pad_y``.

    Every text is as large as the words (forms, tags, relation labels, notes, the legend): a drawing
    is fitted to its box while its smallest text stays 9 px high (docs/app.md, "Drawings that fit"),
    so a text smaller than the words would keep the whole drawing large; tags and notes are told
    apart by their colour and place instead.  The spaces between things are tight for the same
    reason (a 7-word sentence's two schemes stand side by side at 1400 px)."""

    word_size: float = 14.0
    tag_size: float = 14.0
    label_size: float = 14.0
    note_size: float = 14.0
    legend_size: float = 14.0
    word_gap: float = 8.0
    min_word_width: float = 18.0
    word_pad: float = 4.0  # added to the widest text of a word (form, tag, notes)
    port_step: float = 4.0
    level_height: float = 22.0
    label_pad_x: float = 2.0
    label_pad_y: float = 2.0
    label_gap: float = 4.0  # minimum horizontal gap between two things on one level
    margin: float = 10.0
    corner: float = 5.0
    arrow: float = 5.0


@dataclass(frozen=True, slots=True)
class WordBox:
    """One word: ``x`` is its centre, ``width`` its box width."""

    id: int  # 1-based token id
    form: str
    tag: str
    x: float
    width: float
    rtl: bool
    dimmed: bool
    notes: tuple[str, ...] = ()
    highlighted: bool = False  # a word of a construction followed to the inspector (boxed, yellow)

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def right(self) -> float:
        return self.x + self.width / 2


@dataclass(frozen=True, slots=True)
class ArcBox:
    """One dependency arc.

    A ``vertical`` arc is drawn as an arrow from above: the root relation
    (``head == 0``), and also a head that points at the token itself or
    outside the sentence (only in input that is not a tree).
    """

    dependent: int
    head: int
    label: str  # the system's relation
    text: str  # what is written on the arc (``obl (gold obj)`` for a wrong label)
    status: ArcStatus
    gold_head: int | None
    gold_label: str | None
    x_head: float
    x_dep: float
    level: int
    y: float  # y of the horizontal segment (the label's centre line)
    label_x: float  # centre of the label box
    label_width: float
    dimmed: bool
    vertical: bool = False

    @property
    def is_root(self) -> bool:
        return self.head == 0

    @property
    def left(self) -> float:
        return min(self.x_head, self.x_dep)

    @property
    def right(self) -> float:
        return max(self.x_head, self.x_dep)


@dataclass(frozen=True)
class DepLayout:
    """The drawing as data; :mod:`evalcore.render.svg` and :mod:`evalcore.render.dot` write it."""

    words: tuple[WordBox, ...]
    arcs: tuple[ArcBox, ...]
    width: float
    height: float
    base_y: float  # y where arc legs end (just above the words)
    levels: int
    rtl: bool
    compared: bool  # True if statuses come from a gold tree
    sent_id: str = ""
    style: LayoutStyle = field(default_factory=LayoutStyle)
    lead: float = 0.0  # room added before word 1 so that no label sticks out of the drawing

    def label_box(self, arc: ArcBox) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of an arc's label box."""
        s = self.style
        half_h = s.label_size / 2 + s.label_pad_y
        return (
            arc.label_x - arc.label_width / 2,
            arc.y - half_h,
            arc.label_x + arc.label_width / 2,
            arc.y + half_h,
        )

    @property
    def word_y(self) -> float:
        """Baseline of the word forms."""
        return self.base_y + self.style.word_size + 4

    @property
    def tag_y(self) -> float:
        return self.word_y + self.style.tag_size + 5

    def note_y(self, line: int) -> float:
        return self.tag_y + (line + 1) * (self.style.note_size + 4)

    def status_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for a in self.arcs:
            counts[a.status] = counts.get(a.status, 0) + 1
        return counts


@dataclass(frozen=True, slots=True)
class WordGrid:
    """Minimum word widths and centre-to-centre steps, to align several drawings of one sentence.

    ``widths[k]`` is the width of word ``k + 1``; ``steps[k]`` the distance
    between the centres of words ``k + 1`` and ``k + 2``.
    """

    widths: tuple[float, ...]
    steps: tuple[float, ...]
    lead: float = 0.0  # extra room before word 1 (for labels sticking out)
    width: float = 0.0  # total drawing width (right-to-left drawings are mirrored in it)


def word_grid(layout: DepLayout) -> WordGrid:
    """The grid a layout used (logical order, whatever the direction)."""
    words = sorted(layout.words, key=lambda w: w.id)
    xs = [w.x for w in words]
    steps = tuple(abs(b - a) for a, b in pairwise(xs))
    return WordGrid(tuple(w.width for w in words), steps, layout.lead, layout.width)


def merge_grids(grids: Sequence[WordGrid]) -> WordGrid | None:
    """Element-wise maximum of grids of the same length (``None`` if there are none or lengths differ)."""
    if not grids or len({len(g.widths) for g in grids}) != 1:
        return None
    widths = tuple(max(vals) for vals in zip(*(g.widths for g in grids), strict=True))
    steps = tuple(max(vals) for vals in zip(*(g.steps for g in grids), strict=True))
    return WordGrid(widths, steps, max(g.lead for g in grids), max(g.width for g in grids))


# ---------------------------------------------------------------------------


def _label_text(label: str, gold_label: str | None, status: ArcStatus) -> str:
    if status == "wrong-label" and gold_label is not None:
        return f"{label} (gold {gold_label})"
    return label


def detect_rtl(tree: DepTree) -> bool:
    """True if more words start with a right-to-left letter than with a left-to-right one."""
    rtl = ltr = 0
    for form in tree.forms:
        for ch in form:
            if ch.isalpha():
                if is_rtl_text(ch):
                    rtl += 1
                else:
                    ltr += 1
                break
    return rtl > ltr


_Sides = list[list[tuple[int, int]]]
"""Per word, its arcs on one side as ``(distance, dependent)``."""


def _arc_sides(tree: DepTree) -> tuple[_Sides, _Sides]:
    """The arcs leaving each word to the left and to the right (logical direction: word 1 on the
    left; an arc is (dependent, head), root arcs have head 0 and no side)."""
    n = len(tree.tokens)
    left_arcs: _Sides = [[] for _ in range(n + 1)]
    right_arcs: _Sides = [[] for _ in range(n + 1)]
    for t in tree.tokens:
        h, d = t.head, t.id
        if h == 0 or h == d or not 1 <= h <= n:
            continue
        dist = abs(h - d)
        lo, hi = min(h, d), max(h, d)
        right_arcs[lo].append((dist, d))
        left_arcs[hi].append((dist, d))
    return left_arcs, right_arcs


def _word_widths(
    tree: DepTree,
    sides: tuple[_Sides, _Sides],
    notes: Mapping[int, Sequence[str]],
    tag: Literal["upos", "xpos", "none"],
    grid: WordGrid | None,
    s: LayoutStyle,
) -> list[float]:
    """Each word's width (index = token id): its form, tag and notes, and room for its ports."""
    left_arcs, right_arcs = sides
    widths: list[float] = [0.0] * (len(tree.tokens) + 1)
    # the small lines under a word (tag, notes) may reach into the gaps on both sides, keeping
    # ``small_gap`` px from their neighbours': a short form with a long tag ("," PUNCT) stays narrow
    small_gap = 4.0
    slack = max(0.0, s.word_gap - small_gap) + s.word_pad
    for t in tree.tokens:
        w = max(
            text_width(t.form, s.word_size),
            text_width(_tag_of(t.upos, t.xpos, tag), s.tag_size) - slack,
            max((text_width(x, s.note_size) for x in notes.get(t.id, ())), default=0.0) - slack,
            s.min_word_width,
            # room for the ports: both halves plus the centre
            2 * s.port_step * (max(len(left_arcs[t.id]), len(right_arcs[t.id])) + 1),
        )
        widths[t.id] = w + s.word_pad
    if grid is not None:
        for i in range(1, len(tree.tokens) + 1):
            widths[i] = max(widths[i], grid.widths[i - 1])
    return widths


def _word_centres(
    tree: DepTree, widths: Sequence[float], label_w: Sequence[float], grid: WordGrid | None, s: LayoutStyle
) -> tuple[list[float], float]:
    """Each word's centre x (index = token id) and the drawing's width before labels stick out."""
    n = len(tree.tokens)
    # adjacent arcs want their label to fit between the two words
    adjacent_label: list[float] = [0.0] * (n + 1)  # indexed by the left word of the pair
    for i, t in enumerate(tree.tokens):
        if 1 <= t.head <= n and abs(t.head - t.id) == 1:
            lo = min(t.head, t.id)
            adjacent_label[lo] = max(adjacent_label[lo], label_w[i])

    xs: list[float] = [0.0] * (n + 1)
    x = s.margin
    for i in range(1, n + 1):
        if i == 1:
            x += widths[1] / 2
        else:
            step = (widths[i - 1] + widths[i]) / 2 + s.word_gap
            # the segment between the inner ports must carry the label plus gaps
            need = adjacent_label[i - 1] + 2 * s.label_gap + 2 * s.port_step
            x += max(step, need, grid.steps[i - 2] if grid is not None else 0.0)
        xs[i] = x
    total_width = (x + widths[n] / 2 + s.margin) if n else 2 * s.margin
    return xs, total_width


def _ports(xs: Sequence[float], sides: tuple[_Sides, _Sides], s: LayoutStyle) -> dict[tuple[int, int], float]:
    """The x where each arc meets a word: ``(word, dependent of the arc) -> x`` (logical
    coordinates); on each side the shortest arc is nearest the centre."""
    left_arcs, right_arcs = sides
    port: dict[tuple[int, int], float] = {}
    for w in range(1, len(xs)):
        for arcs, side in ((left_arcs[w], -1), (right_arcs[w], 1)):
            for k, (_, dep) in enumerate(sorted(arcs)):  # k = 0 (the shortest arc): furthest out
                port[(w, dep)] = xs[w] + side * s.port_step * (len(arcs) - k)
    return port


@dataclass(frozen=True)
class _Levels:
    """Where the arcs go: each dependent's level, each level's occupied intervals (arcs and their
    labels), and each dependent's ``(x_head, x_dep, label_x)``."""

    level_of: dict[int, int]
    occupied: list[list[tuple[float, float]]]
    arc_geom: dict[int, tuple[float, float, float]]


def _place_arcs(
    tree: DepTree,
    xs: Sequence[float],
    port: Mapping[tuple[int, int], float],
    label_w: Sequence[float],
    s: LayoutStyle,
) -> _Levels:
    """Shortest arcs first, each on the lowest level above the arcs it spans where it and its
    label fit; then root arrows (and heads pointing at themselves / out of range) the same way."""
    n = len(tree.tokens)
    order = sorted(
        (t for t in tree.tokens if 1 <= t.head <= n and t.head != t.id),
        key=lambda t: (abs(t.head - t.id), min(t.head, t.id)),
    )
    level_of: dict[int, int] = {}
    occupied: list[list[tuple[float, float]]] = [[]]  # per level, intervals
    placed: list[tuple[int, int, int]] = []  # (lo word, hi word, level)

    def fits(level: int, lo_x: float, hi_x: float) -> bool:
        while len(occupied) <= level:
            occupied.append([])
        return all(hi_x + s.label_gap <= a or b + s.label_gap <= lo_x for a, b in occupied[level])

    arc_geom: dict[int, tuple[float, float, float]] = {}  # dependent -> (x_head, x_dep, label_x)
    for t in order:
        i = t.id - 1
        h, d = t.head, t.id
        lo_w, hi_w = min(h, d), max(h, d)
        xh, xd = port[(h, d)], port[(d, d)]
        lo_x, hi_x = min(xh, xd), max(xh, xd)
        mid = (lo_x + hi_x) / 2
        occ_lo, occ_hi = min(lo_x, mid - label_w[i] / 2), max(hi_x, mid + label_w[i] / 2)
        base = 1
        for plo, phi, plev in placed:
            if lo_w <= plo and phi <= hi_w and plev >= base:
                base = plev + 1
        level = base
        while not fits(level, occ_lo, occ_hi):
            level += 1
        occupied[level].append((occ_lo, occ_hi))
        placed.append((lo_w, hi_w, level))
        level_of[d] = level
        arc_geom[d] = (xh, xd, mid)

    # root arrows (and heads pointing at themselves / out of range: drawn as roots)
    for t in tree.tokens:
        if 1 <= t.head <= n and t.head != t.id:
            continue
        i = t.id - 1
        xr = xs[t.id]
        base = 1
        for plo, phi, plev in placed:
            if (plo <= t.id <= phi) and plev >= base:
                base = plev + 1
        occ_lo, occ_hi = xr - label_w[i] / 2, xr + label_w[i] / 2
        level = base
        while not fits(level, occ_lo, occ_hi):
            level += 1
        occupied[level].append((occ_lo, occ_hi))
        level_of[t.id] = level
        arc_geom[t.id] = (xr, xr, xr)
    return _Levels(level_of, occupied, arc_geom)


def layout_dep(
    tree: DepTree,
    verdicts: Sequence[ArcVerdict] | None = None,
    *,
    rtl: bool | None = None,
    dimmed: Collection[int] = (),
    notes: Mapping[int, Sequence[str]] | None = None,
    tag: Literal["upos", "xpos", "none"] = "upos",
    grid: WordGrid | None = None,
    style: LayoutStyle = LayoutStyle(),
    highlighted: Collection[int] = (),
) -> DepLayout:
    """Lay out ``tree``; ``verdicts`` (one per token, in token order) mark each arc against a gold.

    ``dimmed``: token ids drawn faded (e.g. punctuation left out of the counts);
    ``notes``: extra text lines under a word (the NED page's verdicts);
    ``highlighted``: token ids drawn in a yellow box (e.g. the words of a construction);
    ``rtl``: ``None`` detects the direction from the words;
    ``grid``: minimum widths and steps (from :func:`merge_grids` over the
    layouts of other analyses of the sentence) so that the same word sits at
    the same x in every drawing; ignored if its length differs.

    The steps: the arcs on each side of a word, the word widths, the word centres, the ports,
    the arcs' levels; then everything mirrored for a right-to-left sentence.
    """
    n = len(tree.tokens)
    s = style
    notes = notes or {}
    dim = frozenset(dimmed)
    lit = frozenset(highlighted)
    if rtl is None:
        rtl = detect_rtl(tree)
    if verdicts is not None and len(verdicts) != n:
        raise ValueError(f"cannot compare sentence '{tree.label}' ({n} tokens) with {len(verdicts)} verdicts")
    statuses: list[tuple[ArcStatus, int | None, str | None]] = (
        [("plain", None, None)] * n
        if verdicts is None
        else [(v.status, v.gold_head, v.gold_label) for v in verdicts]
    )
    texts = [_label_text(t.deprel, statuses[i][2], statuses[i][0]) for i, t in enumerate(tree.tokens)]
    label_w = [text_width(x, s.label_size) + 2 * s.label_pad_x for x in texts]
    if grid is not None and len(grid.widths) != n:
        grid = None

    sides = _arc_sides(tree)
    widths = _word_widths(tree, sides, notes, tag, grid, s)
    xs, total_width = _word_centres(tree, widths, label_w, grid, s)
    placed = _place_arcs(tree, xs, _ports(xs, sides, s), label_w, s)
    level_of, arc_geom = placed.level_of, placed.arc_geom

    levels = max(level_of.values(), default=0)
    top = s.margin + s.label_size / 2 + s.label_pad_y
    base_y = top + levels * s.level_height + s.arrow
    max_notes = max((len(v) for v in notes.values()), default=0)

    # labels may stick out past the first or last word (a wide root label): shift, widen
    extents = [iv for lev in placed.occupied for iv in lev]
    lo_ext = min((a for a, _ in extents), default=s.margin)
    hi_ext = max((b for _, b in extents), default=0.0)
    lead = max(0.0, s.margin - lo_ext, grid.lead if grid is not None else 0.0)
    total_width = max(total_width + lead, hi_ext + lead + s.margin, grid.width if grid is not None else 0.0)

    def mirror(v: float) -> float:
        return total_width - (v + lead) if rtl else v + lead

    words = tuple(
        WordBox(
            t.id,
            t.form,
            _tag_of(t.upos, t.xpos, tag),
            mirror(xs[t.id]),
            widths[t.id],
            is_rtl_text(t.form),
            t.id in dim,
            tuple(notes.get(t.id, ())),
            t.id in lit,
        )
        for t in tree.tokens
    )
    arcs: list[ArcBox] = []
    for i, t in enumerate(tree.tokens):
        xh, xd, lx = arc_geom[t.id]
        status, g_head, g_label = statuses[i]
        level = level_of[t.id]
        arcs.append(
            ArcBox(
                dependent=t.id,
                head=t.head,
                label=t.deprel,
                text=texts[i],
                status=status,
                gold_head=g_head,
                gold_label=g_label,
                x_head=mirror(xh),
                x_dep=mirror(xd),
                level=level,
                y=base_y - s.arrow - level * s.level_height + s.level_height / 2,
                label_x=mirror(lx),
                label_width=label_w[i],
                dimmed=t.id in dim,
                vertical=not (1 <= t.head <= n and t.head != t.id),
            )
        )
    height = base_y + s.word_size + 4 + s.tag_size + 5 + max_notes * (s.note_size + 4) + s.margin
    return DepLayout(
        words=words,
        arcs=tuple(arcs),
        width=total_width,
        height=height,
        base_y=base_y,
        levels=levels,
        rtl=rtl,
        compared=verdicts is not None,
        sent_id=tree.sent_id,
        style=style,
        lead=lead,
    )


def _tag_of(upos: str, xpos: str, which: str) -> str:
    if which == "none":
        return ""
    if which == "xpos":
        return xpos if xpos != "_" else ""
    return upos if upos != "_" else (xpos if xpos != "_" else "")
