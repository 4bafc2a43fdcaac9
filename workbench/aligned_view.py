"""What the pages show of a parse of the raw text (docs/app.md, "Parses of the raw text"): its words
or sentences differ from the gold's, its characters do not, so it is scored by the CoNLL 2018
character alignment (:func:`workbench.cache.aligned`, which calls
:func:`evalcore.metrics.conll18.align_words`; :func:`workbench.cache.conll18_scores` its scores): the
corpus numbers as the shared task's scorer prints them, its table, and the gold sentences worst
first.  The tables are built by
:mod:`workbench.attachment_view`; this module lays them out (the Attachment & NED page and the
inspector show the same).
"""

from __future__ import annotations

import streamlit as st

from evalcore.errors import EvalcoreError
from evalcore.metrics.conll18 import Conll18Result
from evalcore.render.dot import dep_to_dot
from evalcore.render.svg import dep_svg
from workbench.aligned_drawing import aligned_drawing, aligned_layouts
from workbench.attachment_view import ALIGNED_METRICS, aligned_worst, scorer_frame
from workbench.cache import aligned, conll18_scores
from workbench.datasets import AlignedParse, Analysis, LoadedDataset
from workbench.text import md_escape
from workbench.widgets import Figure, stacked_figures

__all__ = ["aligned_metrics", "aligned_panels", "aligned_sentence", "aligned_worst_order"]


def aligned_metrics(result: Conll18Result, difference: str) -> None:
    """The corpus numbers of a parse of the raw text: the scorer's F1 (percent, two decimals), and
    why the parse was aligned by characters."""
    for col, name in zip(st.columns(len(ALIGNED_METRICS)), ALIGNED_METRICS, strict=True):
        col.metric(name, f"{100 * result.get(name).f1:.2f}")
    words = result.get("Words")
    st.caption(
        f"A parse of the raw text: its words differ from the gold's ({md_escape(difference)}), so it is "
        "aligned with the gold by characters over the whole document and scored as the CoNLL 2018 "
        "shared task's scorer does (conll18_ud_eval.py): F1 in percent, relation subtypes ignored, "
        f"punctuation counted. {words.gold} gold words, {words.system} system words, "
        f"{words.correct} aligned. Signature: `{result.signature}`"
    )


def aligned_panels(loaded: LoadedDataset) -> None:
    """The inspector's view of each parse of the raw text: corpus numbers and the scorer's table
    (its sentences cannot be drawn beside the gold's sentence by sentence)."""
    for parse in loaded.aligned:
        title = f"{parse.name}: a parse of the raw text, against {parse.gold.name}"
        with st.expander(title, expanded=True):
            try:
                result = conll18_scores(parse.gold, parse.analysis)
            except EvalcoreError as exc:
                st.error(str(exc))
                continue
            aligned_metrics(result, parse.difference)
            st.dataframe(scorer_frame(result.scores), hide_index=True, width="stretch")


def aligned_worst_order(parse: AlignedParse) -> dict[int, float]:
    """Per gold sentence, the LAS F1 of ``parse``'s words in it (the inspector's "worst LAS first")."""
    return aligned_worst(conll18_scores(parse.gold, parse.analysis))


def aligned_sentence(gold: Analysis, system: Analysis, index: int, sent_id: str, key: str) -> None:
    """Gold sentence ``index`` and the words of ``system`` (a parse of the raw text) that start in
    it, drawn one above the other aligned by characters (:mod:`workbench.aligned_drawing`)."""
    try:
        lays = aligned_layouts(aligned_drawing(aligned(gold, system), index))
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    title = f"{system.name} (its words that start in this sentence)"
    stacked_figures(
        [
            Figure(gold.name, dep_svg(lays[0]), dep_to_dot(lays[0]), f"{sent_id}_{gold.name}", f"{key}-gold"),
            Figure(
                title, dep_svg(lays[1]), dep_to_dot(lays[1]), f"{sent_id}_{system.name}", f"{key}-aligned"
            ),
        ]
    )
    st.caption(
        "Aligned by characters, as the CoNLL 2018 scorer aligns them: words that share characters stand "
        "above each other. Faded: a gold word the parse did not produce, an extra word of the parse; "
        "their notes say whether the parse split a token, merged words or has no counterpart. Notes "
        "also mark where the parse starts a sentence inside this one, or goes on into the next. The "
        "parse's arcs are coloured by the scorer's verdicts on the aligned words; a head in another "
        "gold sentence is drawn as the root."
    )
