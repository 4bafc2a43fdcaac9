"""The spine path of the general TED (evalcore.ted.general.ted_spine, ted_block; docs/rawtext.md,
"Time"): whenever it answers, its mapping is valid, its distance is the general algorithm's and it
settles ties on anchors as well as the general algorithm does (the same number of pairs with
different anchors).  The general algorithm itself is checked against apted (test_general_ted)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_general_ted import trees
from test_ted_anchored import _valid

from evalcore.ted.general import (
    OrderedTree,
    TedMapping,
    prepare_tree,
    ted_block,
    ted_mapping,
    ted_spine,
)


@st.composite
def anchored(draw: st.DrawFn) -> OrderedTree:
    """A random tree over a few keys (several nodes share one: the spine) with random anchors."""
    tree = draw(trees(max_size=14, alphabet="abcdefghijkl"))
    return replace(tree, anchors=tuple(draw(st.sampled_from("pq")) for _ in tree.keys))


def _mismatches(x: OrderedTree, y: OrderedTree, got: TedMapping) -> int:
    assert x.anchors is not None and y.anchors is not None
    return sum(x.anchors[a] != y.anchors[b] for a, b in got.pairs)


def _check(x: OrderedTree, y: OrderedTree, got: TedMapping) -> None:
    ref = ted_mapping(x, y, pin_roots=True)
    assert got.distance == ref.distance == len(got.deleted) + len(got.inserted)
    assert _mismatches(x, y, got) == _mismatches(x, y, ref)
    assert _valid(x, y, got.pairs)
    assert (0, 0) in got.pairs
    assert all(x.keys[a] == y.keys[b] for a, b in got.pairs if (a, b) != (0, 0))
    assert sorted({a for a, _ in got.pairs} | set(got.deleted)) == list(range(len(x)))
    assert sorted({b for _, b in got.pairs} | set(got.inserted)) == list(range(len(y)))


@settings(max_examples=400, deadline=None)
@given(anchored(), anchored())
def test_the_spine_path_is_optimal_when_it_answers(x: OrderedTree, y: OrderedTree) -> None:
    got = ted_spine(x, y)
    if got is not None:
        _check(x, y, got)


@settings(max_examples=250, deadline=None)
@given(anchored(), anchored())
def test_a_block_prepared_once_gives_the_same_mapping(x: OrderedTree, y: OrderedTree) -> None:
    got = ted_block(x, y)
    assert ted_block(prepare_tree(x), y) == got
    if got is not None:
        _check(x, y, got)


# x: R(s(o(a, b), c)), y: R(s(o(a), o(b, c))); the two ``o`` keys of y make the spine
X = OrderedTree(("R", "s", "o", "a", "b", "c"), ((1,), (2, 5), (3, 4), (), (), ()), tuple("RSOABC"))
Y = OrderedTree(
    ("R", "s", "o", "a", "o", "b", "c"), ((1,), (2, 4), (3,), (), (5, 6), (), ()), tuple("RSOAXBC")
)


def test_the_spine_takes_what_the_anchored_path_cannot() -> None:
    """Counted by hand.  x has 6 nodes, y 7.  An ``o`` of x mapped to an ``o`` of y keeps only
    one of its words (a, or b with c), so at most 5 pairs: R, s, and three of o, a, b, c (R, s, a,
    b, c; or R, s, o, a, c): 6 + 7 − 2·5 = 3 operations.  The anchored path pairs x's ``o`` with
    y's first (the same anchor), which leaves b under it in x and not in y: not valid, no answer."""
    from evalcore.ted.general import ted_anchored

    assert ted_anchored(X, Y, pin_roots=True) is None
    got = ted_spine(X, Y)
    assert got is not None and got.distance == 3 == ted_mapping(X, Y, pin_roots=True).distance
    assert len(got.pairs) == 5


def test_the_check_sees_the_trees_the_general_algorithm_runs_on() -> None:
    seen: list[tuple[int, int]] = []

    def refuse(n: int, m: int) -> None:
        seen.append((n, m))
        raise MemoryError(f"{n} x {m}")

    with pytest.raises(MemoryError):
        ted_block(X, Y, check=refuse)
    assert seen and all(n <= len(X) and m <= len(Y) for n, m in seen)
