"""A FREVAL result with what its resampling adds (docs/freval.md): the bootstrap's intervals of every
score, and a second parse of the same gold with both parses' paired test.  Apart from
:mod:`evalcore.families.freval` so that its declarations import no metric (start-up)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from evalcore.metrics.freval import FrevalResult

if TYPE_CHECKING:  # types only: a result without resampling does not load it (start-up)
    from evalcore.resampling import Intervals, PairedComparison

__all__ = ["FrevalPaired", "FrevalResampled"]


@dataclass(frozen=True, slots=True)
class FrevalPaired:
    """A second parse's result, and both parses' paired test (approximate randomization over the
    gold sentences) of every score; ``names``: the two parses'."""

    other: FrevalResult
    comparison: PairedComparison
    names: tuple[str, str]
    signature: str


@dataclass(frozen=True)
class FrevalResampled(FrevalResult):
    """:class:`~evalcore.metrics.freval.FrevalResult` with the bootstrap's ``intervals`` and/or the
    ``paired`` comparison with a second parse."""

    intervals: Intervals | None = None
    paired: FrevalPaired | None = None
