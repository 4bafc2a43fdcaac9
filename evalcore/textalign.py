"""Aligning two CoNLL-U files over the same text by character offsets (SPEC §6, raw scenario).

Parsers that start from raw text (the CoNLL 2018 shared task) split
sentences, tokens and words their own way.  As the shared task's scorer
(``conll18_ud_eval.py``) does, both files are read as one character stream:
the concatenated FORMs of their *tokens* (a multiword token ``n-m`` is one
token, a plain word is a token of one word) with Unicode space characters
(category Zs) removed; the streams must be equal.  Then

* a gold and a system **sentence** are aligned when they cover exactly the
  same characters; every other sentence is *unaligned* (reported, counted and
  left out of the scores);
* inside an aligned pair, tokens are grouped into **blocks**: the smallest
  groups of gold and system tokens covering the same characters (one gold and
  one system token when tokenization agrees).  A block plays the part of the
  space-delimited token of SEGEVAL and of lexeme matching (:class:`evalcore.lattice.Block`);
* :func:`words_counts` is the shared task's "Words" metric (word
  segmentation F1): words of tokens with the same character span are aligned;
  words inside multiword tokens are aligned by LCS on lower-cased forms within
  each *multiword span*, exactly as the scorer defines it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from evalcore.errors import InputFormatError, MismatchError
from evalcore.lattice import Block
from evalcore.metrics.base import ratio
from evalcore.trees import DepTree

__all__ = [
    "SentenceAlignment",
    "SurfaceToken",
    "TokenizedSentence",
    "WordsCounts",
    "align_sentences",
    "align_tokens",
    "surface_tokens",
    "tokenize",
    "words_counts",
]


def _strip_spaces(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "Zs")


@dataclass(frozen=True, slots=True)
class SurfaceToken:
    """A token of a CoNLL-U sentence: its characters and its words (0-based word indices).

    ``start``/``end`` are offsets in the file's character stream (end exclusive).
    """

    form: str
    words: tuple[int, ...]
    start: int
    end: int
    line: int
    multiword: bool


@dataclass(frozen=True)
class TokenizedSentence:
    """A sentence with its tokens and its character range in the file's stream."""

    tree: DepTree
    tokens: tuple[SurfaceToken, ...]
    start: int
    end: int


def surface_tokens(tree: DepTree) -> list[tuple[str, tuple[int, ...], int, bool]]:
    """``(form, word indices, line, multiword)`` per token; ranges ``n-m`` group words n..m."""
    ranges: dict[int, tuple[int, str]] = {}
    for extra in tree.extras:
        if not extra.is_range:
            continue
        first, _, last = extra.id.partition("-")
        if first.isdigit() and last.isdigit():
            ranges[int(first)] = (int(last), extra.form)
    src = tree.source
    out: list[tuple[str, tuple[int, ...], int, bool]] = []
    i = 1
    n = len(tree.tokens)
    while i <= n:
        line = src.token_line(i - 1) if src is not None else 0
        if i in ranges and ranges[i][0] >= i:
            last, form = ranges[i]
            last = min(last, n)
            out.append((form, tuple(range(i - 1, last)), max(line - 1, 1), True))
            i = last + 1
        else:
            out.append((tree.tokens[i - 1].form, (i - 1,), line, False))
            i += 1
    return out


def tokenize(trees: Iterable[DepTree]) -> list[TokenizedSentence]:
    """Tokens with character offsets over the whole file (spaces removed, SPEC §6)."""
    out: list[TokenizedSentence] = []
    offset = 0
    for tree in trees:
        start = offset
        toks: list[SurfaceToken] = []
        for form, words, line, multi in surface_tokens(tree):
            chars = _strip_spaces(form)
            if not chars:
                raise InputFormatError(
                    "a token has an empty FORM (nothing to align by characters)",
                    file=tree.source.file if tree.source else None,
                    line=line or None,
                    sentence=tree.sent_id or None,
                )
            toks.append(SurfaceToken(chars, words, offset, offset + len(chars), line, multi))
            offset += len(chars)
        out.append(TokenizedSentence(tree, tuple(toks), start, offset))
    return out


def _stream(sentences: Sequence[TokenizedSentence]) -> Iterable[tuple[str, SurfaceToken, DepTree]]:
    for s in sentences:
        for t in s.tokens:
            yield t.form, t, s.tree


def _check_same_text(gold: Sequence[TokenizedSentence], pred: Sequence[TokenizedSentence]) -> None:
    """Raise :class:`MismatchError` at the first character where the two streams differ."""
    g_text = "".join(t.form for s in gold for t in s.tokens)
    p_text = "".join(t.form for s in pred for t in s.tokens)
    if g_text == p_text:
        return
    k = 0
    while k < len(g_text) and k < len(p_text) and g_text[k] == p_text[k]:
        k += 1
    where_file, where_line = None, None
    for s in pred:
        for t in s.tokens:
            if t.start <= k < t.end or (k == len(p_text) and t.end == k):
                where_file = s.tree.source.file if s.tree.source else None
                where_line = t.line
                break
        if where_line is not None:
            break
    raise MismatchError(
        "the two files do not spell the same text (token FORMs concatenated, spaces removed); "
        f"first difference at character {k + 1}: gold '{g_text[k : k + 20]}' vs system '{p_text[k : k + 20]}'"
        " (for morpheme-level CoNLL, give the lattice files: --gold-lattice/--pred-lattice)",
        file=where_file,
        line=where_line,
    )


@dataclass(frozen=True, slots=True)
class SentenceAlignment:
    """Aligned sentence pairs (0-based indices into gold and system) and the unaligned ones."""

    pairs: tuple[tuple[int, int], ...]
    unaligned_gold: tuple[int, ...]
    unaligned_pred: tuple[int, ...]


def align_sentences(
    gold: Sequence[TokenizedSentence], pred: Sequence[TokenizedSentence]
) -> SentenceAlignment:
    """One-to-one alignment of sentences covering the same characters (the scorer's "Sentences")."""
    _check_same_text(gold, pred)
    pairs: list[tuple[int, int]] = []
    un_g: list[int] = []
    un_p: list[int] = []
    gi = pi = 0
    while gi < len(gold) and pi < len(pred):
        g, p = gold[gi], pred[pi]
        if (g.start, g.end) == (p.start, p.end):
            pairs.append((gi, pi))
            gi += 1
            pi += 1
        elif g.end <= p.end:
            un_g.append(gi)
            gi += 1
            if g.end == p.end:
                un_p.append(pi)
                pi += 1
        else:
            un_p.append(pi)
            pi += 1
    un_g.extend(range(gi, len(gold)))
    un_p.extend(range(pi, len(pred)))
    return SentenceAlignment(tuple(pairs), tuple(un_g), tuple(un_p))


def align_tokens(
    gold: TokenizedSentence, pred: TokenizedSentence
) -> tuple[list[int], list[int], tuple[Block, ...]]:
    """Block ids (1-based) of every gold token and every system token, and the blocks.

    The two sentences must cover the same characters (an aligned pair).
    """
    g_ids = [0] * len(gold.tokens)
    p_ids = [0] * len(pred.tokens)
    blocks: list[Block] = []
    gi = pi = 0
    while gi < len(gold.tokens) or pi < len(pred.tokens):
        key = len(blocks) + 1
        g0, p0 = gi, pi
        g_end = p_end = -1
        while True:
            if gi < len(gold.tokens) and (g_end <= p_end or pi >= len(pred.tokens)):
                g_ids[gi] = key
                g_end = gold.tokens[gi].end
                gi += 1
            elif pi < len(pred.tokens):
                p_ids[pi] = key
                p_end = pred.tokens[pi].end
                pi += 1
            else:
                break
            if g_end == p_end:
                break
        blocks.append(Block(key, gi - g0, pi - p0))
    return g_ids, p_ids, tuple(blocks)


# ---------------------------------------------------------------------------
# the shared task's "Words" metric


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
    _check_same_text(gold, pred)
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
