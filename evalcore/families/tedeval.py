"""The cross-scheme TedEval family (docs/tedeval.md, "Definitions"; EMNLP 2011, EACL 2012);
docs/architecture.md, "The registry of metric families".

Start-up: the experiment is imported when :func:`run` runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from evalcore.choices import AVERAGES, PROTOCOL_2012, Average, Labels, Protocol
from evalcore.declare import setting
from evalcore.families.common import LabelReading, Resampling, relation_labels
from evalcore.limits import DEFAULT_LIMITS, Limits
from evalcore.significance import Method

if TYPE_CHECKING:
    from evalcore.conversion import ConversionConfig, LabelMap, SchemeLabelMaps
    from evalcore.experiment import ExperimentConfig, ExperimentResult, NamedTrees, Scheme
    from evalcore.metrics.tedeval import TedConfig
    from evalcore.resampling import BootstrapSettings, Intervals
    from evalcore.trees import DepTree, Tree

__all__ = [
    "TedevalInputs",
    "TedevalSettings",
    "batch_values",
    "conversion_config",
    "experiment_config",
    "experiment_intervals",
    "label_map_items",
    "run",
    "ted_config",
]


@dataclass(frozen=True)
class TedevalSettings(Resampling, LabelReading):
    """``evalcore tedeval``'s settings: how trees become (multi-)function trees, how scores
    average, the significance test of every pair of parses, the bootstrap intervals."""

    protocol: Protocol = setting(
        PROTOCOL_2012,
        "2012: multi-function trees (default); 2011: function trees with * heads",
        flag="--protocol",
        link="protocol",
    )
    labels_map: tuple[str, ...] = setting(
        (),
        "OLD=NEW label pairs applied first: FILE to every scheme's labels, SCHEME=FILE to that "
        "scheme's gold and parses only (SCHEME must be a --scheme name; else the whole text is a "
        "path); repeatable",
        flag="--labels-map",
        metavar="[SCHEME=]FILE",
    )
    average: Average = setting(AVERAGES[0], "", flag="--average", link="average")
    projectivize: bool = setting(False, "2012: lift non-projective arcs first", flag="--projectivize")
    skip_mismatched: bool = setting(
        False,
        "skip (and count) sentences whose words differ between files instead of failing",
        flag="--skip-mismatched",
        link="skip",
    )
    shuffles: int = setting(10_000, "significance trials (default 10000)", flag="--shuffles", link="shuffles")
    seed: int = setting(12345, "", flag="--seed", link="seed")
    test: Method = setting(
        "ar", "approximate randomization (default) or paired bootstrap", flag="--test", link="test"
    )
    per_sentence: bool = setting(
        False,
        "JSON: add every sentence's scores and edit scripts (counted / discounted)",
        flag="--per-sentence",
    )
    labels: Labels = relation_labels()


@dataclass(frozen=True, slots=True)
class TedevalInputs:
    """The schemes: each one's name, gold and parses (a file named by path is streamed; a parse's
    label donor is its ``label_from``, docs/tedeval.md, "Multi-function trees (2012 protocol)")."""

    schemes: tuple[Scheme, ...]


def label_map_items(items: Sequence[str], schemes: Sequence[str]) -> list[tuple[str | None, str]]:
    """Each ``labels_map`` item as (its scheme, or ``None`` for every scheme; the file):
    ``SCHEME=FILE`` when the text before the first ``=`` is one of ``schemes``, else the whole
    text is a path (so ``maps/v1=v2.txt`` is a file; docs/tedeval.md, "Per-scheme label maps")."""
    from evalcore.errors import InputFormatError

    out: list[tuple[str | None, str]] = []
    for item in items:
        scheme, sep, path = item.partition("=")
        if sep and scheme in schemes:
            if not path:
                raise InputFormatError(f"--labels-map {item}: no file after '{scheme}='")
            out.append((scheme, path))
        else:
            out.append((None, item))
    return out


def read_label_maps(
    items: Sequence[str], schemes: Sequence[str], limits: Limits = DEFAULT_LIMITS
) -> tuple[LabelMap, SchemeLabelMaps]:
    """The map of every scheme and the per-scheme maps of ``labels_map`` (several maps of every
    scheme are applied in the order given, as are several maps of one scheme)."""
    from evalcore.conversion import LabelMap, SchemeLabelMaps, read_label_map

    every = LabelMap()
    own: dict[str, LabelMap] = {}
    for scheme, path in label_map_items(items, schemes):
        if scheme is None:
            every = every.then(read_label_map(path, limits=limits))
        else:
            own[scheme] = own.get(scheme, LabelMap()).then(read_label_map(path, limits=limits))
    return every, SchemeLabelMaps.of(own)


def conversion_config(
    settings: TedevalSettings,
    schemes: Sequence[str] = (),
    limits: Limits = DEFAULT_LIMITS,
    *,
    label_maps: tuple[LabelMap, SchemeLabelMaps] | None = None,
) -> ConversionConfig:
    """How the trees become (multi-)function trees: the protocol, the label maps (``label_maps``:
    every scheme's and the per-scheme maps, already read, e.g. held in memory by the workbench;
    else ``settings.labels_map``'s files, read here), the label reading and lifting."""
    from evalcore.conversion import ConversionConfig

    label_map, scheme_maps = label_maps or read_label_maps(settings.labels_map, schemes, limits)
    return ConversionConfig(
        settings.protocol,
        label_map,
        settings.function_sep,
        settings.fold_case,
        settings.projectivize,
        scheme_maps,
        category_labels=settings.category_labels,
    )


def ted_config(
    settings: TedevalSettings,
    schemes: Sequence[str] = (),
    limits: Limits = DEFAULT_LIMITS,
    *,
    label_maps: tuple[LabelMap, SchemeLabelMaps] | None = None,
) -> TedConfig:
    """The TedEval score's settings (the conversion and the averaging)."""
    from evalcore.metrics.tedeval import TedConfig

    conversion = conversion_config(settings, schemes, limits, label_maps=label_maps)
    return TedConfig(conversion, settings.average)


def experiment_config(settings: TedevalSettings, ted: TedConfig | None = None) -> ExperimentConfig:
    """The experiment's settings (raises ``ValueError`` for a bootstrap, a level or a seed out of
    range: checked before any file is read)."""
    from evalcore.experiment import ExperimentConfig
    from evalcore.metrics.tedeval import TedConfig

    settings.bootstrap_settings()
    return ExperimentConfig(
        ted or TedConfig(),
        settings.shuffles,
        settings.seed,
        settings.test,
        settings.skip_mismatched,
        labels=settings.labels,
    )


def experiment_intervals(result: ExperimentResult, settings: BootstrapSettings, average: bool) -> Intervals:
    """Every cell's bootstrap interval, all from one stream of resamples of the kept sentences."""
    from evalcore.experiment import cell_name
    from evalcore.resampling import RatioKind, cells_table, intervals

    names: list[str] = []
    cells: list[tuple[tuple[float, float], ...]] = []
    kinds: list[RatioKind] = []
    for row in result.rows:
        for cell in row.cells:
            names.append(cell_name(row.against, row.metric, cell.parse))
            cells.append(cell.pairs)
            kinds.append("ratio" if average or row.metric in ("UAS", "LAS") else "ted")
    return intervals(cells_table(names, cells, kinds), settings)


def run(
    inputs: TedevalInputs,
    settings: TedevalSettings,
    limits: Limits = DEFAULT_LIMITS,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> ExperimentResult:
    """The cross-scheme experiment of ``inputs`` (docs/tedeval.md, "The cross-scheme experiment and
    significance"), with every cell's bootstrap interval when ``settings.bootstrap`` asks.

    Files named by path are read in step, one sentence at a time; in-memory trees are taken as
    they are."""
    from evalcore.experiment import run_experiment
    from evalcore.formats.detect import read_trees

    config = experiment_config(settings)
    boot = settings.bootstrap_settings()
    config = replace(config, ted=ted_config(settings, [s.name for s in inputs.schemes], limits))

    def reader(f: NamedTrees) -> Iterable[DepTree | Tree]:
        return read_trees(f.path, limits=limits) if f.path else f.trees

    result = run_experiment(
        list(inputs.schemes), config, details=settings.per_sentence, reader=reader, progress=progress
    )
    if boot is None:
        return result
    return replace(result, intervals=experiment_intervals(result, boot, settings.average == "sentence"))


def batch_values(result: ExperimentResult, parse: str) -> tuple[tuple[str, float], ...]:
    """The named numbers of a batch table's rows of ``parse``: each metric against its own gold
    (``UAS``, ``LAS``, ``U-TED``, ``L-TED``) and against a generalization (``L-TED@ud+sud``)."""
    return tuple(
        (row.metric if row.against == cell.scheme else f"{row.metric}@{row.against}", cell.score)
        for row in result.rows
        for cell in row.cells
        if cell.parse == parse
    )


def api_labels_map(
    labels_map: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    scheme_labels_maps: Iterable[tuple[str, str | os.PathLike[str]]],
    schemes: Sequence[str],
) -> tuple[str, ...]:
    """The ``labels_map`` setting of the API's two keywords: every scheme's files (a path that
    would read as ``SCHEME=FILE`` is written ``./SCHEME=FILE``) and scheme → file."""
    paths = [labels_map] if isinstance(labels_map, str | os.PathLike) else list(labels_map)
    every = [os.fspath(p) for p in paths]
    every = [os.path.join(".", p) if label_map_items([p], schemes)[0][0] is not None else p for p in every]
    unknown = sorted({s for s, _ in scheme_labels_maps} - set(schemes))
    if unknown:
        raise ValueError(f"scheme_labels_maps names no scheme: {', '.join(unknown)}")
    return (*every, *(f"{s}={os.fspath(p)}" for s, p in scheme_labels_maps))
