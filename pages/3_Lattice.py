"""Joint segmentation + parsing: a sentence's morphological lattice, right to left, with the gold and
the predicted paths, the trees over them, SEGEVAL and TEDEVAL, and the corpus scenario table
(ACL 2012; docs/lattice.md, "What is compared").  Numbers from :mod:`evalcore.metrics.joint` through
:mod:`workbench.lattice_view`.
"""

from __future__ import annotations

import streamlit as st

from evalcore.choices import PROTOCOLS, TAG_COLUMNS
from evalcore.families.lattice import LatticeSettings, gold_dialect, joint_config
from evalcore.lattice.reading import InMemoryFile
from evalcore.metrics.joint import JointConfig
from workbench.cache import app_limits
from workbench.datasets import DatasetSpec, LoadedDataset
from workbench.lattice_view import (
    GOLD_SLOTS,
    PRED_SLOTS,
    LatticeData,
    LatticeInputs,
    builtin_inputs,
    evaluate_inputs,
    ops_frame,
    pair_by_stem,
    scenario_frame,
    sentence_infos,
    sentence_view,
    validate_ambiguity,
    validate_analysis,
    validate_lattice_file,
)
from workbench.settings_form import Field, bind, settings_form
from workbench.uploads import Upload, choose_source, forget_button, show_name_clashes, upload_slot
from workbench.widgets import (
    UPLOAD_KEY,
    download_table,
    drawing_size_control,
    graphviz_figure,
    md_escape,
    sentence_picker,
)


def _mem(u: Upload) -> InMemoryFile:
    return InMemoryFile(u.name, u.data)


def gold_slots() -> tuple[InMemoryFile | None, InMemoryFile | None]:
    gold = upload_slot(
        "Gold file",
        key="lattice_gold",
        validate=validate_analysis,
        help="CoNLL-X/U over morphemes, bracketed trees over lexemes, or a one-path lattice (SEGEVAL only).",
    )
    lattice = upload_slot(
        "Gold lattice file (optional; --gold-lattice)",
        key="lattice_gold_lattice",
        validate=validate_lattice_file,
        help="The gold path as a lattice (FROM TO FORM LEMMA CPOS FPOS FEATS TOKEN_ID): token ids and "
        "states.",
    )
    return (_mem(gold[0]) if gold else None), (_mem(lattice[0]) if lattice else None)


def inputs() -> tuple[DatasetSpec | None, LatticeInputs | None]:
    spec = choose_source(("lattice",))
    st.sidebar.markdown(
        "**Your files** stay in memory and are only read, never run or saved. Formats: as `evalcore lattice`."
    )
    if spec is not None:
        base = builtin_inputs(spec)
        if base.gold is not None:
            return spec, base
        st.sidebar.markdown("**A gold analysis of this dataset** (optional)")
        gold, gold_lattice = gold_slots()
        if gold is not None or gold_lattice is not None:
            forget_button(GOLD_SLOTS, label="Forget the gold")
        return spec, LatticeInputs(gold, gold_lattice, base.predictions, base.ambiguity, base.tokens)
    gold, gold_lattice = gold_slots()
    preds = upload_slot(
        "Predicted file(s)",
        key="lattice_preds",
        validate=validate_analysis,
        multiple=True,
        help="One row of the scenario table each.",
    )
    pred_lattices = upload_slot(
        "Their lattice / mapping / segmentation files (optional; --pred-lattice)",
        key="lattice_pred_lattices",
        validate=validate_lattice_file,
        multiple=True,
        help="Paired with the predicted file of the same name stem (output.conll + output.mapping). A "
        "CoNLL file without one does not say which token each morpheme belongs to: it is scored only "
        "where that can be recovered (its morphemes are the gold's, or the ambiguity lattice allows one "
        "split).",
    )
    ambiguity = upload_slot(
        "Ambiguity lattices of the gold sentences (optional; --ambiguity-lattice)",
        key="lattice_ambiguity",
        validate=validate_ambiguity,
        help="The morphological analyzer's lattices: drawn, and used to report analyses outside them.",
    )
    gold_names = [f.name for f in (gold, gold_lattice) if f is not None]
    show_name_clashes(gold_names, [u.name for u in (*preds, *pred_lattices)], parse_role="predicted")
    if gold or preds:
        forget_button((*GOLD_SLOTS, *PRED_SLOTS))
    if not preds:
        return None, None
    predictions = pair_by_stem([_mem(u) for u in preds], [_mem(u) for u in pred_lattices])
    return None, LatticeInputs(gold, gold_lattice, predictions, _mem(ambiguity[0]) if ambiguity else None)


def settings(gold: InMemoryFile | None) -> JointConfig:
    """``evalcore lattice``'s settings as declared (:class:`~evalcore.families.lattice.LatticeSettings`;
    in the link: tag=fpos&protocol=2011&labels=universal) and the joint metric's configuration of
    them on ``gold`` (its format decides labels=auto, as on the command line)."""
    c1, c2, c3 = st.columns(3)
    chosen = settings_form(
        LatticeSettings(),
        {
            "tag_column": Field("Tags", c1, widget="lattice_tag", offered=TAG_COLUMNS),
            "protocol": Field("Dependency → function tree", c2, widget="lattice_protocol", offered=PROTOCOLS),
            "labels": Field("Relation labels", c3),
        },
        prefix="lattice",
    )
    dialect = "conllx" if gold is None else gold_dialect(gold, app_limits())
    return joint_config(chosen, dialect, app_limits())


def corpus_panel(data: LatticeData, key: str) -> None:
    st.subheader("Scenario table (corpus)")
    st.caption(
        "Percent. Scenarios: gold (gold segmentation and tags), predicted (gold segmentation, predicted "
        "tags), raw (predicted segmentation). The classic metric: attachment or PARSEVAL on the gold "
        "segmentation; on raw dependency input (CoNLL-U), the CoNLL 2018 scorer's aligned UAS/LAS F1 "
        "(character alignment of the whole document, relation subtypes ignored); PARSEVAL is N/A for raw."
    )
    frame = scenario_frame(data)
    st.dataframe(frame, hide_index=True, width="stretch")
    download_table(frame, stem=f"lattice_{key}_scenarios", key="lattice-scenarios")
    for r in data.results.values():
        lc = r.lattice_check
        extra = (
            f"; outside the ambiguity lattice: gold {lc.gold_outside}/{lc.sentences} sentences, "
            f"predicted {lc.pred_outside}/{lc.sentences}"
            if lc
            else ""
        )
        st.caption(
            f"{md_escape(r.name)}: {len(r.sentences)} sentence pairs scored (gold {r.gold_sentences}, "
            f"predicted {r.pred_sentences}); unaligned {len(r.unaligned_gold)} gold, "
            f"{len(r.unaligned_pred)} predicted; skipped {r.skipped} (not a tree); detected scenario "
            f"{r.detected}{md_escape(extra)}." + (f" {md_escape(r.classic_note)}" if r.classic_note else "")
        )


def sentence_panel(data: LatticeData, prediction: str | None, index: int, stem: str) -> None:
    view = sentence_view(data, prediction, index)
    j, seg = view.joint, view.segeval
    if j is not None and seg is not None:
        cols = st.columns(6)
        cols[0].metric("SEGEVAL U (sentence)", f"{100 * seg.unlabeled:.2f}")
        seg_l = f"{100 * seg.labeled:.2f}" if seg.labeled is not None else "N/A"
        cols[1].metric("SEGEVAL L (sentence)", seg_l)
        ted_u = j.ted_unlabeled
        ted_l = j.ted_labeled
        cols[2].metric("TEDEVAL U (sentence)", f"{100 * ted_u.score:.2f}" if ted_u else "N/A")
        cols[3].metric("TEDEVAL L (sentence)", f"{100 * ted_l.score:.2f}" if ted_l else "N/A")
        cols[4].metric("TED L", f"{ted_l.distance} / {ted_l.norm}" if ted_l else "N/A")
        acc = seg.token_accuracy_labeled
        cols[5].metric("tokens right (L)", f"{100 * acc:.2f}" if acc is not None else "N/A")
        if j.skipped:
            st.warning(f"TedEval not computed for this sentence: {j.skipped}")
    for note in view.notes:
        st.info(note)
    st.markdown("**Lattice** (right to left: the first state is on the right)")
    st.caption(
        "States are circles, arcs are segment/tag. Blue solid: the gold path; orange dashed: the predicted "
        "path; both colours side by side: on both paths; grey: other analyses of the lattice (arcs that "
        "differ only in lemma or features are drawn once). An arc marked 'not in lattice' is an analysis "
        "the lattice does not contain."
        if view.lattice_kind == "ambiguity"
        else "States are circles, arcs are segment/tag. No ambiguity lattice: the lattice drawn holds the "
        "analyses themselves (one state per token boundary and per segment prefix). Blue solid: gold; "
        "orange dashed: prediction; both colours: shared."
    )
    graphviz_figure(
        view.lattice_dot,
        stem=f"{stem}_lattice",
        key="lattice-lattice",
        rtl=True,
    )
    if view.gold_tree_dot is None and view.pred_tree_dot is None:
        return
    st.markdown(
        "**Trees over the lattice** (mirrored like the lattice: the first morpheme on the right)"
        if view.rtl
        else "**Trees over the lattice**"
    )
    if j is not None and j.ted_labeled is not None:
        st.caption(
            "Labeled TED: in the gold tree, bold green nodes are added; in the predicted tree, red dashed "
            "struck nodes are deleted (a lexeme is its tag node with its segment). The roots are always "
            "mapped."
        )
    if view.gold_tree_dot is not None:
        graphviz_figure(view.gold_tree_dot, stem=f"{stem}_gold_tree", key="lattice-gold-tree", rtl=view.rtl)
    if view.pred_tree_dot is not None:
        graphviz_figure(view.pred_tree_dot, stem=f"{stem}_pred_tree", key="lattice-pred-tree", rtl=view.rtl)
    if j is not None and j.ted_labeled is not None:
        ops = ops_frame(j.ted_labeled.ops)
        with st.expander(f"Edit script (labeled): {len(ops)} operations"):
            st.caption(
                "States are those of each analysis's own file: a deletion is anchored in the prediction's "
                "path, an addition in the gold's (the lattice above is numbered by the ambiguity lattice)."
            )
            st.dataframe(ops, hide_index=True, width="stretch")
            download_table(ops, stem=f"{stem}_edit_script", key="lattice-ops")


def main() -> None:
    st.set_page_config(page_title="evalcore — lattices", layout="wide")
    st.title("Joint segmentation and parsing: lattices")
    st.caption(
        "A space-delimited token can be several syntactic words (Hebrew BCLM = B + H + CL + FL + HM). "
        "SEGEVAL compares segmentations token by token; TEDEVAL compares trees over different segmentations "
        "by tree edit distance (Tsarfaty, Nivre & Andersson, ACL 2012). On the command line: "
        "`evalcore lattice`."
    )
    spec, lattice_inputs = inputs()
    if lattice_inputs is None:
        st.info(
            "Upload a predicted file (and a gold file to score it) in the sidebar, or pick a built-in "
            "dataset."
        )
        return
    config = settings(lattice_inputs.gold)
    drawing_size_control()
    data = evaluate_inputs(lattice_inputs, config)
    for err in data.errors:
        st.error(err, icon="⚠️")
    key = spec.key if spec is not None else UPLOAD_KEY
    if data.gold is None:
        st.info(
            "No gold analysis ships with this dataset: the page shows the prediction inside its ambiguity "
            "lattice. Upload a gold analysis of the same sentences in the sidebar to score it (SEGEVAL, "
            "TEDEVAL)."
            if spec is not None
            else "No gold file: the predictions are drawn without scores. Upload a gold file to score them."
        )
    infos = sentence_infos(data)
    if not infos:
        return
    if data.results:
        corpus_panel(data, key)
    st.subheader("One sentence")
    names = list(data.predictions)
    widget = f"lattice_prediction:{key}"
    # a prediction the data does not have is reported, even with one to choose from
    draw = st.selectbox if len(names) > 1 else lambda *_, **__: None  # one prediction: nothing to choose
    prediction = bind(
        "prediction", widget, names[0] if names else None, draw, "Prediction", names, offered=names
    )
    loaded = LoadedDataset(spec or DatasetSpec(UPLOAD_KEY, "your files", "lattice", ()), (), (), (), infos)
    result = data.results.get(prediction) if prediction is not None else None

    def worst() -> dict[int, float]:
        assert result is not None
        return {
            s.index - 1: (s.ted_labeled.score if s.ted_labeled is not None else 0.0) for s in result.sentences
        }

    sentence = sentence_picker(
        loaded,
        worst=worst if result is not None else None,
        worst_label="worst TEDEVAL L first",
        key="lattice",
    )
    st.markdown(f"**{md_escape(sentence.sent_id)}** — {md_escape(sentence.text)}")
    sentence_panel(data, prediction, sentence.index, stem=f"{key}_{sentence.sent_id}")


main()
