"""MaltEval-style breakdowns of attachment scores, and the relation confusion table (docs/attachment.md,
"Breakdowns and confusion (``--by``, ``--confusion``)": the groupings, their bins, and why a property
is read on the gold tree for recall and on the system tree for precision, as in MaltEval, Nilsson &
Nivre 2008, and the CoNLL-X ``eval.pl``).

Every group counts what :func:`evalcore.metrics.attachment.judge_tokens` says of its counted tokens,
so the per-group counts add up exactly to the corpus counts of ``evalcore attach``.  A token on a
cycle of an invalid system tree has depth and projectivity ``cycle``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from evalcore.choices import CROSS, GROUPINGS, GroupBy
from evalcore.metrics.attachment import AttachConfig, _kept_length, judge_tokens
from evalcore.metrics.base import add_fields, make_signature, ratio, total
from evalcore.trees import DepTree

__all__ = [
    "GROUPINGS",
    "Breakdown",
    "BreakdownAccumulator",
    "BreakdownResult",
    "Confusion",
    "GroupBy",
    "GroupCounts",
    "GroupScore",
    "HeadErrors",
    "breakdown_corpus",
    "confusion_signature",
    "cross_parts",
    "group_keys",
    "length_bin",
    "score_breakdown",
    "sentence_breakdown",
    "sentence_confusion",
    "sorted_groups",
    "tree_keys",
]

DEFAULT_CONFIG = AttachConfig()
"""``evalcore attach``'s defaults (frozen)."""


_ORDER: dict[str, tuple[str, ...]] = {
    "length": ("1-10", "11-20", "21-30", "31-40", "41-50", "51+"),
    "distance": ("root", "1", "2", "3-6", "7+"),
    "direction": ("root", "left", "right"),
    "depth": ("1", "2", "3", "4", "5", "6", "7+", "cycle"),
    "nonproj": ("projective", "non-projective", "cycle"),
}


@dataclass(frozen=True, slots=True)
class GroupCounts:
    """Counts of one group; add with ``+``."""

    gold: int = 0  # counted tokens whose gold property is the group
    system: int = 0  # counted tokens whose system property is the group
    gold_uas: int = 0  # ... of the gold ones: right head
    gold_las: int = 0  # right head and relation
    gold_label: int = 0  # right relation
    system_uas: int = 0  # ... of the system ones
    system_las: int = 0
    system_label: int = 0

    def __add__(self, other: GroupCounts) -> GroupCounts:
        return GroupCounts(**add_fields(self, other))


def cross_parts(by: str) -> tuple[str, ...]:
    """The groupings of ``by``: one, or the two of a cross-table."""
    return tuple(by.split(CROSS))


def _rank(by: str, key: str) -> tuple[tuple[int, str], ...]:
    """Where ``key`` sorts among the groups of ``by``: bins in their order, names alphabetically."""
    out = []
    for part, k in zip(cross_parts(by), key.split("|", len(cross_parts(by)) - 1), strict=True):
        order = _ORDER.get(part, ())
        out.append((order.index(k) if k in order else len(order), k))
    return tuple(out)


def sorted_groups(groups: dict[str, GroupCounts], by: str) -> tuple[tuple[str, GroupCounts], ...]:
    """The groups in their order (bins as :data:`_ORDER` says; names alphabetically)."""
    return tuple(sorted(groups.items(), key=lambda kv: _rank(by, kv[0])))


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Per-group counts of one grouping (``by``); add with ``+``."""

    by: str
    groups: tuple[tuple[str, GroupCounts], ...] = ()

    def __add__(self, other: Breakdown) -> Breakdown:
        if other.by != self.by:
            raise ValueError(f"cannot add a breakdown by {other.by} to one by {self.by}")
        out = dict(self.groups)
        for key, c in other.groups:
            out[key] = out[key] + c if key in out else c
        return Breakdown(self.by, sorted_groups(out, self.by))

    def total(self) -> GroupCounts:
        return total((c for _key, c in self.groups), GroupCounts())


@dataclass(frozen=True, slots=True)
class GroupScore:
    """One row: the group, its counts, recall-side UAS/LAS/label accuracy, LAS precision and F1."""

    group: str
    counts: GroupCounts
    uas: float  # gold_uas / gold
    las: float  # gold_las / gold (= LAS recall)
    label: float
    precision: float  # system_las / system
    recall: float  # = las
    f1: float
    uas_precision: float


def score_breakdown(breakdown: Breakdown) -> tuple[GroupScore, ...]:
    rows = []
    for key, c in breakdown.groups:
        p, r = ratio(c.system_las, c.system), ratio(c.gold_las, c.gold)
        rows.append(
            GroupScore(
                key,
                c,
                ratio(c.gold_uas, c.gold),
                r,
                ratio(c.gold_label, c.gold),
                p,
                r,
                ratio(2 * c.system_las * c.gold_las, c.system_las * c.gold + c.gold_las * c.system),
                ratio(c.system_uas, c.system),
            )
        )
    return tuple(rows)


# --------------------------------------------------------------------------- properties of tokens


def length_bin(n: int) -> str:
    """The bin of a sentence of ``n`` counted words (eval.pl's bins of ten, then 51+)."""
    return _bin_length(n)


def _bin_length(n: int) -> str:
    n = max(n, 1)  # a sentence without counted tokens (all punctuation) puts no token in any bin
    return "51+" if n > 50 else f"{(n - 1) // 10 * 10 + 1}-{(n - 1) // 10 * 10 + 10}"


def _bin_distance(dep: int, head: int) -> str:
    if head == 0:
        return "root"
    d = abs(head - dep)
    return str(d) if d <= 2 else ("3-6" if d <= 6 else "7+")


def _depths(heads: Sequence[int]) -> list[int | None]:
    """Arcs from each word to the root (root word: 1); ``None`` on or under a cycle / bad head."""
    n = len(heads)
    out: list[int | None] = [None] * n
    for i in range(n):
        path = []
        j, steps = i, 0
        while True:
            if out[j] is not None:
                base = out[j]
                break
            h = heads[j]
            if h == 0:
                base = 0
                path.append(j)
                break
            if not 1 <= h <= n or steps > n:
                base = None
                break
            path.append(j)
            j = h - 1
            steps += 1
        for k in reversed(path):
            if base is None:
                break
            base += 1
            out[k] = base
    return out


def _dominated(heads: Sequence[int], node: int, by: int) -> bool:
    """Whether ``by`` (1-based) is an ancestor of ``node`` (1-based) in a valid tree."""
    j = node
    for _ in range(len(heads) + 1):
        h = heads[j - 1]
        if h == by:
            return True
        if h == 0:
            return False
        j = h
    return False


def _projectivity(heads: Sequence[int], depth: Sequence[int | None]) -> list[str]:
    out = []
    for i, h in enumerate(heads, start=1):
        if depth[i - 1] is None:
            out.append("cycle")
        elif h == 0:
            out.append("projective")
        else:
            lo, hi = min(h, i), max(h, i)
            ok = all(depth[k - 1] is not None and _dominated(heads, k, h) for k in range(lo + 1, hi))
            out.append("projective" if ok else "non-projective")
    return out


def _depth_key(d: int | None) -> str:
    return "cycle" if d is None else (str(d) if d <= 6 else "7+")


def tree_keys(by: str, heads: Sequence[int]) -> list[str]:
    """Each word's ``distance``, ``direction``, ``depth`` or ``nonproj`` in a sentence whose words
    (IDs 1..n) have the HEADs ``heads`` (0: the root)."""
    if by == "distance":
        return [_bin_distance(i, h) for i, h in enumerate(heads, start=1)]
    if by == "direction":
        return ["root" if h == 0 else "left" if h < i else "right" for i, h in enumerate(heads, start=1)]
    depth = _depths(heads)
    if by == "depth":
        return [_depth_key(d) for d in depth]
    if by == "nonproj":
        return _projectivity(heads, depth)
    raise ValueError(f"unknown grouping {by!r} (one of {', '.join(GROUPINGS)})")


def group_keys(tree: DepTree, by: str, config: AttachConfig = DEFAULT_CONFIG) -> list[str]:
    """Each token's property ``by`` read on ``tree`` (gold or system); two groupings joined by
    ``+`` give both keys joined by ``|`` (a cross-table)."""
    toks = tree.tokens
    parts = cross_parts(by)
    if len(parts) > 1:
        keys = [group_keys(tree, p, config) for p in parts]
        return ["|".join(k) for k in zip(*keys, strict=True)]
    if by == "deprel":
        return [t.deprel.split(":", 1)[0] if config.deprel_base else t.deprel for t in toks]
    if by == "upos":
        return [t.upos for t in toks]
    if by == "length":
        key = _bin_length(_kept_length(tree, config))  # counted tokens, as --max-len counts them
        return [key] * len(toks)
    return tree_keys(by, [t.head for t in toks])


def _excluded(gold: DepTree, config: AttachConfig) -> bool:
    return config.max_len is not None and _kept_length(gold, config) > config.max_len


def sentence_breakdown(
    gold: DepTree, system: DepTree, by: str, config: AttachConfig = DEFAULT_CONFIG
) -> Breakdown:
    """Per-group counts of one sentence pair (same tokens; the judgements of ``judge_tokens``)."""
    if _excluded(gold, config):
        return Breakdown(by)
    gkeys = group_keys(gold, by, config)
    skeys = gkeys if by == "length" else group_keys(system, by, config)  # (a cross reads length on both)
    acc: dict[str, list[int]] = {}
    for j, gk, sk in zip(judge_tokens(gold, system, config), gkeys, skeys, strict=True):
        if not j.counted:
            continue
        a = acc.setdefault(gk, [0] * 8)
        a[0] += 1
        a[2] += j.uas
        a[3] += j.las
        a[4] += j.label
        b = acc.setdefault(sk, [0] * 8)
        b[1] += 1
        b[5] += j.uas
        b[6] += j.las
        b[7] += j.label
    return Breakdown(by, sorted_groups({k: GroupCounts(*v) for k, v in acc.items()}, by))


EXAMPLES = 3
"""Gold sentences named for each confusion (the first ones met)."""


@dataclass(frozen=True, slots=True)
class HeadErrors:
    """Counted tokens by what is wrong; add with ``+``."""

    both_right: int = 0
    label_wrong: int = 0  # right head, wrong relation
    head_wrong: int = 0  # wrong head, right relation
    both_wrong: int = 0

    def __add__(self, other: HeadErrors) -> HeadErrors:
        return HeadErrors(**add_fields(self, other))


@dataclass(frozen=True, slots=True)
class Confusion:
    """(gold relation, system relation) -> counted tokens, and the head/label error classes."""

    cells: tuple[tuple[tuple[str, str], int], ...] = ()
    errors: HeadErrors = HeadErrors()
    examples: tuple[tuple[tuple[str, str], tuple[str, ...]], ...] = ()  # (gold, system) -> gold sentences

    def __add__(self, other: Confusion) -> Confusion:
        out = dict(self.cells)
        for key, n in other.cells:
            out[key] = out.get(key, 0) + n
        seen = {k: list(v) for k, v in self.examples}
        for key, names in other.examples:
            kept = seen.setdefault(key, [])
            kept.extend(n for n in names if n not in kept)
            del kept[EXAMPLES:]
        examples = tuple(sorted((k, tuple(v)) for k, v in seen.items()))
        return Confusion(tuple(sorted(out.items())), self.errors + other.errors, examples)

    def count(self, gold: str, system: str) -> int:
        return dict(self.cells).get((gold, system), 0)


def sentence_confusion(gold: DepTree, system: DepTree, config: AttachConfig = DEFAULT_CONFIG) -> Confusion:
    if _excluded(gold, config):
        return Confusion()
    gk, sk = group_keys(gold, "deprel", config), group_keys(system, "deprel", config)
    cells: dict[tuple[str, str], int] = {}
    e = [0, 0, 0, 0]
    for j, g, s in zip(judge_tokens(gold, system, config), gk, sk, strict=True):
        if not j.counted:
            continue
        cells[(g, s)] = cells.get((g, s), 0) + 1
        e[(0 if j.uas else 2) + (0 if j.label else 1)] += 1
    examples = tuple((k, (gold.label,)) for k in sorted(cells) if k[0] != k[1])
    return Confusion(tuple(sorted(cells.items())), HeadErrors(*e), examples)


def signature(by: str, config: AttachConfig) -> str:
    return make_signature(
        "breakdown",
        [
            ("by", by),
            ("punct", config.punct_value),
            ("maxlen", config.max_len),
            ("deprel", "base" if config.deprel_base else "full"),
            ("bins", "evalpl"),
        ],
    )


def confusion_signature(config: AttachConfig) -> str:
    """The confusion table's settings (which tokens count; relations full or base)."""
    return make_signature(
        "confusion",
        [
            ("punct", config.punct_value),
            ("maxlen", config.max_len),
            ("deprel", "base" if config.deprel_base else "full"),
        ],
    )


@dataclass(frozen=True, slots=True)
class BreakdownResult:
    """Corpus breakdowns (one per grouping asked), the confusion table and their signatures."""

    breakdowns: tuple[Breakdown, ...]
    confusion: Confusion
    signatures: tuple[str, ...]

    def get(self, by: str) -> Breakdown:
        return next(b for b in self.breakdowns if b.by == by)


class BreakdownAccumulator:
    """Running sums of :func:`breakdown_corpus`, fed one checked sentence pair at a time (so that
    ``evalcore attach --by`` adds them up in the same streaming pass as the corpus counts)."""

    def __init__(self, by: Sequence[str], config: AttachConfig = DEFAULT_CONFIG) -> None:
        self.by = tuple(by)
        self.config = config
        self._totals: list[dict[str, GroupCounts]] = [{} for _ in self.by]
        self._cells: dict[tuple[str, str], int] = {}
        self._examples: dict[tuple[str, str], list[str]] = {}
        self._errors = HeadErrors()

    def add(self, gold: DepTree, system: DepTree) -> tuple[Breakdown, ...]:
        """Add one pair (same tokens, valid trees); returns its own breakdowns."""
        parts = tuple(sentence_breakdown(gold, system, b, self.config) for b in self.by)
        for acc, part in zip(self._totals, parts, strict=True):
            for key, c in part.groups:
                acc[key] = acc[key] + c if key in acc else c
        conf = sentence_confusion(gold, system, self.config)
        for cell, n in conf.cells:
            self._cells[cell] = self._cells.get(cell, 0) + n
        for cell, names in conf.examples:
            seen = self._examples.setdefault(cell, [])
            if len(seen) < EXAMPLES:
                seen.extend(n for n in names if n not in seen)
        self._errors = self._errors + conf.errors
        return parts

    def result(self) -> BreakdownResult:
        return BreakdownResult(
            tuple(Breakdown(b, sorted_groups(acc, b)) for b, acc in zip(self.by, self._totals, strict=True)),
            Confusion(
                tuple(sorted(self._cells.items())),
                self._errors,
                tuple(sorted((k, tuple(v[:EXAMPLES])) for k, v in self._examples.items())),
            ),
            tuple(signature(b, self.config) for b in self.by),
        )


def breakdown_corpus(
    pairs: Iterable[tuple[DepTree, DepTree]],
    by: Sequence[str],
    config: AttachConfig = DEFAULT_CONFIG,
    *,
    on_sentence: Callable[[int, tuple[Breakdown, ...]], None] | None = None,
) -> BreakdownResult:
    """Sum the per-sentence breakdowns and confusions of same-tokenization ``pairs`` (streamed).

    Pairs must already be checked (same tokens, valid trees: see ``attach_corpus``).
    ``on_sentence(index, breakdowns)`` sees each sentence's counts (e.g. for the inspector).
    """
    acc = BreakdownAccumulator(by, config)
    for i, (g, s) in enumerate(pairs):
        parts = acc.add(g, s)
        if on_sentence is not None:
            on_sentence(i, parts)
    return acc.result()
