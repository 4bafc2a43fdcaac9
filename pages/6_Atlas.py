"""The discrepancy atlas: which constructions make schemes and parsers disagree, and what TedEval forgives.

Every edit operation of every parse (and of every gold read as a parse) against a target (a gold or
the generalization), grouped by construction, operation, head word or span length; counted vs
discounted per group and per parse; the sentences of a group, each a link to the inspector.  All
numbers come from ``evalcore.atlas`` (the same as ``evalcore atlas``, docs/atlas.md).
"""

from __future__ import annotations

import streamlit as st

from evalcore.atlas import CONSTRUCTIONS, GROUPINGS
from evalcore.errors import EvalcoreError
from evalcore.families.tedeval import TedevalSettings
from workbench.atlas_links import GroupRef, parse_group
from workbench.atlas_view import (
    bar_chart,
    dataset_atlas,
    group_frame,
    group_sentences,
    inspector_where,
    sentence_frame,
    targets,
)
from workbench.datasets import LoadedDataset
from workbench.inspector import home, open_inspector
from workbench.links import followed, keep_widget, report_link_problem
from workbench.settings_form import Field, bind, settings_form
from workbench.tables import show_table
from workbench.units import MAX_REQUEST, REQUEST, SOURCES, UnitRef, UnitSource, parse_unit
from workbench.units_view import BOOTSTRAP, dataset_units, rate_frame, score_frame, unit_sentences
from workbench.widgets import choose_dataset, download_table, md_escape, sentence_table


def linked_group() -> GroupRef | None:
    """The group of a link followed (``group=GROUPING:NAME``), or ``None`` (a bad value is said)."""
    value = followed("group")
    if not isinstance(value, str):
        return None
    ref = parse_group(value)
    if isinstance(ref, str):
        report_link_problem(ref)
        return None
    return ref


UNIT_LABELS = {
    "": "off",
    "schemes": "ud.pat / sud.pat, each scheme its own",
    "ud": "ud.pat for every scheme",
    "sud": "sud.pat for every scheme",
    REQUEST: "a request (paste it)",
}
assert tuple(UNIT_LABELS)[1:] == SOURCES


def linked_unit() -> UnitRef | None:
    """The construction of a link followed (``unit=SOURCE:NAME``), or ``None`` (a bad value is said)."""
    value = followed("unit")
    if not isinstance(value, str):
        return None
    ref = parse_unit(value)
    if isinstance(ref, str):
        report_link_problem(ref)
        return None
    return ref


def units_section(
    loaded: LoadedDataset, chosen: TedevalSettings, parse: str, target: str, labeled: bool
) -> None:
    """Constructions as units of evaluation: a pattern file's constructions or a pasted request,
    their rates between the golds, each parse's scores on one of them, and its sentences."""
    st.subheader("Constructions as units of evaluation")
    st.caption(
        "Score the parsers on a construction: the shipped pattern files' constructions, or a request you "
        "paste (docs/patterns.md). The same numbers as `evalcore atlas --pattern ...`."
    )
    key = loaded.spec.key
    options = list(UNIT_LABELS)
    unit_link = linked_unit()
    if unit_link is not None and followed("units") is None:  # the link's construction: its source on
        st.session_state["atlas_units"] = unit_link.source
    source = str(
        bind(
            "units",
            "atlas_units",
            "",
            st.radio,
            "Constructions from",
            options,
            format_func=UNIT_LABELS.__getitem__,
            horizontal=True,
            offered=options,
        )
    )
    if not source:
        return
    request = ""
    if source == REQUEST:
        request = str(
            bind(
                "pattern",
                "atlas_pattern",
                "",
                st.text_input,
                "A request in Grew's syntax, on every tree (press Enter)",
                placeholder="pattern { X -[cop]-> Y }",
                max_chars=MAX_REQUEST,
            )
        ).strip()
        if not request:
            st.info(
                "Paste a request, e.g. `pattern { X -[cop]-> Y }`: the words its matches bind are the unit."
            )
            return
    units = UnitSource(source, request)
    try:
        report = dataset_units(loaded, chosen, units)
    except EvalcoreError as exc:  # a malformed request: FILE:LINE: what is wrong
        st.error(str(exc), icon="🔎")
        return
    schemes = list(dict.fromkeys(s for _, s in report.parses))
    st.markdown(
        f"**Rates**: the words each construction covers in each gold and in either, and those on which the "
        f"golds agree (the same head in both). "
        f"Constructions from {md_escape(units.describe(schemes))}."
    )
    show_table(rate_frame(report), key="atlas-unit-rates", stem=f"atlas_{key}_unit_rates")
    names = list(report.units)
    unit_key = f"atlas_unit:{key}:{source}"
    linked = unit_link.name if unit_link is not None and unit_link.source == source else None
    if linked is not None:
        if linked in names:
            st.session_state[unit_key] = linked
        else:
            report_link_problem(f"unit: no construction '{linked}' in {UNIT_LABELS[source]}")
    if st.session_state.get(unit_key) not in names:
        st.session_state[unit_key] = names[0]
    name = str(st.selectbox("Construction", names, key=unit_key))
    unit = UnitRef(source, name)
    keep_widget("unit", unit_key, None if name == names[0] else unit.text())
    st.markdown(
        f"**Scores on *{md_escape(name)}***, percent [{BOOTSTRAP}-resample bootstrap interval] (rank): "
        "UAS and LAS on the gold words it covers, U-TED and L-TED on the operations and nodes it owns; "
        "`own gold`: each parse against its own scheme's gold. No paired tests here "
        "(`evalcore atlas --pattern` tests every pair and lists the flips)."
    )
    show_table(score_frame(report, name), key="atlas-unit-scores", stem=f"atlas_{key}_unit_{name}")
    st.caption(f"{report.sentences} sentences. Signature: `{report.signature}`")
    rows = unit_sentences(loaded, parse, target, labeled, units, unit, chosen)
    st.caption(
        f"{len(rows)} sentences where *{md_escape(name)}* covers a word of a gold, the best examples first: "
        f"the most operations it owns (◆) in the script of *{md_escape(parse)}* against "
        f"{md_escape(target)} per word, then the shortest. Click a sentence to open it in the inspector, "
        "here, with the construction's words boxed and its operations highlighted (◆, yellow)."
    )
    for col, row in zip(st.columns(5), rows[:5], strict=False):
        label = row.sent_id + (f" · {row.operations} ◆ · {row.length} w" if row.operations else "")
        col.page_link(home(), label=label, query_params={**dict(row.query)})
    picked = sentence_table(sentence_frame(rows), key=f"atlas_unit_sentences:{key}")
    if picked is not None:
        open_inspector(dict(rows[picked].query))


def main() -> None:
    st.set_page_config(page_title="evalcore — discrepancy atlas", layout="wide")
    st.title("Discrepancy atlas")
    st.caption(
        "Every TedEval edit operation of every parse — and of every gold read as a parse (`gold:…`) — "
        "against a target, grouped: which conventions separate the schemes, which of them TedEval "
        "discounts (grey) and which it still counts (purple). The same numbers as `evalcore atlas`."
    )
    loaded = choose_dataset(kinds=("dependency",))
    if loaded is None:
        return
    key = loaded.spec.key
    side = st.sidebar
    side.markdown("**Atlas**")
    chosen = settings_form(
        TedevalSettings(skip_mismatched=True),
        {
            "protocol": Field("Protocol", widget="atlas_protocol"),
            "skip_mismatched": Field("Skip sentences whose words differ", widget="atlas_skip"),
            "labels": Field("Relation labels (LAS per construction)", widget="atlas_labels"),
        },
        prefix="atlas",
        where=side,
    )
    try:
        atlas = dataset_atlas(loaded, chosen)
    except EvalcoreError as exc:
        st.error(str(exc))
        return
    if not atlas.cells:
        st.info("This dataset has no gold and parse over the same words to compare.")
        return
    names = targets(atlas)
    c1, c2, c3 = st.columns(3)
    target_key, kinds = f"atlas_target:{key}", ["unlabeled", "labeled"]
    target = bind(
        "against",
        target_key,
        names[0],
        c1.selectbox,
        "Target",
        names,
        help="a gold, or the generalization of the golds",
        offered=names,
    )
    scripts = bind(
        "scripts", "atlas_scripts", "unlabeled", c2.radio, "Scripts", kinds, horizontal=True, offered=kinds
    )
    linked = linked_group()  # group=GROUPING:NAME: its grouping is chosen

    def grouping_box(*, key: str) -> object:
        if linked is not None:
            st.session_state[key] = linked.grouping
        return c3.selectbox("Grouping", list(GROUPINGS), key=key)

    grouping = bind("grouping", "atlas_grouping", "construction", grouping_box, offered=GROUPINGS)
    labeled = scripts == "labeled"
    table = group_frame(atlas, str(target), labeled, grouping)
    st.caption(
        f"{atlas.sentences} sentences; skipped {atlas.skipped_mismatched} (words differ), "
        f"{atlas.skipped_invalid} (not a tree). Signature: `{atlas.signature}`"
    )
    if table.empty:
        st.info("No operation against this target: every analysis equals it.")
        return
    st.plotly_chart(bar_chart(table, grouping), key="atlas_chart")
    if grouping == "construction":
        with st.expander("The construction patterns, in priority order"):
            st.markdown(
                "\n".join(f"{k}. **{n}** — {md_escape(d)}" for k, (n, d) in enumerate(CONSTRUCTIONS, 1))
            )
    st.dataframe(table, hide_index=True, width="stretch", height=320)
    download_table(table, stem=f"atlas_{loaded.spec.key}_{target}_{scripts}_{grouping}", key="atlas-groups")

    st.subheader("The sentences of a group")
    parses = list(dict.fromkeys(table["parse"]))
    d1, d2 = st.columns(2)
    parse_key = f"atlas_parse:{key}"
    parse = bind("parse", parse_key, parses[0], d1.selectbox, "Parse", parses, offered=parses)
    mine = table[table["parse"] == parse]
    groups = list(mine["group"])
    group_key = f"atlas_group:{key}:{grouping}"
    if linked is not None and linked.grouping == grouping:
        if linked.name in groups:
            st.session_state[group_key] = linked.name
        else:
            report_link_problem(f"group: {parse} has no {scripts} operation in '{linked.name}' here")
    if st.session_state.get(group_key) not in groups:
        st.session_state[group_key] = groups[0]
    group = d2.selectbox("Group", groups, key=group_key)
    keep_widget("group", group_key, None if group == groups[0] else GroupRef(grouping, str(group)).text())
    ref = GroupRef(grouping, str(group))
    rows = group_sentences(loaded, atlas, str(parse), str(target), labeled, ref, chosen)
    where = inspector_where(loaded, atlas, str(parse), str(target))
    st.caption(
        f"{len(rows)} sentences where *{md_escape(str(parse))}* has {scripts} operations in "
        f"*{md_escape(str(group))}* against {md_escape(str(target))}, "
        + (
            "the best examples first: the most of the group's operations (◆) per word, then the shortest "
            "(click a column's header to sort by it). Click a sentence to open it in the inspector, here, "
            "at its edit script with the group's operations highlighted (◆, yellow)."
            if where.parse
            else "in file order. Click a sentence to open it in the inspector, without highlighting: "
            f"{md_escape(where.reason)}."
        )
    )
    for col, row in zip(st.columns(5), rows[:5], strict=False):
        label = row.sent_id + (f" · {row.operations} ◆ · {row.length} w" if row.operations else "")
        col.page_link(home(), label=label, query_params={**dict(row.query)})
    picked = sentence_table(sentence_frame(rows), key=f"atlas_sentences:{key}")
    if picked is not None:
        open_inspector(dict(rows[picked].query))
    units_section(loaded, chosen, str(parse), str(target), labeled)


main()
