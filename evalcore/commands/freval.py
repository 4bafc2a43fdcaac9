"""``evalcore freval GOLD TEST``: PARSEVAL per fragment size, FLR / FLP / F1 (docs/freval.md, "FLR, FLP and
F1"), brackets extracted as ``evalcore parseval`` (evalb) does.
"""

from __future__ import annotations

import argparse
import sys

from evalcore.commands._common import named_path, refuse_setting, warn
from evalcore.commands.parseval import add_extraction_args, report_problems
from evalcore.declare import add_arguments, declared, from_namespace
from evalcore.families import freval as family
from evalcore.families.common import Resampling
from evalcore.families.parseval import Extraction
from evalcore.metrics.freval import FrevalResult
from evalcore.report.freval import freval_output

__all__ = ["register", "run"]

_SHARED = frozenset(d.name for cls in (Extraction, Resampling) for d in declared(cls))


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "freval",
        help="FREVAL: bracket precision/recall per fragment size (Bastings & Sima'an)",
        description="FREVAL of TEST against GOLD: LR_s, LP_s, F1_s per fragment size s, and FLR, FLP, F1 "
        "mixed with uniform (or --alpha) weights.  Brackets as evalb extracts them.",
    )
    add_extraction_args(p)
    add_arguments(p, family.FrevalSettings, only=lambda d: d.name not in _SHARED)
    p.add_argument(
        "test_b",
        nargs="?",
        metavar="TEST_B",
        help="a second parse of the same gold: both scored, and the paired test (approximate "
        "randomization) of every size's scores and of FLR / FLP / F1",
    )
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    add_arguments(p, Resampling)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = from_namespace(family.FrevalSettings, args, keep_sentences=False)
    if args.test_b is None:
        inputs = family.FrevalInputs(args.gold, args.test)
    else:  # ``NAME=PATH``: the names of the two-parse report
        (name_a, path_a), (name_b, path_b) = named_path(args.test), named_path(args.test_b)
        inputs = family.FrevalInputs(args.gold, path_a, path_b, names=(name_a, name_b))

    def report(result: FrevalResult) -> None:
        report_problems(result.comparisons, args.gold, result.counts.errors + result.counts.skipped)

    try:
        result = family.run(inputs, settings, args.limits, on_warning=warn, on_result=report)
    except ValueError as exc:
        return refuse_setting("freval", exc)
    sys.stdout.write(freval_output(args.format, result))
    return 0
