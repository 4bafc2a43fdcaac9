"""The FREVAL family: PARSEVAL per fragment size, FLR / FLP / F1 (docs/freval.md, "FLR, FLP and F1";
Bastings & Sima'an 2014); docs/architecture.md, "The registry of metric families".

Start-up: the metric is imported when :func:`run` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from evalcore.declare import check, setting
from evalcore.families.common import Resampling, Warn, numbers
from evalcore.families.parseval import Extraction, extraction_config
from evalcore.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from evalcore.families.freval_resampled import FrevalPaired, FrevalResampled
    from evalcore.formats._io import InputSource
    from evalcore.formats.prm import EvalbParams
    from evalcore.metrics.freval import FrevalConfig, FrevalResult
    from evalcore.resampling import Intervals

__all__ = ["FrevalInputs", "FrevalSettings", "alpha_weights", "batch_values", "freval_config", "run"]


@dataclass(frozen=True)
class FrevalSettings(Extraction, Resampling):
    """``evalcore freval``'s settings: the extraction (as ``evalcore parseval``), the fragment sizes
    scored and their weights, the match, the bootstrap and paired test, and (API only) whether every
    sentence's comparison is kept."""

    max_size: int | None = setting(
        None, "fragment sizes 1..L (default: all)", flag="--max-size", metavar="L", link="maxsize"
    )
    cutoff_len: int | None = setting(
        None,
        "only sentences of at most N words (evalb's length)",
        flag="--cutoff-len",
        metavar="N",
        link="cutoff",
    )
    alpha: str | None = setting(
        None,
        "weights of sizes 1, 2, ... summing to 1 (default: uniform over 1..L)",
        flag="--alpha",
        metavar="W1,W2,...",
    )
    strict: bool = setting(
        False, "a matched fragment must also have its parent-child edges in the test tree", flag="--strict"
    )
    collapse_unary: bool = setting(
        False,
        "merge a bracket into its parent when both have the same label and words (NP -> NP)",
        flag="--collapse-unary",
    )
    keep_sentences: bool = setting(
        True,
        "keep every sentence's comparison (False: only the error and skip sentences; memory does not grow)",
    )


@dataclass(frozen=True, slots=True)
class FrevalInputs:
    """A gold file and a parser's output over the same sentences, and optionally a second parse
    (scored too, with the paired test of every score); the files' names used in messages, and the
    two parses' names in the report."""

    gold: InputSource
    test: InputSource
    test_b: InputSource | None = None
    gold_name: str | None = None
    test_name: str | None = None
    test_b_name: str | None = None
    names: tuple[str, str] = ("a", "b")


def alpha_weights(alpha: str | None) -> tuple[float, ...] | None:
    """The weights of ``--alpha W1,W2,...`` (raises ``ValueError`` naming the option)."""
    if alpha is None:
        return None
    try:
        return tuple(float(x) for x in alpha.split(",") if x.strip())
    except ValueError:
        raise ValueError(f"--alpha must be comma-separated numbers, got '{alpha}'") from None


def freval_config(
    settings: FrevalSettings,
    limits: Limits = DEFAULT_LIMITS,
    on_warning: Warn | None = None,
    *,
    params: EvalbParams | None = None,
) -> FrevalConfig:
    """The metric's configuration of ``settings`` (raises :class:`~evalcore.declare.InvalidSetting`
    or ``ValueError``); ``params``: the parameter file already read (else ``settings.prm``)."""
    from evalcore.metrics.freval import FrevalConfig

    check(settings, ("max_error",))
    extraction = extraction_config(
        settings, limits, on_warning, collapse_unary=settings.collapse_unary, params=params
    )
    return FrevalConfig(
        extraction=extraction,
        max_size=settings.max_size,
        alpha=alpha_weights(settings.alpha),
        strict=settings.strict,
        cutoff_len=settings.cutoff_len,
    )


def run(
    inputs: FrevalInputs,
    settings: FrevalSettings,
    limits: Limits = DEFAULT_LIMITS,
    *,
    on_warning: Warn | None = None,
    on_result: Callable[[FrevalResult], None] | None = None,
    keep_counts: bool = False,
) -> FrevalResampled:
    """FREVAL of ``inputs`` (docs/freval.md): the settings are checked before a file is read.

    Streams unless ``settings.keep_sentences`` (only the first error and skip sentences are kept).
    Each sentence's counts are kept with ``keep_counts``, a bootstrap or a second parse (what they
    resample); the result then carries the bootstrap's intervals (``intervals``) and, with a second
    parse, both parses' paired comparison (``paired``).  ``on_result`` sees each parse's result as
    soon as it is scored."""
    from evalcore.formats.evalb import read_evalb_sentences
    from evalcore.metrics.freval import freval_comparisons
    from evalcore.metrics.parseval import compare_lines

    config = freval_config(settings, limits, on_warning)
    boot = settings.bootstrap_settings()
    paired = settings.paired_settings()
    keep = keep_counts or boot is not None or inputs.test_b is not None

    def score(test: InputSource, name: str | None) -> FrevalResult:
        # evalb's readings of the sentences (a file in the line layout is read without its trees)
        params, layout = config.extraction.params, settings.layout
        comparisons = compare_lines(
            read_evalb_sentences(inputs.gold, params, name=inputs.gold_name, layout=layout, limits=limits),
            read_evalb_sentences(test, params, name=name, layout=layout, limits=limits),
            config.extraction,
        )
        result = freval_comparisons(
            comparisons, config, keep_sentences=settings.keep_sentences, keep_counts=keep
        )
        if on_result is not None:
            on_result(result)
        return result

    a = score(inputs.test, inputs.test_name)
    if inputs.test_b is None:
        if boot is None:
            return _resampled(a)
        from evalcore.resampling import freval_table, intervals

        scored = [c for c in a.per_sentence if c.sentences and not (c.errors or c.skipped)]
        return _resampled(a, intervals=intervals(freval_table(scored, config, len(a.score.per_size)), boot))
    from evalcore.families.freval_resampled import FrevalPaired
    from evalcore.resampling import compare, freval_limit, freval_table

    b = score(inputs.test_b, inputs.test_b_name)
    limit = max(freval_limit(a.per_sentence, config), freval_limit(b.per_sentence, config))
    ta, tb = freval_table(a.per_sentence, config, limit), freval_table(b.per_sentence, config, limit)
    cmp = compare(ta, tb, paired, boot)
    return _resampled(a, paired=FrevalPaired(b, cmp, inputs.names, cmp.sign(a.score.signature)))


def _resampled(
    r: FrevalResult, intervals: Intervals | None = None, paired: FrevalPaired | None = None
) -> FrevalResampled:
    from evalcore.families.freval_resampled import FrevalResampled

    return FrevalResampled(r.comparisons, r.per_sentence, r.counts, r.score, r.config, intervals, paired)


def batch_values(result: FrevalResult) -> tuple[tuple[str, float], ...]:
    """The named numbers of a batch table's rows: FLR, FLP and their F1."""
    return numbers(result.score, "flr", "flp", "f1")
