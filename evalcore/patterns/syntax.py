"""Reading requests (a subset of Grew's) and pattern files into frozen values.

docs/patterns.md, "The language" (blocks, clauses, nodes, edges, order), "Errors" (every malformed
input is a :class:`~evalcore.errors.PatternError` naming its file and line) and "Pattern files and
constructions" (``construction NAME`` headers, each followed by its request).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from evalcore.errors import PatternError
from evalcore.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "FIELDS",
    "Block",
    "Constraint",
    "Construction",
    "EdgeClause",
    "LabelTest",
    "NodeClause",
    "OrderClause",
    "PatternFile",
    "Request",
    "parse_pattern_file",
    "parse_request",
    "read_pattern_file",
]

FIELDS = ("form", "lemma", "upos", "xpos")
"""The node features read from a word's columns; every other feature name is a FEATS name."""

ConstraintOp = Literal["=", "<>", "re", "present", "absent"]
LabelKind = Literal["rel", "1", "2", "deep"]
BlockKind = Literal["pattern", "without"]


@dataclass(frozen=True, slots=True)
class Constraint:
    """One constraint on a node's feature: ``f=v1|v2``, ``f<>v``, ``f=re"…"``, ``f``, ``!f``."""

    feature: str
    op: ConstraintOp
    values: tuple[str, ...] = ()  # the alternatives; for "re", the one regular expression


@dataclass(frozen=True, slots=True)
class NodeClause:
    """``X [c1, c2, …]``: the node ``name`` and its constraints (all must hold)."""

    name: str
    constraints: tuple[Constraint, ...]
    line: int


@dataclass(frozen=True, slots=True)
class LabelTest:
    """One alternative of an edge's label list: a whole relation (``rel``), its universal part
    (``1``), its subtype (``2``) or its SUD ``@`` extension (``deep``)."""

    kind: LabelKind
    value: str


@dataclass(frozen=True, slots=True)
class EdgeClause:
    """``X -[LABELS]-> Y`` (``labels`` empty: any relation; ``negated``: any relation but these)."""

    source: str
    target: str
    labels: tuple[LabelTest, ...]
    negated: bool
    line: int


@dataclass(frozen=True, slots=True)
class OrderClause:
    """``X << Y`` (``immediate`` False) or ``X < Y`` (immediately before)."""

    left: str
    right: str
    immediate: bool
    line: int


@dataclass(frozen=True, slots=True)
class Block:
    """A ``pattern { … }`` or ``without { … }`` block and its clauses."""

    kind: BlockKind
    nodes: tuple[NodeClause, ...]
    edges: tuple[EdgeClause, ...]
    orders: tuple[OrderClause, ...]
    line: int

    @property
    def names(self) -> tuple[str, ...]:
        """Every node name the block mentions, in order of first mention."""
        seen: dict[str, None] = {}
        clauses: list[NodeClause | EdgeClause | OrderClause] = [*self.nodes, *self.edges, *self.orders]
        clauses.sort(key=lambda c: c.line)
        for c in clauses:
            if isinstance(c, NodeClause):
                seen.setdefault(c.name)
            elif isinstance(c, EdgeClause):
                seen.setdefault(c.source)
                seen.setdefault(c.target)
            else:
                seen.setdefault(c.left)
                seen.setdefault(c.right)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class Request:
    """One or more ``pattern`` blocks (taken together) and zero or more ``without`` blocks."""

    blocks: tuple[Block, ...]
    file: str = "<pattern>"
    line: int = 1

    @property
    def patterns(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.kind == "pattern")

    @property
    def withouts(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.kind == "without")

    @property
    def names(self) -> tuple[str, ...]:
        """The node names of the pattern blocks (a binding's names), in order of first mention."""
        seen: dict[str, None] = {}
        for b in self.patterns:
            for n in b.names:
                seen.setdefault(n)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class Construction:
    """One entry of a pattern file: a construction's name, its description and its request."""

    name: str
    description: str
    request: Request
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class PatternFile:
    """A pattern file: its constructions in priority order (docs/patterns.md, "Pattern files and
    constructions")."""

    constructions: tuple[Construction, ...]
    file: str

    @property
    def names(self) -> tuple[str, ...]:
        """The construction names, each once, in order of first entry (then ``other``)."""
        return (*dict.fromkeys(c.name for c in self.constructions), "other")


# ---------------------------------------------------------------------------
# the lexer


_TOKEN = re.compile(
    r"""
      (?P<nl>\n)
    | (?P<ws>[ \t\r\f\v]+)
    | (?P<comment>%[^\n]*)
    | (?P<re>re")
    | (?P<str>")
    | (?P<sym>-\[|\]->|->|<<|<>|[{}\[\];,=|!<^:])
    | (?P<word>\w[\w@]*(?::\w[\w@]*)*)
    | (?P<other>.)
    """,
    re.VERBOSE,
)

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FEATURE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RELATION = re.compile(r"[^\W\d]\w*(?::\w+)*(?:@\w+)?")
_CONSTRUCTION = re.compile(r"[a-z][a-z0-9_-]*")
_HEADER = re.compile(r"[ \t]*construction(?=[ \t%]|$)(?P<rest>.*)")


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # nl, ;  { } … (the symbol itself), word, str, re, other, end
    text: str
    line: int


def _string(text: str, start: int, line: int, file: str) -> tuple[str, int]:
    """The string opened by the ``"`` before ``start`` (``\\"`` and ``\\\\`` escaped), and where it ends."""
    out: list[str] = []
    k = start
    while k < len(text):
        ch = text[k]
        if ch == "\\" and k + 1 < len(text) and text[k + 1] in '"\\':
            out.append(text[k + 1])
            k += 2
        elif ch == '"':
            return "".join(out), k + 1
        elif ch == "\n":
            break
        else:
            out.append(ch)
            k += 1
    raise PatternError(
        "unterminated string (a '\"' is missing before the end of the line)", file=file, line=line
    )


def _tokens(text: str, file: str, line: int) -> Iterator[_Tok]:
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m is not None  # the last alternative matches any character
        kind = m.lastgroup or "other"
        if kind == "nl":
            yield _Tok("nl", "\n", line)
            line += 1
            pos = m.end()
        elif kind in ("ws", "comment"):
            pos = m.end()
        elif kind in ("re", "str"):
            value, pos = _string(text, m.end(), line, file)
            yield _Tok(kind, value, line)
        else:
            yield _Tok(m.group() if kind == "sym" else kind, m.group(), line)
            pos = m.end()
    yield _Tok("end", "", line)


# ---------------------------------------------------------------------------
# the parser


def _show(tok: _Tok) -> str:
    if tok.kind == "end":
        return "the end of the request"
    if tok.kind == "nl":
        return "the end of the line"
    if tok.kind in ("str", "re"):
        return f'a string "{tok.text}"'
    return f"'{tok.text}'"


class _Parser:
    """A recursive-descent reader over the tokens of one request (private: :func:`parse_request`)."""

    def __init__(self, text: str, file: str, line: int) -> None:
        self.toks = list(_tokens(text, file, line))
        self.k = 0
        self.file = file
        self.last_line = line

    def peek(self, ahead: int = 0) -> _Tok:
        return self.toks[min(self.k + ahead, len(self.toks) - 1)]

    def next(self) -> _Tok:
        tok = self.peek()
        self.k = min(self.k + 1, len(self.toks) - 1)
        return tok

    def error(self, message: str, line: int) -> PatternError:
        return PatternError(message, file=self.file, line=line)

    def skip_newlines(self) -> None:
        while self.peek().kind == "nl":
            self.next()

    def request(self, start_line: int) -> Request:
        blocks: list[Block] = []
        while True:
            while self.peek().kind in ("nl", ";"):
                self.next()
            tok = self.next()
            if tok.kind == "end":
                break
            if tok.kind == "}":
                raise self.error("unbalanced '}': no block is open", tok.line)
            if tok.kind != "word":
                raise self.error(
                    f"expected a block ('pattern {{' or 'without {{'), found {_show(tok)}", tok.line
                )
            self.skip_newlines()
            if self.peek().kind != "{":
                raise self.error(f"expected '{{' after '{tok.text}', found {_show(self.peek())}", tok.line)
            if tok.text in ("global", "with", "commands", "rule"):
                raise self.error(f"unsupported Grew feature: '{tok.text} {{ … }}' blocks", tok.line)
            if tok.text not in ("pattern", "without"):
                raise self.error(f"unknown block keyword '{tok.text}' (pattern or without)", tok.line)
            self.next()
            blocks.append(self.block("pattern" if tok.text == "pattern" else "without", tok.line))
        if not any(b.kind == "pattern" for b in blocks):
            raise self.error(
                "empty request: no 'pattern { … }' block", blocks[0].line if blocks else start_line
            )
        return Request(tuple(blocks), self.file, start_line)

    def block(self, kind: BlockKind, line: int) -> Block:
        nodes: list[NodeClause] = []
        edges: list[EdgeClause] = []
        orders: list[OrderClause] = []
        while True:
            while self.peek().kind in ("nl", ";"):
                self.next()
            tok = self.peek()
            if tok.kind == "}":
                self.next()
                break
            if tok.kind == "end":
                raise self.error(
                    f"unbalanced '{{': the '{kind}' block opened here is not closed by '}}'", line
                )
            if tok.kind == "{":
                raise self.error("unbalanced '{': a block cannot open inside another", tok.line)
            clause = self.clause()
            if isinstance(clause, NodeClause):
                nodes.append(clause)
            elif isinstance(clause, EdgeClause):
                edges.append(clause)
            else:
                orders.append(clause)
            end = self.peek()
            if end.kind not in ("nl", ";", "}", "end"):
                raise self.error(
                    f"unexpected {_show(end)} after a clause (clauses end with ';' or a new line)", end.line
                )
        if kind == "pattern" and not (nodes or edges or orders):
            raise self.error("empty 'pattern {}' block", line)
        return Block(kind, tuple(nodes), tuple(edges), tuple(orders), line)

    def name(self, tok: _Tok) -> str:
        if tok.kind != "word" or not _NAME.fullmatch(tok.text):
            raise self.error(f"bad node name {_show(tok)} (a name is [A-Za-z_][A-Za-z0-9_]*)", tok.line)
        return tok.text

    def clause(self) -> NodeClause | EdgeClause | OrderClause:
        first = self.next()
        after = self.peek()
        if first.kind == "word" and after.kind == ":":
            raise self.error(f"unsupported Grew feature: named edges ('{first.text}: X -> Y')", first.line)
        if first.kind != "word" or after.kind not in ("[", "-[", "->", "<<", "<"):
            raise self.error(
                f"not a node, edge or order clause: {_show(first)} followed by {_show(after)}", first.line
            )
        source = self.name(first)
        op = self.next()
        if op.kind == "[":
            return NodeClause(source, self.constraints(first.line), first.line)
        if op.kind in ("<<", "<"):
            return OrderClause(source, self.name(self.next()), op.kind == "<", first.line)
        labels: tuple[LabelTest, ...] = ()
        negated = False
        if op.kind == "-[":
            negated, labels = self.labels(first.line)
        return EdgeClause(source, self.name(self.next()), labels, negated, first.line)

    def constraints(self, line: int) -> tuple[Constraint, ...]:
        out: list[Constraint] = []
        while True:
            self.skip_newlines()
            if self.peek().kind == "]" and not out:
                self.next()
                return ()
            out.append(self.constraint(line))
            self.skip_newlines()
            tok = self.next()
            if tok.kind == "]":
                return tuple(out)
            if tok.kind != ",":
                raise self.error(f"bad constraint: expected ',' or ']', found {_show(tok)}", tok.line)

    def feature(self, tok: _Tok) -> str:
        if tok.kind != "word" or not _FEATURE.fullmatch(tok.text):
            raise self.error(f"bad constraint: {_show(tok)} is not a feature name", tok.line)
        return tok.text

    def constraint(self, line: int) -> Constraint:
        tok = self.next()
        if tok.kind == "!":
            return Constraint(self.feature(self.next()), "absent")
        feature = self.feature(tok)
        op = self.peek()
        if op.kind in (",", "]"):
            return Constraint(feature, "present")
        self.next()
        if op.kind not in ("=", "<>"):
            raise self.error(f"bad constraint on '{feature}': {_show(op)} (expected =, <> or ,)", op.line)
        if op.kind == "=" and self.peek().kind == "re":
            regex = self.next()
            try:
                re.compile(regex.text)
            except re.error as e:
                raise self.error(f'invalid regular expression re"{regex.text}": {e}', regex.line) from None
            return Constraint(feature, "re", (regex.text,))
        values = [self.value(feature)]
        while self.peek().kind == "|":
            self.next()
            values.append(self.value(feature))
        return Constraint(feature, "=" if op.kind == "=" else "<>", tuple(values))

    def value(self, feature: str) -> str:
        tok = self.next()
        if tok.kind not in ("word", "str"):
            raise self.error(f"bad constraint on '{feature}': expected a value, found {_show(tok)}", tok.line)
        return tok.text

    def labels(self, line: int) -> tuple[bool, tuple[LabelTest, ...]]:
        negated = self.peek().kind == "^"
        if negated:
            self.next()
        out: list[LabelTest] = []
        while True:
            tok = self.next()
            if tok.kind != "word":
                raise self.error(f"bad label list: expected a relation, found {_show(tok)}", tok.line)
            if self.peek().kind == "=":
                self.next()
                value = self.next()
                if tok.text not in ("1", "2", "deep"):
                    raise self.error(
                        f"unsupported Grew feature: edge feature '{tok.text}=' (1=, 2=, deep=)", tok.line
                    )
                if value.kind != "word":
                    raise self.error(
                        f"bad label list: expected a value after '{tok.text}=', found {_show(value)}",
                        tok.line,
                    )
                out.append(
                    LabelTest("1" if tok.text == "1" else "2" if tok.text == "2" else "deep", value.text)
                )
            elif _RELATION.fullmatch(tok.text):
                out.append(LabelTest("rel", tok.text))
            else:
                raise self.error(f"bad label list: '{tok.text}' is not a relation", tok.line)
            sep = self.next()
            if sep.kind == "]->":
                return negated, tuple(out)
            if sep.kind == ",":
                raise self.error(
                    "unsupported Grew feature: edge features joined by ',' (use one of 1=, 2=, deep=)",
                    sep.line,
                )
            if sep.kind != "|":
                raise self.error(f"bad label list: expected '|' or ']->', found {_show(sep)}", sep.line)


def parse_request(text: str, *, file: str = "<pattern>", line: int = 1) -> Request:
    """The request written in ``text`` (docs/patterns.md, "The language"); ``line`` is the line of
    the text's first line in ``file``, for messages.  Raises :class:`~evalcore.errors.PatternError`."""
    return _Parser(text, file, line).request(line)


# ---------------------------------------------------------------------------
# pattern files


def _check_x(request: Request, name: str, file: str, line: int) -> None:
    if "X" not in request.names:
        raise PatternError(
            f"construction '{name}': its pattern has no node X (the word the construction is about)",
            file=file,
            line=line,
        )


def parse_pattern_file(text: str, file: str = "<patterns>") -> PatternFile:
    """The constructions of a pattern file, in priority order (docs/patterns.md, "Pattern files and
    constructions").  Raises :class:`~evalcore.errors.PatternError`."""
    lines = text.split("\n")
    heads: list[tuple[int, str, str]] = []  # (0-based line, name, description)
    for k, raw in enumerate(lines):
        m = _HEADER.match(raw)
        if m is None:
            continue
        rest = m.group("rest")
        head, _, description = rest.partition("%")
        name = head.strip()
        if not _CONSTRUCTION.fullmatch(name):
            raise PatternError(
                f"bad construction name '{name}' (a name is [a-z][a-z0-9_-]*)", file=file, line=k + 1
            )
        heads.append((k, name, description.strip()))
    if not heads:
        raise PatternError(
            "no construction: a pattern file is 'construction NAME' lines, each followed by its request",
            file=file,
            line=1,
        )
    for k, raw in enumerate(lines[: heads[0][0]]):
        if raw.split("%", 1)[0].strip():
            raise PatternError("a request before any 'construction NAME' header", file=file, line=k + 1)
    out: list[Construction] = []
    for (k, name, description), nxt in zip(heads, [*(h[0] for h in heads[1:]), len(lines)], strict=True):
        body = "\n".join(lines[k + 1 : nxt])
        if not any(line.split("%", 1)[0].strip() for line in lines[k + 1 : nxt]):
            raise PatternError(f"construction '{name}' has no request", file=file, line=k + 1)
        request = parse_request(body, file=file, line=k + 2)
        _check_x(request, name, file, k + 1)
        out.append(Construction(name, description, request, file, k + 1))
    return PatternFile(tuple(out), file)


def read_text(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> str:
    """A pattern file's or a request file's text (UTF-8, a BOM and CRLF line ends allowed), bounded
    as one block of input: at most ``limits.block_bytes`` bytes and ``limits.block_lines`` lines
    (raises :class:`~evalcore.errors.PatternError` or the limit's error, with the file)."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(limits.block_bytes + 1)
    except OSError as e:
        raise PatternError(f"cannot read the pattern file: {e.strerror or e}", file=name, line=None) from None
    if len(data) > limits.block_bytes:
        raise limits.error("block_bytes", f"pattern file has more than {limits.block_bytes} bytes", file=name)
    lines = data.count(b"\n") + 1
    if lines > limits.block_lines:
        what = f"pattern file has more than {limits.block_lines} lines"
        raise limits.error("block_lines", what, file=name, line=limits.block_lines + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise PatternError("not UTF-8", file=name, line=line) from None
    return text.replace("\r\n", "\n")


def read_pattern_file(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> PatternFile:
    """Read a pattern file (:func:`read_text`; docs/patterns.md, "Pattern files and constructions")."""
    return parse_pattern_file(read_text(path, limits), str(path))
