"""``evalcore align-labels``: propose a label map between two annotations of the same sentences
(docs/labels.md; the map feeds ``evalcore tedeval --labels-map SCHEME=FILE``, docs/tedeval.md, "Per-scheme
label maps")."""

from __future__ import annotations

import argparse
import sys

from evalcore.commands._common import named_path, refuse, warn
from evalcore.declare import add_arguments, from_namespace
from evalcore.families import align_labels as family
from evalcore.families.align_labels import LABELS, THRESHOLDS, AlignLabelsSettings
from evalcore.report.labels import alignment_csv, alignment_json, alignment_map, alignment_text

__all__ = ["register", "run"]

HELP = "propose a label map between two annotations of the same sentences (OLD=NEW, for --labels-map)"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "align-labels",
        help=HELP,
        description=(
            "Convert GOLD_A and GOLD_B (CoNLL-U/X or bracketed .mrg/.ptb/.psd, in any mix; the same "
            "sentences in the same order, matched by their words) to multi-function trees, pair the "
            "labels that sit on the same spans, and propose a many-to-one map from A's labels onto "
            "B's, with counts, coverage and conflicts (docs/labels.md). Name a file with NAME=PATH."
        ),
    )
    p.add_argument("gold_a", metavar="GOLD_A")
    p.add_argument("gold_b", metavar="GOLD_B")
    add_arguments(p, AlignLabelsSettings, only=lambda d: d.name in THRESHOLDS)
    add_arguments(p, AlignLabelsSettings, only=lambda d: d.name in LABELS)
    add_arguments(p, AlignLabelsSettings, only=lambda d: d.name not in THRESHOLDS | LABELS)
    p.add_argument("--format", choices=("map", "json", "csv", "text"), default="map")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = from_namespace(AlignLabelsSettings, args)
    try:
        family.align_settings(settings)
    except ValueError as exc:
        return refuse("align-labels", str(exc))
    name_a, path_a = named_path(args.gold_a)
    name_b, path_b = named_path(args.gold_b)
    alignments = family.run(
        family.AlignInputs(path_a, path_b, (name_a, name_b)), settings, args.limits
    ).alignments
    first = alignments[0]
    if first.skipped_mismatched:
        warn(f"skipped {first.skipped_mismatched} sentence(s) whose words differ between the files")
    if first.skipped_invalid:
        warn(f"skipped {first.skipped_invalid} sentence(s) that are not trees")
    writer = {"json": alignment_json, "csv": alignment_csv, "text": alignment_text}.get(
        args.format, alignment_map
    )
    sys.stdout.write(writer(alignments))
    return 0
