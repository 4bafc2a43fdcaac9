"""``evalcore atlas``: the discrepancy atlas and the ranking flips of a cross-scheme experiment.

Takes the arguments of ``evalcore tedeval`` (the same ``--scheme NAME GOLD [PARSE ...]``);
see docs/atlas.md.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from evalcore.atlas import GROUPINGS, Atlas, AtlasConfig, ClassifiedOp, gold_parse_name, ops_of
from evalcore.commands import tedeval
from evalcore.commands._common import add_in_order, named_path, refuse, say, warn
from evalcore.declare import add_arguments, from_namespace
from evalcore.errors import InputFormatError
from evalcore.experiment import NamedTrees, Scheme
from evalcore.families import atlas as family
from evalcore.families.atlas import AtlasSettings
from evalcore.families.tedeval import TedevalSettings
from evalcore.formats.detect import read_trees
from evalcore.limits import Limits
from evalcore.outputs import OutputOption, write_text
from evalcore.patterns import constructions
from evalcore.report.atlas import (
    atlas_result_json,
    atlas_text,
    group_csv,
    misc_conllu,
    misc_tree,
    op_csv,
    ranking_text,
)
from evalcore.report.tables import json_text
from evalcore.trees import DepTree

__all__ = ["register", "run"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "atlas",
        help="the discrepancy atlas: every TedEval operation grouped by construction, label, head, length; "
        "ranking flips",
        description=(
            "Group every edit operation of every parse (and of every gold taken as a parse) against every "
            "single gold and every generalization, labeled and unlabeled, by operation, head word, "
            "construction and span length; rank the parses under every metric and test every pair "
            "(docs/atlas.md). Takes the arguments of `evalcore tedeval`."
        ),
    )
    tedeval.add_experiment_arguments(p)
    p.add_argument("--format", choices=("text", "json", "csv"), default="text")
    add_in_order(p, AtlasSettings, ("per_sentence",))
    p.add_argument("--top", type=int, default=5, help="text: groups shown per parse/target (default 5)")
    p.add_argument(
        "--grouping",
        action="append",
        choices=GROUPINGS,
        help="text: the groupings shown (repeatable; default: construction)",
    )
    add_in_order(p, AtlasSettings, ("patterns",))
    add_in_order(p, TedevalSettings, ("bootstrap", "level"))  # the scores per construction's intervals
    add_in_order(p, TedevalSettings, ("labels",))  # the LAS of the ranking and of each construction
    add_in_order(p, AtlasSettings, ("no_golds", "no_ranking", "freval_sizes"))
    p.add_argument(
        "--export-misc",
        action=OutputOption,
        metavar="OUT.conllu",
        help="write a CoNLL-U file with verdicts in MISC",
    )
    add_arguments(p, AtlasSettings, only=lambda d: d.name.startswith("export_"))
    p.set_defaults(run=run, input_files=tedeval.input_files)


def _load(path: str, limits: Limits) -> NamedTrees:
    name, real = named_path(path)
    return NamedTrees(name, tuple(read_trees(real, limits=limits)), real)


def _export(
    args: argparse.Namespace, schemes: list[Scheme], atlas: Atlas, config: AtlasConfig | None = None
) -> None:
    parses = [(p, s) for s in schemes for p in s.parses]
    if args.export_parse:
        found = [(p, s) for p, s in parses if p.name == args.export_parse]
        if not found and args.export_parse in {gold_parse_name(s.name) for s in schemes}:
            s = next(s for s in schemes if gold_parse_name(s.name) == args.export_parse)
            found = [(replace(s.gold, name=args.export_parse), s)]
        if not found:
            names = ", ".join(p.name for p, _ in parses)
            raise InputFormatError(f"--export-parse: no parse named '{args.export_parse}' (parses: {names})")
        parse, scheme = found[0]
    elif parses:
        parse, scheme = parses[0]
    else:
        raise InputFormatError("--export-misc needs a parse (or --export-parse gold:SCHEME)")
    target = args.export_target or "+".join(s.name for s in schemes)
    if len(schemes) == 1 and not args.export_target:
        target = scheme.name
    labeled = not args.export_unlabeled
    if atlas.cell(parse.name, target, labeled) is None:
        raise InputFormatError(f"--export-target: '{parse.name}' has no scripts against '{target}'")
    gold = next((s.gold for s in schemes if s.name == target), scheme.gold)
    # the exported trees' scheme: the target's gold, or the parse's own gold and the parse
    side = target if args.export_side == "gold" and any(s.name == target for s in schemes) else scheme.name
    patterns = None if config is None else config.given_patterns_of(side)
    by_index: dict[int, list[ClassifiedOp]] = {}
    for o in ops_of(atlas, parse.name, target, labeled):
        by_index.setdefault(o.index, []).append(o)
    out = []
    for pos, (g, p) in enumerate(zip(gold.trees, parse.trees, strict=False)):
        tree = g if args.export_side == "gold" else p
        if not isinstance(tree, DepTree):
            raise InputFormatError(
                "--export-misc writes CoNLL-U: the exported file must be a dependency file"
            )
        same = isinstance(g, DepTree) and isinstance(p, DepTree) and len(g.tokens) == len(p.tokens)
        ned = (g, p) if same and isinstance(g, DepTree) and isinstance(p, DepTree) else (None, None)
        kinds = None if patterns is None else constructions(patterns, tree)  # docs/atlas.md
        out.append(
            misc_tree(tree, by_index.get(pos, ()), ned_gold=ned[0], ned_parse=ned[1], constructions=kinds)
        )
    write_text(args.export_misc, misc_conllu(out))
    scripts = "labeled" if labeled else "unlabeled"
    say(
        f"wrote {args.export_misc}: {args.export_side} with the verdicts of '{parse.name}' "
        f"against '{target}' ({scripts})"
    )


def run(args: argparse.Namespace) -> int:
    settings = from_namespace(AtlasSettings, args)
    if args.format == "csv":  # the CSV has no ranking
        settings = replace(settings, no_ranking=True)
    experiment = from_namespace(TedevalSettings, args)
    try:  # the settings are checked before any file is read
        family.ranking_config(settings, experiment)
    except ValueError as exc:
        return refuse("atlas", str(exc))
    schemes = tedeval.schemes_from_args(args, _load)
    inputs = family.AtlasInputs(tuple(schemes), experiment)
    result = family.run(inputs, settings, args.limits, on_warning=warn, keep_ops=bool(args.export_misc))
    atlas = result.atlas
    if args.export_misc:
        _export(args, schemes, atlas, result.config)
    if args.format == "json":
        sys.stdout.write(json_text(atlas_result_json(result, per_sentence=settings.per_sentence)))
    elif args.format == "csv":
        sys.stdout.write(op_csv(atlas.ops) if settings.per_sentence else group_csv(atlas))
    else:
        sys.stdout.write(atlas_text(atlas, top=args.top, groupings=tuple(args.grouping or ("construction",))))
        if result.ranking is not None:
            sys.stdout.write("\n" + ranking_text(result.ranking))
        if result.constructions is not None:
            from evalcore.report.constructions import constructions_text

            sys.stdout.write("\n" + constructions_text(result.constructions))
    return 0
