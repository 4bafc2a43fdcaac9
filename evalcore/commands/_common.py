"""What the subcommands share beyond the writers of :mod:`evalcore.report`: messages on stderr and
``NAME=PATH`` arguments.

Every line a command prints on stderr goes through :func:`say` (or is an
:class:`~evalcore.errors.EvalcoreError` that ``evalcore.cli`` prints): one line of bounded length
whose control characters are escaped (:func:`evalcore.errors.one_line`), whatever the input held."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from evalcore.api import NAME_SUFFIXES, named_path
from evalcore.declare import add_arguments
from evalcore.errors import one_line
from evalcore.families.common import LabelReading, Resampling

if TYPE_CHECKING:  # imported when a command asks for them (kept out of start-up)
    from evalcore.resampling import BootstrapSettings, PairedTestSettings

__all__ = [
    "NAME_SUFFIXES",
    "add_bootstrap_arguments",
    "add_label_arguments",
    "bootstrap_settings",
    "named_path",
    "paired_settings",
    "refuse",
    "say",
    "warn",
]


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


def add_label_arguments(p: argparse.ArgumentParser) -> None:
    """How bracket labels become label sets, shared by ``tedeval``/``atlas`` and ``align-labels``
    (declared by :class:`~evalcore.families.common.LabelReading`)."""
    add_arguments(p, LabelReading)


def add_bootstrap_arguments(p: argparse.ArgumentParser, *, seed_and_shuffles: bool = True) -> None:
    """``--bootstrap N`` and ``--level``; with ``seed_and_shuffles`` also ``--shuffles`` (the paired
    test of two systems) and ``--seed`` (``evalcore tedeval`` has its own, shared with its test;
    declared by :class:`~evalcore.families.common.Resampling`)."""
    add_arguments(p, Resampling, only=lambda d: seed_and_shuffles or d.name in ("bootstrap", "level"))


def bootstrap_settings(args: argparse.Namespace) -> BootstrapSettings | None:
    """The ``--bootstrap`` settings, or ``None`` without ``--bootstrap`` (raises ``ValueError``)."""
    if args.bootstrap is None:
        return None
    from evalcore.resampling import BootstrapSettings

    return BootstrapSettings(args.bootstrap, args.level, args.seed)


def paired_settings(args: argparse.Namespace) -> PairedTestSettings:
    """The paired test's settings (``--shuffles``, ``--seed``; raises ``ValueError``)."""
    from evalcore.resampling import PairedTestSettings

    return PairedTestSettings(args.shuffles, args.seed)
