"""The discrepancy atlas over a loaded dataset, for the Atlas page (docs/atlas.md).

Every number comes from :func:`evalcore.atlas.build_atlas` (the same as ``evalcore atlas``);
this module only picks the dataset's schemes, caches the result and shapes tables and the
chart.  Only :func:`dataset_atlas` touches streamlit (its cache).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from evalcore.atlas import Atlas, Grouping
from evalcore.choices import PROTOCOL_2012, Protocol
from evalcore.experiment import Scheme
from evalcore.families.atlas import AtlasInputs, AtlasSettings, run
from evalcore.families.tedeval import TedevalSettings
from workbench.atlas_links import GroupRef, InspectorTarget, inspector_query, inspector_target
from workbench.cache import cached
from workbench.datasets import LoadedDataset
from workbench.links import inspector_link
from workbench.tedeval import experiment_schemes
from workbench.text import shortened

__all__ = [
    "atlas_schemes",
    "bar_chart",
    "chart_frame",
    "dataset_atlas",
    "group_frame",
    "inspector_where",
    "sentence_frame",
    "sentence_queries",
    "targets",
]

STATUS_COLOURS = {"counted": "#6a3d9a", "discounted": "#bdbdbd"}


def atlas_schemes(loaded: LoadedDataset) -> list[Scheme]:
    """The dataset's schemes, without its stand-in parses (a gold read as a parse of another
    scheme: the atlas takes every gold as a parse itself, named ``gold:SCHEME``)."""
    stand_ins = {a.name for a in loaded.analyses if a.spec.fallback}
    out = []
    for s in experiment_schemes(loaded):
        out.append(Scheme(s.name, s.gold, tuple(p for p in s.parses if p.name not in stand_ins)))
    return out


@cached("data", show_spinner="Grouping every edit operation…", max_entries=8)
def _atlas(files: tuple[tuple[str, str], ...], settings: TedevalSettings, _loaded: LoadedDataset) -> Atlas:
    return run(AtlasInputs(tuple(atlas_schemes(_loaded)), settings), AtlasSettings(no_ranking=True)).atlas


def dataset_atlas(loaded: LoadedDataset, settings: TedevalSettings) -> Atlas:
    """The atlas of the dataset under the experiment's ``settings`` (``evalcore atlas``, its
    ranking skipped; cached on the files' digests and the frozen settings)."""
    files = tuple((a.name, a.digest) for a in loaded.analyses)
    return _atlas.by(*(d for _, d in files))(files, settings, loaded)


def targets(atlas: Atlas) -> list[str]:
    """Every target, generalizations (more schemes first) before single golds."""
    names = list(dict.fromkeys(c.target for c in atlas.cells))
    return sorted(names, key=lambda t: (-t.count("+"), names.index(t)))


def group_frame(atlas: Atlas, target: str, labeled: bool, grouping: Grouping) -> pd.DataFrame:
    """One row per (parse, group) against ``target``: counted, discounted, share of δ, sentences."""
    rows = []
    for c in atlas.cells:
        if c.target != target or c.labeled != labeled or (c.parse.startswith("gold:") and c.scheme == target):
            continue
        for g in c.grouped(grouping):
            rows.append(
                (c.parse, g.group, g.counted, g.discounted, round(100 * g.share, 1), len(g.sentences))
            )
    return pd.DataFrame(rows, columns=["parse", "group", "counted", "discounted", "share of δ", "sentences"])


def chart_frame(table: pd.DataFrame) -> pd.DataFrame:
    """``group_frame`` in long form for the chart: parse, group, status, operations."""
    if table.empty:
        return pd.DataFrame(columns=["parse", "group", "status", "operations"])
    long = table.melt(
        id_vars=["parse", "group"],
        value_vars=["counted", "discounted"],
        var_name="status",
        value_name="operations",
    )
    return long[long["operations"] > 0]


def bar_chart(table: pd.DataFrame, grouping: str) -> go.Figure:
    """Counted and discounted operations per group, one panel per parse."""
    frame = chart_frame(table)
    order = (
        list(table.groupby("group")["counted"].sum().sort_values(ascending=False).index) if len(table) else []
    )
    fig = px.bar(
        frame,
        x="group",
        y="operations",
        color="status",
        facet_col="parse",
        facet_col_wrap=3,
        barmode="stack",
        category_orders={"group": order, "status": ["counted", "discounted"]},
        color_discrete_map=STATUS_COLOURS,
        labels={"group": grouping},
    )
    fig.for_each_annotation(lambda a: a.update(text=a.text.split("=", 1)[-1]))
    fig.update_layout(height=380 + 240 * max(0, (table["parse"].nunique() - 1) // 3), legend_title_text="")
    return fig


def inspector_where(loaded: LoadedDataset, atlas: Atlas, parse: str, target: str) -> InspectorTarget:
    """Where the inspector shows the script of ``parse`` against ``target`` (or why it cannot)."""
    cell = next((c for c in atlas.cells if c.parse == parse and c.target == target), None)
    if cell is None:
        return InspectorTarget(reason=f"the atlas has no script of {parse} against {target}")
    return inspector_target(loaded, parse, cell.scheme, target)


def sentence_queries(
    loaded: LoadedDataset,
    ids: Sequence[str],
    where: InspectorTarget,
    *,
    labeled: bool,
    protocol: str,
    group: GroupRef,
) -> list[dict[str, str]]:
    """The inspector's query string of each sentence: at the sentence, with the cell's script and
    the group's operations highlighted (:func:`workbench.atlas_links.inspector_query`)."""
    return [
        inspector_query(loaded, sid, where, labeled=labeled, protocol=protocol, group=group) for sid in ids
    ]


def sentence_frame(
    loaded: LoadedDataset,
    atlas: Atlas,
    parse: str,
    target: str,
    labeled: bool,
    grouping: Grouping,
    group: str,
    *,
    protocol: Protocol = PROTOCOL_2012,
) -> pd.DataFrame:
    """The sentences where the group's operations occur, each with a link to the inspector that
    shows its script with the group's operations highlighted (when the inspector can draw it)."""
    cell = atlas.cell(parse, target, labeled)
    ids: tuple[str, ...] = ()
    if cell is not None:
        ids = next((g.sentences for g in cell.grouped(grouping) if g.group == group), ())
    text = {s.sent_id: s.text for s in loaded.sentences}
    where = inspector_where(loaded, atlas, parse, target)
    queries = sentence_queries(
        loaded, ids, where, labeled=labeled, protocol=protocol, group=GroupRef(grouping, group)
    )
    rows = [
        {
            "sentence": sid,
            "words": shortened(text.get(sid, "")),
            "inspect": inspector_link(query),
        }
        for sid, query in zip(ids, queries, strict=True)
    ]
    return pd.DataFrame(rows, columns=["sentence", "words", "inspect"])
