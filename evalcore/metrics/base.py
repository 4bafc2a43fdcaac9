"""What every metric shares: counts that add with ``+``, and signatures.

A metric is ``sentence_counts(gold, system, config) -> Counts`` plus
``score(counts) -> Score``; the corpus is the sum of sentence counts, and a
significance test re-sums counts.  Every score carries the signature of the
settings that produced it (as sacrebleu does), e.g.
``attach|punct:yes|maxlen:none|deprel:full|invalid:skip|v0.1.0``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import Protocol, Self, TypeVar

__all__ = ["Additive", "add_fields", "make_signature", "ratio", "total"]


class Additive(Protocol):
    def __add__(self, other: Self, /) -> Self: ...


A = TypeVar("A", bound=Additive)


def total(items: Iterable[A], zero: A) -> A:
    """Sum counts (``sum`` without its ``0`` start value)."""
    acc = zero
    for item in items:
        acc = acc + item
    return acc


def add_fields(a: object, b: object) -> dict[str, int]:
    """Field-wise sum of two dataclass instances of the same type (for ``__add__``)."""
    return {f.name: getattr(a, f.name) + getattr(b, f.name) for f in fields(a)}  # type: ignore[arg-type]


def ratio(num: int | float, den: int | float, empty: float = 0.0) -> float:
    """``num / den``, or ``empty`` if there is nothing to count."""
    return num / den if den else empty


def make_signature(metric: str, settings: Sequence[tuple[str, object]]) -> str:
    """``metric|key:value|...|v<version>``; booleans print as yes/no, ``None`` as none."""
    from evalcore import __version__

    parts = [metric]
    for key, value in settings:
        if isinstance(value, bool):
            text = "yes" if value else "no"
        elif value is None:
            text = "none"
        else:
            text = str(value)
        parts.append(f"{key}:{text}")
    parts.append(f"v{__version__}")
    return "|".join(parts)
