"""General ordered tree edit distance with an optimal mapping (docs/lattice.md, "TEDEVAL over lattices";
docs/architecture.md, "Performance targets"; ACL 2012 §3).

Trees over *different* yields (lattice paths) need a real TED algorithm: there
is no span to anchor a node to.  The cost model is the ACL 2012 paper's (docs/lattice.md, "TEDEVAL
over lattices"); a mapping between unequal match keys costs ``|x| + |y| + 1``, more than any script
that avoids it, so a relabel is always a DEL plus an ADD.

The distance and the mapping come from ``edist`` (Paaßen; GPLv3, Cython
Zhang–Shasha with backtrace, 0.7–2.6 ms on 50–100-node trees, docs/architecture.md, "Performance targets"; the
reason evalcore is GPL-3.0-or-later, ``docs/decisions.md``).  The test suite
checks distances against ``apted`` (MIT) on random trees.

Trees are given in preorder with child lists (:class:`OrderedTree`); nothing
here recurses, so 1,000-node trees are fine (edist's loops are iterative).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from evalcore.ted._edist import edist_alignment, edist_distance

__all__ = [
    "OrderedTree",
    "TedMapping",
    "from_parents",
    "ted_anchored",
    "ted_distance",
    "ted_mapping",
    "ted_same_yield",
]


@dataclass(frozen=True, slots=True)
class OrderedTree:
    """An ordered tree in preorder: ``keys[i]`` decides what node ``i`` may be mapped to,
    ``children[i]`` lists its children in order.  Node 0 is the root.

    ``anchors`` (optional) only break ties: among the optimal scripts, one
    that maps the fewest nodes with *different* anchors is returned (e.g. the
    token range a node covers, so that a node is kept where it stands in the
    lattice, as in ACL 2012 Figure 1).  They never change the distance.

    The layout must be a depth-first preorder (a node's subtree occupies the
    indices right after it), which is what edist expects; :meth:`check` tests it.
    """

    keys: tuple[Hashable, ...]
    children: tuple[tuple[int, ...], ...]
    anchors: tuple[Hashable, ...] | None = None

    def __len__(self) -> int:
        return len(self.keys)

    def check(self) -> None:
        """Raise ``ValueError`` unless this is one tree in depth-first preorder."""
        n = len(self.keys)
        if len(self.children) != n:
            raise ValueError(f"{n} keys but {len(self.children)} child lists")
        if n == 0:
            return
        expected = 1
        stack: list[int] = [0]
        # walk the tree in preorder with an explicit stack; node k must be visited k-th
        while stack:
            node = stack.pop()
            for c in self.children[node]:
                if not 0 < c < n:
                    raise ValueError(f"node {node}: child index {c} out of range")
            for c in reversed(self.children[node]):
                stack.append(c)
            if stack:
                nxt = stack[-1]
                if nxt != expected:
                    raise ValueError(f"node {nxt} is not in depth-first preorder (expected {expected})")
                expected += 1
        if expected != n:
            raise ValueError(f"{n - expected} nodes are not reachable from the root")


@dataclass(frozen=True, slots=True)
class TedMapping:
    """An optimal edit script: mapped pairs (cost 0), deleted ``x`` nodes, inserted ``y`` nodes."""

    distance: int
    pairs: tuple[tuple[int, int], ...]
    deleted: tuple[int, ...]
    inserted: tuple[int, ...]


def _key_ids(x: OrderedTree, y: OrderedTree, pin_roots: bool) -> tuple[list[int], list[int]]:
    """Integer ids for the match keys (equal keys, equal ids); pinned roots get id -1."""
    ids: dict[Hashable, int] = {}
    kx = [ids.setdefault(k, len(ids)) for k in x.keys]
    ky = [ids.setdefault(k, len(ids)) for k in y.keys]
    if pin_roots and kx and ky:
        kx[0] = -1
        ky[0] = -1
    return kx, ky


def _anchor_ids(x: OrderedTree, y: OrderedTree) -> tuple[list[int], list[int]]:
    if x.anchors is None or y.anchors is None:
        return [0] * len(x), [0] * len(y)
    ids: dict[Hashable, int] = {}
    return [ids.setdefault(a, len(ids)) for a in x.anchors], [ids.setdefault(a, len(ids)) for a in y.anchors]


def ted_mapping(x: OrderedTree, y: OrderedTree, *, pin_roots: bool = False) -> TedMapping:
    """The minimum-cost edit script turning ``x`` into ``y`` (unit ADD/DEL, no relabel).

    With ``pin_roots`` the two roots are always mapped to each other, whatever
    their keys, and never deleted or inserted (ACL 2012: the normalization
    ``|p| + |g| − 2`` assumes roots are never edited).
    """
    n, m = len(x), len(y)
    if n == 0 or m == 0:
        return TedMapping(n + m, (), tuple(range(n)), tuple(range(m)))
    big = float(n + m + 1)
    kx, ky = _key_ids(x, y, pin_roots)
    ax, ay = _anchor_ids(x, y)
    # a mapped pair with different anchors costs eps: all of them together cost < 1, so ties only
    eps = 1.0 / (2.0 * (n + m + 2))
    del_cost = [1.0] * n
    ins_cost = [1.0] * m
    if pin_roots:
        del_cost[0] = big
        ins_cost[0] = big

    def delta(a: int | None, b: int | None) -> float:
        if a is None:
            return ins_cost[b]  # type: ignore[index]
        if b is None:
            return del_cost[a]
        if kx[a] != ky[b]:
            return big
        return 0.0 if ax[a] == ay[b] else eps

    alignment = edist_alignment(x.children, y.children, delta)
    pairs: list[tuple[int, int]] = []
    deleted: list[int] = []
    inserted: list[int] = []
    for left, right in alignment:
        if left >= 0 and right >= 0:
            if kx[left] != ky[right]:  # never optimal (cost > any DEL/ADD script); guard anyway
                raise AssertionError(f"TED mapped unequal nodes {left} and {right}")
            pairs.append((left, right))
        elif left >= 0:
            deleted.append(left)
        elif right >= 0:
            inserted.append(right)
    if pin_roots and (0, 0) not in pairs:
        raise AssertionError("TED did not map the pinned roots")
    return TedMapping(len(deleted) + len(inserted), tuple(pairs), tuple(deleted), tuple(inserted))


def ted_distance(x: OrderedTree, y: OrderedTree, *, pin_roots: bool = False) -> int:
    """Only the distance (same cost model as :func:`ted_mapping`)."""
    n, m = len(x), len(y)
    if n == 0 or m == 0:
        return n + m
    big = float(n + m + 1)
    kx, ky = _key_ids(x, y, pin_roots)
    root_cost = big if pin_roots else 1.0

    def delta(a: int | None, b: int | None) -> float:
        if a is None:
            return root_cost if b == 0 else 1.0
        if b is None:
            return root_cost if a == 0 else 1.0
        return 0.0 if kx[a] == ky[b] else big

    return round(edist_distance(x.children, y.children, delta))


def from_parents(keys: Sequence[Hashable], parents: Sequence[int]) -> OrderedTree:
    """Build from a preorder parent array (``parents[0] == -1``); children keep index order."""
    kids: list[list[int]] = [[] for _ in keys]
    for i, p in enumerate(parents):
        if i and p >= 0:
            kids[p].append(i)
    return OrderedTree(tuple(keys), tuple(tuple(k) for k in kids))


def _spans(tree: OrderedTree, leaves: Sequence[int]) -> list[tuple[int, int]]:
    """``(first leaf, last leaf + 1)`` of every node, leaves numbered in order (preorder backwards)."""
    n = len(tree)
    span = [(n, -1)] * n
    for k, leaf in enumerate(leaves):
        span[leaf] = (k, k + 1)
    for i in range(n - 1, -1, -1):
        for c in tree.children[i]:
            a, b = span[c]
            lo, hi = span[i]
            span[i] = (min(lo, a), max(hi, b))
    return span


def _lcs_pairs(
    a: Sequence[int], b: Sequence[int], ka: Sequence[int], kb: Sequence[int]
) -> list[tuple[int, int]]:
    """A longest common subsequence of the key sequences of nodes ``a`` and ``b``, as node pairs."""
    if not a or not b:
        return []
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if ka[a[i]] == kb[b[j]] else max(below[j], row[j + 1])
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if ka[a[i]] == kb[b[j]] and table[i][j] == table[i + 1][j + 1] + 1:
            out.append((a[i], b[j]))
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def ted_same_yield(x: OrderedTree, y: OrderedTree, *, pin_roots: bool = False) -> TedMapping | None:
    """An optimal mapping of two trees over the same yield found by span arithmetic, or ``None``.

    Applies when the leaves (childless nodes) of both trees have the same keys in the same order,
    all distinct (lexemes carry their token: one segmentation on both sides).  Mapping every leaf
    to its twin, a mapped internal node must cover the same leaves on both sides: the nodes over
    one span form a chain (a unary run), matched by a longest common subsequence of their keys.
    That mapping is valid, but *not always optimal*: the general TED may delete a leaf on both
    sides to map nodes whose spans differ (2% of random 9-leaf pairs, even without unary nodes;
    ``docs/robustness.md``).  So it is returned only when its cost equals the lower bound
    ``Σ_key |count in x − count in y|`` (no mapping can match more nodes of a key than the
    rarer side has), which proves it optimal: identical trees, relabelled nodes, added or
    removed unary nodes.  O(n) time and memory (O(k²) for a unary run of k nodes), where the
    general algorithm needs O(n · m); property-tested against :func:`ted_mapping`.
    """
    n, m = len(x), len(y)
    if n < 2 or m < 2:
        return None
    leaves_x = [i for i in range(n) if not x.children[i]]
    leaves_y = [i for i in range(m) if not y.children[i]]
    if len(leaves_x) != len(leaves_y):
        return None
    kx, ky = _key_ids(x, y, pin_roots)
    yield_x = [kx[i] for i in leaves_x]
    if yield_x != [ky[i] for i in leaves_y] or len(set(yield_x)) != len(yield_x) or -1 in yield_x:
        return None
    leaf_x, leaf_y = set(leaves_x), set(leaves_y)
    chains_x: dict[tuple[int, int], list[int]] = {}
    chains_y: dict[tuple[int, int], list[int]] = {}
    for tree, leaves, chains in ((x, leaf_x, chains_x), (y, leaf_y, chains_y)):
        spans = _spans(tree, sorted(leaves))
        start = 1 if pin_roots else 0
        for i in range(start, len(tree)):
            if i not in leaves:
                chains.setdefault(spans[i], []).append(i)  # preorder: a chain from its top down
    pairs: list[tuple[int, int]] = list(zip(leaves_x, leaves_y, strict=True))
    if pin_roots:
        pairs.append((0, 0))
    for span in chains_x.keys() & chains_y.keys():
        pairs.extend(_lcs_pairs(chains_x[span], chains_y[span], kx, ky))
    mapped_x = {a for a, _ in pairs}
    mapped_y = {b for _, b in pairs}
    deleted = tuple(i for i in range(n) if i not in mapped_x)
    inserted = tuple(j for j in range(m) if j not in mapped_y)
    cost = len(deleted) + len(inserted)
    if cost > _count_bound(kx, ky, pin_roots):
        return None  # possibly not optimal: the caller runs the general algorithm
    return TedMapping(cost, tuple(sorted(pairs)), deleted, inserted)


def _count_bound(kx: Sequence[int], ky: Sequence[int], pin_roots: bool) -> int:
    """A lower bound of the TED: nodes of a key that the other tree has fewer of are never mapped."""
    start = 1 if pin_roots else 0
    counts: dict[int, int] = {}
    for k in kx[start:]:
        counts[k] = counts.get(k, 0) + 1
    for k in ky[start:]:
        counts[k] = counts.get(k, 0) - 1
    return sum(abs(v) for v in counts.values())


def _postorder(tree: OrderedTree) -> list[int]:
    """Each node's position in postorder."""
    n = len(tree)
    post = [0] * n
    k = 0
    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        node, done = stack.pop()
        if done:
            post[node] = k
            k += 1
            continue
        stack.append((node, True))
        for c in reversed(tree.children[node]):
            stack.append((c, False))
    return post


def ted_anchored(x: OrderedTree, y: OrderedTree, *, pin_roots: bool = False) -> TedMapping | None:
    """An optimal mapping found without the general algorithm, or ``None``.

    Nodes of equal keys are paired greedily: those with equal anchors first, then the rest in
    preorder, so that every key has as many of its nodes paired as the rarer side has.  The pairing
    is a valid mapping when it keeps both the preorder and the postorder (ancestry and
    left-to-right order); it is returned only then.  Its cost is then the lower bound
    ``Σ_key |count in x − count in y|`` (:func:`ted_same_yield`'s), which proves it optimal.
    Trees whose nodes are mostly anchored to one counterpart (a parse of raw text whose sentence
    boundaries agree with the gold's, docs/rawtext.md) often take it; for the others it returns
    ``None`` and the caller runs :func:`ted_mapping`.  O((n + m) log(n + m))."""
    n, m = len(x), len(y)
    if n == 0 or m == 0:
        return None
    kx, ky = _key_ids(x, y, pin_roots)
    ax, ay = _anchor_ids(x, y)
    by_key_x: dict[int, list[int]] = {}
    by_key_y: dict[int, list[int]] = {}
    for i, k in enumerate(kx):
        by_key_x.setdefault(k, []).append(i)
    for j, k in enumerate(ky):
        by_key_y.setdefault(k, []).append(j)
    pairs: list[tuple[int, int]] = []
    for key, xs in by_key_x.items():
        ys = by_key_y.get(key)
        if not ys:
            continue
        if len(xs) == 1 and len(ys) == 1:
            pairs.append((xs[0], ys[0]))
            continue
        free_y = list(ys)
        rest_x = []
        for i in xs:
            hit = next((j for j in free_y if ay[j] == ax[i]), None)
            if hit is None:
                rest_x.append(i)
            else:
                free_y.remove(hit)
                pairs.append((i, hit))
        pairs.extend(zip(rest_x, free_y, strict=False))
    pairs.sort()
    post_x, post_y = _postorder(x), _postorder(y)
    last_pre = last_post = -1
    for _, j in pairs:  # sorted by x's preorder: y's preorder must rise, and both postorders agree
        if j <= last_pre:
            return None
        last_pre = j
    by_post = sorted(pairs, key=lambda p: post_x[p[0]])
    for _, j in by_post:
        if post_y[j] <= last_post:
            return None
        last_post = post_y[j]
    if pin_roots and (0, 0) not in pairs:
        return None
    mapped_x = {i for i, _ in pairs}
    mapped_y = {j for _, j in pairs}
    deleted = tuple(i for i in range(n) if i not in mapped_x)
    inserted = tuple(j for j in range(m) if j not in mapped_y)
    # every key has min(count in x, count in y) of its nodes paired: the cost is the lower bound
    return TedMapping(len(deleted) + len(inserted), tuple(pairs), deleted, inserted)
