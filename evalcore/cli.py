"""The ``evalcore`` command line: one subcommand per metric family.

Every error evalcore raises on purpose is printed as one line
``FILE:LINE: what is wrong`` with exit code 2; never a traceback.  Every
subcommand takes the resource-limit flags of :mod:`evalcore.limits`
(``--max-depth``, ``--max-tokens``...); the command sees the result as
``args.limits`` (flags over ``EVALCORE_MAX_*`` variables over the defaults).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from evalcore import __version__
from evalcore.errors import EvalcoreError, one_line
from evalcore.limits import add_limit_arguments, from_args

__all__ = ["build_parser", "main"]

# Subcommand modules under evalcore.commands, in help order.
COMMANDS: tuple[str, ...] = ("attach", "tedeval", "atlas", "parseval", "freval", "lattice")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evalcore",
        description="Cross-annotation parser evaluation: TedEval, FREVAL, PARSEVAL, NED, attachment scores.",
    )
    parser.add_argument("--version", action="version", version=f"evalcore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"evalcore.commands.{name}").register(sub)
    for command in sub.choices.values():
        add_limit_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.limits = from_args(args)
        return int(args.run(args))
    except EvalcoreError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except MemoryError:  # a last resort: the limits are meant to make this unreachable
        print(
            one_line(f"evalcore {args.command}: out of memory; lower the input size or the limits"),
            file=sys.stderr,
        )
        return 2
    except BrokenPipeError:  # `evalcore ... | head`
        return 0
    except KeyboardInterrupt:
        return 130
