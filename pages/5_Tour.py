"""A guided tour of TedEval through the papers' own examples, for teaching.

Each step is one example (``evalcore.examples``): the user changes the parse
(which word heads a phrase, which coordination analysis, a wrong label, a
bare phrase-structure parse, a Hebrew segmentation) and sees the drawings and
the numbers change -- attachment scores against one gold, TedEval against the
generalized gold of the schemes.  Every number is computed live by evalcore.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from evalcore.choices import PROTOCOL_2011
from evalcore.examples import (
    BCLM_HNEIM,
    COORDINATION,
    JOHN_LOVES_MARY,
    ON_SUNDAY,
    VERB_GROUP,
    DepExample,
)
from evalcore.families.tedeval import TedevalSettings, conversion_config
from evalcore.inspection import ParseView, SentenceReport, arc_verdicts, inspect_sentence
from evalcore.metrics.attachment import score, sentence_counts
from evalcore.metrics.lattice_tedeval import sentence_ted as lattice_ted
from evalcore.render.dot import lattice_to_dot, tree_to_dot
from evalcore.render.edits import LATTICE_LEGEND, lattice_ted_dots
from evalcore.render.layout import layout_dep, merge_grids, word_grid
from evalcore.render.svg import dep_svg
from evalcore.render.text import xml_escape
from evalcore.trees import DepTree, bracketed
from workbench.links import current_link, show_link_problems, write_link
from workbench.settings_form import Field, bind, settings_form
from workbench.tables import show_table
from workbench.tedeval import general_name
from workbench.tedeval_view import edit_script_panel, function_tree_figure
from workbench.widgets import Figure, drawing_size_control, graphviz_figure, md_escape, stacked_figures

# ---------------------------------------------------------------------------
# shared pieces


def dependency_drawings(golds: list[tuple[str, DepTree]], parse: DepTree, against: str, key: str) -> None:
    """The golds and the parse (compared with gold ``against``), aligned word by word."""
    gold_of = dict(golds)
    trees = [(f"gold {name}", t, None) for name, t in golds] + [("parse", parse, gold_of[against])]
    verdicts = [arc_verdicts(g, t) if g is not None else None for _, t, g in trees]
    first = [layout_dep(t, v) for (_, t, _), v in zip(trees, verdicts, strict=True)]
    grid = merge_grids([word_grid(x) for x in first])
    lays = (
        [layout_dep(t, v, grid=grid) for (_, t, _), v in zip(trees, verdicts, strict=True)] if grid else first
    )
    stacked_figures(
        [
            Figure(
                title,
                dep_svg(lay),
                None,
                stem=f"tour_{key}_{title}",
                key=f"tour:{key}:dep:{title}",
                note=f"compared with gold {against}" if g is not None else "",
            )
            for (title, _, g), lay in zip(trees, lays, strict=True)
        ]
    )


def trees_and_script(report: SentenceReport, pv: ParseView, general: str, key: str) -> None:
    """Each gold's function tree and the generalized gold, side by side; under them the parse's
    labeled edit script to the generalized gold (discounted)."""
    items = [(f"gold {name}", st_) for name, _, st_ in report.golds] + [
        (f"generalized gold {general}", report.general)
    ]
    for col, (title, tree) in zip(st.columns(len(items)), items, strict=True):
        with col:
            function_tree_figure(
                tree, title=title, stem=f"tour_{key}_{title}", key=f"tour:{key}:ft:{title}", scale=1.0
            )
    st.subheader("The parse's edit script")
    stem, key = f"tour_{key}", f"tour:{key}"
    edit_script_panel(
        report, pv, labeled=True, single=False, general_name=general, stem=stem, key=key, scale=1.0
    )


# ---------------------------------------------------------------------------
# dependency steps (EMNLP 2011 (4)–(6))

TEXT: dict[str, str] = {
    ON_SUNDAY.key: (
        "Two treebanks annotate *on Sunday* differently. In scheme **A** (example 4a) the noun heads and "
        "the preposition depends on it; in scheme **B** (4b) the preposition heads. Both are correct. "
        "**Flip the head** below: against gold A, a parse that follows scheme B loses two of its three "
        "attachments — **LAS collapses** to 0.3333 — yet TedEval against the generalized gold A+B, which "
        "keeps only what the schemes agree on, **stays at 1.0**: the parse made no error, it followed the "
        "other scheme. The third choice is a real error, and TedEval drops too. The edit script below "
        "shows why: the parse's deletions that only undo its own scheme's conventions (its own gold's "
        "script makes them too) are **discounted** (grey); only what no scheme does is **counted**. "
        "(Under the 2011 protocol a head is `*`, equal to any label: the script is empty.)"
    ),
    COORDINATION.key: (
        "Coordination has no agreed head: the conjunction (5a), the first conjunct (5b) or a chain (5c). "
        "The generalized gold keeps what all three agree on — one flat phrase with four words and their "
        "relations. Any of the three analyses scores 1.0 against it; attaching *and* to *wind* (a bracket "
        "no scheme has) is an error and is counted."
    ),
    VERB_GROUP.key: (
        "Which verb heads *would have worked*? (6a) says the auxiliary, (6b) the main verb: attachment "
        "scores say the two golds share no head (UAS 0). The default parse follows (6a) but labels "
        "*worked* `obj`. Its script to the generalized gold has three deletions; two of them are also "
        "in gold (6a)'s own script — they only undo (6a)'s conventions and are **discounted** (grey). "
        "Only `del obj {3}` is **counted**: δ = 1, score 1 − 1/(4+1) = **0.8** (2012 protocol; "
        "docs/tedeval.md, 'Edit scripts, discount and score')."
    ),
}


def _follow(example: DepExample, parse_key: str, own_key: str) -> None:
    """When the user picks another parse, its own gold follows (the user can still change it)."""
    st.session_state[own_key] = example.choice(st.session_state[parse_key]).own


def dependency_step(example: DepExample) -> None:
    st.header(example.title)
    st.caption(f"Source: {example.source}.")
    st.markdown(TEXT[example.key])
    parse_key, own_key, proto_key = (f"tour_{example.key}_{x}" for x in ("parse", "own", "proto"))
    schemes = {name: desc for name, desc, _ in example.schemes}
    # the step's choices are in the link (parse, own, protocol); the parse first: its own gold follows it
    offered = [c.key for c in example.choices]
    c1, c2, c3 = st.columns([3, 2, 1.3])
    with c1:
        choice_key = bind(
            "parse",
            parse_key,
            example.default or offered[0],
            st.radio,
            example.question,
            offered,
            format_func=lambda k: example.choice(k).label,
            on_change=_follow,
            args=(example, parse_key, own_key),
            offered=offered,
        )
    with c2:
        own = bind(
            "own",
            own_key,
            example.choice(str(choice_key)).own,
            st.radio,
            "The parser was trained on (its own gold, used for discounting)",
            list(schemes),
            format_func=lambda s: f"{s}: {schemes[s]}",
            offered=list(schemes),
        )
    with c3:  # the step's protocol (evalcore tedeval --protocol, as declared), in the link
        protocol_field = {"protocol": Field("TedEval protocol", widget=proto_key)}
        ted = settings_form(TedevalSettings(protocol=example.protocol), protocol_field, prefix="tour")
    protocol = ted.protocol
    choice = example.choice(str(choice_key))
    if choice.note:
        st.caption(choice.note)

    golds = example.golds()
    parse = example.tree(choice.spec, f"{example.key}-parse")
    first = golds[0][0]
    # the parse once per gold, for TEDEVAL SINGLE against each; "parse" is the one against its own gold
    names = {name: "parse" if name == own else f"parse vs {name}" for name, _ in golds}
    report = inspect_sentence(
        golds,
        [(names[name], str(own), parse) for name, _ in golds],
        conversion_config(ted),
        single_against={v: k for k, v in names.items()},
    )
    views = {v.single_scheme: v for v in report.parses}
    pv = views[str(own)]
    general = general_name([name for name, _ in golds])
    att = {name: score(sentence_counts(tree, parse)) for name, tree in golds}
    m = st.columns(4)
    m[0].metric(f"UAS against gold {first}", f"{att[first].uas:.4f}")
    m[1].metric(f"LAS against gold {first}", f"{att[first].las:.4f}")
    m[2].metric(f"L-TED against {general}", f"{pv.multiple[1].score:.4f}")
    m[3].metric(f"U-TED against {general}", f"{pv.multiple[0].score:.4f}")
    rows: list[dict[str, object]] = [
        {
            "against": f"gold {name}",
            "UAS": f"{att[name].uas:.4f}",
            "LAS": f"{att[name].las:.4f}",
            "U-TED": f"{views[name].single[0].score:.4f}",
            "L-TED": f"{views[name].single[1].score:.4f}",
        }
        for name, _ in golds
    ]
    rows.append(
        {
            "against": f"generalized gold {general} (discounted with {own})",
            "UAS": "—",
            "LAS": "—",
            "U-TED": f"{pv.multiple[0].score:.4f}",
            "L-TED": f"{pv.multiple[1].score:.4f}",
        }
    )
    show_table(pd.DataFrame(rows), key=f"tour-numbers:{example.key}")
    st.caption(
        "UAS/LAS: share of words with the right head (and label). U-TED/L-TED against one gold: "
        "1 − edits/(|parse| + |gold|), nothing discounted (TEDEVAL SINGLE). Against the generalized gold: "
        "edits the parse shares with its own gold's script are discounted (TEDEVAL MULTIPLE; "
        "docs/tedeval.md, 'Edit scripts, discount and score')."
    )
    st.subheader("Dependency trees")
    dependency_drawings(golds, parse, first, example.key)
    st.subheader("Function trees")
    st.caption(
        "Each word with dependents becomes a node labeled with its relation; its head word hangs under it "
        + ("as `*` (equal to any label)." if protocol == PROTOCOL_2011 else "as `hd`.")
        + " Generalized: "
        + md_escape(bracketed(report.general))
    )
    trees_and_script(report, pv, general, example.key)


# ---------------------------------------------------------------------------
# EACL 2012 Figures 1 and 4


def ptb_sd_step() -> None:
    ex = JOHN_LOVES_MARY
    st.header(ex.title)
    st.caption(f"Source: {ex.source}.")
    st.markdown(
        "A phrase-structure treebank (PTB, with function labels) and a dependency treebank (Stanford "
        "dependencies) describe *John loves Mary* in different frameworks. TedEval 2012 converts both to "
        "**multi-function trees** — a node per span, labeled with a *set* of functions; heads labeled `hd` — "
        "and the generalization of the two is the SD tree itself (Figure 1). A parser that outputs **bare "
        "brackets** has no labels at all: its L-TED is 0. Labeling it by **TL-unification** with a "
        "dependency conversion of the same parse (Figure 4) gives its nodes the functions back."
    )
    key = "tour_jlm_parse"
    options = {
        "bare": "the bare PTB parse, as it is (no function labels)",
        "tl": "the bare PTB parse, TL-unified with the SD conversion of the same parse (Figure 4)",
        "sd": "an SD parse equal to the SD gold",
    }
    choice = bind(
        "parse",
        key,
        "bare",
        st.radio,
        "The parse",
        list(options),
        format_func=options.get,
        horizontal=False,
        offered=list(options),
    )
    golds: list[tuple[str, object]] = [("PTB", ex.ptb(True)), ("SD", ex.sd_tree())]
    if choice == "sd":
        parses = [("parse", "SD", ex.sd_tree())]
        label_from = None
    else:
        parses = [("parse", "PTB", ex.ptb(False))]
        label_from = {"parse": ex.sd_tree()} if choice == "tl" else None
    report = inspect_sentence(golds, parses, label_from=label_from)  # type: ignore[arg-type]
    pv = report.parses[0]
    m = st.columns(4)
    m[0].metric(f"U-TED against gold {pv.scheme}", f"{pv.single[0].score:.4f}")
    m[1].metric(f"L-TED against gold {pv.scheme}", f"{pv.single[1].score:.4f}")
    m[2].metric(f"U-TED against {general_name(['PTB', 'SD'])}", f"{pv.multiple[0].score:.4f}")
    m[3].metric(f"L-TED against {general_name(['PTB', 'SD'])}", f"{pv.multiple[1].score:.4f}")
    st.subheader("The inputs")
    c1, c2, c3 = st.columns(3)
    with c1:
        st.markdown("**PTB gold, with function labels**")
        graphviz_figure(
            tree_to_dot(ex.ptb(True), show_positions=False), stem="tour_jlm_ptb", key="tour:jlm:ptb"
        )
    with c2:
        st.markdown("**SD gold (Stanford dependencies)**")
        lay = layout_dep(ex.sd_tree())
        stacked_figures([Figure("SD", dep_svg(lay), None, stem="tour_jlm_sd", key="tour:jlm:sd")])
    with c3:
        st.markdown("**Bare PTB parse (no functions)**")
        graphviz_figure(
            tree_to_dot(ex.ptb(False), show_positions=False), stem="tour_jlm_bare", key="tour:jlm:bare"
        )
    st.subheader("Multi-function trees")
    st.caption(
        "PTB: a node's labels are its function tags (category dropped); unary chains merge. "
        f"Parse: {md_escape(bracketed(pv.span_tree))} · generalized: {md_escape(bracketed(report.general))}"
    )
    trees_and_script(report, pv, general_name(["PTB", "SD"]), "jlm")


# ---------------------------------------------------------------------------
# ACL 2012 Figure 1


def lattice_step() -> None:
    ex = BCLM_HNEIM
    st.header(ex.title)
    st.caption(f"Source: {ex.source}.")
    style = "font-size:2rem;text-align:center;line-height:1.4"
    st.markdown(
        f'<div dir="rtl" lang="he" style="{style}">{xml_escape(ex.hebrew)}</div>', unsafe_allow_html=True
    )
    st.markdown(
        f"*{' '.join(ex.tokens)}* — {md_escape(ex.gloss)}. In Hebrew a space-delimited token can "
        "hold several words: the gold reads **BCLM** as B + H + CL + FL + HM ('in the shadow of them', "
        "with a covert definite article H) and **HNEIM** as H + NEIM ('the pleasant'). The parse of the "
        "paper's Figure 1 reads BCLM without the H and HNEIM as one verb. The trees are over **different "
        "words**, so attachment scores and PARSEVAL cannot compare them; TedEval over lattices can: "
        "lexemes (TAG:segment) are tree nodes, and the distance counts the nodes to delete and add, "
        "normalized by |parse| + |gold| − 2 (the roots are never edited)."
    )
    key = "tour_bclm_parse"
    keys = [p.key for p in ex.parses]
    choice = bind(
        "parse",
        key,
        keys[0],
        st.radio,
        "The parser's analysis",
        keys,
        format_func=lambda k: ex.parse(k).label,
        offered=keys,
    )
    analysis = ex.parse(str(choice))
    gold_tree, parse_tree = ex.gold.lattice_tree(), analysis.lattice_tree()
    result = lattice_ted(parse_tree, gold_tree)
    unlabeled = lattice_ted(parse_tree, gold_tree, labeled=False)
    m = st.columns(5)
    m[0].metric("TED (edit operations)", result.distance)
    m[1].metric("|gold| (nodes)", result.gold_size)
    m[2].metric("|parse| (nodes)", result.parse_size)
    m[3].metric("TedEval (labeled)", f"{result.score:.4f}")
    m[4].metric("TedEval (unlabeled)", f"{unlabeled.score:.4f}")
    st.markdown(
        f"Score = 1 − TED / (|parse| + |gold| − 2) = 1 − {result.distance} / "
        f"({result.parse_size} + {result.gold_size} − 2) = **{result.score:.4f}**"
    )
    if analysis.note:
        st.caption(analysis.note)
    hebrew = dict(ex.hebrew_segments)
    lexemes = [
        {
            "path": name,
            "token": tok,
            "segment": seg,
            "Hebrew": hebrew.get(seg, ""),
            "tag": tag,
            "states": f"{s}–{e}",
        }
        for name, path in (("gold", ex.gold.path), ("parse", analysis.path))
        for s, e, seg, tag, tok in path
    ]
    with st.expander("The lexemes of the two paths (transliteration, Hebrew, tag)"):
        st.dataframe(pd.DataFrame(lexemes), hide_index=True, width="stretch")
    st.subheader("The lattice")
    st.caption(
        "Both analyses in one morphological lattice, read right to left like Hebrew (state 0 on the right). "
        "Blue solid: the gold path; orange dashed: the parser's path; both colours: shared."
    )
    graphviz_figure(
        lattice_to_dot(ex.lattice(), gold_path=ex.gold.arcs(), pred_path=analysis.arcs(), title="BCLM HNEIM"),
        stem="tour_bclm_lattice",
        key="tour:bclm:lattice",
        scale=0.75,
        rtl=True,
    )
    st.subheader("The trees and the edit script")
    st.caption(LATTICE_LEGEND)
    p_dot, g_dot = lattice_ted_dots(parse_tree, gold_tree, result.pairs, titles=("parse", "gold"))
    left, right = st.columns([3, 2], gap="medium")
    with left:
        graphviz_figure(p_dot, stem="tour_bclm_parse", key="tour:bclm:parse")
        graphviz_figure(g_dot, stem="tour_bclm_gold", key="tour:bclm:gold")
    with right:
        ops = [
            {
                "operation": str(op),
                "kind": "deletion" if op.kind == "del" else "addition",
                "node": "lexeme" if op.lexeme else "internal node",
            }
            for op in result.ops
        ]
        if ops:
            st.dataframe(pd.DataFrame(ops), hide_index=True, width="stretch")
        else:
            st.success("No operation: the parse is the gold.")
        st.caption("⟨i,j⟩: the lattice states the node spans.")


# ---------------------------------------------------------------------------

DEPENDENCY_STEPS = ("on_sunday", "coordination", "verb_group")  # parse, own gold, protocol
STEPS: list[tuple[str, str, Callable[[], None]]] = [
    ("on_sunday", "1 · arrive on Sunday", lambda: dependency_step(ON_SUNDAY)),
    ("coordination", "2 · earth wind and fire", lambda: dependency_step(COORDINATION)),
    ("verb_group", "3 · would have worked", lambda: dependency_step(VERB_GROUP)),
    ("john_loves_mary", "4 · John loves Mary", ptb_sd_step),
    ("bclm_hneim", "5 · BCLM HNEIM", lattice_step),
]
KEYS = [k for k, _, _ in STEPS]
STEP_KEYS = ("parse", "own", "protocol")  # the link keys of a step's own choices ...
STEP_LINKS = {k: STEP_KEYS if k in DEPENDENCY_STEPS else STEP_KEYS[:1] for k in KEYS}  # ... per step


def _go(step: int) -> None:
    st.session_state["tour_step"] = KEYS[max(0, min(len(KEYS) - 1, step))]


def main() -> None:
    st.set_page_config(page_title="evalcore — a tour of TedEval", layout="wide")
    st.title("A tour of TedEval")
    st.caption(
        "The examples of Tsarfaty, Nivre & Andersson (EMNLP 2011, EACL 2012, ACL 2012), computed live by "
        "evalcore. Change the parse in each step and watch the drawings and the numbers."
    )
    link = current_link()  # validated (workbench/links.py): step is one of TOUR_STEPS or absent
    show_link_problems(link)
    if "tour_step" not in st.session_state:
        wanted = link.text("step")
        st.session_state["tour_step"] = wanted if wanted in KEYS else KEYS[0]
    drawing_size_control()
    titles = {k: t for k, t, _ in STEPS}
    step = st.radio("Step", KEYS, key="tour_step", horizontal=True, format_func=titles.get)
    st.query_params["step"] = str(step)
    index = KEYS.index(str(step))
    STEPS[index][2]()
    for name in STEP_KEYS[len(STEP_LINKS[str(step)]) :]:  # no choice of another step stays in the link
        write_link(name, None)
    st.divider()
    c1 = c2 = st.container(horizontal=True)  # each button as wide as its text (columns cut them)
    c1.button("◀ previous step", key="tour_prev", disabled=index == 0, on_click=_go, args=(index - 1,))
    c2.button(
        "next step ▶", key="tour_next", disabled=index == len(KEYS) - 1, on_click=_go, args=(index + 1,)
    )


main()
