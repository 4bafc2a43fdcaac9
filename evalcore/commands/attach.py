"""``evalcore attach GOLD SYSTEM``: UAS, LAS, label accuracy, undirected, NED (docs/attachment.md, "The five
numbers"): over the same tokens (streaming), or by the CoNLL 2018 character alignment for another
tokenization (the family's ``run_any`` chooses; docs/attachment.md, "Every analysis on aligned
words"), with ``--by`` / ``--confusion`` / ``--per-sentence`` on either, ``--format conll18``,
``--bootstrap N`` and ``GOLD A B`` (docs/attachment.md documents all of them).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from evalcore.choices import CROSS, GROUPINGS, LABELS_FULL, Dialect
from evalcore.commands._common import named_path, refuse, refuse_setting, warn
from evalcore.declare import InvalidSetting, add_arguments, from_namespace
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
        "(repeat, or separate with commas: one table each); two keys joined by + make one cross-table "
        "(deprel+length); on aligned words for another tokenization",
    )
    p.add_argument(
        "--confusion",
        action="store_true",
        help="the gold x system relation table, the head/label error classes and the most frequent "
        "confusions with example gold sentences (of aligned words for another tokenization)",
    )
    add_arguments(p, Resampling)
    p.set_defaults(run=run)


def _groupings(text: str) -> list[str]:
    """Groupings separated by commas; ``a+b`` is one cross-table of two (docs/decisions.md)."""
    out: list[str] = []
    for part in text.split(","):
        keys = [k.strip() for k in part.split(CROSS)]
        for key in keys:
            if key not in GROUPINGS:
                raise argparse.ArgumentTypeError(
                    f"invalid grouping {key!r} (choose from {', '.join(GROUPINGS)}, or two joined by {CROSS})"
                )
        if len(keys) > 2 or len(set(keys)) != len(keys):
            raise argparse.ArgumentTypeError(f"a cross-table takes two different groupings: {part.strip()!r}")
        out.append(CROSS.join(keys))
    return out


# options of evalcore's own definitions: the scorer's rules (conll18) take none of them (nor
# --labels full: the scorer compares the universal part of a DEPREL)
_NOT_CONLL18 = ("no_punct", "max_len", "strict", "per_sentence", "by", "confusion", "where")


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


def _write_aligned(args: argparse.Namespace, outcome: family.AlignedOutcome) -> int:
    """A system of another tokenization, scored on the CoNLL 2018 character alignment (the family's
    :func:`~evalcore.families.attach.run_any`), in evalcore's formats."""
    from evalcore.report.aligned import aligned_outcome_json, records_csv, records_text
    from evalcore.report.conll18 import aligned_csv, aligned_text, format_conll18_intervals

    result, parts, ivs, by, base = (outcome.result, outcome.breakdowns, outcome.intervals, outcome.by,
                                    outcome.deprel_base)  # fmt: skip
    if args.format == "json":
        sys.stdout.write(json_text(aligned_outcome_json(outcome, args.per_sentence)))
    elif args.format == "csv":
        if parts is not None:
            sys.stdout.write(_groups_csv(parts, by, base))
        elif args.per_sentence:
            sys.stdout.write(records_csv(outcome.records, result.signature))
        else:
            sys.stdout.write(aligned_csv(result))
    else:
        out = aligned_text(result, f"the tokens differ from the gold's at {outcome.difference}")
        if ivs is not None:
            out += "\n" + format_conll18_intervals(result.scores, ivs, deprel_base=base)
        if args.per_sentence:
            out += "\n" + records_text(outcome.records)
        if parts is not None:
            out += _groups_text(parts, by, outcome.confusion, base)
        sys.stdout.write(out)
    return 0


def _groups_csv(parts: BreakdownResult, by: tuple[str, ...], deprel_base: bool) -> str:
    from evalcore.report.aligned import aligned_confusion_signature
    from evalcore.report.breakdown import breakdown_csv, confusion_csv

    if by:
        return breakdown_csv(parts.breakdowns, parts.signatures)
    return confusion_csv(parts.confusion, aligned_confusion_signature(deprel_base))


def _groups_text(parts: BreakdownResult, by: tuple[str, ...], confusion: bool, deprel_base: bool) -> str:
    from evalcore.report.aligned import aligned_confusion_signature
    from evalcore.report.breakdown import breakdown_text, confusion_text

    out = ""
    if by:
        out += "\n" + breakdown_text(parts)
    if confusion:
        out += "\n" + confusion_text(parts.confusion, aligned_confusion_signature(deprel_base))
    return out


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
    per-gold-sentence counts.  Same tokens, or the character alignment (another tokenization, or
    ``--format conll18``); no breakdowns."""
    refused = _given(args, ("per_sentence", "by", "confusion"))
    if refused:
        return refuse("attach", f"{', '.join(refused)} take one system")
    from evalcore.report.resampling import paired_output

    name_a, path_a = named_path(args.system)
    name_b, path_b = named_path(args.system_b)
    if args.format == "conll18":
        if _conll18_refused(args):
            return 2
        return _two_conll18(args, settings, boot, (name_a, path_a), (name_b, path_b))
    from evalcore.formats.detect import conll_dialect

    if _config(settings, conll_dialect(args.gold, None, args.limits)) is None:
        return 2
    inputs = family.AttachInputs(args.gold, path_a, path_b, names=(name_a, name_b))
    outcome = family.run_any(inputs, settings, args.limits)  # another tokenization: aligned by characters
    if isinstance(outcome, family.AlignedOutcome):
        assert outcome.comparison is not None  # two systems were given
        cmp = outcome.comparison
        labels: tuple[str, ...] = cmp.names
        signature = cmp.sign(outcome.result.signature)
    else:
        _warn_all(outcome, outcome.system_b)
        assert outcome.comparison is not None  # two systems were given
        cmp = outcome.comparison
        labels = _ATTACH_LABELS
        signature = cmp.sign(outcome.score.signature)
    sys.stdout.write(paired_output(args.format, cmp, name_a, name_b, labels, signature))
    return 0


def _two_conll18(
    args: argparse.Namespace,
    settings: AttachSettings,
    boot: BootstrapSettings | None,
    a: tuple[str, str],
    b: tuple[str, str],
) -> int:
    """``--format conll18 GOLD A B``: both scored under the scorer's rules (its order of errors), and
    the paired test of every row (per gold sentence)."""
    from evalcore.metrics.conll18 import evaluate_conll18
    from evalcore.report.resampling import paired_output
    from evalcore.resampling import compare, conll18_table

    ra, rb = (
        evaluate_conll18(args.gold, path, limits=args.limits, per_sentence=True) for path in (a[1], b[1])
    )
    cmp = compare(conll18_table(ra.sentences), conll18_table(rb.sentences), settings.paired_settings(), boot)
    sys.stdout.write(paired_output(args.format, cmp, a[0], b[0], cmp.names, cmp.sign(ra.signature)))
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
    by: list[str] = list(dict.fromkeys(args.by))
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
    # (or for --bootstrap, which resamples them); another tokenization is aligned by characters:
    # the family's run_any decides
    outcome = family.run_any(
        family.AttachInputs(args.gold, args.system),
        settings,
        args.limits,
        by=tuple(by),
        confusion=args.confusion,
        on_pair=None if groups is None else groups.add,
    )
    if isinstance(outcome, family.AlignedOutcome):
        return _write_aligned(args, outcome)
    result = outcome
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
    by: list[str],
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
