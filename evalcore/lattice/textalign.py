"""Aligning two CoNLL-U files over the same text by character offsets (docs/lattice.md, "Inputs", raw
scenario).

As the CoNLL 2018 shared task's scorer (``conll18_ud_eval.py``) does, both files are one character
stream (token FORMs concatenated, Unicode spaces removed) that must be the same text; sentences
covering the same characters are aligned (the others are unaligned), and inside an aligned pair the
smallest groups of gold and system tokens with the same characters are the **blocks**
(:class:`evalcore.lattice.model.Block`).  The "Words" metric over it is :mod:`evalcore.metrics.words`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from evalcore.errors import InputFormatError, MismatchError
from evalcore.formats.columns import form_chars
from evalcore.lattice.model import Block
from evalcore.trees import DepTree

__all__ = [
    "AlignStep",
    "SentenceAlignment",
    "SurfaceToken",
    "TokenizedSentence",
    "align_sentences",
    "align_tokens",
    "check_same_text",
    "iter_tokenize",
    "stream_alignment",
    "surface_tokens",
    "tokenize",
]


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
        lo, _, hi = extra.id.partition("-")
        if lo.isdigit() and hi.isdigit():
            ranges[int(lo)] = (int(hi), extra.form)
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
    """Tokens with character offsets over the whole file (spaces removed, docs/lattice.md, "What is
    compared")."""
    return list(iter_tokenize(trees))


def iter_tokenize(trees: Iterable[DepTree]) -> Iterator[TokenizedSentence]:
    """:func:`tokenize`, one sentence at a time."""
    offset = 0
    for tree in trees:
        start = offset
        toks: list[SurfaceToken] = []
        for form, words, line, multi in surface_tokens(tree):
            chars = form_chars(form)
            if not chars:
                raise InputFormatError(
                    "a token has an empty FORM (nothing to align by characters)",
                    file=tree.source.file if tree.source else None,
                    line=line or None,
                    sentence=tree.sent_id or None,
                )
            toks.append(SurfaceToken(chars, words, offset, offset + len(chars), line, multi))
            offset += len(chars)
        yield TokenizedSentence(tree, tuple(toks), start, offset)


def check_same_text(gold: Sequence[TokenizedSentence], pred: Sequence[TokenizedSentence]) -> None:
    """Raise :class:`MismatchError` at the first character where the two streams differ."""
    check = _TextCheck()
    gi, pi = iter(gold), iter(pred)
    g, p = next(gi, None), next(pi, None)
    while g is not None or p is not None:  # the side that is behind first: little is pending
        if p is None or (g is not None and g.end <= p.end):
            check.add(g, gold=True)  # type: ignore[arg-type]
            g = next(gi, None)
        else:
            check.add(p, gold=False)
            p = next(pi, None)
    check.finish()


class _TextCheck:
    """Compares the two character streams as sentences arrive, keeping only what is not compared yet
    (a sentence or two): the same-text check of a whole file in bounded memory."""

    def __init__(self) -> None:
        self.text = ["", ""]  # gold, predicted: characters not compared yet
        self.done = 0  # characters compared and equal
        self.pending: deque[TokenizedSentence] = deque()  # predicted sentences not wholly compared
        self.gold_pending: deque[TokenizedSentence] = deque()  # the same, gold
        self.pred_end = 0

    def add(self, sentence: TokenizedSentence, *, gold: bool) -> None:
        self.text[0 if gold else 1] += "".join(t.form for t in sentence.tokens)
        if gold:
            self.gold_pending.append(sentence)
        else:
            self.pending.append(sentence)
            self.pred_end = sentence.end
        g, p = self.text
        m = min(len(g), len(p))
        if g[:m] != p[:m]:
            k = next(i for i in range(m) if g[i] != p[i])
            self._fail(k)
        self.done += m
        self.text = [g[m:], p[m:]]
        for queue in (self.pending, self.gold_pending):
            while len(queue) > 1 and queue[0].end <= self.done:
                queue.popleft()

    def finish(self) -> None:
        if self.text[0] or self.text[1]:
            self._fail(0)

    def unmatched(self, more: Iterator[TokenizedSentence], *, gold: bool) -> None:
        """The other file has ended: if this side has characters not compared, fail now, with the
        20 characters the message quotes (read from ``more``, the rest of this side)."""
        side = 0 if gold else 1
        if not self.text[side]:
            return
        while len(self.text[side]) < 20:
            nxt = next(more, None)
            if nxt is None:
                break
            self.add(nxt, gold=gold)
        self.finish()

    def _fail(self, local: int) -> None:
        k = self.done + local
        g, p = self.text
        where_file, where_line = None, None
        for s in self.pending:
            for t in s.tokens:
                if t.start <= k < t.end or (k == self.pred_end and t.end == k):
                    where_file = s.tree.source.file if s.tree.source else None
                    where_line = t.line
                    break
            if where_line is not None:
                break
        if where_line is None:  # the predicted text ends here: name the gold sentence it lacks
            for s in self.gold_pending:
                if s.tokens and s.end > k:
                    t = next(t for t in s.tokens if t.end > k)
                    where_file = s.tree.source.file if s.tree.source else None
                    where_line = t.line
                    break
        raise MismatchError(
            "the two files do not spell the same text (token FORMs concatenated, spaces removed); "
            f"first difference at character {k + 1}: gold '{g[local : local + 20]}' vs system "
            f"'{p[local : local + 20]}' (for morpheme-level CoNLL, give the lattice files: "
            "--gold-lattice/--pred-lattice)",
            file=where_file,
            line=where_line,
        )


@dataclass(frozen=True, slots=True)
class SentenceAlignment:
    """Aligned sentence pairs (0-based indices into gold and system) and the unaligned ones."""

    pairs: tuple[tuple[int, int], ...]
    unaligned_gold: tuple[int, ...]
    unaligned_pred: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AlignStep:
    """One step of :func:`stream_alignment`: an aligned pair, or one unaligned sentence (the other
    side ``None``, its index -1).  Indices are 0-based positions in each file."""

    gold_index: int
    gold: TokenizedSentence | None
    pred_index: int
    pred: TokenizedSentence | None


def align_sentences(
    gold: Sequence[TokenizedSentence], pred: Sequence[TokenizedSentence]
) -> SentenceAlignment:
    """One-to-one alignment of sentences covering the same characters (the scorer's "Sentences")."""
    pairs: list[tuple[int, int]] = []
    un_g: list[int] = []
    un_p: list[int] = []
    for step in stream_alignment(gold, pred):
        if step.gold is not None and step.pred is not None:
            pairs.append((step.gold_index, step.pred_index))
        elif step.gold is not None:
            un_g.append(step.gold_index)
        else:
            un_p.append(step.pred_index)
    return SentenceAlignment(tuple(pairs), tuple(un_g), tuple(un_p))


def stream_alignment(
    gold: Iterable[TokenizedSentence], pred: Iterable[TokenizedSentence]
) -> Iterator[AlignStep]:
    """:func:`align_sentences` reading both sides in step: sentences covering exactly the same
    characters are paired, the others reported one by one; the text check is made as the
    characters arrive (:class:`MismatchError` at the first difference).  Memory: the sentences
    not yet aligned, one or two."""
    gi_iter, pi_iter = iter(gold), iter(pred)
    check = _TextCheck()

    def pull(it: Iterator[TokenizedSentence], is_gold: bool) -> TokenizedSentence | None:
        s = next(it, None)
        if s is not None:
            check.add(s, gold=is_gold)
        return s

    g, p = pull(gi_iter, True), pull(pi_iter, False)
    gi = pi = 0
    while g is not None and p is not None:
        if (g.start, g.end) == (p.start, p.end):
            yield AlignStep(gi, g, pi, p)
            g, gi = pull(gi_iter, True), gi + 1
            p, pi = pull(pi_iter, False), pi + 1
        elif g.end <= p.end:
            yield AlignStep(gi, g, -1, None)
            same_end = g.end == p.end
            g, gi = pull(gi_iter, True), gi + 1
            if same_end:
                yield AlignStep(-1, None, pi, p)
                p, pi = pull(pi_iter, False), pi + 1
        else:
            yield AlignStep(-1, None, pi, p)
            p, pi = pull(pi_iter, False), pi + 1
    # one file has ended: the other's sentences are unaligned, but its first character left over
    # has no counterpart, so the text check fails there, without reading on (an empty gold
    # against 200,000 predicted sentences is named at the first of them)
    while g is not None:
        check.unmatched(gi_iter, gold=True)
        yield AlignStep(gi, g, -1, None)
        g, gi = pull(gi_iter, True), gi + 1
    while p is not None:
        check.unmatched(pi_iter, gold=False)
        yield AlignStep(-1, None, pi, p)
        p, pi = pull(pi_iter, False), pi + 1
    check.finish()


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
