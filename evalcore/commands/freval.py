"""``evalcore freval GOLD TEST``: PARSEVAL per fragment size, FLR / FLP / F1 (SPEC §7).

Brackets are extracted exactly as ``evalcore parseval`` (evalb) does, so
``--max-size 1`` prints evalb's recall and precision.
"""

from __future__ import annotations

import argparse
import sys

from evalcore.commands.parseval import add_extraction_args, extraction_config, report_problems, stream_pair
from evalcore.metrics.freval import FrevalConfig, freval_corpus
from evalcore.report.freval import freval_csv, freval_json, freval_text
from evalcore.report.tables import json_text

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "freval",
        help="FREVAL: bracket precision/recall per fragment size (Bastings & Sima'an)",
        description="FREVAL of TEST against GOLD: LR_s, LP_s, F1_s per fragment size s, and FLR, FLP, F1 "
        "mixed with uniform (or --alpha) weights.  Brackets as evalb extracts them.",
    )
    add_extraction_args(p)
    p.add_argument("--max-size", type=int, metavar="L", help="fragment sizes 1..L (default: all)")
    p.add_argument(
        "--cutoff-len", type=int, metavar="N", help="only sentences of at most N words (evalb's length)"
    )
    p.add_argument(
        "--alpha",
        metavar="W1,W2,...",
        help="weights of sizes 1, 2, ... summing to 1 (default: uniform over 1..L)",
    )
    p.add_argument(
        "--strict",
        action="store_true",
        help="a matched fragment must also have its parent-child edges in the test tree",
    )
    p.add_argument(
        "--collapse-unary",
        action="store_true",
        help="merge a bracket into its parent when both have the same label and words (NP -> NP)",
    )
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.set_defaults(run=run)


def _alpha(text: str | None) -> tuple[float, ...] | None:
    if text is None:
        return None
    try:
        return tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise ValueError(f"--alpha must be comma-separated numbers, got '{text}'") from None


def run(args: argparse.Namespace) -> int:
    try:
        if args.max_error is not None and args.max_error < 0:
            raise ValueError("--max-error must be >= 0")
        config = FrevalConfig(
            extraction=extraction_config(args),
            max_size=args.max_size,
            alpha=_alpha(args.alpha),
            strict=args.strict,
            cutoff_len=args.cutoff_len,
        )
    except ValueError as exc:
        print(f"evalcore freval: {exc}", file=sys.stderr)
        return 2
    gold, test = stream_pair(args)
    result = freval_corpus(gold, test, config, keep_sentences=False)  # streams
    report_problems(result.comparisons, args.gold, result.counts.errors + result.counts.skipped)
    if args.format == "json":
        sys.stdout.write(json_text(freval_json(result)))
    elif args.format == "csv":
        sys.stdout.write(freval_csv(result))
    else:
        sys.stdout.write(freval_text(result))
    return 0
