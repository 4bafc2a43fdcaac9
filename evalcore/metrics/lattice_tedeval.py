"""TedEval over lattices (ACL 2012 §3; docs/lattice.md, "TEDEVAL over lattices").

    TEDEVAL(p, g) = 1 − TED(p, g) / (|p| + |g| − 2)

TED (:mod:`evalcore.ted.general`), what matches what, and the corpus averages are those of the
docs section above; lexemes without token ids (bare brackets) match by segment, tag and order.

Cost.  The general algorithm needs about :data:`TED_BYTES_PER_CELL` ×
(|p| + 1) × (|g| + 1) bytes (and time in proportion): 2,000-node trees take
about 1 s and 92 MiB.  That estimate is checked *before* anything is
allocated against ``Limits.ted_memory`` (default 256 MiB, about 3,300 nodes a
side); past it the sentence is refused with a :class:`~evalcore.errors.LimitError`
naming ``--max-ted-memory``.  Trees over the same lexemes first try the span
path (:func:`evalcore.ted.general.ted_same_yield`), exact whenever it applies,
linear, and needing no such memory.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal

from evalcore.choices import PROTOCOL_2012, Average, Protocol
from evalcore.lattice.model import LatticeTree, TagColumn
from evalcore.limits import DEFAULT_LIMITS, Limits, format_size
from evalcore.metrics.base import add_fields, make_signature, ratio
from evalcore.ted.general import OrderedTree, TedMapping, ted_mapping, ted_same_yield

__all__ = [
    "TED_BYTES_PER_CELL",
    "LatticeEditOp",
    "LatticeTedConfig",
    "LatticeTedCounts",
    "LatticeTedScore",
    "SentenceLatticeTed",
    "node_keys",
    "score",
    "sentence_ted",
    "ted_memory_estimate",
]

TED_BYTES_PER_CELL = 24
"""Bytes of the general TED per (parse node + 1) × (gold node + 1) cell (edist; measured: 2,000 × 2,000
nodes peak at 92 MiB)."""


def ted_memory_estimate(parse_nodes: int, gold_nodes: int) -> int:
    """Bytes the general TED of two trees of these sizes allocates (see :data:`TED_BYTES_PER_CELL`)."""
    return TED_BYTES_PER_CELL * (parse_nodes + 1) * (gold_nodes + 1)


@dataclass(frozen=True, slots=True)
class LatticeTedConfig:
    """Settings of lattice TedEval; all in the signature."""

    tag_column: TagColumn = "cpos"
    protocol: Protocol = PROTOCOL_2012  # dependency → function tree conversion
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


def sentence_ted(
    parse: LatticeTree, gold: LatticeTree, *, labeled: bool = True, limits: Limits = DEFAULT_LIMITS
) -> SentenceLatticeTed:
    """TED(p, g) with an optimal script (ACL 2012 §3).  Token ids are used when both trees have them.

    Among co-optimal scripts, the one that maps nodes covering the same tokens
    is preferred (the paper's operations are anchored in the lattice); the
    distance is the same either way.  Raises :class:`~evalcore.errors.LimitError`
    when the general algorithm would need more than ``limits.ted_memory``.
    """
    use_tokens = _has_tokens(parse) and _has_tokens(gold)
    anchors = (parse.token_spans, gold.token_spans) if use_tokens else (None, None)
    x = OrderedTree(node_keys(parse, labeled=labeled, use_tokens=use_tokens), parse.children, anchors[0])
    y = OrderedTree(node_keys(gold, labeled=labeled, use_tokens=use_tokens), gold.children, anchors[1])
    m = ted_same_yield(x, y, pin_roots=True) or _general(x, y, parse, gold, limits)
    ops = _ops(parse, m.deleted, "del") + _ops(gold, m.inserted, "add")
    return SentenceLatticeTed(m.distance, len(parse), len(gold), ops, m.pairs)


def _general(
    x: OrderedTree, y: OrderedTree, parse: LatticeTree, gold: LatticeTree, limits: Limits
) -> TedMapping:
    need = ted_memory_estimate(len(x), len(y))
    if need > limits.ted_memory:
        src = parse.source or gold.source
        raise limits.error(
            "ted_memory",
            f"the tree edit distance of this sentence ({len(x)} × {len(y)} nodes, lexemes that differ) "
            f"would need about {format_size(need)}",
            file=src.file if src else None,
            line=src.line if src else None,
            sentence=(parse.sent_id or gold.sent_id)[:60] or None,
        )
    return ted_mapping(x, y, pin_roots=True)


@dataclass(frozen=True, slots=True)
class LatticeTedCounts:
    """Adds with ``+``; ``score_sum`` serves the sentence average."""

    distance: int = 0
    norm: int = 0
    sentences: int = 0
    score_sum: float = 0.0

    def __add__(self, other: LatticeTedCounts) -> LatticeTedCounts:
        return LatticeTedCounts(**add_fields(self, other))


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
