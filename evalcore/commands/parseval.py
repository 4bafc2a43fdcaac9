"""``evalcore parseval GOLD TEST``: evalb's PARSEVAL, printed in evalb's own layout line for line
(docs/freval.md, "PARSEVAL as evalb computes it"); error and skip sentences also on stderr.  The
shared options and the problems on stderr serve ``evalcore freval`` too.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Iterable
from typing import IO

from evalcore.commands._common import refuse_setting, say, warn
from evalcore.declare import InvalidSetting, add_arguments, declared, from_namespace
from evalcore.families import parseval as family
from evalcore.families.parseval import Extraction, ParsevalSettings
from evalcore.metrics.parseval import SentenceComparison, SentenceRow
from evalcore.report.parseval import (
    EVALB_HEADER,
    RowTexts,
    evalb_report_tail,
    evalb_row_line,
    evalb_sentence_line,
    parseval_json,
    problem_lines,
)
from evalcore.report.tables import json_text

__all__ = [
    "add_extraction_args",
    "register",
    "report_problems",
    "run",
]


def add_extraction_args(p: argparse.ArgumentParser) -> None:
    """Options shared by ``parseval`` and ``freval``: the files, the parameter file and how files
    are read (declared by :class:`~evalcore.families.parseval.Extraction`)."""
    p.add_argument("gold", help="gold trees, bracketed (PTB / evalb .gld, .mrg, .psd; .gz accepted)")
    p.add_argument("test", help="parser output over the same sentences")
    add_arguments(p, Extraction)


def report_problems(comparisons: Iterable[SentenceComparison], gold_name: str, total: int = 0) -> None:
    """The error and skip sentences on stderr (:func:`evalcore.report.parseval.problem_lines`)."""
    for line in problem_lines(comparisons, gold_name, total):
        say(line)


_EXTRACTION = frozenset(d.name for d in declared(Extraction))


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "parseval",
        help="PARSEVAL bracket scores exactly as evalb computes them, in evalb's layout",
        description="evalb-compatible PARSEVAL of TEST against GOLD, driven by an evalb parameter file "
        "(its DELETE_LABEL lines say which labels are deleted; --delete-root adds ROOT and TOP).",
    )
    add_extraction_args(p)
    add_arguments(p, ParsevalSettings, only=lambda d: d.name not in _EXTRACTION)
    p.add_argument("--format", choices=("evalb", "json"), default="evalb")
    p.set_defaults(run=run)


class _Spool:
    """Text kept in memory up to ``limit`` characters, then in a temporary file (``tempfile`` is
    imported then, not at start-up)."""

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


def run(args: argparse.Namespace) -> int:
    settings = from_namespace(ParsevalSettings, args, keep_sentences=False)
    inputs = family.BracketInputs(args.gold, args.test)
    version, evalb = settings.evalb_version, args.format != "json"
    # streams: only the first error/skip sentences are kept; evalb's per-sentence lines wait in a
    # spool (memory up to 8 MiB, then a temporary file) until the report is printed whole
    texts = RowTexts()  # the number texts of this run's lines
    with _Spool(8 << 20) as lines:

        def write_row(row: SentenceRow) -> None:
            lines.write(evalb_row_line(row, version, texts) + "\n")

        def write_line(s: SentenceComparison) -> None:
            lines.write(evalb_sentence_line(s, version, texts) + "\n")

        try:
            result = family.run(
                inputs,
                settings,
                args.limits,
                on_warning=warn,
                on_row=write_row if evalb else None,
                on_sentence=write_line if evalb else None,
            )
        except InvalidSetting as exc:
            return refuse_setting("parseval", exc)
        c = result.all.counts
        report_problems(result.sentences, args.gold, c.errors + c.skipped)
        if not evalb:
            sys.stdout.write(json_text(parseval_json(result)))
        else:
            sys.stdout.write("\n".join(EVALB_HEADER) + "\n")
            lines.copy_to(sys.stdout)
            sys.stdout.write("\n".join(evalb_report_tail(result, version)) + "\n")
    return 0
