"""The inspector's edit script of a parse of the raw text (docs/app.md, "A parse of raw text on the
cross-scheme page and in the inspector"; docs/rawtext.md): for the chosen gold sentence, its block
(the gold and parse sentences the parse's words tie together), the block's gold sentences drawn
aligned by characters with the parse's words (:func:`workbench.aligned_view.aligned_sentence`), the
function trees of the block's parse sentences with their deletions and of its target sentences with
their insertions, and the operations in a table -- the operations from segmentation marked ✂ apart
from those from attachment (one more reason of :data:`evalcore.reasons.REASONS`, the origin).

The block and its script are :func:`evalcore.experiment_raw.inspect_block`'s (scored as the
cross-scheme experiment scores it), kept for every session like the inspector's other reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from evalcore.choices import PROTOCOL_2012
from evalcore.conversion import ConversionConfig, SchemeLabelMaps
from evalcore.errors import EvalcoreError
from evalcore.experiment import ExperimentResult
from evalcore.experiment_raw import BlockReport, inspect_block
from evalcore.families.tedeval import TedevalSettings
from evalcore.metrics.rawtext import Block, RawOp, blocks_of
from evalcore.reasons import block_reasons, hover_lines, operation_table
from evalcore.render.edits import EDIT_LEGEND, SEGMENTATION_LEGEND, marked_tree_dot
from workbench.aligned_view import aligned_sentence
from workbench.cache import aligned, app_limits, cached
from workbench.datasets import LoadedDataset
from workbench.tedeval import TedParse, general_name, row_sentence_scores, scheme_of, tree_golds
from workbench.tedeval_view import STATUS_COLOURS, TREE_SCALE, corpus_experiment, counting, script_table
from workbench.text import md_escape
from workbench.widgets import graphviz_figure, prerender

__all__ = [
    "BlockChoice",
    "block_panel",
    "block_report",
    "block_strip",
    "block_summary",
    "raw_block_ops",
    "raw_block_scores",
]

# the origin's teal (the status column's colours are the other tables')
SEGMENTATION_CSS = "color: #00707a; font-weight: 600"


@dataclass(frozen=True)
class BlockChoice:
    """What the block's script is asked for: the target (the parse's single gold, or the
    generalization of every gold), labeled or not, under the inspector's conversion."""

    single: bool
    labeled: bool
    conversion: ConversionConfig


@cached("resource", show_spinner=False, max_entries=16)
def _blocks(gold_digest: str, parse_digest: str, _choice: TedParse) -> tuple[Block, ...]:
    return blocks_of(aligned(_choice.own, _choice.analysis))


@cached("resource", show_spinner=False, max_entries=512)
def _report(
    files: tuple[str, ...],
    names: tuple[str, str, str],
    index: int,
    ask: BlockChoice,
    _loaded: LoadedDataset,
    _choice: TedParse,
) -> BlockReport:
    golds = {scheme_of(g): g.dep_trees for g in tree_golds(_loaded)}
    own = scheme_of(_choice.own)
    target = (scheme_of(_choice.single),) if ask.single else tuple(golds)
    blocks = _blocks.by(_choice.own.digest, _choice.analysis.digest)(
        _choice.own.digest, _choice.analysis.digest, _choice
    )
    return inspect_block(
        aligned(_choice.own, _choice.analysis),
        index,
        _choice.analysis.dep_trees,
        golds,
        own,
        target,
        ask.conversion,
        labeled=ask.labeled,
        blocks=blocks,
        limits=app_limits(),
    )


def block_report(loaded: LoadedDataset, choice: TedParse, index: int, ask: BlockChoice) -> BlockReport:
    """The block of gold sentence ``index`` and its script (cached on the files' digests, the
    sentence and the choice).  Raises :class:`EvalcoreError` (the alignment, a limit) or
    ``ValueError`` (the 2011 protocol)."""
    files = tuple(a.digest for a in (*tree_golds(loaded), choice.analysis))
    names = (choice.name, choice.own.name, choice.single.name)
    return _report.by(*files)(files, names, index, ask, loaded, choice)


def raw_block_scores(
    loaded: LoadedDataset, choice: TedParse, settings: TedevalSettings, maps: SchemeLabelMaps, *, single: bool
) -> dict[int, float]:
    """Per gold sentence, the L-TED of its block for the parse of the raw text ``choice`` (against its
    single gold, else the generalization of every gold): the cross-scheme experiment's cell, cached
    as the cross-scheme page's (:func:`workbench.tedeval_view.corpus_experiment`); ``{}`` (and the
    reason said) when the experiment cannot run."""
    got = _experiment(loaded, choice, settings, maps, single=single)
    return {} if got is None else row_sentence_scores(got[0], got[1], "L-TED", choice.analysis.name)[0]


def _experiment(
    loaded: LoadedDataset, choice: TedParse, settings: TedevalSettings, maps: SchemeLabelMaps, *, single: bool
) -> tuple[ExperimentResult, str] | None:
    """The cross-scheme experiment (cached as the cross-scheme page's) and the target the parse of
    the raw text ``choice`` is compared with: its single gold, else the generalization of every gold;
    ``None`` (and the reason said) when the experiment cannot run."""
    golds = [scheme_of(g) for g in tree_golds(loaded)]
    against = scheme_of(choice.single) if single or len(golds) == 1 else general_name(golds)
    try:
        result = corpus_experiment(loaded, counting(settings), maps, label="Blocks of the parses of raw text")
    except EvalcoreError as exc:
        st.error(str(exc))
        return None
    return result, against


def raw_block_ops(
    loaded: LoadedDataset,
    choice: TedParse,
    settings: TedevalSettings,
    maps: SchemeLabelMaps,
    *,
    single: bool,
    labeled: bool,
) -> dict[int, tuple[RawOp, ...]]:
    """Per gold sentence, the script of its block for the parse of the raw text ``choice`` (against
    its single gold, else the generalization of every gold; labeled or not): every gold sentence of a
    block has the block's script.  From the cross-scheme experiment, cached as :func:`raw_block_scores`."""
    got = _experiment(loaded, choice, settings, maps, single=single)
    if got is None:
        return {}
    result, against = got
    return {
        g: r.ops
        for r in result.raw_blocks
        if r.parse == choice.analysis.name and r.against == against and r.labeled == labeled
        for g in r.gold
    }


def block_strip(loaded: LoadedDataset, choice: TedParse, index: int, conversion: ConversionConfig) -> str:
    """This gold sentence's TedEval for the parse of the raw text ``choice``: its block's U-TED and
    L-TED single (against the gold it is scored with) and multiple (against the generalization,
    discounted with its own gold), as the inspector's score strip gives them for any parse; "" under
    the 2011 protocol or when the block cannot be scored (said by the edit script's panel)."""
    if conversion.protocol != PROTOCOL_2012:
        return ""
    golds = [scheme_of(g) for g in tree_golds(loaded)]
    try:
        score = {
            (single, labeled): block_report(
                loaded, choice, index, BlockChoice(single, labeled, conversion)
            ).ted.score
            for single in (True, False)
            for labeled in (False, True)
        }
    except (EvalcoreError, ValueError):
        return ""

    def pair(single: bool) -> str:
        return f"U-TED **{score[(single, False)]:.4f}** · L-TED **{score[(single, True)]:.4f}**"

    head = "TedEval of its block (2012)"
    if len(golds) == 1:
        return f"{head}: {pair(True)}"
    general, own = md_escape(general_name(golds)), md_escape(choice.own.name)
    multiple = f"multiple, against *{general}* (discounted with *{own}*): {pair(False)}"
    return f"{head} single: {pair(True)} — {multiple}"


def block_summary(report: BlockReport) -> str:
    """``5 operations: 5 counted, 0 discounted, 4 from segmentation (✂) · δ = 5 · |p| + |G| = 15 ·
    score 1 − 5/15 = 0.6667``."""
    ted = report.ted
    n = len(report.marks)
    d = sum(m.mark.discounted for m in report.marks)
    head = (
        f"{n} operation{'s' if n != 1 else ''}: {n - d} counted, {d} discounted, "
        f"{report.segmentation} from segmentation (✂)"
    )
    if not ted.norm:
        return f"{head} · no node to compare · score **{ted.score:.4f}**"
    ratio = f"{ted.delta}/{ted.norm}"
    return f"{head} · δ = {ted.delta} · |p| + |G| = {ted.norm} · score 1 − {ratio} = **{ted.score:.4f}**"


def _sentence_ids(
    loaded: LoadedDataset, choice: TedParse, report: BlockReport
) -> tuple[list[str], list[str]]:
    gold = [loaded.sentences[g].sent_id for g in report.block.gold]
    trees = choice.analysis.dep_trees
    parse = [trees[p].sent_id or f"sentence {p + 1}" for p in report.block.parse]
    return gold, parse


def _cell_css(column: str, value: object) -> str:
    if column == "status":
        return STATUS_COLOURS.get(str(value), "")
    if column == "origin" and str(value).startswith("✂"):
        return SEGMENTATION_CSS
    return ""


def _figures(
    report: BlockReport,
    name: str,
    target_name: str,
    notes: Sequence[Sequence[str]],
    ids: tuple[list[str], list[str]],
) -> list[tuple[str, str]]:
    """The DOT of every function tree of the block: the parse's sentences (deletions), then the target's
    (insertions); operations from segmentation marked."""
    gold_ids, parse_ids = ids
    flags = [m.segmentation for m in report.marks]
    marks = [m.mark for m in report.marks]
    out = []
    for sides, side, trees, sids, what in (
        ("parse", "parse", [p.st for p in report.parse], parse_ids, f"{name}, sentence"),
        ("target", "general", list(report.target_trees), gold_ids, f"{target_name},"),
    ):
        for k, (tree, sid) in enumerate(zip(trees, sids, strict=True)):
            keep = [i for i, m in enumerate(report.marks) if m.mark.on == side and m.position == k]
            title = f"{what} {sid}: {'deletions' if sides == 'parse' else 'insertions'}"
            dot = marked_tree_dot(
                tree,
                [marks[i] for i in keep],
                side=side,  # type: ignore[arg-type]
                title=title,
                notes=[notes[i] for i in keep],
                segmentation=[flags[i] for i in keep],
            )
            out.append((title, dot))
    return out


def block_panel(
    loaded: LoadedDataset, choice: TedParse, index: int, ask: BlockChoice, *, protocol: str, stem: str
) -> None:
    """The block of gold sentence ``index`` for the parse of the raw text ``choice``: its sentences, the
    aligned drawings of its other gold sentences, its function trees with the script drawn on them and
    the script's table (counted / discounted, ✂ segmentation / attachment)."""
    if protocol != PROTOCOL_2012:
        st.info(
            f"*{md_escape(choice.name)}* is a parse of the raw text: its edit script is defined under the "
            "2012 protocol only (docs/rawtext.md); choose 2012 in the sidebar."
        )
        return
    try:
        report = block_report(loaded, choice, index, ask)
    except (EvalcoreError, ValueError) as exc:
        st.error(str(exc))
        return
    ids = _sentence_ids(loaded, choice, report)
    target_name = (
        f"gold {scheme_of(choice.single)}"
        if ask.single
        else f"generalized gold {general_name([scheme_of(g) for g in tree_golds(loaded)])}"
    )
    st.markdown(
        f"**The block of this sentence**: gold sentence{'s' if len(ids[0]) > 1 else ''} "
        f"{', '.join(f'`{md_escape(s)}`' for s in ids[0])} and *{md_escape(choice.name)}*'s sentence"
        f"{'s' if len(ids[1]) > 1 else ''} {', '.join(f'`{md_escape(s)}`' for s in ids[1])} — a parse of the "
        "raw text: the gold and parse sentences its words tie together are compared as one tree each "
        f"(docs/rawtext.md), here by the {'words' if report.ted.path == 'words' else 'general'} path."
    )
    for g, sid in zip(report.block.gold, ids[0], strict=True):
        if g != index:  # the chosen sentence's own aligned drawing is above, with the trees
            st.markdown(f"Gold sentence `{md_escape(sid)}` of the block, aligned by characters:")
            aligned_sentence(choice.own, choice.analysis, g, sid, f"block-aligned:{choice.name}:{g}")
    what = "labeled" if ask.labeled else "unlabeled"
    discount = (
        ", no discount" if ask.single else f", discounted with its own gold *{md_escape(choice.own.name)}*"
    )
    st.markdown(
        f"{'L' if ask.labeled else 'U'}-TED of the block against *{md_escape(target_name)}* "
        f"({what}{discount}): {block_summary(report)}"
    )
    whys = block_reasons(report, ask.conversion, target=target_name)
    notes = [hover_lines(w) for w in whys]
    figures = _figures(report, choice.name, target_name, notes, ids)
    prerender([dot for _, dot in figures])
    for title, dot in figures:
        graphviz_figure(dot, stem=f"{stem}_{title}", key=f"block:{choice.name}:{title}", scale=TREE_SCALE)
    if whys:
        table = operation_table(
            whys, sentence=stem, parse=choice.name, target=target_name, protocol=protocol, labeled=ask.labeled
        )
        script_table(
            table,
            whys,
            key=f"block-ops:{choice.name}",
            stem=f"{stem}_{choice.name}_block_script",
            cell_css=_cell_css,
        )
    else:
        st.success("No operation: the parse's block already is the target (for this measure).")
    st.caption(SEGMENTATION_LEGEND + " " + EDIT_LEGEND)
