"""Settings several families share, declared once (docs/architecture.md, "The registry of metric
families"): :class:`Resampling` (docs/tedeval.md, "The cross-scheme experiment and significance") and
:class:`LabelReading` (docs/tedeval.md, "Multi-function trees (2012 protocol)" and "Category labels").
They are plain frozen dataclasses, without slots, so that a family may inherit several.

Start-up: this module imports the declarations and the resampling's settings
(:mod:`evalcore.resampling_settings`), never the resampling itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from evalcore.choices import LABELS_AUTO, LABELS_FULL, LABELS_UNIVERSAL, Labels
from evalcore.declare import setting
from evalcore.resampling_settings import BootstrapSettings, PairedTestSettings

__all__ = ["LabelReading", "Resampling", "Warn", "numbers", "relation_labels"]

Warn = Callable[[str], None]


def numbers(value: object, *names: str) -> tuple[tuple[str, float], ...]:
    """The named numbers of a batch table's rows: ``value``'s attributes ``names``."""
    return tuple((name, getattr(value, name)) for name in names)


def relation_labels() -> Labels:
    """The ``labels`` setting of every family that compares dependency relation labels
    (:data:`~evalcore.choices.Labels`; docs/attachment.md, "Relation labels"), ``--deprel-base``
    and ``--full-labels`` its two shorthands."""
    out: Labels = setting(
        LABELS_AUTO,
        "how relation labels compare: auto (default: the universal part before ':' on CoNLL-U "
        "input, as the CoNLL 2018 scorer; the full label on CoNLL-X, as eval.pl), universal or "
        "full; the signature says deprel:base or deprel:full",
        flag="--labels",
        link="labels",
        aliases=(
            ("--deprel-base", LABELS_UNIVERSAL, "= --labels universal (the default on CoNLL-U input)"),
            ("--full-labels", LABELS_FULL, "= --labels full (DEPRELs compared as written)"),
        ),
    )
    return out


@dataclass(frozen=True)
class Resampling:
    """Bootstrap intervals over the sentences and the paired test of two systems (seeded)."""

    bootstrap: int | None = setting(
        None,
        "a percentile interval for every score from N resamples of the sentences (seeded; e.g. 1000)",
        flag="--bootstrap",
        metavar="N",
    )
    level: float = setting(
        0.95, "confidence level of the --bootstrap intervals (default 0.95)", flag="--level"
    )
    shuffles: int = setting(
        10_000,
        "two systems: approximate-randomization trials of the paired test (default 10000)",
        flag="--shuffles",
    )
    seed: int = setting(12345, "random seed of --bootstrap and of the paired test", flag="--seed")

    def bootstrap_settings(self) -> BootstrapSettings | None:
        """The bootstrap's settings, or ``None`` without ``bootstrap`` (raises ``ValueError`` out of
        range)."""
        if self.bootstrap is None:
            return None
        return BootstrapSettings(self.bootstrap, self.level, self.seed)

    def paired_settings(self) -> PairedTestSettings:
        """The paired test's settings (raises ``ValueError`` out of range)."""
        return PairedTestSettings(self.shuffles, self.seed)


@dataclass(frozen=True)
class LabelReading:
    """How a bracketed node's label becomes its label set (function tags, case, categories)."""

    function_sep: str = setting(
        "-=",
        "separators of function tags in bracket labels (default '-='; FarPaHC: '-=*')",
        flag="--function-sep",
        link="funcsep",
    )
    fold_case: bool = setting(False, "lower-case every label", flag="--fold-case")
    category_labels: bool = setting(
        False,
        "bracketed input: a node without function tags is labeled with its category, "
        "part-of-speech nodes included (our extension: docs/tedeval.md, 'Category labels')",
        flag="--category-labels",
    )
