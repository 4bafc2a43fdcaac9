"""``evalcore attach GOLD SYSTEM``: UAS, LAS, label accuracy, undirected, NED (SPEC §3)."""

from __future__ import annotations

import argparse
import sys

from evalcore.commands._common import warn
from evalcore.formats.conllu import read_conllu
from evalcore.metrics.attachment import AttachConfig, attach_corpus
from evalcore.report.attach import attach_csv, attach_json, attach_text
from evalcore.report.tables import json_text

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "attach",
        help="attachment scores: UAS, LAS, label accuracy, undirected, NED",
        description="Attachment scores of SYSTEM against GOLD (CoNLL-U or CoNLL-X, same tokens).",
    )
    p.add_argument("gold", help="gold CoNLL-U / CoNLL-X file (.gz accepted)")
    p.add_argument("system", help="system CoNLL-U / CoNLL-X file over the same tokens")
    p.add_argument("--no-punct", action="store_true", help="leave gold punctuation tokens out of the counts")
    p.add_argument("--max-len", type=int, metavar="N", help="only sentences of at most N (counted) tokens")
    p.add_argument("--deprel-base", action="store_true", help="compare only the deprel part before ':'")
    p.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 2) on a sentence that is not a tree, instead of skipping and counting it",
    )
    p.add_argument("--per-sentence", action="store_true", help="also report every sentence's counts")
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.max_len is not None and args.max_len < 0:
        print("evalcore attach: --max-len must be >= 0", file=sys.stderr)
        return 2
    config = AttachConfig(
        no_punct=args.no_punct,
        max_len=args.max_len,
        deprel_base=args.deprel_base,
        skip_invalid=not args.strict,
    )
    # streams: one sentence pair in memory at a time, per-sentence counts only if asked for
    result = attach_corpus(
        read_conllu(args.gold, on_invalid="keep", limits=args.limits),
        read_conllu(args.system, on_invalid="keep", limits=args.limits),
        config,
        per_sentence=args.per_sentence,
    )
    for w in result.warnings:
        warn(w)
    if args.format == "json":
        sys.stdout.write(json_text(attach_json(result, args.per_sentence)))
    elif args.format == "csv":
        sys.stdout.write(attach_csv(result))
    else:
        sys.stdout.write(attach_text(result, args.per_sentence))
    return 0
