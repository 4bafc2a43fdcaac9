"""Boundaries of evalb's counts and of FREVAL's limits, each checked against evalb itself.

The expected numbers are what evalb 2006, compiled from its C source (``evalb.c`` as vendored
in nikitakit/self-attentive-parser ``EVALB/``; ``make`` there), prints for the inputs written
in each test; the command is given beside each.  The FREVAL expectations that evalb cannot
give are counted by hand from the definitions (docs/freval.md, "FREVAL"; Bastings & Sima'an §3), written out.

All trees here have no unlabeled outer bracket, so the counts do not depend on how that
bracket is treated.  These tests kill the mutants of ``scripts/mutants.py`` that the older
tests let live (docs/mutation.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evalcore.formats.prm import EvalbParams, parse_prm, read_prm
from evalcore.formats.ptb import PtbLine, parse_ptb_line, read_ptb_sentences
from evalcore.metrics.freval import FrevalConfig, freval_corpus
from evalcore.metrics.parseval import ParsevalConfig, ParsevalScore, compare_sentence, parseval_corpus

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "assets" / "evalb" / "sample"


def _lines(*texts: str) -> list[PtbLine]:
    return [PtbLine(i, parse_ptb_line(t), "", "<t>") for i, t in enumerate(texts, start=1)]


def _prm(*lines: str) -> EvalbParams:
    return parse_prm(list(enumerate(lines, start=1)), name="test.prm")


def _percent(score: ParsevalScore) -> dict[str, float]:
    """The summary block of evalb's report, as evalb rounds it (``%6.2f``)."""
    c = score.counts
    return {
        "Number of sentence": c.sentences,
        "Number of Error sentence": c.errors,
        "Number of Skip  sentence": c.skipped,
        "Number of Valid sentence": c.valid,
        "Bracketing Recall": round(100 * score.recall, 2),
        "Bracketing Precision": round(100 * score.precision, 2),
        "Bracketing FMeasure": round(100 * score.f1, 2),
        "Complete match": round(100 * score.complete_match, 2),
        "Average crossing": round(score.average_crossing, 2),
        "No crossing": round(100 * score.no_crossing, 2),
        "2 or less crossing": round(100 * score.two_or_less_crossing, 2),
        "Tagging accuracy": round(100 * score.tagging_accuracy, 2),
    }


# evalb -p sample.prm sample.gld sample.tst  (evalb 2006; the -- All -- block equals sample.rsl's)
SAMPLE_ALL = {
    "Number of sentence": 24,
    "Number of Error sentence": 5,
    "Number of Skip  sentence": 2,
    "Number of Valid sentence": 17,
    "Bracketing Recall": 87.76,
    "Bracketing Precision": 90.53,
    "Bracketing FMeasure": 89.12,
    "Complete match": 52.94,
    "Average crossing": 0.06,
    "No crossing": 94.12,
    "2 or less crossing": 100.00,
    "Tagging accuracy": 98.15,
}

# sed 's/^CUTOFF_LEN 40/CUTOFF_LEN 4/' sample.prm > cut4.prm; evalb -p cut4.prm sample.gld sample.tst
# -- len<=4 --: sentences of exactly 4 words are in (evalb.c: ``if(r_wn1<=TOT_cut_len)``)
SAMPLE_LEN_LE_4 = {
    "Number of sentence": 22,
    "Number of Error sentence": 5,
    "Number of Skip  sentence": 2,
    "Number of Valid sentence": 15,
    "Bracketing Recall": 80.00,
    "Bracketing Precision": 84.21,
    "Bracketing FMeasure": 82.05,
    "Complete match": 46.67,
    "Average crossing": 0.07,
    "No crossing": 93.33,
    "2 or less crossing": 100.00,
    "Tagging accuracy": 96.67,
}


def _sample(params: EvalbParams) -> tuple[list[PtbLine], list[PtbLine]]:
    return list(read_ptb_sentences(SAMPLE / "sample.gld")), list(read_ptb_sentences(SAMPLE / "sample.tst"))


def test_every_score_field_equals_evalbs_summary() -> None:
    """Complete match, crossing and tagging are divided by the *valid* sentences (17, not 24)."""
    params = read_prm(SAMPLE / "sample.prm")
    gold, test = _sample(params)
    result = parseval_corpus(gold, test, ParsevalConfig(params))
    assert _percent(result.all) == SAMPLE_ALL


def test_cutoff_keeps_sentences_of_exactly_cutoff_words() -> None:
    params = read_prm(SAMPLE / "sample.prm").with_overrides(cutoff_len=4)
    gold, test = _sample(params)
    result = parseval_corpus(gold, test, ParsevalConfig(params))
    assert _percent(result.cutoff) == SAMPLE_LEN_LE_4
    assert _percent(result.all) == SAMPLE_ALL


def test_freval_length_cutoff_is_evalbs_len_le_cutoff() -> None:
    """FREVAL at size 1 with ``cutoff_len=4`` is evalb's ``-- len<=4 --`` block (docs/freval.md, "FREVAL": L =
    1 is evalb)."""
    params = read_prm(SAMPLE / "sample.prm")
    gold, test = _sample(params)
    f = freval_corpus(gold, test, FrevalConfig(ParsevalConfig(params), max_size=1, cutoff_len=4)).score
    assert (round(100 * f.flr, 2), round(100 * f.flp, 2)) == (80.00, 84.21)
    assert (f.sentences, f.valid) == (22, 15)


# eq.prm: LABELED 1, MAX_ERROR 10, CUTOFF_LEN 40, DELETE_LABEL PRT, EQ_LABEL ADVP PRT,
#         DELETE_LABEL QP, EQ_LABEL QP NX.          evalb -p eq.prm eq.gld eq.tst prints
#    1    4    0  100.00 100.00     3      3    3      0      4     4   100.00
#    2    5    0   33.33  33.33     1      3    3      2      5     5   100.00
# and, without the two EQ_LABEL lines, sentence 1 has 5 gold brackets (60.00 100.00 3 5 3).
EQ_PRM = (
    "LABELED 1",
    "MAX_ERROR 10",
    "CUTOFF_LEN 40",
    "DELETE_LABEL PRT",
    "EQ_LABEL ADVP PRT",
    "DELETE_LABEL QP",
    "EQ_LABEL QP NX",
)
EQ_GOLD = (
    "(S (ADVP (R quickly)) (NP (N dogs)) (VP (V run) (NX (N home))))",
    "(S (A (X a) (X b)) (B (X c) (X d)) (X e))",
)
EQ_TEST = (
    "(S (R quickly) (NP (N dogs)) (VP (V run) (N home)))",
    "(S (X a) (C (X b) (X c)) (D (X d) (X e)))",
)


def test_a_label_eq_labeled_to_a_deleted_label_is_deleted() -> None:
    """evalb.c deletes a bracket when ``label_comp(label, Delete_label[j])``: EQ_LABEL counts both ways."""
    params = _prm(*EQ_PRM)
    first = compare_sentence(*_lines(EQ_GOLD[0], EQ_TEST[0]), ParsevalConfig(params), 1)
    assert (first.matched, len(first.gold), len(first.test), first.crossing) == (3, 3, 3, 0)
    plain = _prm(*EQ_PRM[:4], EQ_PRM[5])
    kept = compare_sentence(*_lines(EQ_GOLD[0], EQ_TEST[0]), ParsevalConfig(plain), 1)
    assert (kept.matched, len(kept.gold), len(kept.test)) == (3, 5, 3)


def test_two_crossing_brackets_are_two_or_less() -> None:
    """Sentence 2: test C(1,3) crosses gold A(0,2), D(3,5) crosses B(2,4): 2 crossing brackets."""
    params = _prm(*EQ_PRM)
    gold, test = _lines(*EQ_GOLD), _lines(*EQ_TEST)
    result = parseval_corpus(gold, test, ParsevalConfig(params))
    second = result.sentences[1]
    assert (second.matched, len(second.gold), len(second.test), second.crossing) == (1, 3, 3, 2)
    assert _percent(result.all) == {  # evalb -p eq.prm eq.gld eq.tst, -- All --
        "Number of sentence": 2,
        "Number of Error sentence": 0,
        "Number of Skip  sentence": 0,
        "Number of Valid sentence": 2,
        "Bracketing Recall": 66.67,
        "Bracketing Precision": 66.67,
        "Bracketing FMeasure": 66.67,
        "Complete match": 50.00,
        "Average crossing": 1.00,
        "No crossing": 50.00,
        "2 or less crossing": 100.00,
        "Tagging accuracy": 100.00,
    }


def test_unlimited_freval_mixes_sizes_up_to_the_largest_gold_tree() -> None:
    """docs/freval.md, "FLR, FLP and F1": without a limit, α is uniform over s = 1..L, L the largest *gold*
    tree (in brackets).

    Hand count.  Gold ``(S (A (X a)) (X b))``: brackets S[0,2) and A[0,1): size 1: 2 fragments,
    size 2: 1 (S–A).  Test ``(S (A (B (X a))) (C (X b)))``: S, A, B, C: size 1: 4, size 2: 3
    (S–A, A–B, S–C).  S and A are matched, so matched = 2, 1.  L = 2 (not the test tree's 4):
    FLR = (2/2 + 1/1) / 2 = 1, FLP = (2/4 + 1/3) / 2 = 5/12.
    """
    gold = _lines("(S (A (X a)) (X b))")
    test = _lines("(S (A (B (X a))) (C (X b)))")
    result = freval_corpus(gold, test, FrevalConfig(ParsevalConfig(EvalbParams())))
    sc = result.score
    assert sc.limit == 2
    assert [(r.matched, r.gold, r.test) for r in sc.per_size] == [(2, 2, 4), (1, 1, 3)]
    assert sc.flr == pytest.approx(1.0)
    assert sc.flp == pytest.approx(5 / 12)


def test_largest_gold_tree_is_taken_over_the_corpus() -> None:
    """The largest gold tree of two sentences (2 and 3 brackets) is 3, not their sum 5.

    Hand count: sentence 1 as above (gold 2, 1); sentence 2 ``(S (A (B (X a))))`` against itself:
    chain of 3 brackets: 3, 2, 1 fragments, all matched.  Sizes 1..3: matched/gold = 5/5, 3/3, 1/1.
    """
    gold = _lines("(S (A (X a)) (X b))", "(S (A (B (X a))))")
    test = _lines("(S (A (B (X a))) (C (X b)))", "(S (A (B (X a))))")
    sc = freval_corpus(gold, test, FrevalConfig(ParsevalConfig(EvalbParams()))).score
    assert sc.limit == 3
    assert [(r.matched, r.gold) for r in sc.per_size] == [(5, 5), (3, 3), (1, 1)]
    assert sc.flr == pytest.approx(1.0)


def test_collapse_unary_merges_only_equal_labels() -> None:
    """docs/freval.md, "Fragments": with ``--collapse-unary`` a unary chain with *one* label (NP → NP) becomes
    one node; NP → QP over the same words stays two brackets.  Hand count: S, NP, QP = 3 brackets; S, NP =
    2."""
    config = ParsevalConfig(EvalbParams(), collapse_unary=True)
    (two_labels,) = _lines("(S (NP (QP (X a) (X b))) (X c))")
    (one_label,) = _lines("(S (NP (NP (X a) (X b))) (X c))")
    assert [b.label for b in compare_sentence(two_labels, two_labels, config, 1).gold] == ["S", "NP", "QP"]
    assert [b.label for b in compare_sentence(one_label, one_label, config, 1).gold] == ["S", "NP"]


def test_rescore_refuses_sizes_it_did_not_count() -> None:
    """Counts made with ``max_size=2`` have no size-3 counts: neither size 3 nor "all sizes" can be
    mixed from them (the unlimited α runs up to the largest gold tree, here 3 brackets)."""
    gold = test = _lines("(S (A (B (X a))))")
    result = freval_corpus(gold, test, FrevalConfig(ParsevalConfig(EvalbParams()), max_size=2))
    assert result.rescore(2).flr == 1.0
    for limit in (3, None):
        with pytest.raises(ValueError, match="counts were made with max_size=2"):
            result.rescore(limit)
