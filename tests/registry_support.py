"""The command line of a family's settings value: the inverse of the parser the registry generates
(docs/architecture.md, "The registry of metric families"), for the parity tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

from hypothesis import strategies as st

from evalcore.declare import Declared, accepted

T = TypeVar("T")


def command_line(settings: object) -> list[str]:
    """The flags that give ``settings`` (a declared settings value) on the command line."""
    argv: list[str] = []
    for d in accepted(type(settings)):
        value = getattr(settings, d.name)
        assert d.option.flag is not None
        if d.kind == "flag":
            argv += [d.option.flag] if value else []
        elif d.kind == "list":
            argv += [f"{d.option.flag}={v}" for v in value]
        elif value is not None and value != d.default:
            argv += [f"{d.option.flag}={value}"]
    return argv


def drawn_settings(
    cls: type[T],
    special: Mapping[str, st.SearchStrategy[object]],
    fields: Iterable[Declared] | None = None,
) -> st.SearchStrategy[T]:
    """Settings of ``cls`` drawn from its declaration: each of ``fields`` (default: the accepted
    settings; the others keep their defaults) from ``special`` by its name, else a flag from the
    booleans and a choice from its ``Literal``'s values (every other kind must have its strategy
    in ``special``)."""
    chosen = tuple(accepted(cls) if fields is None else fields)

    @st.composite
    def draw_one(draw: st.DrawFn) -> T:
        values: dict[str, object] = {}
        for d in chosen:
            if d.name in special:
                values[d.name] = draw(special[d.name])
            elif d.kind == "flag":
                values[d.name] = draw(st.booleans())
            else:
                assert d.kind == "choice", f"{cls.__name__}.{d.name} needs a strategy"
                values[d.name] = draw(st.sampled_from(d.choices))
        return cls(**values)

    return draw_one()
