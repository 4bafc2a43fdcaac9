"""Graphviz DOT writers: ordered trees, multi-function trees, lattices, dependency drawings.

Escaping (docs/app.md, "Safety of drawings"; :mod:`evalcore.render.text`): every label is a
Graphviz *HTML-like* label ``<...>``, XML-escaped after control and bidi characters were made
visible; node names are generated (``n0``, ``s3``, ``w5``), never taken from the data.  The output
is accepted by ``dot`` (tested with the real binary).

Writers: :func:`tree_to_dot` (an ordered :class:`~evalcore.trees.Tree` or
:class:`~evalcore.trees.MFTree`, label sets sorted, ``∅`` for the empty set, ``ordering=out``),
:func:`lattice_to_dot` (right to left, ``rankdir=RL``, as Hebrew is read) and :func:`dep_to_dot` (the
SVG writer's :class:`~evalcore.render.layout.DepLayout`, for users who want DOT).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from evalcore.render.layout import DepLayout
from evalcore.render.svg import HIGHLIGHT_FILL, STATUS_STYLES
from evalcore.render.text import dot_html, dot_quoted
from evalcore.trees import Arc, Lattice, MFTree, Tree

__all__ = [
    "HIGHLIGHT_FILL",
    "LATTICE_STYLES",
    "NODE_STYLES",
    "NodeStyle",
    "NodeStyleName",
    "dep_to_dot",
    "lattice_to_dot",
    "tree_to_dot",
]

FONT = "DejaVu Sans"

NodeStyleName = Literal["deleted", "inserted", "relabeled", "discounted", "counted", "segmentation"]


@dataclass(frozen=True, slots=True)
class NodeStyle:
    """How one kind of highlighted node is drawn (colour is never the only cue)."""

    colour: str
    style: str  # Graphviz node style
    fill: str  # "" = not filled
    penwidth: float
    peripheries: int
    strike: bool
    legend: str


NODE_STYLES: dict[str, NodeStyle] = {
    "deleted": NodeStyle("#d62728", "rounded,dashed", "", 1.6, 1, True, "deleted (struck through, dashed)"),
    "inserted": NodeStyle("#2ca02c", "rounded,bold", "", 2.0, 1, False, "inserted (bold)"),
    "relabeled": NodeStyle("#e07b00", "rounded,dotted", "", 1.8, 1, False, "relabeled (dotted)"),
    "discounted": NodeStyle(
        "#7f7f7f", "rounded,dashed,filled", "#ececec", 1.2, 1, False, "discounted (grey, not charged)"
    ),
    "counted": NodeStyle("#6a3d9a", "rounded,bold", "", 1.6, 2, False, "counted (double border, charged)"),
    "segmentation": NodeStyle(
        "#00707a",
        "rounded,bold,filled",
        "#dff4f5",
        1.6,
        2,
        False,
        "counted, from segmentation (✂, teal, filled, double border)",
    ),
}


LATTICE_STYLES: dict[str, tuple[str, str, float]] = {
    # which path(s) an arc is on -> (colour, style, penwidth)
    "gold": ("#1f77b4", "solid", 2.6),
    "pred": ("#ff7f0e", "dashed", 2.6),
    "both": ("#1f77b4:#ff7f0e", "solid", 2.0),
    "none": ("#9a9a9a", "solid", 1.0),
}


def _graph_header(name: str, attrs: Sequence[str], title: str | None) -> list[str]:
    lines = [f"digraph {name} {{"]
    graph_attrs = [*attrs, f"fontname={dot_quoted(FONT)}"]
    if title:
        # the title starts where the drawing starts (left, or right for a right-to-left lattice), so a
        # wide drawing seen from its start shows its title (centred, it was out of sight)
        side = "r" if "rankdir=RL" in attrs else "l"
        graph_attrs += [f"label=<{dot_html(title)}>", "labelloc=t", f"labeljust={side}", "fontsize=13"]
    lines.append(f"  graph [{', '.join(graph_attrs)}];")
    return lines


def _tree_node_text(tree: Tree | MFTree, index: int) -> tuple[str, bool]:
    """(label, is_terminal) of node ``index``."""
    if isinstance(tree, MFTree):
        mf = tree.nodes[index]
        if mf.terminal is not None:
            return mf.word or (tree.words[mf.terminal] if mf.terminal < len(tree.words) else ""), True
        return (", ".join(sorted(mf.labels)) if mf.labels else "∅"), False
    node = tree.nodes[index]
    return node.label, node.terminal is not None


def tree_to_dot(
    tree: Tree | MFTree,
    *,
    styles: Mapping[int, NodeStyleName] | None = None,
    labels: Mapping[int, str] | None = None,
    title: str | None = None,
    show_positions: bool = True,
    name: str = "tree",
    highlighted: Collection[int] = (),
    tooltips: Mapping[int, Sequence[str]] | None = None,
) -> str:
    """DOT for an ordered tree; terminals on the bottom rank in word order.

    ``styles`` maps node indices (into ``tree.nodes``) to a style name of
    :data:`NODE_STYLES`; ``labels`` overrides the text of some nodes (e.g.
    ``vg → *`` for a relabeling).  Terminals show their 1-based position under
    them in grey, as large as the word, when ``show_positions``.  ``highlighted`` nodes (styled
    ones only: the operations of an atlas group) get a ◆ before their text,
    a yellow fill and the class ``highlighted``.  ``tooltips``: the hover text of some nodes, one
    string per line (why the operations drawn there count or are discounted).
    """
    tips: Mapping[int, Sequence[str]] = tooltips or {}
    styles = styles or {}
    labels = labels or {}
    for i, given in styles.items():
        if given not in NODE_STYLES:
            raise ValueError(f"unknown node style {given!r} for node {i} (known: {', '.join(NODE_STYLES)})")
    out = _graph_header(name, ["ordering=out", "rankdir=TB", "nodesep=0.18", "ranksep=0.32"], title)
    out.append(
        # width=0.1: a node is as narrow as its text (Graphviz's default minimum, 0.75 in, spread
        # short words apart and made a 22-word tree a third wider)
        f"  node [shape=plaintext, fontname={dot_quoted(FONT)}, fontsize=12, width=0.1, height=0.22, "
        "margin=0.03];"
    )
    out.append('  edge [arrowhead=none, color="#555555"];')
    terminals: list[tuple[int, int]] = []  # (position, node index)
    for i in range(len(tree.nodes)):
        text, is_terminal = _tree_node_text(tree, i)
        text = labels.get(i, text)
        body = dot_html(text)
        attrs: list[str] = []
        if is_terminal:
            pos = tree.nodes[i].terminal
            assert pos is not None
            terminals.append((pos, i))
            if show_positions:
                body += f'<BR/><FONT COLOR="#8a8a8a">{pos + 1}</FONT>'
            attrs.append('fontcolor="#1a1a1a"')
        style_name = styles.get(i)
        if style_name is not None:
            st = NODE_STYLES[style_name]
            if st.strike:
                body = f"<S>{body}</S>"
            lit = i in highlighted
            if lit:
                body = f"◆ {body}"
            attrs += [
                "shape=box",
                f'style="{st.style}{",filled" if lit and not st.fill else ""}"',
                f'color="{st.colour}"',
                f'fontcolor="{st.colour}"',
                f"penwidth={st.penwidth + (1.0 if lit else 0.0)}",
                f"peripheries={st.peripheries}",
                'margin="0.06,0.03"',
                f'class="{style_name}{" highlighted" if lit else ""}"',
            ]
            if st.fill or lit:
                attrs.append(f'fillcolor="{HIGHLIGHT_FILL if lit else st.fill}"')
        if i in tips:
            lines = "\\n".join(dot_quoted(line)[1:-1] for line in tips[i])  # \n: Graphviz's line break
            attrs.append(f'tooltip="{lines}"')
        out.append(f"  n{i} [label=<{body}>{', ' if attrs else ''}{', '.join(attrs)}];")
    children: list[tuple[int, ...]] = [node.children for node in tree.nodes]
    for i, kids in enumerate(children):
        for c in kids:
            out.append(f"  n{i} -> n{c};")
    if terminals:
        terminals.sort()
        out.append("  { rank=max; " + " ".join(f"n{i};" for _, i in terminals) + " }")
        if len(terminals) > 1:
            chain = " -> ".join(f"n{i}" for _, i in terminals)
            out.append(f"  {chain} [style=invis];")
    out.append("}")
    return "\n".join(out) + "\n"


def _arc_key(arc: Arc, tag: str) -> tuple[int, int, str, str]:
    return (arc.start, arc.end, arc.segment, arc.fpos if tag == "fpos" else arc.cpos)


def _match_path(
    lattice: Lattice, path: Sequence[Arc], tag: str
) -> tuple[set[int], list[tuple[int, int, str, str]]]:
    """Indices of lattice arcs on ``path`` and the path arcs with no lattice arc.

    An arc equal in every field matches first; otherwise the first arc with the
    same ``(start, end, segment, tag)`` that is not already taken.
    """
    taken: set[int] = set()
    missing: list[tuple[int, int, str, str]] = []
    for p in path:
        exact = [k for k, a in enumerate(lattice.arcs) if a == p and k not in taken]
        loose = [
            k for k, a in enumerate(lattice.arcs) if _arc_key(a, tag) == _arc_key(p, tag) and k not in taken
        ]
        hit = exact or loose
        if hit:
            taken.add(hit[0])
        else:
            missing.append(_arc_key(p, tag))
    return taken, missing


def lattice_to_dot(
    lattice: Lattice,
    *,
    gold_path: Iterable[Arc] | None = None,
    pred_path: Iterable[Arc] | None = None,
    tag: Literal["cpos", "fpos"] = "cpos",
    title: str | None = None,
    name: str = "lattice",
) -> str:
    """DOT for a lattice drawn right to left, arcs labeled ``segment/tag``.

    Path arcs are matched to lattice arcs by equality, else by
    ``(start, end, segment, tag)``; the caller aligns paths whose states were
    renumbered (by token id, docs/lattice.md, "Inputs").  A path arc with no
    match in the lattice is drawn as an extra edge marked "not in lattice",
    so out-of-lattice gold is visible rather than dropped.
    """
    gold_arcs, pred_arcs = list(gold_path or ()), list(pred_path or ())
    on_gold, gold_extra = _match_path(lattice, gold_arcs, tag)
    on_pred, pred_extra = _match_path(lattice, pred_arcs, tag)
    out = _graph_header(name, ["rankdir=RL", "nodesep=0.25", "ranksep=0.55"], title)
    out.append(
        f"  node [shape=circle, fontname={dot_quoted(FONT)}, fontsize=11, width=0.32, fixedsize=true];"
    )
    out.append(f"  edge [fontname={dot_quoted(FONT)}, fontsize=11, arrowsize=0.6];")
    extra: dict[tuple[int, int, str, str], str] = {}
    for key in gold_extra:
        extra[key] = "gold"
    for key in pred_extra:
        extra[key] = "both" if key in extra else "pred"
    states = set(lattice.states)
    for key in extra:
        states |= {key[0], key[1]}
    for st in sorted(states):
        out.append(f"  s{st} [label=<{st}>];")

    def edge(key: tuple[int, int, str, str], which: str, note: str = "") -> str:
        colour, style, width = LATTICE_STYLES[which]
        text = dot_html(f"{key[2]}/{key[3]}") + (dot_html(note) if note else "")
        cls = {"gold": "gold", "pred": "pred", "both": "gold pred", "none": "arc"}[which]
        font = colour.split(":")[0] if which != "none" else "#333333"
        return (
            f'  s{key[0]} -> s{key[1]} [label=<{text}>, color="{colour}", style={style}, '
            f'penwidth={width}, fontcolor="{font}", class="{cls}"];'
        )

    for k, a in enumerate(lattice.arcs):
        g, p = k in on_gold, k in on_pred
        which = "both" if g and p else "gold" if g else "pred" if p else "none"
        out.append(edge(_arc_key(a, tag), which))
    for key, which in extra.items():
        out.append(edge(key, which, " (not in lattice)"))
    if gold_arcs or pred_arcs:
        legend = []
        if gold_arcs:
            legend.append("blue solid: gold path")
        if pred_arcs:
            legend.append("orange dashed: predicted path")
        out.append(f"  graph [xlabel=<{dot_html('; '.join(legend))}>];")
    out.append("}")
    return "\n".join(out) + "\n"


def dep_to_dot(layout: DepLayout, *, title: str | None = None, name: str = "dependencies") -> str:
    """DOT for a dependency drawing: words in order on one rank, arcs head → dependent.

    Arc colours and line patterns follow :data:`evalcore.render.svg.STATUS_STYLES`.
    """
    out = _graph_header(name, ["rankdir=TB", "nodesep=0.35", "ranksep=0.5"], title)
    out.append(f"  node [shape=plaintext, fontname={dot_quoted(FONT)}, fontsize=13];")
    out.append(f"  edge [fontname={dot_quoted(FONT)}, fontsize=10, arrowsize=0.6];")
    has_root = any(a.vertical for a in layout.arcs)
    if has_root:
        out.append('  w0 [label=<ROOT>, fontcolor="#6b6b6b"];')
    for w in layout.words:
        tag = f'<BR/><FONT POINT-SIZE="9" COLOR="#6b6b6b">{dot_html(w.tag)}</FONT>' if w.tag else ""
        dim = ', fontcolor="#9a9a9a"' if w.dimmed else ""
        out.append(f"  w{w.id} [label=<{dot_html(w.form)}{tag}>{dim}];")
    ordered = sorted(layout.words, key=lambda w: w.x)  # left to right as drawn (mirrored for RTL)
    x_of = {w.id: w.x for w in layout.words}
    if ordered:
        out.append("  { rank=same; " + " ".join(f"w{w.id};" for w in ordered) + " }")
    if len(ordered) > 1:
        out.append("  " + " -> ".join(f"w{w.id}" for w in ordered) + " [style=invis, weight=10];")
    for a in layout.arcs:
        st = STATUS_STYLES[a.status]
        style = "dashed" if a.status == "wrong-head" else "dotted" if a.status == "wrong-label" else "solid"
        attrs = (
            f'label=<{dot_html(a.text)}>, color="{st.colour}", fontcolor="{st.label_colour}", '
            f'style={style}, penwidth={st.width}, class="arc-{a.status}"'
        )
        if a.vertical:
            out.append(f"  w0 -> w{a.dependent} [{attrs}];")
        elif x_of.get(a.head, 0.0) <= x_of[a.dependent]:
            out.append(f"  w{a.head} -> w{a.dependent} [{attrs}];")
        else:
            # flat edges must run left to right to keep the word order: reverse, flip the arrow
            out.append(f"  w{a.dependent} -> w{a.head} [{attrs}, dir=back];")
    out.append("}")
    return "\n".join(out) + "\n"
