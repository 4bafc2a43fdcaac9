"""``evalcore tedeval``: the cross-scheme TedEval experiment (docs/tedeval.md, "Definitions")."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import get_args

from evalcore.commands._common import add_bootstrap_arguments, add_label_arguments, named_path, refuse, warn
from evalcore.conversion import ConversionConfig, LabelMap, Protocol, SchemeLabelMaps, read_label_map
from evalcore.errors import InputFormatError
from evalcore.experiment import ExperimentConfig, ExperimentResult, NamedTrees, Scheme, run_experiment
from evalcore.formats.detect import read_trees
from evalcore.limits import Limits
from evalcore.metrics.tedeval import TedConfig
from evalcore.report.tables import json_text
from evalcore.report.tedeval import cell_name, latex_table, result_csv, result_json, result_text
from evalcore.resampling import BootstrapSettings, Intervals, RatioKind, cells_table, intervals
from evalcore.trees import DepTree, Tree

__all__ = [
    "add_experiment_arguments",
    "input_files",
    "label_maps_from_args",
    "register",
    "run",
    "schemes_from_args",
    "ted_config_from_args",
]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "tedeval",
        help="cross-scheme TedEval: function trees, generalized gold, discounted TED, significance",
        description=(
            "Score every PARSE against every scheme's GOLD and against every generalization of the golds "
            "that contains its own gold (docs/tedeval.md, 'The cross-scheme experiment and significance'). "
            "Each --scheme takes a name, a gold file and zero or "
            "more parse files (CoNLL-U/X or bracketed .mrg/.ptb/.psd); name a parse with NAME=PATH."
        ),
    )
    add_experiment_arguments(p)
    p.add_argument(
        "--per-sentence",
        action="store_true",
        help="JSON: add every sentence's scores and edit scripts (counted / discounted)",
    )
    p.add_argument("--format", choices=("text", "json", "csv", "latex"), default="text")
    add_bootstrap_arguments(p, seed_and_shuffles=False)  # --seed is the experiment's
    p.set_defaults(run=run)


def add_experiment_arguments(p: argparse.ArgumentParser) -> None:
    """The experiment's arguments (schemes, conversion, significance), shared with ``evalcore atlas``."""
    p.add_argument(
        "--scheme",
        action="append",
        nargs="+",
        required=True,
        metavar="NAME GOLD [PARSE",
        help="a scheme: its name, gold file, and parse files",
    )
    p.add_argument(
        "--protocol",
        choices=get_args(Protocol),
        default=get_args(Protocol)[0],
        help="2012: multi-function trees (default); 2011: function trees with * heads",
    )
    p.add_argument(
        "--labels-map",
        action="append",
        default=[],
        metavar="[SCHEME=]FILE",
        help="OLD=NEW label pairs applied first: FILE to every scheme's labels, SCHEME=FILE to that "
        "scheme's gold and parses only (SCHEME must be a --scheme name; else the whole text is a "
        "path); repeatable",
    )
    p.add_argument("--average", choices=("global", "sentence"), default="global")
    add_label_arguments(p)
    p.add_argument("--projectivize", action="store_true", help="2012: lift non-projective arcs first")
    p.add_argument(
        "--label-from",
        action="append",
        default=[],
        metavar="PARSE=FILE",
        help="TL-unify the parse named PARSE with the dependency conversion FILE of the same parse "
        "(labels a bare phrase-structure parse, as the EACL 2012 paper did)",
    )
    p.add_argument(
        "--skip-mismatched",
        action="store_true",
        help="skip (and count) sentences whose words differ between files instead of failing",
    )
    p.add_argument("--shuffles", type=int, default=10_000, help="significance trials (default 10000)")
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument(
        "--test",
        choices=("ar", "bootstrap"),
        default="ar",
        help="approximate randomization (default) or paired bootstrap",
    )


def _load(path: str, limits: Limits) -> NamedTrees:
    """A file to stream: its name and path (the trees are read during the experiment).

    The first sentence is read here, so that a missing or unreadable file is reported at once,
    in the order the files are given."""
    name, real = named_path(path)
    next(iter(read_trees(real, limits=limits)), None)
    return NamedTrees(name, (), real)


def _reader(limits: Limits) -> Callable[[NamedTrees], Iterator[DepTree | Tree]]:
    def read(named: NamedTrees) -> Iterator[DepTree | Tree]:
        return read_trees(named.path, limits=limits)

    return read


def schemes_from_args(
    args: argparse.Namespace, load: Callable[[str, Limits], NamedTrees] | None = None
) -> list[Scheme]:
    """The ``--scheme`` and ``--label-from`` arguments, each file loaded with ``load`` (default:
    named for streaming, see :func:`_load`; ``evalcore atlas`` loads the trees)."""
    load = load or _load
    donors: dict[str, str] = {}
    for item in args.label_from:
        parse_name, sep, path = item.partition("=")
        if not sep or not parse_name or not path:
            raise InputFormatError(f"--label-from expects PARSE=FILE, got '{item}'")
        donors[parse_name] = path
    schemes: list[Scheme] = []
    for spec in args.scheme:
        if len(spec) < 2:
            raise InputFormatError(f"--scheme needs a NAME and a GOLD file, got {spec}")
        name, gold, *parses = spec
        loaded = []
        for p in parses:
            parse = load(p, args.limits)
            if parse.name in donors:
                parse = replace(parse, label_from=load(donors.pop(parse.name), args.limits))
            loaded.append(parse)
        schemes.append(Scheme(name, load(gold, args.limits), tuple(loaded)))
    if donors:
        raise InputFormatError(f"--label-from names no parse: {', '.join(sorted(donors))}")
    return schemes


def ted_config_from_args(args: argparse.Namespace) -> TedConfig:
    """The TedEval settings of the command line (protocol, labels map, separators, case, lifting,
    category labels)."""
    label_map, scheme_maps = label_maps_from_args(
        args.labels_map, [spec[0] for spec in args.scheme], args.limits
    )
    conv = ConversionConfig(
        args.protocol,
        label_map,
        args.function_sep,
        args.fold_case,
        args.projectivize,
        scheme_maps,
        category_labels=args.category_labels,
    )
    return TedConfig(conv, args.average)


def label_maps_from_args(
    items: Sequence[str], schemes: Sequence[str], limits: Limits
) -> tuple[LabelMap, SchemeLabelMaps]:
    """The ``--labels-map`` arguments (docs/tedeval.md, "Per-scheme label maps"): the map of every scheme and
    the per-scheme maps.

    ``SCHEME=FILE`` when the text before the first ``=`` is one of the ``--scheme`` names, else
    the whole text is a path (so ``maps/v1=v2.txt`` is a file); several maps of every scheme
    are applied in the order given, as are several maps of one scheme."""
    every = LabelMap()
    own: dict[str, LabelMap] = {}
    for scheme, path in _label_map_items(items, schemes):
        if scheme is None:
            every = every.then(read_label_map(path, limits=limits))
        else:
            own[scheme] = own.get(scheme, LabelMap()).then(read_label_map(path, limits=limits))
    return every, SchemeLabelMaps.of(own)


def _label_map_items(items: Sequence[str], schemes: Sequence[str]) -> list[tuple[str | None, str]]:
    """Each ``--labels-map`` argument as (its scheme, or ``None`` for every scheme; the file)."""
    out: list[tuple[str | None, str]] = []
    for item in items:
        scheme, sep, path = item.partition("=")
        if sep and scheme in schemes:
            if not path:
                raise InputFormatError(f"--labels-map {item}: no file after '{scheme}='")
            out.append((scheme, path))
        else:
            out.append((None, item))
    return out


def input_files(args: argparse.Namespace) -> list[str]:
    """Every file the experiment's arguments name: golds, parses, label donors, label maps (the
    command line refuses an output that is one of them, :mod:`evalcore.outputs`)."""
    files = [named_path(item)[1] for spec in args.scheme for item in spec[1:]]
    files += [item.partition("=")[2] for item in args.label_from]
    files += [path for _, path in _label_map_items(args.labels_map, [spec[0] for spec in args.scheme])]
    return files


def experiment_intervals(result: ExperimentResult, settings: BootstrapSettings, average: bool) -> Intervals:
    """Every cell's bootstrap interval, all from one stream of resamples of the kept sentences."""
    names: list[str] = []
    cells: list[tuple[tuple[float, float], ...]] = []
    kinds: list[RatioKind] = []
    for row in result.rows:
        for cell in row.cells:
            names.append(cell_name(row.against, row.metric, cell.parse))
            cells.append(cell.pairs)
            kinds.append("ratio" if average or row.metric in ("UAS", "LAS") else "ted")
    return intervals(cells_table(names, cells, kinds), settings)


def run(args: argparse.Namespace) -> int:
    try:  # the settings are checked before any file is read
        boot = None if args.bootstrap is None else BootstrapSettings(args.bootstrap, args.level, args.seed)
        settings = ExperimentConfig(
            shuffles=args.shuffles, seed=args.seed, method=args.test, skip_mismatched=args.skip_mismatched
        )
    except ValueError as exc:
        return refuse("tedeval", str(exc))
    schemes = schemes_from_args(args)
    config = replace(settings, ted=ted_config_from_args(args))
    # streams: the files are read in step, one sentence at a time (see run_experiment)
    result = run_experiment(schemes, config, details=args.per_sentence, reader=_reader(args.limits))
    if result.skipped_mismatched:
        warn(f"skipped {result.skipped_mismatched} sentence(s) whose words differ between files")
    if result.skipped_invalid:
        warn(f"skipped {result.skipped_invalid} sentence(s) that are not trees")
    ivs = None if boot is None else experiment_intervals(result, boot, args.average == "sentence")
    if args.format == "json":
        sys.stdout.write(json_text(result_json(result, args.per_sentence, ivs)))
    elif args.format == "latex":
        sys.stdout.write(latex_table(result))
    elif args.format == "csv":
        sys.stdout.write(result_csv(result, ivs))
    else:
        sys.stdout.write(result_text(result, config, ivs))
    return 0
