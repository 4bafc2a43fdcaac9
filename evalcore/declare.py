"""Settings declared once (docs/architecture.md, "The registry of metric families"): each field of a
family's frozen settings dataclass made by :func:`setting` carries its flag, help, deep-link key,
default, API keyword and (a ``Literal`` type's) choices; every face is generated from it.

Start-up: this module imports nothing but the standard library.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

__all__ = [
    "Declared",
    "InvalidSetting",
    "Option",
    "accepted",
    "add_arguments",
    "check",
    "declared",
    "from_keywords",
    "from_mapping",
    "from_namespace",
    "setting",
]

T = TypeVar("T")

_KEY = "evalcore.option"

Kind = Literal["flag", "choice", "int", "float", "str", "list"]  # list: a repeatable flag (strings)


@dataclass(frozen=True, slots=True)
class Option:
    """How one setting is named and documented in each face."""

    help: str
    flag: str | None = None  # the command line's flag; None: not on the command line
    link: str | None = None  # the workbench's deep-link key; None: not linked
    api: str | None = ""  # the API's keyword ("": the field's name); None: how a command writes
    metavar: str | None = None
    negation: tuple[str, str] | None = None  # an opposite flag accepted for old scripts, and its help
    minimum: int | None = None  # the smallest value allowed (an int setting)
    aliases: tuple[tuple[str, str, str], ...] = ()  # (flag, choice, help): flags that give one choice


def setting(
    default: T,
    help: str,
    *,
    flag: str | None = None,
    link: str | None = None,
    api: str | None = "",
    metavar: str | None = None,
    negation: tuple[str, str] | None = None,
    minimum: int | None = None,
    aliases: tuple[tuple[str, str, str], ...] = (),
) -> T:
    """A field of a settings dataclass, with its :class:`Option`."""
    option = Option(help, flag, link, api, metavar, negation, minimum, aliases)
    out: T = dataclasses.field(default=default, metadata={_KEY: option})
    return out


@dataclass(frozen=True, slots=True)
class Declared:
    """One field of a settings class as the faces see it."""

    name: str  # the field's name
    option: Option
    default: object
    kind: Kind
    choices: tuple[str, ...]  # a Literal's values, in its order

    @property
    def keyword(self) -> str | None:
        """The API's keyword argument (``None``: not one)."""
        return None if self.option.api is None else (self.option.api or self.name)


def _kind(hint: object) -> tuple[Kind, tuple[str, ...]]:
    args = typing.get_args(hint)
    if typing.get_origin(hint) is Literal:
        return "choice", tuple(str(a) for a in args)
    if typing.get_origin(hint) is tuple and args == (str, Ellipsis):
        return "list", ()
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        (inner,) = (a for a in args if a is not type(None))
        return _kind(inner)
    kinds: dict[object, Kind] = {bool: "flag", int: "int", float: "float", str: "str"}
    if hint not in kinds:
        raise TypeError(f"no command-line form for a setting of type {hint!r}")
    return kinds[hint], ()


def declared(cls: type) -> tuple[Declared, ...]:
    """The declared settings of a settings dataclass, in their order."""
    return _declared(typing.cast(Hashable, cls))


@functools.cache  # a class's declarations do not change, and every face asks for them on every call
def _declared(key: Hashable) -> tuple[Declared, ...]:
    cls = typing.cast(type, key)
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        option = f.metadata.get(_KEY)
        if isinstance(option, Option):
            kind, choices = _kind(hints[f.name])
            out.append(Declared(f.name, option, f.default, kind, choices))
    return tuple(out)


def add_arguments(
    p: argparse.ArgumentParser, cls: type, *, only: Callable[[Declared], bool] = lambda d: True
) -> None:
    """The flags of ``cls``'s settings (those ``only`` keeps), in their declared order."""
    for d in declared(cls):
        flag = d.option.flag
        if flag is None or not only(d):
            continue
        target: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup = p
        if d.option.negation is not None or d.option.aliases:
            target = p.add_mutually_exclusive_group()
        kw: dict[str, Any] = {"dest": d.name, "help": d.option.help}
        if d.kind == "flag":
            kw.update(action="store_true")
        elif d.kind == "choice":
            kw.update(choices=d.choices, default=d.default)
        elif d.kind == "list":
            kw.update(action="append", default=[], metavar=d.option.metavar)
        else:
            metavar = d.option.metavar or flag.lstrip("-").replace("-", "_").upper()
            kw.update(
                type={"int": int, "float": float, "str": str}[d.kind], default=d.default, metavar=metavar
            )
        target.add_argument(flag, **kw)
        if d.option.negation is not None:
            opposite, text = d.option.negation
            target.add_argument(opposite, dest=f"{d.name}_negated", action="store_true", help=text)
        for alias, choice, text in d.option.aliases:
            target.add_argument(alias, dest=d.name, action="store_const", const=choice, help=text)


def accepted(cls: type) -> tuple[Declared, ...]:
    """The settings a user may give by name (a manifest, the API): those with a command-line flag
    and an API keyword."""
    return tuple(d for d in declared(cls) if d.option.flag is not None and d.keyword is not None)


def _valid(d: Declared, value: object) -> bool:
    if value is None:
        return d.default is None
    if d.kind == "choice":
        return value in d.choices
    if d.kind == "flag":
        return isinstance(value, bool)
    if d.kind == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if d.kind == "list":
        return isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
    return isinstance(value, {"int": int, "str": str}[d.kind]) and not isinstance(value, bool)


def from_mapping(cls: type[T], values: Mapping[str, object], *, leave: frozenset[str] = frozenset()) -> T:
    """The settings value named by API keyword in ``values`` (a manifest's table; a flag that gives
    one choice, by its name: ``deprel_base = true`` is ``labels = "universal"``); ``leave``: names
    given elsewhere.  An unknown name, a value of the wrong type or out of range, or two names that
    contradict each other, is a ``ValueError`` naming it."""
    known = {d.keyword: d for d in accepted(cls) if d.keyword not in leave}
    aliases = {
        f.lstrip("-").replace("-", "_"): (d, c) for d in known.values() for f, c, _ in d.option.aliases
    }
    given: dict[str, object] = {}
    by_alias: dict[str, str] = {}  # field -> the name that gave its value
    for key, value in values.items():
        d: Declared | None = known.get(key)
        if key in aliases:
            d, choice = aliases[key]
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be true or false")
            if not value:
                continue
            value = choice
        if d is None:
            names = sorted([*(k for k in known if k), *aliases])
            raise ValueError(f"unknown setting {key!r} ({', '.join(names)})")
        if not _valid(d, value):
            kinds = {
                "flag": "true or false",
                "int": "an integer",
                "float": "a number",
                "str": "a string",
                "list": "a list of strings",
            }
            expected = "one of " + ", ".join(d.choices) if d.choices else kinds[d.kind]
            raise ValueError(f"{key} must be {expected}")
        value = tuple(value) if isinstance(value, list) else value
        if d.name in given and given[d.name] != value:
            raise ValueError(f"{key} contradicts {by_alias.get(d.name, d.keyword)} (both give {d.keyword})")
        given[d.name] = value
        by_alias[d.name] = key
    out = cls(**given)
    check(out, tuple(d.name for d in known.values()))
    return out


def from_namespace(cls: type[T], args: argparse.Namespace, **given: object) -> T:
    """The settings value of a parsed command line (the fields without a flag, or whose flag the
    command does not take, from ``given`` or their defaults)."""
    values = {d.name: getattr(args, d.name, d.default) for d in declared(cls) if d.option.flag is not None}
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    return cls(**values, **given)


def from_keywords(cls: type[T], values: Mapping[str, object], **given: object) -> T:
    """The settings value of an API call's keyword arguments (``values``: the call's ``locals()``):
    each declared field from its keyword, ``given`` over them, the others their defaults."""
    kw = {d.name: values[d.keyword] for d in declared(cls) if d.keyword is not None and d.keyword in values}
    return cls(**{**kw, **given})


class InvalidSetting(ValueError):
    """A setting out of its range; ``field`` says which (each face names it its own way: the API
    by its keyword, the command line by its flag)."""

    def __init__(self, field: Declared, message: str) -> None:
        super().__init__(f"{field.keyword or field.name} {message}")
        self.field = field
        self.message = message


def check(settings: object, order: tuple[str, ...]) -> None:
    """Raise :class:`InvalidSetting` for the first field of ``order`` below its minimum."""
    fields = {d.name: d for d in declared(type(settings))}
    for name in order:
        d = fields[name]
        value = getattr(settings, name)
        if d.option.minimum is not None and value is not None and value < d.option.minimum:
            raise InvalidSetting(d, f"must be >= {d.option.minimum}")
