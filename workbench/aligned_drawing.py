"""One gold sentence and the words of a parse of the raw text that start in it, drawn one above the
other and aligned by characters (docs/app.md, "Parses of the raw text"): what each drawing is told,
read off the one character alignment (:func:`evalcore.metrics.conll18.align_words`), and where each
word goes so that words sharing characters stand above each other.

A gold word the parse did not produce and an extra word of the parse are drawn faded, with a note
that says which: a token the parse split (``part of 'cannot'``, under each piece), gold words it
merged (``merges can+not``), a word of one side inside a longer word of the other (``in
'sleeps.'``), or no counterpart at all.  A sentence boundary of the parse inside the gold sentence,
or a parse sentence that began in the previous gold sentence or goes on into the next, is a note on
the word where it happens.  The parse's arcs are coloured by the scorer's verdicts on the aligned
pairs (right, wrong head, wrong label); an arc of a word with no gold counterpart is a wrong head.
"""

from __future__ import annotations

from dataclasses import dataclass

from evalcore.metrics.conll18 import AlignedPair, AlignedWord, Alignment
from evalcore.render.layout import DepLayout, LayoutStyle, WordGrid, layout_dep, word_grid
from evalcore.trees import ArcVerdict, DepTree, Token, Verdict

__all__ = ["AlignedDrawing", "aligned_drawing", "aligned_layouts"]


@dataclass(frozen=True)
class AlignedDrawing:
    """The two trees of one gold sentence and what their drawings are told.

    ``system``: the parse's words that start in the gold sentence, numbered from 1 in document
    order (a head outside them is drawn as the root, with a note); ``blocks``: the words that share
    characters, gold ids and system ids, left to right."""

    gold: DepTree
    system: DepTree
    gold_notes: dict[int, tuple[str, ...]]
    system_notes: dict[int, tuple[str, ...]]
    verdicts: tuple[ArcVerdict, ...]
    gold_faded: frozenset[int]
    system_faded: frozenset[int]
    blocks: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


def _tree(words: tuple[AlignedWord, ...], heads: list[int], sent_id: str) -> DepTree:
    tokens = tuple(
        Token(k, w.form, w.lemma, w.upos, w.xpos, w.feats, h, w.deprel)
        for k, (w, h) in enumerate(zip(words, heads, strict=True), 1)
    )
    return DepTree(tokens, sent_id=sent_id)


def _overlapping(word: AlignedWord, others: tuple[AlignedWord, ...]) -> list[str]:
    return [o.form for o in others if o.start < word.end and word.start < o.end]


def _gold_note(word: AlignedWord, system: tuple[AlignedWord, ...]) -> str:
    forms = _overlapping(word, system)
    if not forms:
        return "not in the parse"
    return f"in '{forms[0]}'" if len(forms) == 1 else "split: " + " ".join(forms)


def _system_note(word: AlignedWord, gold: tuple[AlignedWord, ...]) -> str:
    forms = _overlapping(word, gold)
    if not forms:
        return "extra word"
    return f"part of '{forms[0]}'" if len(forms) == 1 else "merges " + "+".join(forms)


def _verdict(pair: AlignedPair | None, gold_head: int, gold_label: str) -> ArcVerdict:
    if pair is None:
        return ArcVerdict("wrong-head", 0, "(no gold word)")
    status: Verdict = "correct" if pair.las else "wrong-label" if pair.uas else "wrong-head"
    return ArcVerdict(status, gold_head, gold_label)


def _blocks(
    gold: tuple[AlignedWord, ...], system: tuple[AlignedWord, ...]
) -> list[tuple[list[int], list[int]]]:
    """Words that share characters, left to right (1-based positions in each row)."""
    items = sorted(
        [(w.start, w.end, 0, k) for k, w in enumerate(gold, 1)]
        + [(w.start, w.end, 1, k) for k, w in enumerate(system, 1)]
    )
    blocks: list[tuple[list[int], list[int]]] = []
    end = -1
    for start, stop, row, k in items:
        if start >= end:
            blocks.append(([], []))
        blocks[-1][row].append(k)
        end = max(end, stop)
    return blocks


def aligned_drawing(alignment: Alignment, index: int) -> AlignedDrawing:
    """What the drawings of gold sentence ``index`` and of the parse's words in it are told."""
    sentence = alignment.sentences[index]
    gold, system = sentence.gold, sentence.system
    by_system = {p.system: p for p in sentence.pairs}
    by_gold = {p.gold: p for p in sentence.pairs}
    place = {(w.sentence, w.id): k for k, w in enumerate(system, 1)}
    gold_place = {w.index: k for k, w in enumerate(gold, 1)}
    system_place = {w.index: k for k, w in enumerate(system, 1)}

    gold_notes: dict[int, tuple[str, ...]] = {}
    for k, w in enumerate(gold, 1):
        if w.index not in by_gold:
            gold_notes[k] = (_gold_note(w, system),)

    system_notes: dict[int, list[str]] = {}
    heads: list[int] = []
    verdicts: list[ArcVerdict] = []
    for k, w in enumerate(system, 1):
        notes = system_notes.setdefault(k, [])
        head = 0 if w.head == 0 else place.get((w.sentence, w.head), -1)
        if head < 0:
            notes.append("head in another gold sentence")
            head = 0
        heads.append(head)
        pair = by_system.get(w.index)
        if pair is None:
            notes.append(_system_note(w, gold))
            verdicts.append(_verdict(None, 0, ""))
        else:
            g = _gold_word(sentence.gold, pair.gold)
            gold_head = 0 if g.head == 0 else _aligned_place(gold[g.head - 1], by_gold, system_place)
            verdicts.append(_verdict(pair, gold_head, g.deprel))
        if k > 1 and system[k - 2].sentence != w.sentence:
            notes.append("the parse starts a sentence")
    _boundary_notes(alignment, index, system_notes)

    return AlignedDrawing(
        _tree(gold, [w.head for w in gold], sentence.sent_id or f"#{index + 1}"),
        _tree(system, heads, sentence.sent_id or f"#{index + 1}"),
        gold_notes,
        {k: tuple(v) for k, v in system_notes.items() if v},
        tuple(verdicts),
        frozenset(gold_place[w.index] for w in gold if w.index not in by_gold),
        frozenset(system_place[w.index] for w in system if w.index not in by_system),
        tuple((tuple(g), tuple(s)) for g, s in _blocks(gold, system)),
    )


def _gold_word(gold: tuple[AlignedWord, ...], index: int) -> AlignedWord:
    """The gold word of the sentence with the document position ``index``."""
    return gold[index - gold[0].index]


def _aligned_place(head: AlignedWord, by_gold: dict[int, AlignedPair], system_place: dict[int, int]) -> int:
    """Where the gold head's aligned word is drawn in the parse's row (-1: nowhere)."""
    pair = by_gold.get(head.index)
    return -1 if pair is None else system_place.get(pair.system, -1)


def _boundary_notes(alignment: Alignment, index: int, notes: dict[int, list[str]]) -> None:
    """A parse sentence that began in the previous gold sentence, or goes on into the next."""
    system = alignment.sentences[index].system
    if not system:
        return
    before = alignment.sentences[index - 1].system if index > 0 else ()
    after = alignment.sentences[index + 1].system if index + 1 < len(alignment.sentences) else ()
    if before and before[-1].sentence == system[0].sentence:
        notes.setdefault(1, []).append("its sentence began before")
    if after and after[0].sentence == system[-1].sentence:
        notes.setdefault(len(system), []).append("its sentence goes on")


def _layout(d: AlignedDrawing, row: int, grid: WordGrid | None, style: LayoutStyle) -> DepLayout:
    if row == 0:
        return layout_dep(d.gold, notes=d.gold_notes, dimmed=d.gold_faded, grid=grid, style=style)
    return layout_dep(
        d.system, d.verdicts, notes=d.system_notes, dimmed=d.system_faded, grid=grid, style=style
    )


def _centres(d: AlignedDrawing, grids: list[WordGrid], style: LayoutStyle) -> list[dict[int, float]]:
    """Each word's centre, block by block: a block starts where every row's natural step from its
    last word allows it and past the previous block; inside it, each row keeps its own steps."""
    xs: list[dict[int, float]] = [{}, {}]
    frontier = 0.0
    for block in d.blocks:
        start = frontier + max(grids[r].widths[ids[0] - 1] / 2 for r, ids in enumerate(block) if ids)
        for r, ids in enumerate(block):
            if ids and xs[r]:
                prev = max(xs[r])
                start = max(start, xs[r][prev] + sum(grids[r].steps[prev - 1 : ids[0] - 1]))
        for r, ids in enumerate(block):
            x = start
            for k in ids:
                if k != ids[0]:
                    x += grids[r].steps[k - 2]
                xs[r][k] = x
        frontier = max(
            xs[r][ids[-1]] + grids[r].widths[ids[-1] - 1] / 2 + style.word_gap
            for r, ids in enumerate(block)
            if ids
        )
    return xs


def aligned_layouts(drawing: AlignedDrawing, style: LayoutStyle | None = None) -> tuple[DepLayout, DepLayout]:
    """The gold's and the parse's layouts, words that share characters above each other (each block
    of such words starts at one x in both rows; no two words closer than their own layout wants)."""
    style = style or LayoutStyle()
    natural = [_layout(drawing, r, None, style) for r in (0, 1)]
    if not drawing.system.tokens or not drawing.gold.tokens:
        return natural[0], natural[1]
    grids = [word_grid(lay) for lay in natural]
    xs = _centres(drawing, grids, style)
    # word 1 of a row is drawn at lead + margin + its half width: one shift that leaves room for
    # what sticks out on the left in both rows
    first = [lay.lead + style.margin + g.widths[0] / 2 for lay, g in zip(natural, grids, strict=True)]
    base = max(first[r] - xs[r][1] for r in (0, 1))
    width = 0.0
    for _ in range(2):  # a second pass gives both the wider one's width (right-to-left mirrors in it)
        lays = []
        for r, g in enumerate(grids):
            steps = tuple(xs[r][k + 1] - xs[r][k] for k in range(1, len(g.widths)))
            lead = base + xs[r][1] - (style.margin + g.widths[0] / 2)
            lays.append(_layout(drawing, r, WordGrid(g.widths, steps, lead, width), style))
        if lays[0].width == lays[1].width:
            break
        width = max(lay.width for lay in lays)
    return lays[0], lays[1]
