"""What the subcommands share beyond the writers of :mod:`evalcore.report`: messages on stderr,
refused settings and ``NAME=PATH`` arguments.

Every line a command prints on stderr goes through :func:`say` (or is an
:class:`~evalcore.errors.EvalcoreError` that ``evalcore.cli`` prints): one line of bounded length
whose control characters are escaped (:func:`evalcore.errors.one_line`), whatever the input held."""

from __future__ import annotations

import argparse
import sys

from evalcore.api import named_path
from evalcore.declare import InvalidSetting, add_arguments
from evalcore.errors import one_line

__all__ = ["add_in_order", "named_path", "refuse", "refuse_setting", "say", "warn"]


def say(text: str) -> None:
    """``text`` as one line on stderr (:func:`evalcore.errors.one_line`)."""
    print(one_line(text), file=sys.stderr)


def warn(text: str) -> None:
    """One ``warning: ...`` line on stderr."""
    say(f"warning: {text}")


def refuse(command: str, text: str) -> int:
    """``evalcore COMMAND: text`` on stderr; returns the exit code of a refused command line, 2."""
    say(f"evalcore {command}: {text}")
    return 2


def refuse_setting(command: str, exc: ValueError) -> int:
    """:func:`refuse` a setting out of its range: an :class:`~evalcore.declare.InvalidSetting` named
    by its flag, another ``ValueError`` by its own message."""
    if isinstance(exc, InvalidSetting):
        return refuse(command, f"{exc.field.option.flag} {exc.message}")
    return refuse(command, str(exc))


def add_in_order(p: argparse.ArgumentParser, cls: type, names: tuple[str, ...]) -> None:
    """The flags of ``cls``'s settings ``names``, in that order (a command's help order)."""
    for name in names:
        add_arguments(p, cls, only=lambda d, name=name: d.name == name)  # type: ignore[misc]
