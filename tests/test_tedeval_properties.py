"""Property tests of TedEval (docs/tedeval.md, "Definitions"), including the cross-check of the span-
arithmetic scripts against a general ordered TED (APTED, terminals pinned to their positions)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest
from apted import APTED, Config
from hypothesis import given
from hypothesis import strategies as st
from tedeval_helpers import dep

from evalcore.conversion import ConversionConfig, projectivize, to_span_tree
from evalcore.errors import UnificationError
from evalcore.generalization import WILDCARDS, generalize, generalize_all, subsumes, unify
from evalcore.metrics.tedeval import sentence_ted
from evalcore.ted.spans import edit_script, size
from evalcore.trees import EditOp, Span, SpanTree

LABELS = ("a", "b", "c")
PROTOCOLS = ("2011", "2012")


@st.composite
def dep_trees(draw: st.DrawFn, n: int | None = None, projective: bool = False) -> object:
    """A random dependency tree (possibly non-projective, one or two roots)."""
    if n is None:
        n = draw(st.integers(1, 8))
    order = draw(st.permutations(range(1, n + 1)))
    heads = [0] * (n + 1)
    roots = 1 if n < 3 else draw(st.integers(1, 2))
    for k, w in enumerate(order):
        heads[w] = 0 if k < roots else order[draw(st.integers(0, k - 1))]
    rels = [draw(st.sampled_from(LABELS)) for _ in range(n)]
    tree = dep([f"w{i}" for i in range(1, n + 1)], heads[1:], rels)
    if projective:
        tree, _ = projectivize(tree)
    return tree


@st.composite
def tree_pairs(draw: st.DrawFn, count: int = 2, projective: bool = False) -> tuple[str, list[SpanTree]]:
    protocol = draw(st.sampled_from(PROTOCOLS))
    n = draw(st.integers(1, 8))
    cfg = ConversionConfig(protocol=protocol)  # type: ignore[arg-type]
    trees = [to_span_tree(draw(dep_trees(n, projective)), cfg) for _ in range(count)]  # type: ignore[arg-type]
    return protocol, trees


@given(tree_pairs(2))
def test_generalization_commutative(data: tuple[str, list[SpanTree]]) -> None:
    _, (a, b) = data
    assert generalize(a, b) == generalize(b, a)


@given(tree_pairs(3))
def test_generalization_associative(data: tuple[str, list[SpanTree]]) -> None:
    _, (a, b, c) = data
    assert generalize(generalize(a, b), c) == generalize(a, generalize(b, c))
    assert generalize_all([a, b, c]) == generalize_all([c, a, b])


@given(tree_pairs(2))
def test_generalization_idempotent_and_subsumed(data: tuple[str, list[SpanTree]]) -> None:
    _, (a, b) = data
    assert generalize(a, a) == a
    g = generalize(a, b)
    assert subsumes(g, a)
    assert subsumes(g, b)


@given(tree_pairs(2))
def test_unification_subsumes_both(data: tuple[str, list[SpanTree]]) -> None:
    _, (a, b) = data
    try:
        u = unify(a, b)
    except UnificationError:
        return
    assert subsumes(a, u)
    assert subsumes(b, u)


@given(tree_pairs(3), st.booleans())
def test_gold_against_its_generalizations(data: tuple[str, list[SpanTree]], labeled: bool) -> None:
    _, (g, h, k) = data
    for general in (generalize(g, h), generalize_all([g, h, k]), g):
        assert sentence_ted(g, g, general, labeled=labeled).delta == 0
        assert sentence_ted(g, g, general, labeled=labeled).score == 1.0


@given(tree_pairs(2), st.booleans())
def test_single_gold_is_plain_ted(data: tuple[str, list[SpanTree]], labeled: bool) -> None:
    _, (p, g) = data
    s = sentence_ted(p, g, g, labeled=labeled)
    assert s.delta == len(edit_script(p, g, labeled=labeled))
    assert s.norm == size(p, labeled=labeled) + size(g, labeled=labeled)
    assert 0.0 <= s.score <= 1.0


# ---------------------------------------------------------------------------
# cross-check with a general ordered TED (APTED, MIT), terminals pinned

BIG = 10_000


@dataclass
class _N:
    label: str
    span: Span
    terminal: int | None = None
    children: list[_N] = field(default_factory=list)


def _apted_tree(tree: SpanTree, labeled: bool) -> _N:
    """The tree APTED compares: 2011 function tree; 2012 *sorted function tree* (labeled: each label set
    a unary chain in sorted order, empty sets make no node) or one node per MF node (unlabeled)."""
    mf = tree.to_mftree()
    spans = mf.spans
    built: dict[int, list[_N]] = {}
    for i in range(len(mf.nodes) - 1, -1, -1):
        n = mf.nodes[i]
        if n.terminal is not None:
            built[i] = [_N(n.word, spans[i], n.terminal)]
            continue
        kids = [x for c in n.children for x in built.pop(c)]
        if i == 0:
            built[i] = [_N("<ROOT>", spans[i], None, kids)]
        elif tree.protocol == "2011" or not labeled:
            label = next(iter(n.labels)) if tree.protocol == "2011" else ""
            built[i] = [_N(label, spans[i], None, kids)]
        elif not n.labels:
            built[i] = kids
        else:
            chain = [_N(lab, spans[i]) for lab in sorted(n.labels)]
            for upper, lower in itertools.pairwise(chain):
                upper.children = [lower]
            chain[-1].children = kids
            built[i] = [chain[0]]
    return built[0][0]


class _Cfg(Config):  # type: ignore[misc]
    def __init__(self, protocol: str, labeled: bool) -> None:
        self.protocol, self.labeled = protocol, labeled

    def children(self, node: _N) -> list[_N]:
        return node.children

    def delete(self, node: _N) -> float:
        return BIG if node.terminal is not None or node.label == "<ROOT>" else 1

    insert = delete

    def rename(self, a: _N, b: _N) -> float:
        if (a.terminal is None) != (b.terminal is None) or (
            "<ROOT>" in (a.label, b.label) and a.label != b.label
        ):
            return BIG
        if a.terminal is not None:
            return 0 if a.terminal == b.terminal else BIG
        if not self.labeled or a.label == b.label:
            return 0
        if self.protocol == "2011":
            return 0 if a.label in WILDCARDS or b.label in WILDCARDS else 1
        return 2


def _ops_from_mapping(
    mapping: Sequence[tuple[_N | None, _N | None]], protocol: str, labeled: bool
) -> Counter[EditOp]:
    ops: Counter[EditOp] = Counter()
    for a, b in mapping:
        if (a is not None and a.terminal is not None) or (b is not None and b.terminal is not None):
            continue
        if (a is not None and a.label == "<ROOT>") or (b is not None and b.label == "<ROOT>"):
            continue
        if b is None and a is not None:
            ops[EditOp("del", a.label if labeled else "", a.span)] += 1
        elif a is None and b is not None:
            ops[EditOp("ins", b.label if labeled else "", b.span)] += 1
        elif a is not None and b is not None and labeled and a.label != b.label:
            if protocol == "2011":
                if a.label not in WILDCARDS and b.label not in WILDCARDS:
                    ops[EditOp("rel", a.label, a.span, b.label)] += 1
            else:
                ops[EditOp("del", a.label, a.span)] += 1
                ops[EditOp("ins", b.label, b.span)] += 1
    return ops


@given(tree_pairs(2, projective=True), st.booleans())
def test_span_arithmetic_equals_general_ted(data: tuple[str, list[SpanTree]], labeled: bool) -> None:
    protocol, (a, b) = data
    script = edit_script(a, b, labeled=labeled)
    ta, tb = _apted_tree(a, labeled), _apted_tree(b, labeled)
    apted = APTED(ta, tb, _Cfg(protocol, labeled))
    distance = apted.compute_edit_distance()
    assert distance < BIG
    assert distance == len(script)
    assert _ops_from_mapping(apted.compute_edit_mapping(), protocol, labeled) == Counter(script)


def test_conflict_is_absorbing_and_scored_as_wildcard() -> None:
    a = to_span_tree(dep(["x", "y"], [0, 1], ["r", "p"]), ConversionConfig(protocol="2011"))
    b = to_span_tree(dep(["x", "y"], [0, 1], ["r", "q"]), ConversionConfig(protocol="2011"))
    g = generalize(a, b)
    assert "<CONFLICT>" in {next(iter(labels)) for _, labels in g.items}
    assert generalize(g, a) == g  # absorbing
    # a relabel to CONFLICT costs nothing: each gold scores 1.0 against the generalization
    assert sentence_ted(a, a, g).score == 1.0
    assert len(edit_script(a, g)) == 0


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_labeled_unlabeled_sizes(protocol: str) -> None:
    t = to_span_tree(
        dep(["John", "loves", "Mary"], [2, 0, 2], ["sbj", "root", "obj"]), ConversionConfig(protocol=protocol)
    )  # type: ignore[arg-type]
    # 2011 counts the root word's node (docs/tedeval.md, "Function trees (2011 protocol)"); 2012 never counts
    # the full-sentence root (§5.1)
    assert size(t, labeled=True) == (4 if protocol == "2011" else 3)
    assert size(t, labeled=False) == (4 if protocol == "2011" else 3)
