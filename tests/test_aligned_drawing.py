"""One gold sentence and the words of a parse of the raw text that start in it, drawn aligned by
characters (workbench/aligned_drawing.py; docs/app.md, "Parses of the raw text").

The example is the two-sentence one of ``tests/test_app_raw_text.py``, worked by hand: gold "The cat
sleeps ." / "Dogs bark ." (two sentences), the parse one sentence "The cat sleeps. Dogs bark ." with
"sleeps." one word.  In the first gold sentence the parse has The, cat and "sleeps." (the words
whose first character is there); "sleeps." merges the gold's "sleeps" and "." (neither is aligned),
and its sentence goes on into the second gold sentence.  There, bark's head is "sleeps.", a word of
the first gold sentence.  Verdicts (the scorer's, on the aligned pairs): The right; cat's head
("sleeps.") not the gold's; Dogs and "." right; bark's head wrong.
"""

from __future__ import annotations

import pytest
from test_alignment import GOLD as MWT_GOLD
from test_alignment import SYSTEM as MWT_SYSTEM
from test_app_raw_text import GOLD, RAW

from evalcore.metrics.conll18 import align_words
from evalcore.render.svg import dep_svg
from workbench.aligned_drawing import aligned_drawing, aligned_layouts

ALIGNMENT = align_words(GOLD, RAW)


def _x(layout: object) -> dict[str, float]:
    return {w.form: w.x for w in layout.words}  # type: ignore[attr-defined]


def test_a_merged_token_and_a_sentence_that_goes_on() -> None:
    d = aligned_drawing(ALIGNMENT, 0)
    assert d.gold.forms == ("The", "cat", "sleeps", ".")
    assert d.system.forms == ("The", "cat", "sleeps.")
    assert d.system.heads == (2, 3, 0)
    assert d.gold_faded == {3, 4} and d.system_faded == {3}
    assert d.gold_notes == {3: ("in 'sleeps.'",), 4: ("in 'sleeps.'",)}
    assert d.system_notes == {3: ("merges sleeps+.", "its sentence goes on")}
    assert [v.status for v in d.verdicts] == ["correct", "wrong-head", "wrong-head"]
    assert d.blocks == (((1,), (1,)), ((2,), (2,)), ((3, 4), (3,)))


def test_a_head_in_the_previous_gold_sentence() -> None:
    d = aligned_drawing(ALIGNMENT, 1)
    assert d.system.forms == ("Dogs", "bark", ".")
    assert d.system.heads == (2, 0, 2)  # bark's head "sleeps." is not drawn here: the root
    assert d.system_notes == {1: ("its sentence began before",), 2: ("head in another gold sentence",)}
    assert [v.status for v in d.verdicts] == ["correct", "wrong-head", "correct"]
    assert not d.gold_faded and not d.system_faded


def test_words_that_share_characters_stand_above_each_other() -> None:
    gold, system = aligned_layouts(aligned_drawing(ALIGNMENT, 0))
    g, s = _x(gold), _x(system)
    assert [g["The"], g["cat"], g["sleeps"]] == pytest.approx([s["The"], s["cat"], s["sleeps."]])
    assert g["sleeps"] < g["."] and gold.width == system.width


def test_a_gold_multiword_token_the_parse_keeps_whole() -> None:
    """tests/test_alignment.py's example: the gold splits "cannot" into can + not, the parse keeps
    "cannot" (not aligned: the scorer aligns a multiword token's words by their forms); the parse's
    "." starts its second sentence inside the first gold sentence."""
    alignment = align_words(MWT_GOLD.encode(), MWT_SYSTEM.encode())
    d = aligned_drawing(alignment, 0)
    assert d.gold_notes == {2: ("in 'cannot'",), 3: ("in 'cannot'",)}
    assert d.system_notes == {
        2: ("merges can+not",),
        4: ("head in another gold sentence", "the parse starts a sentence", "its sentence goes on"),
    }
    gold, system = aligned_layouts(d)
    g, s = _x(gold), _x(system)
    assert [g["can"], g["go"], g["."]] == pytest.approx([s["cannot"], s["go"], s["."]])


def test_a_gold_head_the_parse_does_not_have_is_named_so_on_hover() -> None:
    """cat's gold head is "sleeps", which the parse merged into "sleeps.": no parse word stands for
    it, so the arc's hover text says so (it read "from -1 ?")."""
    _, system = aligned_layouts(aligned_drawing(ALIGNMENT, 0))
    svg = dep_svg(system)
    assert "from a gold word the parse does not have)" in svg
    assert "-1 ?" not in svg
