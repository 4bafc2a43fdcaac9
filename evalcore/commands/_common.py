"""What the subcommands share beyond the writers of :mod:`evalcore.report`: warnings on stderr and
``NAME=PATH`` arguments."""

from __future__ import annotations

import sys
from pathlib import Path, PurePath

from evalcore.errors import one_line

__all__ = ["NAME_SUFFIXES", "named_path", "warn"]


def warn(text: str) -> None:
    """One ``warning: ...`` line on stderr, of bounded length whatever the input held."""
    print(one_line(f"warning: {text}"), file=sys.stderr)


NAME_SUFFIXES = (
    ".gz",
    ".conllu",
    ".conll",
    ".conllx",
    ".mrg",
    ".ptb",
    ".psd",
    ".txt",
    ".lattices",
    ".lattice",
    ".mapping",
)


def named_path(arg: str) -> tuple[str, str]:
    """``NAME=PATH`` → (NAME, PATH); a plain path is named by its file name without known extensions.

    An existing file whose name contains ``=`` is taken as a path.
    """
    if "=" in arg and not Path(arg).exists():
        name, _, real = arg.partition("=")
        if name and real:
            return name, real
    base = PurePath(arg).name
    for suffix in NAME_SUFFIXES:
        base = base.removesuffix(suffix)
    return base, arg
