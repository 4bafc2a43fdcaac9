"""The sentence inspector (the workbench's home page, routed by ``app.py``).

Every number shown is computed by ``evalcore``; each panel is one function
taking a :class:`View` (dataset, sentence, display options), so a panel is
added as one more function and one more call in :func:`inspector_page`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import pandas as pd
import streamlit as st

from evalcore.conversion import ConversionConfig
from evalcore.errors import EvalcoreError
from evalcore.inspection import SentenceAttachment, sentence_attachment
from evalcore.metrics.attachment import AttachConfig, is_punct
from evalcore.render.dot import dep_to_dot, tree_to_dot
from evalcore.render.layout import ArcVerdict, DepLayout, WordGrid, layout_dep, merge_grids, word_grid
from evalcore.render.svg import dep_svg
from evalcore.trees import DepTree, SpanTree
from workbench.cache import corpus_attach
from workbench.datasets import Analysis, LoadedDataset, SentenceInfo
from workbench.tedeval import (
    TedSentence,
    general_name,
    guess_function_separators,
    own_gold,
    scheme_of,
    sentence_tedeval,
)
from workbench.tedeval_view import (
    ExperimentSettings,
    corpus_experiment,
    edit_script_panel,
    function_tree_figure,
)
from workbench.widgets import (
    Figure,
    choose_dataset,
    download_table,
    drawing_size_control,
    graphviz_figure,
    md_escape,
    sentence_picker,
    stacked_figures,
)


@dataclass(frozen=True)
class View:
    """Everything a panel needs: the dataset, the sentence and the display options."""

    loaded: LoadedDataset
    sentence: SentenceInfo
    count_punct: bool
    side_by_side: bool
    protocol: str = "2012"  # TedEval protocol (SPEC §4 / §5)
    labeled: bool = True  # the edit script drawn: labeled (L-TED) or unlabeled (U-TED)
    script_single: bool = False  # the edit script to the single gold instead of the generalization
    function_sep: str = "-="  # separators of function tags in bracketed labels (SPEC §5.1)

    @property
    def config(self) -> AttachConfig:
        return AttachConfig(no_punct=not self.count_punct)

    @cached_property
    def ted(self) -> TedSentence:
        """This sentence's TedEval report (function trees, generalized gold, scripts), computed once."""
        conv = ConversionConfig(protocol=self.protocol, function_separators=self.function_sep)  # type: ignore[arg-type]
        return sentence_tedeval(self.loaded, self.sentence.index, conv)

    def dep_tree(self, analysis: Analysis) -> DepTree:
        return analysis.dep_trees[self.sentence.index]

    def attachment(self, gold: Analysis, parse: Analysis) -> SentenceAttachment:
        """``parse`` against ``gold`` on this sentence (evalcore.inspection.sentence_attachment)."""
        return sentence_attachment(self.dep_tree(gold), self.dep_tree(parse), self.config)


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
    gold: DepTree | None  # compared against this gold (same words)
    verdicts: tuple[ArcVerdict, ...] | None  # the arcs' verdicts against ``gold``
    title: str
    note: str
    warning: str = ""


def dependency_drawings(view: View) -> list[DepDrawing]:
    """Each gold tree, then the parses scored against it; parses without a gold last."""
    out: list[DepDrawing] = []
    for scheme, gold, parses in _groups(view.loaded):
        gold_tree = view.dep_tree(gold) if gold is not None else None
        if gold is not None and gold_tree is not None:
            out.append(DepDrawing(scheme, gold, gold_tree, None, None, gold.name, "gold"))
        for p in parses:
            tree = view.dep_tree(p)
            att = view.attachment(gold, p) if gold is not None else None
            why = att.mismatch if att is not None else None
            compared = att is not None and why is None
            out.append(
                DepDrawing(
                    scheme,
                    p,
                    tree,
                    gold_tree if compared else None,
                    att.verdicts if att is not None and compared else None,
                    p.name,
                    f"compared with {gold.name}" if gold is not None and compared else "not compared",
                    warning=f"{p.name}: not compared with {gold.name}: {why}" if why and gold else "",
                )
            )
    return out


def _layouts(view: View, drawings: list[DepDrawing]) -> list[DepLayout]:
    """Lay out every drawing, then again on a shared grid so the same word has the same x in every
    drawing of a box: all of them when stacked, each scheme's when side by side (one box per scheme,
    so a scheme's long labels do not widen the other's drawings)."""

    def lay(d: DepDrawing, grid: WordGrid | None) -> DepLayout:
        dim_source = d.gold if d.gold is not None else d.tree
        dim = [] if view.count_punct else _punct_ids(dim_source)
        return layout_dep(d.tree, d.verdicts, dimmed=dim, grid=grid)

    first = [lay(d, None) for d in drawings]
    box = [d.group if view.side_by_side else "" for d in drawings]
    grids = {
        b: merge_grids([word_grid(x) for x, c in zip(first, box, strict=True) if c == b]) for b in set(box)
    }
    return [
        lay(d, grids[b]) if grids[b] is not None else x for d, x, b in zip(drawings, first, box, strict=True)
    ]


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
            # one box per scheme: its gold and the parses against it on one scale (words aligned)
            stacked_figures([fig for d, fig in zip(drawings, figures, strict=True) if d.group == group])
            notes = [
                f"{md_escape(d.title)}: {md_escape(d.analysis.spec.note)}"
                for d in drawings
                if d.group == group and d.analysis.spec.note and d.analysis.spec.role == "parse"
            ]
            if notes:
                st.caption("  \n".join(notes))


TED_COLUMNS = ("U-TED single", "L-TED single", "U-TED multiple", "L-TED multiple")


def _ted_fields(view: View, parse: Analysis) -> dict[str, object]:
    """This sentence's TedEval scores of ``parse``: SINGLE (against the gold it is scored with, no
    discount) and MULTIPLE (against the generalized gold, discounted with its own gold)."""
    pv = view.ted.view(parse.name)
    tp = view.ted.parse(parse.name)
    if pv is None or tp is None:
        return {}
    return {
        "U-TED single": round(pv.single[0].score, 4),
        "L-TED single": round(pv.single[1].score, 4),
        "U-TED multiple": round(pv.multiple[0].score, 4),
        "L-TED multiple": round(pv.multiple[1].score, 4),
        "generalization": view.ted.general,
        "own gold": tp.own.name,
    }


def _ted_strip(view: View, row: dict[str, object]) -> str:
    if "L-TED single" not in row:
        return ""
    one = len(view.ted.schemes) == 1
    single = f"U-TED **{row['U-TED single']:.4f}** · L-TED **{row['L-TED single']:.4f}**"
    multiple = f"U-TED **{row['U-TED multiple']:.4f}** · L-TED **{row['L-TED multiple']:.4f}**"
    if one:
        return f"TedEval ({view.protocol}): {single}"
    return (
        f"TedEval ({view.protocol}) single: {single} — multiple, against "
        f"*{md_escape(str(row['generalization']))}* (discounted with *{md_escape(str(row['own gold']))}*): "
        f"{multiple}"
    )


def panel_scores(view: View) -> None:
    """Score strip: this sentence's UAS, LAS, undirected and NED for every parse that has a gold,
    and its TedEval scores (U-TED, L-TED; single gold and generalized gold)."""
    rows: list[dict[str, object]] = []
    for p in view.loaded.dep("parse"):
        gold = view.loaded.gold_of(p)
        if gold is None:
            continue
        att = view.attachment(gold, p)
        if not att.scored or att.score is None:
            continue
        sc = att.score
        rows.append(
            {
                "parse": p.name,
                "gold": gold.name,
                "UAS": round(sc.uas, 4),
                "LAS": round(sc.las, 4),
                "undirected": round(sc.undirected, 4),
                "NED": round(sc.ned, 4),
                "tokens": sc.tokens,
                **_ted_fields(view, p),
            }
        )
    for p in view.loaded.ptb("parse"):  # constituency parses: TedEval only
        gold = view.loaded.gold_of(p)
        fields = _ted_fields(view, p)
        if gold is not None and fields:
            rows.append({"parse": p.name, "gold": gold.name, **fields})
    if not rows:
        return
    st.subheader("Scores for this sentence")
    for row in rows:
        strip = " · ".join(
            f"{name} **{row[name]:.4f}**"
            for name in ("UAS", "LAS", "undirected", "NED")
            if isinstance(row.get(name), float)
        )
        tokens = f" · {row['tokens']} tokens" if "tokens" in row else ""
        ted = _ted_strip(view, row)
        who = f"*{md_escape(str(row['parse']))}* against *{md_escape(str(row['gold']))}*"
        head = f"{strip}{tokens} — {who}" if strip else who
        st.markdown(head + (f"  \n{ted}" if ted else ""))
    st.caption(
        "Punctuation "
        + ("counted" if view.count_punct else "left out (decided on the gold token)")
        + " in UAS, LAS, undirected and NED; TedEval counts every node. TedEval *single*: against the "
        "gold the parse is scored with, nothing discounted; *multiple*: against the generalized gold of "
        "all the schemes, with what the parse shares with its own gold's script discounted (SPEC §4.3)."
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
    """Each scheme's gold function tree, the generalized gold, and per parse its function tree and
    the edit script to the generalized gold (or its single gold), every operation marked counted or
    discounted on the drawings and listed in a table beside them (SPEC §4.3, §5.3)."""
    st.subheader("Function trees and edit script (TedEval)")
    ted = view.ted
    for note in ted.notes:
        st.warning(note)
    report = ted.report
    if report is None:
        if ted.notes:
            st.info("No TedEval for this sentence: it needs at least one usable gold tree (see above).")
        else:
            st.info("This dataset has no gold tree: TedEval compares parses with a gold.")
        return
    sid = view.sentence.sent_id
    protocol = (
        "2012 (EACL 2012): multi-function trees, heads labeled `hd`, label sets"
        if view.protocol == "2012"
        else "2011 (EMNLP 2011): function trees, heads labeled `*` (equal to any label)"
    )
    st.caption(
        f"Protocol {protocol}. Each word with dependents becomes a node labeled with its relation; nodes "
        "are identified by the words they span (positions in grey). The generalized gold keeps what all "
        "the schemes' golds agree on."
    )
    schemes = [s for s, _ in ted.schemes]
    figures: list[tuple[str, SpanTree]] = [(f"gold {s} ({a.name})", report.gold(s)) for s, a in ted.schemes]
    if len(schemes) > 1:
        figures.append((f"generalized gold {ted.general}", report.general))
    for title, tree in figures:
        function_tree_figure(tree, title=title, stem=f"{sid}_{title}", key=f"ftree:{title}")
    if len(schemes) == 1:
        st.caption(
            "One scheme only: the generalized gold is that gold itself, and nothing is discounted "
            "(add the gold of another scheme to see discounting)."
        )
    if not report.parses:
        st.info("No parse with a gold in this dataset: there is no edit script to show.")
        return
    target = (
        "its single gold (SINGLE, no discount)"
        if view.script_single
        else f"the generalized gold {ted.general}"
    )
    kind = "labeled" if view.labeled else "unlabeled"
    st.markdown(f"**Edit script** ({kind}) turning each parse into {md_escape(target)}:")
    tabs = st.tabs([v.name for v in report.parses])
    for tab, pv in zip(tabs, report.parses, strict=True):
        with tab:
            edit_script_panel(
                report,
                pv,
                labeled=view.labeled,
                single=view.script_single,
                general_name=ted.general,
                stem=sid,
                key=f"ted:{pv.name}",
            )


def panel_lattice(view: View) -> None:
    """Lattice datasets: the lattice, its paths, SEGEVAL and TedEval live on the Lattice page."""
    if not any(a.spec.role in ("lattice", "path") for a in view.loaded.extras):
        return
    st.subheader("Lattice (joint segmentation and parsing)")
    st.page_link(
        "pages/3_Lattice.py",
        label="This dataset has a morphological lattice: open the Lattice page to see it drawn right to left "
        "with the gold and predicted paths, the trees over it, SEGEVAL and TedEval.",
        icon="➡️",
    )


# ---------------------------------------------------------------------------


def _lted_ranking(
    loaded: LoadedDataset, parse: Analysis | None, protocol: str
) -> tuple[str, Callable[[], dict[int, float]]] | None:
    """The picker's "worst L-TED first": per sentence, the parse's L-TED against the generalized
    gold of all the schemes (its own gold alone if there is one scheme), from the cross-scheme
    experiment of evalcore (cached; no significance tests).  ``None`` without a parse."""
    if parse is None:
        return None
    own = own_gold(loaded, parse)
    golds = [scheme_of(g) for g in loaded.dep("gold")]
    if own is None or not golds:
        return None
    against = general_name(golds) if len(golds) > 1 else scheme_of(own)

    def scores() -> dict[int, float]:
        settings = ExperimentSettings(protocol=protocol, shuffles=0, skip_mismatched=True)
        try:
            result = corpus_experiment(loaded, settings, label="Ranking sentences by L-TED")
        except EvalcoreError as exc:
            st.error(str(exc))
            return {}
        return result.sentence_scores(against, "L-TED", parse.name)

    return f"worst L-TED first ({parse.name}, against {against})", scores


def inspector_page() -> None:
    """The home page: the sentence inspector (routed by ``app.py``)."""
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
            help="Off: all drawings stacked in one box, on one scale (the same word at the same place).",
        )
        drawing_size_control()
        st.markdown("**TedEval**")
        protocol = st.radio(
            "Protocol",
            ["2012", "2011"],
            key="wb_protocol",
            horizontal=True,
            help="2012 (EACL 2012, default): multi-function trees, any trees. 2011 (EMNLP 2011): function "
            "trees with * heads, dependency trees only.",
        )
        labeled = st.toggle(
            "Labeled edit script", value=True, key="wb_labeled", help="Off: the unlabeled script (U-TED)."
        )
        script_single = (
            st.radio(
                "Edit script to",
                ["generalized gold", "single gold"],
                key="wb_script",
                help="The generalized gold (TEDEVAL MULTIPLE, with discounting) or the gold the parse is "
                "scored with (SINGLE, nothing discounted).",
            )
            == "single gold"
        )
        function_sep = "-="
        if loaded.ptb():
            guess = guess_function_separators(loaded)
            function_sep = (
                st.text_input(
                    "Function-tag separators",
                    value=guess,
                    key=f"wb_funcsep:{loaded.spec.key}",
                    help="Bracketed trees: the function tags follow the category after one of these "
                    "characters (PTB: NP-SBJ, '-='; FarPaHC: NP*SBJ, '-=*'), as --function-sep.",
                )
                or guess
            )
    pair = loaded.default_pair()

    def worst() -> dict[int, float]:
        if pair is None:
            return {}
        result = corpus_attach(pair[0], pair[1], AttachConfig(no_punct=not count_punct))
        return {i: (c.las / c.tokens if c.tokens else 1.0) for i, c in result.by_index().items()}

    worst_label = f"worst LAS first ({pair[1].name})" if pair else "worst first"
    orders = []
    ranked = _lted_ranking(loaded, pair[1] if pair else None, protocol)
    if ranked is not None:
        orders.append(ranked)
    try:
        sentence = sentence_picker(
            loaded, worst=worst if pair else None, worst_label=worst_label, orders=orders
        )
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    st.markdown(f"**{md_escape(sentence.sent_id)}** — {md_escape(sentence.text)}")
    view = View(loaded, sentence, count_punct, side_by_side, protocol, labeled, script_single, function_sep)
    panel_scores(view)
    panel_dependency_trees(view)
    panel_constituency(view)
    panel_lattice(view)
    panel_tedeval(view)
