"""Attachment & NED (the URL stays ``/NED``): the attachment family, NED, and what the CoNLL 2018
scorer and MaltEval report (docs/app.md, "Attachment & NED page"; docs/attachment.md, "The five
numbers"; Schwartz et al. 2011 §5).  The numbers come from evalcore through
:mod:`workbench.attachment_view` and :mod:`workbench.cache`; every choice is in the page's link.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from evalcore.errors import EvalcoreError, MismatchError
from evalcore.families.attach import AttachSettings, attach_config
from evalcore.inspection import sentence_attachment
from evalcore.metrics.attachment import AttachConfig, TokenJudgement, is_punct, score
from evalcore.metrics.breakdown import GroupBy
from evalcore.metrics.conll18 import Conll18Result
from evalcore.render.dot import dep_to_dot
from evalcore.render.layout import DepLayout, WordGrid, layout_dep, merge_grids, word_grid
from evalcore.render.svg import dep_svg
from evalcore.trees import DepTree
from workbench.aligned_view import aligned_metrics, aligned_sentence
from workbench.attachment_view import (
    CORPUS_METRICS,
    GROUPINGS,
    SORT_LABELS,
    SORTS,
    BreakdownView,
    aligned_breakdown_view,
    aligned_intervals,
    aligned_sentences_frame,
    aligned_worst,
    breakdown_figure,
    breakdown_frame,
    breakdown_view,
    clicked_group,
    confusion_figure,
    confusion_frame,
    corpus_intervals,
    group_sentences_frame,
    head_errors_frame,
    interval_figure,
    parity_table,
    sentence_counts_frame,
)
from workbench.cache import CorpusAttach, conll18_scores, corpus_attach
from workbench.datasets import Analysis, LoadedDataset, not_aligned
from workbench.inspector import open_inspector
from workbench.links import followed, write_link
from workbench.settings_form import Field, bind, settings_form
from workbench.tables import show_table
from workbench.widgets import (
    Figure,
    choose_dataset,
    download_table,
    drawing_size_control,
    linked_table,
    md_escape,
    sentence_picker,
    stacked_figures,
)

REASON = {"parent": "gold parent", "child": "gold child", "grandparent": "gold grandparent"}
SHORT = {"parent": "head", "child": "child", "grandparent": "grandp."}


def choose_pair(loaded: LoadedDataset) -> tuple[Analysis, Analysis] | None:
    """Gold and system selectors over every dependency file of the dataset (``gold=``, ``system=``);
    the parses of the raw text are systems only (their sentences are not the gold's)."""
    deps = loaded.dep()
    if len({a.name for a in deps} | {p.name for p in loaded.aligned}) < 2:
        st.info("This dataset has only one dependency analysis: there is nothing to score it against.")
        return None
    names = [a.name for a in deps]
    default = loaded.showcase_pair()
    if default is None and loaded.aligned:
        default = loaded.aligned[0].gold, loaded.aligned[0].analysis
    g_default = default[0].name if default else names[0]
    c1, c2 = st.columns(2)
    gold_key, system_key = f"ned_gold:{loaded.spec.key}", f"ned_system:{loaded.spec.key}"
    gold_name = bind("gold", gold_key, g_default, c1.selectbox, "Gold", names, offered=names)
    others = [n for n in names if n != gold_name] + [p.name for p in loaded.aligned if p.name not in names]
    s_default = default[1].name if default and default[1].name in others else others[0]
    # a system that is the gold chosen now is not offered: the default is taken
    system_name = bind("system", system_key, s_default, c2.selectbox, "System", others, offered=others)
    return loaded.analysis(gold_name), loaded.analysis(str(system_name))


def settings() -> AttachSettings:
    """The command line's settings (:class:`~evalcore.families.attach.AttachSettings`), in the link."""
    c1 = st.container()  # the toggle on its own line (its label was cut in a third of 1024 px)
    c2, c3 = st.columns(2)
    return settings_form(
        AttachSettings(),
        {
            "no_punct": Field("Leave punctuation out", c1),
            "max_len": Field("Longest sentence scored", c2, placeholder="all"),
            "labels": Field("Relation labels", c3, widget="ned_labels"),
        },
        prefix="ned",
    )


def corpus_metrics(result: CorpusAttach) -> None:
    """The corpus scores, above every section."""
    s = result.result.score
    st.subheader("Corpus")
    for col, (name, field) in zip(st.columns(len(CORPUS_METRICS)), CORPUS_METRICS, strict=True):
        col.metric(name, f"{getattr(s, field):.4f}" if s.tokens else "—")  # no token: the command's null
    st.caption(
        f"{s.tokens} tokens in {s.sentences} sentences; skipped {s.skipped} (not a tree); "
        f"excluded {s.excluded} (longer than --max-len). Signature: `{s.signature}`"
    )
    if result.left_out:
        with st.expander(f"{len(result.left_out)} sentences not compared (their words differ)"):
            st.text("\n".join(result.left_out))
    for w in result.result.warnings:
        st.warning(w)


def corpus_panel(gold: Analysis, system: Analysis, result: CorpusAttach, loaded: LoadedDataset) -> None:
    per = [c for _, c in result.result.per_sentence]
    with st.expander("Intervals (bootstrap over sentences)", expanded=True):
        st.plotly_chart(interval_figure(corpus_intervals(per)), key="ned_intervals")
        st.caption(
            "95 % percentile intervals, 1000 resamples of the scored sentences, seed 12345 "
            "(evalcore.significance.bootstrap_interval)."
        )
    rows = []
    for i, (_, c) in zip(result.indices, result.result.per_sentence, strict=True):
        sc = score(c)
        rows.append(
            {
                "sent_id": loaded.sentences[i].sent_id,
                "tokens": c.tokens,
                "UAS": round(sc.uas, 4),
                "undirected": round(sc.undirected, 4),
                "NED": round(sc.ned, 4),
                "LAS": round(sc.las, 4),
                "status": "skipped (not a tree)"
                if c.skipped
                else "excluded (--max-len)"
                if c.excluded
                else "",
            }
        )
    table = pd.DataFrame(rows)
    st.markdown("**Per-sentence scores**")
    st.dataframe(table, hide_index=True, width="stretch")
    download_table(table, stem=f"ned_{loaded.spec.key}_{system.name}_vs_{gold.name}", key="ned-corpus")


def parity_panel(gold: Analysis, system: Analysis) -> None:
    st.subheader("CoNLL 2018 shared task (the official scorer's table)")
    parity = parity_table(gold, system)
    if parity.frame is None:
        st.warning(f"The CoNLL 2018 scorer refuses these files: {md_escape(str(parity.error))}")
        return
    st.dataframe(parity.frame, hide_index=True, width="stretch")
    st.caption(
        "`evalcore attach --format conll18`: gold and system aligned by characters over the whole "
        "document, as `conll18_ud_eval.py` does (relation subtypes ignored, universal features only, "
        "punctuation counted); equal to the official scorer's table on the shared task's outputs. "
        f"Signature: `{parity.signature}`"
    )
    download_table(parity.frame, stem=f"conll18_{system.name}_vs_{gold.name}", key="ned-parity")


def breakdown_panel(
    loaded: LoadedDataset, gold: Analysis, system: Analysis, view_of: Callable[[GroupBy], BreakdownView]
) -> None:
    """MaltEval's breakdown of ``view_of(by)`` and the relation confusion (the same words, or a parse
    of the raw text on its aligned words)."""
    st.subheader("Breakdown (MaltEval's --by)")
    c1, c2 = st.columns(2)
    by = bind("by", "ned_by", "deprel", c1.selectbox, "Break down by", list(GROUPINGS), offered=GROUPINGS)
    sort = bind(
        "sort",
        "ned_sort",
        "group",
        c2.selectbox,
        "Order",
        list(SORTS),
        format_func=lambda k: SORT_LABELS[k],
        offered=SORTS,
    )
    view = view_of(by)
    if not view.rows:
        st.info("No token is counted under these settings.")
        return
    frame = breakdown_frame(view, sort)
    groups = [str(g) for g in frame["group"]]
    group_key = f"ned_group:{loaded.spec.key}:{by}"
    event = st.plotly_chart(
        breakdown_figure(frame, by), key=f"ned_breakdown:{by}", on_select="rerun", selection_mode="points"
    )
    clicked = clicked_group(event)
    last = f"_ned_clicked:{by}"
    if clicked is not None and clicked in groups and clicked != st.session_state.get(last):
        st.session_state[group_key] = clicked  # a click on a bar chooses its group
    st.session_state[last] = clicked
    st.caption(
        "UAS and LAS of the tokens whose gold property is the group (recall side), with 95 % bootstrap "
        "intervals as error bars; click a bar to list its sentences below. The table also has the "
        f"system side (LAS precision, F1), as MaltEval prints it. Signature: `{view.signature}`"
    )
    st.dataframe(frame, hide_index=True, width="stretch", height=280)
    download_table(frame, stem=f"breakdown_{by}_{system.name}_vs_{gold.name}", key="ned-breakdown")

    group = bind(
        "group", group_key, groups[0], st.selectbox, f"Sentences of the group ({by})", groups, offered=groups
    )
    row = view.row(str(group))
    if row is not None:
        sentences = group_sentences_frame(loaded, row)
        st.caption(
            f"{len(sentences)} sentences with a counted token whose gold or system {by} is "
            f"*{md_escape(str(group))}*. Click one to open it in the sentence inspector (this tab)."
        )
        linked_table(sentences, height=240, key="ned_group_sentences", open_link=open_inspector)

    st.subheader("Confusion (--confusion)")
    table = confusion_frame(view.confusion)
    st.plotly_chart(confusion_figure(table), key="ned_confusion")
    st.caption(
        "Counted tokens by gold relation (rows) and system relation (columns); the 30 most frequent "
        "relations of each side, the others summed as (other). Colour: log scale."
    )
    c1, c2 = st.columns([1, 2])
    c1.dataframe(head_errors_frame(view.confusion), hide_index=True, width="stretch")
    with c2.expander("The confusion table"):
        st.dataframe(table, width="stretch")
    download_table(table.reset_index(), stem=f"confusion_{system.name}_vs_{gold.name}", key="ned-confusion")


def _mark(ok: bool) -> str:
    return "✓" if ok else "✗"


def notes_for(judgements: list[TokenJudgement]) -> dict[int, tuple[str, ...]]:
    out: dict[int, tuple[str, ...]] = {}
    for j in judgements:
        ned = f"NED {_mark(j.ned)}" + (f" {SHORT[j.ned_reason]}" if j.ned_reason else "")
        und = f"und {_mark(j.undirected)}"
        out[j.index] = (f"UAS {_mark(j.uas)}", und, ned)
    return out


def sentence_panel(gold_tree: DepTree, sys_tree: DepTree, config: AttachConfig, stem: str) -> None:
    att = sentence_attachment(gold_tree, sys_tree, config)
    if att.mismatch is not None:
        st.warning(f"Not compared: {att.mismatch}")
        return
    if att.problem is not None:
        st.warning(f"Not scored: {att.problem} (the corpus numbers skip this sentence).")
    judgements = att.judgements
    dim = [t.id for t in gold_tree.tokens if config.no_punct and is_punct(t)]
    notes = notes_for(judgements)

    def lay(tree: DepTree, compared: bool, grid: WordGrid | None) -> DepLayout:
        return layout_dep(
            tree,
            att.verdicts if compared else None,
            dimmed=dim,
            notes=notes if compared else None,
            grid=grid,
        )

    first = [lay(gold_tree, False, None), lay(sys_tree, True, None)]
    grid = merge_grids([word_grid(x) for x in first])
    lay_g, lay_s = (lay(gold_tree, False, grid), lay(sys_tree, True, grid)) if grid else first
    stacked_figures(
        [
            Figure("Gold", dep_svg(lay_g), dep_to_dot(lay_g), stem=f"{stem}_gold", key="ned-gold"),
            Figure(
                "System",
                dep_svg(lay_s),
                dep_to_dot(lay_s),
                stem=f"{stem}_system",
                key="ned-system",
                note="compared with the gold; under each word: does it count under UAS, undirected, NED "
                "(and why)?",
            ),
        ]
    )
    forms = {t.id: t.form for t in gold_tree.tokens}

    def word(i: int) -> str:
        return "ROOT" if i == 0 else f"{i} {forms.get(i, '?')}"

    rows = []
    for j, g, s in zip(judgements, gold_tree.tokens, sys_tree.tokens, strict=True):
        rows.append(
            {
                "id": j.index,
                "form": g.form,
                "gold head": word(g.head),
                "system head": word(s.head),
                "counted": "yes" if j.counted else "no (punct)",
                "UAS": _mark(j.uas),
                "undirected": _mark(j.undirected),
                "NED": _mark(j.ned),
                "why (NED)": REASON[j.ned_reason]
                if j.ned_reason
                else "neither parent, child nor grandparent",
            }
        )
    table = pd.DataFrame(rows)
    if att.excluded:
        st.caption(
            "This sentence is longer than --max-len: left out of the corpus numbers; shown in full here."
        )
    sc = att.score
    assert sc is not None  # compared: scored
    cols = [*st.columns(3), *st.columns(3)]  # two rows: five in one cut "undirected (sentence)" at 1024 px
    for col, name in zip(cols, ("UAS", "undirected", "NED", "LAS"), strict=False):
        col.metric(f"{name} (sentence)", f"{getattr(sc, name.lower()):.4f}")
    cols[4].metric("tokens", sc.tokens)
    show_table(table, key="ned-tokens", stem=f"{stem}_tokens")


# --------------------------------------------------------------------------- parses of the raw text


def aligned_corpus_panel(loaded: LoadedDataset, system: Analysis, result: Conll18Result) -> None:
    """Per gold sentence, worst LAS first, and the bootstrap intervals of the F1 scores."""
    with st.expander("Intervals (bootstrap over gold sentences)", expanded=True):
        st.plotly_chart(interval_figure(aligned_intervals(result)), key="ned_aligned_intervals")
        st.caption(
            "F1 of each metric, 95 % percentile intervals, 1000 resamples of the gold sentences, seed "
            "12345 (evalcore.significance.bootstrap_interval over the scorer's per-sentence counts)."
        )
    table = aligned_sentences_frame(loaded, result)
    st.markdown("**Worst sentences** (per gold sentence, worst LAS F1 first)")
    linked_table(table, height=400, key="ned_worst_sentences", open_link=open_inspector)
    st.caption(
        "A sentence has the gold words of its gold sentence and the system words whose first character "
        "falls in it (the system's own sentence boundaries are not used). F1 in percent."
    )
    download_table(table, stem=f"ned_{loaded.spec.key}_{system.name}_worst", key="ned-aligned-worst")


def aligned_sentence_section(
    loaded: LoadedDataset, gold: Analysis, system: Analysis, result: Conll18Result
) -> None:
    """One gold sentence: the scorer's counts of its words (gold words, and system words starting in
    it), and the gold and the parse drawn aligned by characters."""
    worst = aligned_worst(result)
    sentence = sentence_picker(loaded, worst=lambda: worst, worst_label="worst LAS first", key="ned")
    st.markdown(f"**{md_escape(sentence.sent_id)}** — {md_escape(sentence.text)}")
    st.dataframe(sentence_counts_frame(result.sentences[sentence.index]), hide_index=True, width="stretch")
    aligned_sentence(gold, system, sentence.index, sentence.sent_id, "ned")
    st.caption("The counts above are this gold sentence's share of the corpus numbers.")


def unscorable(gold: Analysis, system: Analysis, exc: MismatchError) -> str:
    """Why a system of other words than the gold's, which the character alignment does not take
    either, cannot be scored here (where the words differ, then where the characters do)."""
    try:
        conll18_scores(gold, system)
    except EvalcoreError as text:
        return f"{exc}; {not_aligned(system.name, gold.name, text)}."
    return str(exc)  # aligned parses do not come here (aligned_page)


def open_section() -> tuple[str, DeltaGenerator]:
    """The section tabs; returns the open one's key and its tab.  Only the open tab's content is
    made: the page opens fast (every section's charts and tables made its first render 5 s)."""
    section_tab()
    tabs = st.tabs(list(SECTIONS.values()), key="ned_section_tab", on_change="rerun")
    chosen = next(k for k, t in zip(SECTIONS, tabs, strict=True) if t.open)
    write_link("section", None if chosen == "sentence" else chosen)
    return chosen, tabs[list(SECTIONS).index(chosen)]


def aligned_page(loaded: LoadedDataset, gold: Analysis, system: Analysis, difference: str) -> None:
    """The page for a parse of the raw text: the scorer's numbers, its table, the worst sentences."""
    try:
        result = conll18_scores(gold, system)
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    st.subheader("Corpus")
    aligned_metrics(result, difference)
    chosen, tab = open_section()
    with tab:
        if chosen == "sentence":
            aligned_sentence_section(loaded, gold, system, result)
        elif chosen == "corpus":
            aligned_corpus_panel(loaded, system, result)
        elif chosen == "conll18":
            parity_panel(gold, system)
        else:
            breakdown_panel(loaded, gold, system, lambda by: aligned_breakdown_view(gold, system, by))
            st.caption(
                "On the words aligned by characters, as the CoNLL 2018 scorer aligns them: a gold word "
                "the parse did not produce counts against recall (gold tokens), an extra word of the "
                "parse against precision (system tokens); the totals are the scorer's UAS and LAS rows."
            )


SECTIONS = {  # the keys are workbench.links.NED_SECTIONS
    "sentence": "One sentence",
    "corpus": "Per sentence and intervals",
    "conll18": "CoNLL 2018 table",
    "breakdown": "Breakdown and confusion",
}


def section_tab() -> None:
    """Before the tabs: the section a followed link names (``section=``; a link with a breakdown
    setting, ``by``, ``sort`` or ``group``, opens the breakdown), else the one shown before."""
    value = followed("section")
    if value is None and any(followed(k) is not None for k in ("by", "sort", "group")):
        value = "breakdown"
    if isinstance(value, str) and value in SECTIONS:
        st.session_state["ned_section_tab"] = SECTIONS[value]
    elif "ned_section_tab" not in st.session_state:
        st.session_state["ned_section_tab"] = SECTIONS["sentence"]


def main() -> None:
    st.set_page_config(page_title="evalcore — Attachment & NED", layout="wide")
    st.title("Attachment & NED")
    st.caption(
        "UAS: the system head is the gold head. Undirected: or the system head is a gold child of the token "
        "(an edge flip). NED: or the system head is the token's gold grandparent (ROOT is the grandparent of "
        "the root word's dependents). Schwartz et al. 2011, §5."
    )
    loaded = choose_dataset(kinds=("dependency", "lattice"))
    if loaded is None:
        return
    pair = choose_pair(loaded)
    if pair is None:
        return
    gold, system = pair
    aligned = loaded.aligned_parse(system.name)
    if aligned is not None:
        drawing_size_control()
        aligned_page(loaded, gold, system, aligned.difference)
        return
    asked = settings()
    drawing_size_control()
    try:
        result = corpus_attach(gold, system, asked)
    except MismatchError as exc:
        st.error(unscorable(gold, system, exc))
        return
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    corpus_metrics(result)
    chosen, tab = open_section()
    with tab:
        if chosen == "sentence":
            sentence_section(loaded, gold, system, result, attach_config(asked, gold.dialect))
        elif chosen == "corpus":
            corpus_panel(gold, system, result, loaded)
        elif chosen == "conll18":
            parity_panel(gold, system)
        else:
            breakdown_panel(loaded, gold, system, lambda by: breakdown_view(gold, system, result, asked, by))


def sentence_section(
    loaded: LoadedDataset, gold: Analysis, system: Analysis, result: CorpusAttach, config: AttachConfig
) -> None:
    by_index = result.by_index()

    def worst() -> dict[int, float]:
        return {i: (c.ned / c.tokens if c.tokens else 1.0) for i, c in by_index.items()}

    sentence = sentence_picker(loaded, worst=worst, worst_label="worst NED first", key="ned")
    st.markdown(f"**{md_escape(sentence.sent_id)}** — {md_escape(sentence.text)}")
    sentence_panel(
        gold.dep_trees[sentence.index],
        system.dep_trees[sentence.index],
        config,
        stem=f"{sentence.sent_id}_{system.name}_vs_{gold.name}",
    )


main()
