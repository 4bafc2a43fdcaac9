"""Preparing lattices and trees over lattices for drawing (docs/lattice.md, "What is compared"): placement,
union, tree layout.

* :func:`place_path` -- put a gold or predicted path (lexemes with token ids,
  in the file's own state numbers) into an ambiguity lattice's states, token
  by token, as :func:`evalcore.lattice.paths.check_path` does.  Gold lattices are
  renumbered (data README), so drawing a path with its own numbers would
  connect the wrong states.  A token whose segments are in the lattice but
  whose tags are not keeps the lattice states (drawn as a parallel arc
  "not in lattice"); a token whose segments are not in the lattice gets new
  states between the token's entry and exit, so out-of-lattice analyses are
  visible rather than dropped.
* :func:`distinct_arcs` -- the lattice with one arc per drawn label: arcs
  that differ only in lemma or features (an MA lattice lists ``בגן/NN``
  five times) look identical in a drawing, so one is kept.
* :func:`union_lattice` -- without an ambiguity lattice, the lattice made of
  the analyses themselves: one state per token boundary and per segment
  prefix inside a token, so analyses that agree share arcs and those that
  differ branch.
* :func:`lattice_tree_to_tree` / :func:`lattice_tree_to_dot` -- a
  :class:`~evalcore.lattice.model.LatticeTree` as an ordered tree for
  :func:`~evalcore.render.dot.tree_to_dot`: each lexeme is a tag node over
  its segment; right-to-left text is mirrored (first morpheme on the right,
  under the right-to-left lattice drawing).

No streamlit, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import count

from evalcore.lattice.model import LatticeTree, Lexeme, TagColumn
from evalcore.lattice.paths import _walk, check_path, token_lattices
from evalcore.render.dot import NodeStyleName, tree_to_dot
from evalcore.render.text import is_rtl_text
from evalcore.trees import Arc, Lattice, Node, Tree

__all__ = [
    "distinct_arcs",
    "lattice_tree_to_dot",
    "lattice_tree_to_tree",
    "place_path",
    "union_lattice",
]


def _arc(start: int, end: int, lx: Lexeme) -> Arc:
    return Arc(start, end, lx.segment, "_", lx.tag, lx.tag, "_", lx.token or 0)


def _groups(path: Sequence[Lexeme]) -> list[list[int]]:
    """Indices of ``path`` grouped by consecutive token id."""
    out: list[list[int]] = []
    for i, lx in enumerate(path):
        if out and path[out[-1][-1]].token == lx.token:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def place_path(path: Sequence[Lexeme], lattice: Lattice, tag_column: TagColumn = "cpos") -> tuple[Arc, ...]:
    """The arcs of ``path`` in ``lattice``'s states (see the module doc); tags go in cpos and fpos."""
    check = check_path(path, lattice, tag_column)
    tls = token_lattices(lattice)
    fresh = count(max(lattice.states, default=-1) + 1)
    out: list[Arc] = []
    for group in _groups(path):
        lexemes = [path[k] for k in group]
        states = [check.states[k] for k in group]
        if all(s is not None for s in states):
            out.extend(_arc(s[0], s[1], lx) for s, lx in zip(states, lexemes, strict=True) if s)
            continue
        token = lexemes[0].token
        tl = tls.get(token) if token is not None else None
        trail = _walk(tl, lexemes, tag_column, False) if tl is not None else None
        if trail is None:
            entry = tl.entry if tl is not None else (out[-1].end if out else next(fresh))
            exit_ = tl.exit if tl is not None else next(fresh)
            trail = [entry, *(next(fresh) for _ in lexemes[1:]), exit_]
        out.extend(_arc(trail[k], trail[k + 1], lx) for k, lx in enumerate(lexemes))
    return tuple(out)


def distinct_arcs(lattice: Lattice, tag_column: TagColumn = "cpos") -> Lattice:
    """``lattice`` with the first arc of every ``(start, end, segment, tag)`` (file order kept)."""
    seen: set[tuple[int, int, str, str]] = set()
    arcs = []
    for a in lattice.arcs:
        key = (a.start, a.end, a.segment, a.cpos if tag_column == "cpos" else a.fpos)
        if key not in seen:
            seen.add(key)
            arcs.append(a)
    return Lattice(tuple(arcs), lattice.source)


def union_lattice(*paths: Sequence[Lexeme]) -> tuple[Lattice, tuple[tuple[Arc, ...], ...]]:
    """A lattice holding every path, and each path's arcs in it (see the module doc).

    Tokens are ordered by id (paths without token ids are one token); states
    are numbered in reading order: the boundary before the first token is 0.
    """
    tokens: list[int | None] = sorted(
        {lx.token for p in paths for lx in p}, key=lambda t: (t is None, t if t is not None else 0)
    )
    state_of: dict[tuple[int | None, tuple[str, ...]], int] = {}
    boundary_after: dict[int | None, int] = {}
    numbers = count(1)
    start_state = 0
    for t in tokens:
        prefixes: list[tuple[str, ...]] = []
        for p in paths:
            segs = [lx.segment for lx in p if lx.token == t]
            for k in range(1, len(segs)):
                key = tuple(segs[:k])
                if key not in prefixes:
                    prefixes.append(key)
        for key in sorted(prefixes, key=len):
            state_of[(t, key)] = next(numbers)
        boundary_after[t] = next(numbers)
    previous: dict[int | None, int] = {}
    before = start_state
    for t in tokens:
        previous[t] = before
        before = boundary_after[t]
    placed: list[tuple[Arc, ...]] = []
    arcs: list[Arc] = []
    seen: set[Arc] = set()
    for p in paths:
        out: list[Arc] = []
        for group in _groups(p):
            lexemes = [p[k] for k in group]
            t = lexemes[0].token
            state = previous[t]
            for k, lx in enumerate(lexemes):
                last = k == len(lexemes) - 1
                end = boundary_after[t] if last else state_of[(t, tuple(x.segment for x in lexemes[: k + 1]))]
                arc = _arc(state, end, lx)
                out.append(arc)
                if arc not in seen:
                    seen.add(arc)
                    arcs.append(arc)
                state = end
        placed.append(tuple(out))
    return Lattice(tuple(arcs)), tuple(placed)


def lattice_tree_to_tree(tree: LatticeTree, *, rtl: bool = False) -> tuple[Tree, dict[int, tuple[int, ...]]]:
    """An ordered :class:`Tree` for drawing, and for each node of ``tree`` its node(s) in it.

    A lexeme becomes a tag node over a terminal holding its segment (both are
    returned for it); ``rtl`` mirrors the tree (children and word order
    reversed) so that the first morpheme is drawn on the right.
    """
    labels: list[str] = []
    kids: list[list[int]] = []
    terminal: list[int | None] = []
    words: list[str] = []
    where: dict[int, tuple[int, ...]] = {}
    stack: list[tuple[int, int]] = [(0, -1)] if len(tree) else []
    while stack:
        i, parent = stack.pop()
        idx = len(labels)
        if parent >= 0:
            kids[parent].append(idx)
        lx = tree.lexemes[i]
        if lx is not None:
            # positions in visiting order: reading order, or its mirror image when rtl
            labels += [lx.tag, lx.segment]
            kids += [[idx + 1], []]
            terminal += [None, len(words)]
            words.append(lx.segment)
            where[i] = (idx, idx + 1)
            continue
        labels.append(tree.labels[i])
        kids.append([])
        terminal.append(None)
        where[i] = (idx,)
        children = tree.children[i]
        for c in children if rtl else reversed(children):  # the stack pops the last pushed first
            stack.append((c, idx))
    nodes = tuple(Node(lab, tuple(k), t) for lab, k, t in zip(labels, kids, terminal, strict=True))
    return Tree(nodes, tuple(words), tree.sent_id), where


def lattice_tree_to_dot(
    tree: LatticeTree,
    *,
    styles: Mapping[int, NodeStyleName] | None = None,
    title: str | None = None,
    rtl: bool | None = None,
    name: str = "tree",
) -> str:
    """DOT for a tree over a lattice path; ``styles`` are keyed by ``tree``'s node indices.

    ``rtl=None`` mirrors the tree when its first segment with a strong
    direction is right-to-left (Hebrew, Arabic).
    """
    if rtl is None:
        rtl = is_rtl_text(" ".join(lx.segment for lx in tree.path))
    drawn, where = lattice_tree_to_tree(tree, rtl=rtl)
    mapped: dict[int, NodeStyleName] = {}
    for i, style in (styles or {}).items():
        for k in where.get(i, ()):
            mapped[k] = style
    return tree_to_dot(drawn, styles=mapped, title=title, show_positions=False, name=name)
