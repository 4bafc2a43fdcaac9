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

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from evalcore.ted._edist import edist_alignment, edist_distance

__all__ = [
    "OrderedTree",
    "PreparedTree",
    "TedMapping",
    "from_parents",
    "prepare_tree",
    "ted_anchored",
    "ted_block",
    "ted_distance",
    "ted_mapping",
    "ted_same_yield",
    "ted_spine",
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
    """Each node's position in postorder: its preorder position, plus its descendants, minus its
    ancestors (the nodes before it in preorder that come after it in postorder)."""
    n = len(tree)
    children = tree.children
    size = [1] * n
    for i in range(n - 1, -1, -1):
        for c in children[i]:
            size[i] += size[c]
    depth = [0] * n
    for i in range(n):
        d = depth[i] + 1
        for c in children[i]:
            depth[c] = d
    return [i + size[i] - 1 - depth[i] for i in range(n)]


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
    return _anchored(_prepare(x, y, pin_roots), pin_roots)


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What :func:`ted_anchored` and :func:`ted_spine` both need of two trees: integer keys and
    anchors, each key's nodes, and each node's position in postorder."""

    x: OrderedTree
    y: OrderedTree
    kx: list[int]
    ky: list[int]
    ax: list[int]
    ay: list[int]
    by_key_x: dict[int, list[int]]
    by_key_y: dict[int, list[int]]
    post_x: list[int]
    post_y: list[int]


@dataclass(frozen=True, slots=True)
class PreparedTree:
    """One tree's half of :func:`ted_block`'s preparation (:func:`prepare_tree`): kept to compare
    the same tree with several others (a parse's block against every target)."""

    tree: OrderedTree
    key_ids: dict[Hashable, int]
    anchor_ids: dict[Hashable, int]
    kx: list[int]
    ax: list[int]
    by_key: dict[int, list[int]]
    post: list[int]


def prepare_tree(x: OrderedTree) -> PreparedTree:
    """Integer keys and anchors of ``x`` (its root's key pinned), each key's nodes, each node's
    position in postorder."""
    ids: dict[Hashable, int] = {}
    kx = [ids.setdefault(k, len(ids)) for k in x.keys]
    aids: dict[Hashable, int] = {}
    ax = [aids.setdefault(a, len(aids)) for a in x.anchors] if x.anchors is not None else [0] * len(x)
    if kx:
        kx[0] = -1
    by_key: dict[int, list[int]] = {}
    for i, k in enumerate(kx):
        by_key.setdefault(k, []).append(i)
    return PreparedTree(x, ids, aids, kx, ax, by_key, _postorder(x))


def _prepare(x: OrderedTree | PreparedTree, y: OrderedTree, pin_roots: bool) -> _Prepared:
    if not isinstance(x, PreparedTree) or not pin_roots or x.tree.anchors is None or y.anchors is None:
        tx = x.tree if isinstance(x, PreparedTree) else x
        kx, ky = _key_ids(tx, y, pin_roots)
        ax, ay = _anchor_ids(tx, y)
        by_key_x: dict[int, list[int]] = {}
        for i, k in enumerate(kx):
            by_key_x.setdefault(k, []).append(i)
        post_x = _postorder(tx)
    else:  # the ids x's preparation gave, and new ones for keys and anchors only y has
        tx, kx, ax, by_key_x, post_x = x.tree, x.kx, x.ax, x.by_key, x.post
        ids, extra = x.key_ids, dict[Hashable, int]()
        ky = [ids[k] if k in ids else extra.setdefault(k, len(ids) + len(extra)) for k in y.keys]
        aids, more = x.anchor_ids, dict[Hashable, int]()
        ay = [aids[a] if a in aids else more.setdefault(a, len(aids) + len(more)) for a in y.anchors]
        if ky:
            ky[0] = -1
    by_key_y: dict[int, list[int]] = {}
    for j, k in enumerate(ky):
        by_key_y.setdefault(k, []).append(j)
    return _Prepared(tx, y, kx, ky, ax, ay, by_key_x, by_key_y, post_x, _postorder(y))


def _anchored(prep: _Prepared, pin_roots: bool) -> TedMapping | None:
    """:func:`ted_anchored` on prepared trees."""
    n, m = len(prep.x), len(prep.y)
    ax, ay = prep.ax, prep.ay
    pairs: list[tuple[int, int]] = []
    for key, xs in prep.by_key_x.items():
        ys = prep.by_key_y.get(key)
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
    if not _keeps_order(pairs, prep.post_x, prep.post_y):
        return None
    if pin_roots and (0, 0) not in pairs:
        return None
    mapped_x = {i for i, _ in pairs}
    mapped_y = {j for _, j in pairs}
    deleted = tuple(i for i in range(n) if i not in mapped_x)
    inserted = tuple(j for j in range(m) if j not in mapped_y)
    # every key has min(count in x, count in y) of its nodes paired: the cost is the lower bound
    return TedMapping(len(deleted) + len(inserted), tuple(pairs), deleted, inserted)


def ted_block(
    x: OrderedTree | PreparedTree, y: OrderedTree, *, check: Callable[[int, int], None] | None = None
) -> TedMapping | None:
    """:func:`ted_anchored`, else :func:`ted_spine` (roots pinned), on one preparation of the
    trees (``x`` may come prepared: :func:`prepare_tree`); ``None`` when neither answers (the
    caller runs :func:`ted_mapping`).  ``check`` is called with the sizes of the two trees the
    general algorithm is about to run on (it raises to refuse them)."""
    if len(x.tree if isinstance(x, PreparedTree) else x) < 2 or len(y) < 2:
        return None
    prep = _prepare(x, y, True)
    return _anchored(prep, True) or _spine(prep, check)


def ted_spine(x: OrderedTree, y: OrderedTree) -> TedMapping | None:
    """:func:`ted_mapping` with pinned roots, the general algorithm run on two much smaller trees.

    A node whose key the other tree lacks is in no mapping: it is deleted (inserted) and contracted
    away, which keeps every relation between the others.  A key each tree has once makes a
    *unique* pair.  The *spine* of each tree is its root, its nodes of keys that a tree has more
    than once, and the ancestors of spine nodes, closed so that a unique pair is on both spines or
    on neither.  The unique pairs off the spines must keep ancestry and order among themselves (if
    they do not, ``None``: the caller runs :func:`ted_mapping`).  Then a unique node off the spine
    stands where it stands to every spine node by its *region* (its nearest spine ancestor and how
    many of that ancestor's spine children come before it), and the unique pairs of the same two
    regions are kept or dropped together by every mapping that keeps the spine pairs it keeps:
    each such group becomes one leaf that costs its size to delete or insert (and its pairs'
    anchors that differ, as ties).  The general algorithm maps the spines and the groups; the
    optimum, and the ties settled on anchors, are those of the whole trees."""
    if len(x) < 2 or len(y) < 2:
        return None
    return _spine(_prepare(x, y, True), None)


def _spine(prep: _Prepared, check: Callable[[int, int], None] | None) -> TedMapping | None:
    """:func:`ted_spine` on prepared trees (roots pinned)."""
    x, y = prep.x, prep.y
    n, m = len(x), len(y)
    kx, ky, ax, ay = prep.kx, prep.ky, prep.ax, prep.ay
    cx = {k: len(v) for k, v in prep.by_key_x.items()}
    cy = {k: len(v) for k, v in prep.by_key_y.items()}
    where_y = {ky[j]: j for j in range(1, m) if cy[ky[j]] == 1 and cx.get(ky[j]) == 1}
    partner_x = {i: where_y[kx[i]] for i in range(1, n) if kx[i] in where_y}
    partner_y = {j: i for i, j in partner_x.items()}
    px, py = _parents_of(x), _parents_of(y)
    spine_x = [i == 0 or (kx[i] in cy and i not in partner_x) for i in range(n)]
    spine_y = [j == 0 or (ky[j] in cx and j not in partner_y) for j in range(m)]
    _close((spine_x, spine_y), (px, py), (partner_x, partner_y))
    pairs = sorted((i, j) for i, j in partner_x.items() if not spine_x[i])
    if not _keeps_order(pairs, prep.post_x, prep.post_y):
        return None
    region_x, region_y = _regions(x, spine_x, px), _regions(y, spine_y, py)
    groups: dict[tuple[tuple[int, int], tuple[int, int]], list[tuple[int, int]]] = {}
    for i, j in pairs:
        groups.setdefault((region_x[i], region_y[j]), []).append((i, j))
    small_x, at_x = _spine_tree(x, spine_x, px, [(rx, g) for g, ((rx, _), _) in enumerate(groups.items())])
    small_y, at_y = _spine_tree(y, spine_y, py, [(ry, g) for g, ((_, ry), _) in enumerate(groups.items())])
    members = list(groups.values())
    if check is not None:
        check(len(small_x), len(small_y))
    # delete/insert costs; a group's pair costs its anchors that differ, as ties (eps each)
    eps = 1.0 / (2.0 * (n + m + 2))
    big = float(n + m + 1)
    cost_x = [
        big if a == ("spine", 0) else (1.0 if a[0] == "spine" else float(len(members[a[1]]))) for a in at_x
    ]
    cost_y = [
        big if b == ("spine", 0) else (1.0 if b[0] == "spine" else float(len(members[b[1]]))) for b in at_y
    ]
    ties = [eps * sum(ax[i] != ay[j] for i, j in g) for g in members]

    def delta(a: int | None, b: int | None) -> float:
        if a is None:
            return cost_y[b]  # type: ignore[index]
        if b is None:
            return cost_x[a]
        (sa, va), (sb, vb) = at_x[a], at_y[b]
        if sa != sb:
            return big
        if sa == "group":
            return ties[va] if va == vb else big
        if va == 0 or vb == 0:
            return 0.0 if va == vb == 0 else big
        if kx[va] != ky[vb]:
            return big
        return 0.0 if ax[va] == ay[vb] else eps

    mapped: list[tuple[int, int]] = []
    for left, right in edist_alignment(small_x.children, small_y.children, delta):
        if left >= 0 and right >= 0:
            (sa, va), (_, vb) = at_x[left], at_y[right]
            if sa == "group":
                mapped.extend(members[va])
            else:
                if va != vb and kx[va] != ky[vb]:  # never optimal; guard anyway
                    raise AssertionError(f"TED mapped unequal nodes {va} and {vb}")
                mapped.append((va, vb))
    if (0, 0) not in mapped:
        raise AssertionError("TED did not map the pinned roots")
    mapped.sort()
    in_x = {i for i, _ in mapped}
    in_y = {j for _, j in mapped}
    deleted = tuple(i for i in range(n) if i not in in_x)
    inserted = tuple(j for j in range(m) if j not in in_y)
    return TedMapping(len(deleted) + len(inserted), tuple(mapped), deleted, inserted)


def _parents_of(tree: OrderedTree) -> list[int]:
    parent = [-1] * len(tree)
    for i, kids in enumerate(tree.children):
        for c in kids:
            parent[c] = i
    return parent


def _close(
    spines: tuple[list[bool], list[bool]],
    parents: tuple[list[int], list[int]],
    partners: tuple[dict[int, int], dict[int, int]],
) -> None:
    """Close both spines upwards (a spine node's ancestors) and across (a unique pair on both
    spines or on neither), in place."""
    todo = [(0, i) for i, s in enumerate(spines[0]) if s] + [(1, j) for j, s in enumerate(spines[1]) if s]
    while todo:
        side, node = todo.pop()
        other = partners[side].get(node)
        if other is not None and not spines[1 - side][other]:
            spines[1 - side][other] = True
            todo.append((1 - side, other))
        up = parents[side][node]
        if up >= 0 and not spines[side][up]:
            spines[side][up] = True
            todo.append((side, up))


def _regions(tree: OrderedTree, spine: Sequence[bool], parent: Sequence[int]) -> list[tuple[int, int]]:
    """Each node's region: its nearest spine ancestor and how many of that ancestor's spine
    children (spine nodes whose nearest spine ancestor it is) come before it in preorder."""
    n = len(tree)
    near = [-1] * n  # nearest spine ancestor
    seen = [0] * n  # spine children met so far, per spine node (preorder walk)
    region = [(-1, 0)] * n
    for i in range(1, n):
        p = parent[i]
        a = p if spine[p] else near[p]
        near[i] = a
        if spine[i]:
            seen[a] += 1
        else:
            region[i] = (a, seen[a])
    return region


def _spine_tree(
    tree: OrderedTree,
    spine: Sequence[bool],
    parent: Sequence[int],
    leaves: Sequence[tuple[tuple[int, int], int]],
) -> tuple[OrderedTree, list[tuple[str, int]]]:
    """The spine of ``tree`` (nearest spine ancestor as parent) with a leaf for each group, placed
    in its region (``leaves``: (region, group), in the groups' order of first pair), and what
    each node of it is: ``("spine", node)`` or ``("group", g)``; in preorder."""
    kids: dict[int, list[tuple[int, int, str, int]]] = {}  # spine node -> (gap, order, kind, id)
    near = [-1] * len(tree)
    gaps: dict[int, int] = {}
    for i in range(1, len(tree)):
        p = parent[i]
        a = p if spine[p] else near[p]
        near[i] = a
        if spine[i]:
            gaps[a] = gaps.get(a, 0) + 1
            kids.setdefault(a, []).append((gaps[a] - 1, 1, "spine", i))
    for (a, gap), g in leaves:
        kids.setdefault(a, []).append((gap, 0, "group", g))  # before the spine child of its gap
    what: list[tuple[str, int]] = []
    children: list[list[int]] = []
    stack: list[tuple[str, int, int]] = [("spine", 0, -1)]
    while stack:
        kind, ident, up = stack.pop()
        me = len(what)
        what.append((kind, ident))
        children.append([])
        if up >= 0:
            children[up].append(me)
        if kind == "spine":
            below = sorted(kids.get(ident, ()))  # by gap, groups before the spine child; groups in order
            for _, _, k, v in reversed(below):
                stack.append((k, v, me))
    return OrderedTree(tuple(range(len(what))), tuple(tuple(c) for c in children)), what


def _keeps_order(pairs: Sequence[tuple[int, int]], post_x: Sequence[int], post_y: Sequence[int]) -> bool:
    """Whether ``pairs`` (sorted by x's preorder) keep both preorders and both postorders."""
    last = -1
    for _, j in pairs:
        if j <= last:
            return False
        last = j
    last = -1
    for _, j in sorted(pairs, key=lambda p: post_x[p[0]]):
        if post_y[j] <= last:
            return False
        last = post_y[j]
    return True
