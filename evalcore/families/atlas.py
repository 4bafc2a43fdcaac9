"""The discrepancy atlas family (docs/atlas.md): every TedEval operation grouped, and the ranking of
the parses under every metric with its tests; its own settings beyond the experiment's.

Start-up: the atlas and the ranking are imported when :func:`run` runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from evalcore.declare import setting
from evalcore.display import Tabular
from evalcore.families.common import Warn
from evalcore.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from evalcore.atlas import Atlas, AtlasConfig, SchemePatterns
    from evalcore.construction_scores import ConstructionReport, Coverage
    from evalcore.experiment import ExperimentResult, Scheme
    from evalcore.families.tedeval import TedevalSettings
    from evalcore.ranking import Ranking, RankingConfig

__all__ = [
    "AtlasInputs",
    "AtlasResult",
    "AtlasSettings",
    "ranking_config",
    "read_patterns",
    "run",
    "unit_report",
]

ExportSide = Literal["gold", "parse"]


@dataclass(frozen=True)
class AtlasSettings:
    """``evalcore atlas``'s own settings: the operations kept, the golds taken as parses, the
    ranking, and (the command only) the parse whose verdicts ``--export-misc`` writes."""

    per_sentence: bool = setting(
        False,
        "JSON: add every operation with its groups; CSV: write the operations instead of the groups",
        flag="--per-sentence",
    )
    no_golds: bool = setting(False, "do not take the golds as parses of their scheme", flag="--no-golds")
    no_ranking: bool = setting(False, "skip the ranking and its significance tests", flag="--no-ranking")
    freval_sizes: int = setting(
        3,
        "ranking: FREVAL F1 rows for fragment sizes 1..N where a parse and its gold are constituency "
        "trees (default 3)",
        flag="--freval-sizes",
        metavar="N",
    )
    patterns: tuple[str, ...] = setting(
        (),
        "the construction grouping from a pattern file (docs/patterns.md) instead of the default, "
        "assets/patterns/atlas.pat: FILE for every scheme's trees, SCHEME=FILE for that scheme's gold and "
        "parses (SCHEME must be a --scheme name; else the whole text is a path); the shipped files are "
        "assets/patterns/ud.pat and sud.pat; repeatable",
        flag="--pattern",
        metavar="[SCHEME=]FILE",
    )
    export_parse: str | None = setting(
        None,
        "the parse whose verdicts are exported (default: the first)",
        flag="--export-parse",
        metavar="NAME",
        api=None,
    )
    export_target: str | None = setting(
        None,
        "a gold's scheme or a generalization ('ud+sud'); default: the generalization of all schemes",
        flag="--export-target",
        metavar="TARGET",
        api=None,
    )
    export_side: ExportSide = setting(
        "gold",
        "write the gold (the target's, or the parse's own for a generalization) or the parse",
        flag="--export-side",
        api=None,
    )
    export_unlabeled: bool = setting(
        False, "export the unlabeled scripts' verdicts", flag="--export-unlabeled", api=None
    )


@dataclass(frozen=True, slots=True)
class AtlasInputs:
    """The schemes (each gold and its parses, trees in memory) and the cross-scheme experiment's
    settings, ``evalcore tedeval``'s (its conversion, average and mismatch policy; its trials, seed
    and test also rank the parses)."""

    schemes: tuple[Scheme, ...]
    experiment: TedevalSettings


@dataclass(frozen=True, slots=True)
class AtlasResult(Tabular):
    """The atlas, the ranking of the parses (``None``: skipped, or fewer than two parses), whether
    every operation was kept (``per_sentence``), and with pattern files the rates and scores per
    construction (docs/patterns.md, "Constructions as units of evaluation"); with ``keep_experiment``,
    the experiment the atlas was made from (its scripts: :func:`unit_report` reads them again)."""

    atlas: Atlas
    ranking: Ranking | None
    per_sentence: bool = False
    config: AtlasConfig | None = field(default=None, compare=False, repr=False)  # as the atlas read the trees
    constructions: ConstructionReport | None = None  # with pattern files (docs/patterns.md)
    experiment: ExperimentResult | None = None  # with keep_experiment

    @property
    def signature(self) -> str:
        return self.atlas.signature


def ranking_config(settings: AtlasSettings, experiment: TedevalSettings) -> RankingConfig:
    """The ranking's configuration with the experiment's trials, seed and test (raises
    :class:`~evalcore.errors.InputFormatError` or ``ValueError``), checked before a file is read."""
    from evalcore.errors import InputFormatError
    from evalcore.ranking import RankingConfig

    if settings.freval_sizes < 1:
        raise InputFormatError(f"--freval-sizes: must be at least 1 (got {settings.freval_sizes})")
    return RankingConfig(
        experiment.shuffles, experiment.seed, experiment.test, freval_sizes=settings.freval_sizes
    )


def read_patterns(
    items: Sequence[str], schemes: Sequence[str], limits: Limits = DEFAULT_LIMITS
) -> tuple[SchemePatterns, ...]:
    """Each ``--pattern`` item read and compiled (``SCHEME=FILE`` when the text before the first
    ``=`` is one of ``schemes``, else the whole text is a path, as ``--labels-map`` reads its items);
    a file that cannot be read, or a malformed pattern, raises with its file and line.  Each entry's
    search in a tree is bounded by ``limits.pattern_steps`` (docs/robustness.md, "Pattern searches")."""
    import hashlib
    from pathlib import Path

    from evalcore.atlas import SchemePatterns
    from evalcore.errors import PatternError
    from evalcore.families.tedeval import label_map_items
    from evalcore.patterns import compile_file, parse_pattern_file, read_text

    out = []
    for scheme, path in label_map_items(items, schemes):
        text = read_text(path, limits)  # once: parsed, and its digest named in the signature
        pf = parse_pattern_file(text, path)
        if not pf.constructions:
            raise PatternError("no construction in the pattern file", file=path, line=None)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
        out.append(SchemePatterns(scheme, compile_file(pf, limits), Path(path).name, digest))
    return tuple(out)


def run(
    inputs: AtlasInputs,
    settings: AtlasSettings,
    limits: Limits = DEFAULT_LIMITS,
    *,
    on_warning: Warn | None = None,
    keep_ops: bool = False,
    keep_experiment: bool = False,
) -> AtlasResult:
    """The atlas of ``inputs`` (docs/atlas.md) and, unless ``no_ranking``, the ranking of its parses
    (two at least; the golds taken as parses are not ranked).  Every operation is kept with
    ``per_sentence`` or ``keep_ops``, the experiment with ``keep_experiment`` (for
    :func:`unit_report`); ``on_warning`` hears of the sentences skipped."""
    from evalcore.atlas import AtlasConfig, build_atlas
    from evalcore.families.tedeval import ted_config
    from evalcore.ranking import rank_parses

    e = inputs.experiment
    rcfg = ranking_config(settings, e)
    ted = ted_config(e, [s.name for s in inputs.schemes], limits)
    patterns = read_patterns(settings.patterns, [s.name for s in inputs.schemes], limits)
    config = AtlasConfig(ted, e.skip_mismatched, not settings.no_golds, patterns, e.labels)
    atlas, result = build_atlas(inputs.schemes, config, keep_ops=keep_ops or settings.per_sentence)
    ranking = None
    real = [p.name for s in inputs.schemes for p in s.parses]
    if not settings.no_ranking and len(real) >= 2:
        ranking = rank_parses(result, inputs.schemes, rcfg, parses=real)
    report = None
    if patterns:
        from evalcore.construction_scores import Coverage

        report = _units(inputs, settings, config, result, Coverage(patterns), tests=not settings.no_ranking)
    if on_warning is not None:
        if atlas.skipped_mismatched:
            on_warning(f"skipped {atlas.skipped_mismatched} sentence(s) whose words differ between files")
        if atlas.skipped_invalid:
            on_warning(f"skipped {atlas.skipped_invalid} sentence(s) that are not trees")
    return AtlasResult(
        atlas, ranking, settings.per_sentence, config, report, result if keep_experiment else None
    )


def _units(
    inputs: AtlasInputs,
    settings: AtlasSettings,
    config: AtlasConfig,
    result: ExperimentResult,
    coverage: Coverage,
    *,
    tests: bool,
) -> ConstructionReport:
    from evalcore.atlas import with_golds_as_parses
    from evalcore.construction_scores import construction_report

    run_schemes = with_golds_as_parses(inputs.schemes) if config.golds_as_parses else inputs.schemes
    return construction_report(
        run_schemes,
        result,
        config,
        coverage,
        ranking_config(settings, inputs.experiment),
        parses=[p.name for s in inputs.schemes for p in s.parses],
        bootstrap=inputs.experiment.bootstrap_settings(),
        tests=tests,
    )


def unit_report(
    inputs: AtlasInputs,
    settings: AtlasSettings,
    outcome: AtlasResult,
    coverage: Coverage,
    limits: Limits = DEFAULT_LIMITS,
    *,
    tests: bool = False,
) -> ConstructionReport:
    """The rates and scores per construction of ``coverage`` (pattern files, or one request:
    docs/patterns.md, "Constructions as units of evaluation") from an atlas :func:`run` with
    ``keep_experiment`` on the same inputs -- its experiment is not run again; ``tests``: every pair
    of parses tested on every row (the experiment's trials) and the flips listed; the bootstrap
    intervals when ``inputs.experiment.bootstrap`` asks (as ``evalcore atlas --pattern``)."""
    from evalcore.atlas import AtlasConfig
    from evalcore.families.tedeval import ted_config

    if outcome.experiment is None:
        raise ValueError("unit_report needs an atlas run with keep_experiment=True")
    e = inputs.experiment
    ted = ted_config(e, [s.name for s in inputs.schemes], limits)
    config = AtlasConfig(ted, e.skip_mismatched, not settings.no_golds, coverage.patterns, e.labels)
    return _units(inputs, settings, config, outcome.experiment, coverage, tests=tests)
