"""``evalcore freval GOLD TEST``: PARSEVAL per fragment size, FLR / FLP / F1 (docs/freval.md, "FLR, FLP and
F1").

Brackets are extracted exactly as ``evalcore parseval`` (evalb) does, so
``--max-size 1`` prints evalb's recall and precision.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from evalcore.commands._common import (
    add_bootstrap_arguments,
    bootstrap_settings,
    named_path,
    paired_settings,
    refuse,
)
from evalcore.commands.parseval import add_extraction_args, extraction_config, report_problems, stream_pair
from evalcore.formats.ptb import read_ptb_sentences
from evalcore.metrics.freval import FrevalConfig, FrevalResult, freval_corpus
from evalcore.report.freval import freval_csv, freval_json, freval_text
from evalcore.report.tables import json_text

if TYPE_CHECKING:  # the resampling is imported with --bootstrap or two systems (kept out of start-up)
    from evalcore.resampling import BootstrapSettings, Intervals, PairedTestSettings

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
    p.add_argument(
        "test_b",
        nargs="?",
        metavar="TEST_B",
        help="a second parse of the same gold: both scored, and the paired test (approximate "
        "randomization) of every size's scores and of FLR / FLP / F1",
    )
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    add_bootstrap_arguments(p)
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
        boot = bootstrap_settings(args)
        paired = paired_settings(args)
    except ValueError as exc:
        return refuse("freval", str(exc))
    if args.test_b is not None:
        return _run_two(args, config, boot, paired)
    gold, test = stream_pair(args)
    # streams; --bootstrap keeps each sentence's counts (not its trees) to resample them
    result = freval_corpus(gold, test, config, keep_sentences=False, keep_counts=boot is not None)
    report_problems(result.comparisons, args.gold, result.counts.errors + result.counts.skipped)
    ivs: Intervals | None = None
    if boot is not None:
        from evalcore.resampling import freval_table, intervals

        scored = [c for c in result.per_sentence if c.sentences and not (c.errors or c.skipped)]
        ivs = intervals(freval_table(scored, config, len(result.score.per_size)), boot)
    if args.format == "json":
        sys.stdout.write(json_text(freval_json(result, ivs)))
    elif args.format == "csv":
        sys.stdout.write(freval_csv(result, ivs))
    else:
        sys.stdout.write(freval_text(result, ivs))
    return 0


def _score(args: argparse.Namespace, path: str, config: FrevalConfig) -> FrevalResult:
    gold = read_ptb_sentences(args.gold, layout=args.layout, limits=args.limits)
    test = read_ptb_sentences(path, layout=args.layout, limits=args.limits)
    result = freval_corpus(gold, test, config, keep_sentences=False, keep_counts=True)
    report_problems(result.comparisons, args.gold, result.counts.errors + result.counts.skipped)
    return result


def _run_two(
    args: argparse.Namespace, config: FrevalConfig, boot: BootstrapSettings | None, paired: PairedTestSettings
) -> int:
    from evalcore.report.resampling import paired_output
    from evalcore.resampling import compare, freval_limit, freval_table

    """``GOLD A B``: both parses' FREVAL, and each score's paired approximate-randomization test
    over the gold sentences (a sentence that is an error or skipped for one parse counts zero there)."""
    name_a, path_a = named_path(args.test)
    name_b, path_b = named_path(args.test_b)
    ra, rb = _score(args, path_a, config), _score(args, path_b, config)
    limit = max(freval_limit(ra.per_sentence, config), freval_limit(rb.per_sentence, config))
    cmp = compare(
        freval_table(ra.per_sentence, config, limit),
        freval_table(rb.per_sentence, config, limit),
        paired,
        boot,
    )
    signature = cmp.sign(ra.score.signature)
    labels = [
        n.replace("recall_", "LR_").replace("precision_", "LP_").replace("f1_", "F1_") for n in cmp.names
    ]
    labels[-3:] = ["FLR", "FLP", "F1"]  # text: F1 per size, then the mixed scores
    shown = [i for i, n in enumerate(cmp.names) if n.startswith("f1_")] + list(
        range(len(labels) - 3, len(labels))
    )
    sys.stdout.write(paired_output(args.format, cmp, name_a, name_b, labels, signature, shown))
    return 0
