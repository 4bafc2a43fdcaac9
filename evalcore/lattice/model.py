"""Morphological lattices, lexemes and trees over lattice paths (ACL 2012 §3; docs/lattice.md, "Lexemes";
docs/formats.md, "SPMRL / yap lattices").

The values of the lattice package (docs/architecture.md, "The lattice package"): lexemes
(:class:`Lexeme`), alignment blocks (:class:`Block`), trees whose leaves are lexemes
(:class:`LatticeTree`, from constituency trees or, via :mod:`evalcore.conversion`, dependency trees),
and the sentence pairs the joint evaluation (:mod:`evalcore.metrics.joint`) scores.  Everything is
iterative.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, Protocol

from evalcore import choices
from evalcore.choices import PROTOCOL_2012, TagColumn
from evalcore.conversion import ConversionConfig, dep_to_span_tree
from evalcore.errors import InputFormatError, TreeStructureError
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.ted.general import OrderedTree
from evalcore.trees import Arc, DepTree, Lattice, Source, Tree, strip_empty

__all__ = [
    "DEFAULT_READ_OPTIONS",
    "Analysis",
    "Block",
    "LatticeTree",
    "Lexeme",
    "PairSource",
    "Pairing",
    "ReadOptions",
    "SentencePair",
    "TagColumn",
    "lexeme_of",
    "token_blocks",
    "tree_from_constituency",
    "tree_from_dependency",
]


@dataclass(frozen=True, slots=True)
class Lexeme:
    """⟨segment, tag⟩ of token ``token``, from state ``start`` to ``end`` (docs/lattice.md, "Lexemes").

    ``token`` is the space-delimited token id (or an alignment block id, see
    :class:`Block`); ``None`` when the input has no token ids (bare brackets):
    lexemes then match by segment, tag and order only.  States are the
    input's own (lattice states, else positions ``i, i+1``).
    """

    segment: str
    tag: str
    token: int | None
    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.tag}:{self.segment}"


def lexeme_of(arc: Arc, tag_column: TagColumn = "cpos") -> Lexeme:
    """The lexeme of a lattice arc; the tag is CPOS unless ``tag_column="fpos"`` (docs/lattice.md,
    "Lexemes")."""
    return Lexeme(
        arc.segment, arc.cpos if tag_column == "cpos" else arc.fpos, arc.token_id, arc.start, arc.end
    )


# ---------------------------------------------------------------------------
# alignment blocks


@dataclass(frozen=True, slots=True)
class Block:
    """A unit of alignment between gold and predicted lexemes (docs/lattice.md, "Lexemes" SEGEVAL).

    ``key`` is the value of :attr:`Lexeme.token` shared by the block's lexemes
    on both sides.  ``gold_tokens`` / ``pred_tokens``: how many space-delimited
    tokens of each side it holds (1 and 1 when tokenization agrees; 0 when
    the input has no token ids).
    """

    key: int | None
    gold_tokens: int
    pred_tokens: int


def token_blocks(gold: Sequence[Lexeme], pred: Sequence[Lexeme]) -> tuple[Block, ...]:
    """Blocks for inputs that share token ids (SPMRL lattices, yap): one per token id.

    Without token ids (``None``) the whole sentence is one block with no token count.
    """
    keys: dict[int | None, list[int]] = {}
    for lx in gold:
        keys.setdefault(lx.token, [0, 0])[0] = 1
    for lx in pred:
        keys.setdefault(lx.token, [0, 0])[1] = 1
    return tuple(
        Block(key, g if key is not None else 0, p if key is not None else 0)
        for key, (g, p) in sorted(keys.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))
    )


# ---------------------------------------------------------------------------
# trees over lattice paths


@dataclass(frozen=True)
class LatticeTree:
    """An ordered tree whose leaves are lexemes, in preorder (``nodes[0]`` is the root).

    ``labels[i]`` is node i's label (the tag for a lexeme node);
    ``lexemes[i]`` is its lexeme, ``None`` for internal nodes.  Sizes count
    every node, root and lexemes included (ACL 2012 §3).
    """

    labels: tuple[str, ...]
    children: tuple[tuple[int, ...], ...]
    lexemes: tuple[Lexeme | None, ...]
    sent_id: str = ""
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        n = len(self.labels)
        if len(self.children) != n or len(self.lexemes) != n:
            raise ValueError("labels, children and lexemes must have one entry per node")
        OrderedTree(self.labels, self.children).check()  # depth-first preorder, as the TED needs

    def __len__(self) -> int:
        return len(self.labels)

    @cached_property
    def path(self) -> tuple[Lexeme, ...]:
        """The lexemes of the tree's yield, in tree order."""
        return tuple(lx for lx in self.lexemes if lx is not None)

    @cached_property
    def state_spans(self) -> tuple[tuple[int, int], ...]:
        """``(first state, last state)`` covered by each node (``(0, 0)`` if it covers nothing)."""
        out: list[tuple[int, int]] = [(0, 0)] * len(self.labels)
        for i in range(len(self.labels) - 1, -1, -1):
            lx = self.lexemes[i]
            if lx is not None:
                out[i] = (lx.start, lx.end)
                continue
            spans = [out[c] for c in self.children[i] if out[c] != (0, 0) or self.lexemes[c] is not None]
            if spans:
                out[i] = (min(s for s, _ in spans), max(e for _, e in spans))
        return tuple(out)

    @cached_property
    def token_spans(self) -> tuple[tuple[int, int] | None, ...]:
        """``(first token, last token)`` of each node's lexemes (``None``: no token ids, or none below)."""
        out: list[tuple[int, int] | None] = [None] * len(self.labels)
        for i in range(len(self.labels) - 1, -1, -1):
            lx = self.lexemes[i]
            if lx is not None:
                out[i] = (lx.token, lx.token) if lx.token is not None else None
                continue
            spans = [out[c] for c in self.children[i]]
            if spans and all(s is not None for s in spans):
                out[i] = (min(s[0] for s in spans if s), max(s[1] for s in spans if s))
        return tuple(out)

    def node_name(self, i: int) -> str:
        lx = self.lexemes[i]
        return str(lx) if lx is not None else self.labels[i]

    def bracketed(self) -> str:
        """The docs/lattice.md, "What is compared" notation: ``TOP(PP(IN:B, NP(...)))`` (iterative)."""
        done: dict[int, str] = {}
        for i in range(len(self.labels) - 1, -1, -1):
            if self.lexemes[i] is not None or not self.children[i]:
                done[i] = self.node_name(i)
            else:
                done[i] = f"{self.labels[i]}({', '.join(done.pop(c) for c in self.children[i])})"
        return done[0] if done else ""


def _lexeme_for(
    word: str, tag: str, position: int, path: Sequence[Lexeme] | None, where: tuple[str | None, int | None]
) -> Lexeme:
    if path is None:
        return Lexeme(word, tag, None, position, position + 1)
    if position >= len(path):
        raise InputFormatError(
            f"the tree has more leaves than its lattice path has arcs ({len(path)})",
            file=where[0],
            line=where[1],
        )
    arc = path[position]
    if arc.segment != word:
        raise InputFormatError(
            f"leaf {position + 1} '{word}' differs from the lattice path's segment '{arc.segment}'",
            file=where[0],
            line=where[1],
        )
    return Lexeme(word, tag, arc.token, arc.start, arc.end)


def tree_from_constituency(tree: Tree, path: Sequence[Lexeme] | None = None) -> LatticeTree:
    """A bracketed tree over lexemes → :class:`LatticeTree` (ACL 2012 Figure 1).

    ``-NONE-`` elements are removed and an outer *unlabeled* bracket with one
    child is dropped (``TOP``/``ROOT`` are kept: they are the root the
    normalization ``|p|+|g|−2`` leaves out).  A preterminal (a node whose only
    child is a word) and its word become one lexeme node ``TAG:segment``; a
    word with siblings is a lexeme with an empty tag.  With ``path`` (the
    lexemes of the matching lattice path) the leaves take its token ids and
    states; their segments must agree.
    """
    clean = strip_empty(tree)
    nodes = clean.nodes
    root = 0
    while (
        nodes[root].terminal is None
        and nodes[root].label == ""
        and len(nodes[root].children) == 1
        and nodes[nodes[root].children[0]].terminal is None
    ):
        root = nodes[root].children[0]
    where = (tree.source.file, tree.source.line) if tree.source is not None else (None, None)
    if path is not None and len(path) != len(clean.words):
        raise InputFormatError(
            f"the tree has {len(clean.words)} leaves but its lattice path has {len(path)} arcs",
            file=where[0],
            line=where[1],
        )
    labels: list[str] = []
    lexemes: list[Lexeme | None] = []
    kids: list[list[int]] = []
    stack: list[tuple[int, int]] = [(root, -1)]
    while stack:
        i, parent = stack.pop()
        node = nodes[i]
        idx = len(labels)
        if parent >= 0:
            kids[parent].append(idx)
        kids.append([])
        only = node.children[0] if len(node.children) == 1 else -1
        # a word, or a preterminal and its word: one lexeme node
        word = i if node.terminal is not None else only if i != root and only >= 0 else -1
        term = nodes[word].terminal if word >= 0 else None
        if term is not None:
            lx = _lexeme_for(nodes[word].label, "" if word == i else node.label, term, path, where)
            labels.append(lx.tag)
            lexemes.append(lx)
        else:
            labels.append(node.label)
            lexemes.append(None)
            for c in reversed(node.children):
                stack.append((c, idx))
    return LatticeTree(
        tuple(labels), tuple(tuple(k) for k in kids), tuple(lexemes), tree.sent_id, tree.source
    )


def tree_from_dependency(
    dep: DepTree, path: Sequence[Lexeme], protocol: choices.Protocol = PROTOCOL_2012
) -> LatticeTree:
    """A morpheme-level dependency tree → function tree over lexemes (ACL 2012 Table 2; docs/lattice.md,
    "TEDEVAL over lattices"): :func:`evalcore.conversion.dep_to_span_tree`, then :meth:`SpanTree.to_mftree`,
    terminal ``k`` the lexeme ``path[k]``, a label set joined with ``+`` (only the never-edited root can
    hold more than one).  Raises :class:`TreeStructureError` for a sentence that is not a tree."""
    problem = dep.structure_problem()
    src = dep.source
    if problem is not None:
        idx, msg = problem
        raise TreeStructureError(
            msg,
            file=src.file if src else None,
            line=src.token_line(idx) if src else None,
            sentence=dep.sent_id or None,
        )
    if len(path) != len(dep.tokens):
        raise InputFormatError(
            f"{len(dep.tokens)} morphemes but {len(path)} lexemes in the lattice path",
            file=src.file if src else None,
            line=src.line if src else None,
            sentence=dep.sent_id or None,
        )
    mf = dep_to_span_tree(dep, ConversionConfig(protocol=protocol)).to_mftree()
    labels: list[str] = []
    lexemes: list[Lexeme | None] = []
    for node in mf.nodes:
        if node.terminal is not None:
            lx = path[node.terminal]
            labels.append(lx.tag)
            lexemes.append(lx)
        else:
            labels.append("+".join(sorted(node.labels)))
            lexemes.append(None)
    return LatticeTree(
        tuple(labels), tuple(n.children for n in mf.nodes), tuple(lexemes), dep.sent_id, dep.source
    )


# ---------------------------------------------------------------------------
# sentence pairs: what the joint evaluation scores


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How inputs become lexemes and trees; every field enters the lattice signature."""

    tag_column: TagColumn = "cpos"
    # dependency → function tree (docs/tedeval.md, "Function trees (2011 protocol)" and "Multi-function trees
    # (2012 protocol)")
    protocol: choices.Protocol = PROTOCOL_2012
    deprel_base: bool = False  # compare only the universal part of a deprel (before ':')
    limits: Limits = field(default=DEFAULT_LIMITS, compare=False)  # resource limits: no number changes


DEFAULT_READ_OPTIONS = ReadOptions()
"""The default reading settings (CPOS tags, the 2012 protocol, full deprels, default limits)."""


@dataclass(frozen=True)
class Analysis:
    """One side of one sentence: the lexemes of its path and, if the input has one, its tree.

    ``dep`` / ``ptb`` keep the input tree for the classic metrics (attachment,
    PARSEVAL); ``problem`` says why a tree-bearing input has no usable tree.
    """

    lexemes: tuple[Lexeme, ...]
    tree: LatticeTree | None = None
    dep: DepTree | None = None
    ptb: Tree | None = None
    problem: str | None = None
    sent_id: str = ""
    where: str = ""
    # False: the file does not say which token a word belongs to (CoNLL without a lattice file and
    # without multiword-token lines); its words were numbered one token each, provisionally.
    tokens_stated: bool = True


@dataclass(frozen=True)
class SentencePair:
    """A gold and a predicted analysis of the same sentence, with their alignment blocks."""

    index: int  # 1-based position in the gold file
    gold: Analysis
    pred: Analysis
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Pairing:
    """All sentence pairs, and the sentences that could not be aligned (raw-text mode)."""

    pairs: tuple[SentencePair, ...]
    mode: Literal["index", "characters"]
    gold_sentences: int
    pred_sentences: int
    unaligned_gold: tuple[int, ...] = ()  # 1-based gold sentence numbers
    unaligned_pred: tuple[int, ...] = ()


class PairSource(Protocol):
    """Sentence pairs as they are read (:class:`evalcore.lattice.reading.PairStream`): iterate once;
    afterwards the sentence counts and the unaligned sentences (1-based) are known."""

    @property
    def mode(self) -> Literal["index", "characters"]: ...
    @property
    def gold_sentences(self) -> int: ...
    @property
    def pred_sentences(self) -> int: ...
    @property
    def unaligned_gold(self) -> Sequence[int]: ...
    @property
    def unaligned_pred(self) -> Sequence[int]: ...
    def __iter__(self) -> Iterator[SentencePair]: ...
    def ambiguity_at(self, index: int) -> Lattice | None:
        """The ambiguity lattice of gold sentence ``index`` (1-based), if any."""
        ...
