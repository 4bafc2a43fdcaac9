"""The CoNLL 2018 character alignment as a value (``evalcore.metrics.conll18.align_words``).

* The worked example of docs/attachment.md, "Every analysis on aligned words" (a split token and a
  moved sentence boundary), counted by hand: which words align, which gold sentence each system
  word belongs to, and the verdicts on every pair.
* On the real CoNLL 2018 outputs: the kept pairs, summed, give the scorer's counts (the committed
  ``conll18_ud_eval.py -c`` outputs), every word is kept once, and ``aligned`` links both ways.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ec_support import ROOT

from evalcore.metrics.conll18 import Alignment, align_words, evaluate_conll18
from evalcore.report.conll18 import format_conll18_counts

FIXTURES = ROOT / "tests" / "fixtures" / "reference" / "conll18"

# docs/attachment.md, "Every analysis on aligned words": the gold splits "cannot" into two words,
# the system keeps it whole; the system ends its first sentence before "." (a moved boundary).
GOLD = """# sent_id = g1
1\tBen\tBen\tPROPN\t_\t_\t4\tnsubj\t_\t_
2-3\tcannot\t_\t_\t_\t_\t_\t_\t_\t_
2\tcan\tcan\tAUX\t_\t_\t4\taux\t_\t_
3\tnot\tnot\tPART\t_\t_\t4\tadvmod\t_\t_
4\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_
5\t.\t.\tPUNCT\t_\t_\t4\tpunct\t_\t_

# sent_id = g2
1\tRun\trun\tVERB\t_\t_\t0\troot\t_\t_
2\thome\thome\tADV\t_\t_\t1\tadvmod\t_\t_

"""
SYSTEM = """# sent_id = s1
1\tBen\tBen\tPROPN\t_\t_\t3\tnsubj\t_\t_
2\tcannot\tcannot\tAUX\t_\t_\t3\taux\t_\t_
3\tgo\tgo\tVERB\t_\t_\t0\troot\t_\t_

# sent_id = s2
1\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_
2\tRun\trun\tVERB\t_\t_\t0\troot\t_\t_
3\thome\thome\tADV\t_\t_\t2\tobj\t_\t_

"""


def worked_example() -> Alignment:
    return align_words(GOLD.encode(), SYSTEM.encode())


def test_worked_example_words_and_sentences() -> None:
    a = worked_example()
    first, second = a.sentences
    assert [w.form for w in first.gold] == ["Ben", "can", "not", "go", "."]
    assert [w.form for w in second.gold] == ["Run", "home"]
    # "." starts at character 11, inside the first gold sentence (characters 0-12): it belongs there
    assert [w.form for w in first.system] == ["Ben", "cannot", "go", "."]
    assert [w.form for w in second.system] == ["Run", "home"]
    assert (first.start, first.end, second.start, second.end) == (0, 12, 12, 19)
    # "." is word 1 of the system's second sentence
    dot = first.system[3]
    assert (dot.sentence, dot.id, dot.head) == (1, 1, 2)
    # can / not / cannot: a multiword span with no equal form: none aligned
    assert [w.aligned for w in first.gold] == [0, None, None, 2, 3]
    assert [w.aligned for w in first.system] == [0, None, 3, 4]
    assert [w.aligned for w in second.gold] == [4, 5]
    assert [(p.gold, p.system) for p in first.pairs] == [(0, 0), (3, 2), (4, 3)]
    assert [(p.gold, p.system) for p in second.pairs] == [(5, 4), (6, 5)]


def test_worked_example_verdicts_by_hand() -> None:
    pairs = [p for s in worked_example().sentences for p in s.pairs]
    # Ben: head go = go; go: root; ".": system head Run (aligned to gold Run), gold head go;
    # Run: root; home: head Run = Run, but obj for advmod
    assert [p.uas for p in pairs] == [True, True, False, True, True]
    assert [p.las for p in pairs] == [True, True, False, True, False]
    assert [p.label for p in pairs] == [True, True, True, True, False]
    assert [p.content for p in pairs] == [True, True, False, True, True]
    # go's functional child: gold "can" (aux), system "cannot": not aligned together, so no MLAS
    assert [p.mlas for p in pairs] == [True, False, False, True, False]
    # ".": Run is neither go, nor go's head (the root), nor a child of "."
    assert [p.ned for p in pairs] == [True, True, False, True, True]


def test_worked_example_counts_by_hand() -> None:
    a = worked_example()
    first, second = (s.counts for s in a.sentences)
    # first gold sentence: 5 gold words, 4 system words (".": its first character is inside it)
    assert (first.words_gold, first.words_system, first.words_aligned) == (5, 4, 3)
    assert (first.uas, first.las, first.sentences_system) == (2, 2, 2)
    assert (second.words_gold, second.words_system, second.words_aligned) == (2, 2, 2)
    assert (second.uas, second.las, second.sentences_system) == (2, 1, 0)
    c = a.result.counts
    # LAS F1 = 2 * 3 / (7 + 6); UAS F1 = 2 * 4 / (7 + 6)
    assert (c.las, c.uas, c.words_gold, c.words_system) == (3, 4, 7, 6)
    assert round(100 * a.result.get("LAS").f1, 2) == 46.15
    assert a.result == evaluate_conll18(GOLD.encode(), SYSTEM.encode(), per_sentence=True)


def _check(a: Alignment) -> None:
    """Every word kept once, ``aligned`` both ways, and the pairs summing to the counts."""
    gold = [w for s in a.sentences for w in s.gold]
    system = [w for s in a.sentences for w in s.system]
    c = a.result.counts
    assert [w.index for w in gold] == list(range(c.words_gold))
    assert sorted(w.index for w in system) == list(range(c.words_system))
    pairs = [p for s in a.sentences for p in s.pairs]
    assert len(pairs) == c.words_aligned
    by_gold = {p.gold: p.system for p in pairs}
    assert {w.index: w.aligned for w in gold if w.aligned is not None} == by_gold
    assert {w.index: w.aligned for w in system if w.aligned is not None} == {s: g for g, s in by_gold.items()}
    for name in ("upos", "xpos", "ufeats", "alltags", "uas", "las", "clas", "mlas", "blex"):
        assert sum(getattr(p, name) for p in pairs) == getattr(c, name), name
    assert sum(p.lemma for p in pairs) == c.lemmas
    assert sum(p.content for p in pairs) == c.content_aligned
    for s in a.sentences:
        assert all(p.gold in {w.index for w in s.gold} for p in s.pairs)
        assert s.counts.words_system == len(s.system)
        assert s.counts.words_aligned == len(s.pairs)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en_ewt.UDPipe-Future", "fr_gsd.UDPipe-Future", "fr_gsd.conll18-baseline"])
def test_alignment_gives_the_scorers_counts(data: Path, name: str) -> None:
    lang, system = name.split(".", 1)
    folder = data / "parser_outputs" / "conll2018" / lang
    a = align_words(folder / f"gold.{lang}.conllu.gz", folder / f"{system}.{lang}.conllu.gz")
    assert format_conll18_counts(a.result.scores) + "\n" == (FIXTURES / f"{name}.counts.txt").read_text()
    _check(a)


def test_worked_example_invariants() -> None:
    _check(worked_example())


def _tree(heads: list[int]) -> bytes:
    lines = [
        f"{i}\t{w}\t{w}\tX\t_\t_\t{h}\tdep\t_\t_"
        for i, (w, h) in enumerate(zip("abc", heads, strict=True), 1)
    ]
    return ("\n".join(lines) + "\n\n").encode()


def test_ned_child_and_grandparent_by_hand() -> None:
    # gold: a -> b, b root, c -> a; system: a -> c (c is a's gold child), c -> b (b is the head of
    # c's gold head a): both wrong heads, both right under NED
    a = align_words(_tree([2, 0, 1]), _tree([3, 0, 2]))
    pairs = a.sentences[0].pairs
    assert [p.uas for p in pairs] == [False, True, False]
    assert [p.ned for p in pairs] == [True, True, True]
    # gold a -> b, b root, c -> b; system a -> c: c is neither b, nor b's head (the root), nor a
    # child of a: not NED
    b = align_words(_tree([2, 0, 2]), _tree([3, 0, 2]))
    assert [p.ned for p in b.sentences[0].pairs] == [False, True, True]
