"""Cross-scheme TedEval for a parse of raw text (docs/rawtext.md): the page's three cases -- their
nine trees and the table of counts worked by hand -- read from the page and checked; and on random
trees over the same words, the general path gives the words path's numbers (why a sentence with the
gold's words may take the words path)."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.conversion import ConversionConfig, projectivize, to_span_tree
from evalcore.errors import LimitError
from evalcore.formats.conllu import read_conllu
from evalcore.generalization import generalize_all
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.metrics.conll18 import align_words
from evalcore.metrics.rawtext import (
    Block,
    BlockNode,
    BlockTed,
    SideSentence,
    block_ted,
    blocks_of,
    score_blocks,
    word_chars,
)
from evalcore.ted.general import OrderedTree
from evalcore.trees import DepTree, Span, SpanTree, Token, span_head

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


def _score(tmp_path: Path, case: str, target: str, limits: Limits = DEFAULT_LIMITS) -> tuple[BlockTed, ...]:
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
        word_chars(alignment), labeled=False, limits=limits,
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


def test_attachment_of_a_parse_of_raw_text_counted_by_hand(tmp_path: Path) -> None:
    """UAS/LAS F1 of the 'merged' parse (docs/rawtext.md) against the UD gold, by hand: *Il*, *va*,
    *marché* are aligned (*au* is not). *Il*: head *va* in both, relation `subj` against `nsubj`
    (UAS only); *va*: the root in both (both); *marché*: its head *au* is aligned to nothing
    (neither). So 2 UAS and 1 LAS of 5 gold and 4 parse words: F1 2·2/9 and 2·1/9."""
    import evalcore

    (ud, sud, parse), _ = CASES["merged"]
    for name, text in (("ud", ud), ("sud", sud), ("parse", parse)):
        (tmp_path / f"{name}.conllu").write_text(text + "\n", encoding="utf-8")
    ud_gold, sud_gold, p = (str(tmp_path / f"{n}.conllu") for n in ("ud", "sud", "parse"))
    result = evalcore.tedeval({"ud": (ud_gold, {"p": p}), "sud": (sud_gold, {})}, shuffles=10)
    for metric, expected in (("UAS", 4 / 9), ("LAS", 2 / 9)):
        row = result.row("ud", metric)
        assert row is not None
        assert row.cells[0].score == pytest.approx(expected)


def test_the_merged_phrase_is_matched_with_the_prepositional_phrase(tmp_path: Path) -> None:
    """The page: against SUD, {au marché} is matched with {à le marché} (same characters, heads on
    the same token), so the insertions are *à*, *le* and {le marché} (positions 2, 3 and 3-4)."""
    (b,) = _score(tmp_path, "merged", "sud")
    inserted = sorted(tuple(sorted(o.span)) for o in b.ops if o.kind == "ins")
    assert inserted == [(2,), (3,), (3, 4)]


def test_a_missed_boundary_is_segmentation(tmp_path: Path) -> None:
    """The 'moved' gold's two sentences against a parse that keeps them as one: the gold side has
    two sentence nodes and the parse side one, so a sentence node is edited, and every edit of a
    sentence node comes from segmentation (docs/rawtext.md, "Segmentation or attachment")."""
    (ud, sud, _), _ = CASES["moved"]
    one = (
        "# sent_id = joined\n# text = Elle a mangé une pomme. Oui.\n"
        "1\tElle\telle\tPRON\t_\t_\t2\tsubj\t_\t_\n2\ta\tavoir\tAUX\t_\t_\t0\troot\t_\t_\n"
        "3\tmangé\tmanger\tVERB\t_\t_\t2\tcomp:aux\t_\t_\n4\tune\tun\tDET\t_\t_\t5\tdet\t_\t_\n"
        "5\tpomme\tpomme\tNOUN\t_\t_\t3\tcomp:obj\t_\tSpaceAfter=No\n6\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_\n"
        "7\tOui\toui\tINTJ\t_\t_\t2\tparataxis\t_\tSpaceAfter=No\n8\t.\t.\tPUNCT\t_\t_\t7\tpunct\t_\t_\n"
    )
    files = {}
    for name, text in (("ud", ud), ("sud", sud), ("parse", one)):
        files[name] = tmp_path / f"{name}.conllu"
        files[name].write_text(text + "\n", encoding="utf-8")
    trees = {n: list(read_conllu(str(f))) for n, f in files.items()}
    alignment = align_words(str(files["sud"]), str(files["parse"]))
    golds = {s: (trees[s], ConversionConfig()) for s in ("ud", "sud")}
    chars = word_chars(alignment)
    (block,) = score_blocks(
        blocks_of(alignment), trees["parse"], ConversionConfig(), golds, "sud", ["sud"], chars, labeled=False
    )
    sentence_ops = [o for o in block.ops if o.sentence_node]
    assert sentence_ops and all(o.segmentation for o in sentence_ops)


def test_nodes_over_aligned_words_match_only_their_span() -> None:
    """A labeled case the general path once got wrong (Hypothesis found it): *w5* hangs from *w6*
    in the parse and from *w4* in the gold.  Over the same words a node is its span, so the
    general path must give the words path's δ (docs/rawtext.md, "Trees"), not match {w5 w6} with
    {w4 w5} because both are labeled `nsubj`."""

    def tree(heads: list[int]) -> DepTree:
        return DepTree(
            tuple(
                Token(w, f"w{w}", "_", "X", "_", "_", h, "root" if h == 0 else "nsubj")
                for w, h in enumerate(heads, start=1)
            )
        )

    parse, own = _side(tree([0, 1, 1, 1, 6, 1, 1, 1])), _side(tree([0, 1, 1, 1, 4, 1, 1, 1]))
    block = Block((0,), (0,), {(0, i): (0, i) for i in range(8)})
    fast = block_ted(block, [parse], [own], [own.st], labeled=True)
    slow = block_ted(block, [parse], [own], [own.st], labeled=True, general=True)
    assert (slow.delta, slow.norm) == (fast.delta, fast.norm) == (6, 18)


def test_ties_are_settled_by_the_head_characters(tmp_path: Path) -> None:
    """docs/rawtext.md, "Distance": among optimal scripts, nodes covering the same characters with
    heads on the same characters are matched.  A UD-style parse of 'Il va au marché' (*au* `case`
    under *marché*) against the SUD gold of the 'merged' case: its {au marché}, headed by *marché*,
    could be matched with {à le marché} (headed by *à*) or {le marché} (headed by *marché*) at the
    same cost; by hand, the heads choose {le marché}, so the inserted nodes are *à*, *le* and
    {à le marché} (positions 2, 3 and 2-4)."""
    (_, sud, _), _ = CASES["merged"]
    parse = (
        "# sent_id = merged-ud\n# text = Il va au marché\n"
        "1\tIl\til\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\tva\taller\tVERB\t_\t_\t0\troot\t_\t_\n"
        "3\tau\tau\tADP\t_\t_\t4\tcase\t_\t_\n4\tmarché\tmarché\tNOUN\t_\t_\t2\tobl\t_\t_\n"
    )
    for name, text in (("sud", sud), ("parse", parse)):
        (tmp_path / f"{name}.conllu").write_text(text + "\n", encoding="utf-8")
    trees = {n: list(read_conllu(str(tmp_path / f"{n}.conllu"))) for n in ("sud", "parse")}
    alignment = align_words(str(tmp_path / "sud.conllu"), str(tmp_path / "parse.conllu"))
    golds = {"sud": (trees["sud"], ConversionConfig())}
    chars = word_chars(alignment)
    (b,) = score_blocks(
        blocks_of(alignment), trees["parse"], ConversionConfig(), golds, "sud", ["sud"], chars, labeled=False
    )
    assert sorted(tuple(sorted(o.span)) for o in b.ops if o.kind == "ins") == [(2,), (2, 3, 4), (3,)]
    assert b.delta == 4


@pytest.mark.parametrize("average", ["global", "sentence"])
def test_a_raw_parses_sentence_scores_are_its_blocks_under_either_average(
    tmp_path: Path, average: str
) -> None:
    """The split case in the experiment: the sentence's own U-TED against UD is 1 − 4/14 whether the
    corpus score is the global average or the mean of sentences (whose pairs are (score, 1))."""
    from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
    from evalcore.metrics.tedeval import TedConfig

    (ud, sud, parse), _ = CASES["split"]
    named = {}
    for name, text in (("ud", ud), ("sud", sud), ("p", parse)):
        path = tmp_path / f"{name}.conllu"
        path.write_text(text + "\n", encoding="utf-8")
        named[name] = NamedTrees(name, tuple(read_conllu(str(path))), str(path))
    schemes = [Scheme("ud", named["ud"], (named["p"],)), Scheme("sud", named["sud"])]
    result = run_experiment(schemes, ExperimentConfig(ted=TedConfig(average=average), shuffles=0))
    assert result.sentence_scores("ud", "U-TED", "p") == {0: pytest.approx(1 - 4 / 14)}


def test_the_2011_protocol_is_refused_for_a_parse_of_raw_text(
    tmp_path: Path, run_cli: Callable[..., object]
) -> None:
    """docs/rawtext.md: the 2011 protocol has no place for a parse of raw text: exit 2 naming the
    parse's file, never a traceback."""
    (ud, sud, parse), _ = CASES["split"]
    for name, text in (("ud", ud), ("sud", sud), ("parse", parse)):
        (tmp_path / f"{name}.conllu").write_text(text + "\n", encoding="utf-8")
    p = str(tmp_path / "parse.conllu")
    res = run_cli(
        "tedeval", "--protocol", "2011", "--scheme", "ud", str(tmp_path / "ud.conllu"), f"p={p}",
        "--scheme", "sud", str(tmp_path / "sud.conllu"), "--shuffles", "10",
    )  # fmt: skip
    assert res.code == 2  # type: ignore[attr-defined]
    assert res.err.startswith(f"{p}: 'p' is a parse of the raw text") and "--protocol 2012" in res.err  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# the block's trees: laid out in one pass (projectivized spans) as by the general construction


# The general construction (before the one-pass layout): each span's parent is the smallest span
# containing it, then the nodes are laid out in preorder; it takes any laminar spans.


def _parents(items: Sequence[tuple[Span, frozenset[str]]]) -> list[int]:
    """Each item's parent among ``items`` (the smallest span containing it; -1: the sentence).  The
    spans are laminar: taken from the smallest up, each span becomes the parent of the largest
    spans already taken on its positions that have none yet (O(Σ|span|))."""
    order = sorted(range(len(items)), key=lambda k: len(items[k][0]))
    parent = [-1] * len(items)
    top: dict[int, int] = {}
    for k in order:
        for pos in items[k][0]:
            t = top.get(pos)
            if t is not None and parent[t] < 0 and t != k:
                parent[t] = k
            top[pos] = k
    return parent


def _reference_side_tree(
    sentences: Sequence[tuple[SpanTree, DepTree, tuple[tuple[int, int], ...]]],
    refs: Sequence[Sequence[Hashable | None]],
    side: str,
    labeled: bool,
) -> tuple[OrderedTree, list[BlockNode]]:
    """One side of a block as an ordered tree (preorder), and what each node is.  ``refs[k][i]``
    is the gold word that word ``i`` of sentence ``k`` is (or is aligned with; ``None``: none).  A
    terminal matches only the terminal of the same gold word; a node whose words all have one
    matches only a node of the same gold words (EACL 2012 §5.3: over the same words a node is its
    span); any other node only another such node (ACL 2012: by its label) -- docs/rawtext.md.
    Any laminar spans (:func:`_side_tree` lays out the usual ones in one pass)."""
    keys: list[Hashable] = [("R",)]
    anchors: list[Hashable] = [("R",)]
    children: list[list[int]] = [[]]
    nodes: list[BlockNode] = [BlockNode(-1, frozenset(), "", "root")]

    def add(parent: int, key: Hashable, anchor: Hashable, node: BlockNode) -> int:
        keys.append(key)
        anchors.append(anchor)
        children.append([])
        nodes.append(node)
        children[parent].append(len(keys) - 1)
        return len(keys) - 1

    for k, (tree, dep, chars) in enumerate(sentences):
        n = len(tree.words)
        full = frozenset(range(n))
        items = [(s, labels) for s, labels in tree.items if s != full and (labels or not labeled)]
        sent = add(
            0,
            ("s",),
            ("s", chars[0][0] if chars else -1, chars[-1][1] if chars else -1),
            BlockNode(k, full, "", "sentence"),
        )
        parent = _parents(items)
        kids: list[list[int]] = [[] for _ in items]
        top: list[int] = []
        for i, p in enumerate(parent):
            (top if p < 0 else kids[p]).append(i)

        def first(i: int, items: list[tuple[Span, frozenset[str]]] = items) -> int:
            return min(items[i][0])

        stack: list[tuple[int, int]] = [(i, sent) for i in sorted(top, key=first, reverse=True)]
        while stack:
            i, up = stack.pop()
            span, labels = items[i]
            head = span_head(dep, span)
            hc = chars[head - 1] if 1 <= head <= len(chars) else (-1, -1)
            anchor = (min(chars[w][0] for w in span), max(chars[w][1] for w in span), hc)
            lone = len(span) == 1
            at = up
            image = [refs[k][w] for w in sorted(span)]
            if lone:
                ident: Hashable = ("w", image[0]) if image[0] is not None else (side, k, min(span))
            else:
                ident = ("n", frozenset(image)) if None not in image else ("n", "open")
            for label in sorted(labels) if labeled else [""]:
                at = add(at, (ident, label), anchor, BlockNode(k, span, label, "node"))
            for c in sorted(kids[i], key=first, reverse=True):
                stack.append((c, at))
    # the stack above adds children in order, but a node's subtree must follow it at once: re-lay out
    return _preorder(keys, anchors, children, nodes)


def _preorder(
    keys: list[Hashable], anchors: list[Hashable], children: list[list[int]], nodes: list[BlockNode]
) -> tuple[OrderedTree, list[BlockNode]]:
    order: list[int] = []
    stack = [0]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(reversed(children[i]))
    new = {old: k for k, old in enumerate(order)}
    tree = OrderedTree(
        tuple(keys[i] for i in order),
        tuple(tuple(new[c] for c in children[i]) for i in order),
        tuple(anchors[i] for i in order),
    )
    return tree, [nodes[i] for i in order]


@settings(max_examples=150, deadline=None)
@given(three(), st.booleans(), st.booleans(), st.data())
def test_the_one_pass_layout_builds_the_general_trees(
    trees: tuple[DepTree, DepTree, DepTree], labeled: bool, generalized: bool, data: st.DataObject
) -> None:
    """Two sentences a side, some words without a counterpart, a generalization's unlabeled spans:
    the one-pass construction (``_layout``, ``_assemble``) and the general one (parents from span
    containment, then a preorder: :func:`_reference_side_tree`) give the same tree, anchors and nodes."""
    from evalcore.metrics.rawtext import _side_tree

    a, b, c = trees
    n = len(a.tokens)
    first = generalize_all([to_span_tree(a), to_span_tree(b)]) if generalized else to_span_tree(a)
    chars = tuple((3 * i, 3 * i + 2) for i in range(n))
    sentences = [(first, a, chars), (to_span_tree(c), c, tuple((100 + x, 100 + y) for x, y in chars))]
    refs = [[data.draw(st.sampled_from([None, (k, i)])) for i in range(n)] for k in range(len(sentences))]
    assert _side_tree(sentences, refs, "p", labeled) == _reference_side_tree(sentences, refs, "p", labeled)


def test_a_block_past_the_memory_limit_is_refused_with_its_sentence(tmp_path: Path) -> None:
    """docs/robustness.md: the general algorithm's table is estimated first; the 'moved' case
    (docs/rawtext.md) against 1 byte is refused, naming the block's first gold sentence."""
    with pytest.raises(LimitError, match=r"tree edit distance of this block .* would need") as err:
        _score(tmp_path, "moved", "ud", Limits(ted_memory=1))
    assert err.value.sentence == "moved-1"


def test_the_operation_filter_reads_a_blocks_script(tmp_path: Path) -> None:
    """The 'moved' case against UD+SUD (docs/rawtext.md): one discounted operation, a deletion of
    {mangé une pomme}; the inspector's filters (evalcore.inspection.OperationFilter) find it."""
    from evalcore.inspection import OperationFilter

    (b,) = _score(tmp_path, "moved", "ud+sud")
    assert OperationFilter().matches_block(()) and not OperationFilter(status="counted").matches_block(())
    assert OperationFilter(status="discounted", kind="del").matches_block(b.ops)
    assert not OperationFilter(status="discounted", kind="ins").matches_block(b.ops)
    assert OperationFilter(status="counted", kind="ins").matches_block(b.ops)
    assert not OperationFilter(label="nsubj").matches_block(b.ops)  # unlabeled: no operation has a label


def test_the_general_path_refuses_spans_that_are_not_projectivized() -> None:
    """docs/rawtext.md, "Trees": an ordered tree cannot hold a non-contiguous span."""
    from evalcore.metrics.rawtext import _layout

    tree = DepTree(
        tuple(
            Token(w, f"w{w}", "_", "X", "_", "_", h, "root" if h == 0 else "dep")
            for w, h in ((1, 3), (2, 0), (3, 2), (4, 1))
        )
    )  # word 1 heads word 4 across words 2 and 3: its span {1, 4} is not contiguous
    st = to_span_tree(tree)
    with pytest.raises(ValueError, match="projectivized"):
        _layout([(st, tree, tuple((i, i + 1) for i in range(4)))], [[None] * 4], "p")
