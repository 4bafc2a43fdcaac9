"""Counting the fragments of a tree by size, without enumerating them (SPEC §7).

A *fragment* is a non-empty connected set of nodes of a tree (Bastings &
Sima'an, §3).  For a node v let ``f_v(x)`` be the generating polynomial of
the fragments whose top node is v (the coefficient of ``x^s`` is how many
have s nodes).  A fragment topped by v contains v and, for each child c,
either nothing below c or one fragment topped by c, so

    f_v(x) = x · Π_children (1 + f_c(x))

and the fragments of size s of the whole tree number ``Σ_v [x^s] f_v``.
One bottom-up pass multiplies polynomials truncated at the size limit:
O(n · L) coefficient products for n nodes and limit L (O(n²) unlimited),
with exact Python integers (a 127-node binary tree has over 10^22 fragments).

Restricting the pass to some nodes (``include``) counts the fragments made
only of those nodes (FREVAL's matched fragments); restricting the edges
(``edge_ok``) counts those whose parent–child edges are all allowed (the
``--strict`` reading).

Trees are given flat: ``parents[i]`` is the parent of node i (-1 for a
root; several roots make a forest) and every parent comes before its
children (preorder, as :class:`evalcore.trees.Tree` and
:class:`evalcore.metrics.parseval.Bracket` lists are).
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

    Examples (SPEC §7): a chain of 3 nodes gives ``(3, 2, 1)``; a root with
    3 leaf children gives ``(4, 3, 3, 1)``.
    """
    total: list[int] = []
    for f in fragment_polynomials(parents, include, edge_ok, max_size):
        if f is None:
            continue
        if len(f) > len(total):
            total.extend([0] * (len(f) - len(total)))
        for k, v in enumerate(f):
            total[k] += v
    while total and total[-1] == 0:
        total.pop()
    return tuple(total)
