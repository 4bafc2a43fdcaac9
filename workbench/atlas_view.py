"""The discrepancy atlas over a loaded dataset, for the Atlas page (docs/atlas.md).

Every number comes from :func:`evalcore.atlas.build_atlas` (the same as ``evalcore atlas``);
this module only picks the dataset's schemes, caches the result and shapes tables and the
chart.  Only :func:`dataset_atlas` touches streamlit (its cache).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from evalcore.atlas import Atlas, Grouping
from evalcore.conversion import ConversionConfig
from evalcore.experiment import Scheme
from evalcore.families.atlas import AtlasInputs, AtlasResult, AtlasSettings, run
from evalcore.families.tedeval import TedevalSettings, conversion_config
from evalcore.inspection import with_discount
from evalcore.trees import EditOp
from workbench.atlas_links import (
    GroupRef,
    InspectorTarget,
    highlight_flags,
    inspector_query,
    inspector_target,
)
from workbench.cache import cached
from workbench.datasets import LoadedDataset, SentenceInfo
from workbench.tedeval import TedParse, experiment_schemes, parse_choices
from workbench.tedeval_view import corpus_scripts
from workbench.text import shortened

__all__ = [
    "ATLAS_SETTINGS",
    "Flagger",
    "GroupSentence",
    "atlas_schemes",
    "bar_chart",
    "chart_frame",
    "dataset_atlas",
    "dataset_run",
    "example_order",
    "example_rows",
    "group_frame",
    "group_sentences",
    "inspector_where",
    "script_counts",
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


ATLAS_SETTINGS = AtlasSettings(no_ranking=True)
"""The page's atlas: ``evalcore atlas --no-ranking`` (the scores per construction are not tested)."""


@cached("resource", show_spinner="Grouping every edit operation…", max_entries=4)
def _atlas(
    files: tuple[tuple[str, str], ...], settings: TedevalSettings, _loaded: LoadedDataset
) -> AtlasResult:
    inputs = AtlasInputs(tuple(atlas_schemes(_loaded)), settings)
    return run(inputs, ATLAS_SETTINGS, keep_experiment=True)


def dataset_run(loaded: LoadedDataset, settings: TedevalSettings) -> AtlasResult:
    """The atlas of the dataset under the experiment's ``settings`` (``evalcore atlas``, its
    ranking skipped), with the experiment it was made from (the scores per construction read its
    scripts: :mod:`workbench.units_view`); cached on the files' digests and the frozen settings,
    kept as it is (not copied on every rerun)."""
    files = tuple((a.name, a.digest) for a in loaded.analyses)
    return _atlas.by(*(d for _, d in files))(files, settings, loaded)


def dataset_atlas(loaded: LoadedDataset, settings: TedevalSettings) -> Atlas:
    """The atlas of :func:`dataset_run`."""
    return dataset_run(loaded, settings).atlas


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


@dataclass(frozen=True, slots=True)
class GroupSentence:
    """One sentence of an atlas group as the Atlas lists it: how many of the group's operations the
    drawn script carries (``operations``, ``counted`` of them; ``None`` when the inspector cannot
    draw the cell's script), its length and text, and the inspector's query that opens it."""

    sent_id: str
    index: int
    operations: int | None
    counted: int | None
    length: int
    text: str
    query: tuple[tuple[str, str], ...]


Flagger = Callable[[TedParse, int, bool, Sequence[EditOp], ConversionConfig], tuple[bool, ...]]
"""Which operations of a script the inspector highlights: given the parse (its choice), the
sentence's index, whether the script goes to the single gold, the script and the conversion."""


def script_counts(
    loaded: LoadedDataset,
    where: InspectorTarget,
    indices: Sequence[int],
    labeled: bool,
    settings: TedevalSettings,
    flags_of: Flagger,
) -> dict[int, tuple[int, int]]:
    """Per sentence index, (operations, counted) highlighted by ``flags_of`` in the script the
    inspector draws for ``where`` -- its own scripts and its highlight rule, so that a count is the
    number of ◆ the inspector shows."""
    choice = next((c for c in parse_choices(loaded) if c.name == where.parse), None)
    if choice is None:
        return {}
    conversion = conversion_config(settings)
    scripts = corpus_scripts(loaded, choice, conversion)
    single = where.target == "single"
    out: dict[int, tuple[int, int]] = {}
    for i in indices:
        teds = scripts[i]
        if teds is None:
            continue
        ted = teds.script(single=single, labeled=labeled)
        flags = flags_of(choice, i, single, ted.script, conversion)
        marks = list(with_discount(ted.script, ted.discounted))
        out[i] = (sum(flags), sum(f and not d for f, (_, d) in zip(flags, marks, strict=True)))
    return out


def _group_flagger(group: GroupRef) -> Flagger:
    def flags(
        choice: TedParse, i: int, single: bool, script: Sequence[EditOp], conversion: ConversionConfig
    ) -> tuple[bool, ...]:
        target = choice.single if single else choice.own
        return highlight_flags(group, script, choice.analysis.trees[i], target.trees[i], conversion)

    return flags


def example_rows(
    listed: Sequence[SentenceInfo],
    counts: Mapping[int, tuple[int, int]],
    queries: Sequence[Mapping[str, str]],
) -> tuple[GroupSentence, ...]:
    """The rows of ``listed`` with their counts and inspector queries, the best examples first
    (:func:`example_order`); in the order given when nothing was counted."""
    rows = [
        GroupSentence(
            s.sent_id,
            s.index,
            counts[s.index][0] if s.index in counts else None,
            counts[s.index][1] if s.index in counts else None,
            s.length,
            s.text,
            tuple(q.items()),
        )
        for s, q in zip(listed, queries, strict=True)
    ]
    return tuple(sorted(rows, key=example_order)) if counts else tuple(rows)


def group_sentences(
    loaded: LoadedDataset,
    atlas: Atlas,
    parse: str,
    target: str,
    labeled: bool,
    group: GroupRef,
    settings: TedevalSettings,
) -> tuple[GroupSentence, ...]:
    """The sentences where ``group``'s operations occur (the atlas's list), the best examples first
    (:func:`example_order`; file order when the inspector cannot draw the cell's script, so that
    there is nothing to count)."""
    cell = atlas.cell(parse, target, labeled)
    ids: tuple[str, ...] = ()
    if cell is not None:
        ids = next((g.sentences for g in cell.grouped(group.grouping) if g.group == group.name), ())
    info = {s.sent_id: s for s in loaded.sentences}
    listed = [info[sid] for sid in ids if sid in info]
    where = inspector_where(loaded, atlas, parse, target)
    indices = [s.index for s in listed]
    counts = (
        script_counts(loaded, where, indices, labeled, settings, _group_flagger(group)) if where.parse else {}
    )
    queries = sentence_queries(
        loaded, [s.sent_id for s in listed], where, labeled=labeled, protocol=settings.protocol, group=group
    )
    return example_rows(listed, counts, queries)


def example_order(row: GroupSentence) -> tuple[float, int, int]:
    """The best examples of a group first: the most of the group's operations per word, then the
    shortest, then file order (docs/decisions.md, "The Atlas's examples, and opening them in this
    tab")."""
    return (-(row.operations or 0) / max(row.length, 1), row.length, row.index)


def sentence_frame(rows: Sequence[GroupSentence]) -> pd.DataFrame:
    """The Atlas's table of a group's sentences, in the order given."""
    return pd.DataFrame(
        [(r.sent_id, r.operations, r.counted, r.length, shortened(r.text)) for r in rows],
        columns=["sentence", "group operations", "counted", "words", "text"],
    )
