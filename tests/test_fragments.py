"""Fragment counting by dynamic programming (docs/freval.md, "Counting without enumerating") against brute-
force enumeration."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.formats.evalb import read_evalb
from evalcore.formats.prm import EvalbParams
from evalcore.formats.ptb import parse_ptb_line
from evalcore.fragments import add_counts, fragment_counts, fragment_polynomials
from evalcore.metrics.parseval import ParsevalConfig, massage

GOLDEN = Path(__file__).resolve().parent / "golden"


# ---------------------------------------------------------------------------
# brute force: every non-empty node subset, kept if connected (tests only)


def _connected(nodes: Sequence[int], parents: Sequence[int], edge_ok: Sequence[bool] | None) -> bool:
    chosen = set(nodes)
    tops = 0
    for v in nodes:
        p = parents[v]
        if p < 0 or p not in chosen or (edge_ok is not None and not edge_ok[v]):
            tops += 1
    return tops == 1  # in a forest a node set is connected iff exactly one member lacks its (usable) parent


def brute_force(
    parents: Sequence[int],
    include: Sequence[bool] | None = None,
    edge_ok: Sequence[bool] | None = None,
    max_size: int | None = None,
) -> tuple[int, ...]:
    nodes = [i for i in range(len(parents)) if include is None or include[i]]
    top = len(nodes) if max_size is None else min(max_size, len(nodes))
    counts = [0] * top
    for size in range(1, top + 1):
        for subset in combinations(nodes, size):
            if _connected(subset, parents, edge_ok):
                counts[size - 1] += 1
    while counts and counts[-1] == 0:
        counts.pop()
    return tuple(counts)


@st.composite
def forests(draw: st.DrawFn, max_nodes: int = 12) -> tuple[list[int], list[bool], list[bool]]:
    """Random forests in preorder-compatible layout (parent index < child index), with masks."""
    n = draw(st.integers(min_value=0, max_value=max_nodes))
    parents = []
    for i in range(n):
        parents.append(-1 if i == 0 else draw(st.integers(min_value=-1, max_value=i - 1)))
    include = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    edge_ok = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return parents, include, edge_ok


# ---------------------------------------------------------------------------
# docs/freval.md, "FREVAL" examples (tests/golden)


@pytest.mark.parametrize("name", ["freval_spec7_chain3.json", "freval_spec7_star3.json"])
def test_spec_examples(name: str) -> None:
    case = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    expected = tuple(case["counts_by_size"])
    assert fragment_counts(case["parents"]) == expected
    assert brute_force(case["parents"]) == expected
    # the same numbers through evalb's bracket extraction of the written tree
    reading = read_evalb(parse_ptb_line(case["tree"]), EvalbParams())
    brackets = massage(reading, ParsevalConfig(EvalbParams()))
    assert [b.parent for b in brackets] == case["parents"]
    assert fragment_counts([b.parent for b in brackets]) == expected


def test_size_limit_truncates() -> None:
    assert fragment_counts([-1, 0, 0, 0], max_size=2) == (4, 3)
    assert fragment_counts([-1, 0, 0, 0], max_size=1) == (4,)
    with pytest.raises(ValueError):
        fragment_counts([-1], max_size=0)


def test_empty_and_excluded() -> None:
    assert fragment_counts([]) == ()
    assert fragment_counts([-1, 0], include=[False, False]) == ()
    # removing the middle of a chain leaves two single nodes
    assert fragment_counts([-1, 0, 1], include=[True, False, True]) == (2,)
    assert fragment_polynomials([-1, 0], include=[True, False]) == [[1], None]


def test_preorder_is_required() -> None:
    with pytest.raises(ValueError):
        fragment_counts([1, -1])


# ---------------------------------------------------------------------------
# property: DP = enumeration on random trees up to 12 nodes


@settings(max_examples=300, deadline=None)
@given(forests())
@pytest.mark.slow
def test_dp_equals_enumeration(case: tuple[list[int], list[bool], list[bool]]) -> None:
    parents, include, edge_ok = case
    assert fragment_counts(parents) == brute_force(parents)
    assert fragment_counts(parents, include) == brute_force(parents, include)
    assert fragment_counts(parents, include, edge_ok) == brute_force(parents, include, edge_ok)


@settings(deadline=None)
@given(forests())
def test_polynomials_summed_over_nodes_equal_enumeration(
    case: tuple[list[int], list[bool], list[bool]],
) -> None:
    """Each node's polynomial counts the fragments whose top it is (docs/freval.md, "Counting without
    enumerating"), so their sum over the nodes is every connected fragment: the enumeration.  fragment_counts
    no longer sums them (unary runs in one step), so this is the test of the per-node
    polynomials."""
    parents, include, edge_ok = case
    total: tuple[int, ...] = ()
    for f in fragment_polynomials(parents, include, edge_ok):
        if f is not None:
            total = add_counts(total, f)
    while total and total[-1] == 0:
        total = total[:-1]
    assert total == brute_force(parents, include, edge_ok)


@settings(max_examples=200, deadline=None)
@given(forests(), st.integers(min_value=1, max_value=13))
def test_dp_equals_enumeration_with_limit(case: tuple[list[int], list[bool], list[bool]], limit: int) -> None:
    parents, include, _ = case
    assert fragment_counts(parents, include, max_size=limit) == brute_force(parents, include, max_size=limit)


@settings(max_examples=100, deadline=None)
@given(forests(), st.integers(min_value=1, max_value=13))
def test_limit_is_a_prefix(case: tuple[list[int], list[bool], list[bool]], limit: int) -> None:
    parents, include, edge_ok = case
    full = fragment_counts(parents, include, edge_ok)
    assert fragment_counts(parents, include, edge_ok, max_size=limit) == full[:limit]


def test_add_counts() -> None:
    assert add_counts((1, 2), (3, 4, 5)) == (4, 6, 5)
    assert add_counts((), (1,)) == (1,)


# ---------------------------------------------------------------------------
# scale: exact integers, no recursion


def test_chain_of_1000_nodes() -> None:
    parents = [-1, *range(999)]
    counts = fragment_counts(parents)
    assert counts == tuple(range(1000, 0, -1))  # 1000 - s + 1 paths of s nodes


def test_binary_tree_of_127_nodes_is_astronomical() -> None:
    # complete binary tree in preorder: build iteratively
    parents: list[int] = []
    stack: list[tuple[int, int]] = [(-1, 7)]  # (parent, depth left)
    while stack:
        parent, depth = stack.pop()
        me = len(parents)
        parents.append(parent)
        if depth > 1:
            stack.append((me, depth - 1))
            stack.append((me, depth - 1))
    assert len(parents) == 127
    counts = fragment_counts(parents)
    assert sum(counts) > 10**22
    assert all(isinstance(c, int) for c in counts)
    # fragments topped at the root: t(d) = (1 + t(d-1))^2, t(1) = 1
    t = 1
    for _ in range(6):
        t = (1 + t) ** 2
    top = fragment_polynomials(parents)[0]
    assert top is not None and sum(top) == t
