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
from evalcore.errors import one_line

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
    """How bracket labels become label sets (docs/tedeval.md, "Multi-function trees (2012 protocol)"), shared
    by ``tedeval``/``atlas`` and
    ``align-labels``: ``--function-sep``, ``--fold-case``, ``--category-labels``."""
    p.add_argument(
        "--function-sep",
        default="-=",
        help="separators of function tags in bracket labels (default '-='; FarPaHC: '-=*')",
    )
    p.add_argument("--fold-case", action="store_true", help="lower-case every label")
    p.add_argument(
        "--category-labels",
        action="store_true",
        help="bracketed input: a node without function tags is labeled with its category, "
        "part-of-speech nodes included (our extension: docs/tedeval.md, 'Category labels')",
    )


def add_bootstrap_arguments(p: argparse.ArgumentParser, *, seed_and_shuffles: bool = True) -> None:
    """``--bootstrap N`` and ``--level``; with ``seed_and_shuffles`` also ``--shuffles`` (the paired
    test of two systems) and ``--seed`` (``evalcore tedeval`` has its own, shared with its test)."""
    p.add_argument(
        "--bootstrap",
        type=int,
        metavar="N",
        help="a percentile interval for every score from N resamples of the sentences (seeded; e.g. 1000)",
    )
    p.add_argument(
        "--level",
        type=float,
        default=0.95,
        help="confidence level of the --bootstrap intervals (default 0.95)",
    )
    if seed_and_shuffles:
        p.add_argument(
            "--shuffles",
            type=int,
            default=10_000,
            help="two systems: approximate-randomization trials of the paired test (default 10000)",
        )
        p.add_argument(
            "--seed", type=int, default=12345, help="random seed of --bootstrap and of the paired test"
        )


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
