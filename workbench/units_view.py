"""Constructions as units of evaluation on the Atlas page (docs/app.md, "Constructions on the Atlas
page"): the rates and per-parser scores of each construction of a pattern file or of a pasted
request, and the sentences where one occurs, the best examples first, each opening the inspector
with the construction highlighted.

Every number comes from :func:`evalcore.families.atlas.unit_report` (``evalcore atlas --pattern``'s
rates and scores) over the atlas the page already holds (:func:`workbench.atlas_view.dataset_run`:
its experiment is not run again); only the caches touch streamlit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pandas as pd

from evalcore.atlas import atlas_tree
from evalcore.construction_scores import ConstructionReport, ScoreCell
from evalcore.conversion import ConversionConfig
from evalcore.families.atlas import AtlasInputs, unit_report
from evalcore.families.tedeval import TedevalSettings, conversion_config
from evalcore.report.constructions import order_text, score_text
from evalcore.trees import DepTree, EditOp
from workbench.atlas_links import InspectorTarget
from workbench.atlas_view import (
    ATLAS_SETTINGS,
    Flagger,
    GroupSentence,
    atlas_schemes,
    dataset_run,
    example_rows,
    inspector_where,
    script_counts,
)
from workbench.cache import cached
from workbench.datasets import LoadedDataset
from workbench.tedeval import TedParse, scheme_of
from workbench.units import REQUEST, UnitRef, UnitSource, unit_coverage, unit_flags

__all__ = [
    "BOOTSTRAP",
    "dataset_units",
    "rate_frame",
    "score_frame",
    "unit_occurrences",
    "unit_query",
    "unit_sentences",
]

BOOTSTRAP = 200
"""Resamples of the page's intervals (``evalcore atlas --bootstrap 200``; its seed and level are the
experiment's)."""


def _schemes(loaded: LoadedDataset) -> tuple[str, ...]:
    return tuple(s.name for s in atlas_schemes(loaded))


@cached("data", show_spinner="Scoring every construction…", max_entries=16)
def _units(
    files: tuple[tuple[str, str], ...], settings: TedevalSettings, source: UnitSource, _loaded: LoadedDataset
) -> ConstructionReport:
    schemes = atlas_schemes(_loaded)
    coverage = unit_coverage(source, tuple(s.name for s in schemes))
    outcome = dataset_run(_loaded, settings)
    inputs = AtlasInputs(tuple(schemes), replace(settings, bootstrap=BOOTSTRAP))
    return unit_report(inputs, ATLAS_SETTINGS, outcome, coverage)


def dataset_units(loaded: LoadedDataset, settings: TedevalSettings, source: UnitSource) -> ConstructionReport:
    """The rates and scores per construction of ``source`` on the dataset under ``settings`` --
    ``evalcore atlas --no-ranking --bootstrap 200 --pattern ...`` (no paired tests, so no flips);
    cached on the files, the settings and the source.  A malformed request raises its
    :class:`~evalcore.errors.PatternError`."""
    unit_coverage(source, _schemes(loaded))  # a malformed request raises before any work
    files = tuple((a.name, a.digest) for a in loaded.analyses)
    return _units.by(*(d for _, d in files))(files, settings, source, loaded)


def rate_frame(report: ConstructionReport) -> pd.DataFrame:
    """One row per construction and pair of golds: the words it covers in each and in either, those
    the golds agree on, and their share."""
    rows = [
        (
            r.construction,
            f"{r.a} / {r.b}",
            r.words_a,
            r.words_b,
            r.words,
            r.agree,
            round(100 * r.share, 1) if r.words else None,
        )
        for r in report.rates
    ]
    columns = ["construction", "golds", "words in first", "words in second", "words", "agree", "agree %"]
    return pd.DataFrame(rows, columns=columns)


def _shown(cells: Sequence[ScoreCell]) -> bool:
    return any(c.n for c in cells)


def score_frame(report: ConstructionReport, unit: str) -> pd.DataFrame:
    """The scores of ``unit``: one row per (metric, against), one column per parse, each cell
    ``percent [interval] (rank)`` as ``evalcore atlas`` prints it, and the order of the parses; a row
    over nothing (no token, no node) is left out, as the command does."""
    names = [p for p, _ in report.parses]
    scores = report.of(unit)
    rows: list[list[str]] = []
    if scores is not None:
        for row, (against, metric, cells) in zip(scores.rows, scores.cells, strict=True):
            if not _shown(cells):
                continue
            by = {c.parse: c for c in cells}
            order = order_text([(c.parse, c.rank) for c in row.cells])
            rows.append([metric, against, *(score_text(by.get(p)) for p in names), order])
    return pd.DataFrame(rows, columns=["metric", "against", *names, "order"])


@cached("data", show_spinner=False, max_entries=32)
def _occurs(
    files: tuple[tuple[str, str], ...],
    conversion: ConversionConfig,
    source: UnitSource,
    name: str,
    _loaded: LoadedDataset,
) -> tuple[int, ...]:
    schemes = atlas_schemes(_loaded)
    coverage = unit_coverage(source, tuple(s.name for s in schemes))
    out = []
    for i in range(len(_loaded.sentences)):
        for s in schemes:
            tree = s.gold.trees[i] if i < len(s.gold.trees) else None
            if isinstance(tree, DepTree) and name in coverage.of_tree(atlas_tree(tree, conversion), s.name):
                out.append(i)
                break
    return tuple(out)


def unit_occurrences(
    loaded: LoadedDataset, settings: TedevalSettings, source: UnitSource, name: str
) -> tuple[int, ...]:
    """The sentences (0-based) where construction ``name`` covers a word of a gold tree -- the words
    its rates count -- in file order; cached."""
    files = tuple((a.name, a.digest) for a in loaded.analyses)
    conversion = conversion_config(settings)
    return _occurs.by(*(d for _, d in files))(files, conversion, source, name, loaded)


def _unit_flagger(loaded: LoadedDataset, source: UnitSource, name: str) -> Flagger:
    coverage = unit_coverage(source, _schemes(loaded))

    def flags(
        choice: TedParse, i: int, single: bool, script: Sequence[EditOp], conversion: ConversionConfig
    ) -> tuple[bool, ...]:
        target = choice.single if single else choice.own
        parse_side = (choice.analysis.trees[i], scheme_of(choice.own))
        return unit_flags(
            coverage, name, script, parse_side, (target.trees[i], scheme_of(target)), conversion
        )

    return flags


def unit_query(
    loaded: LoadedDataset,
    sent_id: str,
    where: InspectorTarget,
    *,
    labeled: bool,
    protocol: str,
    source: UnitSource,
    unit: UnitRef,
) -> dict[str, str]:
    """The inspector's query string for one sentence of a construction: at the sentence, the script
    of ``where`` with the construction highlighted (``unit=``; a request also as the inspector's
    ``pattern=`` filter, which keeps the sentence); only ``data``, ``sent`` and the construction when
    the inspector cannot draw the script."""
    query = {"data": loaded.spec.key, "sent": sent_id, "unit": unit.text()}
    if source.source == REQUEST:
        query["pattern"] = source.request
    if not where.parse:
        return query
    return query | {
        "parse": where.parse,
        "target": where.target,
        "labeled": "yes" if labeled else "no",
        "protocol": protocol,
    }


def unit_sentences(
    loaded: LoadedDataset,
    parse: str,
    target: str,
    labeled: bool,
    source: UnitSource,
    unit: UnitRef,
    settings: TedevalSettings,
) -> tuple[GroupSentence, ...]:
    """The sentences where ``unit`` occurs (:func:`unit_occurrences`), each with the number of the
    operations it owns in the script of ``parse`` against ``target`` that the inspector draws (and
    how many of them are counted), the best examples first -- the most owned operations per word,
    then the shortest, then file order (:func:`workbench.atlas_view.example_order`); file order
    when the inspector cannot draw that script."""
    atlas = dataset_run(loaded, settings).atlas
    listed = [loaded.sentences[i] for i in unit_occurrences(loaded, settings, source, unit.name)]
    where = inspector_where(loaded, atlas, parse, target)
    flagger = _unit_flagger(loaded, source, unit.name)
    indices = [s.index for s in listed]
    counts = script_counts(loaded, where, indices, labeled, settings, flagger) if where.parse else {}
    queries = [
        unit_query(
            loaded, s.sent_id, where, labeled=labeled, protocol=settings.protocol, source=source, unit=unit
        )
        for s in listed
    ]
    return example_rows(listed, counts, queries)
