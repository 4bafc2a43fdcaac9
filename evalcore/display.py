"""How values show themselves outside a terminal (docs/architecture.md, "Layers"): the hook, not the drawings.

The mixins here (:class:`Tabular` for results, :class:`Drawable` for trees, lattices and edit scripts,
:class:`Reported`) look the writers up at call time in :mod:`evalcore.notebook`, the one late-bound
call upwards, made by :func:`_notebook` only.  This module imports nothing of evalcore.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Cell", "Drawable", "Reported", "Table", "Tabular", "rows_of"]

Cell = str | int | float | bool | None
"""A table cell: text, a number, a flag, or ``None`` (N/A)."""


@dataclass(frozen=True, slots=True)
class Table:
    """A result as one tidy table: column names, rows, and the signature of its settings."""

    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    signature: str


def rows_of(rows: object) -> tuple[tuple[Cell, ...], ...]:
    """Rows (a sequence of sequences of cells) as tuples: a :class:`Table` is frozen."""
    return tuple(tuple(cast(tuple[Cell, ...], r)) for r in cast(tuple[object, ...], rows))


def _notebook() -> ModuleType:
    """:mod:`evalcore.notebook`, where the writers of every value are looked up."""
    return importlib.import_module("evalcore.notebook")


class Tabular:
    """Mixin of the result objects: ``table``, ``to_dict``, ``to_pandas``, ``_repr_html_``."""

    __slots__ = ()

    def table(self) -> Table:
        """The result as one tidy table (headers, rows, signature)."""
        return cast(Table, _notebook().result_table(self))

    def to_dict(self) -> dict[str, object]:
        """The JSON document ``evalcore COMMAND --format json`` prints for this result."""
        return cast(dict[str, object], _notebook().result_dict(self))

    def to_pandas(self) -> pd.DataFrame:
        """:meth:`table` as a pandas DataFrame; the signature is in ``df.attrs["signature"]``."""
        import pandas as pd

        t = self.table()
        df = pd.DataFrame([list(r) for r in t.rows], columns=list(t.headers))
        df.attrs["signature"] = t.signature
        return df

    def _repr_html_(self) -> str:
        return cast(str, _notebook().html_table(self.table(), title=type(self).__name__))


class Drawable:
    """Mixin of the values the app draws: Jupyter shows :meth:`_repr_svg_` (``None``: Graphviz's
    ``dot`` is missing for a DOT drawing, and Jupyter falls back to the text)."""

    __slots__ = ()

    def _repr_svg_(self) -> str | None:
        return cast("str | None", _notebook().svg(self))


class Reported:
    """Mixin of the values shown as a small HTML page in Jupyter (one sentence's edit scripts:
    the drawings and the operations)."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return cast(str, _notebook().report_html(self))
