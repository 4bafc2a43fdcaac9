"""The sentence inspector (the workbench's home page, routed by ``app.py``; docs/app.md, "Sentence
inspector").

Every number shown is computed by ``evalcore``; each panel is one function taking a :class:`View`
(dataset, sentence, display options), so a panel is added as one more function and one more call in
:func:`sentence_view` (docs/app.md, "For developers: adding panels").  The sidebar's settings rerun
the page, choosing a sentence reruns only :func:`sentence_view` (an ``st.fragment``; docs/app.md,
"Speed"); every setting that changes what is shown is in the URL (docs/app.md, "Links").
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import NoReturn

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.navigation.page import StreamlitPage

from evalcore.choices import PROTOCOL_2012
from evalcore.conversion import ConversionConfig, LabelMap, SchemeLabelMaps
from evalcore.errors import EvalcoreError, PatternError
from evalcore.families.attach import AttachSettings, attach_config
from evalcore.families.tedeval import TedevalSettings, conversion_config
from evalcore.inspection import (
    OperationFilter,
    ParseView,
    SentenceAttachment,
    label_matches,
    neutralized_relabels,
    sentence_attachment,
    span_words,
)
from evalcore.metrics.attachment import AttachConfig, is_punct
from evalcore.metrics.conll18 import score as score_conll18
from evalcore.metrics.rawtext import RawOp
from evalcore.patterns import found, where
from evalcore.render.dot import dep_to_dot, tree_to_dot
from evalcore.render.edits import marked_tree_dot
from evalcore.render.layout import DepLayout, WordGrid, layout_dep, merge_grids, word_grid
from evalcore.render.svg import dep_svg
from evalcore.trees import ArcVerdict, DepTree, SpanTree
from workbench.aligned_view import aligned_panels, aligned_sentence, aligned_worst_order
from workbench.atlas_links import highlight_flags, parse_group
from workbench.cache import app_limits, cached, conll18_scores, corpus_attach
from workbench.datasets import Analysis, LoadedDataset, SentenceInfo
from workbench.handoff import offer_lattice_page
from workbench.labelmaps import LABELMAP_SLOT, maps_with, parse_choice, scheme_maps
from workbench.links import (
    OP_KINDS,
    OP_STATUSES,
    current_link,
    followed,
    report_link_problem,
    widget_value,
    write_link,
)
from workbench.rawtext_view import BlockChoice, block_panel, block_strip, raw_block_ops, raw_block_scores
from workbench.settings_form import Field, bind, settings_form
from workbench.svghost import show_html
from workbench.tedeval import (
    ParseTeds,
    TedParse,
    TedSentence,
    general_name,
    guess_function_separators,
    parse_choices,
    scheme_of,
    tree_golds,
)
from workbench.tedeval_view import TREE_SCALE, corpus_scripts, edit_script_panel, sentence_report
from workbench.units import MAX_REQUEST, LinkedUnit, linked_unit, unit_flags, unit_words
from workbench.uploads import UPLOAD_KEY, slot_files
from workbench.widgets import (
    Figure,
    Ordering,
    choose_dataset,
    download_table,
    drawing_size_control,
    graphviz_figure,
    lazy_expander,
    md_escape,
    prerender,
    sentence_picker,
    stacked_figures,
)

TARGET_LABELS = {"general": "generalized gold", "single": "single gold"}
KIND_LABELS = {"": "any kind", **dict(zip(OP_KINDS, ("insertion", "deletion", "relabeling"), strict=True))}
STATUS_LABELS = {"": "counted or discounted", **{s: s for s in OP_STATUSES}}


@dataclass(frozen=True)
class Settings:
    """The sidebar's choices: what changes the numbers and drawings of every sentence."""

    count_punct: bool = True
    side_by_side: bool = True
    # TedEval's protocol and separators of function tags, as declared (docs/tedeval.md, "Definitions")
    ted: TedevalSettings = field(default_factory=TedevalSettings)
    labeled: bool = True  # the edit script drawn: labeled (L-TED) or unlabeled (U-TED)
    script_single: bool = False  # the edit script to the single gold instead of the generalization
    parse: str = ""  # the parse whose edit script is drawn (a TedParse name; "" = none)
    label_maps: SchemeLabelMaps = field(default_factory=SchemeLabelMaps)  # chosen on the cross-scheme page

    @property
    def conversion(self) -> ConversionConfig:
        return conversion_config(self.ted, label_maps=(LabelMap(), self.label_maps))


@dataclass(frozen=True)
class View:
    """Everything a panel needs: the dataset, the sentence and the display options."""

    loaded: LoadedDataset
    sentence: SentenceInfo
    settings: Settings
    choices: tuple[TedParse, ...] = ()  # every parse (and gold read as a parse) of the dataset
    unit: LinkedUnit | None = None  # the construction of the link's unit= (words boxed, operations ◆)

    def config(self, gold: Analysis) -> AttachConfig:
        """The attachment settings of the inspector on ``gold`` (its format decides the labels)."""
        return attach_config(AttachSettings(no_punct=not self.settings.count_punct), gold.dialect)

    @property
    def chosen(self) -> TedParse | None:
        """The parse whose edit script is drawn."""
        return next((c for c in self.choices if c.name == self.settings.parse), None)

    @cached_property
    def ted(self) -> TedSentence:
        """This sentence's TedEval report (function trees, generalized gold, scripts of every parse
        and of the chosen gold read as a parse), kept for every session."""
        chosen = self.chosen
        parses = [c for c in self.choices if not c.on_demand and not c.raw]
        if chosen is not None and chosen.on_demand and not chosen.raw:
            parses.append(chosen)
        return sentence_report(self.loaded, self.sentence.index, self.settings.conversion, parses)

    def dep_tree(self, analysis: Analysis) -> DepTree:
        return analysis.dep_trees[self.sentence.index]

    def attachment(self, gold: Analysis, parse: Analysis) -> SentenceAttachment:
        """``parse`` against ``gold`` on this sentence (evalcore.inspection.sentence_attachment)."""
        return sentence_attachment(self.dep_tree(gold), self.dep_tree(parse), self.config(gold))


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
    raw = {a.analysis.name for a in view.loaded.aligned}  # parses of the raw text: aligned below
    for scheme, gold, parses in _groups(view.loaded):
        gold_tree = view.dep_tree(gold) if gold is not None else None
        if gold is not None and gold_tree is not None:
            out.append(DepDrawing(scheme, gold, gold_tree, None, None, gold.name, "gold"))
        for p in parses:
            tree = view.dep_tree(p)
            att = view.attachment(gold, p) if gold is not None else None
            why = att.mismatch if att is not None else None
            compared = att is not None and why is None
            if compared or gold is None:
                note = f"compared with {gold.name}" if gold is not None else "not compared"
            elif p.name in raw:  # its words are not the gold's: compared by characters, below
                note, why = f"a parse of the raw text: aligned with {gold.name} by characters below", None
            else:
                note = "not compared"
            out.append(
                DepDrawing(
                    scheme,
                    p,
                    tree,
                    gold_tree if compared else None,
                    att.verdicts if att is not None and compared else None,
                    p.name,
                    note,
                    warning=f"{p.name}: not compared with {gold.name}: {why}" if why and gold else "",
                )
            )
    return out


def _layouts(view: View, drawings: list[DepDrawing]) -> list[DepLayout]:
    """Lay out every drawing, then again on a shared grid so the same word has the same x in every
    drawing of a box: all of them when stacked, each scheme's when side by side (one box per scheme,
    so a scheme's long labels do not widen the other's drawings)."""

    schemes = {scheme_of(g) for g in tree_golds(view.loaded)}

    def lay(d: DepDrawing, grid: WordGrid | None) -> DepLayout:
        dim_source = d.gold if d.gold is not None else d.tree
        dim = [] if view.settings.count_punct else [t.id for t in dim_source.tokens if is_punct(t)]
        lit: frozenset[int] = frozenset()
        if view.unit is not None and d.group in schemes:  # d.group: the scheme of the drawing's gold
            lit = unit_words(view.unit.coverage, view.unit.ref.name, d.tree, d.group)
        return layout_dep(d.tree, d.verdicts, dimmed=dim, grid=grid, highlighted=lit)

    first = [lay(d, None) for d in drawings]
    box = [d.group if view.settings.side_by_side else "" for d in drawings]
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
        + ("" if view.settings.count_punct else "Faded: punctuation, left out of the counts.")
        + (
            " Boxed in yellow: the words of the construction "
            f"**{md_escape(view.unit.describe(_schemes(view)))}** (docs/patterns.md)."
            if view.unit is not None
            else ""
        )
    )
    for d in drawings:
        if d.warning:
            st.warning(d.warning)
    if view.loaded.spec.key == UPLOAD_KEY and any(d.warning for d in drawings):
        # a parse of raw text (other words than its gold): the Lattice page scores it
        offer_lattice_page()
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
    if not view.settings.side_by_side or len(groups) == 1:
        stacked_figures(figures)
    else:
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
    for parse in view.loaded.aligned:  # a parse of the raw text: its words under the gold's
        st.markdown(f"#### {md_escape(parse.name)}, aligned by characters with {md_escape(parse.gold.name)}")
        aligned_sentence(parse.gold, parse.analysis, view.sentence.index, sid, f"dep-aligned:{parse.name}")


def _ted_fields(view: View, name: str) -> dict[str, object]:
    """This sentence's TedEval scores of the parse ``name``: SINGLE (against the gold it is scored
    with, no discount) and MULTIPLE (against the generalized gold, discounted with its own gold)."""
    pv = view.ted.view(name)
    tp = view.ted.parse(name)
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
        return f"TedEval ({view.settings.ted.protocol}): {single}"
    return (
        f"TedEval ({view.settings.ted.protocol}) single: {single} — multiple, against "
        f"*{md_escape(str(row['generalization']))}* (discounted with *{md_escape(str(row['own gold']))}*): "
        f"{multiple}"
    )


def _attach_fields(view: View, gold: Analysis, parse: Analysis) -> dict[str, object]:
    """This sentence's attachment scores of ``parse`` against ``gold`` (none when not scored)."""
    att = view.attachment(gold, parse)
    sc = att.score
    if not att.scored or sc is None:
        return {}
    names = ("UAS", "LAS", "undirected", "NED")
    return {**{n: round(getattr(sc, n.lower()), 4) for n in names}, "tokens": sc.tokens}


def aligned_strip(view: View) -> None:
    """This gold sentence's share of each parse of the raw text: F1 of UAS and LAS over the gold
    words of the sentence and the system words that start in it (evaluate_conll18's counts)."""
    for parse in view.loaded.aligned:
        try:
            counts = conll18_scores(parse.gold, parse.analysis).sentences[view.sentence.index]
        except EvalcoreError:
            continue  # said above the sentence view (aligned_panels)
        f1 = {r.metric: r.f1 for r in score_conll18(counts)}
        choice = next((c for c in view.choices if c.raw and c.name == parse.name), None)
        ted = (
            block_strip(view.loaded, choice, view.sentence.index, view.settings.conversion) if choice else ""
        )
        st.markdown(
            f"UAS F1 **{100 * f1['UAS']:.2f}** · LAS F1 **{100 * f1['LAS']:.2f}** · "
            f"{counts.words_gold} gold words, {counts.words_system} system words — "
            f"*{md_escape(parse.name)}* against *{md_escape(parse.gold.name)}* (a parse of the raw "
            "text, aligned by characters)" + (f"  \n{ted}" if ted else "")
        )


def panel_scores(view: View) -> None:
    """Score strip: this sentence's UAS, LAS, undirected and NED for every parse that has a gold,
    and its TedEval scores (U-TED, L-TED; single gold and generalized gold)."""
    aligned_strip(view)
    rows: list[dict[str, object]] = []
    for p in view.loaded.dep("parse"):
        gold = view.loaded.gold_of(p)
        attach = _attach_fields(view, gold, p) if gold is not None else {}
        if gold is not None and attach:
            rows.append({"parse": p.name, "gold": gold.name, **attach, **_ted_fields(view, p.name)})
    for p in view.loaded.ptb("parse"):  # constituency parses: TedEval only
        gold = view.loaded.gold_of(p)
        fields = _ted_fields(view, p.name)
        if gold is not None and fields:
            rows.append({"parse": p.name, "gold": gold.name, **fields})
    chosen = view.chosen
    if chosen is not None and chosen.gold_as_parse:  # a gold read as a parse of another gold
        row: dict[str, object] = {"parse": chosen.analysis.name, "gold": chosen.single.name}
        if chosen.analysis.spec.fmt == "conllu" and chosen.single.spec.fmt == "conllu":
            row |= _attach_fields(view, chosen.single, chosen.analysis)
        fields = _ted_fields(view, chosen.name)
        if len(row) > 2 or fields:
            rows.append(row | fields)
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
        + ("counted" if view.settings.count_punct else "left out (decided on the gold token)")
        + " in UAS, LAS, undirected and NED; TedEval counts every node. TedEval *single*: against the "
        "gold the parse is scored with, nothing discounted; *multiple*: against the generalized gold of "
        "all the schemes, with what the parse shares with its own gold's script discounted "
        "(docs/tedeval.md, 'Edit scripts, discount and score')."
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
        if view.settings.side_by_side and len(analyses) > 1
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
    """Each scheme's gold function tree, the generalized gold, and the chosen parse's (or gold's)
    function tree and edit script to the generalized gold (or its single gold), every operation
    marked counted or discounted on the drawings and listed in a table under them (docs/tedeval.md, "Edit
    scripts, discount and score")."""
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
        if view.settings.ted.protocol == PROTOCOL_2012
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
    dots = [marked_tree_dot(tree, (), side="parse", title=title) for title, tree in figures]
    prerender(dots)  # one run of dot for the golds and the generalization
    for (title, _), dot in zip(figures, dots, strict=True):
        graphviz_figure(dot, stem=f"{sid}_{title}", key=f"ftree:{title}", scale=TREE_SCALE)
    if len(schemes) == 1:
        st.caption(
            "One scheme only: the generalized gold is that gold itself, and nothing is discounted "
            "(add the gold of another scheme to see discounting)."
        )
    chosen = view.chosen
    if chosen is None:
        st.info("No parse with a gold in this dataset: there is no edit script to show.")
        return
    if chosen.raw:  # a parse of the raw text: the script of the sentence's block
        ask = BlockChoice(view.settings.script_single, view.settings.labeled, view.settings.conversion)
        block_panel(
            view.loaded, chosen, view.sentence.index, ask, protocol=view.settings.ted.protocol, stem=sid
        )
        return
    pv = ted.view(chosen.name)
    if pv is None:
        st.info(f"No edit script of {md_escape(chosen.name)} for this sentence (see above).")
        return
    target = (
        f"its single gold {chosen.single.name} (SINGLE, no discount)"
        if view.settings.script_single
        else f"the generalized gold {ted.general}"
    )
    kind = "labeled" if view.settings.labeled else "unlabeled"
    scroll_on_arrival(view)
    st.markdown(
        f"**Edit script** ({kind}) turning *{md_escape(chosen.name)}* into {md_escape(target)} "
        "(choose the parse in the sidebar):"
    )
    if chosen.gold_as_parse:
        st.caption(
            f"A gold read as a parse: against {md_escape(chosen.single.name)} (single gold), the script is "
            "every disagreement of the two golds; against the generalized gold it is discounted with "
            f"{md_escape(chosen.analysis.name)} itself, so TedEval forgives all of it "
            "(docs/tedeval.md, 'Edit scripts, discount and score')."
        )
    edit_script_panel(
        report,
        pv,
        labeled=view.settings.labeled,
        single=view.settings.script_single,
        general_name=ted.general,
        stem=sid,
        key=f"ted:{pv.name}",
        highlighted=unit_highlight(view, chosen, pv)
        if view.unit is not None
        else group_highlight(view, chosen, pv),
    )
    if view.settings.label_maps.maps:
        neutralized_panel(view, chosen, pv)


def neutralized_panel(view: View, chosen: TedParse, pv: ParseView) -> None:
    """The relabels against the parse's single gold that the per-scheme label maps neutralized, each
    with the map entry that did it (docs/tedeval.md, "Per-scheme label maps")."""
    index = view.sentence.index
    parse_tree, gold_tree = chosen.analysis.trees[index], chosen.single.trees[index]
    if parse_tree is None or gold_tree is None:
        return
    found = neutralized_relabels(
        parse_tree, pv.scheme, gold_tree, pv.single_scheme or pv.scheme, view.settings.conversion
    )
    words = view.ted.words
    st.markdown(
        f"**Relabels the label maps neutralized** (*{md_escape(chosen.name)}* against its single gold "
        f"*{md_escape(chosen.single.name)}*):"
    )
    if not found:
        st.caption("None on this sentence.")
        return
    rows = [
        {
            "words": f"{{{','.join(str(i + 1) for i in sorted(n.span))}}} {span_words(n.span, words)}",
            "parse label": n.parse_label,
            "gold label": n.gold_label,
            "map entry": "; ".join(f"{scheme}: {old}={new}" for scheme, old, new in n.entries),
        }
        for n in found
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def open_inspector(query: Mapping[str, str]) -> NoReturn:
    """The inspector in this session (this tab: the uploads stay) at ``query``, e.g. a sentence of an
    atlas group (:func:`workbench.atlas_links.inspector_query`): it scrolls to the edit script."""
    st.switch_page(home(), query_params={**query})


SCROLLED = "wb_scrolled_to_script"  # the (sentence, group) the page last scrolled to the edit script for


def scroll_on_arrival(view: View) -> None:
    """Opened with an atlas group (``group=``, from the Atlas page or a copied link) at a sentence it
    has not scrolled for yet: the page scrolls to the edit script, where the group is highlighted;
    later reruns of the same view leave the scrolling to the user."""
    link = current_link()
    group = link.text("group") or link.text("unit")
    arrival = (view.sentence.sent_id, group)
    if group is None or st.session_state.get(SCROLLED) == arrival:
        return
    st.session_state[SCROLLED] = arrival
    show_html("", key="edit-script-anchor", scroll=True)


def _schemes(view: View) -> tuple[str, ...]:
    return tuple(scheme_of(g) for g in tree_golds(view.loaded))


def view_unit(loaded: LoadedDataset) -> LinkedUnit | None:
    """The construction of the link's ``unit=`` (from the Atlas page's constructions or a copied
    link), or ``None``; a value it cannot use is said in the sidebar."""
    link = current_link()
    text = link.text("unit")
    if text is None:
        return None
    got = linked_unit(text, link.text("pattern") or "", tuple(scheme_of(g) for g in tree_golds(loaded)))
    if isinstance(got, str):
        report_link_problem(got)
        return None
    return got


def unit_highlight(view: View, chosen: TedParse, pv: ParseView) -> tuple[bool, ...]:
    """The operations of the drawn script the link's construction owns (``unit=``; the head word of
    the operation's span is the construction's, in the tree the operation belongs to: the scores per
    construction's rule, docs/patterns.md), one flag per operation; says what it highlights."""
    unit = view.unit
    if unit is None:
        return ()
    single, labeled = view.settings.script_single, view.settings.labeled
    ted = (pv.single if single else pv.multiple)[1 if labeled else 0]
    index = view.sentence.index
    target = chosen.single if single else chosen.own
    flags = unit_flags(
        unit.coverage,
        unit.ref.name,
        ted.script,
        (chosen.analysis.trees[index], scheme_of(chosen.own)),
        (target.trees[index], scheme_of(target)),
        view.settings.conversion,
    )
    st.info(
        f"◆ {sum(flags)} of the {len(flags)} operations of this script are owned by the construction "
        f"**{md_escape(unit.describe(_schemes(view)))}** (the head word of their span is one of its words; "
        "highlighted in yellow)."
        + ("" if any(flags) else " None here: another parse, target or protocol may have some."),
        icon="🧩",
    )
    st.button("Clear the highlight", key="wb_unit_clear", on_click=write_link, args=("unit", None))
    return flags


def group_highlight(view: View, chosen: TedParse, pv: ParseView) -> tuple[bool, ...]:
    """The operations of the drawn script in the atlas group of the link (``group=``), one flag
    per operation (workbench.atlas_links); says what it highlights, or why the value is not used."""
    text = current_link().text("group")
    if text is None:
        return ()
    group = parse_group(text)
    if isinstance(group, str):
        st.warning(f"Some parts of the link were not used: {md_escape(group)} (ignored)", icon="🔗")
        return ()
    single, labeled = view.settings.script_single, view.settings.labeled
    ted = (pv.single if single else pv.multiple)[1 if labeled else 0]
    index = view.sentence.index
    target = chosen.single if single else chosen.own
    flags = highlight_flags(
        group, ted.script, chosen.analysis.trees[index], target.trees[index], view.settings.conversion
    )
    st.info(
        f"◆ {sum(flags)} of the {len(flags)} operations of this script are in the atlas group "
        f"**{md_escape(group.grouping)}: {md_escape(group.name)}** (highlighted in yellow)."
        + ("" if any(flags) else " None here: another parse, target or protocol may have some."),
        icon="🗺️",
    )
    st.button("Clear the highlight", key="wb_group_clear", on_click=write_link, args=("group", None))
    return flags


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
# sidebar: the settings of every sentence (each in the URL)


def sidebar_settings(loaded: LoadedDataset, choices: Sequence[TedParse]) -> Settings:
    """The sidebar: punctuation, arrangement, drawing size and TedEval's settings."""
    with st.sidebar:
        count_punct = True
        if loaded.dep():
            count_punct = bind(
                "punct",
                "wb_punct",
                True,
                st.toggle,
                "Count punctuation",
                help="Punctuation is decided on the gold token.",
            )
        side_by_side = bind(
            "side",
            "wb_side",
            True,
            st.toggle,
            "Schemes side by side",
            help="Off: all drawings stacked in one box, on one scale (the same word at the same place).",
        )
        drawing_size_control()
        st.markdown("**TedEval**")
        fields: dict[str, str | Field] = {"protocol": Field("Protocol", widget="wb_protocol")}
        guess = guess_function_separators(loaded) if loaded.ptb() else "-="
        if loaded.ptb():  # bracketed trees: function tags after one of these (FarPaHC NP*SBJ: '-=*')
            fields["function_sep"] = Field("Function-tag separators", widget=f"wb_funcsep:{loaded.spec.key}")
        ted = settings_form(TedevalSettings(function_sep=guess), fields, prefix="wb", where=st.sidebar)
        names = [c.name for c in choices]
        parse = ""
        if names:
            # keyed on the choices too: new uploads start again at their first parse
            parse_key = f"wb_parse:{loaded.spec.key}:{zlib.crc32(chr(10).join(names).encode()):08x}"
            parse = bind(
                "parse",
                parse_key,
                names[0],
                st.selectbox,
                "Parse (edit script)",
                names,
                help="The parse whose edit script is drawn; a gold can be read as a parse against "
                "another scheme's gold (every disagreement of the two) and against the "
                "generalization.",
                offered=names,
            )
        labeled = bind(
            "labeled",
            "wb_labeled",
            True,
            st.toggle,
            "Labeled edit script",
            help="Off: the unlabeled script (U-TED).",
        )
        target = bind(
            "target",
            "wb_script",
            "general",
            st.radio,
            "Edit script to",
            list(TARGET_LABELS),
            format_func=TARGET_LABELS.__getitem__,
            help="The generalized gold (TEDEVAL MULTIPLE, with discounting) or the gold the parse is "
            "scored with (SINGLE, nothing discounted).",
            offered=list(TARGET_LABELS),
        )
        label_maps = chosen_label_maps()
    ted = replace(ted, function_sep=ted.function_sep or guess)
    return Settings(count_punct, side_by_side, ted, labeled, target == "single", parse, label_maps)


def chosen_label_maps() -> SchemeLabelMaps:
    """The per-scheme label maps chosen on the cross-scheme page (kept across pages; docs/tedeval.md,
    "Per-scheme label maps"), said in the sidebar: the inspector's scores and scripts use them too."""
    choices = widget_value("xs_labelmaps", [])
    if not isinstance(choices, list) or not choices:
        return SchemeLabelMaps()
    maps = maps_with(slot_files(LABELMAP_SLOT))
    chosen = scheme_maps([str(c) for c in choices], maps)
    if chosen.maps:
        st.caption(
            "Label maps (chosen on the cross-scheme page): "
            + md_escape(", ".join(str(c) for c in choices if parse_choice(str(c))[1] in maps))
        )
    return chosen


# ---------------------------------------------------------------------------
# the sentence view: filters, orders, picker and panels (rerun alone when a sentence is chosen)


@cached("resource", show_spinner=False, max_entries=16)
def _labels(files: tuple[tuple[str, ...], ...], _loaded: LoadedDataset) -> tuple[frozenset[str], ...]:
    return _loaded.sentence_labels()


def _sentence_labels(loaded: LoadedDataset) -> tuple[frozenset[str], ...]:
    files = tuple((a.name, a.digest, a.spec.role) for a in loaded.analyses)
    return _labels.by(*(a.digest for a in loaded.analyses))(files, loaded)


@cached("resource", show_spinner=False, max_entries=16)
def _matched(files: tuple[tuple[str, ...], ...], text: str, _loaded: LoadedDataset) -> frozenset[int]:
    limits = app_limits()  # each search bounded by --max-pattern-steps' variable (docs/robustness.md)
    request = where(text, file="pattern", limits=limits).matcher
    golds = [a for a in _loaded.analyses if a.spec.role == "gold"]
    return frozenset(
        i
        for i in range(len(_loaded.sentences))
        if any(isinstance(t := g.trees[i], DepTree) and found(request, t, limits=limits) for g in golds)
    )


def _matching(loaded: LoadedDataset, text: str) -> frozenset[int]:
    """The sentences (0-based) one of whose gold trees the request ``text`` matches, cached for every
    session on the files and the text; a malformed request raises its
    :class:`~evalcore.errors.PatternError` (``pattern:LINE: ...``), and so does a search that passes
    ``EVALCORE_MAX_PATTERN_STEPS`` in a sentence (:class:`~evalcore.errors.PatternLimitError`)."""
    files = tuple((a.name, a.digest, a.spec.role) for a in loaded.analyses)
    return _matched.by(*(a.digest for a in loaded.analyses))(files, text.strip(), loaded)


def _ted_scores(
    loaded: LoadedDataset, choice: TedParse, settings: Settings, *, single: bool
) -> dict[int, float]:
    """Per sentence, ``choice``'s L-TED (SINGLE or MULTIPLE) under the settings' protocol (a parse of
    the raw text: its block's, as the cross-scheme experiment scores it)."""
    if choice.raw:
        return raw_block_scores(loaded, choice, settings.ted, settings.label_maps, single=single)
    try:
        scripts = corpus_scripts(loaded, choice, settings.conversion)
    except EvalcoreError as exc:
        st.error(str(exc))
        return {}
    return {i: t.script(single=single, labeled=True).score for i, t in enumerate(scripts) if t is not None}


def orderings(loaded: LoadedDataset, settings: Settings, choices: Sequence[TedParse]) -> list[Ordering]:
    """The inspector's orders: worst LAS first, worst L-TED first (the chosen parse against the
    generalized gold), largest gold-vs-gold discrepancy first (L-TED of one gold read as a parse
    against another: the chosen pair, else the first two golds)."""
    out: list[Ordering] = []
    pair = loaded.default_pair()
    if pair is not None:
        gold, system = pair
        config = AttachSettings(no_punct=not settings.count_punct)

        def worst_las() -> dict[int, float]:
            result = corpus_attach(gold, system, config)
            return {i: (c.las / c.tokens if c.tokens else 1.0) for i, c in result.by_index().items()}

        out.append(Ordering("worst", f"worst LAS first ({system.name})", worst_las))
    elif loaded.aligned:  # a parse of the raw text: LAS F1 of its words in each gold sentence
        parse = loaded.aligned[0]
        label = f"worst LAS first ({parse.name}, aligned by characters)"
        out.append(Ordering("worst", label, lambda: aligned_worst_order(parse)))
    chosen = next((c for c in choices if c.name == settings.parse), None)
    golds = [scheme_of(g) for g in tree_golds(loaded)]
    if chosen is not None and golds:
        against = general_name(golds) if len(golds) > 1 else scheme_of(chosen.own)
        out.append(
            Ordering(
                "worst-lted",
                f"worst L-TED first ({chosen.name}, against {against})",
                lambda: _ted_scores(loaded, chosen, settings, single=len(golds) == 1),
            )
        )
    pairs = [c for c in choices if c.gold_as_parse]
    if pairs:
        gap = chosen if chosen is not None and chosen.gold_as_parse else pairs[0]
        out.append(
            Ordering(
                "gold-gap",
                f"largest gold-vs-gold discrepancy first ({gap.analysis.name} vs {gap.single.name}, L-TED)",
                lambda: _ted_scores(loaded, gap, settings, single=True),
            )
        )
    return out


@dataclass(frozen=True)
class Filters:
    """The filters of the sentence list besides length and search (each in the URL)."""

    label: str = ""  # a relation label the sentence's trees use
    ops: OperationFilter = field(
        default_factory=OperationFilter
    )  # an operation the chosen parse's edit script has
    pattern: str = ""  # a request one of the sentence's gold trees matches (docs/patterns.md)

    @property
    def active(self) -> int:
        ops = bool(self.ops.status) + bool(self.ops.kind) + bool(self.ops.label)
        return bool(self.label) + ops + bool(self.pattern.strip())


def _filter_box(
    name: str, widget: str, labels: dict[str, str], label: str, holder: DeltaGenerator, disabled: bool = False
) -> str:
    """A filter's box bound to its link key: ``labels``, its choices ("" = any) and how each is shown."""
    options = list(labels)
    kwargs = {"format_func": labels.get, "disabled": disabled}
    return bind(name, widget, "", holder.selectbox, label, options, offered=options, **kwargs)


def filters_ui(loaded: LoadedDataset, choice: TedParse | None) -> Filters:
    """The filter boxes: relation label, and the kind of operation in the chosen parse's script."""
    labels = sorted(set().union(*_sentence_labels(loaded))) if loaded.sentences else []
    names = ("label", "opstatus", "opkind", "oplabel", "pattern")
    keys = [f"wb_filter_{k}:{loaded.spec.key}" for k in names]
    # counted before the boxes are drawn: a filter set by the session, or by a link just followed
    active = sum(bool(st.session_state.get(k) or followed(n)) for k, n in zip(keys, names, strict=True))
    if active:  # open, its boxes shown: a filter is set
        with st.expander(f"Filters ({active} active)", expanded=True):
            return _filter_boxes(keys, labels, choice)
    # none set: the boxes are made only when the user opens the box (so the first render stays fast)
    with lazy_expander("Filters", key=f"wb_filters_open:{loaded.spec.key}") as shown:
        return _filter_boxes(keys, labels, choice) if shown else Filters("", OperationFilter())


def _filter_boxes(keys: Sequence[str], labels: Sequence[str], choice: TedParse | None) -> Filters:
    cols = st.columns(4)
    names = {"": "any", **{x: x for x in labels}}
    label = _filter_box("label", keys[0], names, "Relation label in the trees", cols[0])
    script = f" of {choice.name}" if choice is not None else ""
    off = choice is None
    status = _filter_box("opstatus", keys[1], STATUS_LABELS, f"Operation{script}", cols[1], off)
    kind = _filter_box("opkind", keys[2], KIND_LABELS, "Kind of operation", cols[2], off)
    op_label = _filter_box("oplabel", keys[3], names, "Label of the operation", cols[3])
    pattern = bind(
        "pattern",
        keys[4],
        "",
        st.text_input,
        "Sentences matching a pattern (a request in Grew's syntax, on the gold trees)",
        placeholder="pattern { H -[cop]-> X }",
        max_chars=MAX_REQUEST,  # the link key's bound (workbench/links.py)
    )
    st.caption(
        "Operations: in the edit script of the parse chosen in the sidebar, to the target chosen there "
        "(labeled or not). A label matches itself and its subtypes (`obl` matches `obl:mod`). A pattern "
        "keeps the sentences one of whose gold trees it matches (docs/patterns.md)."
    )
    return Filters(label, OperationFilter(status, kind, op_label), str(pattern))


def _keep(
    loaded: LoadedDataset, filters: Filters, choice: TedParse | None, settings: Settings
) -> Callable[[int], bool] | None:
    if not filters.active:
        return None
    labels = _sentence_labels(loaded) if filters.label else ()
    matching = None
    if filters.pattern.strip():
        try:
            matching = _matching(loaded, filters.pattern)
        except PatternError as exc:  # said, and the pattern left out of the filters
            st.error(f"The pattern is not used: {exc}", icon="🔎")
    scripts: tuple[ParseTeds | None, ...] = ()
    blocks: dict[int, tuple[RawOp, ...]] = {}
    ops = filters.ops.active and choice is not None
    if ops and choice is not None and choice.raw:  # a parse of the raw text: its blocks' scripts
        blocks = raw_block_ops(
            loaded,
            choice,
            settings.ted,
            settings.label_maps,
            single=settings.script_single,
            labeled=settings.labeled,
        )
    elif ops and choice is not None:
        scripts = corpus_scripts(loaded, choice, settings.conversion)

    def keep(i: int) -> bool:
        if filters.label and not any(label_matches(filters.label, x) for x in labels[i]):
            return False
        if matching is not None and i not in matching:
            return False
        if ops and choice is not None and choice.raw:
            return filters.ops.matches_block(blocks.get(i, ()))
        if ops:
            teds = scripts[i] if i < len(scripts) else None
            if teds is None:
                return False
            ted = teds.script(single=settings.script_single, labeled=settings.labeled)
            return filters.ops.matches(ted)
        return True

    return keep


@st.fragment
def sentence_view(loaded: LoadedDataset, settings: Settings, choices: tuple[TedParse, ...]) -> None:
    """Filters, the picker and every panel of the chosen sentence: an ``st.fragment``, so choosing
    another sentence reruns this and nothing else."""
    chosen = next((c for c in choices if c.name == settings.parse), None)
    filters = filters_ui(loaded, chosen)
    try:
        sentence = sentence_picker(
            loaded,
            orders=orderings(loaded, settings, choices),
            keep=_keep(loaded, filters, chosen, settings),
            short=4,
        )
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    st.markdown(f"**{md_escape(sentence.sent_id)}** — {md_escape(sentence.text)}")
    view = View(loaded, sentence, settings, choices, view_unit(loaded))
    panel_dependency_trees(view)  # the trees first: visible without scrolling on a first visit
    panel_scores(view)
    panel_constituency(view)
    panel_lattice(view)
    panel_tedeval(view)


def home() -> StreamlitPage:
    """The home page as ``st.navigation`` knows it (``app.py``), and what another page's
    ``st.page_link`` names to open it: the file ``app.py`` is no page of its own."""
    return st.Page(inspector_page, title="Sentence inspector", default=True)


START = (  # the first screen's pointers: the Tour, then the three tasks (README, "Where to start")
    ("pages/5_Tour.py", "New here? The Tour", "why scores differ across schemes, in three examples"),
    ("pages/1_Cross_scheme.py", "Compare schemes", "every parse against every gold and their generalization"),
    ("pages/4_NED.py", "Inspect a parser", "its worst sentences and breakdowns (here: one sentence)"),
    ("pages/6_Atlas.py", "Read the atlas", "which conventions separate the schemes"),
)


def where_to_start() -> None:
    """One row of links: the Tour for a newcomer, then the three tasks."""
    for col, (page, label, what) in zip(st.columns(len(START)), START, strict=True):
        col.page_link(page, label=f"**{label}**", help=what)


def inspector_page() -> None:
    """The home page: the sentence inspector (routed by ``app.py``)."""
    st.set_page_config(page_title="evalcore — sentence inspector", layout="wide")
    st.title("Sentence inspector")
    where_to_start()
    loaded = choose_dataset()
    if loaded is None:
        return
    if loaded.spec.key == UPLOAD_KEY:
        st.info(
            "This view shows files you uploaded. A link to it keeps the sentence and every setting, but "
            "not the files (they stay in this session's memory only): whoever opens it must upload the "
            "same files.",
            icon="🔗",
        )
    aligned_panels(loaded)
    choices = parse_choices(loaded)
    settings = sidebar_settings(loaded, choices)
    sentence_view(loaded, settings, choices)
