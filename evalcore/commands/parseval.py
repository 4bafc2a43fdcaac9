"""``evalcore parseval GOLD TEST``: evalb's PARSEVAL, printed in evalb's own layout (SPEC §7).

The default output is evalb's report, line for line, so that it can be
diffed with evalb's.  Error and skip sentences are also reported on stderr.
The helpers here (reading both files, the shared options) are used by
``evalcore freval`` too.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Iterable, Iterator
from typing import IO

from evalcore.commands._common import refuse, say, warn
from evalcore.formats._io import iter_lines, source_name
from evalcore.formats.evalb import read_evalb_sentences
from evalcore.formats.prm import COLLINS, EvalbParams, read_prm
from evalcore.formats.ptb import PtbLine, detect_layout, read_ptb_sentences
from evalcore.metrics.parseval import (
    ParsevalConfig,
    SentenceComparison,
    SentenceRow,
    parseval_lines,
    parseval_rows,
    rows_supported,
)
from evalcore.report.parseval import (
    EVALB_HEADER,
    evalb_report_tail,
    evalb_row_line,
    evalb_sentence_line,
    parseval_json,
    problem_lines,
)
from evalcore.report.tables import json_text

__all__ = [
    "add_extraction_args",
    "extraction_config",
    "read_pair",
    "register",
    "report_problems",
    "run",
    "stream_pair",
]


def add_extraction_args(p: argparse.ArgumentParser) -> None:
    """Options shared by ``parseval`` and ``freval``: the parameter file and how files are read."""
    p.add_argument("gold", help="gold trees, bracketed (PTB / evalb .gld, .mrg, .psd; .gz accepted)")
    p.add_argument("test", help="parser output over the same sentences")
    p.add_argument("--prm", metavar="FILE", help="evalb parameter file (default: COLLINS.prm's settings)")
    p.add_argument("--unlabeled", action="store_true", help="unlabeled brackets (overrides LABELED)")
    p.add_argument("--max-error", type=int, metavar="N", help="override MAX_ERROR (evalb's -e)")
    p.add_argument(
        "--input",
        choices=("auto", "line", "tree"),
        default="auto",
        help="line: one sentence per line as evalb reads (empty line = skip, bad line = error); "
        "tree: one sentence per tree, any line breaks; auto (default): line if a file's first tree "
        "ends on its first line",
    )
    outer = p.add_mutually_exclusive_group()
    outer.add_argument(
        "--drop-unlabeled-root",
        action="store_true",
        help="delete the outer unlabeled bracket of '( (S ...) )' like ROOT and TOP (default: it is a "
        "bracket with the empty label and counts, as in evalb and the FREVAL tool: one more matched "
        "bracket per valid sentence when both files have it)",
    )
    outer.add_argument(
        "--keep-unlabeled-root",
        action="store_true",
        help="the default (count the outer unlabeled bracket); accepted so that older scripts keep working",
    )
    p.add_argument(
        "--delete-root",
        action="store_true",
        help="delete brackets labeled ROOT or TOP (as the FREVAL paper did; Stanford and Berkeley parsers "
        "and GUM write (ROOT ...)) whatever the parameter file says (default: only its DELETE_LABEL "
        "labels, as evalb: COLLINS.prm deletes TOP, not ROOT); the signature says root:delete",
    )
    p.add_argument(
        "--function-separators",
        default="-=",
        metavar="CHARS",
        help="a label is cut at the first of these characters (evalb: '-='; for FarPaHC's NP*SBJ write "
        "--function-separators='-=*')",
    )


def _params(args: argparse.Namespace, cutoff_len: int | None) -> EvalbParams:
    params = read_prm(args.prm, limits=args.limits) if args.prm else COLLINS
    for w in params.warnings:
        warn(w)
    return params.with_overrides(
        labeled=False if args.unlabeled else None, cutoff_len=cutoff_len, max_error=args.max_error
    )


def extraction_config(args: argparse.Namespace, *, cutoff_len: int | None = None) -> ParsevalConfig:
    """The bracket-extraction settings from the shared options."""
    return ParsevalConfig(
        params=_params(args, cutoff_len),
        function_separators=args.function_separators,
        drop_unlabeled_root=args.drop_unlabeled_root,
        collapse_unary=bool(getattr(args, "collapse_unary", False)),
        delete_root=args.delete_root,
    )


def read_pair(args: argparse.Namespace) -> tuple[list[PtbLine], list[PtbLine]]:
    """Both files' sentences, each read in the chosen (or detected) layout."""
    gold, test = stream_pair(args)
    return list(gold), list(test)


def stream_pair(args: argparse.Namespace) -> tuple[Iterator[PtbLine], Iterator[PtbLine]]:
    """Both files' sentences as streams (read as they are compared: memory does not grow with
    the files)."""
    return (
        read_ptb_sentences(args.gold, layout=args.input, limits=args.limits),
        read_ptb_sentences(args.test, layout=args.input, limits=args.limits),
    )


def report_problems(comparisons: Iterable[SentenceComparison], gold_name: str, total: int = 0) -> None:
    """The error and skip sentences on stderr (:func:`evalcore.report.parseval.problem_lines`)."""
    for line in problem_lines(comparisons, gold_name, total):
        say(line)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "parseval",
        help="PARSEVAL bracket scores exactly as evalb computes them, in evalb's layout",
        description="evalb-compatible PARSEVAL of TEST against GOLD, driven by an evalb parameter file "
        "(its DELETE_LABEL lines say which labels are deleted; --delete-root adds ROOT and TOP).",
    )
    add_extraction_args(p)
    p.add_argument("--cutoff-len", type=int, metavar="N", help="override CUTOFF_LEN (evalb's -c)")
    p.add_argument(
        "--evalb-version",
        choices=("2006", "1997"),
        default="2006",
        help="report layout: 2006 (current evalb, with the F-measure line) or 1997 (evalb's sample.rsl)",
    )
    p.add_argument("--format", choices=("evalb", "json"), default="evalb")
    p.set_defaults(run=run)


class _Spool:
    """Text kept in memory up to ``limit`` characters, then in a temporary file (``tempfile`` is
    imported then: start-up, issue 18)."""

    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit
        self.file: IO[str] | None = None

    def __enter__(self) -> _Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()

    def write(self, text: str) -> None:
        if self.file is not None:
            self.file.write(text)
            return
        self.parts.append(text)
        self.size += len(text)
        if self.size > self.limit:
            import tempfile

            self.file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed by __exit__
            self.file.write("".join(self.parts))
            self.parts = []

    def copy_to(self, out: IO[str]) -> None:
        if self.file is None:
            out.write("".join(self.parts))
            return
        self.file.seek(0)
        shutil.copyfileobj(self.file, out)


def _layout(args: argparse.Namespace, source: str) -> str:
    """The layout ``--input`` asks for, or the one detected (as :func:`read_evalb_sentences` does)."""
    layout: str = args.input
    return detect_layout(source, limits=args.limits) if layout == "auto" else layout


def run(args: argparse.Namespace) -> int:
    for opt, value in (("--cutoff-len", args.cutoff_len), ("--max-error", args.max_error)):
        if value is not None and value < 0:
            return refuse("parseval", f"{opt} must be >= 0")
    config = extraction_config(args, cutoff_len=args.cutoff_len)
    params = config.params
    # streams: only the first error/skip sentences are kept; evalb's per-sentence lines wait in a
    # spool (memory up to 8 MiB, then a temporary file) until the report is printed whole
    with _Spool(8 << 20) as lines:
        if rows_supported(config) and _layout(args, args.gold) == _layout(args, args.test) == "line":
            # the count-only path (issue 18): brackets as tuples, per-sentence lines from numbers
            version = args.evalb_version
            gname, tname = source_name(args.gold), source_name(args.test)

            def write_row(row: SentenceRow) -> None:
                lines.write(evalb_row_line(row, version) + "\n")

            result = parseval_rows(
                iter_lines(args.gold, gname, args.limits),
                iter_lines(args.test, tname, args.limits),
                config,
                names=(gname, tname),
                limits=args.limits,
                on_row=write_row if args.format != "json" else None,
            )
        else:
            gold = read_evalb_sentences(args.gold, params, layout=args.input, limits=args.limits)
            test = read_evalb_sentences(args.test, params, layout=args.input, limits=args.limits)

            def write_line(s: SentenceComparison) -> None:
                lines.write(evalb_sentence_line(s, args.evalb_version) + "\n")

            on_sentence = write_line if args.format != "json" else None
            result = parseval_lines(gold, test, config, keep_sentences=False, on_sentence=on_sentence)
        c = result.all.counts
        report_problems(result.sentences, args.gold, c.errors + c.skipped)
        if args.format == "json":
            sys.stdout.write(json_text(parseval_json(result)))
        else:
            sys.stdout.write("\n".join(EVALB_HEADER) + "\n")
            lines.copy_to(sys.stdout)
            sys.stdout.write("\n".join(evalb_report_tail(result, args.evalb_version)) + "\n")
    return 0
