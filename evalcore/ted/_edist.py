"""The one door to ``edist`` (Paaßen; GPLv3, untyped Cython; docs/architecture.md, "Performance targets"):
typed calls, typed results.

Trees are given as preorder child lists (node ``i``'s children, by index); nodes are their
indices, so ``delta(a, b)`` receives node indices, ``None`` standing for the empty node
(``delta(a, None)`` deletes ``a``, ``delta(None, b)`` inserts ``b``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from edist import ted as _ted  # untyped: the only import of edist (pyproject [tool.mypy])

__all__ = ["Delta", "edist_alignment", "edist_distance"]

Delta = Callable[[int | None, int | None], float]
"""The cost of mapping node ``a`` of x to node ``b`` of y; ``None`` is the empty node."""


def _args(
    x: Sequence[Sequence[int]], y: Sequence[Sequence[int]]
) -> tuple[list[int], list[list[int]], list[int], list[list[int]]]:
    return list(range(len(x))), [list(c) for c in x], list(range(len(y))), [list(c) for c in y]


def edist_distance(x: Sequence[Sequence[int]], y: Sequence[Sequence[int]], delta: Delta) -> float:
    """The tree edit distance between ``x`` and ``y`` under ``delta`` (edist's Zhang–Shasha)."""
    return float(_ted.ted(*_args(x, y), delta))


def edist_alignment(
    x: Sequence[Sequence[int]], y: Sequence[Sequence[int]], delta: Delta
) -> list[tuple[int, int]]:
    """A co-optimal alignment as ``(left, right)`` steps: a mapped pair, or ``-1`` on the side
    without a node (``(i, -1)`` deletes ``i``, ``(-1, j)`` inserts ``j``)."""
    return [(int(step._left), int(step._right)) for step in _ted.ted_backtrace(*_args(x, y), delta)]
