"""The remaining steps on 1,000-word trees: drawing (evalcore.render) and the general
ordered TED used for lattices (evalcore.ted.general), with the recursion limit lowered exactly as in
tests/test_deep_trees.py."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from test_deep_trees import CHAIN, FLAT, N, chain_ptb, flat_ptb, shallow_stack

from evalcore.conversion import ConversionConfig, to_span_tree
from evalcore.formats.ptb import parse_ptb
from evalcore.inspection import arc_verdicts
from evalcore.render.dot import dep_to_dot, tree_to_dot
from evalcore.render.layout import layout_dep
from evalcore.render.svg import dep_svg
from evalcore.ted.general import from_parents, ted_distance, ted_mapping

EDGE = re.compile(r"^\s*(\w+) -> (\w+)\s*(\[[^\n]*\])?;$", re.MULTILINE)


def _edges(dot: str) -> list[tuple[str, str]]:
    """Drawn edges (one per line); the invisible word-order chain is one long line and is left out."""
    return [(m.group(1), m.group(2)) for m in EDGE.finditer(dot) if "invis" not in (m.group(3) or "")]


@pytest.fixture(autouse=True)
def _low_recursion_limit() -> Iterator[None]:
    with shallow_stack():
        yield


@pytest.mark.parametrize("tree", [CHAIN, FLAT], ids=["chain", "flat"])
def test_dependency_drawing(tree: object) -> None:
    layout = layout_dep(tree, arc_verdicts(tree, tree))  # type: ignore[arg-type]
    assert len(layout.words) == N and len(layout.arcs) == N  # N - 1 arcs and the root arc
    assert all(a.status == "correct" for a in layout.arcs)
    svg = dep_svg(layout)
    assert len(re.findall(r'class="arc arc-correct[ "]', svg)) == N
    assert len(_edges(dep_to_dot(layout))) >= N - 1


@pytest.mark.parametrize("tree", [CHAIN, FLAT], ids=["chain", "flat"])
def test_function_tree_drawing(tree: object) -> None:
    for protocol in ("2011", "2012"):
        mf = to_span_tree(tree, ConversionConfig(protocol=protocol)).to_mftree()  # type: ignore[arg-type]
        assert len(_edges(tree_to_dot(mf))) == len(mf.nodes) - 1


@pytest.mark.parametrize("text", [chain_ptb(), flat_ptb()], ids=["chain", "flat"])
def test_constituency_drawing(text: str) -> None:
    (tree,) = parse_ptb(text)
    assert len(_edges(tree_to_dot(tree))) == len(tree.nodes) - 1


def test_general_ted_on_a_1000_node_chain() -> None:
    chain = from_parents([f"n{i}" for i in range(N)], [-1, *range(N - 1)])
    shorter = from_parents([f"n{i}" for i in range(N) if i != 500], [-1, *range(N - 2)])
    assert ted_distance(chain, chain) == 0
    assert ted_distance(chain, shorter) == 1
    mapping = ted_mapping(chain, shorter)
    assert mapping.distance == 1


def test_general_ted_on_a_1000_leaf_flat_tree() -> None:
    flat = from_parents(["root", *(f"w{i}" for i in range(N))], [-1] + [0] * N)
    fewer = from_parents(["root", *(f"w{i}" for i in range(N) if i != 10)], [-1] + [0] * (N - 1))
    assert ted_distance(flat, fewer, pin_roots=True) == 1
    assert ted_mapping(flat, fewer, pin_roots=True).distance == 1
