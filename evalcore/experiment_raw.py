"""Parses of raw text in the cross-scheme experiment (docs/rawtext.md): which parses are, and their
cells -- TedEval on the blocks of the CoNLL 2018 character alignment against every gold and every
generalization of their own scheme, UAS/LAS as the CoNLL 2018 scorer's aligned F1.

Each cell's per-sentence ``(x, n)`` pairs are those of the gold sentences the experiment kept: a
block's pair goes to its first kept gold sentence (docs/rawtext.md, "Sentences for the tests"), so
the paired tests and the bootstrap compare parses sentence by sentence as for any other parse.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

from evalcore.choices import PROTOCOL_2012
from evalcore.conversion import ConversionConfig, to_span_tree
from evalcore.errors import InputFormatError
from evalcore.formats._io import InMemoryText, InputSource
from evalcore.formats.conllu import write_conllu
from evalcore.inspection import OpMark
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.metrics.conll18 import Alignment, align_words
from evalcore.metrics.rawtext import (
    SENTENCE_NODE,
    Block,
    BlockTed,
    BlockTrees,
    Layout,
    RawOp,
    SideCache,
    SideSentence,
    block_sides,
    block_ted,
    blocks_of,
    score_blocks,
    word_chars,
)
from evalcore.trees import DepTree, EditOp, SpanTree, Tree

__all__ = [
    "SENTENCE_NODE",
    "BlockMark",
    "BlockReport",
    "RawParse",
    "RawSentence",
    "aligned_attachment",
    "block_of",
    "inspect_block",
    "is_raw",
    "raw_cells",
    "source_of",
    "surface",
]

AnyTree = DepTree | Tree


@dataclass(frozen=True, slots=True)
class RawParse:
    """A parse of raw text: its name, its scheme, its trees and where to read it for the alignment."""

    name: str
    scheme: str
    trees: tuple[DepTree, ...]
    source: InputSource
    source_name: str


@dataclass(frozen=True, slots=True)
class RawSentence:
    """What ``--per-sentence`` says of one block of a parse of raw text against one target: its
    gold and parse sentences (0-based), the path it took, δ and the normalizer, and how many of its
    operations come from segmentation."""

    parse: str
    against: str
    labeled: bool
    gold: tuple[int, ...]
    sentences: tuple[int, ...]
    path: str
    delta: int
    norm: int
    segmentation: int
    ops: tuple[RawOp, ...] = field(default=(), repr=False)  # the block's script (the atlas groups it)


def surface(tree: DepTree) -> str:
    """The sentence's characters as its tokens spell them, without spaces: a multiword token's form
    (``3-4 au``) in place of its words' (the characters the CoNLL 2018 alignment compares)."""
    ranges: dict[int, tuple[int, str]] = {}
    for e in tree.extras:
        if e.is_range:
            lo, _, hi = e.id.partition("-")
            if lo.isdigit() and hi.isdigit():
                ranges[int(lo)] = (int(hi), e.form)
    out, skip_to = [], 0
    for t in tree.tokens:
        if t.id <= skip_to:
            continue
        if t.id in ranges:
            skip_to, form = ranges[t.id]
            out.append(form)
        else:
            out.append(t.form)
    return "".join("".join(out).split())


def is_raw(gold: Iterable[AnyTree], parse: Iterable[AnyTree]) -> bool:
    """Whether ``parse`` is a parse of raw text (docs/rawtext.md): dependency trees whose sentences
    or words are not the gold's, over the same characters.  The files are read in step to their
    first difference: a parse that only ends early, or whose words spell other characters, is not
    (the experiment then reports the mismatch as before); at a difference, the rest of both files
    is read to compare their characters."""
    g_it: Iterator[AnyTree] = iter(gold)
    p_it: Iterator[AnyTree] = iter(parse)
    g_text: list[str] = []
    p_text: list[str] = []
    while True:
        g, p = next(g_it, None), next(p_it, None)
        if g is None or p is None:
            return False  # the same sentences to the end, or one file ends early: not raw text
        if not isinstance(g, DepTree) or not isinstance(p, DepTree):
            return False
        if len(g.tokens) != len(p.tokens) or any(
            a.form != b.form for a, b in zip(g.tokens, p.tokens, strict=True)
        ):
            break
        g_text.append(surface(g))
        p_text.append(surface(p))
    for it, text, first in ((g_it, g_text, g), (p_it, p_text, p)):
        text.append(surface(first))
        for t in it:
            if not isinstance(t, DepTree):
                return False
            text.append(surface(t))
    return "".join(g_text) == "".join(p_text)


def source_of(trees: Sequence[DepTree], path: str, data: bytes | None = None) -> InputSource:
    """What the alignment reads: the file's bytes held in memory, else the file, else the trees
    written as CoNLL-U."""
    if data is not None:
        return data
    return path if path else InMemoryText(write_conllu(trees))


def _to_kept(
    blocks: Sequence[BlockTed], kept: Sequence[int], pair: Callable[[BlockTed], tuple[float, float]]
) -> tuple[tuple[float, float], ...]:
    """Each kept gold sentence's pair: the sum of the blocks whose first kept gold sentence it is."""
    at = {g: k for k, g in enumerate(kept)}
    out = [[0.0, 0.0] for _ in kept]
    for b in blocks:
        first = next((at[g] for g in b.gold if g in at), None)
        if first is not None:
            x, n = pair(b)
            out[first][0] += x
            out[first][1] += n
    return tuple((x, n) for x, n in out)


def aligned_attachment(
    alignment: Alignment,
    gold: Sequence[DepTree],
    parse: Sequence[DepTree],
    links: Mapping[tuple[int, int], tuple[int, int]],
    deprel_base: bool,
) -> list[tuple[int, int, int]]:
    """Per gold sentence of the alignment: the aligned words whose parse head is the gold head
    (both roots, or the parse head aligned to the gold head: the CoNLL 2018 scorer's UAS), those
    with the relation too (LAS: by its universal part, as the scorer, with ``deprel_base``; else
    whole), and its gold words plus the parse words that start in it (the F1's denominator,
    ``2·correct / (gold + system)``).  ``gold`` may be any gold of the same words (another
    scheme's): one alignment serves every gold."""
    out = []
    for s in alignment.sentences:
        uas = las = 0
        for w in s.system:
            ref = links.get((w.sentence, w.id - 1))
            if ref is None:
                continue
            g = gold[ref[0]].tokens[ref[1]]
            p = parse[w.sentence].tokens[w.id - 1]
            if p.head == 0:
                ok = g.head == 0
            else:
                ok = g.head != 0 and links.get((w.sentence, p.head - 1)) == (ref[0], g.head - 1)
            uas += ok
            las += ok and (
                p.deprel == g.deprel
                or (deprel_base and p.deprel.split(":", 1)[0] == g.deprel.split(":", 1)[0])
            )
        out.append((uas, las, len(s.gold) + len(s.system)))
    return out


def raw_cells(
    raw: RawParse,
    golds: Mapping[str, tuple[Sequence[DepTree], InputSource, str]],
    conversion: ConversionConfig,
    kept: Sequence[int],
    *,
    sentence_average: bool,
    limits: Limits = DEFAULT_LIMITS,
    converted: dict[tuple[int, bool], SpanTree] | None = None,
    deprel_base: Mapping[str, bool],
) -> tuple[dict[tuple[str, str], tuple[tuple[float, float], ...]], tuple[RawSentence, ...]]:
    """The pairs of every cell of one parse of raw text, keyed by (against, metric), and every
    block's record.  ``golds``: each scheme's trees, source and name (in scheme order);
    ``deprel_base``: the schemes whose LAS compares the universal part of the relations
    (:meth:`evalcore.experiment.ExperimentConfig.base_of`).
    ``converted`` keeps the function trees across parses of the same golds (keyed by the trees'
    identities: every tree must outlive it)."""
    if conversion.protocol != PROTOCOL_2012:
        raise InputFormatError(
            f"'{raw.name}' is a parse of the raw text (its words are not the gold's), which the 2011 "
            "protocol cannot score (docs/rawtext.md): use --protocol 2012",
            file=raw.source_name,
        )
    schemes = list(golds)
    cells: dict[tuple[str, str], tuple[tuple[float, float], ...]] = {}
    records: list[RawSentence] = []
    _, own_src, own_name = golds[raw.scheme]
    alignment = align_words(
        own_src, raw.source, gold_name=own_name, system_name=raw.source_name, limits=limits, deprel_base=False
    )
    blocks, chars = blocks_of(alignment), word_chars(alignment)
    conv = {s: conversion.for_scheme(s) for s in schemes}
    trees = {s: (golds[s][0], conv[s]) for s in schemes}
    memo: dict[tuple[int, bool], SpanTree] = {} if converted is None else converted
    sides: SideCache = {}  # and the parse's side of each block
    sentences: dict[tuple[int, int], SideSentence] = {}  # and each side's sentences
    targets: list[tuple[str, ...]] = [(s,) for s in schemes]
    targets += [c for k in range(2, len(schemes) + 1) for c in combinations(schemes, k) if raw.scheme in c]
    links = {k: v for b in blocks for k, v in b.links.items()}
    for target in targets:
        against = "+".join(target)
        # each block's trees and its sides laid out, for labeled and unlabeled
        prepared: dict[tuple[tuple[int, ...], tuple[int, ...]], BlockTrees] = {}
        layouts: dict[Hashable, Layout] = {}
        if len(target) == 1:
            per = aligned_attachment(alignment, golds[target[0]][0], raw.trees, links, deprel_base[target[0]])
            for metric, col in (("UAS", 0), ("LAS", 1)):
                cells[(against, metric)] = tuple((2.0 * per[i][col], float(per[i][2])) for i in kept)
        for labeled, metric in ((False, "U-TED"), (True, "L-TED")):
            got = score_blocks(
                blocks,
                raw.trees,
                conv[raw.scheme],
                trees,
                raw.scheme,
                target,
                chars,
                labeled=labeled,
                limits=limits,
                cache=memo,
                sides=sides,
                prepared=prepared,
                side_cache=sentences,
                layouts=layouts,
            )
            if sentence_average:
                cells[(against, metric)] = _to_kept(got, kept, lambda b: (b.score, 1.0))
            else:
                cells[(against, metric)] = _to_kept(got, kept, lambda b: (float(b.delta), float(b.norm)))
            for b in got:
                seg = sum(o.segmentation for o in b.ops)
                records.append(
                    RawSentence(
                        raw.name, against, labeled, b.gold, b.parse, b.path, b.delta, b.norm, seg, b.ops
                    )
                )
    return cells, tuple(records)


# ---------------------------------------------------------------------------- one block, for a drawing


@dataclass(frozen=True, slots=True)
class BlockMark:
    """One operation of a block's script placed on a drawing: ``mark`` (an :class:`EditOp` over the
    words of its sentence, whether it is discounted, ``on`` the parse or the target, and its node in
    that sentence's multi-function tree: 0 for a sentence node), ``position`` the sentence's place
    among its side's sentences of the block, and the operation as scored (``raw``: its sentence in
    its file and whether it comes from segmentation)."""

    mark: OpMark
    position: int
    raw: RawOp

    @property
    def segmentation(self) -> bool:
        return self.raw.segmentation


@dataclass(frozen=True, slots=True)
class BlockReport:
    """What a drawing of one block's edit script needs (docs/rawtext.md): the block (its gold and
    parse sentences, 0-based in their files, and the aligned words), the parse's sentences and the
    own gold's as scored, the target's tree of each gold sentence, every scheme's gold function
    trees of those sentences (converted as the block was: what each gold has on a span), the
    script (:class:`~evalcore.metrics.rawtext.BlockTed`: δ, the normalizer, the displaced words)
    and each operation's mark.  ``own``: the parse's scheme; ``target``: one scheme, or several
    (their generalization, discounted with ``own``)."""

    block: Block
    parse: tuple[SideSentence, ...]
    own_gold: tuple[SideSentence, ...]
    target_trees: tuple[SpanTree, ...]
    golds: tuple[tuple[str, tuple[SpanTree, ...]], ...]
    own: str
    target: tuple[str, ...]
    labeled: bool
    ted: BlockTed
    marks: tuple[BlockMark, ...]

    @property
    def against(self) -> str:
        return "+".join(self.target)

    @property
    def segmentation(self) -> int:
        """How many operations come from segmentation."""
        return sum(m.segmentation for m in self.marks)

    def on(self, side: str, position: int) -> tuple[tuple[int, BlockMark], ...]:
        """The marks drawn on one sentence's tree (``side`` "parse" or "general"), each with its
        index in :attr:`marks`."""
        return tuple((k, m) for k, m in enumerate(self.marks) if m.mark.on == side and m.position == position)


def block_of(blocks: Sequence[Block], gold_index: int) -> Block:
    """The block that holds gold sentence ``gold_index`` (0-based); ``ValueError`` if none does."""
    for b in blocks:
        if gold_index in b.gold:
            return b
    raise ValueError(f"no block holds gold sentence {gold_index + 1}")


def _mark(op: RawOp, tree: SpanTree, position: int) -> BlockMark:
    """``op`` placed on its sentence's tree (its node found by its span, as
    :func:`evalcore.inspection.mark_operations` finds it; a sentence node on the top node)."""
    mf = tree.to_mftree()
    on = "general" if op.side == "target" else "parse"
    if op.sentence_node:
        edit = EditOp(op.kind, SENTENCE_NODE, frozenset(range(len(tree.words))))
        return BlockMark(OpMark(edit, op.discounted, on, 0), position, op)
    node = next((i for i in mf.internal() if i != 0 and mf.spans[i] == op.span), -1)
    return BlockMark(OpMark(EditOp(op.kind, op.label, op.span), op.discounted, on, node), position, op)


def inspect_block(
    alignment: Alignment,
    gold_index: int,
    parse: Sequence[DepTree],
    golds: Mapping[str, Sequence[DepTree]],
    own: str,
    target: Sequence[str],
    conversion: ConversionConfig,
    *,
    labeled: bool,
    blocks: Sequence[Block] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> BlockReport:
    """The block of gold sentence ``gold_index`` and its edit script against ``target`` (one scheme,
    or several containing ``own``), scored as the experiment scores it (:func:`raw_cells`:
    :func:`~evalcore.metrics.rawtext.block_sides` and :func:`~evalcore.metrics.rawtext.block_ted`),
    with what a drawing needs (:class:`BlockReport`).  ``alignment``: the parse ``parse`` aligned with
    ``own``'s gold (:func:`~evalcore.metrics.conll18.align_words`); ``golds``: every scheme's gold
    trees (the same sentences and words); ``blocks``: :func:`~evalcore.metrics.rawtext.blocks_of`
    ``alignment``, when the caller keeps them.  Pure: no drawing is made here."""
    block = block_of(blocks if blocks is not None else blocks_of(alignment), gold_index)
    conv = {s: conversion.for_scheme(s) for s in golds}
    trees = {s: (golds[s], conv[s]) for s in golds}
    chars = word_chars(alignment)
    p_side, o_side, t_side = block_sides(block, parse, conv[own], trees, own, tuple(target), chars)
    ted = block_ted(block, p_side, o_side, t_side, labeled=labeled, limits=limits)
    lift = ted.path == "general"

    def convert(tree: DepTree, c: ConversionConfig) -> SpanTree:
        return to_span_tree(tree, replace(c, projectivize=True) if lift else c)

    every = tuple((s, tuple(convert(golds[s][j], conv[s]) for j in block.gold)) for s in golds)
    marks = []
    for op in ted.ops:
        if op.side == "parse":
            k = block.parse.index(op.sentence)
            marks.append(_mark(op, p_side[k].st, k))
        else:
            k = block.gold.index(op.sentence)
            marks.append(_mark(op, t_side[k], k))
    return BlockReport(
        block,
        tuple(p_side),
        tuple(o_side),
        tuple(t_side),
        every,
        own,
        tuple(target),
        labeled,
        ted,
        tuple(marks),
    )
