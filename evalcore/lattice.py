"""Morphological lattices, lexemes and trees over lattice paths (ACL 2012 §3; SPEC §1, §2, §6).

* A **lexeme** is a lattice arc ⟨segment, tag⟩ of one space-delimited token,
  anchored at its states (:class:`Lexeme`).  A *path* is a sequence of
  lexemes; a gold lattice file and yap's ``output.mapping`` hold one path per
  sentence, an MA (ambiguity) lattice all analyses.
* **Is a path in the lattice?** (:func:`check_path`) is decided token by token
  through token ids, because state numbers of gold files are renumbered and do
  not reuse the ambiguity lattice's (data README): a token's lexemes must spell
  a path of the token's sub-lattice from its entry to its exit state.  A path
  outside the lattice is reported, never an error: on SPMRL Hebrew dev, 125 of
  500 gold analyses are outside the ambiguity lattice (by segment and CPOS).
* **Alignment** of gold and predicted segments (:class:`Block`): lexemes are
  grouped by token; a block is one token (SPMRL token ids) or, for raw text
  whose tokenization may differ, the smallest group of gold and predicted
  tokens with the same characters (:mod:`evalcore.textalign`).
* **Trees over lattices** (:class:`LatticeTree`): constituency trees whose
  leaves are lexemes (a preterminal and its word are one lexeme node), and
  dependency trees converted to function trees (SPEC §4.1/§5.1, via
  :mod:`evalcore.conversion`) whose terminals are lexemes.

Everything is iterative.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from evalcore.conversion import ConversionConfig, dep_to_span_tree
from evalcore.errors import InputFormatError, TreeStructureError
from evalcore.ted.general import OrderedTree
from evalcore.trees import Arc, DepTree, Lattice, Source, Tree, strip_empty

__all__ = [
    "Block",
    "LatticeTree",
    "Lexeme",
    "PathCheck",
    "TagColumn",
    "TokenLattice",
    "check_path",
    "first_path",
    "lexeme_of",
    "lexemes_of_path",
    "path_arcs",
    "token_blocks",
    "token_lattices",
    "token_paths",
    "token_splits",
    "tree_from_constituency",
    "tree_from_dependency",
]

TagColumn = Literal["cpos", "fpos"]


@dataclass(frozen=True, slots=True)
class Lexeme:
    """⟨segment, tag⟩ of token ``token``, from state ``start`` to ``end`` (SPEC §6).

    ``token`` is the space-delimited token id (or an alignment block id, see
    :class:`Block`); ``None`` when the input has no token ids (bare brackets):
    lexemes then match by segment, tag and order only.  States are the
    input's own (lattice states, else positions ``i, i+1``).
    """

    segment: str
    tag: str
    token: int | None
    start: int
    end: int

    def __str__(self) -> str:
        return f"{self.tag}:{self.segment}"


def lexeme_of(arc: Arc, tag_column: TagColumn = "cpos") -> Lexeme:
    """The lexeme of a lattice arc; the tag is CPOS unless ``tag_column="fpos"`` (SPEC §6)."""
    return Lexeme(
        arc.segment, arc.cpos if tag_column == "cpos" else arc.fpos, arc.token_id, arc.start, arc.end
    )


def _where(lattice: Lattice) -> tuple[str | None, int | None]:
    src = lattice.source
    return (src.file, src.line) if src is not None else (None, None)


def path_arcs(lattice: Lattice) -> tuple[Arc, ...]:
    """The arcs of a one-path lattice (gold lattice, yap ``output.mapping``) in path order.

    Raises :class:`InputFormatError` (FILE:LINE of the sentence) if the arcs do
    not chain into one path from the first to the last state.
    """
    arcs = sorted(lattice.arcs, key=lambda a: (a.start, a.end))
    state = lattice.first_state
    token = 0
    for a in arcs:
        if a.token_id < token:
            file, line = _where(lattice)
            raise InputFormatError(
                f"token ids out of order along the path: token {a.token_id} after token {token} "
                "(a path's arcs go through the tokens in order)",
                file=file,
                line=line + _arc_index(lattice, a) if line is not None else None,
            )
        token = a.token_id
        if a.start != state:
            file, line = _where(lattice)
            if a.start < state:
                what = f"a second arc leaves state {a.start}"
            else:
                what = f"no arc leaves state {state}"
            raise InputFormatError(
                f"not a single path: {what} (a gold or predicted lattice holds one analysis per sentence)",
                file=file,
                line=line + _arc_index(lattice, a) if line is not None else None,
            )
        state = a.end
    return tuple(arcs)


def _arc_index(lattice: Lattice, arc: Arc) -> int:
    """Position of ``arc`` in the file's block (its line = the block's first line + this)."""
    for k, a in enumerate(lattice.arcs):
        if a is arc:
            return k
    return 0


def lexemes_of_path(lattice: Lattice, tag_column: TagColumn = "cpos") -> tuple[Lexeme, ...]:
    """The lexemes of a one-path lattice, in order."""
    return tuple(lexeme_of(a, tag_column) for a in path_arcs(lattice))


# ---------------------------------------------------------------------------
# token sub-lattices, paths in the lattice


@dataclass(frozen=True, slots=True)
class TokenLattice:
    """The arcs of one token in an ambiguity lattice, between its entry and exit states."""

    token: int
    entry: int
    exit: int
    arcs: tuple[Arc, ...]


def token_lattices(lattice: Lattice) -> dict[int, TokenLattice]:
    """Split an ambiguity lattice by token id (file order of arcs kept)."""
    by: dict[int, list[Arc]] = {}
    for a in lattice.arcs:
        by.setdefault(a.token_id, []).append(a)
    return {
        t: TokenLattice(t, min(a.start for a in arcs), max(a.end for a in arcs), tuple(arcs))
        for t, arcs in by.items()
    }


def _reaches_exit(tl: TokenLattice) -> set[int]:
    """States of the token lattice from which its exit state can be reached."""
    good = {tl.exit}
    changed = True
    while changed:
        changed = False
        for a in tl.arcs:
            if a.end in good and a.start not in good:
                good.add(a.start)
                changed = True
    return good


def first_path(lattice: Lattice) -> tuple[Arc, ...]:
    """A baseline analysis: in each token, follow the first arc (file order) that can still
    reach the token's exit state."""
    out: list[Arc] = []
    for tl in sorted(token_lattices(lattice).values(), key=lambda t: t.entry):
        good = _reaches_exit(tl)
        state = tl.entry
        while state != tl.exit:
            arc = next((a for a in tl.arcs if a.start == state and a.end in good), None)
            if arc is None:
                break  # a broken lattice: no way out of this token
            out.append(arc)
            state = arc.end
    return tuple(out)


def token_paths(tl: TokenLattice, limit: int = 10_000) -> Iterator[tuple[Arc, ...]]:
    """All analyses of one token (at most ``limit``), iteratively, in file order."""
    outgoing: dict[int, list[Arc]] = {}
    for a in tl.arcs:
        outgoing.setdefault(a.start, []).append(a)
    stack: list[tuple[int, tuple[Arc, ...]]] = [(tl.entry, ())]
    produced = 0
    while stack and produced < limit:
        state, path = stack.pop()
        if state == tl.exit:
            produced += 1
            yield path
            continue
        for a in reversed(outgoing.get(state, [])):
            stack.append((a.end, (*path, a)))


@dataclass(frozen=True, slots=True)
class PathCheck:
    """Whether a path lies in an ambiguity lattice, token by token (SPEC §6).

    ``outside``: token ids whose (segment, tag) sequence is not an analysis of
    the token in the lattice; ``outside_segments``: those whose segment
    sequence alone is not.  ``states[i]``: the lattice states lexeme ``i`` of
    the path maps to (``None`` when its token is outside).
    """

    tokens: int
    outside: tuple[int, ...]
    outside_segments: tuple[int, ...]
    states: tuple[tuple[int, int] | None, ...]

    @property
    def inside(self) -> bool:
        return not self.outside

    @property
    def inside_segments(self) -> bool:
        return not self.outside_segments


def _walk(
    tl: TokenLattice, lexemes: Sequence[Lexeme], tag_column: TagColumn, labeled: bool
) -> list[int] | None:
    """The state sequence spelling ``lexemes`` in the token lattice, or ``None`` (NFA walk)."""
    outgoing: dict[int, list[Arc]] = {}
    for a in tl.arcs:
        outgoing.setdefault(a.start, []).append(a)
    frontier: dict[int, tuple[int, ...]] = {tl.entry: (tl.entry,)}
    for lx in lexemes:
        nxt: dict[int, tuple[int, ...]] = {}
        for state, trail in frontier.items():
            for a in outgoing.get(state, ()):
                if a.segment != lx.segment:
                    continue
                if labeled and (a.cpos if tag_column == "cpos" else a.fpos) != lx.tag:
                    continue
                nxt.setdefault(a.end, (*trail, a.end))
        frontier = nxt
        if not frontier:
            return None
    trail = frontier.get(tl.exit)
    return list(trail) if trail is not None else None


def check_path(path: Sequence[Lexeme], lattice: Lattice, tag_column: TagColumn = "cpos") -> PathCheck:
    """Is ``path`` (lexemes with token ids) an analysis in the ambiguity ``lattice``?

    Never raises for a path outside the lattice: it is reported (SPEC §6).
    """
    tls = token_lattices(lattice)
    groups: dict[int | None, list[int]] = {}
    for i, lx in enumerate(path):
        groups.setdefault(lx.token, []).append(i)
    outside: list[int] = []
    outside_seg: list[int] = []
    states: list[tuple[int, int] | None] = [None] * len(path)
    for token, idx in groups.items():
        tl = tls.get(token) if token is not None else None
        lexemes = [path[i] for i in idx]
        trail = _walk(tl, lexemes, tag_column, True) if tl is not None else None
        if trail is None:
            outside.append(token if token is not None else 0)
            if tl is None or _walk(tl, lexemes, tag_column, False) is None:
                outside_seg.append(token if token is not None else 0)
            continue
        for k, i in enumerate(idx):
            states[i] = (trail[k], trail[k + 1])
    return PathCheck(len(groups), tuple(outside), tuple(outside_seg), tuple(states))


def token_splits(segments: Sequence[str], lattice: Lattice, limit: int = 2) -> tuple[tuple[int, ...], ...]:
    """The ways (at most ``limit``) to assign ``segments`` to the tokens of an ambiguity ``lattice``.

    Each way is the token id of every segment along a full path of the lattice
    (first to last state) whose arcs spell ``segments`` (forms only, tags
    ignored); paths that differ only in tags or states give the same way.
    Exactly one way means the lattice fixes which token each segment belongs
    to (SPEC §6: recovering the token boundaries of a file that does not state
    them).  Keeping at most ``limit`` ways per state is enough to tell one from
    several: a state reached by two ways keeps two, and one reached by one way
    keeps it exactly.
    """
    outgoing: dict[int, list[Arc]] = {}
    for a in lattice.arcs:
        outgoing.setdefault(a.start, []).append(a)
    frontier: dict[int, list[tuple[int, ...]]] = {lattice.first_state: [()]}
    for seg in segments:
        nxt: dict[int, list[tuple[int, ...]]] = {}
        for state, ways in frontier.items():
            for a in outgoing.get(state, ()):
                if a.segment != seg:
                    continue
                bucket = nxt.setdefault(a.end, [])
                for way in ways:
                    longer = (*way, a.token_id)
                    if len(bucket) < limit and longer not in bucket:
                        bucket.append(longer)
        frontier = nxt
        if not frontier:
            return ()
    return tuple(frontier.get(lattice.last_state, ()))


# ---------------------------------------------------------------------------
# alignment blocks


@dataclass(frozen=True, slots=True)
class Block:
    """A unit of alignment between gold and predicted lexemes (SPEC §6 SEGEVAL).

    ``key`` is the value of :attr:`Lexeme.token` shared by the block's lexemes
    on both sides.  ``gold_tokens`` / ``pred_tokens``: how many space-delimited
    tokens of each side it holds (1 and 1 when tokenization agrees; 0 when
    the input has no token ids).
    """

    key: int | None
    gold_tokens: int
    pred_tokens: int


def token_blocks(gold: Sequence[Lexeme], pred: Sequence[Lexeme]) -> tuple[Block, ...]:
    """Blocks for inputs that share token ids (SPMRL lattices, yap): one per token id.

    Without token ids (``None``) the whole sentence is one block with no token count.
    """
    keys: dict[int | None, list[int]] = {}
    for lx in gold:
        keys.setdefault(lx.token, [0, 0])[0] = 1
    for lx in pred:
        keys.setdefault(lx.token, [0, 0])[1] = 1
    out = []
    for key, (g, p) in sorted(keys.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
        out.append(Block(key, g if key is not None else 0, p if key is not None else 0))
    return tuple(out)


# ---------------------------------------------------------------------------
# trees over lattice paths


@dataclass(frozen=True)
class LatticeTree:
    """An ordered tree whose leaves are lexemes, in preorder (``nodes[0]`` is the root).

    ``labels[i]`` is node i's label (the tag for a lexeme node);
    ``lexemes[i]`` is its lexeme, ``None`` for internal nodes.  Sizes count
    every node, root and lexemes included (ACL 2012 §3).
    """

    labels: tuple[str, ...]
    children: tuple[tuple[int, ...], ...]
    lexemes: tuple[Lexeme | None, ...]
    sent_id: str = ""
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        n = len(self.labels)
        if len(self.children) != n or len(self.lexemes) != n:
            raise ValueError("labels, children and lexemes must have one entry per node")
        OrderedTree(self.labels, self.children).check()  # depth-first preorder, as the TED needs

    def __len__(self) -> int:
        return len(self.labels)

    @cached_property
    def path(self) -> tuple[Lexeme, ...]:
        """The lexemes of the tree's yield, in tree order."""
        return tuple(lx for lx in self.lexemes if lx is not None)

    @cached_property
    def state_spans(self) -> tuple[tuple[int, int], ...]:
        """``(first state, last state)`` covered by each node (``(0, 0)`` if it covers nothing)."""
        out: list[tuple[int, int]] = [(0, 0)] * len(self.labels)
        for i in range(len(self.labels) - 1, -1, -1):
            lx = self.lexemes[i]
            if lx is not None:
                out[i] = (lx.start, lx.end)
                continue
            spans = [out[c] for c in self.children[i] if out[c] != (0, 0) or self.lexemes[c] is not None]
            if spans:
                out[i] = (min(s for s, _ in spans), max(e for _, e in spans))
        return tuple(out)

    @cached_property
    def token_spans(self) -> tuple[tuple[int, int] | None, ...]:
        """``(first token, last token)`` of each node's lexemes (``None``: no token ids, or none below)."""
        out: list[tuple[int, int] | None] = [None] * len(self.labels)
        for i in range(len(self.labels) - 1, -1, -1):
            lx = self.lexemes[i]
            if lx is not None:
                out[i] = (lx.token, lx.token) if lx.token is not None else None
                continue
            spans = [out[c] for c in self.children[i]]
            if spans and all(s is not None for s in spans):
                out[i] = (min(s[0] for s in spans if s), max(s[1] for s in spans if s))
        return tuple(out)

    def node_name(self, i: int) -> str:
        lx = self.lexemes[i]
        return str(lx) if lx is not None else self.labels[i]

    def bracketed(self) -> str:
        """The SPEC §6 notation: ``TOP(PP(IN:B, NP(...)))`` (iterative)."""
        done: dict[int, str] = {}
        for i in range(len(self.labels) - 1, -1, -1):
            if self.lexemes[i] is not None or not self.children[i]:
                done[i] = self.node_name(i)
            else:
                done[i] = f"{self.labels[i]}({', '.join(done.pop(c) for c in self.children[i])})"
        return done[0] if done else ""


def _lexeme_for(
    word: str, tag: str, position: int, path: Sequence[Lexeme] | None, where: tuple[str | None, int | None]
) -> Lexeme:
    if path is None:
        return Lexeme(word, tag, None, position, position + 1)
    if position >= len(path):
        raise InputFormatError(
            f"the tree has more leaves than its lattice path has arcs ({len(path)})",
            file=where[0],
            line=where[1],
        )
    arc = path[position]
    if arc.segment != word:
        raise InputFormatError(
            f"leaf {position + 1} '{word}' differs from the lattice path's segment '{arc.segment}'",
            file=where[0],
            line=where[1],
        )
    return Lexeme(word, tag, arc.token, arc.start, arc.end)


def tree_from_constituency(tree: Tree, path: Sequence[Lexeme] | None = None) -> LatticeTree:
    """A bracketed tree over lexemes → :class:`LatticeTree` (ACL 2012 Figure 1).

    ``-NONE-`` elements are removed and an outer *unlabeled* bracket with one
    child is dropped (``TOP``/``ROOT`` are kept: they are the root the
    normalization ``|p|+|g|−2`` leaves out).  A preterminal (a node whose only
    child is a word) and its word become one lexeme node ``TAG:segment``; a
    word with siblings is a lexeme with an empty tag.  With ``path`` (the
    lexemes of the matching lattice path) the leaves take its token ids and
    states; their segments must agree.
    """
    clean = strip_empty(tree)
    nodes = clean.nodes
    root = 0
    while (
        nodes[root].terminal is None
        and nodes[root].label == ""
        and len(nodes[root].children) == 1
        and nodes[nodes[root].children[0]].terminal is None
    ):
        root = nodes[root].children[0]
    where = (tree.source.file, tree.source.line) if tree.source is not None else (None, None)
    if path is not None and len(path) != len(clean.words):
        raise InputFormatError(
            f"the tree has {len(clean.words)} leaves but its lattice path has {len(path)} arcs",
            file=where[0],
            line=where[1],
        )
    labels: list[str] = []
    lexemes: list[Lexeme | None] = []
    kids: list[list[int]] = []
    stack: list[tuple[int, int]] = [(root, -1)]
    while stack:
        i, parent = stack.pop()
        node = nodes[i]
        idx = len(labels)
        if parent >= 0:
            kids[parent].append(idx)
        only = node.children[0] if len(node.children) == 1 else -1
        if node.terminal is not None:
            lx = _lexeme_for(node.label, "", node.terminal, path, where)
            labels.append(lx.tag)
            lexemes.append(lx)
            kids.append([])
        elif only >= 0 and nodes[only].terminal is not None and i != root:
            term = nodes[only].terminal
            assert term is not None
            lx = _lexeme_for(nodes[only].label, node.label, term, path, where)
            labels.append(lx.tag)
            lexemes.append(lx)
            kids.append([])
        else:
            labels.append(node.label)
            lexemes.append(None)
            kids.append([])
            for c in reversed(node.children):
                stack.append((c, idx))
    return LatticeTree(
        tuple(labels), tuple(tuple(k) for k in kids), tuple(lexemes), tree.sent_id, tree.source
    )


def tree_from_dependency(
    dep: DepTree, path: Sequence[Lexeme], protocol: Literal["2011", "2012"] = "2012"
) -> LatticeTree:
    """A morpheme-level dependency tree → function tree over lexemes (ACL 2012 Table 2; SPEC §6).

    The conversion is :func:`evalcore.conversion.dep_to_span_tree` (2011: ``*``
    heads, v0 on top; 2012: ``hd`` heads, v0 merged with the root word's
    phrase) and :meth:`SpanTree.to_mftree`; each terminal (morpheme ``k``)
    becomes the lexeme ``path[k]``.  A node's label set is written joined with
    ``+`` (only the never-edited root can hold more than one).  Raises
    :class:`TreeStructureError` for a sentence that is not a tree.
    """
    problem = dep.structure_problem()
    src = dep.source
    if problem is not None:
        idx, msg = problem
        raise TreeStructureError(
            msg,
            file=src.file if src else None,
            line=src.token_line(idx) if src else None,
            sentence=dep.sent_id or None,
        )
    if len(path) != len(dep.tokens):
        raise InputFormatError(
            f"{len(dep.tokens)} morphemes but {len(path)} lexemes in the lattice path",
            file=src.file if src else None,
            line=src.line if src else None,
            sentence=dep.sent_id or None,
        )
    mf = dep_to_span_tree(dep, ConversionConfig(protocol=protocol)).to_mftree()
    labels: list[str] = []
    lexemes: list[Lexeme | None] = []
    for node in mf.nodes:
        if node.terminal is not None:
            lx = path[node.terminal]
            labels.append(lx.tag)
            lexemes.append(lx)
        else:
            labels.append("+".join(sorted(node.labels)))
            lexemes.append(None)
    return LatticeTree(
        tuple(labels), tuple(n.children for n in mf.nodes), tuple(lexemes), dep.sent_id, dep.source
    )
