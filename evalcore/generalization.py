"""Subsumption, unification, TL-unification and generalization of function trees.

EMNLP 2011 §3.2 (docs/tedeval.md, "Generalization and unification (2011 protocol)") and EACL 2012 §3.2
(docs/tedeval.md, "Subsumption, generalization and TL-unification (2012 protocol)"), on span-keyed trees
(:class:`~evalcore.trees.SpanTree`): every operation is set arithmetic on spans plus a rule for labels
(2011: ``*`` equals anything and two different labels generalize to ``CONFLICT``; 2012: label sets).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce

from evalcore.choices import PROTOCOL_2011
from evalcore.conversion import first_difference
from evalcore.errors import MismatchError, UnificationError
from evalcore.trees import Span, SpanTree, span_key

__all__ = [
    "CONFLICT",
    "WILDCARDS",
    "crossing",
    "generalize",
    "generalize_all",
    "labels_equal",
    "subsumes",
    "tl_unify",
    "unify",
]

CONFLICT = "<CONFLICT>"
WILDCARD = "*"
WILDCARDS = frozenset({WILDCARD, CONFLICT})
"""Labels that relabel to and from at zero cost (docs/tedeval.md, "Generalization and unification (2011
protocol)" and "Edit scripts, discount and score")."""


def _label2011(labels: frozenset[str]) -> str:
    return next(iter(labels)) if labels else WILDCARD


def labels_equal(a: str, b: str) -> bool:
    """2011 label equality: ``*`` (and CONFLICT, scored as ``*``) equals anything."""
    return a == b or a in WILDCARDS or b in WILDCARDS


def _gen_label(a: str, b: str) -> str:
    if a == b:
        return a
    if CONFLICT in (a, b):
        return CONFLICT
    if a == WILDCARD:
        return b
    if b == WILDCARD:
        return a
    return CONFLICT


def _check_same(a: SpanTree, b: SpanTree) -> None:
    if a.protocol != b.protocol:
        raise MismatchError(f"cannot combine a {a.protocol} tree with a {b.protocol} tree")
    if a.words != b.words:
        first = first_difference(a.words, b.words)[0]
        raise MismatchError(
            f"sentence '{a.sent_id or b.sent_id}': the trees are over different words "
            f"(first difference at word {first + 1})"
        )


def generalize(a: SpanTree, b: SpanTree) -> SpanTree:
    """``a ⊓ b``: the spans of both; 2011 labels by the CONFLICT rule, 2012 label sets intersected."""
    _check_same(a, b)
    bb = b.by_span
    out: dict[Span, frozenset[str]] = {}
    for span, labels in a.items:
        other = bb.get(span)
        if other is None:
            continue
        if a.protocol == PROTOCOL_2011:
            out[span] = frozenset((_gen_label(_label2011(labels), _label2011(other)),))
        else:
            out[span] = labels & other
    return SpanTree.build(a.words, out, a.protocol, a.sent_id or b.sent_id, a.root_labels & b.root_labels)


def generalize_all(trees: Iterable[SpanTree]) -> SpanTree:
    """n-ary generalization (a fold; commutative and associative, property-tested)."""
    items = list(trees)
    if not items:
        raise ValueError("generalize_all needs at least one tree")
    return reduce(generalize, items)


def crossing(a: Span, b: Span) -> bool:
    """Two spans cross if they overlap and neither contains the other."""
    return bool(a & b) and not (a <= b or b <= a)


def _show(span: Span, words: tuple[str, ...]) -> str:
    return "{" + " ".join(words[i] for i in span_key(span)) + "}"


def unify(a: SpanTree, b: SpanTree) -> SpanTree:
    """``a ⊔ b``: all spans of both; fails (UnificationError naming the conflict) on crossing spans
    or, in 2011, two different non-``*`` labels on one span."""
    _check_same(a, b)
    aa, bb = a.by_span, b.by_span
    only_b = [s for s in bb if s not in aa]
    bad = next(((sa, sb) for sb in only_b for sa in aa if crossing(sa, sb)), None)
    if bad is not None:
        raise UnificationError(
            f"sentence '{a.sent_id}': spans {_show(bad[0], a.words)} and {_show(bad[1], a.words)} cross"
        )
    out: dict[Span, frozenset[str]] = dict(aa)
    for span, labels in bb.items():
        mine = out.get(span)
        if mine is None:
            out[span] = labels
        elif a.protocol == PROTOCOL_2011:
            la, lb = _label2011(mine), _label2011(labels)
            if la != lb and WILDCARD not in (la, lb):
                raise UnificationError(
                    f"sentence '{a.sent_id}': span {_show(span, a.words)} is labeled '{la}' and '{lb}'"
                )
            out[span] = frozenset((lb if la == WILDCARD else la,))
        else:
            out[span] = mine | labels
    return SpanTree.build(a.words, out, a.protocol, a.sent_id or b.sent_id, a.root_labels | b.root_labels)


def tl_unify(a: SpanTree, b: SpanTree) -> SpanTree:
    """``a ⊔tl b`` (EACL 2012 §3.2): the structure of ``a``; each node's labels ∪ those of ``b``'s
    node with the same span, if any."""
    _check_same(a, b)
    bb = b.by_span
    out = {span: labels | bb.get(span, frozenset()) for span, labels in a.items}
    if a.protocol == PROTOCOL_2011:
        raise UnificationError("TL-unification is defined for multi-function trees (protocol 2012)")
    return SpanTree.build(a.words, out, a.protocol, a.sent_id, a.root_labels | b.root_labels)


def subsumes(a: SpanTree, b: SpanTree) -> bool:
    """``a ⊑ b``: every node of ``a`` has a node of ``b`` with the same span and a label that
    is equal (2011, ``*`` equal to anything) or a superset (2012)."""
    if a.words != b.words or a.protocol != b.protocol:
        return False
    bb = b.by_span
    for span, labels in a.items:
        other = bb.get(span)
        if other is None:
            return False
        if a.protocol == PROTOCOL_2011:
            if not labels_equal(_label2011(labels), _label2011(other)):
                return False
        elif not labels <= other:
            return False
    return True
