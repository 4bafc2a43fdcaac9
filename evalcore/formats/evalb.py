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

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from operator import methodcaller
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
        # the nodes the line left open: the root, its last child, ... (``unclosed`` of them)
        nodes = trees[-1].nodes
        chain = [0]
        while len(chain) < unclosed:
            chain.append(nodes[chain[-1]].children[-1])
        open_nodes = frozenset(chain)
        # the innermost one has no children: a ``(LABEL`` ends the line
        read_errors = (UNBALANCED,) if nodes[chain[-1]].children else (MORE_THAN_TWO, UNBALANCED)
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

_EOL_OPEN = re.compile(r"\([^ \t\n\r\f\v()]*[ \t\n\r\f\v]*\Z")
"""A line that ends with ``(LABEL``: evalb's "More than two elements in a bracket", read on."""

CountReading = tuple[list[str], list[tuple[int, int, str]], int]
"""What the counting mode keeps of a line: its kept preterminals as ``"TAG word"`` (deleted ones
removed; tag and word split only where the two sides differ), the scored brackets as
``(start, end, label)`` in the order they close (an inner bracket before the brackets around it)
and the length (:func:`evalb_line_reader` with ``count``)."""

_BLANK = "[ \\t\\n\\r\\f\\v]"
_NOT_BLANK = "[^ \\t\\n\\r\\f\\v()]"


def _kept_preterminal(delete: frozenset[str]) -> re.Pattern[str]:
    """A preterminal ``(TAG word)`` whose tag is not a ``DELETE_LABEL`` (one blank between tag and
    word: any other way of writing one is left to the gaps, where :data:`_LINE_TOKEN` reads it)."""
    skip = "|".join(map(re.escape, sorted(delete, key=len, reverse=True)))
    ahead = f"(?!(?:{skip}){_BLANK})" if skip else ""
    return re.compile(rf"\({ahead}({_NOT_BLANK}*+ {_NOT_BLANK}*+)\)")


class _Unread(Exception):
    """A gap the counting mode does not read (the line is left to the token reader)."""


_GAPS_KEPT = 50_000  # the counting mode's memory of gaps and labels read (cleared when full: it cannot grow)

_Gap = tuple[tuple[None, ...], tuple[str | None, ...], int]
"""A gap as the counting mode reads it: one ``None`` per ``)`` that closes a bracket opened before
it, the scored labels of the brackets it leaves open, the deleted words it holds that count for the
length."""


class _Gaps(dict[str, _Gap]):
    """The gaps read so far (the same few come back on every line: ``) ) (VP``, ``) (, ,) (NP``)."""

    def __init__(self, sets: _Sets, scored: Callable[[str], str | None]) -> None:
        super().__init__()
        self.sets = sets
        self.fate = scored
        self.labels: dict[str, str | None] = {}  # what each raw label becomes, asked once per label

    def scored(self, raw: str) -> str | None:
        """What the massage makes of the raw label ``raw`` (the counting mode's ``count``)."""
        labels = self.labels
        if raw not in labels:
            if len(labels) >= _GAPS_KEPT:
                labels.clear()
            labels[raw] = self.fate(raw)
        return labels[raw]

    def __missing__(self, gap: str) -> _Gap:
        """evalb's reading of the text between two kept preterminals, all at one word position:
        ``)`` closes the innermost bracket, ``(LABEL`` opens one, a deleted preterminal counts for
        the length.  A bracket opened and closed here is over no kept word (the massage drops it).
        Not read: ``(X)`` (a bracket closed at once), a word outside a preterminal, a preterminal
        that is not deleted (written otherwise than ``(TAG word)``)."""
        closes = 0
        opens: list[str] = []
        counted = 0
        fresh = False  # the last token opened a bracket
        for label, blank, word, shut, close, stray in _LINE_TOKEN.findall(gap):
            if close:
                if fresh:
                    raise _Unread
                if opens:
                    opens.pop()
                else:
                    closes += 1
            elif stray or (blank and word and not shut) or (shut and label not in self.sets.delete):
                raise _Unread
            elif shut:
                counted += label not in self.sets.delete_len
            else:
                opens.append(label)
            fresh = not (close or shut)
        if len(self) >= _GAPS_KEPT:
            self.clear()
        entry = self[gap] = ((None,) * closes, tuple(map(self.scored, opens)), counted)
        return entry


def _counter(
    sets: _Sets, max_depth: int, max_words: int, scored: Callable[[str], str | None]
) -> Callable[[str], CountReading | None]:
    """The counting mode of :func:`evalb_line_reader`: a line split at its kept preterminals by one
    regular expression (deleted ones stay in the text between them, the *gaps*), each distinct gap
    read once into the brackets it closes and opens (:class:`_Gaps`), and the brackets massaged as
    they close into plain ``(start, end, label)`` tuples: a bracket deleted by the massage (label
    ``None``) is not kept, and one over no kept word never leaves its gap.  ``None``: a line the
    token reader reads (a limit near, a gap not read, more ``)`` than ``(``, brackets left open)."""
    split = _kept_preterminal(sets.delete).split
    gaps_read = _Gaps(sets, scored)
    gap = gaps_read.__getitem__
    bound = min(max_depth - 1, max_words + 1)
    # a kept preterminal whose tag does not count for the length ("TAG word" starts with "TAG ")
    short = tuple(tag + " " for tag in sets.delete_len - sets.delete)
    for_length = methodcaller("startswith", short) if short else None

    def read(text: str) -> CountReading | None:
        if text.count("(") >= bound:
            return None  # near the depth or the word limit
        parts = split(text)
        # method calls, not bound methods kept in names: Python 3.11 specializes the calls
        # ``keys.append(...)`` and ``stack.pop()`` and not a call of a bound method
        keys: list[tuple[int, int, str]] = []  # in the order the brackets close
        stack: list[tuple[int, str | None]] = []  # the brackets open: start and scored label
        counted = 0
        try:
            for pos, (closes, opens, extra) in enumerate(map(gap, parts[0::2])):
                if closes:
                    for _ in closes:
                        start, label = stack.pop()
                        if label is not None:
                            keys.append((start, pos, label))
                if opens:
                    for label in opens:
                        stack.append((pos, label))
                if extra:
                    counted += extra
        except (_Unread, IndexError):  # IndexError: more ")" than "("
            return None
        if stack:
            return None
        kept = parts[1::2]
        length = len(kept) + counted
        if for_length is not None:
            length -= sum(map(for_length, kept))
        return kept, keys, length

    return read


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
    :func:`~evalcore.formats.ptb.parse_ptb_line`'s trees, without building trees: the line's
    tokens (:data:`_LINE_TOKEN`) read by :func:`_read_tokens`; a line evalb cannot read (a word
    beside other children, text outside the brackets, more ``)`` than ``(``, a limit reached) is
    left to the tree reader, so its error sentence, or the :class:`~evalcore.errors.LimitError` it
    raises, is the tree reader's, word for word.

    The counting mode (``count``: what a raw label becomes after the massage, ``None`` when the
    bracket is deleted; asked once per distinct label): ``read(text)`` is the
    :data:`CountReading` of the line (:func:`_counter`: the same tokens, brackets massaged as they
    close), or ``None`` for a line it leaves to ``read``.  Quote terminals are not remembered:
    evalb's quote repair runs only when the two sides' word counts differ, and the caller then
    reads both lines without ``count``.
    """
    sets = _Sets.of(params)
    max_depth, max_words = limits.depth, limits.tokens
    if count is not None:
        return _counter(sets, max_depth, max_words, count)
    tokens = _LINE_TOKEN.findall

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
