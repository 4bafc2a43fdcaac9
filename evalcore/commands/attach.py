"""``evalcore attach GOLD SYSTEM``: UAS, LAS, label accuracy, undirected, NED (docs/attachment.md, "The five
numbers"): over the same tokens (streaming, with ``--by`` / ``--confusion``), by the CoNLL 2018
character alignment for another tokenization, ``--format conll18``, ``--bootstrap N`` and
``GOLD A B`` (docs/attachment.md documents all of them).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from evalcore.choices import GROUPINGS, LABELS_FULL, Dialect, GroupBy, universal_labels
from evalcore.commands._common import named_path, refuse, refuse_setting, warn
from evalcore.declare import InvalidSetting, add_arguments, from_namespace
from evalcore.errors import EvalcoreError, MismatchError
from evalcore.families import attach as family
from evalcore.families.attach import RESAMPLING, AttachSettings
from evalcore.families.common import Resampling
from evalcore.report.attach import attach_csv, attach_json, attach_text
from evalcore.report.tables import json_text

if TYPE_CHECKING:
    from evalcore.metrics.attachment import AttachConfig, AttachResult
    from evalcore.metrics.breakdown import BreakdownResult
    from evalcore.resampling import BootstrapSettings, Intervals

# The CoNLL 2018 alignment, the breakdowns and the resampling are imported by the paths that use
# them, so that scoring the same tokens does not pay for them at start-up (tests/test_startup.py).

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "attach",
        help="attachment scores: UAS, LAS, label accuracy, undirected, NED",
        description=(
            "Attachment scores of SYSTEM against GOLD (CoNLL-U or CoNLL-X). Over the same tokens: "
            "UAS, LAS, label accuracy, undirected, NED (and --by / --confusion breakdowns). A SYSTEM "
            "of another tokenization (a parse of the raw text) is aligned by characters as in the "
            "CoNLL 2018 shared task: Tokens ... BLEX with precision, recall, F1. --format conll18 "
            "prints the CoNLL 2018 scorer's table (conll18_ud_eval.py -v). --bootstrap N adds "
            "confidence intervals; GOLD A B compares two systems (paired test of each metric)."
        ),
    )
    p.add_argument("gold", help="gold CoNLL-U / CoNLL-X file (.gz accepted)")
    p.add_argument(
        "system", help="system CoNLL-U / CoNLL-X file (same tokens, or another tokenization of the same text)"
    )
    p.add_argument(
        "system_b",
        nargs="?",
        metavar="SYSTEM_B",
        help="a second system over the same gold: both scored, and the paired test (approximate "
        "randomization) of each difference",
    )
    add_arguments(p, AttachSettings, only=lambda d: d.name not in RESAMPLING)
    p.add_argument(
        "--format",
        choices=("text", "json", "csv", "conll18"),
        default="text",
        help="conll18: the CoNLL 2018 scorer's -v table, under the scorer's own rules",
    )
    p.add_argument(
        "--by",
        type=_groupings,
        action="extend",
        default=[],
        metavar="|".join(GROUPINGS),
        help="per-group counts, UAS, LAS, label accuracy and LAS precision/recall/F1, as MaltEval "
        "(repeat, or separate with commas); same tokens only",
    )
    p.add_argument(
        "--confusion",
        action="store_true",
        help="the gold x system relation table and the head/label error classes; same tokens only",
    )
    add_arguments(p, Resampling)
    p.set_defaults(run=run)


def _groupings(text: str) -> list[GroupBy]:
    out: list[GroupBy] = []
    for part in text.split(","):
        key = part.strip()
        if key not in GROUPINGS:
            raise argparse.ArgumentTypeError(f"invalid grouping {key!r} (choose from {', '.join(GROUPINGS)})")
        out.append(key)  # a GroupBy: checked against GROUPINGS just above
    return out


# options of evalcore's own definitions: the scorer's rules (conll18) take none of them (nor
# --labels full: the scorer compares the universal part of a DEPREL)
_NOT_CONLL18 = ("no_punct", "max_len", "strict", "per_sentence", "by", "confusion")

# options the character alignment cannot honour: they need a sentence-by-sentence, token-by-token
# pairing of the two files (--labels is honoured; the alignment is always --strict)
_NOT_ALIGNED = ("no_punct", "max_len", "per_sentence", "by", "confusion")


def _given(args: argparse.Namespace, options: tuple[str, ...]) -> list[str]:
    """The flags of ``options`` (their dests) that the command line gives."""
    return ["--" + o.replace("_", "-") for o in options if getattr(args, o) not in (None, False, [])]


def _conll18_refused(args: argparse.Namespace) -> bool:
    given = _given(args, _NOT_CONLL18) + (["--labels full"] if args.labels == LABELS_FULL else [])
    if given:
        refuse(
            "attach",
            f"--format conll18 follows the CoNLL 2018 scorer's rules; "
            f"{', '.join(given)} cannot be combined with it",
        )
    return bool(given)


def _run_conll18(args: argparse.Namespace, boot: BootstrapSettings | None = None) -> int:
    """The shared task's evaluation (characters aligned over the whole document), ``-v`` table;
    with ``--bootstrap``, the intervals of its F1 and aligned accuracies after it."""
    if _conll18_refused(args):
        return 2
    from evalcore.metrics.conll18 import evaluate_conll18
    from evalcore.report.conll18 import format_conll18_intervals, format_conll18_table
    from evalcore.resampling import conll18_table, intervals

    result = evaluate_conll18(args.gold, args.system, limits=args.limits, per_sentence=boot is not None)
    sys.stdout.write(format_conll18_table(result.scores) + "\n")
    if boot is not None:
        sys.stdout.write(
            "\n" + format_conll18_intervals(result.scores, intervals(conll18_table(result.sentences), boot))
        )
    return 0


def _run_aligned(
    args: argparse.Namespace, difference: MismatchError, boot: BootstrapSettings | None, dialect: Dialect
) -> int:
    """SYSTEM's tokens differ from GOLD's: the CoNLL 2018 character alignment, in evalcore's formats."""
    given = _given(args, _NOT_ALIGNED)
    if given:
        raise EvalcoreError(
            f"{', '.join(given)} need the same tokens in both files, but the system's tokens "
            "differ from the gold's here (such a system is scored by character alignment, "
            f"CoNLL 2018, which cannot honour them); first difference: {difference.message}",
            file=difference.file,
            line=difference.line,
            sentence=difference.sentence,
        )
    from evalcore.metrics.conll18 import evaluate_conll18
    from evalcore.report.conll18 import aligned_csv, aligned_json, aligned_text, format_conll18_intervals
    from evalcore.report.resampling import intervals_json
    from evalcore.resampling import conll18_table, intervals

    try:
        result = evaluate_conll18(
            args.gold,
            args.system,
            limits=args.limits,
            deprel_base=universal_labels(args.labels, dialect),
            per_sentence=boot is not None,
            read_all=False,  # the first character that cannot be aligned ends it (not the scorer's order)
        )
    except MismatchError as text:
        # not another tokenization of the same text: today's error, where the tokens first differ,
        # and where the characters do
        raise MismatchError(
            f"{difference.message}; the text differs too (system file line {text.line}): "
            "no character alignment either",
            file=difference.file,
            line=difference.line,
            sentence=difference.sentence,
        ) from None
    why = f"the tokens differ from the gold's at {difference}"
    ivs = None if boot is None else intervals(conll18_table(result.sentences), boot)
    if args.format == "json":
        doc = aligned_json(result, str(difference))
        if ivs is not None:
            doc.update(intervals_json(ivs))
        sys.stdout.write(json_text(doc))
    elif args.format == "csv":
        sys.stdout.write(aligned_csv(result))
    else:
        out = aligned_text(result, why)
        if ivs is not None:
            out += "\n" + format_conll18_intervals(
                result.scores, ivs, deprel_base=universal_labels(args.labels, dialect)
            )
        sys.stdout.write(out)
    return 0


def _config(settings: AttachSettings, dialect: Dialect) -> AttachConfig | None:
    """The metric's configuration, or ``None`` once a setting out of its range is refused."""
    try:
        return family.attach_config(settings, dialect)
    except InvalidSetting as exc:
        refuse_setting("attach", exc)
        return None


def _warn_all(*results: AttachResult | None) -> None:
    for result in results:
        for w in () if result is None else result.warnings:
            warn(w)


_ATTACH_LABELS = ("UAS", "LAS", "label acc", "undirected", "NED")


def _run_two_systems(
    args: argparse.Namespace, settings: AttachSettings, boot: BootstrapSettings | None
) -> int:
    """``GOLD A B``: both systems scored on the same gold sentences, and each metric's paired
    approximate-randomization test (docs/tedeval.md, "The cross-scheme experiment and significance"); rows of
    per-gold-sentence counts.  Same tokens (or ``--format conll18``, the character alignment); no
    breakdowns."""
    refused = _given(args, ("per_sentence", "by", "confusion"))
    if refused:
        return refuse("attach", f"{', '.join(refused)} take one system")
    from evalcore.report.resampling import paired_output

    name_a, path_a = named_path(args.system)
    name_b, path_b = named_path(args.system_b)
    if args.format == "conll18":
        if _conll18_refused(args):
            return 2
        from evalcore.metrics.conll18 import evaluate_conll18
        from evalcore.resampling import compare, conll18_table

        ra = evaluate_conll18(args.gold, path_a, limits=args.limits, per_sentence=True)
        rb = evaluate_conll18(args.gold, path_b, limits=args.limits, per_sentence=True)
        cmp = compare(
            conll18_table(ra.sentences), conll18_table(rb.sentences), settings.paired_settings(), boot
        )
        labels: tuple[str, ...] = cmp.names
        signature = cmp.sign(ra.signature)
    else:
        from evalcore.formats.detect import conll_dialect

        if _config(settings, conll_dialect(args.gold, None, args.limits)) is None:
            return 2
        inputs = family.AttachInputs(args.gold, path_a, path_b, names=(name_a, name_b))
        outcome = family.run(inputs, settings, args.limits)
        _warn_all(outcome, outcome.system_b)
        assert outcome.comparison is not None  # two systems were given
        cmp = outcome.comparison
        labels = _ATTACH_LABELS
        signature = cmp.sign(outcome.score.signature)
    sys.stdout.write(paired_output(args.format, cmp, name_a, name_b, labels, signature))
    return 0


def run(args: argparse.Namespace) -> int:
    settings = from_namespace(AttachSettings, args)
    try:
        boot = settings.bootstrap_settings()
        settings.paired_settings()
    except ValueError as exc:
        return refuse("attach", str(exc))
    if args.system_b is not None:
        return _run_two_systems(args, settings, boot)
    if args.format == "conll18":
        return _run_conll18(args, boot)
    by: list[GroupBy] = list(dict.fromkeys(args.by))
    if args.format == "csv" and ((by and args.confusion) or ((by or args.confusion) and args.per_sentence)):
        return refuse(
            "attach",
            "--format csv writes one table: give --by, --confusion or --per-sentence alone "
            "(or use --format json)",
        )
    from evalcore.formats.detect import conll_dialect

    dialect = conll_dialect(args.gold, None, args.limits)  # decides --labels auto (as family.run does)
    config = _config(settings, dialect)
    if config is None:
        return 2
    groups = None
    if by or args.confusion:
        from evalcore.metrics.breakdown import BreakdownAccumulator

        groups = BreakdownAccumulator(by, config)
    # streams: one sentence pair in memory at a time, per-sentence counts only if asked for
    # (or for --bootstrap, which resamples them): the family's run decides
    try:
        result = family.run(
            family.AttachInputs(args.gold, args.system),
            settings,
            args.limits,
            on_pair=None if groups is None else groups.add,
        )
    except MismatchError as difference:
        return _run_aligned(args, difference, boot, dialect)
    _warn_all(result)
    ivs = result.intervals
    if groups is not None:
        return _write_with_groups(args, result, ivs, groups.result(), by, config)
    if args.format == "json":
        sys.stdout.write(json_text(attach_json(result, args.per_sentence, ivs)))
    elif args.format == "csv":
        sys.stdout.write(attach_csv(result, ivs))
    else:
        sys.stdout.write(attach_text(result, args.per_sentence, ivs))
    return 0


def _write_with_groups(
    args: argparse.Namespace,
    result: AttachResult,
    ivs: Intervals | None,
    parts: BreakdownResult,
    by: list[GroupBy],
    config: AttachConfig,
) -> int:
    """The scores with ``--by`` breakdowns and/or the ``--confusion`` table."""
    from evalcore.metrics.breakdown import confusion_signature
    from evalcore.report.breakdown import (
        breakdown_csv,
        breakdown_json,
        breakdown_text,
        confusion_csv,
        confusion_json,
        confusion_text,
    )

    conf_sig = confusion_signature(config)
    if args.format == "json":
        doc = attach_json(result, args.per_sentence, ivs)
        if by:
            doc["breakdowns"] = breakdown_json(parts)
        if args.confusion:
            doc["confusion"] = confusion_json(parts.confusion, conf_sig)
        sys.stdout.write(json_text(doc))
    elif args.format == "csv":
        if by:
            sys.stdout.write(breakdown_csv(parts.breakdowns, parts.signatures))
        else:
            sys.stdout.write(confusion_csv(parts.confusion, conf_sig))
    else:
        out = attach_text(result, args.per_sentence, ivs)
        if by:
            out += "\n" + breakdown_text(parts)
        if args.confusion:
            out += "\n" + confusion_text(parts.confusion, conf_sig)
        sys.stdout.write(out)
    return 0
