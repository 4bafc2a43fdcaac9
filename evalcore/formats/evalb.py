"""evalb's reading of a bracketed sentence (``read_line`` of ``evalb.c``; docs/freval.md, "Brackets and
matching", step 1).

What evalb sees of one sentence, driven by an evalb parameter file
(:mod:`evalcore.formats.prm`): a node whose only child is a word is a
preterminal (tag + word); words count for the sentence length unless their tag
is a ``DELETE_LABEL_FOR_LENGTH``; a preterminal whose tag is a
``DELETE_LABEL`` is removed *with its word*; every other node is a raw bracket
over the words (kept so far) that it dominates.  ``QUOTE_LABEL`` terminals are
remembered for evalb 2006's quote repair.  The scoring steps that follow
(quote repair, massage, matching) are :mod:`evalcore.metrics.parseval`.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate, compress
from typing import overload

from evalcore.errors import InputFormatError, LimitError
from evalcore.formats._io import InputSource, iter_lines, source_name
from evalcore.formats.prm import EvalbParams
from evalcore.formats.ptb import UnclosedLineError, detect_layout, parse_ptb_line, read_ptb_sentences
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import Tree

__all__ = [
    "MORE_THAN_TWO",
    "QUOTE_WORDS",
    "UNBALANCED",
    "CountReading",
    "EvalbLine",
    "EvalbReading",
    "QuoteTerm",
    "RawBracket",
    "evalb_line_reader",
    "read_evalb",
    "read_evalb_lines",
    "read_evalb_sentences",
]

QUOTE_WORDS = frozenset({"'", '"', "/"})
"""Words that make a ``QUOTE_LABEL`` terminal a possible mislabeled quote (evalb's ``is_quote_term``)."""

UNBALANCED = "Bracketing is unbalanced (too many open bracket)"
"""evalb's message for a line that ends with brackets open; it reads the line on (those brackets
have no end: evalb's -1, so they match only one as open on the other side, and cross nothing)."""

MORE_THAN_TWO = "More than two elements in a bracket"
"""evalb's message for a ``(LABEL`` that ends the line (it reads on: one more open bracket)."""


@dataclass(frozen=True, slots=True)
class RawBracket:
    """A bracket as read: ``[start, end)`` over kept words, raw label, raw parent index (-1: none)."""

    start: int
    end: int
    label: str
    parent: int


@dataclass(frozen=True, slots=True)
class QuoteTerm:
    """A ``QUOTE_LABEL`` terminal (kept or deleted) and where to re-insert it (evalb's ``s_term_ind``)."""

    word: str
    tag: str
    index: int  # number of kept words before it
    bracket: int  # number of brackets opened before it
    parent: int  # the innermost bracket open around it (-1: none); the others are its ancestors


@dataclass(frozen=True, slots=True)
class EvalbReading:
    """One side of a sentence after evalb's reading step."""

    words: tuple[str, ...]
    tags: tuple[str, ...]
    brackets: tuple[RawBracket, ...]
    quotes: tuple[QuoteTerm, ...]
    length: int  # words not tagged DELETE_LABEL_FOR_LENGTH, counted before deletion
    error: str = ""  # why evalb cannot read the line (it loops on it until MAX_ERROR stops it)
    read_errors: tuple[str, ...] = ()  # evalb's messages on a line it reads on (UNBALANCED, ...)


Token = tuple[str, str, str, str, str, str]
"""One token of a bracketed line as :data:`_LINE_TOKEN` finds it: ``(label, blank, word, shut,
close, stray)`` -- an ``(LABEL`` (with, when blanks follow it, the blanks, a word and the ``)`` that
closes the word at once: a preterminal), a lone ``)``, or a word no ``(`` introduces."""

_CLOSE: Token = ("", "", "", "", ")", "")


def _open_chain(tree: Tree, unclosed: int) -> tuple[list[int], bool]:
    """The nodes of ``tree`` that a line left open (the root, its last child, ...: ``unclosed``
    of them) and whether the innermost one has no children (a ``(LABEL`` ending the line)."""
    chain = [0]
    while len(chain) < unclosed:
        chain.append(tree.nodes[chain[-1]].children[-1])
    return chain, not tree.nodes[chain[-1]].children


def _tree_tokens(trees: Sequence[Tree], stays_open: frozenset[int]) -> Iterator[Token]:
    """The tokens of ``trees`` as written on one line (preorder, an explicit stack, no recursion);
    the last tree's nodes in ``stays_open`` are not closed.  A word beside other children is a
    stray word."""
    last = len(trees) - 1
    for t, tree in enumerate(trees):
        nodes = tree.nodes
        keep_open = stays_open if t == last else frozenset()
        work: list[int] = [0]  # node i to read, or ~i (negative) to close bracket node i
        while work:
            i = work.pop()
            if i < 0:
                if ~i not in keep_open:
                    yield _CLOSE
                continue
            node = nodes[i]
            if node.terminal is not None:
                yield ("", "", "", "", "", node.label)
                continue
            children = node.children
            if len(children) == 1 and (child := nodes[children[0]]).terminal is not None:
                yield (node.label, " ", child.label, ")", "", "")
                continue
            yield (node.label, "", "", "", "", "")
            work.append(~i)
            work.extend(reversed(children))


@dataclass(frozen=True, slots=True)
class _Sets:
    """What evalb's reading step takes from a parameter file, as sets."""

    delete: frozenset[str]
    delete_len: frozenset[str]
    quote_labels: frozenset[str]

    @staticmethod
    def of(params: EvalbParams) -> _Sets:
        return _Sets(
            frozenset(params.delete_labels),
            frozenset(params.delete_labels_for_length),
            frozenset(params.quote_labels),
        )


def _read_tokens(
    tokens: Iterable[Token], sets: _Sets, max_depth: int, max_words: int, strict: bool
) -> tuple[EvalbReading, bool] | None:
    """evalb's reading step over ``tokens`` (evalb's ``read_line``): the reading and whether
    brackets were left open, for the tree reader's trees and for the text of a line alike.

    A preterminal's word counts for the length unless its tag is a ``DELETE_LABEL_FOR_LENGTH``,
    is dropped (with its tag) when its tag is a ``DELETE_LABEL``, and is remembered as a quote
    terminal when its tag is a ``QUOTE_LABEL`` and the word one of :data:`QUOTE_WORDS`; every
    other ``(LABEL`` opens a raw bracket over the kept words up to its ``)``.  A stray word is
    evalb's "More than two elements" (the error names the first; the reading goes on).
    ``strict`` (a line's text): ``None`` instead, and for more ``)`` than ``(``, a word not closed
    at once, or a depth or word limit at hand -- the tree reader then says what is wrong.
    """
    delete, delete_len, quote_labels = sets.delete, sets.delete_len, sets.quote_labels
    words: list[str] = []
    tags: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    labels: list[str] = []
    parents: list[int] = []
    quotes: list[QuoteTerm] = []
    stack: list[int] = []  # the brackets open, innermost last
    length = 0
    seen = 0  # words read, deleted ones included (the word limit)
    error = ""
    for label, blank, word, shut, close, stray in tokens:
        if close:
            if not stack:
                return None  # more ")" than "(": evalb's stack runs under
            ends[stack.pop()] = len(words)
        elif strict and (stray or (blank and word and not shut) or len(stack) >= max_depth - 1):
            return None  # evalb's error, or near the depth limit
        elif stray:  # a word beside other children: evalb stops reading here ("More than two elements")
            error = error or f"more than two elements in a bracket (word '{stray}')"
        elif shut:
            seen += 1
            if label not in delete_len:
                length += 1
            if label in quote_labels and word in QUOTE_WORDS:
                quotes.append(QuoteTerm(word, label, len(words), len(starts), stack[-1] if stack else -1))
            if label not in delete:
                words.append(word)
                tags.append(label)
        else:
            parents.append(stack[-1] if stack else -1)
            stack.append(len(starts))
            starts.append(len(words))
            ends.append(-1)
            labels.append(label)
    if strict and seen > max_words:
        return None
    brackets = tuple(map(RawBracket, starts, ends, labels, parents))
    return EvalbReading(tuple(words), tuple(tags), brackets, tuple(quotes), length, error), bool(stack)


def read_evalb(
    trees: Sequence[Tree], params: EvalbParams, error: str = "", unclosed: int = 0
) -> EvalbReading:
    """Words, tags, raw brackets and quote terminals of the trees of one sentence (step 1):
    :func:`_read_tokens` of the trees' tokens.

    ``unclosed``: the line ended with that many brackets open
    (:class:`~evalcore.formats.ptb.UnclosedLineError`: ``trees`` closes them at the end of the
    line).  evalb reads such a line on, with those brackets' end left at -1 and its messages in
    ``read_errors`` (:data:`MORE_THAN_TWO` first when the line ends with ``(LABEL``, then
    :data:`UNBALANCED`); ``error`` is then ignored.
    """
    open_nodes: frozenset[int] = frozenset()
    read_errors: tuple[str, ...] = ()
    if unclosed and trees:
        chain, at_end = _open_chain(trees[-1], unclosed)
        open_nodes = frozenset(chain)
        read_errors = (MORE_THAN_TWO, UNBALANCED) if at_end else (UNBALANCED,)
        error = ""
    done = _read_tokens(_tree_tokens(trees, open_nodes), _Sets.of(params), 0, 0, strict=False)
    assert done is not None  # not strict: every token is read
    reading = done[0]
    return replace(reading, error=error or reading.error, read_errors=read_errors)


@dataclass(frozen=True, slots=True, weakref_slot=True)
class EvalbLine:
    """One sentence of an evalb file after the reading step: where it is and what evalb sees
    (weak references: the streaming tests count those alive)."""

    line: int
    reading: EvalbReading
    file: str = ""


# evalb's read_line token by token: a "(" with its label, then (when blanks follow the label) the
# blanks, a word and the ")" that closes the word at once; a lone ")"; text no "(" introduces
_LINE_TOKEN = re.compile(
    r"\(([^ \t\n\r\f\v()]*)(?:([ \t\n\r\f\v]+)([^ \t\n\r\f\v()]*)(\)?))?|(\))|([^ \t\n\r\f\v()]+)"
)

_SPACED_PRETERMINAL = re.compile(r"\(([^ \t\n\r\f\v()]*+) ([^ \t\n\r\f\v()]*+) \) ")
"""A preterminal written ``(TAG word)`` once a blank is put around every ``)`` (possessive: a
label or word never gives back a character, as none of them is the blank that follows)."""

ODD_BLANKS = (
    "\x1c\x1d\x1e\x1f\x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
"""The characters Python's ``str.split`` and ``str.strip`` take for blanks and evalb does not (``str.isspace``
but not one of :data:`~evalcore.formats._io.BLANKS`: a no-break space, ...; a test checks the list)."""
_ODD_BLANK = re.compile(f"[{ODD_BLANKS}]")

_EOL_OPEN = re.compile(r"\([^ \t\n\r\f\v()]*[ \t\n\r\f\v]*\Z")
"""A line that ends with ``(LABEL``: evalb's "More than two elements in a bracket", read on."""

CountReading = tuple[list[str], list[str], list[tuple[int, int, str]], int]
"""What the counting mode keeps of a line: words and tags (deleted ones removed), the scored
brackets as ``(start, end, label)`` and the length (:func:`evalb_line_reader` with ``count``)."""

_Split = tuple[list[str], list[str], int, Sequence[int], list[str]]
"""A line split at its preterminals: kept words, their tags, the length, and per gap between
preterminals the kept words before it and its text."""


def _splitter(sets: _Sets, max_depth: int, max_words: int, quotes: bool) -> Callable[[str], _Split | None]:
    """``split(text)``: the preterminals ``(TAG word)`` of a line and the text between them, the
    deletions made; ``None`` for a line the token reader must read (near the depth or word limit,
    a blank evalb does not take for one, or -- with ``quotes`` -- a quote terminal to remember).

    A blank is put around every ``)`` (and, on a line with glued brackets, before every ``(``): a
    preterminal is then ``(TAG word ) ``
    (a line written otherwise keeps a word between preterminals), brackets may be glued (``((S``,
    ``(S(NP``: evalb's label ends at a ``(``), and the text between preterminals splits on blanks
    into ``(LABEL`` and ``)``.
    """
    split = _SPACED_PRETERMINAL.split
    odd_blank = _ODD_BLANK.search
    is_deleted = sets.delete.__contains__
    for_length = sets.delete_len.__contains__
    delete_len = sets.delete_len
    quote_labels = quotes and bool(sets.quote_labels)

    def preterminals(text: str) -> _Split | None:
        if text.count("(") >= max_depth - 1:
            return None  # near the depth limit
        if text.isascii():  # str.split() below: no character it takes for a blank and evalb does not
            if "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text:
                return None
        elif odd_blank(text):
            return None
        if text.count("(") != text.count(" (") + text.startswith("("):
            text = text.replace("(", " (")  # glued brackets: "((S", "(S(NP"
        parts = split(text.replace(")", " ) "))
        tags = parts[1::3]
        words = parts[2::3]
        n = len(tags)
        if n > max_words or (quote_labels and not QUOTE_WORDS.isdisjoint(words)):
            return None  # a quote terminal remembers where it is: token by token
        length = n - sum(map(for_length, tags)) if delete_len else n
        before: Sequence[int] = range(n + 1)  # per gap: the kept words before it
        kept = list(map(is_deleted, tags))
        if True in kept:
            kept = list(map(operator.not_, kept))
            words = list(compress(words, kept))
            tags = list(compress(tags, kept))
            before = list(accumulate(kept, initial=0))
        return words, tags, length, before, parts[0::3]

    return preterminals


@overload
def evalb_line_reader(
    params: EvalbParams, limits: Limits = ..., *, count: None = None
) -> Callable[[str, str, int], EvalbReading]: ...
@overload
def evalb_line_reader(
    params: EvalbParams, limits: Limits = ..., *, count: Callable[[str], str | None]
) -> Callable[[str], CountReading | None]: ...
def evalb_line_reader(
    params: EvalbParams, limits: Limits = DEFAULT_LIMITS, *, count: Callable[[str], str | None] | None = None
) -> Callable[[str, str, int], EvalbReading] | Callable[[str], CountReading | None]:
    """evalb's reading step of one line of text, the one reader of evalb's files
    (docs/formats.md, *Speed*; :func:`read_evalb` reads trees with the same token reader).

    ``read(text, file, line)``: the :class:`EvalbReading` :func:`read_evalb` gives of
    :func:`~evalcore.formats.ptb.parse_ptb_line`'s trees, without building trees.  A line is split
    at its preterminals (:func:`_splitter`) and the brackets between them read in one loop; a
    line that takes more (a quote terminal to remember, brackets left open, ``(X)``, a word that
    ``)`` does not close at once, ...) is read token by token (:func:`_read_tokens`), and one
    evalb cannot read (a word beside other children, text outside the brackets, more ``)`` than
    ``(``, a limit reached) by the tree reader, so its error sentence, or the
    :class:`~evalcore.errors.LimitError` it raises, is the tree reader's, word for word.

    The counting mode (``count``: what a raw label becomes after the massage, ``None`` when the
    bracket is deleted; asked once per distinct label): ``read(text)`` is the
    :data:`CountReading` of the split line, brackets massaged as they close (a bracket over no
    kept word dropped, as the massage does), or ``None`` for a line the split does not read.
    Quote terminals are not remembered: evalb's quote repair runs only when the two sides' word
    counts differ, and the caller then reads both lines without ``count``.
    """
    sets = _Sets.of(params)
    max_depth, max_words = limits.depth, limits.tokens
    if count is not None:
        return _counter(_splitter(sets, max_depth, max_words, quotes=False), count)
    tokens = _LINE_TOKEN.findall
    preterminals = _splitter(sets, max_depth, max_words, quotes=True)

    def by_trees(text: str, name: str, line: int) -> EvalbReading:
        try:
            trees = parse_ptb_line(text, name=name, line=line, limits=limits)
        except LimitError:
            raise  # a limit stops the reading
        except UnclosedLineError as exc:
            return read_evalb(exc.trees, params, unclosed=exc.unclosed)
        except InputFormatError as exc:
            return read_evalb((), params, exc.message)
        return read_evalb(trees, params)

    def read(text: str, name: str, line: int) -> EvalbReading:
        done = _read_tokens(tokens(text), sets, max_depth, max_words, strict=True)
        if done is None:
            return by_trees(text, name, line)
        reading, left_open = done
        if left_open:  # evalb reads on: the brackets left open keep the end -1
            errors = (MORE_THAN_TWO, UNBALANCED) if _EOL_OPEN.search(text) else (UNBALANCED,)
            return replace(reading, read_errors=errors)
        return reading

    def read_split(text: str, name: str, line: int) -> EvalbReading:
        split = preterminals(text)
        if split is None:
            return read(text, name, line)
        words, tags, length, before, gaps = split
        starts: list[int] = []
        ends: list[int] = []
        labels: list[str] = []
        parents: list[int] = []
        stack: list[int] = []  # the brackets open, innermost last
        for pos, gap in compress(zip(before, gaps, strict=True), map(str.strip, gaps)):
            fresh = False  # the last token opened a bracket (a preterminal or ")" came before the gap)
            for tok in gap.split():
                if tok == ")":
                    if not stack or fresh:
                        return read(text, name, line)  # more ")" than "(", or "(X)" / "(X  )"
                    ends[stack.pop()] = pos
                    fresh = False
                elif tok[0] == "(":
                    parents.append(stack[-1] if stack else -1)
                    stack.append(len(starts))
                    starts.append(pos)
                    ends.append(-1)
                    labels.append(tok[1:])
                    fresh = True
                else:
                    return read(text, name, line)  # a word outside a preterminal (or "( LABEL")
        if stack:
            return read(text, name, line)  # brackets left open: evalb reads on (token by token)
        brackets = tuple(map(RawBracket, starts, ends, labels, parents))
        return EvalbReading(tuple(words), tuple(tags), brackets, (), length)

    return read_split


_GAPS_KEPT = 50_000  # the counting mode's memory of gaps read (cleared when full: it cannot grow)

_Gap = tuple[int, tuple[str | None, ...]]


def _counter(
    preterminals: Callable[[str], _Split | None], scored: Callable[[str], str | None]
) -> Callable[[str], CountReading | None]:
    """The counting mode of :func:`evalb_line_reader`: the split line's brackets massaged as they
    close, as plain ``(start, end, label)`` tuples.

    Between two preterminals, evalb's line holds some ``)`` and then some ``(LABEL`` (a ``)`` after
    a ``(LABEL`` of the same gap closes an empty bracket, and a word there is outside any
    preterminal: both are left to the full reader).  The same gaps come back on every line
    (``) ) (VP (VBZ``), so each is read once into its closes and its scored labels."""
    gaps_read: dict[str, _Gap | None] = {}

    def gap_of(gap: str) -> _Gap | None:
        tokens = gap.split()
        closes = 0
        while closes < len(tokens) and tokens[closes] == ")":
            closes += 1
        opens = tokens[closes:]
        if any(t[0] != "(" for t in opens):
            return None  # "(X )" or a word outside a preterminal: evalb_line_reader tells
        if len(gaps_read) >= _GAPS_KEPT:
            gaps_read.clear()
        entry = gaps_read[gap] = (closes, tuple(scored(t[1:]) for t in opens))
        return entry

    get = gaps_read.get

    def read(text: str) -> CountReading | None:
        split = preterminals(text)
        if split is None:
            return None
        words, tags, length, before, gaps = split
        keys: list[tuple[int, int, str]] = []
        add = keys.append
        stack: list[tuple[int, str | None]] = []  # the brackets open: start and scored label
        push = stack.append
        pop = stack.pop
        for pos, gap in zip(before, gaps, strict=True):
            entry = get(gap) or gap_of(gap)
            if entry is None:
                return None
            closes, opens = entry
            if closes:
                if closes > len(stack):
                    return None  # more ")" than "(": evalb_line_reader tells
                for _ in range(closes):
                    start, label = pop()
                    if start != pos and label is not None:
                        add((start, pos, label))
            for label in opens:
                push((pos, label))
        if stack:
            return None
        return words, tags, keys, length

    return read


def read_evalb_lines(
    source: InputSource, params: EvalbParams, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> Iterator[EvalbLine]:
    """Every line of the file is one sentence, read as evalb reads it (the *line* layout of
    :func:`~evalcore.formats.ptb.read_ptb_lines`, then :func:`read_evalb`; the same readings)."""
    fname = source_name(source, name)
    read = evalb_line_reader(params, limits)
    for lineno, text in iter_lines(source, fname, limits):
        yield EvalbLine(lineno, read(text, fname, lineno), fname)


def read_evalb_sentences(
    source: InputSource,
    params: EvalbParams,
    *,
    name: str | None = None,
    layout: str = "auto",
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[EvalbLine]:
    """:func:`~evalcore.formats.ptb.read_ptb_sentences` then :func:`read_evalb`, each sentence
    (the *line* layout in one pass, :func:`read_evalb_lines`)."""
    fname = source_name(source, name)
    if layout == "auto":
        layout = detect_layout(source, name=fname, limits=limits)
    if layout == "line":
        yield from read_evalb_lines(source, params, name=fname, limits=limits)
        return
    for x in read_ptb_sentences(source, name=fname, layout=layout, limits=limits):
        yield EvalbLine(x.line, read_evalb(x.trees, params, x.error, x.unclosed), x.file)
