"""NED and the attachment family: which tokens count as correct under UAS, undirected and NED, and why.

Corpus numbers (micro-averaged, with ``--no-punct``, ``--max-len`` and
``--deprel-base`` as on the command line) come from
``evalcore.metrics.attachment.attach_corpus``; the per-token verdicts from
``judge_tokens`` (SPEC §3, Schwartz et al. 2011 §5).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from evalcore.errors import EvalcoreError
from evalcore.inspection import sentence_attachment
from evalcore.metrics.attachment import AttachConfig, TokenJudgement, is_punct, score
from evalcore.render.dot import dep_to_dot
from evalcore.render.layout import DepLayout, WordGrid, layout_dep, merge_grids, word_grid
from evalcore.render.svg import dep_svg
from evalcore.trees import DepTree
from workbench.cache import CorpusAttach, corpus_attach
from workbench.datasets import Analysis, LoadedDataset
from workbench.widgets import (
    Figure,
    choose_dataset,
    download_table,
    drawing_size_control,
    md_escape,
    sentence_picker,
    stacked_figures,
)

REASON = {"parent": "gold parent", "child": "gold child", "grandparent": "gold grandparent"}
SHORT = {"parent": "head", "child": "child", "grandparent": "grandp."}


def choose_pair(loaded: LoadedDataset) -> tuple[Analysis, Analysis] | None:
    """Gold and system selectors over every dependency file of the dataset."""
    deps = loaded.dep()
    if len(deps) < 2:
        st.info("This dataset has only one dependency analysis: there is nothing to score it against.")
        return None
    names = [a.name for a in deps]
    default = loaded.showcase_pair()
    g_default = names.index(default[0].name) if default else 0
    c1, c2 = st.columns(2)
    gold_name = c1.selectbox("Gold", names, index=g_default, key=f"ned_gold:{loaded.spec.key}")
    others = [n for n in names if n != gold_name]
    s_default = others.index(default[1].name) if default and default[1].name in others else 0
    system_name = c2.selectbox("System", others, index=s_default, key=f"ned_system:{loaded.spec.key}")
    return loaded.analysis(gold_name), loaded.analysis(system_name)


def settings() -> AttachConfig:
    c1, c2, c3 = st.columns(3)
    no_punct = c1.toggle("Leave punctuation out (--no-punct)", value=False, key="ned_no_punct")
    max_len = c2.number_input(
        "--max-len (0 = all sentences)", min_value=0, max_value=1000, value=0, step=1, key="ned_max_len"
    )
    deprel_base = c3.toggle("Compare labels before ':' only (--deprel-base)", value=False, key="ned_base")
    return AttachConfig(no_punct=no_punct, max_len=int(max_len) or None, deprel_base=deprel_base)


def corpus_panel(gold: Analysis, system: Analysis, result: CorpusAttach, loaded: LoadedDataset) -> None:
    s = result.result.score
    st.subheader("Corpus")
    cols = st.columns(5)
    for col, (name, value) in zip(
        cols,
        [
            ("UAS", s.uas),
            ("LAS", s.las),
            ("label acc", s.label),
            ("undirected", s.undirected),
            ("NED", s.ned),
        ],
        strict=True,
    ):
        col.metric(name, f"{value:.4f}")
    st.caption(
        f"{s.tokens} tokens in {s.sentences} sentences; skipped {s.skipped} (not a tree); "
        f"excluded {s.excluded} (longer than --max-len). Signature: `{s.signature}`"
    )
    if result.left_out:
        with st.expander(f"{len(result.left_out)} sentences not compared (their words differ)"):
            st.text("\n".join(result.left_out))
    for w in result.result.warnings:
        st.warning(w)
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
    with st.expander("Per-sentence scores"):
        st.dataframe(table, hide_index=True, width="stretch")
    download_table(table, stem=f"ned_{loaded.spec.key}_{system.name}_vs_{gold.name}", key="ned-corpus")


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
    cols = st.columns(5)
    for col, (name, value) in zip(
        cols,
        [
            ("UAS", sc.uas),
            ("undirected", sc.undirected),
            ("NED", sc.ned),
            ("LAS", sc.las),
            ("tokens", sc.tokens),
        ],
        strict=True,
    ):
        col.metric(
            name if name == "tokens" else f"{name} (sentence)",
            f"{value:.4f}" if isinstance(value, float) else value,
        )
    st.dataframe(table, hide_index=True, width="stretch")
    download_table(table, stem=f"{stem}_tokens", key="ned-tokens")


def main() -> None:
    st.set_page_config(page_title="evalcore — NED and attachment", layout="wide")
    st.title("NED and attachment scores")
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
    config = settings()
    drawing_size_control()
    try:
        result = corpus_attach(gold, system, config)
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    corpus_panel(gold, system, result, loaded)

    st.subheader("One sentence")
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
