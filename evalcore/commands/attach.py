"""``evalcore attach GOLD SYSTEM``: UAS, LAS, label accuracy, undirected, NED (SPEC §3).

``--format conll18`` is the CoNLL 2018 shared task's evaluation instead (docs/attachment.md):
system files of another tokenization are aligned by characters and the scorer's ``-v`` table is
printed, byte for byte.
"""

from __future__ import annotations

import argparse
import sys

from evalcore.commands._common import (
    add_bootstrap_arguments,
    bootstrap_settings,
    named_path,
    paired_settings,
    warn,
)
from evalcore.formats.conllu import read_conllu
from evalcore.metrics.attachment import AttachConfig, AttachResult, attach_corpus
from evalcore.metrics.conll18 import evaluate_conll18
from evalcore.report.attach import attach_csv, attach_json, attach_text
from evalcore.report.conll18 import format_conll18_intervals, format_conll18_table
from evalcore.report.resampling import paired_output
from evalcore.report.tables import json_text
from evalcore.resampling import (
    BootstrapSettings,
    Intervals,
    attach_pair_tables,
    attach_table,
    compare,
    conll18_table,
    intervals,
)

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "attach",
        help="attachment scores: UAS, LAS, label accuracy, undirected, NED",
        description=(
            "Attachment scores of SYSTEM against GOLD (CoNLL-U or CoNLL-X, same tokens). "
            "--format conll18 prints the CoNLL 2018 scorer's table (conll18_ud_eval.py -v) "
            "and accepts a SYSTEM of another tokenization (a parse of the raw text)."
        ),
    )
    p.add_argument("gold", help="gold CoNLL-U / CoNLL-X file (.gz accepted)")
    p.add_argument("system", help="system CoNLL-U / CoNLL-X file over the same tokens")
    p.add_argument(
        "system_b",
        nargs="?",
        metavar="SYSTEM_B",
        help="a second system over the same gold: both scored, and the paired test (approximate "
        "randomization) of each difference",
    )
    p.add_argument("--no-punct", action="store_true", help="leave gold punctuation tokens out of the counts")
    p.add_argument("--max-len", type=int, metavar="N", help="only sentences of at most N (counted) tokens")
    p.add_argument("--deprel-base", action="store_true", help="compare only the deprel part before ':'")
    p.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 2) on a sentence that is not a tree, instead of skipping and counting it",
    )
    p.add_argument("--per-sentence", action="store_true", help="also report every sentence's counts")
    p.add_argument(
        "--format",
        choices=("text", "json", "csv", "conll18"),
        default="text",
        help="conll18: the CoNLL 2018 scorer's -v table, under the scorer's own rules",
    )
    add_bootstrap_arguments(p)
    p.set_defaults(run=run)


# options of evalcore's own definitions: the scorer's rules (conll18) take none of them
_NOT_CONLL18 = (
    ("no_punct", "--no-punct"),
    ("max_len", "--max-len"),
    ("deprel_base", "--deprel-base"),
    ("strict", "--strict"),
    ("per_sentence", "--per-sentence"),
)


def _conll18_refused(args: argparse.Namespace) -> bool:
    given = [flag for attr, flag in _NOT_CONLL18 if getattr(args, attr) not in (None, False)]
    if given:
        print(
            f"evalcore attach: --format conll18 follows the CoNLL 2018 scorer's rules; "
            f"{', '.join(given)} cannot be combined with it",
            file=sys.stderr,
        )
    return bool(given)


def _run_conll18(args: argparse.Namespace, boot: BootstrapSettings | None = None) -> int:
    """The shared task's evaluation (characters aligned over the whole document), ``-v`` table;
    with ``--bootstrap``, the intervals of its F1 and aligned accuracies after it."""
    if _conll18_refused(args):
        return 2
    result = evaluate_conll18(args.gold, args.system, limits=args.limits, per_sentence=boot is not None)
    sys.stdout.write(format_conll18_table(result.scores) + "\n")
    if boot is not None:
        sys.stdout.write(
            "\n" + format_conll18_intervals(result.scores, intervals(conll18_table(result.sentences), boot))
        )
    return 0


def _attach_config(args: argparse.Namespace) -> AttachConfig | None:
    if args.max_len is not None and args.max_len < 0:
        print("evalcore attach: --max-len must be >= 0", file=sys.stderr)
        return None
    return AttachConfig(
        no_punct=args.no_punct,
        max_len=args.max_len,
        deprel_base=args.deprel_base,
        skip_invalid=not args.strict,
    )


def _score(args: argparse.Namespace, system: str, config: AttachConfig, keep: bool) -> AttachResult:
    result = attach_corpus(
        read_conllu(args.gold, on_invalid="keep", limits=args.limits),
        read_conllu(system, on_invalid="keep", limits=args.limits),
        config,
        per_sentence=keep,
    )
    for w in result.warnings:
        warn(w)
    return result


_ATTACH_LABELS = ("UAS", "LAS", "label acc", "undirected", "NED")


def _run_two_systems(args: argparse.Namespace, boot: BootstrapSettings | None) -> int:
    """``GOLD A B``: both systems scored on the same gold sentences, and each metric's paired
    approximate-randomization test (SPEC §5.4); rows of per-gold-sentence counts."""
    if args.per_sentence:
        print("evalcore attach: --per-sentence takes one system", file=sys.stderr)
        return 2
    name_a, path_a = named_path(args.system)
    name_b, path_b = named_path(args.system_b)
    if args.format == "conll18":
        if _conll18_refused(args):
            return 2
        ra = evaluate_conll18(args.gold, path_a, limits=args.limits, per_sentence=True)
        rb = evaluate_conll18(args.gold, path_b, limits=args.limits, per_sentence=True)
        cmp = compare(conll18_table(ra.sentences), conll18_table(rb.sentences), paired_settings(args), boot)
        labels: tuple[str, ...] = cmp.names
        signature = cmp.sign(ra.signature)
    else:
        config = _attach_config(args)
        if config is None:
            return 2
        a, b = (_score(args, path, config, True) for path in (path_a, path_b))
        ta, tb = attach_pair_tables([c for _, c in a.per_sentence], [c for _, c in b.per_sentence])
        cmp = compare(ta, tb, paired_settings(args), boot)
        labels = _ATTACH_LABELS
        signature = cmp.sign(a.score.signature)
    sys.stdout.write(paired_output(args.format, cmp, name_a, name_b, labels, signature))
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        boot = bootstrap_settings(args)
        paired_settings(args)
    except ValueError as exc:
        print(f"evalcore attach: {exc}", file=sys.stderr)
        return 2
    if args.system_b is not None:
        return _run_two_systems(args, boot)
    if args.format == "conll18":
        return _run_conll18(args, boot)
    config = _attach_config(args)
    if config is None:
        return 2
    # streams: one sentence pair in memory at a time, per-sentence counts only if asked for
    # (or for --bootstrap, which resamples them)
    result = _score(args, args.system, config, args.per_sentence or boot is not None)
    ivs: Intervals | None = None
    if boot is not None:
        ivs = intervals(attach_table([c for _, c in result.per_sentence]), boot)
    if args.format == "json":
        sys.stdout.write(json_text(attach_json(result, args.per_sentence, ivs)))
    elif args.format == "csv":
        sys.stdout.write(attach_csv(result, ivs))
    else:
        sys.stdout.write(attach_text(result, args.per_sentence, ivs))
    return 0
