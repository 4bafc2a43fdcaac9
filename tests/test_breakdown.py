"""MaltEval-style breakdowns, the confusion table, bootstrap intervals and paired tests.

Hand counts are written out in the docstrings; on real data the per-group counts must
reconcile exactly with ``attach_corpus`` (the corpus counts of ``evalcore attach``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalcore.formats.conllu import parse_conllu, read_conllu
from evalcore.metrics.attachment import AttachConfig, attach_corpus, paired_sentences
from evalcore.metrics.breakdown import (
    GROUPINGS,
    Breakdown,
    GroupCounts,
    HeadErrors,
    breakdown_corpus,
    group_keys,
    score_breakdown,
    sentence_breakdown,
    sentence_confusion,
)
from evalcore.metrics.conll18 import evaluate_conll18, ratio_pairs
from evalcore.significance import approximate_randomization, bootstrap_interval
from evalcore.trees import DepTree, Token


def tree(rows: list[tuple[str, str, int, str]]) -> DepTree:
    text = (
        "".join(f"{i}\t{f}\t_\t{u}\t_\t_\t{h}\t{r}\t_\t_\n" for i, (f, u, h, r) in enumerate(rows, 1)) + "\n"
    )
    return parse_conllu(text)[0]


GOLD = tree(
    [
        ("The", "DET", 2, "det"),
        ("dog", "NOUN", 3, "nsubj"),
        ("barks", "VERB", 0, "root"),
        (".", "PUNCT", 3, "punct"),
    ]
)
SYSTEM = tree(
    [
        ("The", "DET", 2, "det"),
        ("dog", "NOUN", 3, "obj"),
        ("barks", "VERB", 0, "root"),
        (".", "PUNCT", 2, "punct"),
    ]
)


def test_by_relation_hand_count() -> None:
    """The: right; dog: right head, nsubj read as obj; barks: right; '.': head 2 instead of 3.

    Gold side (recall): nsubj has 1 token, head right, LAS 0; punct 1 token, head wrong, label
    right.  System side (precision): obj has 1 token (dog), 0 LAS; nsubj has none.
    """
    b = dict(sentence_breakdown(GOLD, SYSTEM, "deprel").groups)
    assert b["det"] == GroupCounts(1, 1, 1, 1, 1, 1, 1, 1)
    assert b["nsubj"] == GroupCounts(gold=1, gold_uas=1)
    assert b["obj"] == GroupCounts(system=1, system_uas=1)
    assert b["punct"] == GroupCounts(gold=1, system=1, gold_label=1, system_label=1)
    assert b["root"] == GroupCounts(1, 1, 1, 1, 1, 1, 1, 1)
    rows = {r.group: r for r in score_breakdown(Breakdown("deprel", tuple(b.items())))}
    assert (rows["nsubj"].uas, rows["nsubj"].las, rows["nsubj"].precision) == (1.0, 0.0, 0.0)
    assert rows["punct"].label == 1.0


def test_by_distance_and_direction_hand_count() -> None:
    """Gold arcs: The->dog 1, dog->barks 1, '.'->barks 1, barks root.  System: '.'->dog is 2.

    Distance 1: gold 3 tokens (The, dog, '.'), right heads 2 (The, dog), LAS 1 (The); system 2
    tokens (The, dog), right heads 2, LAS 1.  Distance 2: system 1 token ('.'), wrong.
    Direction: The and dog have their head to the right, '.' to the left on both sides.
    """
    d = dict(sentence_breakdown(GOLD, SYSTEM, "distance").groups)
    assert d["1"] == GroupCounts(3, 2, 2, 1, 2, 2, 1, 1)
    assert d["2"] == GroupCounts(system=1, system_label=1)
    assert d["root"] == GroupCounts(1, 1, 1, 1, 1, 1, 1, 1)
    assert list(d) == ["root", "1", "2"]  # eval.pl's order
    r = dict(sentence_breakdown(GOLD, SYSTEM, "direction").groups)
    assert r["right"] == GroupCounts(2, 2, 2, 1, 1, 2, 1, 1)
    assert r["left"] == GroupCounts(1, 1, 0, 0, 1, 0, 0, 1)


def test_confusion_hand_count() -> None:
    c = sentence_confusion(GOLD, SYSTEM)
    assert dict(c.cells) == {
        ("det", "det"): 1,
        ("nsubj", "obj"): 1,
        ("root", "root"): 1,
        ("punct", "punct"): 1,
    }
    assert c.errors == HeadErrors(both_right=2, label_wrong=1, head_wrong=1, both_wrong=0)
    assert c.count("nsubj", "obj") == 1
    assert (c + c).count("nsubj", "obj") == 2


def test_depth_and_projectivity_hand_count() -> None:
    """A->C, B root, C->B: the arc C->A spans B, which C does not dominate: non-projective.
    Depths: B 1, C 2, A 3."""
    t = tree([("A", "X", 3, "dep"), ("B", "X", 0, "root"), ("C", "X", 2, "dep")])
    assert group_keys(t, "nonproj") == ["non-projective", "projective", "projective"]
    assert group_keys(t, "depth") == ["3", "1", "2"]
    cyclic = DepTree(
        tuple(Token(i, f, head=h, deprel="dep") for i, (f, h) in enumerate([("A", 2), ("B", 1), ("C", 0)], 1))
    )
    assert group_keys(cyclic, "depth") == ["cycle", "cycle", "1"]
    assert group_keys(cyclic, "nonproj") == ["cycle", "cycle", "projective"]


def test_length_bins_and_options() -> None:
    assert group_keys(GOLD, "length") == ["1-10"] * 4
    no_punct = AttachConfig(no_punct=True, deprel_base=True)
    b = sentence_breakdown(GOLD, SYSTEM, "upos", no_punct)
    assert "PUNCT" not in dict(b.groups)
    assert b.total().gold == 3
    assert sentence_breakdown(GOLD, SYSTEM, "upos", AttachConfig(max_len=3)).groups == ()
    with pytest.raises(ValueError):
        Breakdown("upos") + Breakdown("deprel")


@pytest.mark.slow
def test_breakdowns_reconcile_with_attach_on_real_data(data: Path) -> None:
    """EWT test vs spaCy on gold words: every grouping adds up to ``evalcore attach``'s counts."""
    gold = data / "en_ewt" / "en_ewt-ud-test.r2.16.conllu"
    system = data / "parser_outputs" / "spacy_en_ewt_test" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu"
    for config in (AttachConfig(deprel_base=True), AttachConfig(no_punct=True)):
        corpus = attach_corpus(read_conllu(gold), read_conllu(system), config).counts
        result = breakdown_corpus(paired_sentences(read_conllu(gold), read_conllu(system)), GROUPINGS, config)
        for b in result.breakdowns:
            t = b.total()
            assert (t.gold, t.gold_uas, t.gold_las, t.gold_label) == (
                corpus.tokens,
                corpus.uas,
                corpus.las,
                corpus.label,
            ), b.by
            assert (t.system, t.system_uas, t.system_las, t.system_label) == (
                corpus.tokens,
                corpus.uas,
                corpus.las,
                corpus.label,
            ), b.by
        conf = result.confusion
        assert sum(n for _, n in conf.cells) == corpus.tokens
        assert sum(n for (g, s), n in conf.cells if g == s) == corpus.label
        e = conf.errors
        assert (e.both_right, e.both_right + e.label_wrong, e.both_right + e.head_wrong) == (
            corpus.las,
            corpus.uas,
            corpus.label,
        )
        assert len(result.signatures) == len(GROUPINGS)
        assert result.signatures[0].startswith("breakdown|by:deprel|")


RELS = ["nsubj", "obj", "det", "punct", "case:x", "case"]


@st.composite
def tree_pair(draw: Callable[..., object]) -> tuple[DepTree, DepTree]:
    n = draw(st.integers(1, 12))
    rows = []
    for side in range(2):
        order: list[int] = draw(st.permutations(range(1, n + 1)))  # type: ignore[assignment]
        heads = {order[0]: 0}
        for k in range(1, n):
            heads[order[k]] = draw(st.sampled_from(order[:k]))  # type: ignore[assignment]
        rows.append(
            [
                (f"w{i}", draw(st.sampled_from(["NOUN", "PUNCT"])) if side == 0 else "X", heads[i],
                 "root" if heads[i] == 0 else draw(st.sampled_from(RELS)))
                for i in range(1, n + 1)
            ]
        )  # fmt: skip
    return tree(rows[0]), tree(rows[1])  # type: ignore[arg-type]


@given(st.lists(tree_pair(), min_size=1, max_size=4), st.booleans(), st.booleans())
@pytest.mark.slow
def test_groups_add_up_to_the_corpus(
    pairs: list[tuple[DepTree, DepTree]], no_punct: bool, base: bool
) -> None:
    config = AttachConfig(no_punct=no_punct, deprel_base=base)
    corpus = attach_corpus([g for g, _ in pairs], [s for _, s in pairs], config).counts
    result = breakdown_corpus(pairs, GROUPINGS, config)
    for b in result.breakdowns:
        t = b.total()
        assert (t.gold, t.gold_uas, t.gold_las) == (t.system, t.system_uas, t.system_las)
        assert (t.gold, t.gold_uas, t.gold_las, t.gold_label) == (
            corpus.tokens,
            corpus.uas,
            corpus.las,
            corpus.label,
        )
        # sentence by sentence then summed == the corpus breakdown
        summed = Breakdown(b.by)
        for g, s in pairs:
            summed = summed + sentence_breakdown(g, s, b.by, config)  # type: ignore[arg-type]
        assert summed == b


# --------------------------------------------------------------------------- intervals and tests


@pytest.mark.slow
def test_intervals_contain_the_point_and_shrink_with_more_sentences(data: Path) -> None:
    folder = data / "parser_outputs" / "conll2018" / "en_ewt"
    result = evaluate_conll18(
        folder / "gold.en_ewt.conllu.gz", folder / "UDPipe-Future.en_ewt.conllu.gz", per_sentence=True
    )
    pairs = ratio_pairs(result.sentences, "LAS")
    assert sum(x for x, _ in pairs) / sum(n for _, n in pairs) == result.get("LAS").f1
    assert ratio_pairs(result.sentences, "CLAS", "recall")[0][1] == result.sentences[0].content_gold
    full = bootstrap_interval(pairs, samples=500, seed=7)
    part = bootstrap_interval(pairs[:200], samples=500, seed=7)
    for iv in (full, part):
        assert iv.low <= iv.point <= iv.high
    assert full.high - full.low < part.high - part.low
    assert full == bootstrap_interval(pairs, samples=500, seed=7)  # seeded
    with pytest.raises(ValueError):
        bootstrap_interval(pairs, level=1.0)


@pytest.mark.slow
def test_paired_test_on_two_shared_task_systems(data: Path) -> None:
    """UDPipe-Future (LAS F1 82.51 in the scorer's table) vs the baseline (77.56): per gold
    sentence, the approximate-randomization test finds the difference significant."""
    folder = data / "parser_outputs" / "conll2018" / "en_ewt"
    gold = folder / "gold.en_ewt.conllu.gz"
    a = evaluate_conll18(gold, folder / "UDPipe-Future.en_ewt.conllu.gz", per_sentence=True)
    b = evaluate_conll18(gold, folder / "conll18-baseline.en_ewt.conllu.gz", per_sentence=True)
    assert len(a.sentences) == len(b.sentences) == 2077
    res = approximate_randomization(
        ratio_pairs(a.sentences, "LAS"), ratio_pairs(b.sentences, "LAS"), shuffles=200, seed=3
    )
    assert res.observed == pytest.approx(a.get("LAS").f1 - b.get("LAS").f1)
    assert res.p_value == pytest.approx(1 / 201)
