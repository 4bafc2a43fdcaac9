"""``evalcore lattice GOLD PRED...``: joint segmentation + parsing evaluation (docs/lattice.md, "What is
compared"; ACL 2012).

SEGEVAL, token segmentation accuracy, TedEval over lattices (U/L) and the
classic metric where it applies (on raw dependency input, CoNLL-U aligned
by characters: the CoNLL 2018 scorer's aligned UAS/LAS F1), one row per
predicted file: the scenario table of the paper (Tables 1–2).

Streams: each prediction is read in step with the gold (and the lattice
files), one sentence pair at a time; only the sums are kept, and every
sentence's record only with ``--per-sentence``.
"""

from __future__ import annotations

import argparse
import sys
from typing import get_args

from evalcore.commands._common import add_bootstrap_arguments, bootstrap_settings, named_path, refuse, warn
from evalcore.conversion import Protocol
from evalcore.errors import InputFormatError
from evalcore.formats.lattice import read_lattices
from evalcore.lattice.reading import PairStream
from evalcore.metrics.joint import (
    JointConfig,
    JointResult,
    SentenceJoint,
    evaluate_stream,
    with_aligned_attachment,
)
from evalcore.report.lattice import (
    add_intervals_json,
    intervals_text,
    results_csv,
    results_csv_intervals,
    results_json,
    results_text,
)
from evalcore.report.tables import json_text
from evalcore.resampling import intervals, lattice_row, lattice_table

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "lattice",
        help="joint segmentation + parsing: SEGEVAL, TedEval over lattices, gold/predicted/raw scenarios",
        description=(
            "Score each PRED against GOLD when segmentation may differ (ACL 2012; docs/lattice.md, 'What is "
            "compared'). Inputs: "
            "bracketed trees over lexemes, CoNLL-X over morphemes with lattice files (SPMRL, yap), "
            "one-path lattice files (segmentation only), or CoNLL-U with multiword tokens (raw-text "
            "parsers; aligned with gold by characters). Name a prediction with NAME=PATH."
        ),
    )
    p.add_argument("gold", help="gold file (.gz accepted)")
    p.add_argument("pred", nargs="+", help="predicted file(s), optionally NAME=PATH")
    p.add_argument("--gold-lattice", metavar="F", help="gold lattice path file (token ids and states)")
    p.add_argument(
        "--pred-lattice",
        metavar="F",
        action="append",
        default=[],
        help="predicted lattice path (yap output.mapping) or yap output.segmentation; once per PRED",
    )
    p.add_argument(
        "--ambiguity-lattice",
        metavar="F",
        help="MA lattices of the gold sentences: report analyses outside them (needs token ids)",
    )
    p.add_argument("--tag-column", choices=("cpos", "fpos"), default="cpos", help="lattice/CoNLL tag column")
    p.add_argument(
        "--protocol",
        choices=get_args(Protocol),
        default=get_args(Protocol)[0],
        help="dependency → function tree: 2012 (hd heads, default) or 2011 (* heads)",
    )
    p.add_argument(
        "--scenario",
        choices=("auto", "gold", "predicted", "raw"),
        default="auto",
        help="the scenario to print (default: detected from the data)",
    )
    p.add_argument(
        "--deprel-base",
        action="store_true",
        help="compare only the universal part of dependency labels (before ':'), as CoNLL 2018 LAS does",
    )
    p.add_argument("--average", choices=("global", "sentence"), default="global")
    p.add_argument(
        "--per-sentence",
        action="store_true",
        help="also list every sentence (text), or add them as per_sentence (JSON); keeps them in memory",
    )
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    add_bootstrap_arguments(p, seed_and_shuffles=False)
    p.add_argument("--seed", type=int, default=12345, help="random seed of --bootstrap")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        boot = bootstrap_settings(args)
    except ValueError as exc:
        return refuse("lattice", str(exc))
    preds = [named_path(p) for p in args.pred]
    lattices: list[str | None] = list(args.pred_lattice)
    if not lattices:
        lattices = [None] * len(preds)
    if len(lattices) != len(preds):
        raise InputFormatError(
            f"{len(preds)} predictions but {len(lattices)} --pred-lattice files (one per PRED, in order)",
            file=args.pred_lattice[0],
        )
    config = JointConfig(args.tag_column, args.protocol, args.average, args.deprel_base, args.limits)
    scenario = None if args.scenario == "auto" else args.scenario
    results: list[JointResult] = []
    # --bootstrap: each sentence's (x, n) pairs of the table's scores, for resampling
    resample: list[list[tuple[tuple[float, float], ...]]] = []
    average = args.average == "sentence"

    def skipped(s: SentenceJoint) -> None:
        if boot is not None:
            resample[-1].append(lattice_row(s, average))
        if s.invalid:
            label = f"sentence {s.index}" + (f" ({s.sent_id})" if s.sent_id else "")
            warn(f"{s.where}: {label} skipped: {s.skipped}")

    for name, path in preds:
        resample.append([])
        lat = lattices[len(results)]
        # the ambiguity lattices are read in step with the gold, once per prediction
        ambiguity = (
            None
            if args.ambiguity_lattice is None
            else read_lattices(args.ambiguity_lattice, limits=args.limits)
        )
        stream = PairStream(
            args.gold,
            path,
            gold_lattice=args.gold_lattice,
            pred_lattice=lat,
            options=config.read_options,
            ambiguity=ambiguity,
        )
        if ambiguity is not None and stream.mode != "index":
            raise InputFormatError(
                "--ambiguity-lattice needs token ids on both sides, and two CoNLL files without lattice "
                "files are aligned by characters instead: give --gold-lattice and --pred-lattice",
                file=args.ambiguity_lattice,
            )
        result = evaluate_stream(
            stream,
            config,
            name=name,
            scenario=scenario,
            keep_sentences=args.per_sentence,
            on_sentence=skipped,
        )
        # raw dependency input: the CoNLL 2018 scorer's aligned UAS/LAS (docs/lattice.md, "The classic
        # metric")
        results.append(with_aligned_attachment(result, stream.mode, args.gold, path, limits=args.limits))
    ivs = None if boot is None else [intervals(lattice_table(rows, average), boot) for rows in resample]
    if args.format == "json":
        doc = results_json(results)
        if ivs is not None:
            add_intervals_json(doc, results, ivs)
        sys.stdout.write(json_text(doc))
    elif args.format == "csv":
        sys.stdout.write(results_csv(results) if ivs is None else results_csv_intervals(results, ivs))
    else:
        sys.stdout.write(results_text(results, args.per_sentence))
        if ivs is not None:
            sys.stdout.write(intervals_text(results, ivs))
    return 0
