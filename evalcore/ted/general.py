"""General ordered tree edit distance with an optimal mapping (SPEC §6, §8; ACL 2012 §3).

Trees over *different* yields (lattice paths) need a real TED algorithm: there
is no span to anchor a node to.  The cost model is the one of the ACL 2012
paper: every ADD and DEL costs 1 and there is no relabel -- two nodes can be
mapped only if their match keys are equal (cost 0).  A mapping between
unequal keys is given a cost above any script that avoids it (``|x| + |y| + 1``),
so it is never part of an optimum: a relabel is always a DEL plus an ADD.

The distance and the mapping come from ``edist`` (Paaßen; GPLv3, Cython
Zhang–Shasha with backtrace, 0.7–2.6 ms on 50–100-node trees, SPEC §8; the
reason evalcore is GPL-3.0-or-later, ``docs/decisions.md``).  The test suite
checks distances against ``apted`` (MIT) on random trees.

Trees are given in preorder with child lists (:class:`OrderedTree`); nothing
here recurses, so 1,000-node trees are fine (edist's loops are iterative).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from edist import ted as _edist

__all__ = ["OrderedTree", "TedMapping", "from_parents", "ted_distance", "ted_mapping"]


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

    alignment = _edist.ted_backtrace(
        list(range(n)), [list(c) for c in x.children], list(range(m)), [list(c) for c in y.children], delta
    )
    pairs: list[tuple[int, int]] = []
    deleted: list[int] = []
    inserted: list[int] = []
    for step in alignment:
        left, right = int(step._left), int(step._right)
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

    d = _edist.ted(
        list(range(n)), [list(c) for c in x.children], list(range(m)), [list(c) for c in y.children], delta
    )
    return round(d)


def from_parents(keys: Sequence[Hashable], parents: Sequence[int]) -> OrderedTree:
    """Build from a preorder parent array (``parents[0] == -1``); children keep index order."""
    kids: list[list[int]] = [[] for _ in keys]
    for i, p in enumerate(parents):
        if i and p >= 0:
            kids[p].append(i)
    return OrderedTree(tuple(keys), tuple(tuple(k) for k in kids))
