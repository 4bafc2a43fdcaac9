"""The bins of the breakdowns at their edges, counted by hand on sentences made for them.

The bins are docs/attachment.md's ("Breakdowns and confusion"): arc distance ``root``, ``1``,
``2``, ``3-6``, ``7+`` as ``eval.pl`` and MaltEval print them (MaltEval's
``GroupedRelationLength``: ``|head − dependent| <= 6`` is ``3-6``, longer ``7-...``; Nilsson &
Nivre 2008); depth (arcs from the root, the root word is 1) ``1`` … ``6``, ``7+``; sentence length
by tens ``1-10`` … ``41-50``, ``51+``, in counted tokens (the tokens ``--no-punct`` keeps, as for
``--max-len``).  Each test writes its sentence and its hand count.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.metrics.attachment import AttachConfig
from evalcore.metrics.breakdown import GroupCounts, breakdown_corpus, group_keys
from evalcore.trees import DepTree, Token


def sentence(heads: Sequence[int], upos: Sequence[str] | None = None) -> DepTree:
    """Words w1..wn with these heads (relation ``dep``, ``root`` for the root word)."""
    tags = upos or ["X"] * len(heads)
    return DepTree(
        tuple(
            Token(i, f"w{i}", upos=tags[i - 1], head=h, deprel="root" if h == 0 else "dep")
            for i, h in enumerate(heads, start=1)
        )
    )


DEFAULT = AttachConfig()


def groups(gold: DepTree, system: DepTree, by: str, config: AttachConfig = DEFAULT) -> dict[str, GroupCounts]:
    result = breakdown_corpus([(gold, system)], [by], config)  # type: ignore[list-item]
    return dict(result.get(by).groups)


def test_an_arc_of_six_words_is_in_3_6_and_one_of_seven_in_7_plus() -> None:
    """w1 is the root; w2..w7 hang from w1 at distances 1..6, w8 at distance 7.  Gold bins:
    root w1, 1 w2, 2 w3, 3-6 w4 w5 w6 w7 (4 words), 7+ w8.  The system hangs w8 from w2
    (distance 6, a wrong head), so on the system side 3-6 has 5 words, 4 of them right, and 7+
    none."""
    gold = sentence([0, 1, 1, 1, 1, 1, 1, 1])
    system = sentence([0, 1, 1, 1, 1, 1, 1, 2])
    assert group_keys(gold, "distance") == ["root", "1", "2", "3-6", "3-6", "3-6", "3-6", "7+"]
    g = groups(gold, system, "distance")
    assert (g["3-6"].gold, g["3-6"].gold_uas, g["3-6"].system, g["3-6"].system_uas) == (4, 4, 5, 4)
    assert (g["7+"].gold, g["7+"].gold_uas, g["7+"].system) == (1, 0, 0)


def test_depth_six_is_its_own_bin_and_seven_is_7_plus() -> None:
    """A chain w1 <- w2 <- ... <- w8 (w1 the root): depths 1..8, so bins 1..6 one word each and
    7+ the two words w7, w8.  The system attaches w7 to the root word: w7 at depth 2, w8 at 3.
    The gold bin 7+ keeps its 2 words, 1 of them right (w8); on the system side 7+ is empty and
    bins 2 and 3 have 2 words each."""
    gold = sentence([0, 1, 2, 3, 4, 5, 6, 7])
    system = sentence([0, 1, 2, 3, 4, 5, 1, 7])
    assert group_keys(gold, "depth") == ["1", "2", "3", "4", "5", "6", "7+", "7+"]
    g = groups(gold, system, "depth")
    assert (g["6"].gold, g["6"].system) == (1, 1)
    assert (g["7+"].gold, g["7+"].gold_uas, g["7+"].system) == (2, 1, 0)
    assert (g["2"].system, g["3"].system) == (2, 2)


def test_a_sentence_of_exactly_50_tokens_is_in_41_50() -> None:
    """Chains of 10, 11, 50 and 51 words: bins 1-10, 11-20, 41-50, 51+; every word of a
    sentence is in its sentence's bin (gold = system: all right)."""
    cases = {10: "1-10", 11: "11-20", 40: "31-40", 41: "41-50", 50: "41-50", 51: "51+"}
    pairs = []
    for n, key in cases.items():
        t = sentence([0, *range(1, n)])
        assert set(group_keys(t, "length")) == {key}, n
        pairs.append((t, t))
    result = breakdown_corpus(pairs, ["length"])
    g = dict(result.get("length").groups)
    assert {k: (c.gold, c.gold_uas) for k, c in g.items()} == {
        "1-10": (10, 10),
        "11-20": (11, 11),
        "31-40": (40, 40),
        "41-50": (41 + 50, 41 + 50),
        "51+": (51, 51),
    }


def test_length_counts_the_tokens_no_punct_keeps() -> None:
    """51 words, the last one PUNCT: 51 tokens (51+), 50 counted tokens with --no-punct (41-50,
    the 50 non-punctuation words), as --max-len counts them."""
    t = sentence([0, *range(1, 51)], upos=["X"] * 50 + ["PUNCT"])
    assert set(groups(t, t, "length")) == {"51+"}
    no_punct = groups(t, t, "length", AttachConfig(no_punct=True))
    assert list(no_punct) == ["41-50"] and no_punct["41-50"].gold == 50
