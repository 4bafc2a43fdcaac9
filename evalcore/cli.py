"""The ``evalcore`` command line: one subcommand per metric family.

Every error evalcore raises on purpose is printed as one line ``FILE:LINE: what is wrong`` with exit
code 2; never a traceback.  Outputs are checked first and written atomically (:mod:`evalcore.outputs`);
the first stop signal stops the command (:mod:`evalcore.interrupts`); every subcommand takes the
resource-limit flags of :mod:`evalcore.limits` (``args.limits``).  Start-up: only the chosen command's
module is imported, the others are placeholders built from :data:`COMMANDS` (docs/formats.md, "Speed:
the readers and the command line's start-up").
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from evalcore import __version__
from evalcore.errors import EvalcoreError, escape_controls, one_line
from evalcore.interrupts import Interrupted, stop_on_signals
from evalcore.limits import add_limit_arguments, from_args
from evalcore.outputs import check_requested_outputs

__all__ = ["COMMANDS", "build_parser", "main"]

# Subcommand modules under evalcore.commands, in help order, with the one-line help each module's
# ``register`` gives its parser (the top-level help prints these without importing the module).
COMMANDS: tuple[tuple[str, str], ...] = (
    ("attach", "attachment scores: UAS, LAS, label accuracy, undirected, NED"),
    ("tedeval", "cross-scheme TedEval: function trees, generalized gold, discounted TED, significance"),
    (
        "atlas",
        "the discrepancy atlas: every TedEval operation grouped by construction, label, head, length; "
        "ranking flips",
    ),
    ("parseval", "PARSEVAL bracket scores exactly as evalb computes them, in evalb's layout"),
    ("freval", "FREVAL: bracket precision/recall per fragment size (Bastings & Sima'an)"),
    ("lattice", "joint segmentation + parsing: SEGEVAL, TedEval over lattices, gold/predicted/raw scenarios"),
    (
        "align-labels",
        "propose a label map between two annotations of the same sentences (OLD=NEW, for --labels-map)",
    ),
    ("batch", "a shared task from a manifest: every gold × system × metric in parallel, one tidy table"),
    ("app", "the workbench (Streamlit) on the built-in data; needs the [app] extra"),
)
COMMAND_NAMES: tuple[str, ...] = tuple(name for name, _ in COMMANDS)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors escape the control characters of what they quote
    (an argument holding ESC or BEL), as every other message does (:func:`evalcore.errors.one_line`)."""

    def error(self, message: str) -> NoReturn:
        super().error(escape_controls(message))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only``, the other commands are placeholders (name and help only).

    ``only=""`` imports no command module: enough for ``--help``, ``--version`` and usage errors.
    """
    parser = _Parser(
        prog="evalcore",
        description="Cross-annotation parser evaluation: TedEval, FREVAL, PARSEVAL, NED, attachment scores.",
    )
    parser.add_argument("--version", action="version", version=f"evalcore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, help_text in COMMANDS:
        if only is None or name == only:
            importlib.import_module(f"evalcore.commands.{name.replace('-', '_')}").register(sub)
        else:
            sub.add_parser(name, help=help_text)
    for command in sub.choices.values():
        add_limit_arguments(command)
    return parser


def chosen_command(argv: Sequence[str]) -> str:
    """The command ``argv`` names (its first argument not starting with ``-``), or ``""``."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMAND_NAMES else ""
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` names (default ``sys.argv[1:]``); its exit code.

    The first SIGINT, SIGTERM or SIGHUP stops it (:mod:`evalcore.interrupts`): one line, exit
    128 + the signal's number, no output file left half-written (:mod:`evalcore.outputs`)."""
    given = sys.argv[1:] if argv is None else list(argv)
    name = "evalcore"
    with stop_on_signals():
        try:
            parser = build_parser(only=chosen_command(given))
            args = parser.parse_args(given)
            if not hasattr(args, "run"):  # a placeholder was chosen after all: build the whole parser
                args = build_parser().parse_args(given)
            name = f"evalcore {args.command}"
            args.limits = from_args(args)
            # every file the command will write is checked before it reads anything
            check_requested_outputs(args, getattr(args, "input_files", None))
            return int(args.run(args))
        except EvalcoreError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        except MemoryError:  # a last resort: the limits are meant to make this unreachable
            print(one_line(f"{name}: out of memory; lower the input size or the limits"), file=sys.stderr)
            return 2
        except BrokenPipeError:  # `evalcore ... | head`
            return 0
        except Interrupted as exc:
            print(one_line(f"{name}: stopped by {exc.name}"), file=sys.stderr)
            return 128 + exc.signum
        except KeyboardInterrupt:  # raised by a handler of the caller's (the stop signals have ours)
            return 130
