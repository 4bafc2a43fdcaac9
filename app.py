"""evalcore workbench -- home page: the sentence inspector.

Run with ``make app`` (see README).  Pages live in ``pages/``; every number
shown is computed by ``evalcore``; ``workbench/`` holds the shared widgets
and caches.  Each panel is one function taking a :class:`View`, so later
panels (TedEval function trees and edit scripts, lattices, PARSEVAL) are
added as one more function and one more call in :func:`main`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from evalcore.errors import EvalcoreError
from evalcore.metrics.attachment import AttachConfig, check_same_tokens, is_punct, score, sentence_counts
from evalcore.render.dot import dep_to_dot, tree_to_dot
from evalcore.render.layout import DepLayout, WordGrid, layout_dep, merge_grids, word_grid
from evalcore.render.svg import dep_svg
from evalcore.trees import DepTree
from workbench.cache import corpus_attach
from workbench.datasets import Analysis, LoadedDataset, SentenceInfo
from workbench.widgets import (
    Figure,
    choose_dataset,
    download_table,
    graphviz_figure,
    md_escape,
    sentence_picker,
    stacked_figures,
    svg_figure,
)


@dataclass(frozen=True)
class View:
    """Everything a panel needs: the dataset, the sentence and the display options."""

    loaded: LoadedDataset
    sentence: SentenceInfo
    count_punct: bool
    side_by_side: bool

    @property
    def config(self) -> AttachConfig:
        return AttachConfig(no_punct=not self.count_punct)

    def dep_tree(self, analysis: Analysis) -> DepTree:
        return analysis.dep_trees[self.sentence.index]


def _comparable(gold: DepTree, system: DepTree) -> str | None:
    """``None`` if the two analyses have the same words, else why not."""
    try:
        check_same_tokens(gold, system)
    except EvalcoreError as exc:
        return exc.message
    return None


def _groups(loaded: LoadedDataset) -> list[tuple[str, Analysis | None, list[Analysis]]]:
    """Columns of the drawing: each gold with the parses scored against it; parses without a gold last."""
    groups: list[tuple[str, Analysis | None, list[Analysis]]] = []
    placed: set[str] = set()
    for g in loaded.dep("gold"):
        parses = [p for p in loaded.dep("parse") if p.spec.against == g.name]
        placed.update(p.name for p in parses)
        groups.append((g.spec.scheme or g.name, g, parses))
    rest = [p for p in loaded.dep("parse") if p.name not in placed]
    if rest:
        groups.append(("parses without a gold", None, rest))
    return groups


def _punct_ids(tree: DepTree) -> list[int]:
    return [t.id for t in tree.tokens if is_punct(t)]


# ---------------------------------------------------------------------------
# panels


@dataclass(frozen=True)
class DepDrawing:
    """One dependency drawing of the sentence: what to draw and how to introduce it."""

    group: str  # column: the gold scheme it belongs to
    analysis: Analysis
    tree: DepTree
    gold: DepTree | None  # compare against this gold (same words)
    title: str
    note: str
    warning: str = ""


def dependency_drawings(view: View) -> list[DepDrawing]:
    """Each gold tree, then the parses scored against it; parses without a gold last."""
    out: list[DepDrawing] = []
    for scheme, gold, parses in _groups(view.loaded):
        gold_tree = view.dep_tree(gold) if gold is not None else None
        if gold is not None and gold_tree is not None:
            out.append(DepDrawing(scheme, gold, gold_tree, None, gold.name, "gold"))
        for p in parses:
            tree = view.dep_tree(p)
            why = _comparable(gold_tree, tree) if gold_tree is not None else None
            against = f"compared with {gold.name}" if gold is not None and why is None else "not compared"
            out.append(
                DepDrawing(
                    scheme,
                    p,
                    tree,
                    gold_tree if why is None else None,
                    p.name,
                    against,
                    warning=f"{p.name}: not compared with {gold.name}: {why}" if why and gold else "",
                )
            )
    return out


def _layouts(view: View, drawings: list[DepDrawing]) -> list[DepLayout]:
    """Lay out every drawing, then again on a shared grid so the same word has the same x everywhere."""

    def lay(d: DepDrawing, grid: WordGrid | None) -> DepLayout:
        dim_source = d.gold if d.gold is not None else d.tree
        dim = [] if view.count_punct else _punct_ids(dim_source)
        return layout_dep(d.tree, d.gold, dimmed=dim, grid=grid)

    first = [lay(d, None) for d in drawings]
    grid = merge_grids([word_grid(x) for x in first])
    return [lay(d, grid) for d in drawings] if grid is not None else first


def panel_dependency_trees(view: View) -> None:
    """Each scheme's gold tree and each parse (compared against its own gold), displaCy style."""
    drawings = dependency_drawings(view)
    if not drawings:
        return
    st.subheader("Dependency trees")
    st.caption(
        "Arcs go from head to dependent (arrowhead); the same word sits at the same place in every drawing. "
        "In a parse: red dashed arc = wrong head; orange dotted arc with an orange label `obl (gold obj)` = "
        "right head, wrong label; grey = right. "
        + ("" if view.count_punct else "Faded: punctuation, left out of the counts.")
    )
    for d in drawings:
        if d.warning:
            st.warning(d.warning)
    sid = view.sentence.sent_id
    layouts = _layouts(view, drawings)
    figures = [
        Figure(
            d.title,
            dep_svg(lay, title=f"{d.title} — {sid}"),
            dep_to_dot(lay, title=f"{d.title} — {sid}"),
            stem=f"{sid}_{d.title}",
            key=f"dep:{d.analysis.name}",
            note=d.note,
        )
        for d, lay in zip(drawings, layouts, strict=True)
    ]
    groups = list(dict.fromkeys(d.group for d in drawings))
    if not view.side_by_side or len(groups) == 1:
        stacked_figures(figures)
        return
    for col, group in zip(st.columns(len(groups)), groups, strict=True):
        with col:
            st.markdown(f"#### {md_escape(group)}")
            for d, fig in zip(drawings, figures, strict=True):
                if d.group != group:
                    continue
                st.markdown(f"**{md_escape(d.title)}** — {md_escape(d.note)}")
                if d.analysis.spec.note and d.analysis.spec.role == "parse":
                    st.caption(md_escape(d.analysis.spec.note))
                svg_figure(fig.svg, dot=fig.dot, stem=fig.stem, key=fig.key)


def panel_scores(view: View) -> None:
    """Score strip: this sentence's UAS, LAS, undirected and NED for every parse that has a gold."""
    rows: list[dict[str, object]] = []
    for p in view.loaded.dep("parse"):
        gold = view.loaded.gold_of(p)
        if gold is None:
            continue
        g, s = view.dep_tree(gold), view.dep_tree(p)
        if _comparable(g, s) is not None or g.structure_problem() or s.structure_problem():
            continue
        sc = score(sentence_counts(g, s, view.config), view.config)
        rows.append(
            {
                "parse": p.name,
                "gold": gold.name,
                "UAS": round(sc.uas, 4),
                "LAS": round(sc.las, 4),
                "undirected": round(sc.undirected, 4),
                "NED": round(sc.ned, 4),
                "tokens": sc.tokens,
            }
        )
    if not rows:
        return
    st.subheader("Scores for this sentence")
    for row in rows:
        strip = " · ".join(
            f"{name} **{row[name]:.4f}**"
            for name in ("UAS", "LAS", "undirected", "NED")
            if isinstance(row[name], float)
        )
        st.markdown(
            f"{strip} · {row['tokens']} tokens — *{md_escape(str(row['parse']))}* against "
            f"*{md_escape(str(row['gold']))}*"
        )
    st.caption(
        "Punctuation "
        + ("counted" if view.count_punct else "left out (decided on the gold token)")
        + ". U-TED and L-TED join this strip when TedEval is available."
    )
    download_table(pd.DataFrame(rows), stem=f"{view.sentence.sent_id}_scores", key="sentence-scores")


def panel_constituency(view: View) -> None:
    """Constituency datasets: the gold tree and each parse of the sentence (Graphviz)."""
    analyses = view.loaded.ptb()
    if not analyses:
        return
    st.subheader("Constituency trees")
    st.caption("Bracket scores (PARSEVAL, FREVAL) for these trees appear with the FREVAL page.")
    holders = (
        st.columns(len(analyses))
        if view.side_by_side and len(analyses) > 1
        else [st.container() for _ in analyses]
    )
    for holder, a in zip(holders, analyses, strict=True):
        with holder:
            st.markdown(f"**{md_escape(a.name)}** ({a.spec.role})")
            if a.spec.note:
                st.caption(md_escape(a.spec.note))
            tree = a.ptb_trees[view.sentence.index]
            if tree is None:
                st.info("No tree on this line (evalb counts it as a skipped sentence).")
                continue
            graphviz_figure(tree_to_dot(tree), stem=f"{view.sentence.sent_id}_{a.name}", key=f"ptb:{a.name}")


def panel_tedeval(view: View) -> None:
    """Placeholder for the TedEval panel (function trees, generalized gold, edit script).

    To be implemented with evalcore.conversion / generalization / metrics.tedeval:
    draw each tree with ``evalcore.render.dot.tree_to_dot(tree, styles=..., labels=...)``
    (styles: "deleted", "inserted", "relabeled", "discounted", "counted") through
    ``workbench.widgets.graphviz_figure``, and add U-TED / L-TED to :func:`panel_scores`.
    """
    st.subheader("Function trees and edit script (TedEval)")
    st.info(
        "This panel appears when TedEval is available: each scheme's function tree, the generalized gold "
        "and the edit script, with the operations that are discounted marked. (Not implemented yet.)"
    )


def panel_lattice(view: View) -> None:
    """Placeholder for lattice datasets (drawn with ``evalcore.render.dot.lattice_to_dot``)."""
    if not any(a.spec.role in ("lattice", "path") for a in view.loaded.extras):
        return
    st.subheader("Lattice (joint segmentation and parsing)")
    st.info(
        "This dataset also has a morphological lattice and a predicted path; they are drawn, right to left, "
        "with the gold and predicted paths, when TedEval over lattices is available. (Not implemented yet.)"
    )


# ---------------------------------------------------------------------------


def main() -> None:
    st.set_page_config(page_title="evalcore — sentence inspector", layout="wide")
    st.title("Sentence inspector")
    loaded = choose_dataset()
    if loaded is None:
        return
    with st.sidebar:
        count_punct = (
            st.toggle(
                "Count punctuation",
                value=True,
                key="wb_punct",
                help="Punctuation is decided on the gold token.",
            )
            if loaded.dep()
            else True
        )
        side_by_side = st.toggle(
            "Schemes side by side",
            value=True,
            key="wb_side",
            help="Off: all drawings stacked in one box that scrolls sideways as a whole.",
        )
    pair = loaded.default_pair()

    def worst() -> dict[int, float]:
        if pair is None:
            return {}
        result = corpus_attach(pair[0], pair[1], AttachConfig(no_punct=not count_punct))
        return {i: (c.las / c.tokens if c.tokens else 1.0) for i, c in result.by_index().items()}

    worst_label = f"worst LAS first ({pair[1].name})" if pair else "worst first"
    try:
        sentence = sentence_picker(loaded, worst=worst if pair else None, worst_label=worst_label)
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    st.markdown(f"**{md_escape(sentence.sent_id)}** — {md_escape(sentence.text)}")
    view = View(loaded, sentence, count_punct, side_by_side)
    panel_scores(view)
    panel_dependency_trees(view)
    panel_constituency(view)
    panel_lattice(view)
    panel_tedeval(view)


main()
