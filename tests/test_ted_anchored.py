"""The anchored fast path of the general TED (evalcore.ted.general.ted_anchored, docs/rawtext.md):
whenever it answers, its mapping is valid and its distance is the general algorithm's."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from test_general_ted import trees

from evalcore.ted.general import OrderedTree, ted_anchored, ted_distance, ted_mapping


def _valid(x: OrderedTree, y: OrderedTree, pairs: tuple[tuple[int, int], ...]) -> bool:
    """Ancestry and order kept: the pairs' preorders and postorders rise together."""

    def post(t: OrderedTree) -> list[int]:
        out, k, stack = [0] * len(t), 0, [(0, False)]
        while stack:
            node, done = stack.pop()
            if done:
                out[node] = k
                k += 1
            else:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(t.children[node]))
        return out

    px, py = post(x), post(y)
    by_pre = sorted(pairs)
    by_post = sorted(pairs, key=lambda p: px[p[0]])
    return all(b[1] > a[1] for a, b in pairwise(by_pre)) and all(
        py[b[1]] > py[a[1]] for a, b in pairwise(by_post)
    )


@settings(max_examples=300, deadline=None)
@given(trees(max_size=9, alphabet="abcd"), trees(max_size=9, alphabet="abcd"), st.booleans())
def test_the_fast_path_is_optimal_when_it_answers(x: OrderedTree, y: OrderedTree, pin: bool) -> None:
    got = ted_anchored(x, y, pin_roots=pin)
    if got is None:
        return
    assert got.distance == ted_distance(x, y, pin_roots=pin) == ted_mapping(x, y, pin_roots=pin).distance
    assert _valid(x, y, got.pairs)
    assert all(x.keys[a] == y.keys[b] or (pin and a == b == 0) for a, b in got.pairs)


def test_identical_trees_take_the_fast_path() -> None:
    x = OrderedTree(("r", "a", "b", "c"), ((1, 3), (2,), (), ()))
    got = ted_anchored(x, x, pin_roots=True)
    assert got is not None and got.distance == 0 and len(got.pairs) == 4
