"""Counting the fragments of a tree by size, without enumerating them (docs/freval.md, "Counting without
enumerating").

A *fragment* is a non-empty connected set of nodes (Bastings & Sima'an, §3); with ``f_v(x)`` the
generating polynomial of the fragments topped by v, ``f_v(x) = x · Π_children (1 + f_c(x))``, and one
bottom-up pass over polynomials truncated at the size limit counts them (exact Python integers).
``include`` restricts the nodes (FREVAL's matched fragments), ``edge_ok`` the parent–child edges (the
``--strict`` reading).  Trees are flat: ``parents[i]`` is node i's parent (-1 for a root), every
parent before its children.

:func:`fragment_counts` keeps only the polynomials of nodes whose parent is not finished yet
(memory O(n) on a chain, not O(n²)), and takes a *unary run* (nodes with one child each) in one
step: k unary nodes above a node with ``f_c`` give ``f_top = x + … + x^k + x^k f_c`` and add
``Σ_i (k − i + 1) x^i + (x + … + x^k) f_c`` to the totals (a sliding-window sum), O(k + |f_c|)
instead of O(k · |f_c|).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["add_counts", "fragment_counts", "fragment_polynomials"]


def _times_one_plus(acc: list[int], f: list[int], limit: int | None) -> list[int]:
    """``acc(x) · (1 + x·f(x))`` truncated to ``limit`` coefficients.

    ``acc`` is indexed by degree; ``f`` by size - 1, so ``1 + x·f`` as a
    degree-indexed list is ``[1, *f]``: the product's size-indexed ``f_v``
    is the degree-indexed ``Π (1 + f_c)`` itself.
    """
    n = len(acc) + len(f)
    if limit is not None and n > limit:
        n = limit
    out = acc[:n]
    out.extend([0] * (n - len(out)))
    for i, a in enumerate(acc):
        if i + 1 >= n:
            break
        if a:
            for j in range(min(len(f), n - i - 1)):
                out[i + j + 1] += a * f[j]
    return out


def fragment_polynomials(
    parents: Sequence[int],
    include: Sequence[bool] | None = None,
    edge_ok: Sequence[bool] | None = None,
    max_size: int | None = None,
) -> list[list[int] | None]:
    """``f_v`` for every node v as a size-indexed list (``[0]`` = fragments of size 1).

    ``None`` for an excluded node.  ``edge_ok[c]`` says whether the edge from
    c to its parent may be used.  Iterative (children before parents by
    walking the preorder backwards), so chains of any depth are fine.
    """
    if max_size is not None and max_size < 1:
        raise ValueError("max_size must be at least 1")
    n = len(parents)
    acc: list[list[int] | None] = [None] * n
    for i in range(n):
        p = parents[i]
        if p >= i:
            raise ValueError(f"node {i}: parent {p} does not precede it (preorder expected)")
        if include is None or include[i]:
            acc[i] = [1]
    for i in range(n - 1, -1, -1):
        f = acc[i]
        if f is None:
            continue
        p = parents[i]
        if p < 0 or (edge_ok is not None and not edge_ok[i]):
            continue
        up = acc[p]
        if up is not None:
            acc[p] = _times_one_plus(up, f, max_size)
    return acc


def add_counts(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """Element-wise sum of two size-indexed count vectors of any lengths."""
    if len(a) < len(b):
        a, b = b, a
    out = list(a)
    for i, v in enumerate(b):
        out[i] += v
    return tuple(out)


def fragment_counts(
    parents: Sequence[int],
    include: Sequence[bool] | None = None,
    edge_ok: Sequence[bool] | None = None,
    max_size: int | None = None,
) -> tuple[int, ...]:
    """Number of fragments of each size: ``result[s - 1]`` fragments of s nodes (no trailing zeros).

    Examples (docs/freval.md, "FREVAL"): a chain of 3 nodes gives ``(3, 2, 1)``; a root with
    3 leaf children gives ``(4, 3, 3, 1)``.  The same numbers as summing
    :func:`fragment_polynomials`, in linear time and memory on unary chains.
    """
    if max_size is not None and max_size < 1:
        raise ValueError("max_size must be at least 1")
    n = len(parents)
    live = [include is None or include[i] for i in range(n)]
    up = [-1] * n  # the parent a node's polynomial is multiplied into (-1: none)
    kids = [0] * n  # effective children: live, with their edge allowed
    only = [-1] * n  # the effective child of a node that has exactly one
    for i in range(n):
        p = parents[i]
        if p >= i:
            raise ValueError(f"node {i}: parent {p} does not precede it (preorder expected)")
        if live[i] and p >= 0 and live[p] and (edge_ok is None or edge_ok[i]):
            up[i] = p
            kids[p] += 1
            only[p] = i
    acc: list[list[int] | None] = [[1] if live[i] else None for i in range(n)]
    done = [False] * n
    total: list[int] = []
    for i in range(n - 1, -1, -1):
        f = acc[i]
        if f is None or done[i]:
            continue
        acc[i] = None
        done[i] = True
        # climb the unary run above i: parents whose one effective child is the node below
        top, k = i, 0
        while up[top] >= 0 and kids[up[top]] == 1:
            top = up[top]
            done[top] = True
            acc[top] = None
            k += 1
        _add(total, f)
        if k:
            _add(total, _run_sum(f, k, max_size))
            f = ([1] * k + f)[:max_size]
        p = up[top]
        if p >= 0:
            got = acc[p]
            assert got is not None
            acc[p] = _times_one_plus(got, f, max_size)
    while total and total[-1] == 0:
        total.pop()
    return tuple(total)


def _add(total: list[int], f: Sequence[int]) -> None:
    if len(f) > len(total):
        total.extend([0] * (len(f) - len(total)))
    for k, v in enumerate(f):
        total[k] += v


def _run_sum(f: Sequence[int], k: int, limit: int | None) -> list[int]:
    """The polynomials of the k unary nodes above a node with polynomial ``f`` (size-indexed),
    summed: ``Σ_{j=1..k} (x + … + x^j + x^j f)``, truncated to ``limit`` sizes."""
    length = k + len(f)
    if limit is not None:
        length = min(length, limit)
    out = [max(k - u, 0) for u in range(length)]  # x^(u+1) appears in the k - u top-most nodes
    prefix = [0]
    for v in f:
        prefix.append(prefix[-1] + v)
    for u in range(1, length):
        # size index u gets f[u - j] for j = 1..k with 0 <= u - j < len(f)
        hi = min(u - 1, len(f) - 1)
        lo = max(u - k, 0)
        if lo <= hi:
            out[u] += prefix[hi + 1] - prefix[lo]
    return out
