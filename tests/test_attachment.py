"""The attachment family (docs/attachment.md, "The five numbers"): UAS, LAS, label accuracy, undirected,
NED."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ec_support import ASSETS, conllu_sentence

from evalcore.errors import MismatchError, TreeStructureError
from evalcore.formats.conllu import parse_conllu, read_conllu
from evalcore.metrics.attachment import (
    AttachConfig,
    AttachCounts,
    attach_corpus,
    check_same_tokens,
    is_punct,
    judge_tokens,
    paired_sentences,
    score,
    sentence_counts,
)
from evalcore.metrics.base import make_signature, ratio, total
from evalcore.trees import DepTree, Token

GOLDEN = Path(__file__).resolve().parent / "golden" / "ned_figure3.json"
FIGURE3 = json.loads(GOLDEN.read_text(encoding="utf-8"))


def tree(heads: list[int], *, forms: list[str] | None = None, deprels: list[str] | None = None) -> DepTree:
    return parse_conllu(conllu_sentence(heads, forms=forms, deprels=deprels))[0]


def tok(upos: str = "X", xpos: str = "_") -> Token:
    return Token(1, "x", upos=upos, xpos=xpos)


# ---------------------------------------------------------------------------
# NED paper Figure 3 (golden file)


def test_golden_file_names_its_source() -> None:
    assert "Figure 3" in FIGURE3["source"]
    assert "Schwartz" in FIGURE3["source"]
    assert len(FIGURE3["cases"]) >= 4


@pytest.mark.parametrize("case", FIGURE3["cases"], ids=[c["name"] for c in FIGURE3["cases"]])
def test_ned_figure3(case: dict[str, Any]) -> None:
    forms = list(case["forms"])
    gold = tree(list(case["gold_heads"]), forms=forms)
    system = tree(list(case["system_heads"]), forms=forms)
    counts = sentence_counts(gold, system)
    for metric, (correct, n) in case["expected"].items():
        assert counts.tokens == n
        assert getattr(counts, metric) == correct, metric
    reasons = [j.ned_reason for j in judge_tokens(gold, system)]
    assert reasons == case["ned_reasons"]


def test_spec_figure3b_fractions() -> None:
    """docs/attachment.md, "The five numbers" wording: UAS 1/3, undirected 2/3, NED 3/3."""
    s = score(sentence_counts(tree([0, 1, 2]), tree([0, 3, 1])))
    assert s.uas == pytest.approx(1 / 3)
    assert s.undirected == pytest.approx(2 / 3)
    assert s.ned == 1.0


def test_undirected_gives_3b_and_3c_the_same_score_but_ned_does_not() -> None:
    gold = tree([0, 1, 2, 1])
    b, c = tree([0, 3, 1, 1]), tree([0, 3, 4, 1])
    cb, cc = sentence_counts(gold, b), sentence_counts(gold, c)
    assert cb.undirected == cc.undirected
    assert cb.ned > cc.ned


# ---------------------------------------------------------------------------
# Labels, punctuation, options


def test_las_and_label_accuracy() -> None:
    gold = tree([0, 1, 1], deprels=["root", "nsubj", "obj"])
    system = tree([0, 1, 2], deprels=["root", "obj", "obj"])
    c = sentence_counts(gold, system)
    assert (c.tokens, c.uas, c.las, c.label) == (3, 2, 1, 2)


def test_deprel_base_compares_the_universal_part_only() -> None:
    gold = tree([0, 1, 1], deprels=["root", "nsubj:pass", "obl:tmod"])
    system = tree([0, 1, 1], deprels=["root", "nsubj", "obl:npmod"])
    assert sentence_counts(gold, system).las == 1
    base = sentence_counts(gold, system, AttachConfig(deprel_base=True))
    assert (base.las, base.label) == (3, 3)


@pytest.mark.parametrize(
    ("upos", "xpos", "expected"),
    [
        ("PUNCT", "_", True),
        ("X", ",", True),
        ("X", ".", True),
        ("X", ":", True),
        ("X", "``", True),
        ("X", "''", True),
        ("X", "-LRB-", True),
        ("X", "-RRB-", True),
        ("yyCM", "yyCM", True),
        ("yyDOT", "_", True),
        ("yyQUOT", "_", True),
        ("SYM", "$", False),
        ("SYM", "#", False),
        ("NOUN", "NN", False),
        ("_", "_", False),
    ],
)
def test_is_punct(upos: str, xpos: str, expected: bool) -> None:
    assert is_punct(tok(upos, xpos)) is expected


def test_no_punct_decides_on_gold_and_never_moves_heads() -> None:
    # gold: w1 root, "," attached to w1, w3 attached to the comma (a head that is punctuation)
    text = conllu_sentence([0, 1, 2], forms=["a", ",", "b"], upos=["X", "PUNCT", "X"])
    gold = parse_conllu(text)[0]
    # system tags the comma as a noun: punctuation is still decided on the gold token
    sys_text = conllu_sentence([0, 1, 2], forms=["a", ",", "b"], upos=["X", "NOUN", "X"])
    system = parse_conllu(sys_text)[0]
    c = sentence_counts(gold, system, AttachConfig(no_punct=True))
    assert c.tokens == 2  # the comma is left out of the counts
    assert c.uas == 2  # w3's head (the comma) is still compared as it is


def test_no_punct_excluded_tokens_are_judged_but_not_counted() -> None:
    gold = parse_conllu(conllu_sentence([0, 1], forms=["a", "."], upos=["X", "PUNCT"]))[0]
    system = parse_conllu(conllu_sentence([2, 0], forms=["a", "."], upos=["X", "PUNCT"]))[0]
    judged = judge_tokens(gold, system, AttachConfig(no_punct=True))
    assert [j.counted for j in judged] == [True, False]
    assert sentence_counts(gold, system, AttachConfig(no_punct=True)).tokens == 1


def test_max_len_excludes_long_sentences_and_counts_them() -> None:
    short, long_ = tree([0, 1]), tree([0, 1, 1])
    c = sentence_counts(short, short, AttachConfig(max_len=2)) + sentence_counts(
        long_, long_, AttachConfig(max_len=2)
    )
    assert (c.tokens, c.sentences, c.excluded) == (2, 1, 1)


def test_max_len_counts_tokens_after_punctuation_removal() -> None:
    text = conllu_sentence([0, 1, 1], forms=["a", "b", "."], upos=["X", "X", "PUNCT"])
    t = parse_conllu(text)[0]
    assert sentence_counts(t, t, AttachConfig(max_len=2)).excluded == 1
    kept = sentence_counts(t, t, AttachConfig(max_len=2, no_punct=True))
    assert (kept.excluded, kept.tokens) == (0, 2)


def test_max_len_zero_keeps_only_empty_sentences() -> None:
    t = tree([0])
    assert sentence_counts(t, t, AttachConfig(max_len=0)).excluded == 1


# ---------------------------------------------------------------------------
# Counts, scores, signatures


def test_counts_add_fieldwise() -> None:
    a = AttachCounts(3, 2, 1, 1, 2, 3, sentences=1)
    b = AttachCounts(4, 4, 4, 4, 4, 4, sentences=1, skipped=1, excluded=2)
    assert a + b == AttachCounts(7, 6, 5, 5, 6, 7, sentences=2, skipped=1, excluded=2)
    assert total([a, b, a], AttachCounts()) == a + b + a
    assert total([], AttachCounts()) == AttachCounts()


def test_score_is_micro_averaged_over_tokens() -> None:
    # one long perfect sentence and one short wrong one: micro average, not the mean of sentences
    c = AttachCounts(tokens=9, uas=9, sentences=1) + AttachCounts(tokens=1, uas=0, sentences=1)
    assert score(c).uas == pytest.approx(0.9)


def test_score_of_nothing_is_zero_with_zero_tokens() -> None:
    s = score(AttachCounts())
    assert (s.uas, s.tokens, s.sentences) == (0.0, 0, 0)
    assert ratio(0, 0, empty=1.0) == 1.0


def test_signature_names_every_setting() -> None:
    assert AttachConfig().signature() == "attach|punct:yes|maxlen:none|deprel:full|invalid:skip|v0.1.0"
    sig = AttachConfig(no_punct=True, max_len=10, deprel_base=True, skip_invalid=False).signature()
    assert sig == "attach|punct:no|maxlen:10|deprel:base|invalid:strict|v0.1.0"
    assert make_signature("x", [("a", True), ("b", None), ("c", 3)]) == "x|a:yes|b:none|c:3|v0.1.0"


# ---------------------------------------------------------------------------
# Corpus: pairing, mismatches, invalid trees


def corpus(*blocks: str, name: str) -> list[DepTree]:
    return parse_conllu("".join(blocks), name=name, on_invalid="keep")


def test_attach_corpus_sums_sentences_and_keeps_per_sentence_counts() -> None:
    gold = corpus(conllu_sentence([0, 1], sent_id="a"), conllu_sentence([0, 1, 2], sent_id="b"), name="g")
    system = corpus(conllu_sentence([0, 1], sent_id="a"), conllu_sentence([0, 3, 1], sent_id="b"), name="s")
    result = attach_corpus(gold, system)
    assert [sid for sid, _ in result.per_sentence] == ["a", "b"]
    assert result.counts == result.per_sentence[0][1] + result.per_sentence[1][1]
    assert (result.counts.tokens, result.counts.uas, result.counts.ned) == (5, 3, 5)
    assert result.score.uas == pytest.approx(3 / 5)
    assert result.warnings == ()


def test_cycle_is_skipped_counted_and_warned_by_default() -> None:
    gold = corpus(conllu_sentence([0, 3, 2], sent_id="bad"), conllu_sentence([0, 1], sent_id="ok"), name="g")
    result = attach_corpus(gold, gold)
    assert (result.counts.skipped, result.counts.sentences, result.counts.tokens) == (1, 1, 2)
    assert len(result.warnings) == 1
    # the cycle is found at token 2, on line 3 of the file (line 1 is the sent_id comment)
    assert result.warnings[0].startswith("g:3: cycle through token 2")
    assert "sentence bad skipped" in result.warnings[0]


def test_invalid_system_tree_is_skipped_too() -> None:
    gold = corpus(conllu_sentence([0, 1], sent_id="a"), name="g")
    system = corpus(conllu_sentence([2, 1], sent_id="a"), name="s")
    result = attach_corpus(gold, system)
    assert result.counts.skipped == 1
    assert result.warnings[0].startswith("s:2: sentence has no root")


def test_strict_raises_with_file_and_line() -> None:
    gold = corpus(conllu_sentence([0, 1]), conllu_sentence([2, 1]), name="g")
    with pytest.raises(TreeStructureError) as info:
        attach_corpus(gold, gold, AttachConfig(skip_invalid=False))
    assert str(info.value) == "g:4: sentence has no root (no token with HEAD 0)"


def test_sentence_count_mismatch_names_the_sentence() -> None:
    gold = corpus(conllu_sentence([0], sent_id="a"), conllu_sentence([0], sent_id="b"), name="g")
    system = corpus(conllu_sentence([0], sent_id="a"), name="s")
    with pytest.raises(MismatchError) as info:
        list(paired_sentences(gold, system))
    assert str(info.value).startswith("g:5: the gold file has more sentences: sentence 2 ('b')")
    with pytest.raises(MismatchError) as info:
        list(paired_sentences(system, gold))
    assert "the system file has more sentences" in str(info.value)


def test_token_mismatch_names_sentence_and_token() -> None:
    gold = corpus(conllu_sentence([0, 1, 1], sent_id="s7", forms=["a", "b", "c"]), name="g")[0]
    system = corpus(conllu_sentence([0, 1, 1], sent_id="s7", forms=["a", "B", "c"]), name="s")[0]
    with pytest.raises(MismatchError) as info:
        check_same_tokens(gold, system)
    assert (
        str(info.value) == "s:3: sentence 's7': token 2 is 'B' in the system file but 'b' in the gold (g:3)"
    )


def test_token_count_mismatch_points_at_the_extra_token() -> None:
    gold = corpus(conllu_sentence([0, 1], sent_id="s1", forms=["a", "b"]), name="g")[0]
    system = corpus(conllu_sentence([0, 1, 1], sent_id="s1", forms=["a", "b", "c"]), name="s")[0]
    with pytest.raises(MismatchError) as info:
        check_same_tokens(gold, system)
    assert str(info.value).startswith("s:4: sentence 's1': token 3 'c' of the system file has no counterpart")
    with pytest.raises(MismatchError) as info:
        check_same_tokens(system, gold)
    assert str(info.value).startswith("s:4: sentence 's1': token 3 'c' of the gold file has no counterpart")


# ---------------------------------------------------------------------------
# Real data shipped in assets/


def test_fr_gsd_ud_vs_sud_uas_is_0_5164() -> None:
    """The foundation issue's check: UD vs SUD French-GSD test, UAS 0.5164 (51.6% per data/README)."""
    gold = read_conllu(ASSETS / "fr_gsd" / "fr_gsd-ud-test.r2.16.conllu.gz")
    system = read_conllu(ASSETS / "fr_gsd" / "fr_gsd-sud-test.r2.16.conllu.gz")
    result = attach_corpus(gold, system)
    assert result.counts.sentences == 416
    assert result.counts.tokens == 10018
    assert round(result.score.uas, 4) == 0.5164
    assert round(result.score.las, 3) == 0.262  # "heads+labels on 26.2%" (data/README)


# The CoNLL 2018 shared-task scorer (conll18_ud_eval.py v1.2, UFAL, MPL-2.0; not vendored, see
# benchmarks/README.md) run on 2026-11-26 as
#   python conll18_ud_eval.py -c en_ewt/en_ewt-ud-test.r2.16.conllu \
#       parser_outputs/spacy_en_ewt_test/en_ewt-ud-test.spacy-sm.gold-tok.conllu
# (files under ../shared/data; the same bytes as the .gz copies in assets/en_ewt) printed
#   UAS | 14153 | 25094 | 25094 | 25094      LAS | 9135 | 25094 | 25094 | 25094
# and with -v: UAS 56.40, LAS 36.40 (F1 = aligned accuracy: the words are identical).
# Its LAS compares the universal part of the deprel over all tokens, i.e. our --deprel-base.
CONLL18_UAS = (14153, 25094)
CONLL18_LAS = (9135, 25094)


@pytest.mark.slow
def test_ewt_vs_spacy_matches_the_conll2018_scorer() -> None:
    gold = ASSETS / "en_ewt" / "en_ewt-ud-test.r2.16.conllu.gz"
    system = ASSETS / "en_ewt" / "en_ewt-ud-test.spacy-sm.gold-tok.conllu.gz"
    result = attach_corpus(read_conllu(gold), read_conllu(system), AttachConfig(deprel_base=True))
    assert (result.counts.uas, result.counts.tokens) == CONLL18_UAS
    assert (result.counts.las, result.counts.tokens) == CONLL18_LAS
    assert round(100 * result.score.uas, 2) == 56.40
    assert round(100 * result.score.las, 2) == 36.40
    # full deprels (spaCy writes none with subtypes, the gold does) give a lower LAS
    full = attach_corpus(read_conllu(gold), read_conllu(system))
    assert full.counts.uas == CONLL18_UAS[0]
    assert full.counts.las < CONLL18_LAS[0]
