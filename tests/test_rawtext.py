"""Cross-scheme TedEval for a parse of raw text (docs/rawtext.md): the page's three cases -- their
nine trees and the table of counts worked by hand -- read from the page and checked; and on random
trees over the same words, the general path gives the words path's numbers (why a sentence with the
gold's words may take the words path)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.conversion import ConversionConfig, projectivize, to_span_tree
from evalcore.formats.conllu import read_conllu
from evalcore.generalization import generalize_all
from evalcore.metrics.conll18 import align_words
from evalcore.metrics.rawtext import (
    Block,
    BlockTed,
    SideSentence,
    block_ted,
    blocks_of,
    score_blocks,
    word_chars,
)
from evalcore.trees import DepTree, Token

DOC = Path(__file__).resolve().parents[1] / "docs" / "rawtext.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```conllu\n(.*?)```", TEXT, flags=re.S)
CASES = {"split": (BLOCKS[0:3], "ud"), "merged": (BLOCKS[3:6], "sud"), "moved": (BLOCKS[6:9], "sud")}


def _table() -> list[tuple[str, str, int, int, int, int]]:
    lines = TEXT.split("<!-- rawtext-cases -->", 1)[1].strip().splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        rows.append((c[0], c[1], int(c[2]), int(c[3]), int(c[4]), int(c[5])))
    return rows


ROWS = _table()


def test_the_page_has_the_three_cases() -> None:
    assert len(BLOCKS) == 9 and len(ROWS) == 9
    assert "3-4\tau" in CASES["merged"][0][0] and "SpaceAfter=No" in CASES["split"][0][2]


def _score(tmp_path: Path, case: str, target: str) -> tuple[BlockTed, ...]:
    (ud, sud, parse), own = CASES[case]
    files = {}
    for name, text in (("ud", ud), ("sud", sud), ("parse", parse)):
        files[name] = tmp_path / f"{case}-{name}.conllu"
        files[name].write_text(text + "\n", encoding="utf-8")
    trees = {n: list(read_conllu(str(f))) for n, f in files.items()}
    alignment = align_words(str(files["ud"]), str(files["parse"]))
    golds = {s: (trees[s], ConversionConfig()) for s in ("ud", "sud")}
    return score_blocks(
        blocks_of(alignment), trees["parse"], ConversionConfig(), golds, own, target.split("+"),
        word_chars(alignment), labeled=False,
    )  # fmt: skip


@pytest.mark.parametrize(("case", "target", "ops", "delta", "norm", "segmentation"), ROWS)
def test_the_page_counts(
    tmp_path: Path, case: str, target: str, ops: int, delta: int, norm: int, segmentation: int
) -> None:
    got = _score(tmp_path, case, target)
    script = [o for b in got for o in b.ops]
    assert len(script) == ops
    assert sum(b.delta for b in got) == delta
    assert sum(b.norm for b in got) == norm
    assert sum(o.segmentation for o in script) == segmentation
    assert all(b.path == "general" for b in got)
    assert len(got) == 1  # one block: the moved boundary's two sentences a side are tied together


def test_the_moved_boundary_discounts_the_sud_phrase(tmp_path: Path) -> None:
    """The page: against UD+SUD the SUD parse's {mangé une pomme} is discounted (its own gold
    deletes it too), and it comes from attachment; the full stop's two operations do not."""
    (b,) = _score(tmp_path, "moved", "ud+sud")
    (disc,) = [o for o in b.ops if o.discounted]
    assert (disc.kind, disc.side, sorted(disc.span), disc.segmentation) == ("del", "parse", [2, 3, 4], False)


# ---------------------------------------------------------------------------
# property: the general path equals the words path where the words are the same


RELS = ["nsubj", "obj", "case", "det", "obl", "aux"]


def _tree(draw: st.DrawFn, size: int) -> DepTree:
    order = draw(st.permutations(range(1, size + 1)))
    heads = {order[0]: 0}
    for k in range(1, size):
        heads[order[k]] = order[draw(st.integers(0, k - 1))]
    rels = draw(st.lists(st.sampled_from(RELS), min_size=size, max_size=size))
    tree = DepTree(
        tuple(
            Token(w, f"w{w}", "_", "X", "_", "_", heads[w], "root" if heads[w] == 0 else rels[w - 1])
            for w in range(1, size + 1)
        )
    )  # fmt: skip
    return projectivize(tree)[0]  # the general path's trees are projective (docs/rawtext.md, "Trees")


@st.composite
def three(draw: st.DrawFn) -> tuple[DepTree, DepTree, DepTree]:
    size = draw(st.integers(1, 9))
    return _tree(draw, size), _tree(draw, size), _tree(draw, size)


def _side(tree: DepTree) -> SideSentence:
    n = len(tree.tokens)
    return SideSentence(0, tree, to_span_tree(tree), tuple((2 * i, 2 * i + 1) for i in range(n)))


@settings(max_examples=60, deadline=None)
@given(three(), st.booleans(), st.booleans())
def test_the_general_path_equals_the_words_path_on_the_same_words(
    trees: tuple[DepTree, DepTree, DepTree], labeled: bool, generalized: bool
) -> None:
    parse, own, other = (_side(t) for t in trees)
    n = len(parse.tree.tokens)
    block = Block((0,), (0,), {(0, i): (0, i) for i in range(n)})
    target = generalize_all([own.st, other.st]) if generalized else own.st
    fast = block_ted(block, [parse], [own], [target], labeled=labeled)
    slow = block_ted(block, [parse], [own], [target], labeled=labeled, general=True)
    assert fast.path == "words" and slow.path == "general"
    assert (slow.delta, slow.norm) == (fast.delta, fast.norm)
    assert sum(o.discounted for o in slow.ops) == sum(o.discounted for o in fast.ops)
    assert not any(o.segmentation for o in slow.ops)


@pytest.mark.parametrize("case", ["split", "merged", "moved"])
def test_the_atlas_groups_the_page_scripts(tmp_path: Path, case: str) -> None:
    """`evalcore atlas` on a parse of raw text: each cell's δ and normalizer are the page's, and its
    groups add up to them (counted = δ, discounted = the operations the page discounts)."""
    import evalcore

    (ud, sud, parse), own = CASES[case]
    paths = {}
    for name, text in (("ud", ud), ("sud", sud), ("parse", parse)):
        paths[name] = tmp_path / f"{name}.conllu"
        paths[name].write_text(text + "\n", encoding="utf-8")
    schemes: dict[str, tuple[str, dict[str, str]]] = {s: (str(paths[s]), {}) for s in ("ud", "sud")}
    schemes[own][1]["p"] = str(paths["parse"])
    atlas = evalcore.atlas(schemes, no_ranking=True).atlas
    for c, target, ops, delta, norm, _ in ROWS:
        if c != case:
            continue
        cell = atlas.cell("p", target, False)
        assert cell is not None
        assert (cell.delta, cell.norm) == (delta, norm)
        groups = cell.grouped("construction")
        assert sum(g.counted for g in groups) == delta
        assert sum(g.discounted for g in groups) == ops - delta
