"""Cross-scheme TedEval for a parse of raw text (docs/rawtext.md): EACL 2012's generalization and
discount over ACL 2012's general tree edit distance, the terminals anchored through the CoNLL 2018
character alignment (``evalcore.metrics.conll18.align_words``, the one alignment of raw text).

A *block* is the smallest group of gold and parse sentences that the parse's words tie together
(:func:`blocks_of`).  Each side of a block is one ordered tree (a root, a node per sentence, under
it the sentence's function tree); :func:`block_ted` scores a parse block against a target (a gold,
or a generalization with the parse's own gold for the discount).  A block of one sentence a side
with the same words takes the words path (:func:`evalcore.metrics.tedeval.sentence_ted`), which the
general path equals there (tested).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Literal, NamedTuple

from evalcore.choices import PROTOCOL_2012
from evalcore.conversion import ConversionConfig, is_projective, to_span_tree
from evalcore.generalization import generalize_all
from evalcore.limits import DEFAULT_LIMITS, Limits, format_size
from evalcore.metrics.conll18 import Alignment
from evalcore.metrics.lattice_tedeval import ted_memory_estimate
from evalcore.metrics.tedeval import sentence_ted
from evalcore.ted.general import OrderedTree, PreparedTree, prepare_tree, ted_block, ted_mapping
from evalcore.ted.spans import edit_script, size
from evalcore.trees import DepTree, Span, SpanTree, span_head

__all__ = [
    "SENTENCE_NODE",
    "Block",
    "BlockNode",
    "BlockTed",
    "BlockTrees",
    "Layout",
    "RawOp",
    "SideCache",
    "SideSentence",
    "block_sides",
    "block_ted",
    "blocks_of",
    "score_blocks",
    "side_sentence",
    "word_chars",
]

SENTENCE_NODE = "<sentence>"
"""The label a sentence node's operation is listed and drawn with (it has no label of its own)."""

WordRef = tuple[int, int]  # (sentence index in its file, 0-based position)


@dataclass(frozen=True, slots=True)
class SideSentence:
    """One sentence of one side of a block: its sentence index in its file, its dependency tree (for
    the heads of spans: the anchors that settle ties), its function tree, and each word's characters
    in the document's text (a multiword token's for each of its words)."""

    index: int
    tree: DepTree
    st: SpanTree
    chars: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Block:
    """Gold and parse sentences (indices in their files) tied together by the parse's words, and
    each aligned parse word's gold word."""

    gold: tuple[int, ...]
    parse: tuple[int, ...]
    links: Mapping[WordRef, WordRef]


@dataclass(frozen=True, slots=True)
class RawOp:
    """One operation of a block's script: a node deleted from the parse or inserted from the target,
    with its sentence (in its own file), its words there (empty for a sentence node) and label
    (unlabeled: ``""``), whether it comes from segmentation (docs/rawtext.md, "Segmentation or
    attachment") and whether it is discounted."""

    kind: Literal["del", "ins"]
    side: Literal["parse", "target"]
    sentence: int
    span: Span
    label: str
    sentence_node: bool
    segmentation: bool
    discounted: bool


@dataclass(frozen=True, slots=True)
class BlockTed:
    """A block's δ (operations not discounted) and normalizer (``|p| + |G|``), its script, and the
    path it took: ``words`` (the same words: span arithmetic) or ``general``."""

    delta: int
    norm: int
    ops: tuple[RawOp, ...]
    gold: tuple[int, ...]
    parse: tuple[int, ...]
    path: Literal["words", "general"]
    displaced_parse: frozenset[WordRef] = frozenset()  # the displaced words (docs/rawtext.md,
    displaced_gold: frozenset[WordRef] = frozenset()  # "Segmentation or attachment"), by (sentence, position)

    @property
    def score(self) -> float:
        return 1.0 - self.delta / self.norm if self.norm else 1.0


def blocks_of(alignment: Alignment) -> tuple[Block, ...]:
    """The blocks of a character alignment (docs/rawtext.md, "Blocks"): a gold sentence and a parse
    sentence share a block when a word of the parse sentence starts inside the gold sentence."""
    gold_ref: dict[int, WordRef] = {}
    parse_ref: dict[int, WordRef] = {}
    owner: dict[int, int] = {}  # parse sentence -> the first gold sentence it touches
    groups: list[tuple[list[int], list[int]]] = []
    for s in alignment.sentences:
        for w in s.gold:
            gold_ref[w.index] = (w.sentence, w.id - 1)
        for w in s.system:
            parse_ref[w.index] = (w.sentence, w.id - 1)
        touched = sorted({w.sentence for w in s.system})
        merge = [owner[p] for p in touched if p in owner]
        if merge and groups and groups[-1][0][0] <= min(merge):
            groups[-1][0].append(s.index)
        else:
            groups.append(([s.index], []))
        for p in touched:
            if p not in owner:
                owner[p] = groups[-1][0][0]
                groups[-1][1].append(p)
    links: dict[WordRef, WordRef] = {}
    for s in alignment.sentences:
        for w in s.system:
            if w.aligned is not None and w.aligned in gold_ref:
                links[parse_ref[w.index]] = gold_ref[w.aligned]
    by_sentence: dict[int, dict[WordRef, WordRef]] = {}
    for k, v in links.items():
        by_sentence.setdefault(k[0], {})[k] = v
    out = []
    for golds, parses in groups:
        mine = {k: v for p in parses for k, v in by_sentence.get(p, {}).items()}
        out.append(Block(tuple(golds), tuple(sorted(parses)), mine))
    return tuple(out)


# ---------------------------------------------------------------------------- the block's trees


class BlockNode(NamedTuple):
    """What one node of a block's tree is: its sentence's place in the block, its span and label
    (a named tuple, not a dataclass: a block's trees are built for every target, node by node)."""

    sentence: int  # position of the sentence in the block's list (-1: the root)
    span: Span
    label: str
    kind: Literal["root", "sentence", "node"]


BlockTrees = tuple[list[SideSentence], list[SideSentence], list[SpanTree]]
"""A block's parse sentences, own gold sentences and target trees (:func:`block_sides`)."""


@dataclass(frozen=True, slots=True)
class _ParseSide:
    """The parse's side of a block as every target meets it (docs/rawtext.md, "Time"): its tree
    prepared, what each node is, its sentences' nodes counted (``|p|``), and what the targets'
    scripts have asked of it so far: each deleted node's discount key (:func:`_del_key`), each
    deletion's operation (the same node deleted against several targets is one value) and each
    insertion's (a gold node inserted against several targets)."""

    prepared: PreparedTree
    nodes: list[BlockNode]
    norm: int
    del_keys: dict[int, tuple[int, tuple[str, str, Span]] | None]
    del_ops: dict[tuple[int, bool, bool], RawOp]
    ins_ops: dict[tuple[int, Span, str, bool, bool, bool], RawOp]


SideCache = dict[tuple[tuple[int, ...], bool], _ParseSide]
"""The parse's side of each block (its sentences, labeled), built once for every target."""


_Item = tuple[int, int, Hashable, Hashable, frozenset[str], Span]
"""One span of a sentence laid out (:func:`_layout`): first and last word, match key without its
label, anchor, labels, the span."""

Layout = list[tuple[Span, Hashable, list[_Item]]]
"""A side of a block laid out, sentence by sentence: the sentence's words, its anchor, its spans in
preorder (:func:`_layout`); the same for its labeled and unlabeled trees."""


def _layout(
    sentences: Sequence[tuple[SpanTree, DepTree, tuple[tuple[int, int], ...]]],
    refs: Sequence[Sequence[Hashable | None]],
    side: str,
) -> Layout:
    """What each span of each sentence is matched by and anchored to (docs/rawtext.md, "Trees"):
    ``refs[k][i]`` is the gold word that word ``i`` of sentence ``k`` is (or is aligned with;
    ``None``: none).  A terminal matches only the terminal of the same gold word; a node whose words
    all have one matches only a node of the same gold words (EACL 2012 §5.3: over the same words a
    node is its span); any other node only another such node (ACL 2012: by its label).  The anchor
    (ties only) is the span's characters and its head's.  The trees are projectivized (docs/rawtext.md,
    "Trees"): every span is contiguous and the spans come in preorder, else ``ValueError``."""
    out: Layout = []
    for k, (st, dep, chars) in enumerate(sentences):
        full = frozenset(range(len(st.words)))
        # the words' characters rise with their positions (all known): a span's are its ends'
        ends = all(c[0] >= 0 for c in chars) and all(
            a[0] <= b[0] and a[1] <= b[1] for a, b in pairwise(chars)
        )
        mine = refs[k]
        items: list[_Item] = []
        last = (-1, 0)
        for span, labels in st.items:
            if span == full:
                continue
            lo, hi, size = min(span), max(span), len(span)
            if hi - lo + 1 != size or (lo, -size) <= last:
                raise ValueError(
                    f"the general path takes projectivized trees: span {sorted(span)} of sentence {k}"
                )
            last = (lo, -size)
            head = span_head(dep, span)
            hc = chars[head - 1] if 1 <= head <= len(chars) else (-1, -1)
            if ends:
                anchor: Hashable = (chars[lo][0], chars[hi][1], hc)
            else:
                anchor = (min(chars[w][0] for w in span), max(chars[w][1] for w in span), hc)
            if lo == hi:
                r = mine[lo]
                ident: Hashable = ("w", r) if r is not None else (side, k, lo)
            else:
                image = mine[lo : hi + 1]
                ident = ("n", frozenset(image)) if None not in image else ("n", "open")
            items.append((lo, hi, ident, anchor, labels, span))
        out.append((full, ("s", chars[0][0] if chars else -1, chars[-1][1] if chars else -1), items))
    return out


def _assemble(layout: Layout, labeled: bool) -> tuple[OrderedTree, list[BlockNode]]:
    """A side laid out as one ordered tree (preorder): a root, a node per sentence, under it the
    sentence's spans (labeled: one node per label, one above the other; a span without a label is
    no node), and what each node is."""
    keys: list[Hashable] = [("R",)]
    anchors: list[Hashable] = [("R",)]
    children: list[list[int]] = [[]]
    nodes: list[BlockNode] = [BlockNode(-1, frozenset(), "", "root")]
    for k, (full, sentence_anchor, items) in enumerate(layout):
        sent = len(keys)
        keys.append(("s",))
        anchors.append(sentence_anchor)
        children.append([])
        children[0].append(sent)
        nodes.append(BlockNode(k, full, "", "sentence"))
        stack: list[tuple[int, int]] = []  # (last word, its lowest node)
        for lo, hi, ident, anchor, labels, span in items:
            if labeled and not labels:
                continue
            while stack and stack[-1][0] < lo:
                stack.pop()
            up = stack[-1][1] if stack else sent
            for label in (sorted(labels) if len(labels) > 1 else labels) if labeled else ("",):
                at = len(keys)
                keys.append((ident, label))
                anchors.append(anchor)
                children.append([])
                children[up].append(at)
                nodes.append(BlockNode(k, span, label, "node"))
                up = at
            stack.append((hi, up))
    return OrderedTree(tuple(keys), tuple(tuple(c) for c in children), tuple(anchors)), nodes


def _side_tree(
    sentences: Sequence[tuple[SpanTree, DepTree, tuple[tuple[int, int], ...]]],
    refs: Sequence[Sequence[Hashable | None]],
    side: str,
    labeled: bool,
    layout: Layout | None = None,
) -> tuple[OrderedTree, list[BlockNode]]:
    """One side of a block as an ordered tree (preorder), and what each node is (:func:`_layout`,
    :func:`_assemble`; ``layout``: the side laid out already)."""
    return _assemble(layout if layout is not None else _layout(sentences, refs, side), labeled)


# ---------------------------------------------------------------------------- scoring


def _same_words(block: Block, parse: SideSentence, gold: SideSentence) -> bool:
    n = len(gold.st.words)
    if len(parse.st.words) != n:
        return False
    g = gold.index
    return all(block.links.get((parse.index, i)) == (g, i) for i in range(n))


def _words_path(
    block: Block, parse: SideSentence, own: SideSentence, target: SpanTree, labeled: bool
) -> BlockTed:
    t = sentence_ted(parse.st, own.st, target, labeled=labeled)
    left = list(t.discounted)
    ops = []
    for op in t.script:
        disc = op in left
        if disc:
            left.remove(op)
        side: Literal["parse", "target"] = "target" if op.kind == "ins" else "parse"
        kind: Literal["del", "ins"] = "ins" if op.kind == "ins" else "del"
        sentence = own.index if side == "target" else parse.index
        ops.append(RawOp(kind, side, sentence, op.span, op.label, False, False, disc))
    return BlockTed(t.delta, t.norm, tuple(ops), block.gold, block.parse, "words")


def _laid(
    layouts: dict[Hashable, Layout] | None,
    key: Hashable,
    sentences: Sequence[tuple[SpanTree, DepTree, tuple[tuple[int, int], ...]]],
    refs: Sequence[Sequence[Hashable | None]],
    side: str,
) -> Layout:
    """:func:`_layout`, kept in ``layouts`` under ``key`` (laid out once for labeled and unlabeled)."""
    if layouts is not None and key in layouts:
        return layouts[key]
    laid = _layout(sentences, refs, side)
    if layouts is not None:
        layouts[key] = laid
    return laid


def _displaced(
    block: Block,
    parse: Sequence[SideSentence],
    gold_pos: Mapping[int, int],
    sent_map: Mapping[int, int],
    golds: int,
) -> tuple[list[set[int]], list[set[int]]]:
    """The displaced words of each parse sentence and the placed words of each gold sentence (by
    their places in the block; docs/rawtext.md, "Segmentation or attachment"): a parse word is
    displaced when it is not aligned, or when its sentence node (matched as ``sent_map`` says) is
    not matched with its gold word's; a gold word is placed when an undisplaced parse word is
    aligned to it."""
    displaced_at: list[set[int]] = [set() for _ in parse]
    placed_at: list[set[int]] = [set() for _ in range(golds)]
    for k, p in enumerate(parse):
        for i in range(len(p.st.words)):
            ref = block.links.get((p.index, i))
            if ref is None or ref[0] not in gold_pos or sent_map.get(k) != gold_pos[ref[0]]:
                displaced_at[k].add(i)
            else:
                placed_at[gold_pos[ref[0]]].add(ref[1])
    return displaced_at, placed_at


def _del_key(
    block: Block, sentence: int, node: BlockNode, gold_pos: Mapping[int, int]
) -> tuple[int, tuple[str, str, Span]] | None:
    """What a deleted parse node whose words are all placed is discounted by (docs/rawtext.md,
    "Discount"): its gold sentence's place in the block and the own gold's deletion of the same
    gold words and label, when its words are aligned to one gold sentence (else ``None``)."""
    golds = {block.links[(sentence, i)] for i in node.span}
    sents = {s for s, _ in golds}
    if len(sents) != 1:
        return None
    return gold_pos[next(iter(sents))], ("del", node.label, frozenset(i for _, i in golds))


def _parse_side(
    block: Block,
    parse: Sequence[SideSentence],
    labeled: bool,
    sides: SideCache | None,
    layouts: dict[Hashable, Layout] | None,
) -> _ParseSide:
    """The parse's side of a block (docs/rawtext.md, "Trees"), from ``sides`` when a target before
    built it, else built (and kept there)."""
    side_key = (tuple(p.index for p in parse), labeled)
    built = sides.get(side_key) if sides is not None else None
    if built is None:
        prefs: list[list[Hashable | None]] = [
            [block.links.get((p.index, i)) for i in range(len(p.st.words))] for p in parse
        ]
        x_in = [(p.st, p.tree, p.chars) for p in parse]
        x_laid = _laid(layouts, ("p", tuple(p.index for p in parse)), x_in, prefs, "p")
        tree, nodes = _side_tree(x_in, prefs, "p", labeled, x_laid)
        norm_p = sum(size(p.st, labeled=labeled) for p in parse)
        built = _ParseSide(prepare_tree(tree), nodes, norm_p, {}, {}, {})
        if sides is not None:
            sides[side_key] = built
    return built


def block_ted(
    block: Block,
    parse: Sequence[SideSentence],
    own: Sequence[SideSentence],
    target: Sequence[SpanTree],
    *,
    labeled: bool,
    limits: Limits = DEFAULT_LIMITS,
    general: bool = False,
    sides: SideCache | None = None,
    layouts: dict[Hashable, Layout] | None = None,
) -> BlockTed:
    """δ and normalizer of one block (docs/rawtext.md, "The definition"): ``parse`` and ``own`` are
    the block's sentences in order, ``target`` the target's function tree of each gold sentence.
    Against a single gold, ``own`` is that gold and ``target`` its trees (nothing is discounted);
    against a generalization, ``own`` is the parse's own gold, and the operations its script to
    ``target`` also makes are discounted.  ``general`` takes the general path even where the words
    path applies (the tests check that both give the same numbers there); ``sides`` keeps the
    parse's side of each block across targets, ``layouts`` both sides laid out across labeled and
    unlabeled (keyed by the target trees' identities: they must outlive it).  Raises
    :class:`~evalcore.errors.LimitError` when the distance would need more than ``limits.ted_memory``."""
    if own and own[0].st.protocol != PROTOCOL_2012:
        raise ValueError("the 2011 protocol is not defined for a parse of raw text (docs/rawtext.md)")
    if not general and len(parse) == 1 and len(own) == 1 and _same_words(block, parse[0], own[0]):
        return _words_path(block, parse[0], own[0], target[0], labeled)
    gold_pos = {g.index: k for k, g in enumerate(own)}
    linked = set(block.links.values())
    grefs: list[list[Hashable | None]] = [
        [(g.index, i) if (g.index, i) in linked else None for i in range(len(g.st.words))] for g in own
    ]
    built = _parse_side(block, parse, labeled, sides, layouts)
    px, xn = built.prepared, built.nodes
    x = px.tree
    y_in = [(t, g.tree, g.chars) for t, g in zip(target, own, strict=True)]
    y_laid = _laid(
        layouts, ("g", tuple(id(t) for t in target), tuple(g.index for g in own)), y_in, grefs, "g"
    )
    y, yn = _side_tree(y_in, grefs, "g", labeled, y_laid)

    def check(n: int, m: int) -> None:
        """The general algorithm's table on ``n`` × ``m`` nodes fits in ``limits.ted_memory``."""
        need = ted_memory_estimate(n, m)
        if need > limits.ted_memory:
            raise limits.error(
                "ted_memory",
                f"the tree edit distance of this block ({n} × {m} nodes, words that differ) "
                f"would need about {format_size(need)}",
                sentence=own[0].st.sent_id[:60] or None if own else None,
            )

    m = ted_block(px, y, check=check)
    if m is None:
        check(len(x), len(y))
        m = ted_mapping(x, y, pin_roots=True)
    sent_map = {xn[a].sentence: yn[b].sentence for a, b in m.pairs if xn[a].kind == "sentence"}
    displaced_at, placed_at = _displaced(block, parse, gold_pos, sent_map, len(own))
    own_ops: list[Counter[tuple[str, str, Span]]] = [Counter() for _ in own]
    for j, (g, t) in enumerate(zip(own, target, strict=True)):
        if t is not g.st:  # (against its own gold, nothing is discounted)
            own_ops[j].update((op.kind, op.label, op.span) for op in edit_script(g.st, t, labeled=labeled))
    ops: list[RawOp] = []
    del_keys, del_ops, ins_ops = built.del_keys, built.del_ops, built.ins_ops
    for a in m.deleted:
        node = xn[a]
        # a sentence node is deleted only when it is matched with none: its words are all displaced
        seg = not displaced_at[node.sentence].isdisjoint(node.span)
        disc = False
        if node.kind == "node" and not seg:
            if a not in del_keys:
                del_keys[a] = _del_key(block, parse[node.sentence].index, node, gold_pos)
            got = del_keys[a]
            if got is not None:
                j, key = got
                if own_ops[j][key] > 0:
                    own_ops[j][key] -= 1
                    disc = True
        op = del_ops.get((a, seg, disc))
        if op is None:
            span = frozenset() if node.kind == "sentence" else node.span
            p = parse[node.sentence].index
            op = RawOp("del", "parse", p, span, node.label, node.kind == "sentence", seg, disc)
            del_ops[(a, seg, disc)] = op
        ops.append(op)
    for b in m.inserted:
        node = yn[b]
        gold = own[node.sentence]
        seg = not placed_at[node.sentence].issuperset(node.span)  # (a sentence node: none placed)
        disc = False
        if node.kind == "node":
            key = ("ins", node.label, node.span)
            if own_ops[node.sentence][key] > 0:
                own_ops[node.sentence][key] -= 1
                disc = True
        ins = (gold.index, node.span, node.label, node.kind == "sentence", seg, disc)
        op = ins_ops.get(ins)
        if op is None:
            span = frozenset() if node.kind == "sentence" else node.span
            op = ins_ops[ins] = RawOp("ins", "target", gold.index, span, node.label, ins[3], seg, disc)
        ops.append(op)
    norm = built.norm + sum(size(t, labeled=labeled) for t in target)
    delta = sum(1 for o in ops if not o.discounted)
    displaced_p = frozenset((p.index, i) for p, at in zip(parse, displaced_at, strict=True) for i in at)
    displaced_g = frozenset(
        (g.index, i)
        for g, at in zip(own, placed_at, strict=True)
        for i in range(len(g.st.words))
        if i not in at
    )
    return BlockTed(delta, norm, tuple(ops), block.gold, block.parse, "general", displaced_p, displaced_g)


# ---------------------------------------------------------------------------- a whole document


def word_chars(alignment: Alignment) -> tuple[dict[WordRef, tuple[int, int]], dict[WordRef, tuple[int, int]]]:
    """Each gold word's and each parse word's characters in the text, by (sentence, position)."""
    gold: dict[WordRef, tuple[int, int]] = {}
    parse: dict[WordRef, tuple[int, int]] = {}
    for s in alignment.sentences:
        for w in s.gold:
            gold[(w.sentence, w.id - 1)] = (w.start, w.end)
        for w in s.system:
            parse[(w.sentence, w.id - 1)] = (w.start, w.end)
    return gold, parse


def side_sentence(
    index: int, tree: DepTree, st: SpanTree, chars: Mapping[WordRef, tuple[int, int]]
) -> SideSentence:
    """One sentence of a side, its words' characters looked up in ``chars`` (:func:`word_chars`)."""
    return SideSentence(
        index, tree, st, tuple(chars.get((index, i), (-1, -1)) for i in range(len(tree.tokens)))
    )


def block_sides(
    block: Block,
    parse: Sequence[DepTree],
    parse_conversion: ConversionConfig,
    golds: Mapping[str, tuple[Sequence[DepTree], ConversionConfig]],
    own: str,
    target: Sequence[str],
    chars: tuple[Mapping[WordRef, tuple[int, int]], Mapping[WordRef, tuple[int, int]]],
    *,
    convert: Callable[[DepTree, ConversionConfig], SpanTree] = to_span_tree,
    make_side: Callable[[int, DepTree, SpanTree, Mapping[WordRef, tuple[int, int]]], SideSentence] = (
        side_sentence
    ),
) -> BlockTrees:
    """The trees :func:`block_ted` compares for one block (:func:`score_blocks`' arguments): the parse's
    sentences, the own gold's (a single target's) and the target's function tree of each gold sentence.
    A block of one sentence a side with the same words is converted as usual (it takes the words
    path); any other block's trees are converted from their projectivized trees (docs/rawtext.md,
    "Trees").  ``convert``: how a tree is converted, ``make_side`` how a sentence is made of it
    (:func:`score_blocks` keeps what it made)."""
    gold_chars, parse_chars = chars
    single = len(target) == 1
    ref = golds[target[0] if single else own]
    words = len(block.parse) == 1 and len(block.gold) == 1
    if words:
        p0, g0 = block.parse[0], block.gold[0]
        words = len(parse[p0].tokens) == len(ref[0][g0].tokens) and all(
            block.links.get((p0, i)) == (g0, i) for i in range(len(ref[0][g0].tokens))
        )

    def conv(c: ConversionConfig) -> ConversionConfig:
        return c if words else replace(c, projectivize=True)

    p_side = [
        make_side(k, parse[k], convert(parse[k], conv(parse_conversion)), parse_chars) for k in block.parse
    ]
    o_side = [make_side(j, ref[0][j], convert(ref[0][j], conv(ref[1])), gold_chars) for j in block.gold]
    if single:
        t_side = [o.st for o in o_side]
    else:
        t_side = [
            generalize_all(convert(golds[s][0][j], conv(golds[s][1])) for s in target) for j in block.gold
        ]
    return p_side, o_side, t_side


def score_blocks(
    blocks: Sequence[Block],
    parse: Sequence[DepTree],
    parse_conversion: ConversionConfig,
    golds: Mapping[str, tuple[Sequence[DepTree], ConversionConfig]],
    own: str,
    target: Sequence[str],
    chars: tuple[Mapping[WordRef, tuple[int, int]], Mapping[WordRef, tuple[int, int]]],
    *,
    labeled: bool,
    limits: Limits = DEFAULT_LIMITS,
    cache: dict[tuple[int, bool], SpanTree] | None = None,
    sides: SideCache | None = None,
    prepared: dict[tuple[tuple[int, ...], tuple[int, ...]], BlockTrees] | None = None,
    side_cache: dict[tuple[int, int], SideSentence] | None = None,
    layouts: dict[Hashable, Layout] | None = None,
) -> tuple[BlockTed, ...]:
    """Every block of a parse of ``own``'s scheme against ``target``: one scheme (a single gold;
    nothing discounted) or several containing ``own`` (their generalization; the own gold's script
    discounted).  ``golds`` gives each scheme's trees and conversion; each block's trees are
    :func:`block_sides`'.  ``cache`` keeps the function trees across calls on the same trees (the
    trees must outlive it); ``sides`` the parse's side of each block across targets; ``prepared``
    each block's trees across calls on the same ``target`` (labeled and unlabeled); ``side_cache``
    each sentence made of a function tree, across calls (keyed by identities, as ``cache``);
    ``layouts`` each block's sides laid out, across calls on the same ``target`` (as ``prepared``)."""
    memo = {} if cache is None else cache
    made_sides = {} if side_cache is None else side_cache

    def spans(tree: DepTree, c: ConversionConfig) -> SpanTree:
        key = (id(tree), c.projectivize)  # a tree is always converted by its own scheme's conversion
        got = memo.get(key)
        if got is None:
            plain = memo.get((id(tree), False)) if c.projectivize else None
            if plain is not None and c.protocol == PROTOCOL_2012 and is_projective(tree):
                got = memo[key] = plain  # nothing to lift: the conversion the scan made
            else:
                got = memo[key] = to_span_tree(tree, c)
        return got

    def make_side(
        index: int, tree: DepTree, st: SpanTree, chars: Mapping[WordRef, tuple[int, int]]
    ) -> SideSentence:
        key = (id(st), id(chars))
        got = made_sides.get(key)
        if got is None:
            got = made_sides[key] = side_sentence(index, tree, st, chars)
        return got

    out = []
    made = {} if prepared is None else prepared
    for b in blocks:
        got = made.get((b.gold, b.parse))
        if got is None:
            got = made[(b.gold, b.parse)] = block_sides(
                b, parse, parse_conversion, golds, own, target, chars, convert=spans, make_side=make_side
            )
        p_side, o_side, t_side = got
        out.append(
            block_ted(b, p_side, o_side, t_side, labeled=labeled, limits=limits, sides=sides, layouts=layouts)
        )
    return tuple(out)
