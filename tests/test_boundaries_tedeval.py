"""TedEval settings that older tests did not pin down, each against the SPEC or a hand count.

Projectivization in the 2011 protocol (docs/tedeval.md, "Function trees (2011 protocol)"), label maps and
``--fold-case`` for bracketed and dependency input (docs/tedeval.md, "Per-scheme label maps"), the labels of
the never-edited root under generalization and unification (docs/tedeval.md, "Subsumption, generalization and
TL-unification (2012 protocol)"), and the empty-sentence and sentence-average conventions (docs/tedeval.md,
"Edit scripts, discount and score").  These tests kill mutants of ``scripts/mutants.py`` (docs/mutation.md).
"""

from __future__ import annotations

import pytest
from tedeval_helpers import dep, from_pairs

from evalcore.conversion import ConversionConfig, LabelMap, is_projective, projectivize, to_span_tree
from evalcore.errors import UnificationError
from evalcore.formats.ptb import parse_ptb
from evalcore.generalization import crossing, generalize, tl_unify, unify
from evalcore.metrics.tedeval import TedConfig, TedCounts, corpus_counts, score, sentence_ted
from evalcore.trees import bracketed

# w1 is the root; w3 and w4 depend on w1, w2 on w4.  The arc w4 -> w2 passes over w3, which w4
# does not dominate: non-projective.  Lifting it (docs/tedeval.md, "Function trees (2011 protocol)") attaches
# w2 to w4's head, w1.
NON_PROJECTIVE = dep(["w1", "w2", "w3", "w4"], [0, 4, 1, 1], ["root", "a", "b", "c"])


def test_the_2011_protocol_always_projectivizes() -> None:
    """docs/tedeval.md, "Function trees (2011 protocol)": 2011 compares ordered trees, so it lifts first; 2012
    takes the tree as it is."""
    assert not is_projective(NON_PROJECTIVE)
    lifted, lifts = projectivize(NON_PROJECTIVE)
    assert ([t.head for t in lifted.tokens], lifts) == ([0, 1, 1, 1], 1)
    t2011 = to_span_tree(NON_PROJECTIVE, ConversionConfig(protocol="2011"))
    assert bracketed(t2011) == "root( *(w1), a(w2), b(w3), c(w4) )"
    t2012 = to_span_tree(NON_PROJECTIVE, ConversionConfig(protocol="2012"))
    assert bracketed(t2012) == "{root}( {hd}w1, {c}( {a}w2, {hd}w4 ), {b}w3 )"  # c spans w2 and w4
    lifted_2012 = to_span_tree(NON_PROJECTIVE, ConversionConfig(protocol="2012", projectivize=True))
    assert bracketed(lifted_2012) == "{root}( {hd}w1, {a}w2, {b}w3, {c}w4 )"


def test_lifting_takes_the_shortest_arc_leftmost_on_ties() -> None:
    """docs/tedeval.md, "Function trees (2011 protocol)" by hand.  Heads w1<-w2, w2<-w5, w3 root, w4<-w1,
    w5<-w3.

    Non-projective: w5->w2 (length 3, w3 between) and w1->w4 (length 3, w2 w3 between; w3 is not
    under w1).  A tie: the leftmost, w1->w4, is lifted first (w4 <- w2); then w2->w4 (length 2,
    w3 between) is the shortest: w4 <- w5; then w5->w2: w2 <- w3.  Three lifts:
    heads w2, w3, 0, w5, w3.  (Lifting w5->w2 first would end with w4 <- w3.)
    """
    tree = dep(["w1", "w2", "w3", "w4", "w5"], [2, 5, 0, 1, 3], ["a", "b", "root", "c", "d"])
    lifted, lifts = projectivize(tree)
    assert ([t.head for t in lifted.tokens], lifts) == ([2, 3, 0, 5, 3], 3)
    assert is_projective(lifted)


PTB = "(S (NP-SBJ (NN John)) (VP (V loves) (NP-OBJ (NN Mary))))"


def test_a_label_map_applies_to_bracketed_input() -> None:
    """docs/tedeval.md, "Per-scheme label maps": the map (``SBJ=sbj``) is applied to every label first,
    constituency included."""
    tree = parse_ptb(PTB)[0]
    assert bracketed(to_span_tree(tree)) == "∅( {SBJ}John, ∅( ∅loves, {OBJ}Mary ) )"
    mapped = ConversionConfig(label_map=LabelMap((("SBJ", "sbj"), ("OBJ", "obj"))))
    assert bracketed(to_span_tree(tree, mapped)) == "∅( {sbj}John, ∅( ∅loves, {obj}Mary ) )"
    reverse = ConversionConfig(label_map=LabelMap((("sbj", "SBJ"),)))  # maps sbj, not SBJ
    assert bracketed(to_span_tree(tree, reverse)) == "∅( {SBJ}John, ∅( ∅loves, {OBJ}Mary ) )"


def test_fold_case_for_bracketed_and_dependency_input() -> None:
    """docs/tedeval.md, "Multi-function trees (2012 protocol)": case is kept unless ``--fold-case``; the head
    label ``hd`` is the protocol's own."""
    tree = parse_ptb(PTB)[0]
    folded = ConversionConfig(fold_case=True)
    assert bracketed(to_span_tree(tree, folded)) == "∅( {sbj}John, ∅( ∅loves, {obj}Mary ) )"
    sd = dep(["John", "loves", "Mary"], [2, 0, 2], ["NSUBJ", "ROOT", "OBJ"])
    assert bracketed(to_span_tree(sd)) == "{ROOT}( {NSUBJ}John, {hd}loves, {OBJ}Mary )"
    assert bracketed(to_span_tree(sd, folded)) == "{root}( {nsubj}John, {hd}loves, {obj}Mary )"


def test_root_labels_are_intersected_by_generalization_and_united_by_unification() -> None:
    """docs/tedeval.md, "Subsumption, generalization and TL-unification (2012 protocol)": generalization
    intersects label sets, unification and TL-unification unite them -- the root's too.  The bare ``S`` of the
    PTB tree has no function: its root set is empty."""
    ptb = to_span_tree(parse_ptb("(S (NP-sbj (NN John)) (VP (V loves) (NP-obj (NN Mary))))")[0])
    sd = to_span_tree(dep(["John", "loves", "Mary"], [2, 0, 2], ["sbj", "root", "obj"]))
    assert (ptb.root_labels, sd.root_labels) == (frozenset(), frozenset({"root"}))
    assert bracketed(generalize(ptb, sd)) == "∅( {sbj}John, ∅loves, {obj}Mary )"
    assert bracketed(generalize(sd, ptb)) == "∅( {sbj}John, ∅loves, {obj}Mary )"
    assert bracketed(unify(ptb, sd)) == "{root}( {sbj}John, ∅( {hd}loves, {obj}Mary ) )"
    assert bracketed(tl_unify(ptb, sd)) == "{root}( {sbj}John, ∅( {hd}loves, {obj}Mary ) )"


def test_a_one_word_sentence_scores_one() -> None:
    """docs/tedeval.md, "Edit scripts, discount and score": if |p| + |G| = 0 the score is 1 (2012: the one
    word is the never-edited root)."""
    one = to_span_tree(dep(["Go"], [0], ["root"]))
    assert len(one) == 0
    result = sentence_ted(one, one, one)
    assert (result.delta, result.norm, result.score) == (0, 0, 1.0)


def test_sentence_average_is_the_mean_of_sentence_scores() -> None:
    """docs/tedeval.md, "Edit scripts, discount and score": the global average 1 − Σδ/Σ(|p|+|G|), and the mean
    of sentence scores on request.

    Sentence 1 is docs/tedeval.md, "Edit scripts, discount and score"'s worked example: δ = 1 over |p| + |G| =
    4 + 1, score 0.8.  Sentence 2 is a parse equal to its gold and to G (gold1 of the example): δ = 0 over 4 +
    4, score 1. Global: 1 − 1/13; sentence average: (0.8 + 1) / 2 = 0.9.
    """
    words = ["would", "have", "worked"]
    gold1 = from_pairs(words, [["hd", [1]], ["vg", [2, 3]], ["hd", [2]], ["vg", [3]]])
    gold2 = from_pairs(words, [["vg", [1, 2]], ["vg", [1]], ["hd", [2]], ["hd", [3]]])
    parse = from_pairs(words, [["hd", [1]], ["vg", [2, 3]], ["hd", [2]], ["obj", [3]]])
    general = generalize(gold1, gold2)
    first = sentence_ted(parse, gold1, general).counts()
    second = sentence_ted(gold1, gold1, gold1).counts()
    assert (first.delta, first.norm, first.score_sum) == (1, 5, pytest.approx(0.8))
    assert (second.delta, second.norm, second.score_sum) == (0, 8, 1.0)
    total = first + second
    assert total == TedCounts(1, 13, 2, pytest.approx(1.8))  # type: ignore[arg-type]
    assert score(total).score == pytest.approx(1 - 1 / 13)
    assert score(total, TedConfig(average="sentence")).score == pytest.approx(0.9)
    # the same sums from corpus_counts; unlabeled, the parse differs from G by no span (docs/tedeval.md, "Edit
    # scripts, discount and score": U = 1.0)
    assert corpus_counts([parse, gold1], [gold1, gold1], [general, gold1]) == total
    unlabeled = corpus_counts([parse, gold1], [gold1, gold1], [general, gold1], labeled=False)
    assert (unlabeled.delta, unlabeled.sentences) == (0, 2)


def test_nested_spans_do_not_cross() -> None:
    """docs/tedeval.md, "Generalization and unification (2011 protocol)": unification fails only on *crossing*
    spans (overlapping, neither containing the other).

    A tree with a node over {the, dog} and a tree with a node over {dog} alone nest: they unify.
    A node over {dog, barks} crosses {the, dog}: unification fails."""
    words = ["the", "dog", "barks"]
    outer = from_pairs(words, [["sbj", [1, 2]], ["hd", [3]]])
    inner = from_pairs(words, [["hd", [2]]])
    across = from_pairs(words, [["obj", [2, 3]]])
    assert crossing(frozenset({0, 1}), frozenset({1, 2}))
    assert not crossing(frozenset({0, 1}), frozenset({1}))
    assert not crossing(frozenset({1}), frozenset({0, 1}))
    assert bracketed(unify(outer, inner)) == "∅( {sbj}( the, {hd}dog ), {hd}barks )"
    assert bracketed(unify(inner, outer)) == "∅( {sbj}( the, {hd}dog ), {hd}barks )"
    with pytest.raises(UnificationError, match="cross"):
        unify(outer, across)
