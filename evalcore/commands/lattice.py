"""``evalcore lattice GOLD PRED...``: joint segmentation + parsing evaluation (docs/lattice.md, "What is
compared"; ACL 2012): one row per predicted file, each read in step with the gold (streaming).
"""

from __future__ import annotations

import argparse
import sys

from evalcore.commands._common import add_in_order, named_path, refuse, warn
from evalcore.declare import from_namespace
from evalcore.errors import InputFormatError
from evalcore.families import lattice as family
from evalcore.families.lattice import LatticeSettings
from evalcore.metrics.joint import JointResult, SentenceJoint
from evalcore.report.lattice import (
    add_intervals_json,
    intervals_of,
    intervals_text,
    results_csv,
    results_csv_intervals,
    results_json,
    results_text,
)
from evalcore.report.tables import json_text

__all__ = ["register", "run"]

# the settings in the order of the help, around --format
_BEFORE = ("tag_column", "protocol", "scenario", "labels", "average", "per_sentence")
_AFTER = ("bootstrap", "level", "seed")


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
    add_in_order(p, LatticeSettings, _BEFORE)
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    add_in_order(p, LatticeSettings, _AFTER)
    p.set_defaults(run=run)


_FLAGS = ("--ambiguity-lattice", "--gold-lattice", "--pred-lattice")


def run(args: argparse.Namespace) -> int:
    settings = from_namespace(LatticeSettings, args)
    try:
        settings.bootstrap_settings()
    except ValueError as exc:
        return refuse("lattice", str(exc))
    preds = [named_path(p) for p in args.pred]
    lattices: list[str | None] = [*args.pred_lattice] or [None] * len(preds)
    if len(lattices) != len(preds):
        raise InputFormatError(
            f"{len(preds)} predictions but {len(lattices)} --pred-lattice files (one per PRED, in order)",
            file=args.pred_lattice[0],
        )

    def skipped(s: SentenceJoint) -> None:
        if s.invalid:
            label = f"sentence {s.index}" + (f" ({s.sent_id})" if s.sent_id else "")
            warn(f"{s.where}: {label} skipped: {s.skipped}")

    results: list[JointResult] = []
    for (name, path), lat in zip(preds, lattices, strict=True):
        # the ambiguity lattices are read in step with the gold, once per prediction
        inputs = family.LatticeInputs(
            args.gold,
            path,
            name,
            gold_lattice=args.gold_lattice,
            pred_lattice=lat,
            ambiguity=args.ambiguity_lattice,
        )
        results.append(family.run(inputs, settings, args.limits, on_sentence=skipped, names=_FLAGS))
    found = [intervals_of(r) for r in results]
    ivs = None if settings.bootstrap is None else [i for i in found if i is not None]
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
