"""CoNLL 2018 behaviours pinned to the official scorer on small inputs made for each of them.

Each case of ``tests/fixtures/reference/conll18_pins/`` is a gold and a system CoNLL-U file written
to exercise one rule of ``conll18_ud_eval.py`` (ufal/conll2018, commit f2bc4dd), and the scorer's
own ``-c`` and ``-v`` tables on them (the commands are in that folder's ``COMMANDS.txt``).  The
tests below compare evalcore's tables with the scorer's byte for byte, and state the count that
the rule decides (worked out by hand in the docstring; it is also the scorer's):

* CLAS, MLAS and BLEX need the relation as well as the head (Zeman et al. 2018, §2.4: "LAS
  restricted to content words");
* MLAS's functional children (``aux cop mark det clf case cc``): the same words, each with the
  same universal relation, UPOS and universal FEATS;
* AllTags needs UPOS, XPOS and universal FEATS;
* inside a multiword span, words are aligned by the LCS of their *lower-cased* forms;
* tie-breaking: the scorer advances the gold word when a gold and a system word start at the
  same character (outside and inside a multiword span), and the gold side of the LCS on ties;
* the ``-c`` table's aligned column of the Words row;
* the per-sentence F1 pairs used by the significance tests are ``(2·correct, gold + system)``:
  their sums give the scorer's F1.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ec_support import ROOT

from evalcore.metrics.conll18 import Conll18Result, evaluate_conll18, ratio_pairs
from evalcore.report.conll18 import format_conll18_counts, format_conll18_table
from evalcore.resampling import BootstrapSettings, conll18_table, intervals
from evalcore.significance import approximate_randomization

PINS = ROOT / "tests" / "fixtures" / "reference" / "conll18_pins"
CASES = (
    "relation",
    "functional",
    "alltags",
    "lowercase",
    "span_gold_word",
    "span_gold_token",
    "equal_starts",
    "lcs_tie",
)


def _files(case: str) -> tuple[Path, Path]:
    return PINS / f"{case}.gold.conllu", PINS / f"{case}.system.conllu"


def _evaluate(case: str, per_sentence: bool = False) -> Conll18Result:
    gold, system = _files(case)
    return evaluate_conll18(gold, system, per_sentence=per_sentence)


def _scorer_counts(case: str) -> dict[str, tuple[int, int, int, str]]:
    """The scorer's ``-c`` table: metric -> (correct, gold, predicted, aligned column as printed)."""
    lines = (PINS / f"{case}.counts.txt").read_text(encoding="utf-8").splitlines()[2:]
    out = {}
    for line in lines:
        metric, correct, gold, system, aligned = (c.strip() for c in line.split("|"))
        out[metric] = (int(correct), int(gold), int(system), aligned)
    return out


def _scorer_f1(case: str, metric: str) -> str:
    """The scorer's ``-v`` F1 of ``metric``, as printed (two decimals)."""
    for line in (PINS / f"{case}.verbose.txt").read_text(encoding="utf-8").splitlines()[2:]:
        cells = [c.strip() for c in line.split("|")]
        if cells[0] == metric:
            return cells[3]
    raise KeyError(metric)


def _counts(result: Conll18Result) -> dict[str, tuple[int, int, int]]:
    return {r.metric: (r.correct, r.gold, r.system) for r in result.scores}


def test_every_case_is_committed_with_both_tables() -> None:
    names = sorted(
        p.name for p in PINS.iterdir() if p.suffix in (".conllu", ".txt") and p.name != "COMMANDS.txt"
    )
    assert names == sorted(
        f"{c}.{k}" for c in CASES for k in ("gold.conllu", "system.conllu", "counts.txt", "verbose.txt")
    )


@pytest.mark.parametrize("case", CASES)
def test_tables_equal_the_scorers(case: str) -> None:
    """``-c`` and ``-v``, byte for byte (the ``-c`` Words row prints the aligned words in its
    last column, the other rows their aligned total)."""
    result = _evaluate(case)
    assert format_conll18_counts(result.scores) + "\n" == (PINS / f"{case}.counts.txt").read_text()
    assert format_conll18_table(result.scores) + "\n" == (PINS / f"{case}.verbose.txt").read_text()


def test_content_metrics_need_the_relation_as_well_as_the_head() -> None:
    """relation: 6 gold content words (dog, chased, cat; It, rained, yesterday).  'dog' has the
    right head and the wrong relation (obj for nsubj), 'cat' the wrong head, 'It' the right head
    and nsubj for expl (both content relations), 'yesterday' obl for obl:tmod (equal once the
    subtype is dropped).  Right head: 5 of them; right head and relation: chased, rained,
    yesterday = 3, which CLAS, MLAS and BLEX count (scorer: 3 / 6 / 6)."""
    counts = _counts(_evaluate("relation"))
    scorer = _scorer_counts("relation")
    for metric in ("CLAS", "MLAS", "BLEX"):
        assert counts[metric] == scorer[metric][:3] == (3, 6, 6), metric
    assert counts["UAS"] == (8, 9, 9) and counts["LAS"] == (6, 9, 9)


def test_mlas_checks_the_functional_children() -> None:
    """functional: 14 content words, all with the right head and relation except 'big' (f5);
    CLAS 13.  MLAS also needs each content word's functional children right, which fails for
    f1 'dog' (its child 'the' is case, not det), f2 'cat' and 'dog' (their 'a' children are
    swapped: same relation, UPOS and FEATS, but not the aligned words), f3 'dogs' (child FEATS
    Definite=Ind), f4 'dog' (child UPOS PRON), f6 'dogs' and 'bark' ('will' moved from one to the
    other: one child too many, one too few).  f5's 'dogs' keeps MLAS: the misattached 'big' is an
    amod, not a functional child.  MLAS = 13 − 7 = 6 (scorer: 6 / 14 / 14)."""
    counts = _counts(_evaluate("functional"))
    assert counts["CLAS"] == _scorer_counts("functional")["CLAS"][:3] == (13, 14, 14)
    assert counts["MLAS"] == _scorer_counts("functional")["MLAS"][:3] == (6, 14, 14)


def test_alltags_needs_the_features() -> None:
    """alltags: 'dogs' has UPOS and XPOS right and Number=Sing for Number=Plur, 'bark' has XPOS
    VB for VBP, 'loudly' is all right: AllTags 1 of 3, UFeats 2, XPOS 2 (scorer: 1, 2, 2)."""
    counts = _counts(_evaluate("alltags"))
    scorer = _scorer_counts("alltags")
    assert counts["AllTags"] == scorer["AllTags"][:3] == (1, 3, 3)
    assert counts["UFeats"][0] == scorer["UFeats"][0] == 2
    assert counts["XPOS"][0] == scorer["XPOS"][0] == 2


def test_words_of_a_multiword_token_are_aligned_by_lower_cased_forms() -> None:
    """lowercase: the multiword token 'Del' is 'De' + 'el' in the gold, 'de' + 'el' in the
    system; the scorer's LCS compares ``FORM.lower()``, so all 3 words align (scorer: Words 3)."""
    assert _counts(_evaluate("lowercase"))["Words"] == (3, 3, 3)
    assert _scorer_counts("lowercase")["Words"] == (3, 3, 3, "3")


def test_equal_starts_inside_a_multiword_span_take_the_gold_word_first() -> None:
    """In the scorer's test notation ('ab abc x' = the multiword token 'ab' of the words 'abc'
    and 'x').  span_gold_word: gold plain 'abc' against system 'ab abc x', 'c'.  The span
    starts at the multiword token (end 2); the gold word and the token start at the same
    character, the scorer takes the gold word first, so 'abc' joins the span and the LCS aligns
    it with the system word 'abc': Words 1 of 1 gold, 3 system (taking the system's words first
    would leave the gold 'abc' beyond the span: 0).  span_gold_token, the other way round: the
    gold token's words are taken first, after which the system's plain 'abc' lies beyond the
    span (it ends at 3 > 2) and aligns with nothing: Words 0 (taking it first would align it: 1).
    Two files, because in one document the two changes would cancel out (1 + 0 = 0 + 1)."""
    assert _counts(_evaluate("span_gold_word"))["Words"] == (1, 1, 3)
    assert _scorer_counts("span_gold_word")["Words"] == (1, 1, 3, "1")
    assert _counts(_evaluate("span_gold_token"))["Words"] == (0, 3, 1)
    assert _scorer_counts("span_gold_token")["Words"] == (0, 3, 1, "0")


def test_equal_starts_outside_a_multiword_span_advance_the_gold_word() -> None:
    """equal_starts: gold 'aab', 'ba b ba'; system 'aa', 'b', 'ba'.  'aab' and 'aa' start at the
    same character and differ: the scorer moves past the gold word, so the system's 'aa' is the
    plain word before the gold token 'ba' and is skipped, and the span of 'ba' takes the system's
    'b' and 'ba': both gold words align (2).  Moving the system word instead would skip 'b' and
    align 1."""
    assert _counts(_evaluate("equal_starts"))["Words"] == (2, 3, 3)
    assert _scorer_counts("equal_starts")["Words"] == (2, 3, 3, "2")


def test_lcs_ties_move_the_gold_side() -> None:
    """lcs_tie: the token 'ab' is 'a' (UPOS X) + 'b' (Y) in the gold, 'b' (Y) + 'a' (Z) in the
    system; the LCS is 1 either way.  The scorer's walk, at a tie, moves past the gold word
    first, so it aligns the two 'b's: UPOS right (Y = Y), 1 of 1 aligned (scorer: UPOS 1)."""
    result = _evaluate("lcs_tie")
    assert _counts(result)["Words"] == (1, 2, 2)
    assert _counts(result)["UPOS"] == (1, 2, 2) == _scorer_counts("lcs_tie")["UPOS"][:3]


def test_per_sentence_f1_pairs_sum_to_the_scorers_f1() -> None:
    """relation has two gold sentences: LAS 4 of 6 + 6 words and 2 of 3 + 3, CLAS 1 of 3 + 3 and
    2 of 3 + 3.  F1 = 2·correct / (gold + system), so the pairs are (8, 12), (4, 6) and (2, 6),
    (4, 6); their sums give 12/18 = 66.67 and 6/12 = 50.00, the scorer's F1."""
    result = _evaluate("relation", per_sentence=True)
    las = ratio_pairs(result.sentences, "LAS")
    clas = ratio_pairs(result.sentences, "CLAS")
    assert las == [(8, 12), (4, 6)]
    assert clas == [(2, 6), (4, 6)]
    for metric, pairs in (("LAS", las), ("CLAS", clas)):
        x, n = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        assert f"{100 * x / n:.2f}" == _scorer_f1("relation", metric)
    # a system against itself: every shuffle gives the observed difference 0, p = 1
    assert approximate_randomization(las, las, shuffles=9, seed=1).p_value == 1.0


def test_resampled_f1_of_all_sentences_is_the_scorers() -> None:
    """The bootstrap of ``evalcore attach --format conll18 --bootstrap`` scores summed counts with
    F1 = 2·correct / (gold + system): its point is the scorer's F1 (LAS 66.67, CLAS 50.00, MLAS
    50.00 on relation; MLAS 42.86 = 2·6/28 on functional)."""
    settings = BootstrapSettings(20, 0.95, 1)
    for case, metric in (("relation", "LAS"), ("relation", "CLAS"), ("functional", "MLAS")):
        result = _evaluate(case, per_sentence=True)
        point = intervals(conll18_table(result.sentences), settings).get(f"{metric} f1").point
        assert f"{100 * point:.2f}" == _scorer_f1(case, metric)
