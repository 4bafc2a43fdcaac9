"""Property tests: read∘write = identity for every format; counts form a monoid;
an analysis scored against itself is perfect; NED is what the paper defines.

Profiles (``ci`` derandomized, ``dev`` random) are set in ``conftest.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalcore.formats.conllu import parse_conllu, write_conllu
from evalcore.formats.lattice import read_lattices, read_tokens, write_lattices, write_tokens
from evalcore.formats.ptb import parse_ptb, write_ptb
from evalcore.metrics.attachment import (
    AttachConfig,
    AttachCounts,
    attach_corpus,
    judge_tokens,
    score,
    sentence_counts,
)
from evalcore.trees import Arc, DepTree, LabelParts, Lattice, Token, Tree, split_label

# ---------------------------------------------------------------------------
# CoNLL-U

# A field is any text without a tab or line end (surrogates cannot be UTF-8 encoded).
FIELD = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r"), max_size=5)
NONEMPTY_FIELD = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r"), min_size=1, max_size=5
)
COMMENT = st.one_of(
    NONEMPTY_FIELD.map(lambda v: f"# sent_id = {v}"),
    FIELD.map(lambda v: f"# text = {v}"),
    FIELD.map(lambda v: f"#{v}"),
    st.just("# newdoc id = d1"),
    st.just("# sentence-text: old style"),
)


@st.composite
def conllu_sentence_text(draw: st.DrawFn) -> str:
    """A sentence as it appears in a file: comments, tokens, ranges, empty nodes, then a blank line."""
    n = draw(st.integers(1, 7))
    lines = draw(st.lists(COMMENT, max_size=3))
    if draw(st.booleans()):
        lines.append("\t".join(["0.1", *draw(st.lists(FIELD, min_size=9, max_size=9))]))
    for i in range(1, n + 1):
        if i < n and draw(st.booleans()):
            j = draw(st.integers(i + 1, min(n, i + 2)))
            lines.append("\t".join([f"{i}-{j}", *draw(st.lists(FIELD, min_size=9, max_size=9))]))
        form, lemma, upos, xpos, feats = (draw(FIELD) for _ in range(5))
        head = draw(st.integers(0, n))
        deprel, deps, misc = (draw(FIELD) for _ in range(3))
        lines.append("\t".join([str(i), form, lemma, upos, xpos, feats, str(head), deprel, deps, misc]))
        for k in range(1, draw(st.integers(0, 2)) + 1):
            lines.append("\t".join([f"{i}.{k}", *draw(st.lists(FIELD, min_size=9, max_size=9))]))
    return "\n".join(lines) + "\n\n"


@given(st.lists(conllu_sentence_text(), min_size=0, max_size=3).map("".join))
@pytest.mark.slow
def test_conllu_write_read_is_identity(text: str) -> None:
    trees = parse_conllu(text, on_invalid="keep")
    assert write_conllu(trees) == text
    assert parse_conllu(write_conllu(trees), on_invalid="keep") == trees


@given(st.lists(conllu_sentence_text(), min_size=1, max_size=3).map("".join))
def test_conllu_extras_are_not_tree_nodes(text: str) -> None:
    for t in parse_conllu(text, on_invalid="keep"):
        assert [tok.id for tok in t.tokens] == list(range(1, len(t) + 1))
        assert all(not e.id.isdigit() for e in t.extras)


# ---------------------------------------------------------------------------
# PTB brackets

# Words and labels: no whitespace (any Unicode kind), no brackets, no control characters.
ATOM_CHARS = st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="()")
WORD = st.one_of(st.text(ATOM_CHARS, min_size=1, max_size=4), st.sampled_from([".", ",", "$", "&", "0"]))
TRACE_WORD = st.sampled_from(["*T*-1", "*-2", "*U*", "0", "*EXP*-1", "*?*", "*ICH*-3"])
CATEGORY = st.sampled_from(["S", "NP", "VP", "PP", "ADJP", "SBAR", "IP", "WHNP", "X", "S1", "PRN"])
FUNCTION = st.sampled_from(["SBJ", "OBJ", "TMP", "LOC", "CLR", "PRD", "MAT", "OB1"])


@st.composite
def phrase_label(draw: st.DrawFn) -> str:
    cat = draw(CATEGORY)
    kind = draw(st.sampled_from(["plain", "functions", "index", "eq", "star", "any"]))
    if kind == "functions":
        return cat + "".join("-" + f for f in draw(st.lists(FUNCTION, min_size=1, max_size=2)))
    if kind == "index":
        return f"{cat}-{draw(FUNCTION)}-{draw(st.integers(1, 9))}"
    if kind == "eq":
        return f"{cat}={draw(st.integers(1, 9))}"
    if kind == "star":
        return f"{cat}*{draw(FUNCTION)}"
    if kind == "any":
        return draw(st.text(ATOM_CHARS, min_size=1, max_size=5))
    return cat


PRETERMINAL = st.one_of(
    st.tuples(st.sampled_from(["NN", "DT", "VBZ", "-LRB-", ",", "NPR*N", "PRO-N"]), WORD),
    st.tuples(st.just("-NONE-"), TRACE_WORD),
    st.tuples(phrase_label(), WORD),
)


def _phrase(children: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.tuples(phrase_label(), st.lists(children, min_size=1, max_size=4)).map(lambda t: (t[0], *t[1]))


PHRASE = st.recursive(PRETERMINAL, _phrase, max_leaves=12)


@st.composite
def ptb_tree(draw: st.DrawFn) -> Tree:
    spec = draw(PHRASE)
    wrap = draw(st.sampled_from(["none", "empty", "TOP", "ROOT"]))
    if wrap == "empty":
        spec = ("", spec)  # the outer unlabeled bracket of the WSJ .mrg files
    elif wrap != "none":
        spec = (wrap, spec)
    return Tree.from_nested(spec)


def numbered(trees: Sequence[Tree]) -> list[Tree]:
    """The reader numbers trees 1..n in ``sent_id``."""
    return [dataclasses.replace(t, sent_id=str(i)) for i, t in enumerate(trees, start=1)]


def pretty(tree: Tree) -> str:
    """An independent pretty-printer: one phrase per line, indented, like the WSJ files."""
    out: list[str] = []
    stack: list[tuple[int, int, bool]] = [(0, 0, False)]
    while stack:
        i, depth, closing = stack.pop()
        node = tree.nodes[i]
        if closing:
            out.append(")")
        elif node.terminal is not None:
            out.append(" " + node.label)
        else:
            out.append("\n" + "  " * depth + "(" + node.label)
            stack.append((i, depth, True))
            stack.extend((c, depth + 1, False) for c in reversed(node.children))
    return "".join(out) + "\n"


@given(st.lists(ptb_tree(), max_size=4))
def test_ptb_write_read_is_identity(trees: list[Tree]) -> None:
    expected = numbered(trees)
    text = write_ptb(expected)
    assert parse_ptb(text) == expected
    assert write_ptb(parse_ptb(text)) == text


@given(st.lists(ptb_tree(), min_size=1, max_size=4))
def test_ptb_pretty_printed_and_one_line_read_the_same(trees: list[Tree]) -> None:
    expected = numbered(trees)
    assert parse_ptb("".join(pretty(t) for t in expected)) == expected
    assert parse_ptb(write_ptb(expected).replace("\n", " ")) == expected


@given(CATEGORY, st.lists(FUNCTION, max_size=3), st.one_of(st.none(), st.integers(0, 99)))
def test_split_label_recovers_its_parts(category: str, functions: list[str], index: int | None) -> None:
    raw = category + "".join("-" + f for f in functions) + ("" if index is None else f"-{index}")
    assert split_label(raw) == LabelParts(category, tuple(functions), () if index is None else (str(index),))
    star = category + "".join("*" + f for f in functions)
    assert split_label(star, "-=*") == LabelParts(category, tuple(functions), ())


# ---------------------------------------------------------------------------
# Lattices and .tokens

ARC_FIELD = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r"), max_size=4)


@st.composite
def arc(draw: st.DrawFn) -> Arc:
    start = draw(st.integers(0, 6))
    end = start + draw(st.integers(1, 3))
    fields = [draw(ARC_FIELD) for _ in range(5)]
    return Arc(start, end, *fields, token_id=draw(st.integers(0, 6)))


LATTICE = st.lists(arc(), min_size=1, max_size=8).map(lambda arcs: Lattice(tuple(arcs)))


@given(st.lists(LATTICE, max_size=4))
def test_lattice_write_read_is_identity(lattices: list[Lattice]) -> None:
    text = write_lattices(lattices)
    assert list(read_lattices(text.encode(), name="p")) == lattices
    assert write_lattices(read_lattices(text.encode(), name="p")) == text


# U+FEFF is excluded: at the start of a file it is a byte-order mark, which every reader accepts and
# drops (docs/formats.md, "Common to every reader"), so a .tokens file cannot begin with a token made of it.
TOKEN = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="\ufeff"),
    min_size=1,
    max_size=5,
)


@given(st.lists(st.lists(TOKEN, min_size=1, max_size=6).map(tuple), max_size=4))
def test_tokens_write_read_is_identity(sentences: list[tuple[str, ...]]) -> None:
    assert list(read_tokens(write_tokens(sentences).encode(), name="t")) == sentences


# ---------------------------------------------------------------------------
# Counts

COUNT = st.integers(0, 10_000)
COUNTS = st.builds(AttachCounts, COUNT, COUNT, COUNT, COUNT, COUNT, COUNT, COUNT, COUNT, COUNT)


@given(COUNTS, COUNTS, COUNTS)
def test_counts_addition_is_associative_and_commutative_with_zero(
    a: AttachCounts, b: AttachCounts, c: AttachCounts
) -> None:
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert a + AttachCounts() == a == AttachCounts() + a


# ---------------------------------------------------------------------------
# Attachment scores on generated trees

DEPREL = st.sampled_from(["root", "nsubj", "nsubj:pass", "obj", "obl:tmod", "punct", "det", "_"])
UPOS = st.sampled_from(["NOUN", "VERB", "PUNCT", "DET", "SYM", "_"])


@st.composite
def dep_tree(draw: st.DrawFn, forms: Sequence[str] | None = None) -> DepTree:
    """A well-formed tree (maybe several roots): each word hangs from an earlier word of a random order."""
    n = len(forms) if forms is not None else draw(st.integers(1, 10))
    order = draw(st.permutations(range(1, n + 1)))
    heads = [0] * (n + 1)
    for k, word in enumerate(order):
        if k == 0 or draw(st.integers(0, 9)) == 0:
            heads[word] = 0
        else:
            heads[word] = order[draw(st.integers(0, k - 1))]
    tokens = tuple(
        Token(
            i,
            forms[i - 1] if forms is not None else f"w{i}",
            upos=draw(UPOS),
            xpos=draw(st.sampled_from(["NN", ",", ".", "yyDOT", "$", "_"])),
            head=heads[i],
            deprel=draw(DEPREL),
        )
        for i in range(1, n + 1)
    )
    return DepTree(tokens)


@st.composite
def tree_pair(draw: st.DrawFn) -> tuple[DepTree, DepTree]:
    gold = draw(dep_tree())
    return gold, draw(dep_tree(forms=gold.forms))


CONFIG = st.builds(AttachConfig, no_punct=st.booleans(), deprel_base=st.booleans())


@given(dep_tree(), CONFIG)
def test_gold_against_itself_scores_one_on_every_metric(gold: DepTree, config: AttachConfig) -> None:
    assert gold.structure_problem() is None
    s = score(sentence_counts(gold, gold, config), config)
    if s.tokens:
        assert (s.uas, s.las, s.label, s.undirected, s.ned) == (1.0, 1.0, 1.0, 1.0, 1.0)
    else:  # --no-punct on an all-punctuation sentence
        assert config.no_punct


@given(st.lists(dep_tree(), min_size=1, max_size=4), CONFIG)
def test_corpus_of_golds_against_themselves_scores_one(golds: list[DepTree], config: AttachConfig) -> None:
    result = attach_corpus(golds, golds, config)
    assert result.counts.sentences == len(golds)
    assert result.counts.uas == result.counts.las == result.counts.ned == result.counts.tokens


@given(tree_pair(), CONFIG)
def test_metric_ordering(pair: tuple[DepTree, DepTree], config: AttachConfig) -> None:
    c = sentence_counts(*pair, config)
    assert 0 <= c.las <= min(c.uas, c.label)
    assert c.uas <= c.undirected <= c.ned <= c.tokens


@given(tree_pair())
def test_ned_is_the_papers_definition(pair: tuple[DepTree, DepTree]) -> None:
    """Schwartz et al. 2011 §5: correct iff the induced parent is the gold parent, a gold child,
    or the gold grandparent (ROOT being the grandparent of the root word's dependents)."""
    gold, system = pair
    head = {t.id: t.head for t in gold.tokens}
    for j, g, s in zip(judge_tokens(gold, system), gold.tokens, system.tokens, strict=True):
        children = {t.id for t in gold.tokens if t.head == g.id}
        grandparent = head[g.head] if g.head != 0 else None
        assert j.uas == (s.head == g.head)
        assert j.undirected == (s.head == g.head or s.head in children)
        assert j.ned == (s.head == g.head or s.head in children or s.head == grandparent)


@given(st.lists(tree_pair(), min_size=1, max_size=4))
@pytest.mark.slow
def test_corpus_counts_are_the_sum_of_sentence_counts(pairs: list[tuple[DepTree, DepTree]]) -> None:
    result = attach_corpus([g for g, _ in pairs], [s for _, s in pairs])
    total = AttachCounts()
    for _, c in result.per_sentence:
        total = total + c
    assert result.counts == total
    assert result.counts.tokens == sum(len(g) for g, _ in pairs)
