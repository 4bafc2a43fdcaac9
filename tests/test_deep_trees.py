"""Deep and long trees: a 1,000-word right-branching chain and a 1,000-word flat tree,
dependency and constituency, through every step of the pipeline, with the recursion limit *lowered*
to a couple of hundred frames above the test's own depth.  Any algorithm that recurses once per
level fails here with ``RecursionError``; none may raise the limit either (checked after each test).

Each step is checked against a value worked out by hand, so a step that silently gives up
fails as well.  Drawing (``evalcore.render``) and the general TED used for lattices
(``evalcore.ted.general``) get the same treatment in ``tests/test_deep_render_lattice.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from math import comb

import numpy  # noqa: F401 - imported here, not under the lowered limit inside a test
import pytest
from ec_support import CliResult
from hypothesis import given
from hypothesis import strategies as st

from evalcore.conversion import ConversionConfig, is_projective, projectivize, to_span_tree, words_of
from evalcore.errors import UnificationError
from evalcore.experiment import ExperimentConfig, NamedTrees, Scheme, run_experiment
from evalcore.formats.conllu import parse_conllu, write_conllu
from evalcore.formats.ptb import PtbLine, parse_ptb, read_ptb_lines, write_ptb
from evalcore.fragments import fragment_counts
from evalcore.generalization import generalize, generalize_all, subsumes, tl_unify, unify
from evalcore.metrics.attachment import AttachConfig, attach_corpus, judge_tokens
from evalcore.metrics.freval import FrevalConfig, freval_corpus
from evalcore.metrics.parseval import ParsevalConfig, compare_sentence, parseval_corpus
from evalcore.metrics.tedeval import TedConfig, sentence_ted
from evalcore.ted.spans import edit_script, size
from evalcore.trees import DepTree, SpanTree, Token, Tree, bracketed, strip_empty, unwrap

N = 1000
HEADROOM = 200  # frames allowed above the test's own depth: far fewer than N levels


def _depth() -> int:
    frame = sys._getframe()
    depth = 0
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    return depth


@contextmanager
def shallow_stack() -> Iterator[int]:
    """Lower the recursion limit to the current depth + HEADROOM; check nobody raised it."""
    old = sys.getrecursionlimit()
    limit = _depth() + HEADROOM
    sys.setrecursionlimit(limit)
    try:
        yield limit
        assert sys.getrecursionlimit() == limit, "the code under test changed the recursion limit"
    finally:
        sys.setrecursionlimit(old)


@pytest.fixture(autouse=True)
def _low_recursion_limit() -> Iterator[None]:
    with shallow_stack():
        yield


# ---------------------------------------------------------------------------
# The trees


def dep_tree(heads: list[int], sent_id: str) -> DepTree:
    tokens = tuple(
        Token(i + 1, f"w{i + 1}", "_", "X", "_", "_", h, "root" if h == 0 else "dep")
        for i, h in enumerate(heads)
    )
    return DepTree(tokens, sent_id, comments=(f"# sent_id = {sent_id}",))


CHAIN = dep_tree([0, *range(1, N)], "chain")  # w1 <- root, w(i) <- w(i-1): right-branching
FLAT = dep_tree([0] + [1] * (N - 1), "flat")  # every word a dependent of w1
LEFT = dep_tree([*range(2, N + 1), 0], "left")  # w(i) <- w(i+1): left-branching
WORDS = tuple(f"w{i}" for i in range(1, N + 1))


def chain_ptb() -> str:
    """``(S-SBJ (W w1) (S-OBJ (W w2) ( ... (S-SBJ (W w1000)) ... )))``: 1,000 levels deep."""
    opening = "".join(f"(S-{'SBJ' if i % 2 else 'OBJ'} (W w{i}) " for i in range(1, N))
    return opening + f"(S-SBJ (W w{N}))" + ")" * (N - 1) + "\n"


def flat_ptb() -> str:
    return "(S-SBJ " + " ".join(f"(W w{i})" for i in range(1, N + 1)) + ")\n"


# ---------------------------------------------------------------------------
# Readers and writers


def test_conllu_round_trip() -> None:
    for tree in (CHAIN, FLAT, LEFT):
        (back,) = parse_conllu(write_conllu([tree]))
        assert back == tree
        assert back.structure_problem() is None


def test_ptb_round_trip_and_nested_form() -> None:
    for text in (chain_ptb(), flat_ptb()):
        (tree,) = parse_ptb(text)
        assert tree.words == WORDS
        assert write_ptb([tree]) == text
        assert Tree.from_nested(tree.to_nested()).nodes == tree.nodes
        assert unwrap(strip_empty(tree)).nodes == tree.nodes
    (deep,) = parse_ptb(chain_ptb())
    assert len(deep.nodes) == 3 * N  # S, W and the word on each level
    parents = deep.parents
    depth, node = 0, len(deep.nodes) - 1
    while node > 0:
        node, depth = parents[node], depth + 1
    assert depth == N + 1  # the last word hangs 1,001 edges below the root
    assert deep.spans[0] == frozenset(range(N))


# ---------------------------------------------------------------------------
# Projectivity


def test_projectivize_long_trees() -> None:
    for tree in (CHAIN, FLAT, LEFT):
        assert is_projective(tree)
        assert projectivize(tree) == (tree, 0)


def interleaved(n: int) -> DepTree:
    """Two interleaved right-branching chains (w1 -> w3 -> w5 ..., w1 -> w2 -> w4 ...): each arc
    but the first two crosses one of the other chain, and lifting (shortest first) moves every word
    from w4 on, one round each, up to w1."""
    heads = [0, 1] + [i - 2 for i in range(3, n + 1)]
    return dep_tree(heads, "interleaved")


@pytest.mark.slow
def test_projectivize_many_lifts() -> None:
    tree = interleaved(N)
    assert not is_projective(tree)
    lifted, lifts = projectivize(tree)
    assert lifts == N - 3
    assert is_projective(lifted)
    assert [t.head for t in lifted.tokens] == [0, *([1] * (N - 1))]


def _reference_projectivize(heads: list[int]) -> tuple[list[int], int]:
    """docs/tedeval.md, "Function trees (2011 protocol)" lifting, straight from the definition (yield sets),
    for small trees."""
    heads = list(heads)
    lifts = 0
    while True:
        n = len(heads)
        yields = []
        for w in range(n):
            below = {w}
            for v in range(n):
                u, seen = v, set()
                while u not in seen and u != 0:
                    seen.add(u)
                    u = heads[u]
                    if u == w:
                        below.add(v)
                        break
            yields.append(below if w else set(range(n)))
        bad = [
            d
            for d in range(1, n)
            if heads[d] != 0
            and abs(heads[d] - d) > 1
            and not all(w in yields[heads[d]] for w in range(min(heads[d], d) + 1, max(heads[d], d)))
        ]
        if not bad:
            return heads, lifts
        d = min(bad, key=lambda x: (abs(heads[x] - x), min(heads[x], x)))
        heads[d] = heads[heads[d]]
        lifts += 1


@st.composite
def small_heads(draw: st.DrawFn) -> list[int]:
    n = draw(st.integers(1, 12))
    order = draw(st.permutations(range(1, n + 1)))
    heads = [0] * (n + 1)
    for k, w in enumerate(order):
        heads[w] = 0 if k == 0 or draw(st.integers(0, 9)) == 0 else order[draw(st.integers(0, k - 1))]
    return heads


@given(small_heads())
def test_projectivize_matches_the_definition(heads: list[int]) -> None:
    tree = dep_tree(heads[1:], "h")
    expected, lifts = _reference_projectivize(heads)
    lifted, count = projectivize(tree)
    assert count == lifts
    assert [0, *(t.head for t in lifted.tokens)] == expected
    assert is_projective(tree) == (lifts == 0)


# ---------------------------------------------------------------------------
# Conversions, generalization, edit scripts


@pytest.mark.parametrize("protocol", ["2011", "2012"])
@pytest.mark.slow
def test_dependency_conversions(protocol: str) -> None:
    cfg = ConversionConfig(protocol=protocol)  # type: ignore[arg-type]
    chain, flat, left = (to_span_tree(t, cfg) for t in (CHAIN, FLAT, LEFT))
    # chain: a head node on every word but the last, a phrase on every suffix (2011: including
    # the whole sentence, 2012: the whole sentence is the root, never counted)
    assert len(chain) == 2 * N - (2 if protocol == "2012" else 1)
    assert len(flat) == N + (0 if protocol == "2012" else 1)
    assert len(left) == len(chain)
    for tree in (chain, flat, left):
        mf = tree.to_mftree()
        assert len(mf.nodes) == len(tree) + 1 + N
        assert sum(1 for n in mf.nodes if n.terminal is not None) == N
    text = bracketed(chain)
    # 2012: {root}( {hd}w1, {dep}( {hd}w2, ... {dep}w1000 ) ); 2011 also brackets each word
    assert text.count("(") == (N - 1 if protocol == "2012" else 2 * N - 1)
    assert all(f" w{i}" in text or f"}}w{i}" in text or f"(w{i})" in text for i in (1, 500, N))


def test_constituency_conversion_of_a_deep_tree() -> None:
    (deep,) = parse_ptb(chain_ptb())
    (flat,) = parse_ptb(flat_ptb())
    assert words_of(deep) == WORDS
    mf = to_span_tree(deep)
    assert mf.root_labels == frozenset({"SBJ"})
    # a phrase on every proper suffix (labels SBJ / OBJ) and an unlabeled node over every word
    # but the last, whose node merges with its unary S-SBJ
    assert len(mf) == (N - 2) + 1 + (N - 1)
    assert mf.by_span[frozenset({N - 1})] == frozenset({"SBJ"})
    assert size(mf) == N - 1
    assert len(mf.to_mftree().nodes) == len(mf) + 1 + N
    assert bracketed(mf).count("{OBJ}(") == N // 2 - 1
    assert len(to_span_tree(flat)) == N


@pytest.mark.parametrize("protocol", ["2011", "2012"])
@pytest.mark.slow
def test_generalization_and_scripts(protocol: str) -> None:
    cfg = ConversionConfig(protocol=protocol)  # type: ignore[arg-type]
    chain, flat, left = (to_span_tree(t, cfg) for t in (CHAIN, FLAT, LEFT))
    general = generalize(chain, flat)
    assert subsumes(general, chain) and subsumes(general, flat)
    assert generalize_all([chain, flat, left]) == generalize(general, left)
    both = unify(chain, flat)
    assert subsumes(chain, both) and subsumes(flat, both)
    assert unify(flat, chain).spans == both.spans
    with pytest.raises(UnificationError, match="cross"):
        unify(chain, left)
    if protocol == "2012":
        assert tl_unify(flat, chain).spans == flat.spans
    # unlabeled, the chain has N - 2 phrases the flat tree lacks (every suffix but the whole
    # sentence and the last word); the flat tree has nothing the chain lacks
    script = edit_script(chain, flat, labeled=False)
    assert len(script) == N - 2 and {op.kind for op in script} == {"del"}
    assert sentence_ted(chain, flat, flat, labeled=False).delta == N - 2
    for labeled in (False, True):
        assert sentence_ted(chain, chain, chain, labeled=labeled).score == 1.0
        for own in (chain, flat, left):
            g = generalize_all([chain, flat, left])
            assert sentence_ted(own, own, g, labeled=labeled).delta == 0


# ---------------------------------------------------------------------------
# Attachment scores, PARSEVAL, FREVAL, fragment counts


def test_attachment_on_long_trees() -> None:
    result = attach_corpus([FLAT, CHAIN], [CHAIN, FLAT], AttachConfig())
    # system chain vs gold flat: w1 and w2 right (UAS and NED); system flat vs gold chain:
    # w1, w2 right, and w3 by NED (w1 is its gold grandparent)
    assert result.counts.tokens == 2 * N
    assert result.counts.uas == 4
    assert result.counts.ned == 5
    assert sum(j.ned for j in judge_tokens(CHAIN, FLAT)) == 3


def _line(text: str, line: int = 1) -> PtbLine:
    (only,) = list(read_ptb_lines(text.encode(), name="t"))
    return replace(only, line=line)


def test_parseval_and_freval_on_deep_trees() -> None:
    chain, flat = _line(chain_ptb()), _line(flat_ptb())
    comp = compare_sentence(chain, flat, ParsevalConfig(), 1)
    assert comp.status == "ok"
    assert (len(comp.gold), len(comp.test), comp.matched) == (N, 1, 1)
    result = parseval_corpus([chain, chain], [chain, flat])
    assert (result.all.counts.matched, result.all.counts.gold, result.all.counts.test) == (
        N + 1,
        2 * N,
        N + 1,
    )
    fr = freval_corpus([chain], [chain], FrevalConfig())
    assert fr.score.f1 == pytest.approx(1.0)
    assert fr.counts.gold == tuple(range(N, 0, -1))  # a chain of N brackets: N - s + 1 of size s


def test_fragment_counts_of_long_trees() -> None:
    chain = fragment_counts([-1, *range(N - 1)])
    assert chain == tuple(range(N, 0, -1))
    flat = fragment_counts([-1] + [0] * (N - 1))  # a root with N - 1 leaf children
    assert flat[0] == N
    assert all(flat[s - 1] == comb(N - 1, s - 1) for s in range(2, N + 1))
    assert fragment_counts([-1, *range(N - 1)], max_size=3) == (N, N - 1, N - 2)


# ---------------------------------------------------------------------------
# The experiment and the command line on such trees


@pytest.mark.slow
def test_experiment_on_long_trees() -> None:
    chain = NamedTrees("chain", (CHAIN, FLAT))
    flat = NamedTrees("flat", (FLAT, CHAIN))
    schemes = [
        Scheme("a", NamedTrees("gold-a", (CHAIN, CHAIN)), (chain,)),
        Scheme("b", NamedTrees("gold-b", (FLAT, FLAT)), (flat,)),
    ]
    for protocol in ("2011", "2012"):
        cfg = ExperimentConfig(TedConfig(ConversionConfig(protocol=protocol)), shuffles=50)  # type: ignore[arg-type]
        result = run_experiment(schemes, cfg, details=True)
        assert result.sentences == 2
        row = next(r for r in result.rows if r.against == "a" and r.metric == "UAS")
        assert row.cell("chain").score == pytest.approx((N + 2) / (2 * N))  # type: ignore[union-attr]
        joint = next(r for r in result.rows if r.against == "a+b" and r.metric == "U-TED")
        assert {c.parse for c in joint.cells} == {"chain", "flat"}


def test_command_line_on_long_trees(
    run_cli: Callable[..., CliResult], write_file: Callable[[str, str | bytes], str]
) -> None:
    chain = write_file("chain.conllu", write_conllu([CHAIN]))
    flat = write_file("flat.conllu", write_conllu([FLAT]))
    r = run_cli("attach", chain, flat, "--format", "json")
    assert r.code == 0, r.err
    assert '"uas": 0.002' in r.out
    r = run_cli("tedeval", "--scheme", "a", chain, f"p={flat}", "--scheme", "b", flat, "--shuffles", "10")
    assert r.code == 0, r.err
    gold = write_file("chain.ptb", chain_ptb())
    test = write_file("flat.ptb", flat_ptb())
    r = run_cli("parseval", gold, test, "--format", "json")
    assert r.code == 0, r.err
    assert '"recall": 0.001' in r.out
    r = run_cli("freval", gold, gold, "--format", "json")
    assert r.code == 0, r.err
    assert '"f1": 1.0' in r.out


def test_the_limit_is_really_low() -> None:
    """The fixture's limit is far below N: a recursive walk over the chain must fail here."""

    def walk(tree: SpanTree, spans: list[frozenset[int]], k: int) -> int:
        return 0 if k == len(spans) else 1 + walk(tree, spans, k + 1)

    st_chain = to_span_tree(CHAIN)
    with pytest.raises(RecursionError):
        walk(st_chain, sorted(st_chain.spans, key=len), 0)
    assert sys.getrecursionlimit() < _depth() + N
