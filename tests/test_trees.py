"""The data model (docs/architecture.md, "The data model"): DepTree, Tree, MFTree, EditOp, Lattice values."""

from __future__ import annotations

import dataclasses

import pytest

from evalcore.trees import (
    DepTree,
    EditOp,
    ExtraLine,
    MFNode,
    MFTree,
    Node,
    Source,
    Token,
    Tree,
    span_key,
)


def dep(heads: list[int], sent_id: str = "", source: Source | None = None) -> DepTree:
    tokens = tuple(Token(i + 1, f"w{i + 1}", head=h) for i, h in enumerate(heads))
    return DepTree(tokens, sent_id, source=source)


# ---------------------------------------------------------------------------
# DepTree


def test_deptree_views() -> None:
    t = dep([2, 0, 2, 3])
    assert len(t) == 4
    assert t.forms == ("w1", "w2", "w3", "w4")
    assert t.heads == (2, 0, 2, 3)
    assert t.deprels == ("_",) * 4
    assert t.children == ((2,), (), (1, 3), (4,), ())


def test_deptree_is_a_frozen_value_and_source_does_not_count_in_equality() -> None:
    a = dep([0, 1], source=Source("a.conllu", 3))
    b = dep([0, 1], source=Source("b.conllu", 9))
    assert a == b
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.sent_id = "x"  # type: ignore[misc]


def test_deptree_label_for_messages() -> None:
    assert dep([0], sent_id="s1").label == "s1"
    assert dep([0], source=Source("f", 12)).label == "at line 12"
    assert dep([0]).label == "?"


@pytest.mark.parametrize(
    ("heads", "problem"),
    [
        ([0, 1, 2], None),
        ([2, 0, 2, 3], None),
        ([0, 0, 1], None),  # several roots are a forest, not an error here (CoNLL-X allows it)
        ([], None),
        ([0, 5], (1, "HEAD '5' of token 2 points past the sentence (2 tokens)")),
        ([0, -1], (1, "HEAD '-1' of token 2 points past the sentence (2 tokens)")),
        ([0, 2], (1, "token 2 is its own head")),
        ([2, 1], (0, "sentence has no root (no token with HEAD 0)")),
        ([0, 3, 2], (1, "cycle through token 2 ('w2')")),
        ([0, 1, 4, 5, 3], (2, "cycle through token 3 ('w3')")),
    ],
)
def test_structure_problem(heads: list[int], problem: tuple[int, str] | None) -> None:
    assert dep(heads).structure_problem() == problem


def test_structure_problem_on_a_long_chain_needs_no_recursion() -> None:
    n = 20_000
    assert dep([0, *range(1, n)]).structure_problem() is None
    looped = dep([0, *range(3, n + 1), 2])  # 2 -> 3 -> ... -> n -> 2
    problem = looped.structure_problem()
    assert problem is not None and "cycle" in problem[1]


def test_source_token_line_falls_back_to_the_sentence_line() -> None:
    s = Source("f", 10, (11, 12))
    assert (s.token_line(0), s.token_line(1), s.token_line(2), s.token_line(-1)) == (11, 12, 10, 10)


def test_extra_line_kinds() -> None:
    assert ExtraLine("3-4", ("du",), 2).is_range
    e = ExtraLine("5.1", ("boit",), 5)
    assert not e.is_range and e.form == "boit"
    assert ExtraLine("5.1", (), 5).form == "_"


# ---------------------------------------------------------------------------
# Tree


def test_tree_from_nested_round_trip_spans_and_parents() -> None:
    spec = ("S", ("NP", ("D", "the"), ("N", "dog")), ("VP", ("V", "ran")))
    t = Tree.from_nested(spec)
    # (nested tuples of this depth cannot be compared with ==: Python's own comparison recurses)
    assert Tree.from_nested(t.to_nested()) == t
    assert t.words == ("the", "dog", "ran")
    assert [n.label for n in t.nodes] == ["S", "NP", "D", "the", "N", "dog", "VP", "V", "ran"]
    assert t.spans[0] == frozenset({0, 1, 2})
    assert t.spans[1] == frozenset({0, 1})
    assert t.parents[1] == 0 and t.parents[0] == -1
    assert [t.nodes[i].label for i in t.preterminals()] == ["D", "N", "V"]
    assert [t.nodes[i].label for i in t.internal()] == ["S", "NP", "D", "N", "VP", "V"]
    assert t.root.label == "S" and not t.root.is_terminal


def test_tree_spans_need_not_be_contiguous() -> None:
    # a non-projective function tree: node X dominates words 0 and 2 only
    nodes = (
        Node("S", (1, 4)),
        Node("X", (2, 3)),
        Node("a", (), 0),
        Node("c", (), 2),
        Node("b", (), 1),
    )
    t = Tree(nodes, ("a", "b", "c"))
    assert t.spans[1] == frozenset({0, 2})
    assert span_key(t.spans[1]) == (0, 2)


def test_tree_rejects_a_broken_preorder() -> None:
    with pytest.raises(ValueError, match="breaks preorder"):
        Tree((Node("S", (0,)),))
    with pytest.raises(ValueError, match="breaks preorder"):
        Tree((Node("S", (5,)),))


def test_deep_tree_from_nested_needs_no_recursion() -> None:
    spec: object = "w"
    for _ in range(10_000):
        spec = ("X", spec)
    t = Tree.from_nested(spec)
    assert len(t) == 10_001
    assert t.spans[0] == frozenset({0})
    # (nested tuples of this depth cannot be compared with ==: Python's own comparison recurses)
    assert Tree.from_nested(t.to_nested()) == t


def test_mftree() -> None:
    nodes = (
        MFNode(frozenset({"root"}), (1, 3)),
        MFNode(frozenset({"sbj", "hd"}), (2,)),
        MFNode(frozenset(), (), 0, "John"),
        MFNode(frozenset({"hd"}), (4,)),
        MFNode(frozenset(), (), 1, "runs"),
    )
    t = MFTree(nodes, ("John", "runs"))
    assert list(t.internal()) == [0, 1, 3]
    assert t.spans[1] == frozenset({0})
    assert t.parents == (-1, 0, 1, 0, 3)
    assert nodes[2].is_terminal
    with pytest.raises(ValueError):
        MFTree((MFNode(frozenset(), (0,)),))


# ---------------------------------------------------------------------------
# EditOp


def test_edit_ops_are_comparable_values() -> None:
    a = EditOp("del", "NP", frozenset({0, 1}))
    assert a == EditOp("del", "NP", frozenset({1, 0}))
    assert str(a) == "del NP {1,2}"
    rel = EditOp("rel", "obj", frozenset({2}), "sbj")
    assert str(rel) == "rel obj→sbj {3}"
    ops = sorted([rel, a, EditOp("ins", "VP", frozenset({0, 1}))], key=EditOp.sort_key)
    assert [o.kind for o in ops] == ["del", "ins", "rel"]
    assert len({a, EditOp("del", "NP", frozenset({0, 1}))}) == 1


def test_lattice_paths_skip_dead_ends() -> None:
    """40 two-way stages that never reach the last state: 2^40 dead ends must not be walked
    (found by the slow reader fuzzing, which hung on a mutated lattice)."""
    from evalcore.trees import Arc, Lattice

    arcs = [Arc(i, i + 1, seg) for i in range(40) for seg in ("a", "b")]
    arcs.append(Arc(0, 100, "x"))
    paths = list(Lattice(tuple(arcs)).paths(limit=50))
    assert [[a.segment for a in p] for p in paths] == [["x"]]
