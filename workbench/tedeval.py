"""TedEval over a loaded dataset: which golds and parses take part, for one sentence or the corpus.

No streamlit here (testable without a running app); the computing is
evalcore's (:func:`evalcore.inspection.inspect_sentence`,
:func:`evalcore.experiment.run_experiment`).  This module only decides who
plays which role:

* every gold file is a *scheme* (``FileSpec.scheme``, else its name);
* a parse's **own gold** (the one whose script is discounted, TEDEVAL
  MULTIPLE) is the gold of the parse's scheme if the dataset has one, else the
  gold it is scored against (``FileSpec.against``).  So the UD v1 gold read as
  a parse of the UD v2 gold is discounted with UD v1, and spaCy's ClearNLP
  parse, whose scheme has no gold, with the UD v2 gold;
* its **single** gold (TEDEVAL SINGLE, next to UAS/LAS) is the gold it is
  scored against.

A file that cannot take part in one sentence (an empty evalb line, a
sentence that is not a tree, different words) is left out of that sentence
with a note, never silently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from evalcore.choices import PROTOCOL_2011
from evalcore.conversion import ConversionConfig, words_of
from evalcore.errors import EvalcoreError
from evalcore.experiment import (
    Cell,
    ExperimentConfig,
    ExperimentResult,
    NamedTrees,
    Scheme,
    build_rows,
    row_order,
)
from evalcore.inspection import ParseView, SentenceReport, inspect_sentence
from evalcore.metrics.tedeval import SentenceTed
from evalcore.trees import DepTree, Tree
from workbench.datasets import Analysis, LoadedDataset

__all__ = [
    "ParseTeds",
    "TedParse",
    "TedSentence",
    "corpus_parse_teds",
    "decided_as",
    "experiment_schemes",
    "general_name",
    "gold_as_parse_name",
    "gold_parse_schemes",
    "guess_function_separators",
    "join_parses",
    "own_gold",
    "parse_against_name",
    "parse_choices",
    "ranked",
    "raw_choices",
    "row_sentence_scores",
    "scheme_of",
    "sentence_tedeval",
    "tree_golds",
    "tree_parses",
]


def scheme_of(gold: Analysis) -> str:
    return gold.spec.scheme or gold.name


_STAR_FUNCTION = re.compile(r"^[A-Za-z$]+[A-Za-z0-9$]*\*[A-Za-z]")


def guess_function_separators(loaded: LoadedDataset, sample: int = 50) -> str:
    """``-=`` (PTB), or ``-=*`` when the bracketed golds write function tags after ``*`` as
    FarPaHC does (``NP*SBJ``); looks at the labels of the first ``sample`` trees."""
    for g in tree_golds(loaded):
        if g.spec.fmt != "ptb":
            continue
        for tree in g.trees[:sample]:
            if isinstance(tree, Tree) and any(
                _STAR_FUNCTION.match(tree.nodes[i].label) for i in tree.internal()
            ):
                return "-=*"
    return "-="


def general_name(schemes: Sequence[str]) -> str:
    """The name of a generalization in the experiment's rows: ``UD+SUD``."""
    return "+".join(schemes)


def tree_golds(loaded: LoadedDataset) -> tuple[Analysis, ...]:
    return tuple(a for a in loaded.analyses if a.spec.role == "gold" and a.spec.fmt in ("conllu", "ptb"))


def tree_parses(loaded: LoadedDataset) -> tuple[Analysis, ...]:
    """Parses that have a gold to be scored against."""
    return tuple(
        a
        for a in loaded.analyses
        if a.spec.role == "parse" and a.spec.fmt in ("conllu", "ptb") and loaded.gold_of(a) is not None
    )


def own_gold(loaded: LoadedDataset, parse: Analysis) -> Analysis | None:
    """The gold of the parse's own scheme, else the gold it is scored against."""
    for g in tree_golds(loaded):
        if parse.spec.scheme and scheme_of(g) == parse.spec.scheme:
            return g
    return loaded.gold_of(parse)


@dataclass(frozen=True)
class TedParse:
    """A parse as TedEval reads it: its own gold (discounting) and the gold of its SINGLE score."""

    analysis: Analysis
    own: Analysis  # discounted with this gold (MULTIPLE)
    single: Analysis  # TEDEVAL SINGLE against this gold (the one UAS/LAS use)
    label: str = ""  # its name, when not the file's (a gold read as a parse)
    raw: bool = False  # a parse of the raw text: scored on the blocks of the character alignment

    @property
    def name(self) -> str:
        return self.label or self.analysis.name

    @property
    def gold_as_parse(self) -> bool:
        return self.analysis.spec.role == "gold"

    @property
    def on_demand(self) -> bool:
        """A gold read as a parse, or a parse against another gold than its own: scored for a
        sentence only when chosen (its label names it)."""
        return bool(self.label)


def gold_as_parse_name(gold: Analysis, against: Analysis) -> str:
    """``UD gold as a parse, against SUD gold``."""
    return f"{gold.name} as a parse, against {against.name}"


def parse_against_name(parse: Analysis, against: Analysis) -> str:
    """``spaCy UD parser, against SUD gold``."""
    return f"{parse.name}, against {against.name}"


def parse_choices(loaded: LoadedDataset, *, golds: bool = True) -> tuple[TedParse, ...]:
    """What the inspector can take as "the parse": every parse that has a gold, then (``golds``)
    every gold read as a parse of its own scheme against each other gold (SINGLE: the script from
    one gold to the other, every disagreement counted; MULTIPLE: against the generalization,
    discounted with itself, so the generalization forgives all of it, docs/tedeval.md, "Edit scripts, discount
    and score"), then every parse against each other gold than the one it is scored with (SINGLE against that
    gold: the cross-scheme experiment's row of that gold, and the atlas's cell; MULTIPLE as the parse's),
    a parse of the raw text too (its blocks against that gold)."""
    out: list[TedParse] = []
    crossed: list[TedParse] = []
    gs = tree_golds(loaded)
    for p in tree_parses(loaded):
        own, single = own_gold(loaded, p), loaded.gold_of(p)
        if own is not None and single is not None and loaded.aligned_parse(p.name) is None:
            out.append(TedParse(p, own, single))
            crossed.extend(TedParse(p, own, h, parse_against_name(p, h)) for h in gs if h.name != single.name)
    raw = raw_choices(loaded)
    out.extend(raw)
    if golds:
        out.extend(TedParse(g, g, h, gold_as_parse_name(g, h)) for g in gs for h in gs if g.name != h.name)
        out.extend(crossed)
        out.extend(  # a parse of the raw text against another gold: its blocks against that gold
            TedParse(r.analysis, r.own, h, parse_against_name(r.analysis, h), raw=True)
            for r in raw
            for h in gs
            if h.name != r.single.name
        )
    return tuple(out)


def raw_choices(loaded: LoadedDataset) -> tuple[TedParse, ...]:
    """Each parse of the raw text whose golds are CoNLL-U (its edit script is its block's,
    docs/rawtext.md): discounted with the gold of its scheme, else the gold it is aligned with."""
    if any(g.spec.fmt != "conllu" for g in tree_golds(loaded)):
        return ()
    out = []
    for p in loaded.aligned:
        own = own_gold(loaded, p.analysis) or p.gold
        out.append(TedParse(p.analysis, own, p.gold, raw=True))
    return tuple(out)


@dataclass(frozen=True)
class TedSentence:
    """One sentence's TedEval report over a dataset, and what was left out of it (``notes``)."""

    report: SentenceReport | None
    schemes: tuple[tuple[str, Analysis], ...]  # the golds in the generalization
    parses: tuple[TedParse, ...]
    notes: tuple[str, ...]
    words: tuple[str, ...]

    @property
    def general(self) -> str:
        return general_name([s for s, _ in self.schemes])

    def parse(self, name: str) -> TedParse | None:
        return next((p for p in self.parses if p.name == name), None)

    def view(self, name: str) -> ParseView | None:
        if self.report is None:
            return None
        return next((v for v in self.report.parses if v.name == name), None)


def _problem(tree: DepTree | Tree | None, protocol: str) -> str | None:
    if tree is None:
        return "no tree for this sentence"
    if isinstance(tree, DepTree):
        bad = tree.structure_problem()
        return f"not a tree ({bad[1]})" if bad else None
    if protocol == PROTOCOL_2011:
        return "the 2011 protocol compares dependency trees only (choose 2012)"
    return None


def sentence_tedeval(
    loaded: LoadedDataset,
    index: int,
    config: ConversionConfig,
    choices: Sequence[TedParse] | None = None,
) -> TedSentence:
    """Function trees, the generalized gold of every usable gold, and the scripts of every parse
    (``choices``: these parses only, e.g. from :func:`parse_choices`)."""
    notes: list[str] = []
    golds: list[tuple[str, Analysis, DepTree | Tree]] = []
    words: tuple[str, ...] | None = None
    for g in tree_golds(loaded):
        tree = g.trees[index]
        why = _problem(tree, config.protocol)
        if why is None:
            assert tree is not None
            w = words_of(tree)
            if words is None:
                words = w
            elif w != words:
                why = "its words differ from the first gold's"
        if why is not None:
            notes.append(f"{g.name}: left out of this sentence's generalization: {why}.")
            continue
        assert tree is not None
        golds.append((scheme_of(g), g, tree))
    usable = {g.name for _, g, _ in golds}
    parses: list[TedParse] = []
    trees: list[tuple[str, str, DepTree | Tree]] = []
    single_against: dict[str, str] = {}
    for choice in parse_choices(loaded, golds=False) if choices is None else choices:
        if choice.raw:  # its words are not the gold's: its block's script (workbench.rawtext_view)
            continue
        p, own, single = choice.analysis, choice.own, choice.single
        tree = p.trees[index]
        why = _problem(tree, config.protocol)
        if why is None and (own.name not in usable or single.name not in usable):
            why = "its gold is left out of this sentence"
        if why is None:
            assert tree is not None
            if words_of(tree) != words:
                why = "its words differ from the gold's"
        if why is not None:
            notes.append(f"{choice.name}: no TedEval for this sentence: {why}.")
            continue
        assert tree is not None
        parses.append(choice)
        trees.append((choice.name, scheme_of(own), tree))
        single_against[choice.name] = scheme_of(single)
    schemes = tuple((s, g) for s, g, _ in golds)
    if not golds:
        return TedSentence(None, schemes, (), tuple(notes), words or ())
    try:
        report = inspect_sentence([(s, t) for s, _, t in golds], trees, config, single_against=single_against)
    except EvalcoreError as exc:
        notes.append(str(exc))
        return TedSentence(None, schemes, (), tuple(notes), words or ())
    return TedSentence(report, schemes, tuple(parses), tuple(notes), words or ())


def _gold_as_parse(g: Analysis, mine: Sequence[Analysis]) -> bool:
    """A gold is also read as a parse of its own scheme unless one of its parses is that very file."""
    return not any(p.digest == g.digest for p in mine)


def _experiment_golds(loaded: LoadedDataset) -> list[tuple[Analysis, list[Analysis]]]:
    """Each gold the experiment can read (not one sentence per line) with the parses whose own gold it is
    (a parse of the raw text too: the experiment scores it on the blocks of the character alignment,
    docs/rawtext.md)."""
    named = {p.name for p in tree_parses(loaded)}
    raw = [p.analysis for p in loaded.aligned if p.name not in named]
    parses = [p for p in (*tree_parses(loaded), *raw) if not p.spec.per_line]
    return [
        (g, [p for p in parses if (o := own_gold(loaded, p)) is not None and o.name == g.name])
        for g in tree_golds(loaded)
        if not g.spec.per_line
    ]


def _as_parse_name(gold: Analysis) -> str:
    return f"{gold.name} (as a parse)"


def _named(name: str, a: Analysis) -> NamedTrees:
    """A file as the experiment reads it: its trees, and its bytes for the character alignment of a
    parse of the raw text (its ``path`` names it in messages; an upload has no file on disk)."""
    return NamedTrees(name, tuple(a.trees), a.spec.path, data=a.data or None)  # type: ignore[arg-type]


def experiment_schemes(loaded: LoadedDataset, *, include_golds: bool = False) -> list[Scheme]:
    """The dataset as the cross-scheme experiment's input (docs/tedeval.md, "The cross-scheme experiment and
    significance"): one scheme per gold file, each with the parses whose own gold it is; ``include_golds``
    adds each gold as a parse of its own scheme (the ceiling: 1.0 against every generalization), unless a
    parse already is that very file.  Constituency files read one sentence per line (evalb) cannot take
    part."""
    schemes: list[Scheme] = []
    for g, mine in _experiment_golds(loaded):
        named = [_named(p.name, p) for p in mine]
        if include_golds and _gold_as_parse(g, mine):
            named.append(_named(_as_parse_name(g), g))
        schemes.append(Scheme(scheme_of(g), _named(g.name, g), tuple(named)))
    return schemes


@dataclass(frozen=True, slots=True)
class ParseTeds:
    """One parse on one sentence: its four TedEval scripts (docs/tedeval.md, "Edit scripts, discount and
    score")."""

    single: tuple[SentenceTed, SentenceTed]  # (unlabeled, labeled) against its single gold
    multiple: tuple[SentenceTed, SentenceTed]  # (unlabeled, labeled) against the generalization

    def script(self, *, single: bool, labeled: bool) -> SentenceTed:
        return (self.single if single else self.multiple)[1 if labeled else 0]


def corpus_parse_teds(
    loaded: LoadedDataset, choice: TedParse, config: ConversionConfig, start: int = 0, stop: int | None = None
) -> tuple[ParseTeds | None, ...]:
    """Per sentence ``start``..``stop`` (default: all), the TedEval scripts of ``choice`` (``None``
    where it cannot take part: see the notes of :func:`sentence_tedeval`)."""
    stop = len(loaded.sentences) if stop is None else stop
    if choice.raw:  # no script over the gold's words (its blocks' scripts: workbench.rawtext_view)
        return (None,) * (stop - start)
    out: list[ParseTeds | None] = []
    for i in range(start, stop):
        view = sentence_tedeval(loaded, i, config, (choice,)).view(choice.name)
        out.append(None if view is None else ParseTeds(view.single, view.multiple))
    return tuple(out)


def gold_parse_schemes(loaded: LoadedDataset, indices: Sequence[int]) -> list[Scheme]:
    """The experiment of the golds read as parses only (the columns ``include_golds`` adds), over the
    sentences ``indices`` (0-based: those the parses' experiment kept), to be joined to it with
    :func:`join_parses` -- the same numbers as one experiment with ``include_golds``, without
    scoring the parses again."""
    schemes: list[Scheme] = []
    for g, mine in _experiment_golds(loaded):
        trees = tuple(g.trees[i] for i in indices)
        gold = NamedTrees(g.name, trees, g.spec.path)  # type: ignore[arg-type]
        named = (NamedTrees(_as_parse_name(g), trees, g.spec.path),) if _gold_as_parse(g, mine) else ()  # type: ignore[arg-type]
        schemes.append(Scheme(scheme_of(g), gold, named))
    return schemes


def join_parses(
    main: ExperimentResult, extra: ExperimentResult, schemes: Sequence[str], config: ExperimentConfig
) -> ExperimentResult:
    """``main`` with the parses of ``extra`` (an experiment of the same ``schemes``, in order, over
    the sentences ``main`` kept, e.g. :func:`gold_parse_schemes`) as more columns, each after its
    scheme's own parses (the column order of one experiment over all the parses), and the rows
    ranked and tested again under ``config`` (:func:`evalcore.experiment.build_rows`).  Raises
    ``ValueError`` if the two did not score the same sentences."""
    if extra.sentences != main.sentences or extra.sent_ids != main.sent_ids:
        raise ValueError("the two experiments did not score the same sentences")
    config = decided_as(config, main)
    columns = [c for s in schemes for c in (*main.parses, *extra.parses) if c[1] == s]
    rank = {name: k for k, (name, _) in enumerate(columns)}
    cells: dict[tuple[str, str], list[Cell]] = {}
    for r in (*main.rows, *extra.rows):
        cells.setdefault((r.against, r.metric), []).extend(r.cells)
    ordered = {key: sorted(found, key=lambda c: rank[c.parse]) for key, found in cells.items()}
    return replace(
        main,
        rows=build_rows(ordered, row_order(schemes), config),
        parses=tuple(columns),
        signature=config.signature(),
    )


def ranked(main: ExperimentResult, config: ExperimentConfig) -> ExperimentResult:
    """``main``'s rows ranked and tested again under ``config`` (its cells are kept: counting and
    testing are separate, so another number of shuffles or seed does not score the sentences again)."""
    cells = {(r.against, r.metric): r.cells for r in main.rows}
    order = [(r.against, r.metric) for r in main.rows]
    config = decided_as(config, main)
    return replace(main, rows=build_rows(cells, order, config), signature=config.signature())


def decided_as(config: ExperimentConfig, main: ExperimentResult) -> ExperimentConfig:
    """``config`` with the relation labels ``main`` was scored with, decided on its golds
    (docs/tedeval.md, "Relation labels in LAS"), so that the signature says them."""
    return config if config.deprel_base is not None else replace(config, deprel_base=main.deprel_base)


def row_sentence_scores(
    result: ExperimentResult, against: str, metric: str, parse: str
) -> tuple[dict[int, float], dict[int, tuple[int, ...]]]:
    """Per sentence (0-based file position), ``parse``'s score in row ``(against, metric)``, and for a
    parse of the raw text the gold sentences of each sentence's block where it has several.  A TedEval
    cell of such a parse holds a block's pair on its first gold sentence (docs/rawtext.md, "Sentences
    for the tests"); here every gold sentence of the block shows the block's score."""
    scores = result.sentence_scores(against, metric, parse)
    labeled = metric == "L-TED"
    blocks = [
        b
        for b in result.raw_blocks
        if b.parse == parse and b.against == against and b.labeled == labeled and metric.endswith("TED")
    ]
    together: dict[int, tuple[int, ...]] = {}
    for b in blocks:
        value = 1.0 - b.delta / b.norm if b.norm else 1.0
        for g in b.gold:
            if g in scores:
                scores[g] = value
                if len(b.gold) > 1:
                    together[g] = b.gold
    return scores, together
