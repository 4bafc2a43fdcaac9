"""SEGEVAL and token-level segmentation accuracy (ACL 2012 §4; docs/lattice.md, "SEGEVAL and token accuracy").

SEGEVAL is TedEval with strings instead of trees, token by token: for each alignment block (a
space-delimited token, or the smallest group of gold and predicted tokens with the same characters),
``d = |p| + |g| − 2·LCS(p, g)`` over its predicted and gold segment sequences, and
``SEGEVAL = 1 − Σd / Σ(|p| + |g|)``.  Token accuracy, tokenization errors and sides without tags
(N/A, ``None``): the docs.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from evalcore.lattice.model import Block, Lexeme, TagColumn
from evalcore.metrics.base import add_fields, make_signature, ratio

__all__ = ["SegConfig", "SegCounts", "SegScore", "lcs_length", "score", "sentence_counts"]


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of the longest common subsequence (two-row dynamic programme)."""
    if not a or not b:
        return 0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, start=1):
            cur[j] = prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1])
        prev = cur
    return prev[-1]


@dataclass(frozen=True, slots=True)
class SegConfig:
    """Settings that change SEGEVAL; all in the signature."""

    tag_column: TagColumn = "cpos"

    def signature(self) -> str:
        return make_signature("segeval", [("tag", self.tag_column), ("avg", "global")])


@dataclass(frozen=True, slots=True)
class SegCounts:
    """Per-sentence or corpus counts; add with ``+``."""

    d_unlabeled: int = 0
    d_labeled: int = 0
    norm: int = 0  # Σ(|p| + |g|)
    gold_segments: int = 0
    pred_segments: int = 0
    gold_tokens: int = 0
    exact_unlabeled: int = 0
    exact_labeled: int = 0
    sentences: int = 0
    untagged: int = 0  # sentences where a side has no tags (labeled scores are then N/A)

    def __add__(self, other: SegCounts) -> SegCounts:
        return SegCounts(**add_fields(self, other))


@dataclass(frozen=True, slots=True)
class SegScore:
    """SEGEVAL U/L and token accuracy U/L (``None`` when no gold token could be counted, and the
    labeled ones when a side has no tags)."""

    unlabeled: float
    labeled: float | None
    token_accuracy_unlabeled: float | None
    token_accuracy_labeled: float | None
    counts: SegCounts
    signature: str


def sentence_counts(gold: Sequence[Lexeme], pred: Sequence[Lexeme], blocks: Sequence[Block]) -> SegCounts:
    """SEGEVAL counts of one sentence; lexemes are grouped by :attr:`Lexeme.token` = block key."""
    g_by: dict[int | None, list[Lexeme]] = {}
    p_by: dict[int | None, list[Lexeme]] = {}
    for lx in gold:
        g_by.setdefault(lx.token, []).append(lx)
    for lx in pred:
        p_by.setdefault(lx.token, []).append(lx)
    known = {b.key for b in blocks}
    missing = [k for k in dict.fromkeys((*g_by, *p_by)) if k not in known]  # blocks not given: one token
    extra = [Block(k, int(k in g_by and k is not None), int(k in p_by and k is not None)) for k in missing]
    du = dl = norm = tokens = exact_u = exact_l = 0
    for block in (*blocks, *extra):
        g = g_by.get(block.key, [])
        p = p_by.get(block.key, [])
        gu = [lx.segment for lx in g]
        pu = [lx.segment for lx in p]
        gl = [(lx.segment, lx.tag) for lx in g]
        pl = [(lx.segment, lx.tag) for lx in p]
        size = len(g) + len(p)
        norm += size
        du += size - 2 * lcs_length(gu, pu)
        dl += size - 2 * lcs_length(gl, pl)
        tokens += block.gold_tokens
        if block.gold_tokens == 1 and block.pred_tokens == 1:
            exact_u += gu == pu
            exact_l += gl == pl
    untagged = any(lx.tag == "" for lx in (*gold, *pred))
    return SegCounts(du, dl, norm, len(gold), len(pred), tokens, exact_u, exact_l, 1, int(untagged))


def score(counts: SegCounts, config: SegConfig = SegConfig()) -> SegScore:
    """Global average from summed counts (an empty corpus scores 1)."""
    n = counts.gold_tokens
    tagged = not counts.untagged
    return SegScore(
        1.0 - ratio(counts.d_unlabeled, counts.norm),
        1.0 - ratio(counts.d_labeled, counts.norm) if tagged else None,
        ratio(counts.exact_unlabeled, n) if n else None,
        ratio(counts.exact_labeled, n) if n and tagged else None,
        counts,
        config.signature(),
    )
