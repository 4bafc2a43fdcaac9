"""Cross-scheme TedEval: the papers' Table 1 for the loaded dataset (docs/app.md, "Cross-scheme page";
docs/tedeval.md, "The cross-scheme experiment and significance").  All numbers come from
``evalcore.experiment.run_experiment`` (the same as ``evalcore tedeval``).
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from evalcore.conversion import LabelMap, SchemeLabelMaps, read_label_map
from evalcore.errors import EvalcoreError
from evalcore.experiment import ExperimentResult, Row
from evalcore.families.tedeval import TedevalSettings
from evalcore.report.tedeval import latex_table, result_json
from workbench.datasets import LoadedDataset
from workbench.inspector import home, open_inspector
from workbench.labelmaps import LABELMAP_SLOT, choice_text, maps_with, scheme_maps
from workbench.links import inspector_url
from workbench.settings_form import Field, bind, choice_names, settings_form
from workbench.tedeval import experiment_schemes, guess_function_separators, row_sentence_scores
from workbench.tedeval_view import corpus_experiment, merged_label_table
from workbench.text import shortened
from workbench.uploads import refusal, upload_slot
from workbench.widgets import choose_dataset, download_table, linked_table, md_escape, safe_stem

TESTS = choice_names(TedevalSettings, "test", "approximate randomization", "paired bootstrap")
AVERAGES = choice_names(TedevalSettings, "average", "global average", "mean of sentences")


def _check_map(name: str, data: bytes) -> str | None:
    return refusal(name, lambda: read_label_map(data, name=name))


def available_maps() -> dict[str, LabelMap]:
    """The shipped maps and the ones uploaded in this session, by name."""
    uploads = upload_slot(
        "Upload a label map (OLD=NEW lines)",
        key=LABELMAP_SLOT,
        validate=_check_map,
        multiple=True,
        help="A --labels-map file, e.g. one made by `evalcore align-labels` (docs/labels.md).",
    )
    return maps_with(uploads)


def label_map_choice(schemes: list[str], maps: dict[str, LabelMap]) -> SchemeLabelMaps:
    """The per-scheme label maps chosen in the sidebar (``labelmaps=SCHEME:MAP,...``)."""
    options = [choice_text(s, name) for s in schemes for name in maps]
    picked = bind(
        "labelmaps",
        "xs_labelmaps",
        [],
        st.sidebar.multiselect,
        "Label maps (per scheme)",
        options,
        help="SCHEME:MAP applies the map to that scheme's gold and parses before conversion, as "
        "`evalcore tedeval --labels-map SCHEME=FILE` (docs/tedeval.md, 'Per-scheme label maps'); "
        "the shipped maps are in "
        "assets/labelmaps/, made by `evalcore align-labels` (docs/labels.md).",
        offered=options,
        many=True,
    )
    return scheme_maps(picked, maps)


def settings(loaded: LoadedDataset) -> tuple[TedevalSettings, SchemeLabelMaps, bool]:
    """``evalcore tedeval``'s settings as declared (:class:`~evalcore.families.tedeval.TedevalSettings`;
    defaults as the command's, skipping as the dataset needs), in the sidebar and the link; the
    per-scheme label maps; whether each gold is also scored as a parse."""
    maps = available_maps()
    st.sidebar.markdown("**Experiment**")
    skip = loaded.spec.kind == "constituency" or any(a.spec.align == "skip-mismatch" for a in loaded.analyses)
    guess = guess_function_separators(loaded) if loaded.ptb() else "-="
    fields: dict[str, str | Field] = {
        "protocol": Field("Protocol", widget="xs_protocol"),
        "shuffles": Field("Shuffles (significance)", widget="xs_shuffles"),
        "seed": Field("Seed", widget="xs_seed"),
        "test": Field("Test", widget="xs_method", names=TESTS),
        "average": Field("Corpus score", widget="xs_average", names=AVERAGES),
        "skip_mismatched": Field("Skip sentences whose words differ", widget="xs_skip"),
        "labels": Field("Relation labels (LAS)", widget="xs_labels"),
    }
    if loaded.ptb():  # bracketed trees: function tags after one of these (FarPaHC NP*SBJ: '-=*')
        fields["function_sep"] = Field("Function-tag separators", widget=f"xs_funcsep:{loaded.spec.key}")
    base = TedevalSettings(skip_mismatched=skip, function_sep=guess)
    chosen = settings_form(base, fields, prefix="xs", where=st.sidebar)
    golds = bind(
        "golds",
        "xs_golds",
        False,
        st.sidebar.toggle,
        "Also score each gold as a parse",
        help="The ceiling: a gold scores 1.0 against every generalization it takes part in.",
    )
    chosen_maps = label_map_choice([s.name for s in experiment_schemes(loaded)], maps)
    return replace(chosen, function_sep=chosen.function_sep or guess), chosen_maps, golds


def merged_panel(loaded: LoadedDataset, chosen: TedevalSettings, maps: SchemeLabelMaps) -> None:
    """Which labels the chosen maps merged: scheme, OLD → NEW, label occurrences rewritten."""
    merged = merged_label_table(loaded, chosen, maps)
    st.markdown("**Labels the maps merged** (before conversion, in each scheme's gold and parses)")
    if merged.empty:
        st.caption("No label of these schemes is in the chosen maps: they change nothing here.")
        return
    st.dataframe(merged, hide_index=True, width="content")


def _is_general(row: Row) -> bool:
    """Rows against a generalization are named by their schemes joined with ``+``."""
    return "+" in row.against


def _against_label(row: Row) -> str:
    return f"{row.against} (generalized gold)" if _is_general(row) else f"{row.against} gold"


def _cell_text(row: Row, parse: str) -> str:
    cell = row.cell(parse)
    if cell is None:
        return "—"
    text = f"{cell.score:.4f}"
    if parse in row.best and len(row.cells) > 1:
        text = f"**{text}**"
    if parse not in row.best and row.not_significant_with_best(parse):
        text += " ?"
    return text


def table_markdown(result: ExperimentResult) -> str:
    """The papers' Table 1: rows (against, metric), one column per parse."""
    heads = [f"{md_escape(p)} ({md_escape(s)})" for p, s in result.parses]
    lines = [
        "| against | metric | " + " | ".join(heads) + " |",
        "|---|---|" + "---:|" * len(heads),
    ]
    last = None
    for row in result.rows:
        label = md_escape(_against_label(row)) if row.against != last else ""
        last = row.against
        cells = " | ".join(_cell_text(row, p) for p, _ in result.parses)
        lines.append(f"| {label} | {row.metric} | {cells} |")
    return "\n".join(lines)


def significance_table(result: ExperimentResult) -> pd.DataFrame:
    rows = [
        {
            "against": r.against,
            "metric": r.metric,
            "parse A": t.a,
            "parse B": t.b,
            "p-value": round(t.p_value, 4),
            "significant": "yes" if t.significant else "no",
        }
        for r in result.rows
        for t in r.tests
    ]
    return pd.DataFrame(rows)


def sentences_of_row(
    loaded: LoadedDataset, result: ExperimentResult, row: Row, order_by: str
) -> pd.DataFrame:
    """The row's sentences, worst first for ``order_by``: per parse its sentence score (a parse of the
    raw text: the score of the sentence's block, and the block's gold sentences where it has several)."""
    got = {p: row_sentence_scores(result, row.against, row.metric, p) for p, _ in result.parses}
    per_parse = {p: s for p, s in got.items() if s[0]}
    records = []
    for i in result.indices:
        info = loaded.sentences[i]
        rec: dict[str, object] = {"sentence": info.sent_id}
        for p, (scores, together) in per_parse.items():
            rec[p] = round(scores[i], 4)
            if any(together.values()):
                block = together.get(i, ())
                rec[f"{p}: block"] = " + ".join(loaded.sentences[g].sent_id for g in block)
        rec["words"] = shortened(info.text)
        rec["inspect"] = inspector_url(loaded.spec.key, info.sent_id)
        records.append(rec)
    table = pd.DataFrame(records)
    if order_by in table.columns:
        table = table.sort_values([order_by, "sentence"], kind="stable")
    return table


def row_panel(loaded: LoadedDataset, result: ExperimentResult) -> None:
    st.subheader("The sentences of one row")
    labels = [f"{_against_label(r)} · {r.metric}" for r in result.rows]
    default = next(
        (k for k, r in enumerate(result.rows) if _is_general(r) and r.metric == "L-TED"),
        next((k for k, r in enumerate(result.rows) if r.metric == "L-TED"), 0),
    )
    c1, c2 = st.columns([2, 2])
    # the row of another dataset or setting is not offered: the default is taken
    chosen = bind("row", "xs_row", labels[default], c1.selectbox, "Row", labels, offered=labels)
    row = result.rows[labels.index(chosen)]
    parses = [c.parse for c in row.cells]
    worst = f"xs_order:{chosen}"
    order_by = bind("worst", worst, parses[0], c2.selectbox, "Worst first by", parses, offered=parses)
    table = sentences_of_row(loaded, result, row, order_by)
    against = "against the generalized gold, discounted" if _is_general(row) else "against this gold"
    st.caption(
        f"{len(table)} sentences, worst first by *{md_escape(order_by)}*. Each score is the sentence's own "
        f"{row.metric} ({against}). Click a sentence to open it in the inspector (this tab) with its trees "
        "and edit scripts."
    )
    linked_table(table, height=360, key="xs_sentences", open_link=open_inspector)
    download_table(table, stem=f"{loaded.spec.key}_{row.against}_{row.metric}_sentences", key="xs-sentences")
    worst = table.head(5)
    if len(worst):
        st.markdown("Jump to the inspector (this tab):")
        cols = st.columns(len(worst))
        for col, (_, rec) in zip(cols, worst.iterrows(), strict=True):
            col.page_link(
                home(),
                label=f"{rec['sentence']} ({rec[order_by]:.4f})" if order_by in rec else str(rec["sentence"]),
                query_params={"data": loaded.spec.key, "sent": str(rec["sentence"])},
            )


def main() -> None:
    st.set_page_config(page_title="evalcore — cross-scheme TedEval", layout="wide")
    st.title("Cross-scheme TedEval")
    st.caption(
        "Each parse against each scheme's gold (SINGLE: UAS, LAS, U-TED, L-TED) and against the generalized "
        "gold of the schemes (MULTIPLE: U-TED, L-TED, with what the parse shares with its own gold's script "
        "discounted) — the layout of Table 1 in Tsarfaty, Nivre & Andersson (EMNLP 2011, EACL 2012). "
        "The same numbers as `evalcore tedeval`."
    )
    loaded = choose_dataset(kinds=("dependency", "constituency"))
    if loaded is None:
        return
    chosen, maps, golds = settings(loaded)
    schemes = experiment_schemes(loaded, include_golds=golds)
    if not schemes and loaded.ptb():
        st.info(
            "This dataset's bracketed files are read one sentence per line, as evalb does (an empty line "
            "is a sentence without a parse), which the experiment cannot score; see the FREVAL page."
        )
        return
    if not any(s.parses for s in schemes):
        st.info(
            "This dataset has no parse with a gold: upload a gold and a parse (or two golds of different "
            "schemes and their parses) to build the table."
        )
        return
    try:
        result = corpus_experiment(loaded, chosen, maps, golds=golds, label="Cross-scheme experiment")
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    st.markdown(table_markdown(result))
    averages = (
        "global averages 1 − Σδ/Σ(|p|+|G|)" if chosen.average == "global" else "means of sentence scores"
    )
    st.caption(
        f"**Bold**: best in the row. **?**: not significantly different from the row's best "
        f"({TESTS[chosen.test]}, "
        f"{chosen.shuffles:,} shuffles, seed {chosen.seed}, p ≥ 0.05). —: not applicable (UAS and LAS need "
        "dependency trees; a parse is scored against a generalization only if its own gold is in it). "
        f"Scores are {averages}; "
        f"{result.sentences} sentences, skipped {result.skipped_mismatched} (words differ) and "
        f"{result.skipped_invalid} (not a tree). Signature: `{result.signature}`"
    )
    raw = sorted({b.parse for b in result.raw_blocks})
    if raw:
        st.caption(
            f"{', '.join(f'*{md_escape(p)}*' for p in raw)}: a parse of the raw text (its words or sentences "
            "are its own): TedEval on the blocks of the CoNLL 2018 character alignment, UAS and LAS the "
            "scorer's aligned F1 (docs/rawtext.md). In the sentences of a row, each gold sentence shows "
            "its block's score; the inspector shows the block's edit script, segmentation apart."
        )
    if maps.maps:
        merged_panel(loaded, chosen, maps)
    if chosen.shuffles == 0:
        st.caption("Shuffles = 0: no significance test was run, so every pair is marked ?.")
    data = result_json(result)
    csv = pd.DataFrame(data["rows"]).drop(columns=["significant_vs"])  # type: ignore[arg-type]
    c1, c2, _ = st.columns([1, 1, 6])
    with c1:
        download_table(csv, stem=f"tedeval_{loaded.spec.key}", key="xs-table", label="CSV")
    c2.download_button(
        "LaTeX",
        latex_table(result),
        file_name=f"{safe_stem('tedeval_' + loaded.spec.key)}.tex",
        mime="text/x-tex",
        key="xs-latex",
        on_click="ignore",
    )
    with st.expander("Significance tests (every pair of parses on every row)"):
        st.dataframe(significance_table(result), hide_index=True, width="stretch")
    row_panel(loaded, result)


main()
