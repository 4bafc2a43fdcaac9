"""TedEval over lattices (ACL 2012 §3; SPEC §6).

    TEDEVAL(p, g) = 1 − TED(p, g) / (|p| + |g| − 2)

TED is the general ordered tree edit distance (:mod:`evalcore.ted.general`)
with ADD and DEL of internal nodes and of lexemes, each costing 1, and no
relabel.  Two lexemes match only if they belong to the same space-delimited
token (token id, or alignment block) and have equal segment and tag; without
token ids (bare brackets) by segment, tag and order.  Internal nodes match if
their labels are equal.  The roots are always mapped to each other and never
counted (hence −2).  Unlabeled: internal labels and tags ignored.

Corpus score: global average ``1 − ΣTED / Σ(|p| + |g| − 2)``; the mean of
sentence scores with ``average="sentence"``.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal

from evalcore.lattice import LatticeTree, TagColumn
from evalcore.metrics.base import make_signature, ratio
from evalcore.ted.general import OrderedTree, ted_mapping

__all__ = [
    "LatticeEditOp",
    "LatticeTedConfig",
    "LatticeTedCounts",
    "LatticeTedScore",
    "SentenceLatticeTed",
    "node_keys",
    "score",
    "sentence_ted",
]

Average = Literal["global", "sentence"]


@dataclass(frozen=True, slots=True)
class LatticeTedConfig:
    """Settings of lattice TedEval; all in the signature."""

    tag_column: TagColumn = "cpos"
    protocol: Literal["2011", "2012"] = "2012"  # dependency → function tree conversion
    average: Average = "global"
    deprel_base: bool = False  # dependency labels cut before ':' when the trees were read

    def signature(self, labeled: bool | None = None) -> str:
        settings: list[tuple[str, object]] = [
            ("tag", self.tag_column),
            ("proto", self.protocol),
            ("deprel", "base" if self.deprel_base else "full"),
        ]
        if labeled is not None:
            settings.append(("labeled", labeled))
        settings.append(("avg", self.average))
        return make_signature("lattice-tedeval", settings)


@dataclass(frozen=True, slots=True)
class LatticeEditOp:
    """``ADD(c, i, j)`` / ``DEL(c, i, j)`` of the paper: a node or lexeme over states ``i..j``.

    A deletion is anchored in the parse's path, an addition in the gold's.
    ``label`` is the node label, or ``TAG:segment`` for a lexeme.
    """

    kind: Literal["del", "add"]
    label: str
    lexeme: bool
    start: int
    end: int
    token: int | None = None

    def __str__(self) -> str:
        return f"{self.kind} {self.label} ⟨{self.start},{self.end}⟩"


def node_keys(tree: LatticeTree, *, labeled: bool, use_tokens: bool) -> tuple[Hashable, ...]:
    """What each node may match: internal nodes by label, lexemes by token, segment and tag."""
    keys: list[Hashable] = []
    for label, lx in zip(tree.labels, tree.lexemes, strict=True):
        if lx is None:
            keys.append(("node", label if labeled else ""))
        else:
            keys.append(("lex", lx.token if use_tokens else None, lx.segment, lx.tag if labeled else ""))
    return tuple(keys)


def _has_tokens(tree: LatticeTree) -> bool:
    path = tree.path
    return bool(path) and all(lx.token is not None for lx in path)


def _ops(tree: LatticeTree, nodes: tuple[int, ...], kind: Literal["del", "add"]) -> tuple[LatticeEditOp, ...]:
    spans = tree.state_spans
    out = []
    for i in nodes:
        lx = tree.lexemes[i]
        s, e = spans[i]
        out.append(LatticeEditOp(kind, tree.node_name(i), lx is not None, s, e, lx.token if lx else None))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SentenceLatticeTed:
    """One sentence: the distance, the sizes and the optimal script (deletions from p, additions of g)."""

    distance: int
    parse_size: int
    gold_size: int
    ops: tuple[LatticeEditOp, ...]
    pairs: tuple[tuple[int, int], ...]  # mapped (parse node, gold node)

    @property
    def norm(self) -> int:
        return self.parse_size + self.gold_size - 2

    @property
    def score(self) -> float:
        return 1.0 - self.distance / self.norm if self.norm > 0 else 1.0

    def counts(self) -> LatticeTedCounts:
        return LatticeTedCounts(self.distance, self.norm, 1, self.score)


def sentence_ted(parse: LatticeTree, gold: LatticeTree, *, labeled: bool = True) -> SentenceLatticeTed:
    """TED(p, g) with an optimal script (ACL 2012 §3).  Token ids are used when both trees have them.

    Among co-optimal scripts, the one that maps nodes covering the same tokens
    is preferred (the paper's operations are anchored in the lattice); the
    distance is the same either way.
    """
    use_tokens = _has_tokens(parse) and _has_tokens(gold)
    anchors = (parse.token_spans, gold.token_spans) if use_tokens else (None, None)
    x = OrderedTree(node_keys(parse, labeled=labeled, use_tokens=use_tokens), parse.children, anchors[0])
    y = OrderedTree(node_keys(gold, labeled=labeled, use_tokens=use_tokens), gold.children, anchors[1])
    m = ted_mapping(x, y, pin_roots=True)
    ops = _ops(parse, m.deleted, "del") + _ops(gold, m.inserted, "add")
    return SentenceLatticeTed(m.distance, len(parse), len(gold), ops, m.pairs)


@dataclass(frozen=True, slots=True)
class LatticeTedCounts:
    """Adds with ``+``; ``score_sum`` serves the sentence average."""

    distance: int = 0
    norm: int = 0
    sentences: int = 0
    score_sum: float = 0.0

    def __add__(self, other: LatticeTedCounts) -> LatticeTedCounts:
        return LatticeTedCounts(
            self.distance + other.distance,
            self.norm + other.norm,
            self.sentences + other.sentences,
            self.score_sum + other.score_sum,
        )


@dataclass(frozen=True, slots=True)
class LatticeTedScore:
    score: float
    distance: int
    norm: int
    sentences: int
    signature: str


def score(
    counts: LatticeTedCounts, config: LatticeTedConfig = LatticeTedConfig(), *, labeled: bool = True
) -> LatticeTedScore:
    """Global average ``1 − ΣTED/Σnorm`` (default) or the mean sentence score."""
    if config.average == "sentence":
        value = ratio(counts.score_sum, counts.sentences, empty=1.0)
    else:
        value = 1.0 - ratio(counts.distance, counts.norm)
    return LatticeTedScore(value, counts.distance, counts.norm, counts.sentences, config.signature(labeled))
