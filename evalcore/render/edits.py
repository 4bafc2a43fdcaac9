"""Edit scripts drawn on function trees (TedEval, docs/tedeval.md, "Edit scripts, discount and score";
docs/lattice.md, "TEDEVAL over lattices") -- pure data to DOT.

* :func:`marked_tree_dot` -- a parse's function tree with its deletions (and
  2011 relabelings), or the generalized gold with the insertions, each marked
  *counted* or *discounted* and named in the node text as :data:`EDIT_LEGEND` tells the reader.
* :func:`lattice_ted_dots` -- the two trees of lattice TedEval (ACL 2012),
  lexemes on the bottom line, unmapped nodes marked deleted (parse) or
  inserted (gold).

The writers are :func:`evalcore.render.dot.tree_to_dot`'s: every string is
escaped there.  The marks and the node mapping are computed by the caller
(:func:`evalcore.inspection.mark_operations`, the lattice TedEval result):
nothing here imports a metric.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, Protocol

from evalcore.choices import PROTOCOL_2011
from evalcore.lattice.model import LatticeTree
from evalcore.render.dot import NodeStyleName, tree_to_dot
from evalcore.trees import EditOp, MFTree, Node, SpanTree, Tree

__all__ = [
    "EDIT_LEGEND",
    "LATTICE_LEGEND",
    "SEGMENTATION_LEGEND",
    "lattice_ted_dots",
    "lattice_tree",
    "marked_tree",
    "marked_tree_dot",
]

Side = Literal["parse", "general"]


class OpMark(Protocol):
    """An operation placed on a drawing, as :class:`evalcore.inspection.OpMark` gives it."""

    @property
    def op(self) -> EditOp: ...
    @property
    def discounted(self) -> bool: ...
    @property
    def on(self) -> str: ...  # "parse" (deletions, relabelings) or "general" (insertions)
    @property
    def node(self) -> int: ...  # index into the MFTree of that side, -1 if not drawn


EDIT_LEGEND = (
    "Marked nodes: bold with a double border = counted (charged); grey, dashed and filled = "
    "discounted (the parse's own gold needs the same operation to reach the generalized gold, so it "
    "only undoes that scheme's conventions). In the text: −label = deleted from the parse, "
    "+label = inserted into the generalized gold, a→b = relabeled (2011); in a node with both, "
    "the discounted operations are in parentheses."
)

SEGMENTATION_LEGEND = (
    "A parse of raw text: ✂ marks an operation from segmentation (its node covers a word the parse "
    "tokenized otherwise than the gold, or put in another sentence), and a counted one is drawn teal, "
    "filled, with a double border; the others come from attachment (docs/rawtext.md, 'Segmentation or "
    "attachment'). A sentence node's operation is drawn on the sentence's top node as <sentence>."
)

LATTICE_LEGEND = (
    "Red, dashed, struck through = deleted from the parse; green, bold = added from the gold. "
    "Lexemes (TAG:segment) are on the bottom line, numbered in path order."
)


def _label_text(labels: frozenset[str], protocol: str) -> list[str]:
    if protocol == PROTOCOL_2011:
        return [next(iter(labels)) if labels else "*"]
    return sorted(labels)


def _node_text(labels: frozenset[str], protocol: str, marks: Sequence[OpMark]) -> str:
    """The text of a marked node: each label with what happens to it."""
    parts = _label_text(labels, protocol)
    mixed = any(m.discounted for m in marks) and any(not m.discounted for m in marks)
    whole: list[str] = []  # operations on the node itself (unlabeled), not on one label
    for m in marks:
        op = m.op
        wrap = (lambda t: f"({t})") if mixed and m.discounted else (lambda t: t)
        if op.kind == "rel":
            target = op.label if op.label in parts else (parts[0] if parts else op.label)
            text = wrap(f"{op.label}→{op.new_label}")
        else:
            sign = "−" if op.kind == "del" else "+"
            if not op.label:  # unlabeled: the whole bracket
                whole.append(wrap(sign))
                continue
            target = op.label
            text = wrap(f"{sign}{op.label}")
        if target in parts:
            parts[parts.index(target)] = text
        else:
            parts.append(text)
    body = ", ".join(parts) if parts else "∅"
    return ("".join(whole) + body) if whole else body


def marked_tree(
    tree: SpanTree, marks: Sequence[OpMark], side: Side, segmentation: Sequence[bool] = ()
) -> tuple[MFTree, dict[int, NodeStyleName], dict[int, str]]:
    """The drawing of ``tree`` with the operations of ``marks`` that are drawn on ``side``:
    its multi-function tree, a style per marked node (counted / discounted) and the node texts.
    ``segmentation``: one flag per mark (a parse of raw text): a node with an operation from
    segmentation is written with ``✂``, and drawn ``segmentation`` when such an operation is counted."""
    mf = tree.to_mftree()
    flags = list(segmentation) + [False] * (len(marks) - len(segmentation))
    by_node: dict[int, list[tuple[OpMark, bool]]] = {}
    for m, seg in zip(marks, flags, strict=True):
        if m.on == side and 0 <= m.node < len(mf.nodes):
            by_node.setdefault(m.node, []).append((m, seg))
    styles: dict[int, NodeStyleName] = {}
    texts: dict[int, str] = {}
    for node, pairs in by_node.items():
        ms = [m for m, _ in pairs]
        counted = [seg for m, seg in pairs if not m.discounted]
        styles[node] = ("segmentation" if any(counted) else "counted") if counted else "discounted"
        text = _node_text(mf.nodes[node].labels, tree.protocol, ms)
        texts[node] = f"✂ {text}" if any(seg for _, seg in pairs) else text
    return mf, styles, texts


def marked_tree_dot(
    tree: SpanTree,
    marks: Sequence[OpMark] = (),
    *,
    side: Side = "parse",
    title: str | None = None,
    name: str = "tree",
    highlighted: Sequence[bool] = (),
    notes: Sequence[Sequence[str]] = (),
    segmentation: Sequence[bool] = (),
) -> str:
    """DOT for a function tree with the operations drawn on it (none: the plain tree).

    ``highlighted``: one flag per mark (same order); the nodes of flagged marks drawn on
    ``side`` are highlighted (:func:`evalcore.render.dot.tree_to_dot`).  ``notes``: the lines of
    one hover text per mark (same order; why it counts); a node's text is its marks' lines.
    ``segmentation``: one flag per mark, the operations from segmentation (:func:`marked_tree`)."""
    mf, styles, texts = marked_tree(tree, marks, side, segmentation)
    lit = {
        m.node for m, on in zip(marks, highlighted, strict=False) if on and m.on == side and m.node in styles
    }
    tips: dict[int, list[str]] = {}
    for m, note in zip(marks, notes, strict=False):
        if m.on == side and m.node in styles and note:
            tips.setdefault(m.node, []).extend(note)
    return tree_to_dot(
        mf, styles=styles, labels=texts, title=title, name=name, highlighted=lit, tooltips=tips
    )


# ---------------------------------------------------------------------------
# lattice TedEval (ACL 2012)


def lattice_tree(tree: LatticeTree) -> Tree:
    """A :class:`LatticeTree` as an ordered tree for drawing: lexemes become terminals
    (``TAG:segment``, numbered in path order), internal nodes keep their labels."""
    nodes: list[Node] = []
    position = 0
    for i, label in enumerate(tree.labels):
        lx = tree.lexemes[i]
        if lx is not None:
            nodes.append(Node(str(lx) if lx.tag else lx.segment, (), position))
            position += 1
        else:
            nodes.append(Node(label, tree.children[i]))
    return Tree(tuple(nodes), tuple(str(lx) for lx in tree.path), tree.sent_id)


def lattice_ted_dots(
    parse: LatticeTree,
    gold: LatticeTree,
    pairs: Iterable[tuple[int, int]],
    *,
    titles: tuple[str, str] = ("parse", "gold"),
) -> tuple[str, str]:
    """DOT for the parse (unmapped nodes deleted) and the gold (unmapped nodes inserted);
    ``pairs``: the (parse node, gold node) mapping of the lattice TED (``SentenceLatticeTed.pairs``)."""
    pairs = list(pairs)
    mapped_p = {a for a, _ in pairs}
    mapped_g = {b for _, b in pairs}
    p_styles: dict[int, NodeStyleName] = {i: "deleted" for i in range(len(parse)) if i not in mapped_p}
    g_styles: dict[int, NodeStyleName] = {i: "inserted" for i in range(len(gold)) if i not in mapped_g}
    return (
        tree_to_dot(lattice_tree(parse), styles=p_styles, title=titles[0], name="parse"),
        tree_to_dot(lattice_tree(gold), styles=g_styles, title=titles[1], name="gold"),
    )
