"""Penn-Treebank bracket reader and writer (docs/formats.md, "Penn-Treebank brackets").

Reads any number of trees per file, one per line or pretty-printed, with or
without an outer unlabeled bracket ``( (S ...) )``.  Nothing is dropped on
reading: traces (``-NONE-``), indices (``NP-SBJ-1``, ``NP=2``) and function
tags (``NP-SBJ``, FarPaHC's ``NP*SBJ``) stay in the raw label, and an outer
unlabeled bracket is a root node with the empty label.  Consumers call the tree
operations of :mod:`evalcore.trees` (:func:`~evalcore.trees.split_label`,
:func:`~evalcore.trees.strip_empty`, :func:`~evalcore.trees.unwrap`) for what they need.

Terminals are the atoms (words); a node whose children are all words is a
preterminal.  The parser is a loop over tokens with an explicit stack, so any
depth is fine; the limits of :class:`evalcore.limits.Limits` (brackets open at
once, words of a tree, lines and bytes of a tree) are checked as the tree is
read, so a hostile tree is refused at the line that passes a limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from evalcore.errors import InputFormatError, LimitError
from evalcore.formats._io import BLANKS, InputSource, iter_lines, shown, source_name
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import Node, Source, Tree

__all__ = [
    "BLANKS",
    "PtbLine",
    "UnclosedLineError",
    "detect_layout",
    "parse_ptb",
    "parse_ptb_line",
    "read_ptb",
    "read_ptb_lines",
    "read_ptb_sentences",
    "write_ptb",
]

_TOKEN = re.compile(r"\(|\)|[^ \t\n\r\f\v()]+")
_PAREN = re.compile(r"[()]")
_BLANK = frozenset(BLANKS)

# evalb's read_line, one token per "(" (a label right after it, then blanks and a word when the
# label is followed by blanks, then ")" when the word is closed at once), per ")" and per piece of
# text that no "(" introduces (groups: label, blanks, word, ")" of the word, lone ")", stray text)
_EVALB_TOKEN = re.compile(
    r"\(([^ \t\n\r\f\v()]*)(?:([ \t\n\r\f\v]+)([^ \t\n\r\f\v()]*)(\)?))?|(\))|([^ \t\n\r\f\v()]+)"
)


class _Builder:
    """The bracket-to-tree state machine of :func:`read_ptb` (:func:`parse_ptb_line` inlines its loop).

    An explicit stack, so any depth works; the callers decide what is an error, except the
    depth and word limits, checked here (``where`` names the file and the line being read).
    """

    def __init__(self, limits: Limits = DEFAULT_LIMITS, fname: str = "<string>") -> None:
        self.raw_nodes: list[tuple[str, list[int], int | None]] = []
        self.words: list[str] = []
        self.stack: list[int] = []
        self.blanks: list[tuple[bool, bool]] = []  # per open bracket: a blank after "(", after its label
        self.expect_label = False
        self.limits = limits
        self.fname = fname
        self.line = 0

    @property
    def outside(self) -> bool:
        """True between trees."""
        return not self.stack

    def open(self, blank: bool = False) -> None:
        """A ``(`` (``blank``: a blank, or the end of the line, follows it)."""
        if not self.stack:
            self.raw_nodes, self.words = [], []
        elif len(self.stack) >= self.limits.depth:
            raise self.limits.error(
                "depth",
                f"tree is more than {self.limits.depth} brackets deep",
                file=self.fname,
                line=self.line,
            )
        idx = len(self.raw_nodes)
        self.raw_nodes.append(("", [], None))
        if self.stack:
            self.raw_nodes[self.stack[-1]][1].append(idx)
        self.stack.append(idx)
        self.blanks.append((blank, False))
        self.expect_label = True

    def close(self) -> tuple[str, bool, bool]:
        """Close the innermost bracket: ``(label, has_children, had_no_label)``.

        A bracket with no children and a blank inside is a preterminal over an empty word, as evalb
        reads it (``read_line``): ``(X )`` is tag ``X``, word ``""``; ``( )`` tag and word ``""``;
        ``( X)`` (a blank right after ``(``: no label) tag ``""``, word ``X``."""
        idx = self.stack.pop()
        label, children, _ = self.raw_nodes[idx]
        unlabeled = self.expect_label
        self.expect_label = False
        open_blank, label_blank = self.blanks.pop()
        if not children and (open_blank or label_blank) and not (open_blank and label_blank and label):
            tag, word = (label, "") if label_blank or not label else ("", label)
            self.raw_nodes[idx] = (tag, [len(self.raw_nodes)], None)
            self._word(word)
            return tag, True, False
        return label, bool(children), unlabeled

    def atom(self, tok: str, blank: bool = False) -> None:
        """A label (right after ``(``; ``blank``: a blank follows it) or a word."""
        if self.expect_label:
            _, children, term = self.raw_nodes[self.stack[-1]]
            self.raw_nodes[self.stack[-1]] = (tok, children, term)
            self.blanks[-1] = (self.blanks[-1][0], blank)
            self.expect_label = False
        else:
            idx = len(self.raw_nodes)
            self._word(tok)
            self.raw_nodes[self.stack[-1]][1].append(idx)

    def _word(self, tok: str) -> None:
        if len(self.words) >= self.limits.tokens:
            raise self.limits.error(
                "tokens",
                f"tree has more than {self.limits.tokens} words",
                file=self.fname,
                line=self.line,
            )
        self.raw_nodes.append((tok, [], len(self.words)))
        self.words.append(tok)

    def tree(self, fname: str, line: int, idx: int) -> Tree:
        nodes = tuple(Node(label, tuple(ch), term) for label, ch, term in self.raw_nodes)
        return Tree(nodes, tuple(self.words), sent_id=str(idx), source=Source(fname, line))


def read_ptb(
    source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> Iterator[Tree]:
    """Stream the trees of a bracketed file (``.mrg``, ``.ptb``, ``.psd``, evalb ``.gld``/``.tst``).

    ``sent_id`` is the 1-based index of the tree in the file.
    """
    fname = source_name(source, name)
    b = _Builder(limits, fname)
    start_line = 0
    block_bytes = 0
    count = 0
    for lineno, line in iter_lines(source, fname, limits, runs=True):
        b.line = lineno
        if not b.outside:  # a tree goes on over this line: the block limits
            block_bytes += len(line) + 1
            if lineno - start_line >= limits.block_lines:
                what = f"tree starting at line {start_line} has more than {limits.block_lines} lines"
                raise limits.error("block_lines", what, file=fname, line=lineno)
            if block_bytes > limits.block_bytes:
                what = f"tree starting at line {start_line} has more than {limits.block_bytes} bytes"
                raise limits.error("block_bytes", what, file=fname, line=lineno)
        for m in _TOKEN.finditer(line):
            tok = m.group()
            end = m.end()
            if tok == "(":
                if b.outside:
                    start_line = lineno
                    block_bytes = len(line) + 1
                b.open(end == len(line) or line[end] in _BLANK)
            elif tok == ")":
                if b.outside:
                    raise InputFormatError("unexpected ')' outside any tree", file=fname, line=lineno)
                label, has_children, unlabeled = b.close()
                if not has_children and not unlabeled:  # "(X)": a labeled bracket with no children
                    raise InputFormatError(
                        f"bracket '({shown(label)}' has no children", file=fname, line=lineno
                    )
                if not has_children:
                    raise InputFormatError("empty bracket '()'", file=fname, line=lineno)
                if b.outside:
                    count += 1
                    yield b.tree(fname, start_line, count)
            else:
                if b.outside:
                    raise InputFormatError(
                        f"text '{shown(tok)}' outside any bracket (expected '(')", file=fname, line=lineno
                    )
                b.atom(tok, end == len(line) or line[end] in _BLANK)
    if not b.outside:
        raise InputFormatError(
            f"tree starting at line {start_line} is not closed ({len(b.stack)} '(' open at end of file)",
            file=fname,
            line=start_line,
        )


def parse_ptb(text: str, *, name: str = "<string>", limits: Limits = DEFAULT_LIMITS) -> list[Tree]:
    """Read all trees from a string."""
    return list(read_ptb(text.encode("utf-8"), name=name, limits=limits))


def _write_one(tree: Tree) -> str:
    parts: list[str] = []
    # explicit stack of (node index, closing?) pairs
    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        i, closing = stack.pop()
        node = tree.nodes[i]
        if closing:
            parts.append(")")
            continue
        if node.terminal is not None:
            parts.append(" " + node.label)
            continue
        parts.append(f"{' ' if parts else ''}({node.label}")
        stack.append((i, True))
        for c in reversed(node.children):
            stack.append((c, False))
    return "".join(parts)


def write_ptb(trees: Iterable[Tree]) -> str:
    """One tree per line; inverse of :func:`read_ptb` (property-tested)."""
    return "".join(_write_one(t) + "\n" for t in trees)


# ---------------------------------------------------------------------------
# evalb's view of a file: one sentence per line (docs/freval.md, "Brackets and matching")


@dataclass(frozen=True, slots=True)
class PtbLine:
    """One sentence as evalb sees it.

    In the *line* layout (evalb's own: one tree per line) ``trees`` are the
    trees written on line ``line`` -- none for an empty line, several for a
    line like ``(P this) (Q is)`` -- and ``error`` says why a malformed line
    could not be read (the sentence is then an evalb "error" sentence instead
    of aborting the run).  A line that ends with brackets open has that
    ``error`` too, and its trees closed at the end of the line with
    ``unclosed`` > 0 (:class:`UnclosedLineError`): evalb reads it on, and so
    does :func:`evalcore.formats.evalb.read_evalb`; other readers take it as
    malformed.  In the *tree* layout (pretty-printed files) each tree is one
    :class:`PtbLine` starting at ``line``.
    """

    line: int
    trees: tuple[Tree, ...]
    error: str = ""
    file: str = ""
    unclosed: int = 0  # a line ending with brackets open: how many (``trees`` closes them; error says so)


class UnclosedLineError(InputFormatError):
    """A line that ends with brackets still open (evalb: "Bracketing is unbalanced (too many open
    bracket)").  evalb reads such a line on: ``trees`` are the line's trees with the open brackets
    closed at the end of the line, and ``unclosed`` says how many were open (the last tree's root,
    its last child, that one's last child, ...), so that :func:`evalcore.formats.evalb.read_evalb`
    can give them evalb's end (none)."""

    def __init__(self, message: str, trees: tuple[Tree, ...], unclosed: int, *, file: str, line: int) -> None:
        super().__init__(message, file=file, line=line)
        self.trees = trees
        self.unclosed = unclosed


def parse_ptb_line(
    text: str, *, name: str = "<string>", line: int = 1, limits: Limits = DEFAULT_LIMITS
) -> tuple[Tree, ...]:
    """Read the trees written on one line as evalb's ``read_line`` reads them.

    Words and labels are separated by the ASCII blanks (:data:`BLANKS`) only.  A label is what
    follows ``(`` up to a blank or a bracket (possibly nothing); when blanks follow it, the next
    piece of text is a word, and ``(LABEL word)`` is a preterminal only when ``)`` closes it at
    once: ``(X )`` is the tag ``X`` over an empty word, ``( )`` the empty tag over an empty word,
    ``( X)`` the empty tag over ``X``.  Unlike :func:`read_ptb`, a bracket without children
    (``(X)``, ``()``) is accepted as an internal node with no children (evalb drops it as an
    empty constituent).

    Raises :class:`InputFormatError` for what evalb cannot read (it loops on the line until
    ``MAX_ERROR`` stops it): text outside brackets, a word that ``)`` does not close at once
    (``(NN a )``, a word beside other children), more ``)`` than ``(``;
    :class:`UnclosedLineError` (with the trees) for a line that ends with brackets open, which
    evalb still reads; and :class:`~evalcore.errors.LimitError` for a line past the depth or word
    limit (words of all its trees).
    """
    # One tokenizing pass and a loop over plain lists (the reader of evalb's files: 80% of
    # ``evalcore parseval`` was spent here with a method call per token).
    trees: list[Tree] = []
    labels: list[str] = []
    kids: list[list[int]] = []
    terms: list[int | None] = []
    words: list[str] = []
    stack: list[int] = []
    total_words = 0
    max_depth, max_words = limits.depth, limits.tokens

    def finish() -> None:
        """The tree being read is whole (or the line ends): check the line's words, keep it."""
        nonlocal total_words
        total_words += len(words)
        if total_words > max_words:
            raise limits.error("tokens", f"line has more than {max_words} words", file=name, line=line)
        nodes = tuple(map(Node, labels, map(tuple, kids), terms))
        trees.append(Tree(nodes, tuple(words), sent_id=str(len(trees) + 1), source=Source(name, line)))

    for label, blank, word, shut, close, stray in _EVALB_TOKEN.findall(text):
        if stray:
            if stack:
                what = f"more than two elements in a bracket (word '{shown(stray)}')"
            else:
                what = f"text '{shown(stray)}' outside any bracket (expected '(')"
            raise InputFormatError(what, file=name, line=line)
        if close:
            if not stack:
                raise InputFormatError("unbalanced brackets (too many ')')", file=name, line=line)
            stack.pop()  # evalb accepts "(X)" and "()" as empty constituents
            if not stack:
                finish()
            continue
        if blank and not shut and word:  # "(NN a )", "(NP a (N b))": evalb reads no further
            raise InputFormatError(
                f"more than two elements in a bracket (word '{shown(word)}')", file=name, line=line
            )
        if not stack:
            labels, kids, terms, words = [], [], [], []
        elif len(stack) >= max_depth:
            what = f"tree is more than {max_depth} brackets deep"
            raise limits.error("depth", what, file=name, line=line)
        idx = len(labels)
        labels.append(label)
        kids.append([])
        terms.append(None)
        if stack:
            kids[stack[-1]].append(idx)
        if shut:  # a preterminal: (TAG word)
            if len(words) >= max_words:
                what = f"tree has more than {max_words} words"
                raise limits.error("tokens", what, file=name, line=line)
            kids[idx].append(idx + 1)
            labels.append(word)
            kids.append([])
            terms.append(len(words))
            words.append(word)
            if not stack:
                finish()
        else:
            stack.append(idx)
    if stack:
        finish()  # the brackets left open are closed at the end of the line
        raise UnclosedLineError(
            f"unbalanced brackets ({len(stack)} '(' not closed)",
            tuple(trees),
            len(stack),
            file=name,
            line=line,
        )
    return tuple(trees)


def read_ptb_lines(
    source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS
) -> Iterator[PtbLine]:
    """Every line of the file is one sentence, as evalb reads it (empty lines included).

    A line that cannot be read is an evalb error sentence; a line past a limit stops the
    reading (:class:`~evalcore.errors.LimitError`)."""
    fname = source_name(source, name)
    for lineno, text in iter_lines(source, fname, limits):
        try:
            trees = parse_ptb_line(text, name=fname, line=lineno, limits=limits)
        except LimitError:
            raise
        except UnclosedLineError as exc:
            yield PtbLine(lineno, exc.trees, exc.message, fname, exc.unclosed)
            continue
        except InputFormatError as exc:
            yield PtbLine(lineno, (), exc.message, fname)
            continue
        yield PtbLine(lineno, trees, "", fname)


_LAYOUT_LINES = 200
"""Lines :func:`detect_layout` looks at from the first bracket on."""


def detect_layout(source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> str:
    """``"tree"`` (pretty-printed trees) or ``"line"`` (evalb's layout: one sentence per line).

    While a bracket opened on an earlier line is still open, a pretty-printed tree (``.mrg``,
    ``.psd``, GUM's ``.ptb``) soon has a line that is indented or that closes such a bracket (at
    the latest, the line where the tree ends); in a one-tree-per-line file whose line lacks a
    ``)`` (a truncated parser output), the next lines start at the margin and close only what they
    open.  So among the lines from the first bracket on (:data:`_LAYOUT_LINES` of them, within the
    block-lines limit) the file is ``"tree"`` as soon as one such line is met, and ``"line"`` if
    none is; a file whose only tree stays open with no line after it is ``"tree"`` (the tree
    reader says it is not closed), and text before any bracket makes the file ``"line"`` (a
    malformed line, read line by line).  One broken line, first or not, thus stays one evalb error
    sentence instead of making the whole file unreadable.
    """
    fname = source_name(source, name)
    first = 0  # the line of the first "(" (0: not met yet)
    depth = 0  # brackets open at the start of the line, when the file is read as trees
    after = False  # a non-blank line met while a bracket of an earlier line was open
    whole = False  # a line that opens and closes a tree: evalb's layout, unless evidence says else
    for lineno, text in iter_lines(source, fname, limits, runs=True):
        if lineno > limits.block_lines or (first and lineno - first >= _LAYOUT_LINES):
            break
        if first and not depth:  # nothing open: only the line's own count matters
            depth = text.count("(") - text.count(")")
            whole = whole or (not depth and "(" in text)
            depth = max(0, depth)
            continue
        if depth and text.strip(BLANKS):
            if text[0] in _BLANK:
                return "tree"  # indented inside an open tree: pretty-printed
            after = True
        here = low = 0  # depth within the line, and its lowest point
        for tok in _TOKEN.findall(text) if not first else _PAREN.findall(text):
            if tok == "(":
                here += 1
                first = first or lineno
            elif tok == ")":
                here -= 1
                low = min(low, here)
            elif not first:
                return "line"
        if depth > 0 and low < 0:
            return "tree"  # closes a bracket of an earlier line: pretty-printed
        whole = whole or (not depth and first == lineno and not here)
        depth = max(0, depth + here)
    return "line" if after or whole or not first else "tree"


def read_ptb_sentences(
    source: InputSource, *, name: str | None = None, layout: str = "auto", limits: Limits = DEFAULT_LIMITS
) -> Iterator[PtbLine]:
    """Sentences of a bracketed file for evalb-style scoring.

    ``layout``: ``"line"`` (evalb: one sentence per line, see
    :func:`read_ptb_lines`), ``"tree"`` (one sentence per tree, any line
    breaks, :func:`read_ptb`), or ``"auto"`` (:func:`detect_layout`).
    """
    fname = source_name(source, name)
    if layout == "auto":
        layout = detect_layout(source, name=fname, limits=limits)
    if layout == "line":
        yield from read_ptb_lines(source, name=fname, limits=limits)
    elif layout == "tree":
        for tree in read_ptb(source, name=fname, limits=limits):
            line = tree.source.line if tree.source is not None else 0
            yield PtbLine(line, (tree,), "", fname)
    else:
        raise ValueError(f"unknown layout {layout!r} (expected auto, line or tree)")
