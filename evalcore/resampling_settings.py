"""The settings of the resampling: bootstrap intervals and the paired test of two systems.

Values checked when they are made (an out-of-range ``--bootstrap``, ``--level``, ``--shuffles`` or
``--seed`` is refused before a file is read), kept apart from the computations of
:mod:`evalcore.resampling` and :mod:`evalcore.significance` so that checking them imports neither
(a command that resamples nothing does not load them: tests/test_startup.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evalcore.metrics.base import make_signature

__all__ = ["BootstrapSettings", "PairedTestSettings", "check_seed", "with_settings"]


def check_seed(seed: int) -> None:
    """A seed must be a non-negative integer (what numpy's generators take; ``--seed -1`` raised
    numpy's ``ValueError`` from deep inside a test).  Every setting with a seed checks it here when
    it is made, and so does every generator this module makes (:func:`_generator`)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {seed}")


def with_settings(signature: str, settings: Sequence[tuple[str, object]]) -> str:
    """``signature`` (``metric|...|vX``) with ``settings`` inserted before its version."""
    head, sep, version = signature.rpartition("|")
    if not sep or not version.startswith("v"):
        head, version = signature, ""
    extra = make_signature("", settings).split("|")[1:-1]  # the settings, without name and version
    return "|".join([head, *extra, *([version] if version else [])])


@dataclass(frozen=True, slots=True)
class BootstrapSettings:
    """``--bootstrap N``: percentile intervals from ``samples`` resamples of the sentences."""

    samples: int = 1000
    level: float = 0.95
    seed: int = 12345

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError(f"--bootstrap must be at least 1, got {self.samples}")
        if not 0 < self.level < 1:
            raise ValueError(f"--level must be in (0, 1), got {self.level:g}")
        check_seed(self.seed)

    def items(self) -> list[tuple[str, object]]:
        return [("bootstrap", self.samples), ("level", f"{self.level:g}"), ("seed", self.seed)]

    def sign(self, signature: str) -> str:
        """The metric's signature with the bootstrap settings."""
        return with_settings(signature, self.items())


@dataclass(frozen=True, slots=True)
class PairedTestSettings:
    """Two systems on one gold: approximate randomization, ``shuffles`` trials, seeded (docs/tedeval.md, "The
    cross-scheme experiment and significance")."""

    shuffles: int = 10_000
    seed: int = 12345

    def __post_init__(self) -> None:
        if self.shuffles < 1:
            raise ValueError(f"--shuffles must be at least 1, got {self.shuffles}")
        check_seed(self.seed)

    def items(self) -> list[tuple[str, object]]:
        return [("test", "ar"), ("trials", self.shuffles), ("seed", self.seed)]

    def sign(self, signature: str) -> str:
        return with_settings(signature, self.items())
