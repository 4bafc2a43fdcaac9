"""The counting path on its rarer branches, counted by hand: crossing brackets in a sentence
longer than its plain loop takes (more than 256 positions, docs/formats.md, *Sixth pass*), and
``EQ_LABEL`` tags in either order."""

from __future__ import annotations

from evalcore.metrics.parseval import ParsevalConfig, parseval_rows

WORDS = [f"w{i}" for i in range(300)]


def _span(label: str, lo: int, hi: int) -> str:
    return f"({label} " + " ".join(f"(X {w})" for w in WORDS[lo:hi]) + ")"


GOLD = "(S " + _span("NP", 0, 150) + " " + _span("VP", 150, 300) + ")"
# FOO [140, 160) crosses the gold NP [0, 150) and VP [150, 300): one crossing test bracket (evalb
# counts test brackets); NP [0, 140) and VP [160, 300) nest in the gold NP and VP
TEST = "(S " + _span("NP", 0, 140) + " " + _span("FOO", 140, 160) + " " + _span("VP", 160, 300) + ")"


def test_long_sentence_crossing_counted_by_hand() -> None:
    result = parseval_rows([(1, GOLD)], [(1, TEST)], ParsevalConfig())
    c = result.all.counts
    assert (c.gold, c.test, c.matched, c.crossing) == (3, 4, 1, 1)  # S matched; by hand


def test_eq_label_tags_equal_in_either_order() -> None:
    # COLLINS.prm's EQ_LABEL ADVP PRT: a gold ADVP tagged PRT and a gold PRT tagged ADVP are both
    # correct tags (evalb's label_comp), 2 of 2 by hand
    result = parseval_rows(
        [(1, "(S (ADVP up) (PRT out))")], [(1, "(S (PRT up) (ADVP out))")], ParsevalConfig()
    )
    c = result.all.counts
    assert (c.words, c.correct_tags) == (2, 2)
