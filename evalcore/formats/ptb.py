"""Penn-Treebank bracket reader and writer (SPEC §2).

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
from evalcore.formats._io import InputSource, iter_lines, shown, source_name
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.trees import Node, Source, Tree

__all__ = [
    "PtbLine",
    "detect_layout",
    "parse_ptb",
    "parse_ptb_line",
    "read_ptb",
    "read_ptb_lines",
    "read_ptb_sentences",
    "write_ptb",
]

_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def _build(
    raw_nodes: list[tuple[str, list[int], int | None]], words: list[str], fname: str, line: int, idx: int
) -> Tree:
    nodes = tuple(Node(label, tuple(ch), term) for label, ch, term in raw_nodes)
    return Tree(nodes, tuple(words), sent_id=str(idx), source=Source(fname, line))


class _Builder:
    """The bracket-to-tree state machine of :func:`read_ptb` (:func:`parse_ptb_line` inlines its loop).

    An explicit stack, so any depth works; the callers decide what is an error, except the
    depth and word limits, checked here (``where`` names the file and the line being read).
    """

    def __init__(self, limits: Limits = DEFAULT_LIMITS, fname: str = "<string>") -> None:
        self.raw_nodes: list[tuple[str, list[int], int | None]] = []
        self.words: list[str] = []
        self.stack: list[int] = []
        self.expect_label = False
        self.limits = limits
        self.fname = fname
        self.line = 0

    @property
    def outside(self) -> bool:
        """True between trees."""
        return not self.stack

    def open(self) -> None:
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
        self.expect_label = True

    def close(self) -> tuple[str, bool, bool]:
        """Close the innermost bracket: ``(label, has_children, had_no_label)``."""
        label, children, _ = self.raw_nodes[self.stack.pop()]
        unlabeled = self.expect_label
        self.expect_label = False
        return label, bool(children), unlabeled

    def atom(self, tok: str) -> None:
        """A label (right after ``(``) or a word."""
        if self.expect_label:
            _, children, term = self.raw_nodes[self.stack[-1]]
            self.raw_nodes[self.stack[-1]] = (tok, children, term)
            self.expect_label = False
        else:
            if len(self.words) >= self.limits.tokens:
                raise self.limits.error(
                    "tokens",
                    f"tree has more than {self.limits.tokens} words",
                    file=self.fname,
                    line=self.line,
                )
            idx = len(self.raw_nodes)
            self.raw_nodes.append((tok, [], len(self.words)))
            self.words.append(tok)
            self.raw_nodes[self.stack[-1]][1].append(idx)

    def tree(self, fname: str, line: int, idx: int) -> Tree:
        return _build(self.raw_nodes, self.words, fname, line, idx)


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
            if tok == "(":
                if b.outside:
                    start_line = lineno
                    block_bytes = len(line) + 1
                b.open()
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
                b.atom(tok)
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
# evalb's view of a file: one sentence per line (SPEC §7)


@dataclass(frozen=True, slots=True)
class PtbLine:
    """One sentence as evalb sees it.

    In the *line* layout (evalb's own: one tree per line) ``trees`` are the
    trees written on line ``line`` -- none for an empty line, several for a
    line like ``(P this) (Q is)`` -- and ``error`` says why a malformed line
    could not be read (the sentence is then an evalb "error" sentence instead
    of aborting the run).  In the *tree* layout (pretty-printed files) each
    tree is one :class:`PtbLine` starting at ``line``.
    """

    line: int
    trees: tuple[Tree, ...]
    error: str = ""
    file: str = ""


def parse_ptb_line(
    text: str, *, name: str = "<string>", line: int = 1, limits: Limits = DEFAULT_LIMITS
) -> tuple[Tree, ...]:
    """Read the trees written on one line, tolerating what evalb tolerates.

    Unlike :func:`read_ptb`, a bracket without children (``(X)``, ``()``) is
    accepted as an internal node with no children (evalb drops it as an
    empty constituent).  Raises :class:`InputFormatError` for text outside
    brackets and unbalanced brackets, and :class:`~evalcore.errors.LimitError`
    for a line past the depth or word limit (words of all its trees).
    """
    # One tokenizing pass and a loop over plain lists (the reader of evalb's files: 80% of
    # ``evalcore parseval`` was spent here with a method call per token; issue 18).
    trees: list[Tree] = []
    labels: list[str] = []
    kids: list[list[int]] = []
    terms: list[int | None] = []
    words: list[str] = []
    stack: list[int] = []
    expect_label = False
    total_words = 0
    max_depth, max_words = limits.depth, limits.tokens
    for tok in _TOKEN.findall(text):
        if tok == "(":
            if not stack:
                labels, kids, terms, words = [], [], [], []
            elif len(stack) >= max_depth:
                what = f"tree is more than {max_depth} brackets deep"
                raise limits.error("depth", what, file=name, line=line)
            idx = len(labels)
            labels.append("")
            kids.append([])
            terms.append(None)
            if stack:
                kids[stack[-1]].append(idx)
            stack.append(idx)
            expect_label = True
        elif tok == ")":
            if not stack:
                raise InputFormatError("unbalanced brackets (too many ')')", file=name, line=line)
            stack.pop()  # evalb accepts "(X)" and "()" as empty constituents
            expect_label = False
            if not stack:
                total_words += len(words)
                if total_words > max_words:
                    what = f"line has more than {max_words} words"
                    raise limits.error("tokens", what, file=name, line=line)
                nodes = tuple(map(Node, labels, map(tuple, kids), terms))
                where = Source(name, line)
                trees.append(Tree(nodes, tuple(words), sent_id=str(len(trees) + 1), source=where))
        elif not stack:
            raise InputFormatError(
                f"text '{shown(tok)}' outside any bracket (expected '(')", file=name, line=line
            )
        elif expect_label:
            labels[stack[-1]] = tok
            expect_label = False
        else:
            if len(words) >= max_words:
                what = f"tree has more than {max_words} words"
                raise limits.error("tokens", what, file=name, line=line)
            kids[stack[-1]].append(len(labels))
            labels.append(tok)
            kids.append([])
            terms.append(len(words))
            words.append(tok)
    if stack:
        raise InputFormatError(f"unbalanced brackets ({len(stack)} '(' not closed)", file=name, line=line)
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
        except InputFormatError as exc:
            yield PtbLine(lineno, (), exc.message, fname)
            continue
        yield PtbLine(lineno, trees, "", fname)


def detect_layout(source: InputSource, *, name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> str:
    """``"line"`` if the file's first tree closes on the line where it opens, else ``"tree"``.

    evalb reads one tree per line; treebank files (``.mrg``, ``.psd``) are
    pretty-printed over many lines.  Only the first tree is looked at, so a
    malformed line further down a one-tree-per-line file stays an evalb
    error sentence instead of making the whole file unreadable.
    """
    fname = source_name(source, name)
    for lineno, text in iter_lines(source, fname, limits, runs=True):
        if lineno > limits.block_lines:
            return "line"  # no tree in sight: evalb's layout (the reader reports what is wrong)
        depth = 0
        opened = False
        for m in _TOKEN.finditer(text):
            tok = m.group()
            if tok == "(":
                depth += 1
                opened = True
            elif tok == ")":
                depth -= 1
                if opened and depth == 0:
                    return "line"
            elif not opened:
                return "line"  # text before any bracket: a malformed line, read line by line
        if opened:
            return "tree"
    return "line"


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
