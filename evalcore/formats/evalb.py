"""evalb's reading of a bracketed sentence (``read_line`` of ``evalb.c``; SPEC §7, step 1).

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress

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
    "evalb_count_reader",
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


def _open_chain(tree: Tree, unclosed: int) -> tuple[list[int], bool]:
    """The nodes of ``tree`` that a line left open (the root, its last child, ...: ``unclosed``
    of them) and whether the innermost one has no children (a ``(LABEL`` ending the line)."""
    chain = [0]
    while len(chain) < unclosed:
        chain.append(tree.nodes[chain[-1]].children[-1])
    return chain, not tree.nodes[chain[-1]].children


def read_evalb(
    trees: Sequence[Tree], params: EvalbParams, error: str = "", unclosed: int = 0
) -> EvalbReading:
    """Words, tags, raw brackets and quote terminals of the trees of one sentence (step 1).

    ``unclosed``: the line ended with that many brackets open
    (:class:`~evalcore.formats.ptb.UnclosedLineError`: ``trees`` closes them at the end of the
    line).  evalb reads such a line on, with those brackets' end left at -1 and its messages in
    ``read_errors`` (:data:`MORE_THAN_TWO` first when the line ends with ``(LABEL``, then
    :data:`UNBALANCED`); ``error`` is then ignored.

    Iterative preorder walk with an explicit stack (no recursion).
    """
    open_nodes: frozenset[int] = frozenset()
    read_errors: tuple[str, ...] = ()
    if unclosed and trees:
        chain, at_end = _open_chain(trees[-1], unclosed)
        open_nodes = frozenset(chain)
        read_errors = (MORE_THAN_TWO, UNBALANCED) if at_end else (UNBALANCED,)
        error = ""
    last = len(trees) - 1
    left_open: list[int] = []  # brackets that stay open: their end is evalb's -1
    delete = frozenset(params.delete_labels)
    delete_len = frozenset(params.delete_labels_for_length)
    quote_labels = frozenset(params.quote_labels)
    words: list[str] = []
    tags: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    labels: list[str] = []
    parents: list[int] = []
    quotes: list[QuoteTerm] = []
    length = 0
    for t, tree in enumerate(trees):
        nodes = tree.nodes
        stays_open = open_nodes if t == last else frozenset()
        open_brackets: list[int] = []
        work: list[int] = [0]  # node i to read, or ~i (negative) to close bracket node i
        while work:
            i = work.pop()
            if i < 0:
                ends[open_brackets.pop()] = len(words)
                continue
            node = nodes[i]
            if node.terminal is not None:
                # a word beside other children: evalb stops reading here ("More than two elements")
                error = error or f"more than two elements in a bracket (word '{node.label}')"
                continue
            children = node.children
            if len(children) == 1 and (child := nodes[children[0]]).terminal is not None:
                tag = node.label
                word = child.label
                if tag not in delete_len:
                    length += 1
                if tag in quote_labels and word in QUOTE_WORDS:
                    parent = open_brackets[-1] if open_brackets else -1
                    quotes.append(QuoteTerm(word, tag, len(words), len(starts), parent))
                if tag not in delete:
                    words.append(word)
                    tags.append(tag)
                continue
            if i in stays_open:
                left_open.append(len(starts))
            parents.append(open_brackets[-1] if open_brackets else -1)
            starts.append(len(words))
            ends.append(-1)
            labels.append(node.label)
            open_brackets.append(len(starts) - 1)
            work.append(~i)
            work.extend(reversed(children))
    for b in left_open:
        ends[b] = -1
    brackets = tuple(
        RawBracket(s, e, lab, p) for s, e, lab, p in zip(starts, ends, labels, parents, strict=True)
    )
    return EvalbReading(tuple(words), tuple(tags), brackets, tuple(quotes), length, error, read_errors)


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

_PRETERMINAL = re.compile(r"\(([^ \t\n\r\f\v()]*)[ \t\n\r\f\v]+([^ \t\n\r\f\v()]*)\)")
"""A preterminal ``(TAG word)`` as evalb reads it (either may be empty: ``(X )``, ``( )``, ``( X)``)."""
_BRACKET = re.compile(r"\(([^ \t\n\r\f\v()]*)|(\))|([^ \t\n\r\f\v()]+)")  # between preterminals

_SPACED_PRETERMINAL = re.compile(r"\(([^ \t\n\r\f\v()]*+) ([^ \t\n\r\f\v()]*+) \) ")
"""A preterminal written ``(TAG word)`` once a space is put around each ``)`` (possessive: a label
or word never gives back a character, as none of them is the blank that follows; 20% faster)."""

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


def evalb_line_reader(
    params: EvalbParams, limits: Limits = DEFAULT_LIMITS
) -> Callable[[str, str, int], EvalbReading]:
    """``read(text, file, line)``: :func:`read_evalb` of :func:`~evalcore.formats.ptb.parse_ptb_line`,
    in one pass over the line's text without building trees (issue 18: the reading was 80% of
    ``evalcore parseval``).

    The single pass reads the lines evalb reads: every word the only child of its preterminal,
    within the depth and word limits, also a line that ends with brackets open (evalb's
    "Bracketing is unbalanced", read on).  Any other line (a word that ``)`` does not close at
    once, text outside the brackets, more ``)`` than ``(``, a limit reached) is read again by the
    tree reader, so its error sentence, or the :class:`~evalcore.errors.LimitError` it raises, is
    the tree reader's, word for word.
    """
    delete = frozenset(params.delete_labels)
    delete_len = frozenset(params.delete_labels_for_length)
    quote_labels = frozenset(params.quote_labels)
    max_depth, max_words = limits.depth, limits.tokens
    tokens = _LINE_TOKEN.findall
    split = _PRETERMINAL.split
    brackets_in = _BRACKET.findall

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
        for label, blank, word, shut, close, stray in tokens(text):
            if close:
                if not stack:
                    return by_trees(text, name, line)  # more ")" than "(": evalb's stack runs under
                ends[stack.pop()] = len(words)
            elif stray or (blank and word and not shut) or len(stack) >= max_depth - 1:
                return by_trees(text, name, line)  # evalb's error, or near the depth limit
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
        if seen > max_words:
            return by_trees(text, name, line)
        read_errors: tuple[str, ...] = ()
        if stack:  # evalb reads on: the brackets left open keep the end -1
            read_errors = (MORE_THAN_TWO, UNBALANCED) if _EOL_OPEN.search(text) else (UNBALANCED,)
        brackets = tuple(map(RawBracket, starts, ends, labels, parents))
        return EvalbReading(tuple(words), tuple(tags), brackets, tuple(quotes), length, "", read_errors)

    def read_split(text: str, name: str, line: int) -> EvalbReading:
        parts = split(text)  # text between preterminals, tag, word, text, tag, word, ..., text
        tags = parts[1::3]
        words = parts[2::3]
        n = len(tags)
        if n > max_words or (quote_labels and not QUOTE_WORDS.isdisjoint(words)):
            return read(text, name, line)  # a quote terminal remembers where it is: token by token
        length = n - sum(map(delete_len.__contains__, tags))
        kept = list(map(delete.__contains__, tags))
        before: Sequence[int] = range(n + 1)  # per gap: the kept words before it
        if True in kept:
            kept = list(map(operator.not_, kept))
            words = list(compress(words, kept))
            tags = list(compress(tags, kept))
            before = list(accumulate(kept, initial=0))
        starts: list[int] = []
        ends: list[int] = []
        labels: list[str] = []
        parents: list[int] = []
        stack: list[int] = []  # the brackets open, innermost last
        for pos, gap in zip(before, parts[0::3], strict=True):
            if not gap or gap == " ":
                continue
            for label, close, stray in brackets_in(gap):
                if close:
                    if not stack:
                        return by_trees(text, name, line)
                    ends[stack.pop()] = pos
                elif stray or len(stack) >= max_depth - 1:
                    return read(text, name, line)  # evalb's error, or near the depth limit
                else:
                    parents.append(stack[-1] if stack else -1)
                    stack.append(len(starts))
                    starts.append(pos)
                    ends.append(-1)
                    labels.append(label)
        if stack:
            return read(text, name, line)  # brackets left open: evalb reads on (token by token)
        brackets = tuple(map(RawBracket, starts, ends, labels, parents))
        return EvalbReading(tuple(words), tuple(tags), brackets, (), length)

    return read_split


CountReading = tuple[list[str], list[str], list[tuple[int, int, str]], int]
"""What the count-only path of ``evalcore parseval`` keeps of a line: words and tags (deleted ones
removed), the scored brackets as ``(start, end, label)`` and the length (:func:`evalb_count_reader`)."""


def evalb_count_reader(
    params: EvalbParams, scored: Callable[[str], str | None], limits: Limits = DEFAULT_LIMITS
) -> Callable[[str], CountReading | None]:
    """``read(text)``: evalb's reading of a line and the massage of its brackets in one pass, with
    plain tuples for brackets (``evalcore parseval`` needs only counts; docs/formats.md, *Speed*).

    ``scored(raw_label)`` is what a raw label becomes after the massage (``None``: the bracket is
    deleted); it is asked once per distinct label.  A bracket over no kept word is dropped, as
    the massage does.  Brackets may be glued (``((S``, ``(S(NP``: evalb's label ends at a ``(``).
    Quote terminals are not remembered: evalb's quote repair runs only when the two sides' word
    counts differ, and the caller reads such a pair with :func:`evalb_line_reader`.  ``None`` for
    any line this pass does not read as :func:`evalb_line_reader` would (a word beside other
    children, text outside the brackets, unbalanced brackets, ``( LABEL`` with a space, near a
    depth or word limit): the caller reads that line with :func:`evalb_line_reader`, which gives
    evalb's error sentence or the limit's error.
    """
    delete = frozenset(params.delete_labels)
    delete_len = frozenset(params.delete_labels_for_length)
    max_depth, max_words = limits.depth, limits.tokens
    split = _SPACED_PRETERMINAL.split
    odd_blank = _ODD_BLANK.search
    labels: dict[str, str | None] = {}  # per "(LABEL" token: its scored label
    get = labels.get
    is_deleted = delete.__contains__
    for_length = delete_len.__contains__

    def read(text: str) -> CountReading | None:
        if text.count("(") >= max_depth - 1:
            return None  # near the depth limit
        if text.isascii():  # str.split() below: no character it takes for a blank and evalb does not
            if "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text:
                return None
        elif odd_blank(text):
            return None
        # a space around every ")": a preterminal is "(TAG word ) " (a line written otherwise is read
        # by evalb_line_reader: what is left of it between preterminals holds a word), and the text
        # between preterminals splits on spaces into "(LABEL" and ")"
        parts = split(text.replace(")", " ) "))
        tags = parts[1::3]
        words = parts[2::3]
        n = len(tags)
        if n > max_words:
            return None
        length = n - sum(map(for_length, tags)) if delete_len else n
        before: Sequence[int] = range(n + 1)  # per gap: the kept words before it
        kept = list(map(is_deleted, tags))
        if True in kept:
            kept = list(map(operator.not_, kept))
            words = list(compress(words, kept))
            tags = list(compress(tags, kept))
            before = list(accumulate(kept, initial=0))
        gaps = parts[0::3]
        keys: list[tuple[int, int, str]] = []
        add = keys.append
        stack: list[tuple[int, str | None]] = []  # the brackets open: start and scored label
        push = stack.append
        pop = stack.pop
        for pos, gap in compress(zip(before, gaps, strict=True), map(str.strip, gaps)):
            fresh = False  # the last token opened a bracket (a preterminal or ")" came before the gap)
            for tok in gap.split():
                if tok == ")":
                    if not stack or fresh:
                        return None  # more ")" than "(", or "(X)" / "(X )": evalb_line_reader tells
                    start, label = pop()
                    fresh = False
                    if start != pos and label is not None:
                        add((start, pos, label))
                elif tok[0] == "(":
                    label = get(tok, "(")  # "(": not met yet (no label holds a bracket)
                    if label == "(":
                        if "(" in tok[1:]:  # "((S", "(S(NP": a bracket per "(" (evalb: a label ends at "(")
                            for raw in tok[1:].split("("):
                                label = get("(" + raw, "(")
                                if label == "(":
                                    label = labels["(" + raw] = scored(raw)
                                push((pos, label))
                            fresh = True
                            continue
                        label = labels[tok] = scored(tok[1:])
                    push((pos, label))
                    fresh = True
                else:
                    return None  # a word outside a preterminal (or "( LABEL")
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
