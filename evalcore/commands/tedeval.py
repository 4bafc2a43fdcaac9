"""``evalcore tedeval``: the cross-scheme TedEval experiment (docs/tedeval.md, "Definitions"); its settings
are declared by :class:`~evalcore.families.tedeval.TedevalSettings`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import replace

from evalcore.commands._common import add_in_order, named_path, refuse, warn
from evalcore.declare import from_namespace
from evalcore.errors import InputFormatError
from evalcore.experiment import NamedTrees, Scheme
from evalcore.families import tedeval as family
from evalcore.families.tedeval import TedevalSettings
from evalcore.formats.detect import read_trees
from evalcore.limits import Limits
from evalcore.report.tables import json_text
from evalcore.report.tedeval import latex_table, result_csv, result_json, result_text

__all__ = ["add_experiment_arguments", "input_files", "register", "run", "schemes_from_args"]

# the experiment's settings in the order of the help (shared with ``evalcore atlas``), around
# ``--label-from`` (the command's input: a parse's label donor, not a setting)
_CONVERSION = (
    "protocol",
    "labels_map",
    "average",
    "function_sep",
    "fold_case",
    "category_labels",
    "projectivize",
)
_TEST = ("skip_mismatched", "shuffles", "seed", "test")


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
    add_in_order(p, TedevalSettings, ("labels", "per_sentence"))
    p.add_argument("--format", choices=("text", "json", "csv", "latex"), default="text")
    add_in_order(p, TedevalSettings, ("bootstrap", "level"))
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
    add_in_order(p, TedevalSettings, _CONVERSION)
    p.add_argument(
        "--label-from",
        action="append",
        default=[],
        metavar="PARSE=FILE",
        help="TL-unify the parse named PARSE with the dependency conversion FILE of the same parse "
        "(labels a bare phrase-structure parse, as the EACL 2012 paper did)",
    )
    add_in_order(p, TedevalSettings, _TEST)


def _load(path: str, limits: Limits) -> NamedTrees:
    """A file to stream: its name and path (the trees are read during the experiment).

    The first sentence is read here, so that a missing or unreadable file is reported at once,
    in the order the files are given."""
    name, real = named_path(path)
    next(iter(read_trees(real, limits=limits)), None)
    return NamedTrees(name, (), real)


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


def input_files(args: argparse.Namespace) -> list[str]:
    """Every file the experiment's arguments name: golds, parses, label donors, label maps (the
    command line refuses an output that is one of them, :mod:`evalcore.outputs`)."""
    files = [named_path(item)[1] for spec in args.scheme for item in spec[1:]]
    files += [item.partition("=")[2] for item in args.label_from]
    schemes = [spec[0] for spec in args.scheme]
    files += [path for _, path in family.label_map_items(args.labels_map, schemes)]
    return files


def run(args: argparse.Namespace) -> int:
    settings = from_namespace(TedevalSettings, args)
    try:  # the settings are checked before any file is read
        config = family.experiment_config(settings)
    except ValueError as exc:
        return refuse("tedeval", str(exc))
    inputs = family.TedevalInputs(tuple(schemes_from_args(args)))
    # streams: the files are read in step, one sentence at a time (see run_experiment)
    result = family.run(inputs, settings, args.limits)
    if result.skipped_mismatched:
        warn(f"skipped {result.skipped_mismatched} sentence(s) whose words differ between files")
    if result.skipped_invalid:
        warn(f"skipped {result.skipped_invalid} sentence(s) that are not trees")
    ivs = result.intervals
    if args.format == "json":
        sys.stdout.write(json_text(result_json(result, args.per_sentence)))
    elif args.format == "latex":
        sys.stdout.write(latex_table(result))
    elif args.format == "csv":
        sys.stdout.write(result_csv(result, ivs))
    else:
        sys.stdout.write(result_text(result, config, ivs))
    return 0
