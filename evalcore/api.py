"""The public API (docs/api.md): one function per evaluation, the same numbers as the command line,
with keyword arguments named after the command-line options (no metric is computed here).  What an
input may be (a path, file content, sentence objects; in-memory input is named ``gold.conllu``,
``system.mrg``... in messages) and which errors are raised: docs/api.md, "Inputs." and "Errors.".

Start-up: this module imports no metric; each function imports what it runs.
"""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Literal, overload

from evalcore.choices import (
    LABELS_AUTO,
    LABELS_FULL,
    LABELS_UNIVERSAL,
    PROTOCOL_2012,
    Average,
    Labels,
    Protocol,
    Scenario,
    TagColumn,
)
from evalcore.declare import from_keywords
from evalcore.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from evalcore.experiment import ExperimentResult, NamedTrees, Scheme
    from evalcore.families.align_labels import LabelAlignments
    from evalcore.families.atlas import AtlasResult
    from evalcore.families.attach import AlignedOutcome, AttachOutcome
    from evalcore.families.freval_resampled import FrevalResampled
    from evalcore.families.parseval import Layout
    from evalcore.formats._io import InMemoryText
    from evalcore.inspection import SentenceReport
    from evalcore.labelalign import Direction
    from evalcore.metrics.attachment import PunctTags
    from evalcore.metrics.joint import JointResult
    from evalcore.metrics.parseval import ParsevalResult
    from evalcore.significance import Method
    from evalcore.trees import DepTree, Lattice, Tree

__all__ = [
    "NAME_SUFFIXES",
    "Input",
    "align_labels",
    "atlas",
    "attach",
    "freval",
    "inspect",
    "lattice",
    "named_path",
    "parseval",
    "read",
    "tedeval",
]

Input = str | os.PathLike[str] | bytes | Iterable[object]
"""A path, file content, or sentence objects (see the module's docstring)."""

Kind = Literal["conll", "brackets", "unknown"]


@dataclass(frozen=True, slots=True)
class _Source:
    """An input as the readers take it: a path, or bytes or text with the name used in messages."""

    data: str | bytes | InMemoryText
    name: str | None  # None: a path, named by itself
    kind: Kind = "unknown"


_SUFFIX = {"conll": ".conllu", "brackets": ".mrg", "unknown": ""}


def _is_content(text: str) -> bool:
    return "\n" in text or text.lstrip().startswith(("(", "#"))


def _item_text(item: object, role: str) -> tuple[str, Kind]:
    """One sentence object (or one ``Doc``) as file text."""
    from evalcore.formats.conllu import write_conllu
    from evalcore.formats.objects import from_spacy, is_spacy_doc, is_token_list
    from evalcore.formats.ptb import write_ptb
    from evalcore.trees import DepTree, Tree

    if isinstance(item, DepTree):
        return write_conllu([item]), "conll"
    if isinstance(item, Tree):
        return write_ptb([item]), "brackets"
    if is_spacy_doc(item):
        return write_conllu(from_spacy(item, name=role)), "conll"
    if is_token_list(item):
        text = str(getattr(item, "serialize")())  # noqa: B009 - duck-typed conllu.TokenList
        return (text if text.endswith("\n\n") else text.rstrip("\n") + "\n\n"), "conll"
    raise TypeError(
        f"cannot read a {type(item).__name__}: expected a DepTree, Tree, conllu TokenList or spaCy Doc"
    )


def _objects_text(items: Iterable[object], role: str, limits: Limits) -> tuple[str, Kind]:
    """The text of sentence objects, written one at a time and counted as it is written: past the
    file limits (lines or bytes) no more objects are taken, so an endless generator stops there and
    the reader refuses the text at the same line as a file of it (the limits apply while it
    streams, not after everything is in memory)."""
    parts: list[str] = []
    kinds: set[Kind] = set()
    lines = size = 0
    for item in items:
        text, kind = _item_text(item, role)
        parts.append(text)
        kinds.add(kind)
        if len(kinds) > 1:
            raise TypeError(f"{role}: dependency and constituency trees mixed in one input")
        lines += text.count("\n")
        size += len(text)  # at most its UTF-8 bytes
        if lines > limits.input_lines or size > limits.input_bytes:
            break
    return "".join(parts), (kinds.pop() if kinds else "unknown")


def _source(value: Input, role: str, limits: Limits = DEFAULT_LIMITS) -> _Source:
    """What a user passed as ``role`` (``gold``, ``system``...), as the readers take it: in-memory
    text is read as it is (:class:`~evalcore.formats._io.InMemoryText`), never copied whole."""
    from evalcore.formats._io import InMemoryText
    from evalcore.formats.objects import is_spacy_doc, is_token_list

    if isinstance(value, os.PathLike):
        return _Source(os.fspath(value), None)
    if isinstance(value, bytes):
        return _Source(value, role)
    if isinstance(value, str):
        if _is_content(value):
            return _Source(InMemoryText(value), role)
        return _Source(value, None)
    if is_spacy_doc(value) or is_token_list(value):  # one Doc or TokenList (a list of tokens)
        value = [value]
    elif not isinstance(value, Iterable):
        raise TypeError(f"{role}: cannot read a {type(value).__name__} (expected a path, text or sentences)")
    text, kind = _objects_text(value, role, limits)
    return _Source(InMemoryText(text), role + _SUFFIX[kind], kind)


NAME_SUFFIXES = (
    ".gz",
    ".conllu",
    ".conll",
    ".conllx",
    ".mrg",
    ".ptb",
    ".psd",
    ".txt",
    ".lattices",
    ".lattice",
    ".mapping",
)


def named_path(arg: str) -> tuple[str, str]:
    """``NAME=PATH`` → (NAME, PATH); a plain path is named by its file name without known extensions.

    An existing file whose name contains ``=`` is taken as a path.
    """
    if "=" in arg and not Path(arg).exists():
        name, _, real = arg.partition("=")
        if name and real:
            return name, real
    base = PurePath(arg).name
    for suffix in NAME_SUFFIXES:
        base = base.removesuffix(suffix)
    return base, arg


@overload
def read(
    source: Input, *, format: Literal["auto", "conllu", "ptb"] = "auto", limits: Limits = DEFAULT_LIMITS
) -> list[DepTree | Tree]: ...


@overload
def read(source: Input, *, format: Literal["lattice"], limits: Limits = DEFAULT_LIMITS) -> list[Lattice]: ...


def read(
    source: Input,
    *,
    format: Literal["auto", "conllu", "ptb", "lattice"] = "auto",
    limits: Limits = DEFAULT_LIMITS,
) -> list[DepTree | Tree] | list[Lattice]:
    """The sentences of a treebank (docs/formats.md, "SPMRL / yap lattices"): CoNLL-U/X as
    :class:`~evalcore.trees.DepTree`, bracketed files as :class:`~evalcore.trees.Tree` (``auto``: by
    extension, else by the first character), or a lattice file as :class:`~evalcore.trees.Lattice`.  A
    dependency sentence that is not a tree is kept (:meth:`DepTree.structure_problem` says why)."""
    src = _source(source, "input", limits)
    if format == "lattice":
        from evalcore.formats.lattice import read_lattices

        return list(read_lattices(src.data, name=src.name, limits=limits))
    if format == "conllu" or (format == "auto" and src.kind == "conll"):
        from evalcore.formats.conllu import read_conllu

        deps: list[DepTree | Tree] = [*read_conllu(src.data, name=src.name, on_invalid="keep", limits=limits)]
        return deps
    if format == "ptb" or (format == "auto" and src.kind == "brackets"):
        from evalcore.formats.ptb import read_ptb

        trees: list[DepTree | Tree] = [*read_ptb(src.data, name=src.name, limits=limits)]
        return trees
    if format != "auto":
        raise ValueError(f"unknown format {format!r} (expected auto, conllu, ptb or lattice)")
    from evalcore.formats.detect import read_trees

    return list(read_trees(src.data, name=src.name, limits=limits))


def attach(
    gold: Input,
    system: Input,
    system_b: Input | None = None,
    *,
    no_punct: bool = False,
    punct_tags: PunctTags = "ptb",
    max_len: int | None = None,
    labels: Labels = LABELS_AUTO,
    deprel_base: bool = False,
    strict: bool = False,
    per_sentence: bool = False,
    where: str | None = None,
    bootstrap: int | None = None,
    level: float = 0.95,
    shuffles: int = 10_000,
    seed: int = 12345,
    limits: Limits = DEFAULT_LIMITS,
) -> AttachOutcome | AlignedOutcome:
    """UAS, LAS, label accuracy, undirected, NED of ``system`` against ``gold`` over the same
    tokens (docs/attachment.md, "The five numbers"; ``evalcore attach``).  Sentences that are not trees are
    skipped and counted (``result.warnings`` names them), or raise with ``strict``; ``per_sentence`` keeps
    every sentence's counts.  A system of another tokenization of the same text (a parse of raw
    text) is scored as ``evalcore attach`` scores it, on the CoNLL 2018 character alignment: an
    :class:`~evalcore.families.attach.AlignedOutcome` with the scorer's rows (``result.get("LAS")``),
    its per-gold-sentence records with ``per_sentence``, the intervals and the second system's
    test likewise (docs/attachment.md, "Every analysis on aligned words"); ``no_punct`` and
    ``max_len`` then raise.  A system of another text raises :class:`~evalcore.errors.MismatchError`.
    ``where``: only the gold words a request covers (a request's text, or a file's path;
    docs/patterns.md, "Scores restricted to a construction").
    ``punct_tags="nedpl"``: ``no_punct`` leaves out the tags NED.pl takes for punctuation
    (``--punct-tags nedpl``; docs/attachment.md).  ``labels``: how relation labels compare
    (``--labels``: ``"auto"``, the universal part on a CoNLL-U gold and the full label on CoNLL-X;
    ``"universal"``; ``"full"``); ``deprel_base=True`` is ``labels="universal"``.
    ``bootstrap=N``: ``result.intervals``, each score's
    percentile interval from N resamples of the sentences at ``level`` (seeded; ``--bootstrap``).
    ``system_b``: a second system over the same gold, ``result.system_b`` its scores and
    ``result.comparison`` each score's paired approximate-randomization test (``shuffles`` trials,
    ``seed``; ``evalcore attach GOLD A B``, docs/tedeval.md, "The cross-scheme experiment and
    significance"); ``to_dict()`` is then the command's document of the two."""
    from evalcore.families.attach import AttachInputs, AttachSettings, run_any

    settings = from_keywords(AttachSettings, locals(), labels=_labels(labels, deprel_base))
    g, s = _source(gold, "gold", limits), _source(system, "system", limits)
    b = None if system_b is None else _source(system_b, "system_b", limits)
    names = (_input_name(system, "A"), _input_name(system_b, "B"))
    b_data, b_name = (None, None) if b is None else (b.data, b.name)
    inputs = AttachInputs(g.data, s.data, b_data, g.name, s.name, b_name, names)
    return run_any(inputs, settings, limits)


def _labels(labels: Labels, deprel_base: bool) -> Labels:
    """The ``labels`` setting of ``labels`` and the older ``deprel_base=True`` (``"universal"``)."""
    if not deprel_base:
        return labels
    if labels == LABELS_FULL:
        raise ValueError("deprel_base=True is labels='universal': it contradicts labels='full'")
    return LABELS_UNIVERSAL


def _input_name(value: Input | None, default: str) -> str:
    """A path's name as ``evalcore attach GOLD A B`` names a system (``NAME=PATH`` or its file
    name); in-memory input: ``default``."""
    if isinstance(value, str | os.PathLike) and not (isinstance(value, str) and _is_content(value)):
        return named_path(os.fspath(value))[0]
    return default


def align_labels(
    gold_a: Input,
    gold_b: Input,
    *,
    function_sep: str = "-=",
    fold_case: bool = False,
    category_labels: bool = False,
    direction: Direction = "a-b",
    min_support: int = 5,
    min_share: float = 0.5,
    skip_mismatched: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> LabelAlignments:
    """A proposed map from the labels of ``gold_a`` onto those of ``gold_b`` (``direction``
    ``"b-a"``: the other way, ``"both"``: the two), two annotations of the same sentences
    (docs/labels.md; ``evalcore align-labels``): a pair of labels on the same span is kept with at
    least ``min_support`` co-occurrences and ``min_share`` of the label's occurrences.  Labels are
    read as ``evalcore tedeval`` reads them (``function_sep``, ``fold_case``, ``category_labels``);
    ``skip_mismatched`` skips and counts sentences whose words differ instead of raising
    :class:`~evalcore.errors.MismatchError`.  ``result.alignments[0].label_map`` is the map;
    ``to_dict()`` is ``{"alignments": ...}``, the command's JSON."""
    from evalcore.families.align_labels import AlignInputs, AlignLabelsSettings, run

    settings = from_keywords(AlignLabelsSettings, locals())
    a, b = _source(gold_a, "gold_a", limits), _source(gold_b, "gold_b", limits)
    names = (_input_name(gold_a, "A"), _input_name(gold_b, "B"))
    return run(AlignInputs(a.data, b.data, names, (a.name, b.name)), settings, limits)


def _warner(depth: int) -> Callable[[str], None]:
    """A parameter file's warnings as Python warnings, shown at the caller of the API function,
    ``depth`` calls above the one that warns."""

    def warn(text: str) -> None:
        warnings.warn(text, stacklevel=depth + 1)

    return warn


def parseval(
    gold: Input,
    system: Input,
    *,
    prm: str | os.PathLike[str] | None = None,
    unlabeled: bool = False,
    cutoff_len: int | None = None,
    max_error: int | None = None,
    layout: Layout = "auto",
    drop_unlabeled_root: bool = False,
    delete_root: bool = False,
    function_separators: str = "-=",
    keep_sentences: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> ParsevalResult:
    """evalb's PARSEVAL (docs/freval.md, "PARSEVAL as evalb computes it"; ``evalcore parseval``), driven by an
    evalb parameter file.
    ``layout``: ``line`` (evalb: one sentence a line), ``tree`` (any line breaks) or ``auto``.
    ``delete_root``: delete ROOT and TOP brackets whatever the parameter file says (default: as
    evalb, only its ``DELETE_LABEL`` labels; ``--delete-root``).
    The result keeps every sentence's numbers (``rows``: evalb's report lines) and the error and
    skip sentences; files in evalb's line layout are counted on the command line's count-only path.
    ``keep_sentences=True`` also keeps every sentence's comparison (its brackets and their matching;
    about 5 times the CPU)."""
    from evalcore.families.parseval import BracketInputs, ParsevalSettings, run

    settings = from_keywords(ParsevalSettings, locals(), prm=None if prm is None else os.fspath(prm))
    g, s = _source(gold, "gold", limits), _source(system, "system", limits)
    inputs = BracketInputs(g.data, s.data, g.name, s.name)
    return run(inputs, settings, limits, on_warning=_warner(4), keep_rows=True)


def freval(
    gold: Input,
    system: Input,
    system_b: Input | None = None,
    *,
    prm: str | os.PathLike[str] | None = None,
    unlabeled: bool = False,
    max_error: int | None = None,
    layout: Layout = "auto",
    drop_unlabeled_root: bool = False,
    delete_root: bool = False,
    function_separators: str = "-=",
    max_size: int | None = None,
    cutoff_len: int | None = None,
    alpha: Sequence[float] | str | None = None,
    strict: bool = False,
    collapse_unary: bool = False,
    bootstrap: int | None = None,
    level: float = 0.95,
    shuffles: int = 10_000,
    seed: int = 12345,
    keep_sentences: bool = True,
    limits: Limits = DEFAULT_LIMITS,
) -> FrevalResampled:
    """FREVAL (Bastings & Sima'an 2014; docs/freval.md, "FREVAL"; ``evalcore freval``): recall, precision and
    F1 per fragment size 1..``max_size`` and FLR / FLP / F1 mixed with ``alpha`` (weights of sizes
    1, 2, ...; default uniform); brackets extracted as :func:`parseval` does (the same keywords).
    ``strict``: a matched fragment must also have its parent-child edges in the test tree;
    ``collapse_unary``: a bracket over the same words and label as its parent is merged into it.
    ``bootstrap=N``: a percentile interval (``level``) for every score from N resamples of the
    sentences (``seed``), in ``result.intervals``.  ``system_b``: a second parse of the same gold,
    scored too, with the paired approximate-randomization test (``shuffles``, ``seed``) of every
    score in ``result.paired`` (``to_dict()`` is then the two-parse document)."""
    from evalcore.families.freval import FrevalInputs, FrevalSettings, run

    if alpha is not None and not isinstance(alpha, str):
        alpha = ",".join(repr(float(a)) for a in alpha)
    settings = from_keywords(FrevalSettings, locals(), prm=None if prm is None else os.fspath(prm))
    g, a = _source(gold, "gold", limits), _source(system, "system", limits)
    b = None if system_b is None else _source(system_b, "system_b", limits)
    names = (_input_name(system, "system"), _input_name(system_b, "system_b"))
    b_data, b_name = (None, None) if b is None else (b.data, b.name)
    inputs = FrevalInputs(g.data, a.data, b_data, g.name, a.name, b_name, names)
    return run(inputs, settings, limits, on_warning=_warner(5))


Parses = Mapping[str, Input] | Sequence[str | os.PathLike[str]]


def _named(value: Input, name: str, limits: Limits, *, stream: bool = True) -> NamedTrees:
    """A file of the experiment: a path is streamed by the experiment (unless not ``stream``: the
    atlas keeps the trees to classify the operations), other input read here."""
    from evalcore.experiment import NamedTrees
    from evalcore.formats.detect import read_trees

    src = _source(value, name, limits)
    path = src.data if isinstance(src.data, str) else ""
    if path and stream:
        return NamedTrees(name, (), path)
    return NamedTrees(name, tuple(read_trees(src.data, name=src.name, limits=limits)), path)


def _parse_names(scheme: str, parses: Parses) -> list[tuple[str, Input]]:

    if isinstance(parses, Mapping):
        return list(parses.items())
    if isinstance(parses, str | os.PathLike):
        parses = [parses]
    out: list[tuple[str, Input]] = []
    for p in parses:
        if not isinstance(p, str | os.PathLike):
            raise TypeError(f"scheme {scheme!r}: give in-memory parses as a mapping {{name: parse}}")
        out.append(named_path(os.fspath(p)))
    return out


LabelsMap = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


Load = Callable[[Input, str, Limits], "NamedTrees"]


def _schemes(
    schemes: Mapping[str, tuple[Input, Parses]],
    load: Load,
    label_from: Mapping[str, Input] | None,
    limits: Limits,
) -> tuple[Scheme, ...]:
    """The schemes of ``evalcore tedeval``'s and ``atlas``'s keywords, each file given to ``load``
    (``label_from``: a parse's label donor, ``--label-from``)."""
    from dataclasses import replace

    from evalcore.experiment import Scheme

    donors = dict(label_from or {})
    built: list[Scheme] = []
    for scheme, (gold, parses) in schemes.items():
        named = []
        for parse_name, parse in _parse_names(scheme, parses):
            nt = load(parse, parse_name, limits)
            if parse_name in donors:
                nt = replace(nt, label_from=load(donors.pop(parse_name), parse_name, limits))
            named.append(nt)
        built.append(Scheme(scheme, load(gold, scheme, limits), tuple(named)))
    if donors:
        raise ValueError(f"label_from names no parse: {', '.join(sorted(donors))}")
    return tuple(built)


def tedeval(
    schemes: Mapping[str, tuple[Input, Parses]],
    *,
    protocol: Protocol = PROTOCOL_2012,
    average: Average = "global",
    labels_map: LabelsMap = (),
    scheme_labels_maps: Mapping[str, str | os.PathLike[str]] | None = None,
    function_sep: str = "-=",
    fold_case: bool = False,
    category_labels: bool = False,
    projectivize: bool = False,
    label_from: Mapping[str, Input] | None = None,
    skip_mismatched: bool = False,
    shuffles: int = 10_000,
    seed: int = 12345,
    test: Method = "ar",
    per_sentence: bool = False,
    bootstrap: int | None = None,
    level: float = 0.95,
    labels: Labels = LABELS_AUTO,
    limits: Limits = DEFAULT_LIMITS,
) -> ExperimentResult:
    """The cross-scheme TedEval experiment (docs/tedeval.md, "Definitions"; ``evalcore tedeval``).

    ``schemes`` maps each scheme's name to its gold and its parses: ``{"ud": (gold, {"parser":
    parse, ...}), ...}`` (parses may also be a list of paths, named by their file names, or
    ``NAME=PATH``).  Every parse is scored against its own gold and against every generalization
    of the golds that contains it, with the significance tests of each row (``test``: approximate
    randomization or the paired bootstrap, ``shuffles`` trials, ``seed``): two parses or more
    are two systems compared.  ``label_from`` maps a parse name to a dependency conversion of the
    same parse (``--label-from``).  ``per_sentence`` keeps every sentence's scores and edit scripts.
    ``labels_map``: one file or several, applied in order to every scheme (``--labels-map
    FILE``); ``scheme_labels_maps``: scheme → file, applied first to that scheme's gold and
    parses only (``--labels-map SCHEME=FILE``); ``category_labels``: a bracketed node without
    function tags is labeled with its category (``--category-labels``, docs/tedeval.md).
    ``bootstrap=N``: every cell's percentile interval at ``level`` from N resamples of the
    sentences (``--bootstrap``; in ``result.intervals`` and ``to_dict()``).  ``labels``: how LAS
    compares relation labels (``--labels``: ``"auto"``, the universal part on a CoNLL-U gold and
    the full label on CoNLL-X; ``"universal"``; ``"full"``; docs/tedeval.md, "Relation labels in
    LAS")."""
    from evalcore.families import tedeval as family

    built = _schemes(schemes, _named, label_from, limits)
    maps = family.api_labels_map(labels_map, (scheme_labels_maps or {}).items(), list(schemes))
    settings = from_keywords(family.TedevalSettings, locals(), labels_map=maps)
    return family.run(family.TedevalInputs(built), settings, limits)


def atlas(
    schemes: Mapping[str, tuple[Input, Parses]],
    *,
    protocol: Protocol = PROTOCOL_2012,
    average: Average = "global",
    labels_map: LabelsMap = (),
    scheme_labels_maps: Mapping[str, str | os.PathLike[str]] | None = None,
    function_sep: str = "-=",
    fold_case: bool = False,
    projectivize: bool = False,
    category_labels: bool = False,
    label_from: Mapping[str, Input] | None = None,
    skip_mismatched: bool = False,
    shuffles: int = 10_000,
    seed: int = 12345,
    test: Method = "ar",
    per_sentence: bool = False,
    no_golds: bool = False,
    no_ranking: bool = False,
    freval_sizes: int = 3,
    patterns: tuple[str, ...] = (),
    bootstrap: int | None = None,
    level: float = 0.95,
    labels: Labels = LABELS_AUTO,
    limits: Limits = DEFAULT_LIMITS,
) -> AtlasResult:
    """The discrepancy atlas and the ranking of the parses (docs/atlas.md; ``evalcore atlas``): every
    TedEval operation of every parse (and, unless ``no_golds``, of every gold taken as a parse)
    against every gold and generalization, grouped by operation, head word, construction and span
    length; then, unless ``no_ranking``, the parses ranked under every metric with every pair
    tested (``shuffles``, ``seed``, ``test``; FREVAL F1 rows for sizes 1..``freval_sizes`` where the
    trees are constituency trees).  ``schemes`` and the conversion's keywords are :func:`tedeval`'s;
    ``per_sentence`` keeps every operation (``result.atlas.ops``); ``patterns``, ``[SCHEME=]FILE``
    items, read the construction grouping from pattern files and add the rates and scores per
    construction (``result.constructions``, with ``bootstrap`` resamples' intervals at ``level``;
    docs/patterns.md); ``labels``: how their LAS compares relation labels, as :func:`tedeval`'s."""
    from evalcore.families import tedeval as ted
    from evalcore.families.atlas import AtlasInputs, AtlasSettings, ranking_config, run

    settings = from_keywords(AtlasSettings, locals())
    maps = ted.api_labels_map(labels_map, (scheme_labels_maps or {}).items(), list(schemes))
    experiment = from_keywords(ted.TedevalSettings, locals(), labels_map=maps, per_sentence=False)
    ranking_config(settings, experiment)  # checked before a file is read
    built = _schemes(schemes, functools.partial(_named, stream=False), label_from, limits)
    return run(AtlasInputs(built, experiment), settings, limits, on_warning=_warner(3))


def lattice(
    gold: Input,
    pred: Input,
    *,
    gold_lattice: Input | None = None,
    pred_lattice: Input | None = None,
    ambiguity_lattice: Input | None = None,
    tag_column: TagColumn = "cpos",
    protocol: Protocol = PROTOCOL_2012,
    scenario: Literal["auto", Scenario] | None = "auto",
    labels: Labels = LABELS_AUTO,
    deprel_base: bool = False,
    average: Average = "global",
    name: str | None = None,
    per_sentence: bool = False,
    bootstrap: int | None = None,
    level: float = 0.95,
    seed: int = 12345,
    limits: Limits = DEFAULT_LIMITS,
) -> JointResult:
    """Joint segmentation + parsing (ACL 2012; docs/lattice.md, "What is compared"; ``evalcore lattice``):
    SEGEVAL, token accuracy, TedEval over lattices and the scenario's classic metric, of one prediction.
    ``scenario="auto"`` (or ``None``) detects it from the data; ``per_sentence`` keeps every sentence's
    record; ``bootstrap=N``: each score's percentile interval at ``level`` from N resamples of the
    sentences (``seed``; in ``result.intervals`` and ``to_dict()``).
    Give a CoNLL-U prediction of the raw text to have it aligned with gold by characters.
    ``labels`` (``deprel_base=True``: ``"universal"``): how relation labels compare, as in :func:`attach`."""
    from evalcore.families import lattice as family

    settings = from_keywords(
        family.LatticeSettings, locals(), scenario=scenario or "auto", labels=_labels(labels, deprel_base)
    )
    g, p = _source(gold, "gold", limits), _source(pred, "pred", limits)
    name = _input_name(pred, "pred") if name is None else name
    a = None if ambiguity_lattice is None else _source(ambiguity_lattice, "ambiguity.lattice", limits)
    gl = None if gold_lattice is None else _source(gold_lattice, "gold.lattice", limits)
    pl = None if pred_lattice is None else _source(pred_lattice, "pred.mapping", limits)
    inputs = family.LatticeInputs(
        g.data,
        p.data,
        name,
        gold_name=g.name,
        pred_name=p.name,
        gold_lattice=None if gl is None else family.file_input(gl.data, gl.name),
        pred_lattice=None if pl is None else family.file_input(pl.data, pl.name),
        ambiguity=None if a is None else a.data,
        ambiguity_name=None if a is None else a.name,
    )
    return family.run(inputs, settings, limits)


def inspect(
    golds: Mapping[str, DepTree | Tree],
    parses: Mapping[str, tuple[str, DepTree | Tree]],
    *,
    protocol: Protocol = PROTOCOL_2012,
    function_sep: str = "-=",
    fold_case: bool = False,
    projectivize: bool = False,
) -> SentenceReport:
    """One sentence as the app's inspector shows it (docs/tedeval.md, "Definitions"): each scheme's function
    tree, the generalized gold, and each parse's TedEval edit scripts (SINGLE against its own gold, MULTIPLE
    against the generalization).  ``golds`` maps scheme → tree, ``parses`` maps parse name →
    (its scheme, tree); all over the same words.  In Jupyter the report draws itself."""
    from evalcore.families.tedeval import TedevalSettings, conversion_config
    from evalcore.inspection import inspect_sentence

    settings = TedevalSettings(
        protocol=protocol, function_sep=function_sep, fold_case=fold_case, projectivize=projectivize
    )
    config = conversion_config(settings)
    return inspect_sentence(
        list(golds.items()), [(name, scheme, tree) for name, (scheme, tree) in parses.items()], config
    )
