"""Optimal edit scripts for trees over the same words, by span arithmetic (docs/tedeval.md, "Edit scripts,
discount and score").

With terminals pinned to their positions, a node can only be mapped to a node
with the same span, and function trees have one node per span, so the
optimal script is unique: delete the nodes whose span is only in the source,
insert those only in the target, relabel common spans whose labels differ.
That is O(n) with sets; no general TED algorithm is needed (the equivalence
is property-tested against a general TED in ``tests/``).

2011 (EMNLP 2011 §3.3): relabel costs 1 (labeled) or 0 (unlabeled), and 0 to
or from ``*``.  2012 (EACL 2012 §3.3): trees are compared as *sorted function
trees*, so the cost is the symmetric difference of ``(label, span)`` pairs
(labeled) or of spans (unlabeled).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from evalcore.choices import PROTOCOL_2011, PROTOCOL_2012
from evalcore.generalization import WILDCARDS
from evalcore.trees import EditOp, SpanTree

__all__ = ["edit_script", "intersect", "script_cost", "size"]


def _one(labels: frozenset[str]) -> str:
    return next(iter(labels)) if labels else "*"


def edit_script(source: SpanTree, target: SpanTree, *, labeled: bool = True) -> tuple[EditOp, ...]:
    """The optimal script turning ``source`` into ``target`` (every operation costs 1).

    Zero-cost operations (relabels with ``*`` or unlabeled relabels) are left out.
    """
    src, tgt = source.by_span, target.by_span
    ops: list[EditOp] = []
    if source.protocol == PROTOCOL_2011:
        for span, labels in source.items:
            other = tgt.get(span)
            if other is None:
                ops.append(EditOp("del", _one(labels) if labeled else "", span))
            elif labeled:
                a, b = _one(labels), _one(other)
                if a != b and a not in WILDCARDS and b not in WILDCARDS:
                    ops.append(EditOp("rel", a, span, b))
        for span, labels in target.items:
            if span not in src:
                ops.append(EditOp("ins", _one(labels) if labeled else "", span))
        return tuple(ops)
    if labeled:
        for span, labels in source.items:
            for label in sorted(labels - tgt.get(span, frozenset())):
                ops.append(EditOp("del", label, span))
        for span, labels in target.items:
            for label in sorted(labels - src.get(span, frozenset())):
                ops.append(EditOp("ins", label, span))
    else:
        ops.extend(EditOp("del", "", span) for span, _ in source.items if span not in tgt)
        ops.extend(EditOp("ins", "", span) for span, _ in target.items if span not in src)
    return tuple(ops)


def script_cost(script: Iterable[EditOp]) -> int:
    """Every operation kept in a script costs 1."""
    return sum(1 for _ in script)


def intersect(a: Iterable[EditOp], b: Iterable[EditOp]) -> tuple[EditOp, ...]:
    """Multiset intersection of two scripts, in ``a``'s order."""
    budget = Counter(b)
    out: list[EditOp] = []
    for op in a:
        if budget[op] > 0:
            budget[op] -= 1
            out.append(op)
    return tuple(out)


def size(tree: SpanTree, *, labeled: bool = True) -> int:
    """``|π|``: nodes (2011), ``(label, span)`` pairs (2012 labeled) or spans (2012 unlabeled);
    the never-edited root and the terminals excluded."""
    if tree.protocol == PROTOCOL_2012 and labeled:
        return sum(len(labels) for _, labels in tree.items)
    return len(tree.items)
