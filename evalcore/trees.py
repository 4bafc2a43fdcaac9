"""The data model (docs/architecture.md, "The data model"): one vocabulary for every module.

All values are frozen.  Trees are stored flat (a preorder tuple of nodes whose
children are indices into it), so that no operation on them needs recursion:
a 1,000-word right-branching chain is as easy as a flat tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from evalcore.choices import PROTOCOL_2011, PROTOCOL_2012, Protocol
from evalcore.display import Drawable

__all__ = [
    "Arc",
    "ArcVerdict",
    "DepTree",
    "EditOp",
    "ExtraLine",
    "LabelParts",
    "Lattice",
    "MFNode",
    "MFTree",
    "Node",
    "Source",
    "Span",
    "SpanTree",
    "Token",
    "Tree",
    "Verdict",
    "bracketed",
    "span_head",
    "span_key",
    "split_label",
    "strip_empty",
    "unwrap",
]

Span = frozenset[int]
"""The set of terminal positions (0-based) a node dominates."""


def span_key(span: Span) -> tuple[int, ...]:
    """A sortable, printable key for a span (sorted positions)."""
    return tuple(sorted(span))


@dataclass(frozen=True, slots=True)
class Source:
    """Where a sentence came from: file name and the 1-based line it starts on.

    ``token_lines[i]`` is the line of the i-th regular token (CoNLL input).
    """

    file: str
    line: int
    token_lines: tuple[int, ...] = ()

    def token_line(self, index: int) -> int:
        """Line of the token with 0-based ``index`` (falls back to the sentence line)."""
        if 0 <= index < len(self.token_lines):
            return self.token_lines[index]
        return self.line


# ---------------------------------------------------------------------------
# Dependency trees


@dataclass(frozen=True, slots=True)
class Token:
    """One regular (integer-ID) token of a CoNLL-U / CoNLL-X sentence; fields kept raw."""

    id: int
    form: str
    lemma: str = "_"
    upos: str = "_"
    xpos: str = "_"
    feats: str = "_"
    head: int = 0
    deprel: str = "_"
    deps: str = "_"
    misc: str = "_"


@dataclass(frozen=True, slots=True)
class ExtraLine:
    """A multiword-token range (``3-4``) or empty node (``5.1``) line.

    Kept for display and for an exact round trip; never a tree node.
    ``after`` is the number of regular tokens that precede the line.
    """

    id: str
    fields: tuple[str, ...]
    after: int

    @property
    def is_range(self) -> bool:
        return "-" in self.id

    @property
    def form(self) -> str:
        return self.fields[0] if self.fields else "_"


@dataclass(frozen=True)
class DepTree(Drawable):
    """A dependency-annotated sentence: tokens 1..n, ``head`` 0 = root."""

    tokens: tuple[Token, ...]
    sent_id: str = ""
    text: str = ""
    comments: tuple[str, ...] = ()
    extras: tuple[ExtraLine, ...] = ()
    source: Source | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def forms(self) -> tuple[str, ...]:
        return tuple(t.form for t in self.tokens)

    @property
    def heads(self) -> tuple[int, ...]:
        return tuple(t.head for t in self.tokens)

    @property
    def deprels(self) -> tuple[str, ...]:
        return tuple(t.deprel for t in self.tokens)

    @cached_property
    def children(self) -> tuple[tuple[int, ...], ...]:
        """``children[h]`` = dependents of word ``h`` (0 = the artificial root), in order."""
        kids: list[list[int]] = [[] for _ in range(len(self.tokens) + 1)]
        for t in self.tokens:
            if 0 <= t.head <= len(self.tokens):
                kids[t.head].append(t.id)
        return tuple(tuple(k) for k in kids)

    @property
    def label(self) -> str:
        """A human name for messages: the sent_id, else the first line."""
        if self.sent_id:
            return self.sent_id
        if self.source is not None:
            return f"at line {self.source.line}"
        return "?"

    def structure_problem(self) -> tuple[int, str] | None:
        """Return ``(token_index, message)`` if this is not a tree, else ``None``.

        Checks heads in range, at least one root, and no cycle (docs/decisions.md, "Sentences that are not
        trees: skipped and counted").
        """
        n = len(self.tokens)
        for i, t in enumerate(self.tokens):
            if not 0 <= t.head <= n:
                return i, f"HEAD '{t.head}' of token {t.id} points past the sentence ({n} tokens)"
            if t.head == t.id:
                return i, f"token {t.id} is its own head"
        if n and not any(t.head == 0 for t in self.tokens):
            return 0, "sentence has no root (no token with HEAD 0)"
        # cycle detection: walk up from each token, colouring visited paths
        state = [0] * (n + 1)  # 0 new, 1 on current path, 2 done
        state[0] = 2
        for start in range(1, n + 1):
            path: list[int] = []
            node = start
            while state[node] == 0:
                state[node] = 1
                path.append(node)
                node = self.tokens[node - 1].head
            if state[node] == 1:
                form = self.tokens[node - 1].form
                form = form if len(form) <= 40 else form[:39] + "…"
                return node - 1, f"cycle through token {node} ('{form}')"
            for p in path:
                state[p] = 2
        return None


# ---------------------------------------------------------------------------
# Ordered labeled trees (constituency trees, function trees)


@dataclass(frozen=True, slots=True)
class Node:
    """A node of a :class:`Tree`.

    A terminal has ``terminal`` = its word position and no children; its
    ``label`` is the word.  Internal nodes have ``terminal is None``.
    """

    label: str
    children: tuple[int, ...] = ()
    terminal: int | None = None

    @property
    def is_terminal(self) -> bool:
        return self.terminal is not None


def _spans(nodes: Sequence[Node | MFNode]) -> tuple[Span, ...]:
    out: list[Span] = [frozenset()] * len(nodes)
    for i in range(len(nodes) - 1, -1, -1):
        n = nodes[i]
        if n.terminal is not None:
            out[i] = frozenset((n.terminal,))
        elif n.children:
            acc: set[int] = set()
            for c in n.children:
                acc |= out[c]
            out[i] = frozenset(acc)
    return tuple(out)


class _Preorder(Drawable):
    """What :class:`Tree` and :class:`MFTree` share: ``nodes`` in preorder, children by index."""

    __slots__ = ()
    nodes: Sequence[Node | MFNode]

    def __post_init__(self) -> None:
        for i, n in enumerate(self.nodes):
            for c in n.children:
                if c <= i or c >= len(self.nodes):
                    raise ValueError(f"node {i}: child index {c} breaks preorder layout")

    def __len__(self) -> int:
        return len(self.nodes)

    @cached_property
    def spans(self) -> tuple[Span, ...]:
        return _spans(self.nodes)

    @cached_property
    def parents(self) -> tuple[int, ...]:
        par = [-1] * len(self.nodes)
        for i, n in enumerate(self.nodes):
            for c in n.children:
                par[c] = i
        return tuple(par)

    def internal(self) -> Iterator[int]:
        """Indices of internal (non-terminal) nodes, preorder."""
        return (i for i, n in enumerate(self.nodes) if n.terminal is None)


@dataclass(frozen=True)
class Tree(_Preorder):
    """An ordered labeled tree stored in preorder; ``nodes[0]`` is the root.

    ``words`` are the terminal labels by position.  Spans are frozensets of
    positions and need not be contiguous (non-projective function trees).
    """

    nodes: tuple[Node, ...]
    words: tuple[str, ...] = ()
    sent_id: str = ""
    source: Source | None = field(default=None, compare=False, repr=False)

    @property
    def root(self) -> Node:
        return self.nodes[0]

    def preterminals(self) -> Iterator[int]:
        """Indices of internal nodes whose children are all terminals (POS nodes)."""
        for i, n in enumerate(self.nodes):
            if n.children and all(self.nodes[c].terminal is not None for c in n.children):
                yield i

    @staticmethod
    def from_nested(spec: object, words: Sequence[str] | None = None) -> Tree:
        """Build from nested tuples ``(label, child, child, ...)``; leaves are ``str`` words.

        Convenient in tests: ``Tree.from_nested(("S", ("NP", "John"), ("VP", "runs")))``.
        Iterative, so deep specs are fine.
        """
        nodes: list[list[object]] = []
        out_words: list[str] = []
        stack: list[tuple[object, int]] = [(spec, -1)]
        while stack:
            item, parent = stack.pop()
            idx = len(nodes)
            if isinstance(item, str):
                nodes.append([item, [], len(out_words)])
                out_words.append(item)
            else:
                assert isinstance(item, tuple) and item, f"bad tree spec {item!r}"
                nodes.append([item[0], [], None])
                for child in reversed(item[1:]):
                    stack.append((child, idx))
            if parent >= 0:
                children = nodes[parent][1]
                assert isinstance(children, list)
                children.append(idx)
        frozen = tuple(
            Node(str(label), tuple(ch), term)  # type: ignore[arg-type]
            for label, ch, term in nodes
        )
        return Tree(frozen, tuple(words) if words is not None else tuple(out_words))

    def to_nested(self) -> object:
        """Inverse of :meth:`from_nested` (recursion-free)."""
        built: dict[int, object] = {}
        for i in range(len(self.nodes) - 1, -1, -1):
            n = self.nodes[i]
            if n.terminal is not None:
                built[i] = n.label
            else:
                built[i] = (n.label, *(built.pop(c) for c in n.children))
        return built[0]


# ---------------------------------------------------------------------------
# Multi-function trees (EACL 2012 §3.1)


# ---------------------------------------------------------------------------
# Tree operations on bracketed trees (readers keep every node; consumers call these)

_WHOLE = re.compile(r"^-[A-Za-z]+-$")  # -NONE-, -LRB-, -RRB-
_METADATA = frozenset({"ID", "CODE"})  # Penn-Helsinki style corpora (FarPaHC): not syntax


@dataclass(frozen=True, slots=True)
class LabelParts:
    """A raw label split into category, function tags and indices."""

    category: str
    functions: tuple[str, ...]
    indices: tuple[str, ...]


def split_label(raw: str, separators: str = "-=") -> LabelParts:
    """Split ``NP-SBJ-1`` into ``NP``, ``(SBJ,)``, ``("1",)`` (docs/tedeval.md, "Multi-function trees (2012
    protocol)").

    The category is the text before the first separator not at position 0;
    ``-NONE-``, ``-LRB-`` and the like stay whole; numeric pieces are indices.
    """
    if _WHOLE.match(raw) or not raw:
        return LabelParts(raw, (), ())
    cut = -1
    for i in range(1, len(raw)):
        if raw[i] in separators:
            cut = i
            break
    if cut < 0:
        return LabelParts(raw, (), ())
    category = raw[:cut]
    pieces = re.split("[" + re.escape(separators) + "]", raw[cut + 1 :])
    functions = tuple(p for p in pieces if p and not p.isdigit())
    indices = tuple(p for p in pieces if p.isdigit())
    return LabelParts(category, functions, indices)


def strip_empty(tree: Tree, empty_labels: Sequence[str] = ("-NONE-",)) -> Tree:
    """Remove empty elements (``-NONE-`` preterminals) and, recursively, ancestors left empty.

    Word positions are renumbered over the words that remain.  The root always stays: a tree
    of empty elements only becomes its root without children (no words).
    """
    nodes = tree.nodes
    keep = [True] * len(nodes)
    for i in range(len(nodes) - 1, 0, -1):
        n = nodes[i]
        if n.terminal is not None:
            continue
        if n.label in empty_labels:
            keep[i] = False
            for c in n.children:
                keep[c] = False
        elif not any(keep[c] for c in n.children):
            keep[i] = False
    if nodes and nodes[0].terminal is None and nodes[0].label in empty_labels:
        for c in nodes[0].children:
            keep[c] = False
    return _rebuild(tree, keep)


def _rebuild(tree: Tree, keep: Sequence[bool]) -> Tree:
    """Copy the nodes marked ``keep`` (a kept node's parent must be kept, or it is the root)."""
    new_index: dict[int, int] = {}
    order = [i for i in range(len(tree.nodes)) if keep[i]]
    for j, i in enumerate(order):
        new_index[i] = j
    words: list[str] = []
    out: list[Node] = []
    for i in order:
        n = tree.nodes[i]
        term = None
        if n.terminal is not None:
            term = len(words)
            words.append(n.label)
        out.append(Node(n.label, tuple(new_index[c] for c in n.children if keep[c]), term))
    return Tree(tuple(out), tuple(words), tree.sent_id, tree.source)


def unwrap(tree: Tree, root_labels: Sequence[str] = ("", "ROOT", "TOP")) -> Tree:
    """Remove outer brackets labeled ``""``, ``ROOT`` or ``TOP`` that have exactly one child.

    An outer bracket with several children (FarPaHC's ``( (IP-MAT ...) (ID ...) )``)
    is unwrapped when exactly one child is syntax: ``ID`` and ``CODE`` nodes
    under the outer bracket are metadata and are dropped with it.  The new root is
    found first and the tree rebuilt once (linear, however many layers are removed).
    """
    nodes = tree.nodes
    top = 0
    while True:
        root = nodes[top]
        if root.terminal is not None or root.label not in root_labels:
            break
        syntax = [c for c in root.children if nodes[c].label not in _METADATA]
        if len(syntax) != 1 or nodes[syntax[0]].terminal is not None:
            break
        top = syntax[0]
    if top == 0:
        return tree
    keep = [False] * len(nodes)
    stack = [top]
    while stack:
        i = stack.pop()
        keep[i] = True
        stack.extend(nodes[i].children)
    return _rebuild(tree, keep)


@dataclass(frozen=True, slots=True)
class MFNode:
    """A node of a multi-function tree: a *set* of labels (possibly empty)."""

    labels: frozenset[str]
    children: tuple[int, ...] = ()
    terminal: int | None = None
    word: str = ""

    @property
    def is_terminal(self) -> bool:
        return self.terminal is not None


@dataclass(frozen=True)
class MFTree(_Preorder):
    """A multi-function tree: no two internal nodes share a span (docs/architecture.md, "The data model")."""

    nodes: tuple[MFNode, ...]
    words: tuple[str, ...] = ()
    sent_id: str = ""
    source: Source | None = field(default=None, compare=False, repr=False)


# ---------------------------------------------------------------------------
# Span-keyed function trees: what TedEval scores (docs/tedeval.md, "Edit scripts, discount and score")

ROOT_LABEL = "<ROOT>"


@dataclass(frozen=True)
class SpanTree(Drawable):
    """A function tree (2011) or multi-function tree (2012) keyed by span.

    Over a fixed word sequence a node is identified by its span (docs/tedeval.md, "Edit scripts, discount and
    score", §5.3), so the tree *is* the map span → label set.  ``items`` excludes the
    root that is never edited (2011: the artificial v0; 2012: the full-sentence
    node, which merges v0 with the root word's phrase).  2011 label sets have
    exactly one label (``*`` is the head wildcard).  The tree structure follows
    from the spans (they are laminar): see :meth:`to_mftree`.
    """

    words: tuple[str, ...]
    items: tuple[tuple[Span, frozenset[str]], ...]
    protocol: Protocol = PROTOCOL_2012
    sent_id: str = field(default="", compare=False)
    root_labels: frozenset[str] = field(default=frozenset(), compare=False)  # shown, never scored

    @staticmethod
    def build(
        words: Sequence[str],
        mapping: dict[Span, frozenset[str]],
        protocol: Protocol,
        sent_id: str = "",
        root_labels: frozenset[str] = frozenset(),
    ) -> SpanTree:
        """Canonical order: by first position, larger spans first (a preorder)."""
        items = tuple(sorted(mapping.items(), key=lambda kv: (min(kv[0]), -len(kv[0]), span_key(kv[0]))))
        return SpanTree(tuple(words), items, protocol, sent_id, root_labels)

    @cached_property
    def by_span(self) -> dict[Span, frozenset[str]]:
        return dict(self.items)

    @cached_property
    def pairs(self) -> frozenset[tuple[str, Span]]:
        """Labeled view: the ``(label, span)`` pairs (docs/tedeval.md, "Edit scripts, discount and score")."""
        return frozenset((label, span) for span, labels in self.items for label in labels)

    @property
    def spans(self) -> frozenset[Span]:
        return frozenset(self.by_span)

    def __len__(self) -> int:
        return len(self.items)

    def to_mftree(self) -> MFTree:
        """The tree these spans describe, with terminals, for drawing (iterative).

        Parent of a span = the next larger span containing its first position
        (spans containing one position form a chain because they are laminar).
        """
        n = len(self.words)
        full = frozenset(range(n))
        spans = [s for s, _ in self.items if s != full or self.protocol == PROTOCOL_2011]
        chains: list[list[Span]] = [[] for _ in range(n)]
        for s in spans:
            for w in s:
                chains[w].append(s)
        for chain in chains:
            chain.sort(key=len)
        # children lists: internal nodes and terminals, ordered by first position
        kids: dict[Span | None, list[tuple[int, int, Span | int]]] = {s: [] for s in (None, *spans)}
        for s in spans:
            chain = chains[min(s)]
            k = chain.index(s)
            kids[chain[k + 1] if k + 1 < len(chain) else None].append((min(s), -len(s), s))
        for w in range(n):
            owner = chains[w][0] if chains[w] else None
            kids[owner].append((w, 0, w))
        nodes: list[MFNode] = []
        labels = self.by_span
        root_labels = (
            self.root_labels | labels.get(full, frozenset()) if self.protocol == PROTOCOL_2012 else None
        )
        order: list[tuple[Span | int | None, int]] = [(None, -1)]
        pending_children: list[list[int]] = []
        while order:
            key, par = order.pop()
            idx = len(nodes)
            if isinstance(key, int):
                nodes.append(MFNode(frozenset(), (), key, self.words[key]))
            elif key is None:
                lab = root_labels if root_labels is not None else frozenset((ROOT_LABEL,))
                nodes.append(MFNode(lab))
            else:
                nodes.append(MFNode(labels[key]))
            pending_children.append([])
            if par >= 0:
                pending_children[par].append(idx)
            if not isinstance(key, int):
                for _, _, child in sorted(kids[key], key=lambda t: (t[0], t[1]), reverse=True):
                    order.append((child, idx))
        final = tuple(
            MFNode(n.labels, tuple(pending_children[i]), n.terminal, n.word) for i, n in enumerate(nodes)
        )
        return MFTree(final, self.words, self.sent_id)


# ---------------------------------------------------------------------------
# Edit operations (docs/architecture.md, "The data model")


@dataclass(frozen=True, slots=True)
class EditOp:
    """One edit operation, comparable across trees of the same sentence.

    ``("del", label, span)``, ``("ins", label, span)``, ``("rel", span, old, new)``.
    For ``rel`` the old label is ``label`` and the new one ``new_label``.
    """

    kind: Literal["del", "ins", "rel"]
    label: str
    span: Span
    new_label: str = ""

    def sort_key(self) -> tuple[tuple[int, ...], str, str, str]:
        return (span_key(self.span), self.kind, self.label, self.new_label)

    def __str__(self) -> str:
        words = ",".join(str(i + 1) for i in span_key(self.span))
        if self.kind == "rel":
            return f"rel {self.label}→{self.new_label} {{{words}}}"
        return f"{self.kind} {self.label} {{{words}}}"


# ---------------------------------------------------------------------------
# Lattices (docs/formats.md, "SPMRL / yap lattices"; docs/lattice.md, "What is compared")


Verdict = Literal["correct", "wrong-head", "wrong-label"]
"""How a token's arc compares with gold: right head and label, wrong head, right head but wrong label."""


@dataclass(frozen=True, slots=True)
class ArcVerdict:
    """What a drawing is told about one token's arc: the verdict of a comparison with gold (computed
    by :func:`evalcore.inspection.arc_verdicts`, drawn by :mod:`evalcore.render.layout`).

    ``status``: right head and label, wrong head, or right head with a wrong
    label; ``gold_head`` / ``gold_label``: the gold arc, for the label text
    ``obl (gold obj)`` and the tooltip.
    """

    status: Verdict
    gold_head: int
    gold_label: str


@dataclass(frozen=True, slots=True)
class Arc:
    """One lattice arc: ``FROM TO FORM LEMMA CPOS FPOS FEATS TOKEN_ID``."""

    start: int
    end: int
    segment: str
    lemma: str = "_"
    cpos: str = "_"
    fpos: str = "_"
    feats: str = "_"
    token_id: int = 0


@dataclass(frozen=True)
class Lattice(Drawable):
    """A morphological lattice: states are ints, arcs go from ``start`` to ``end``."""

    arcs: tuple[Arc, ...]
    source: Source | None = field(default=None, compare=False, repr=False)

    @property
    def states(self) -> tuple[int, ...]:
        return tuple(sorted({a.start for a in self.arcs} | {a.end for a in self.arcs}))

    @property
    def first_state(self) -> int:
        return min((a.start for a in self.arcs), default=0)

    @property
    def last_state(self) -> int:
        return max((a.end for a in self.arcs), default=0)

    def outgoing(self, state: int) -> tuple[Arc, ...]:
        return tuple(a for a in self.arcs if a.start == state)

    @property
    def token_ids(self) -> tuple[int, ...]:
        return tuple(sorted({a.token_id for a in self.arcs}))

    def paths(self, limit: int = 10_000) -> Iterator[tuple[Arc, ...]]:
        """Enumerate paths first→last state (at most ``limit``), iteratively.

        Arcs into states that cannot reach the last state are pruned first, so
        every branch explored ends in a path: the work is bounded by ``limit``
        times the path length, never exponential in dead ends (found by fuzzing).
        """
        last = self.last_state
        incoming: dict[int, list[int]] = {}
        for a in self.arcs:
            incoming.setdefault(a.end, []).append(a.start)
        alive = {last}
        todo = [last]
        while todo:
            for prev in incoming.get(todo.pop(), ()):
                if prev not in alive:
                    alive.add(prev)
                    todo.append(prev)
        out_arcs: dict[int, list[Arc]] = {}
        for a in self.arcs:
            if a.end in alive:
                out_arcs.setdefault(a.start, []).append(a)
        stack: list[tuple[int, tuple[Arc, ...]]] = [(self.first_state, ())]
        produced = 0
        while stack and produced < limit:
            state, path = stack.pop()
            if state == last:
                produced += 1
                yield path
                continue
            for a in reversed(out_arcs.get(state, [])):
                stack.append((a.end, (*path, a)))

    def contains_path(self, path: Iterable[Arc]) -> bool:
        """True if every arc of ``path`` (start, end, segment, cpos) is in this lattice."""
        keys = {(a.start, a.end, a.segment, a.cpos) for a in self.arcs}
        return all((a.start, a.end, a.segment, a.cpos) in keys for a in path)


def bracketed(tree: SpanTree) -> str:
    """The papers' notation (docs/tedeval.md, "Function trees (2011 protocol)" and "Multi-function trees (2012
    protocol)"), iteratively.

    2011: ``X( prep(on), *(Sunday) )`` — v0 is left out when it has one child.
    2012: ``{root}( {sbj}John, {hd}loves, {obj}Mary )``; an empty set is ``∅``.
    """
    mf = tree.to_mftree()
    nodes = mf.nodes

    def name(i: int) -> str:
        labels = nodes[i].labels
        if tree.protocol == PROTOCOL_2011:
            return next(iter(labels)) if labels else "*"
        return "{" + ",".join(sorted(labels)) + "}" if labels else "∅"

    done: dict[int, str] = {}
    for i in range(len(nodes) - 1, -1, -1):
        n = nodes[i]
        if n.terminal is not None:
            done[i] = n.word
            continue
        kids = [done.pop(c) for c in n.children]
        only_word = len(n.children) == 1 and nodes[n.children[0]].terminal is not None
        if only_word:
            done[i] = f"{name(i)}({kids[0]})" if tree.protocol == PROTOCOL_2011 else f"{name(i)}{kids[0]}"
        else:
            done[i] = f"{name(i)}( {', '.join(kids)} )"
    root = nodes[0]
    if tree.protocol == PROTOCOL_2011 and len(root.children) == 1:
        return done[0][len(name(0)) + 2 : -2]
    return done[0]


def span_head(tree: DepTree, span: Span) -> int:
    """The 1-based word of ``span`` (0-based positions) whose head lies outside it; the leftmost
    if several (a non-contiguous span, a span of several root words); 0 for an empty span."""
    tokens = tree.tokens
    n = len(tokens)
    best = -1
    for pos in span:
        if (best < 0 or pos < best) and 0 <= pos < n and tokens[pos].head - 1 not in span:
            best = pos
    if best < 0:
        return min(span) + 1 if span else 0
    return best + 1
