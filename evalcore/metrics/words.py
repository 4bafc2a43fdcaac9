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


@dataclass(frozen=True, slots=True)
class _Word:
    start: int  # the span of the word's token
    end: int
    multiword: bool
    form: str


def _words(sentences: Sequence[TokenizedSentence]) -> list[_Word]:
    out: list[_Word] = []
    for s in sentences:
        for t in s.tokens:
            for w in t.words:
                form = s.tree.tokens[w].form if t.multiword else t.form  # the scorer strips spaces of tokens
                out.append(_Word(t.start, t.end, t.multiword, form.lower()))
    return out


def _lcs_pairs(a: Sequence[str], b: Sequence[str]) -> int:
    """Matches the scorer's LCS walk: greedy on equal forms, else follow the LCS table."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for g in range(n - 1, -1, -1):
        for s in range(m - 1, -1, -1):
            best = table[g + 1][s + 1] + 1 if a[g] == b[s] else 0
            table[g][s] = max(best, table[g + 1][s], table[g][s + 1])
    matched = g = s = 0
    while g < n and s < m:
        if a[g] == b[s]:
            matched += 1
            g += 1
            s += 1
        elif table[g][s] == table[g + 1][s]:
            g += 1
        else:
            s += 1
    return matched


def _beyond(words: list[_Word], i: int, span_end: int) -> bool:
    """Word ``i`` lies past the multiword span ending at ``span_end``."""
    if i >= len(words):
        return True
    if words[i].multiword:
        return words[i].start >= span_end
    return words[i].end > span_end


def words_counts(gold: Sequence[TokenizedSentence], pred: Sequence[TokenizedSentence]) -> WordsCounts:
    """The CoNLL 2018 "Words" counts over two whole files (same text required)."""
    check_same_text(gold, pred)
    gw, sw = _words(gold), _words(pred)
    correct = gi = si = 0
    while gi < len(gw) and si < len(sw):
        if gw[gi].multiword or sw[si].multiword:
            # the multiword span: grows until no multiword token of either side sticks out
            if gw[gi].multiword:
                end = gw[gi].end
                if not sw[si].multiword and sw[si].start < gw[gi].start:
                    si += 1
            else:
                end = sw[si].end
                if not gw[gi].multiword and gw[gi].start < sw[si].start:
                    gi += 1
            gs, ss = gi, si
            while not _beyond(gw, gi, end) or not _beyond(sw, si, end):
                if gi < len(gw) and (si >= len(sw) or gw[gi].start <= sw[si].start):
                    if gw[gi].multiword and gw[gi].end > end:
                        end = gw[gi].end
                    gi += 1
                else:
                    if sw[si].multiword and sw[si].end > end:
                        end = sw[si].end
                    si += 1
            if gi > gs and si > ss:
                correct += _lcs_pairs([w.form for w in gw[gs:gi]], [w.form for w in sw[ss:si]])
        else:
            if (gw[gi].start, gw[gi].end) == (sw[si].start, sw[si].end):
                correct += 1
                gi += 1
                si += 1
            elif gw[gi].start <= sw[si].start:
                gi += 1
            else:
                si += 1
    return WordsCounts(len(gw), len(sw), correct)
