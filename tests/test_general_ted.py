"""General ordered TED (evalcore.ted.general, docs/lattice.md, "TEDEVAL over lattices"; docs/architecture.md,
"Performance targets") against APTED (MIT) on random trees."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from apted import APTED, Config
from hypothesis import given
from hypothesis import strategies as st

from evalcore.ted.general import OrderedTree, from_parents, ted_distance, ted_mapping

# ---------------------------------------------------------------------------
# random trees in preorder


@st.composite
def trees(draw: st.DrawFn, max_size: int = 9, alphabet: str = "abc") -> OrderedTree:
    """A random ordered tree: node i > 0 hangs under some node on the current rightmost path."""
    n = draw(st.integers(min_value=1, max_value=max_size))
    keys = [draw(st.sampled_from(alphabet)) for _ in range(n)]
    parents = [-1]
    rightmost = [0]  # the path from the root to the last node added
    for i in range(1, n):
        depth = draw(st.integers(min_value=0, max_value=len(rightmost) - 1))
        parent = rightmost[depth]
        parents.append(parent)
        del rightmost[depth + 1 :]
        rightmost.append(i)
    tree = from_parents(keys, parents)
    tree.check()
    return tree


@dataclass
class _N:
    name: str
    children: list[_N] = field(default_factory=list)
    root: bool = False


def _apted_tree(tree: OrderedTree) -> _N:
    nodes = [_N(str(k)) for k in tree.keys]
    nodes[0].root = True
    for i, kids in enumerate(tree.children):
        nodes[i].children = [nodes[c] for c in kids]
    return nodes[0]


class _NoRelabel(Config):  # type: ignore[misc]
    """Unit insert/delete; a relabel costs 2 (= delete + insert), so it never helps."""

    def __init__(self, pin_roots: bool) -> None:
        self.pin = pin_roots

    def rename(self, a: _N, b: _N) -> int:
        if self.pin and (a.root or b.root):
            return 0 if a.root and b.root else 1000
        return 0 if a.name == b.name else 2

    def delete(self, a: _N) -> int:
        return 1000 if self.pin and a.root else 1

    def insert(self, b: _N) -> int:
        return 1000 if self.pin and b.root else 1


def _is_valid_mapping(x: OrderedTree, y: OrderedTree, pairs: tuple[tuple[int, int], ...]) -> bool:
    """One-to-one, ancestry- and order-preserving (the definition of a TED mapping)."""

    def ancestors(t: OrderedTree) -> list[set[int]]:
        parent = [-1] * len(t)
        for i, kids in enumerate(t.children):
            for c in kids:
                parent[c] = i
        out = []
        for i in range(len(t)):
            acc, p = set(), parent[i]
            while p >= 0:
                acc.add(p)
                p = parent[p]
            out.append(acc)
        return out

    ax, ay = ancestors(x), ancestors(y)
    if len({a for a, _ in pairs}) != len(pairs) or len({b for _, b in pairs}) != len(pairs):
        return False
    for a1, b1 in pairs:
        for a2, b2 in pairs:
            if (a1 in ax[a2]) != (b1 in ay[b2]):
                return False
            # preorder index order = left-to-right for non-ancestors
            if a1 not in ax[a2] and a2 not in ax[a1] and (a1 < a2) != (b1 < b2):
                return False
    return True


@given(trees(), trees(), st.booleans())
def test_distance_and_mapping_agree_with_apted(x: OrderedTree, y: OrderedTree, pin: bool) -> None:
    expected = APTED(_apted_tree(x), _apted_tree(y), _NoRelabel(pin)).compute_edit_distance()
    m = ted_mapping(x, y, pin_roots=pin)
    assert m.distance == expected
    assert ted_distance(x, y, pin_roots=pin) == expected
    # the script is consistent: every node is mapped or edited once, mapped keys are equal
    assert sorted([a for a, _ in m.pairs] + list(m.deleted)) == list(range(len(x)))
    assert sorted([b for _, b in m.pairs] + list(m.inserted)) == list(range(len(y)))
    assert m.distance == len(m.deleted) + len(m.inserted)
    assert all(x.keys[a] == y.keys[b] for a, b in m.pairs if not (pin and a == 0))
    assert _is_valid_mapping(x, y, m.pairs)
    if pin:
        assert (0, 0) in m.pairs


@given(trees(), trees(), st.lists(st.sampled_from("uv"), min_size=9, max_size=9))
def test_anchors_only_break_ties(x: OrderedTree, y: OrderedTree, marks: list[str]) -> None:
    ax = OrderedTree(x.keys, x.children, tuple(marks[: len(x)]))
    ay = OrderedTree(y.keys, y.children, tuple(reversed(marks))[: len(y)])
    assert ted_mapping(ax, ay).distance == ted_mapping(x, y).distance


@given(trees(), trees())
def test_symmetric_and_zero_on_itself(x: OrderedTree, y: OrderedTree) -> None:
    assert ted_distance(x, y) == ted_distance(y, x)
    assert ted_mapping(x, x).distance == 0


def test_thousand_node_trees_need_no_recursion() -> None:
    n = 1000
    chain = from_parents(["a"] * n, [-1, *range(n - 1)])
    flat = from_parents(["a"] * n, [-1] + [0] * (n - 1))
    chain.check()
    flat.check()
    # the chain keeps a root-to-leaf path of length 2 inside the flat tree: 998 deletions + 998 insertions
    assert ted_mapping(chain, flat).distance == 2 * (n - 2)
    assert ted_distance(chain, chain) == 0


def test_empty_trees() -> None:
    empty = OrderedTree((), ())
    one = OrderedTree(("a",), ((),))
    assert ted_mapping(empty, one).distance == 1
    assert ted_distance(one, empty) == 1


@pytest.mark.parametrize(
    ("keys", "children", "message"),
    [
        (("a", "b"), ((1,),), "2 keys but 1 child lists"),
        (("a", "b", "c"), ((2,), (), (1,)), "not in depth-first preorder"),
        (("a", "b"), ((), ()), "not reachable"),
        (("a", "b"), ((5,), ()), "out of range"),
    ],
)
def test_check_rejects_bad_layouts(
    keys: tuple[str, ...], children: tuple[tuple[int, ...], ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        OrderedTree(keys, children).check()
