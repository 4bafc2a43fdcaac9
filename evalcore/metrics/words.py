"""The CoNLL 2018 shared task's "Words" metric (word segmentation F1; ``conll18_ud_eval.py``).

Over two CoNLL-U files of the same text, read as one character stream
(:mod:`evalcore.lattice.textalign`): words of tokens with the same character
span are aligned; words inside multiword tokens are aligned by LCS on
lower-cased forms within each *multiword span*, exactly as the scorer defines it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.lattice.textalign import TokenizedSentence, check_same_text
from evalcore.metrics.base import ratio
from evalcore.metrics.conll18 import lcs_pairs, multiword_span

__all__ = ["WordsCounts", "words_counts"]


@dataclass(frozen=True, slots=True)
class WordsCounts:
    """Gold words, system words, aligned words; F1 = 2·correct / (gold + system)."""

    gold: int
    system: int
    correct: int

    @property
    def precision(self) -> float:
        return ratio(self.correct, self.system)

    @property
    def recall(self) -> float:
        return ratio(self.correct, self.gold)

    @property
    def f1(self) -> float:
        return ratio(2 * self.correct, self.gold + self.system)


@dataclass(slots=True)
class _Word:
    start: int  # the span of the word's token
    end: int
    multi: bool
    form: str


def _words(sentences: Sequence[TokenizedSentence]) -> list[_Word | None]:
    """The words of the file in order, then ``None`` (past the end)."""
    out: list[_Word | None] = []
    for s in sentences:
        for t in s.tokens:
            for w in t.words:
                form = s.tree.tokens[w].form if t.multiword else t.form  # the scorer strips spaces of tokens
                out.append(_Word(t.start, t.end, t.multiword, form.lower()))
    out.append(None)
    return out


def words_counts(gold: Sequence[TokenizedSentence], pred: Sequence[TokenizedSentence]) -> WordsCounts:
    """The CoNLL 2018 "Words" counts over two whole files (same text required): the scorer's
    ``align_words``, with the multiword spans and their LCS of :mod:`evalcore.metrics.conll18`."""
    check_same_text(gold, pred)
    gw, sw = _words(gold), _words(pred)
    correct = gi = si = 0
    while (g := gw[gi]) is not None and (s := sw[si]) is not None:
        if g.multi or s.multi:
            gs, ss, gi, si = multiword_span(gw.__getitem__, sw.__getitem__, gi, si)
            correct += len(lcs_pairs([w for w in gw[gs:gi] if w], [w for w in sw[ss:si] if w]))
        elif g.start == s.start and g.end == s.end:
            correct += 1
            gi += 1
            si += 1
        elif g.start <= s.start:
            gi += 1
        else:
            si += 1
    return WordsCounts(len(gw) - 1, len(sw) - 1, correct)
