"""Paths in morphological lattices (ACL 2012 §3; docs/lattice.md, "What is compared"): one-path lattice files,
token sub-lattices, whether an analysis lies in an ambiguity lattice, and the ways segments split
into tokens.

* A gold lattice file and yap's ``output.mapping`` hold one path per sentence
  (:func:`path_arcs`, :func:`lexemes_of_path`); an MA (ambiguity) lattice holds
  all analyses.
* **Is a path in the lattice?** (:func:`check_path`) is decided token by token
  through token ids, because state numbers of gold files are renumbered and do
  not reuse the ambiguity lattice's (data README): a token's lexemes must spell
  a path of the token's sub-lattice from its entry to its exit state.  A path
  outside the lattice is reported, never an error: on SPMRL Hebrew dev, 125 of
  500 gold analyses are outside the ambiguity lattice (by segment and CPOS).

Everything is iterative.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from evalcore.errors import InputFormatError
from evalcore.lattice.model import Lexeme, TagColumn, lexeme_of
from evalcore.trees import Arc, Lattice

__all__ = [
    "PathCheck",
    "TokenLattice",
    "check_path",
    "first_path",
    "lexemes_of_path",
    "path_arcs",
    "token_lattices",
    "token_paths",
    "token_splits",
]


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
            what = (
                f"token ids out of order along the path: token {a.token_id} after token {token} "
                "(a path's arcs go through the tokens in order)"
            )
        elif a.start != state:
            gap = (
                f"a second arc leaves state {a.start}" if a.start < state else f"no arc leaves state {state}"
            )
            what = f"not a single path: {gap} (a gold or predicted lattice holds one analysis per sentence)"
        else:
            token, state = a.token_id, a.end
            continue
        src = lattice.source
        # the arc's line: the block's first line + its position in the block
        line = (
            src.line + next((k for k, b in enumerate(lattice.arcs) if b is a), 0) if src is not None else None
        )
        raise InputFormatError(what, file=src.file if src is not None else None, line=line)
    return tuple(arcs)


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


def first_path(lattice: Lattice) -> tuple[Arc, ...]:
    """A baseline analysis: in each token, follow the first arc (file order) that can still
    reach the token's exit state (the token's first path, :func:`token_paths`; none in a broken
    token with no way out)."""
    out: list[Arc] = []
    for tl in sorted(token_lattices(lattice).values(), key=lambda t: t.entry):
        out.extend(next(token_paths(tl, 1), ()))
    return tuple(out)


def token_paths(tl: TokenLattice, limit: int = 10_000) -> Iterator[tuple[Arc, ...]]:
    """All analyses of one token (at most ``limit``), iteratively, in file order (:meth:`Lattice.paths`:
    the token's entry and exit are its sub-lattice's first and last states)."""
    return Lattice(tl.arcs).paths(limit)


@dataclass(frozen=True, slots=True)
class PathCheck:
    """Whether a path lies in an ambiguity lattice, token by token (docs/lattice.md, "What is compared").

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
    found = frontier.get(tl.exit)
    return list(found) if found is not None else None


def check_path(path: Sequence[Lexeme], lattice: Lattice, tag_column: TagColumn = "cpos") -> PathCheck:
    """Is ``path`` (lexemes with token ids) an analysis in the ambiguity ``lattice``?

    Never raises for a path outside the lattice: it is reported (docs/lattice.md, "What is compared").
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
    to (docs/lattice.md, "What is compared": recovering the token boundaries of a file that does not state
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
