"""What every metric shares: counts that add with ``+``, and signatures.

A metric is ``sentence_counts(gold, system, config) -> Counts`` plus
``score(counts) -> Score``; the corpus is the sum of sentence counts, and a
significance test re-sums counts.  Every score carries the signature of the
settings that produced it (as sacrebleu does), e.g.
``attach|punct:yes|maxlen:none|deprel:full|invalid:skip|v0.1.0``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Protocol, Self, TypeVar

from evalcore.version import __version__

__all__ = ["Additive", "Signature", "add_fields", "make_signature", "ratio", "total"]


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


def _text(value: object) -> str:
    """A setting as a signature prints it: booleans as yes/no, ``None`` as none."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value)


@dataclass(frozen=True, slots=True)
class Signature:
    """A metric's name and its settings, printed ``metric|key:value|...|v<version>`` with every number.

    A signature composes: :meth:`extend` is this signature plus more settings (the experiment's
    signature is its TedEval signature plus the significance test's settings); the version comes
    last, once, when it is printed.
    """

    metric: str
    settings: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, metric: str, settings: Iterable[tuple[str, object]] = ()) -> Signature:
        return cls(metric).extend(*settings)

    def extend(self, *settings: tuple[str, object]) -> Signature:
        """This signature followed by ``settings``."""
        return Signature(self.metric, (*self.settings, *((k, _text(v)) for k, v in settings)))

    def __str__(self) -> str:
        return "|".join([self.metric, *(f"{k}:{v}" for k, v in self.settings), f"v{__version__}"])


def make_signature(metric: str, settings: Sequence[tuple[str, object]]) -> str:
    """``metric|key:value|...|v<version>`` (:class:`Signature`)."""
    return str(Signature.of(metric, settings))
