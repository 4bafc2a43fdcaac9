"""The align-labels family: a proposed map between the labels of two annotations of the same
sentences (docs/labels.md), for ``evalcore tedeval --labels-map SCHEME=FILE`` (no batch form).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from evalcore.declare import declared, setting
from evalcore.display import Tabular
from evalcore.families.common import LabelReading
from evalcore.labelalign import AlignSettings, Direction, LabelAlignment, align_files
from evalcore.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from evalcore.formats._io import InputSource

__all__ = ["AlignInputs", "AlignLabelsSettings", "LabelAlignments", "align_settings", "run"]


@dataclass(frozen=True)
class AlignLabelsSettings(LabelReading):
    """``evalcore align-labels``'s settings: the direction, the thresholds of a kept pair, how labels
    are read, and whether sentences whose words differ are skipped."""

    direction: Direction = setting(
        "a-b", "map A's labels onto B's (default), B's onto A's, or both (two blocks)", flag="--direction"
    )
    min_support: int = setting(5, "least co-occurrences of a kept pair (default 5)", flag="--min-support")
    min_share: float = setting(0.5, "least share of a label's occurrences (default 0.5)", flag="--min-share")
    skip_mismatched: bool = setting(
        False,
        "skip (and count) sentences whose words differ between the files instead of failing",
        flag="--skip-mismatched",
    )


THRESHOLDS = frozenset({"direction", "min_support", "min_share"})
"""The settings whose flags come before :class:`LabelReading`'s on the command line."""
LABELS = frozenset(d.name for d in declared(LabelReading))


@dataclass(frozen=True, slots=True)
class AlignInputs:
    """Two annotations of the same sentences (a path, bytes or in-memory text), the names of their
    schemes in the report, and the names used in messages."""

    gold_a: InputSource
    gold_b: InputSource
    names: tuple[str, str] = ("A", "B")
    file_names: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True, slots=True)
class LabelAlignments(Tabular):
    """The proposed maps: A onto B, B onto A, or both (in that order)."""

    alignments: tuple[LabelAlignment, ...]

    @property
    def signature(self) -> str:
        return self.alignments[0].signature


def align_settings(settings: AlignLabelsSettings) -> AlignSettings:
    """The aligner's thresholds (raises ``ValueError`` out of range)."""
    return AlignSettings(settings.min_support, settings.min_share)


def run(
    inputs: AlignInputs, settings: AlignLabelsSettings, limits: Limits = DEFAULT_LIMITS
) -> LabelAlignments:
    """Count the labels of both annotations on the same spans and propose the map (docs/labels.md);
    raises ``ValueError`` for thresholds out of range."""
    from evalcore.conversion import ConversionConfig

    conversion = ConversionConfig(
        function_separators=settings.function_sep,
        fold_case=settings.fold_case,
        category_labels=settings.category_labels,
    )
    found = align_files(
        inputs.gold_a,
        inputs.gold_b,
        align_settings(settings),
        conversion,
        direction=settings.direction,
        names=inputs.names,
        skip_mismatched=settings.skip_mismatched,
        limits=limits,
        file_names=inputs.file_names,
    )
    return LabelAlignments(found)
