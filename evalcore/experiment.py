"""The cross-scheme experiment (docs/tedeval.md, "The cross-scheme experiment and significance" and "The
numbers in the table"; EMNLP 2011 Tables 1–2, EACL 2012 Tables 1–2).

Every parse against every single gold (UAS, LAS, TEDEVAL SINGLE) and every generalization of 2..K golds
that contains its own gold (TEDEVAL MULTIPLE); each row's best value marked and every pair tested.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, islice
from types import MappingProxyType
from typing import TYPE_CHECKING

from evalcore.choices import LABELS_AUTO, LABELS_FULL, LABELS_UNIVERSAL, Labels, universal_labels
from evalcore.conversion import SchemeLabelMaps, first_difference, to_span_tree, words_of
from evalcore.display import Tabular
from evalcore.errors import EvalcoreError, MismatchError
from evalcore.families.attach import AttachSettings, attach_config
from evalcore.gcpause import paused_gc
from evalcore.generalization import generalize_all, tl_unify
from evalcore.metrics.attachment import AttachConfig, sentence_counts
from evalcore.metrics.base import Signature
from evalcore.metrics.tedeval import SentenceTed, TedConfig, sentence_ted
from evalcore.significance import Method, check_seed, pairwise_significance
from evalcore.trees import DepTree, SpanTree, Tree

if TYPE_CHECKING:
    from evalcore.experiment_raw import RawParse, RawSentence
    from evalcore.resampling import Intervals

__all__ = [
    "METRICS",
    "Cell",
    "ExperimentConfig",
    "ExperimentPlan",
    "ExperimentResult",
    "NamedTrees",
    "PairTest",
    "PlannedParse",
    "Reader",
    "Row",
    "Scheme",
    "SentenceDetail",
    "build_rows",
    "cell_name",
    "counting_config",
    "deprel_text",
    "plan_files",
    "resolve_labels",
    "row_order",
    "run_experiment",
    "with_label_maps",
]

METRICS = ("UAS", "LAS", "U-TED", "L-TED")
AnyTree = DepTree | Tree


@dataclass(frozen=True)
class NamedTrees:
    """A gold or parse file, already read.

    ``label_from``: a dependency conversion of the same parse whose labels are
    TL-unified into it (EACL 2012 §3.2, how the paper labeled bare
    phrase-structure parses; docs/tedeval.md, "Multi-function trees (2012 protocol)" ``--label-from``).
    ``data``: the file's bytes when they are held in memory (the workbench's files): what the
    character alignment of a parse of raw text reads (docs/rawtext.md), before ``path``.
    """

    name: str
    trees: tuple[AnyTree, ...]
    path: str = ""
    label_from: NamedTrees | None = None
    data: bytes | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Scheme:
    name: str
    gold: NamedTrees
    parses: tuple[NamedTrees, ...] = ()


def counting_config(deprel_base: bool) -> AttachConfig:
    """How the experiment counts UAS and LAS against one gold: every token, relation labels by
    their universal part (``deprel_base``) or whole (docs/tedeval.md, "Relation labels in LAS")."""
    return attach_config(AttachSettings(labels=LABELS_UNIVERSAL if deprel_base else LABELS_FULL), "conllx")


def deprel_text(decided: Sequence[tuple[str, bool]]) -> str:
    """How LAS compared relation labels, as the signature says it: ``base`` (the universal part)
    or ``full`` (as written), each scheme's when they differ (``ud=base,x=full``), ``none``
    without a dependency gold (docs/tedeval.md, "Relation labels in LAS")."""
    kinds = {base for _, base in decided}
    if len(kinds) == 1:
        return "base" if kinds == {True} else "full"
    if not kinds:
        return "none"
    return ",".join(f"{s}={'base' if b else 'full'}" for s, b in decided)


@dataclass(frozen=True, slots=True)
class ExperimentConfig:
    ted: TedConfig = field(default_factory=TedConfig)
    shuffles: int = 10_000
    seed: int = 12345
    method: Method = "ar"
    skip_mismatched: bool = False
    alpha: float = 0.05
    # how UAS/LAS compare relation labels (docs/tedeval.md, "Relation labels in LAS"): the setting,
    # and once the golds are known (:func:`resolve_labels`) what it gives on each dependency gold
    # (scheme name, compared by the universal part)
    labels: Labels = LABELS_AUTO
    deprel_base: tuple[tuple[str, bool], ...] | None = None

    def __post_init__(self) -> None:
        check_seed(self.seed)

    def base_of(self, scheme: str) -> bool:
        """Whether LAS against ``scheme``'s gold compares the universal part of the relations."""
        if self.deprel_base is not None:
            return dict(self.deprel_base).get(scheme, False)
        return self.labels == LABELS_UNIVERSAL

    def deprel_text(self) -> str:
        """The signature's ``deprel`` value (:func:`deprel_text`), ``auto`` before the golds are
        known."""
        if self.deprel_base is None:
            return {LABELS_AUTO: "auto", LABELS_UNIVERSAL: "base", LABELS_FULL: "full"}[self.labels]
        return deprel_text(self.deprel_base)

    def signature_value(self) -> Signature:
        """The TedEval signature plus the significance test's settings and the relation labels."""
        return self.ted.signature_value().extend(
            ("test", self.method),
            ("trials", self.shuffles),
            ("seed", self.seed),
            ("skipmismatch", self.skip_mismatched),
            ("deprel", self.deprel_text()),
        )

    def signature(self) -> str:
        return str(self.signature_value())


@dataclass(frozen=True, slots=True)
class Cell:
    parse: str
    scheme: str
    score: float
    pairs: tuple[tuple[float, float], ...] = field(repr=False)  # per-sentence (x, n) for significance
    sentence_scores: tuple[float, ...] = field(default=(), repr=False)  # per kept sentence, file order


def cell_name(against: str, metric: str, parse: str) -> str:
    """The name of a cell's interval in :class:`~evalcore.resampling.Intervals`."""
    return f"{against}\t{metric}\t{parse}"


@dataclass(frozen=True, slots=True)
class PairTest:
    a: str
    b: str
    p_value: float
    significant: bool


@dataclass(frozen=True, slots=True)
class Row:
    against: str
    metric: str
    cells: tuple[Cell, ...]
    best: tuple[str, ...]
    tests: tuple[PairTest, ...]

    def cell(self, parse: str) -> Cell | None:
        return next((c for c in self.cells if c.parse == parse), None)

    def not_significant_with_best(self, parse: str) -> bool:
        """True if ``parse`` is in a non-significant pair with one of the row's best parses."""
        return any(
            not t.significant and ((t.a == parse and t.b in self.best) or (t.b == parse and t.a in self.best))
            for t in self.tests
        )


@dataclass(frozen=True, slots=True)
class SentenceDetail:
    """One sentence of one (parse, against, labeled) combination, with its scripts."""

    parse: str
    against: str
    labeled: bool
    sent_id: str
    index: int
    ted: SentenceTed
    parse_tree: SpanTree | None = field(default=None, compare=False, repr=False)  # the scored trees
    target_tree: SpanTree | None = field(default=None, compare=False, repr=False)  # (gold or generalization)


@dataclass(frozen=True)
class ExperimentResult(Tabular):
    rows: tuple[Row, ...]
    parses: tuple[tuple[str, str], ...]  # (parse name, scheme name) in column order
    sentences: int
    skipped_mismatched: int
    skipped_invalid: int
    signature: str
    details: tuple[SentenceDetail, ...] = ()
    sent_ids: tuple[str, ...] = field(default=(), repr=False)  # of the kept sentences, in file order
    indices: tuple[int, ...] = field(default=(), repr=False)  # their 0-based positions in the files
    intervals: Intervals | None = field(default=None, repr=False)  # every cell's, named by cell_name()
    raw_blocks: tuple[RawSentence, ...] = field(
        default=(), repr=False
    )  # parses of raw text (docs/rawtext.md)
    # how LAS compared relation labels on each dependency gold (scheme, by the universal part)
    deprel_base: tuple[tuple[str, bool], ...] = field(default=(), repr=False)

    @property
    def deprel(self) -> str:
        """The signature's ``deprel`` value (:func:`deprel_text`); ``""`` without a dependency gold
        (no UAS or LAS)."""
        return deprel_text(self.deprel_base) if self.deprel_base else ""

    def row(self, against: str, metric: str) -> Row | None:
        """The row ``(against, metric)``, if the experiment produced it."""
        return next((r for r in self.rows if r.against == against and r.metric == metric), None)

    def sentence_scores(self, against: str, metric: str, parse: str) -> dict[int, float]:
        """Per-sentence scores of ``parse`` in row ``(against, metric)``, keyed by 0-based file
        position (sentences left out of the experiment are absent)."""
        row = self.row(against, metric)
        cell = row.cell(parse) if row is not None else None
        if cell is None:
            return {}
        return dict(zip(self.indices, cell.sentence_scores, strict=True))


def _words_mismatch(
    index: int, ref: NamedTrees, ref_tree: AnyTree, ref_words: tuple[str, ...], f: NamedTrees, t: AnyTree
) -> MismatchError:
    """The error for sentence ``index`` (0-based) whose words differ between ``f`` and the reference."""
    w = words_of(t)
    k, got, want = first_difference(w, ref_words)
    src = t.source
    return MismatchError(
        f"sentence {index + 1} ('{getattr(ref_tree, 'sent_id', '') or index + 1}'): word {k + 1} is "
        f"'{got}' in '{f.name}' but '{want}' in gold '{ref.name}' (use --skip-mismatched to skip "
        "such sentences)",
        file=src.file if src else f.path or f.name,
        line=src.token_line(k) if src else None,
    )


_END = object()

Reader = Callable[[NamedTrees], Iterable[AnyTree]]
PairKey = tuple[int, str, str]
"""(parse index, against, metric): the key of one cell's per-sentence ``(x, n)`` pairs."""


# ---------------------------------------------------------------------------
# 1. planning the files


@dataclass(frozen=True, slots=True)
class PlannedParse:
    """A parse to score: its scheme, its position among the files read, and its label donor's."""

    parse: NamedTrees
    scheme: Scheme
    file: int
    donor: int | None


@dataclass(frozen=True)
class ExperimentPlan:
    """The files read in step (each scheme's gold, then its parses and their label donors), where
    each gold and parse is among them, and the generalizations scored (2..K golds)."""

    schemes: tuple[Scheme, ...]
    files: tuple[NamedTrees, ...]
    gold_file: Mapping[str, int]
    parses: tuple[PlannedParse, ...]
    subsets: tuple[tuple[str, ...], ...]

    @property
    def columns(self) -> tuple[tuple[str, str], ...]:
        """(parse name, scheme name), in column order."""
        return tuple((p.parse.name, p.scheme.name) for p in self.parses)

    @property
    def duplicate_parses(self) -> bool:
        names = [p for p, _ in self.columns]
        return len(set(names)) != len(names)


def plan_files(schemes: Sequence[Scheme]) -> ExperimentPlan:
    """Which files the experiment reads, in which order, and what it scores."""
    if not schemes:
        raise ValueError("at least one scheme is needed")
    names = [s.name for s in schemes]
    if len(set(names)) != len(names):
        raise MismatchError(f"scheme names must be distinct: {names}")
    files: list[NamedTrees] = []
    gold_file: dict[str, int] = {}
    parses: list[PlannedParse] = []
    for s in schemes:
        gold_file[s.name] = len(files)
        files.append(s.gold)
        first_parse = len(files)
        files.extend(s.parses)
        for k, p in enumerate(s.parses):
            donor = None
            if p.label_from is not None:
                donor = len(files)
                files.append(p.label_from)
            parses.append(PlannedParse(p, s, first_parse + k, donor))
    subsets = tuple(combo for k in range(2, len(schemes) + 1) for combo in combinations(names, k))
    return ExperimentPlan(tuple(schemes), tuple(files), MappingProxyType(gold_file), tuple(parses), subsets)


# ---------------------------------------------------------------------------
# 2. the streaming per-sentence loop


def _read_in_step(
    plan: ExperimentPlan, streams: Sequence[Iterator[AnyTree]]
) -> Iterator[tuple[int, list[AnyTree]]]:
    """Sentence ``index`` (0-based) of every file, one sentence at a time; files of different
    lengths are a :class:`MismatchError` naming the first sentence without a counterpart, as soon
    as it is met (the rest of the files is not read: an empty gold against a long parse is
    named at once)."""
    files, ref = plan.files, plan.files[0]
    index = -1
    while True:
        index += 1
        trees = [next(it, _END) for it in streams]
        ended = [t is _END for t in trees]
        if all(ended):
            return
        if any(ended):
            # the first file that differs from the gold here: it goes on where the gold ended,
            # or it ends where the gold goes on
            k = next(k for k in range(1, len(files)) if ended[k] != ended[0])
            f = files[k]
            longer, extra = (f, trees[k]) if ended[0] else (ref, trees[0])
            shorter = ref if ended[0] else f
            src = getattr(extra, "source", None)
            what = f"gold '{ref.name}'" if longer is ref else f"'{f.name}'"
            other = f"gold '{ref.name}'" if shorter is ref else f"'{f.name}'"
            raise MismatchError(
                f"{what} has more sentences than {other}, which ends after {index}: "
                f"sentence {index + 1} of '{longer.name}' has no counterpart",
                file=(src.file if src is not None else None) or longer.path or longer.name,
                line=src.line if src is not None else None,
            )
        yield index, trees  # type: ignore[misc]


_Converted = tuple[dict[str, SpanTree], dict[tuple[str, ...], SpanTree], list[SpanTree]]
"""One sentence's function trees: each scheme's gold, each generalization, each parse."""


class _Scan:
    """The per-sentence pass: every sentence's ``(x, n)`` pairs per cell (and, with ``details``, its
    scripts), the sentences left out, and the first error of each kind in sentence order (raised
    at the end in their order of precedence, see :func:`run_experiment`).  Local to one run."""

    def __init__(
        self,
        plan: ExperimentPlan,
        config: ExperimentConfig,
        details: bool,
        converted: dict[tuple[int, bool], SpanTree] | None = None,
        held: frozenset[str] = frozenset(),
    ) -> None:
        self.plan, self.config, self.details = plan, config, details
        # the function trees of the golds ``held`` in memory for the parses of raw text, kept by the
        # trees' identities (only theirs: those trees outlive the dict)
        self.converted, self.held = converted, held
        conv = config.ted.conversion
        # docs/tedeval.md, "Multi-function trees (2012 protocol)"
        self.scheme_conv = {s.name: conv.for_scheme(s.name) for s in plan.schemes}
        self.sentence_average = config.ted.average == "sentence"
        # each gold's relation labels (docs/tedeval.md, "Relation labels in LAS"), decided on the
        # first sentence
        self.acfg: dict[str, AttachConfig] = {}
        self.pairs: dict[PairKey, list[tuple[float, float]]] = {}
        self.all_dep = {(pi, g.name): True for pi in range(len(plan.parses)) for g in plan.schemes}
        self.detail_lists: dict[tuple[int, str, bool], list[SentenceDetail]] = {}
        self.first_mismatch: dict[int, MismatchError] = {}
        self.gold_error: EvalcoreError | None = None
        self.parse_error: EvalcoreError | None = None
        self.scan_only = plan.duplicate_parses  # the result is an error: keep checking what would come first
        self.skipped_mismatch = self.invalid = self.kept = 0
        self.kept_ids: list[str] = []  # sent_id and file position of each kept sentence
        self.kept_index: list[int] = []
        # Equal pairs are stored once: a corpus has few distinct (x, n) values, so each sentence then
        # costs a reference per cell, not new tuples and floats (100,000 sentences x 20 cells: about
        # 50 MB instead of 300).
        self.shared_pairs: dict[tuple[float, float], tuple[float, float]] = {}

    def pair_of(self, x: float, n: float) -> tuple[float, float]:
        key = (x, n)
        return self.shared_pairs.setdefault(key, key)

    def decide_labels(self, sentence: list[AnyTree] | None) -> ExperimentConfig:
        """The configuration with its relation labels decided on the golds' first ``sentence``
        (:func:`resolve_labels`; ``None``: no sentence was read)."""
        plan = self.plan
        self.config = resolve_labels(
            self.config,
            ((s.name, s.gold, sentence[plan.gold_file[s.name]] if sentence else None) for s in plan.schemes),
        )
        self.acfg = {s.name: counting_config(self.config.base_of(s.name)) for s in plan.schemes}
        return self.config

    def add(self, index: int, sentence: list[AnyTree]) -> bool:
        """Score sentence ``index`` of every file; ``False`` if it was left out (or only checked)."""
        if not self.acfg:
            self.decide_labels(sentence)
        if not self._same_words(index, sentence):
            self.skipped_mismatch += 1
            return False
        if self.first_mismatch or (self.scan_only and self.gold_error is not None):
            return False
        if any(isinstance(t, DepTree) and t.structure_problem() is not None for t in sentence):
            self.invalid += 1
            return False
        converted = self._convert(sentence)
        if converted is None:
            return False
        pos = self.kept
        self.kept += 1
        sid = getattr(sentence[0], "sent_id", "") or str(index + 1)
        self.kept_ids.append(sid)
        self.kept_index.append(index)
        self._score(sentence, converted, sid, pos)
        return True

    def _same_words(self, index: int, sentence: list[AnyTree]) -> bool:
        """``False``: the sentence is skipped (its words differ and ``skip_mismatched``); a first
        difference of a file is otherwise kept as that file's error."""
        files = self.plan.files
        ref_words = words_of(sentence[0])
        for k in range(1, len(files)):
            if k in self.first_mismatch or words_of(sentence[k]) == ref_words:
                continue
            if self.config.skip_mismatched:
                return False
            self.first_mismatch[k] = _words_mismatch(
                index, files[0], sentence[0], ref_words, files[k], sentence[k]
            )
            self.scan_only = True
        return True

    def _convert(self, sentence: list[AnyTree]) -> _Converted | None:
        """The sentence's function trees, or ``None`` (a conversion error is kept; after any error
        the sentences are only checked)."""
        plan = self.plan
        try:
            gold_st = {
                s.name: to_span_tree(sentence[plan.gold_file[s.name]], self.scheme_conv[s.name])
                for s in plan.schemes
            }
            general = {combo: generalize_all(gold_st[n] for n in combo) for combo in plan.subsets}
        except EvalcoreError as exc:
            self.gold_error, self.scan_only = exc, True
            return None
        if self.converted is not None:
            for name in self.held:
                tree = sentence[plan.gold_file[name]]
                self.converted[(id(tree), self.scheme_conv[name].projectivize)] = gold_st[name]
        if self.scan_only:
            return None
        try:
            parse_st = []
            for spec in plan.parses:
                conv = self.scheme_conv[spec.scheme.name]
                st = to_span_tree(sentence[spec.file], conv)
                if spec.donor is not None:
                    st = tl_unify(st, to_span_tree(sentence[spec.donor], conv))
                parse_st.append(st)
        except EvalcoreError as exc:
            self.parse_error, self.scan_only = exc, True
            return None
        return gold_st, general, parse_st

    def _score(self, sentence: list[AnyTree], converted: _Converted, sid: str, pos: int) -> None:
        plan = self.plan
        gold_st, general, parse_st = converted
        for pi, spec in enumerate(plan.parses):
            p_tree, p_st = sentence[spec.file], parse_st[pi]
            for g in plan.schemes:
                if self.all_dep[(pi, g.name)]:
                    self._attach(pi, g.name, p_tree, sentence[plan.gold_file[g.name]])
                self._ted(pi, g.name, p_st, gold_st[g.name], gold_st[g.name], sid, pos)
            for combo in plan.subsets:
                if spec.scheme.name in combo:
                    self._ted(pi, "+".join(combo), p_st, gold_st[spec.scheme.name], general[combo], sid, pos)

    def _attach(self, pi: int, against: str, p_tree: AnyTree, g_tree: AnyTree) -> None:
        if isinstance(p_tree, DepTree) and isinstance(g_tree, DepTree):
            c = sentence_counts(g_tree, p_tree, self.acfg[against])
            for metric, x in (("UAS", c.uas), ("LAS", c.las)):
                self.pairs.setdefault((pi, against, metric), []).append(
                    self.pair_of(float(x), float(c.tokens))
                )
        else:  # dependency input only: no attachment scores for this pair of files
            self.all_dep[(pi, against)] = False
            self.pairs.pop((pi, against, "UAS"), None)
            self.pairs.pop((pi, against, "LAS"), None)

    def _ted(
        self, pi: int, against: str, p: SpanTree, own: SpanTree, gen: SpanTree, sid: str, pos: int
    ) -> None:
        pname = self.plan.parses[pi].parse.name
        for labeled, metric in ((False, "U-TED"), (True, "L-TED")):
            one = sentence_ted(p, own, gen, labeled=labeled)
            if self.sentence_average:
                pair = self.pair_of(one.score, 1.0)
            else:
                pair = self.pair_of(float(one.delta), float(one.norm))
            self.pairs.setdefault((pi, against, metric), []).append(pair)
            if self.details:
                self.detail_lists.setdefault((pi, against, labeled), []).append(
                    SentenceDetail(pname, against, labeled, sid, pos, one, p, gen)
                )

    def raise_first_error(self) -> None:
        """The errors found, in their order of precedence (see :func:`run_experiment`)."""
        if self.first_mismatch:
            raise self.first_mismatch[min(self.first_mismatch)]
        if self.gold_error is not None:
            raise self.gold_error
        if self.plan.duplicate_parses:
            raise MismatchError(f"parse names must be distinct: {[p for p, _ in self.plan.columns]}")
        if self.parse_error is not None:
            raise self.parse_error


# ---------------------------------------------------------------------------
# 3. cells, and rows with significance


def _cells(scan: _Scan) -> tuple[dict[tuple[str, str], list[Cell]], list[SentenceDetail]]:
    """Every cell, keyed by (against, metric), in the order of the papers' tables: per parse, each
    single gold, then its generalizations; and the sentence details in the same order."""
    plan, pairs = scan.plan, scan.pairs
    kind_of = "average" if scan.sentence_average else "ted"
    shared_scores: dict[tuple[str, tuple[float, float]], float] = {}  # equal scores stored once
    cells: dict[tuple[str, str], list[Cell]] = {}
    detail_rows: list[SentenceDetail] = []

    def cell(pi: int, against: str, metric: str) -> None:
        spec = plan.parses[pi]
        got = tuple(pairs.pop((pi, against, metric), ()))
        kind = "attach" if metric in ("UAS", "LAS") else kind_of
        scores = tuple(_shared_score(shared_scores, kind, pair) for pair in got)
        value = _corpus_score(kind, got)
        cells.setdefault((against, metric), []).append(
            Cell(spec.parse.name, spec.scheme.name, value, got, scores)
        )

    for pi, spec in enumerate(plan.parses):
        againsts = [g.name for g in plan.schemes] + [
            "+".join(c) for c in plan.subsets if spec.scheme.name in c
        ]
        for against in againsts:
            attach = against in plan.gold_file and scan.all_dep[(pi, against)]
            for metric in METRICS if attach else METRICS[2:]:
                cell(pi, against, metric)
            if scan.details:
                for labeled in (False, True):
                    detail_rows.extend(scan.detail_lists.get((pi, against, labeled), ()))
    return cells, detail_rows


def _shared_score(
    shared: dict[tuple[str, tuple[float, float]], float], kind: str, pair: tuple[float, float]
) -> float:
    """One sentence's score from its ``(x, n)`` pair (an attachment score, a TedEval score, or a
    sentence average's own score), computed once per distinct pair."""
    key = (kind, pair)
    if key not in shared:
        x, y = pair
        if kind == "attach":
            shared[key] = x / y if y else 1.0
        elif kind == "average":
            shared[key] = x
        else:
            shared[key] = 1.0 - x / y if y else 1.0
    return shared[key]


def _corpus_score(kind: str, got: Sequence[tuple[float, float]]) -> float:
    """The corpus score of a cell from its sentences' pairs (docs/attachment.md, "The five numbers";
    docs/tedeval.md, "Edit scripts, discount and score": sums, then the ratio)."""
    if kind == "attach":
        tok = sum(y for _, y in got)
        return sum(x for x, _ in got) / tok if tok else 0.0
    if kind == "average":
        return sum(x for x, _ in got) / len(got) if got else 1.0
    d, n = sum(x for x, _ in got), sum(y for _, y in got)
    return 1.0 - d / n if n else 1.0


def row_order(schemes: Sequence[str]) -> list[tuple[str, str]]:
    """The rows of the papers' tables: each gold's UAS, LAS, U-TED, L-TED, then each generalization
    of 2..K golds (``UD+SUD``) with U-TED and L-TED."""
    subsets = [combo for k in range(2, len(schemes) + 1) for combo in combinations(schemes, k)]
    return [(g, m) for g in schemes for m in METRICS] + [
        ("+".join(c), m) for c in subsets for m in ("U-TED", "L-TED")
    ]


def build_rows(
    cells: Mapping[tuple[str, str], Sequence[Cell]],
    order: Sequence[tuple[str, str]],
    config: ExperimentConfig,
) -> tuple[Row, ...]:
    """The rows of ``order`` that have cells, each with its best parses and every pair's test
    (docs/tedeval.md, "The numbers in the table").  All pairs of all rows are tested on one stream of random
    draws (:func:`~evalcore.significance.pairwise_significance`): each p-value is its own test's."""
    kept = [(key, tuple(cells.get(key, ()))) for key in order]
    kept = [(key, row_cells) for key, row_cells in kept if row_cells]
    samples: list[tuple[tuple[float, float], ...]] = []
    pairs: list[tuple[int, int]] = []
    for _, row_cells in kept:
        first = len(samples)
        samples.extend(c.pairs for c in row_cells)
        pairs.extend((first + a, first + b) for a, b in combinations(range(len(row_cells)), 2))
    results = iter(
        pairwise_significance(samples, pairs, method=config.method, trials=config.shuffles, seed=config.seed)
    )
    rows: list[Row] = []
    for key, row_cells in kept:
        top = max(c.score for c in row_cells)
        best = tuple(c.parse for c in row_cells if abs(c.score - top) < 1e-12)
        tests = []
        for a, b in combinations(row_cells, 2):
            r = next(results)
            tests.append(PairTest(a.parse, b.parse, r.p_value, r.p_value < config.alpha))
        rows.append(Row(key[0], key[1], row_cells, best, tuple(tests)))
    return tuple(rows)


def with_label_maps(config: ExperimentConfig, label_maps: SchemeLabelMaps) -> ExperimentConfig:
    """``config`` with its per-scheme label maps replaced by ``label_maps`` (docs/tedeval.md, "Per-scheme
    label maps")."""
    conv = replace(config.ted.conversion, scheme_maps=label_maps)
    return replace(config, ted=replace(config.ted, conversion=conv))


def resolve_labels(
    config: ExperimentConfig, golds: Iterable[tuple[str, NamedTrees, AnyTree | None]]
) -> ExperimentConfig:
    """``config`` with its ``labels`` setting decided on each dependency gold, given as (scheme,
    gold file, its first sentence): ``auto`` compares the universal part on CoNLL-U, as the CoNLL
    2018 scorer, and the full label on CoNLL-X, as eval.pl (the format by the file's name, else
    its first sentence: docs/tedeval.md, "Relation labels in LAS"); ``config`` itself once
    decided."""
    from evalcore.formats.detect import dialect_of

    if config.deprel_base is not None:
        return config
    decided = tuple(
        (name, universal_labels(config.labels, dialect_of(gold.path or gold.name, first)))
        for name, gold, first in golds
        if isinstance(first, DepTree)
    )
    return replace(config, deprel_base=decided)


@paused_gc()
def run_experiment(
    schemes: Sequence[Scheme],
    config: ExperimentConfig = ExperimentConfig(),
    *,
    details: bool = False,
    progress: object = None,
    reader: Reader | None = None,
    label_maps: SchemeLabelMaps | None = None,
) -> ExperimentResult:
    """Run the cross-scheme experiment (docs/tedeval.md, "The cross-scheme experiment and significance") in
    one pass over the sentences.

    Every file is read in step with the others, one sentence at a time: only per-sentence
    ``(x, n)`` pairs are kept for the significance tests (and, with ``details``, each
    sentence's scripts), never the trees.  ``reader`` (optional) reads a file's trees from
    ``NamedTrees.path`` instead of taking ``NamedTrees.trees`` (the command line streams its
    files this way: memory does not grow with the corpus but for those pairs).

    ``progress`` (optional callable ``(done, total)``) is told after each sentence how many
    have been scored, out of how many (``total`` is 0 when ``reader`` streams the files and
    their length is not known in advance), for the app's progress bar.

    Errors, whichever is found first in sentence order aside, take this precedence (as when
    every check ran over the whole corpus in turn): files with different sentence counts
    (raised at the first sentence without a counterpart, without reading on);
    the first file (in scheme order) whose words differ from the first gold's (unless
    ``skip_mismatched``); a gold that cannot be converted; parse names that are not distinct;
    a parse that cannot be converted.

    ``label_maps`` (optional): per-scheme label maps (docs/tedeval.md, "Per-scheme label maps" ``--labels-map
    SCHEME=FILE``), in place of ``config.ted.conversion.scheme_maps``; every name must be a scheme's.
    The steps are those of docs/architecture.md, "The experiment loop".  The cyclic garbage
    collector is paused while it runs (:func:`evalcore.gcpause.paused_gc`).
    """
    if label_maps is not None:
        config = with_label_maps(config, label_maps)
    full = plan_files(schemes)
    raw: tuple[RawParse, ...] = ()
    golds_read: dict[str, tuple[AnyTree, ...]] = {}  # the golds read for the parses of raw text
    converted: dict[tuple[int, bool], SpanTree] = {}  # and their function trees (by the trees' identities)
    while True:  # a second pass only when a parse turns out to be a parse of raw text
        plan = plan_files(schemes)
        unknown = [n for n in config.ted.conversion.scheme_maps.schemes if n not in plan.gold_file]
        if unknown:
            raise MismatchError(
                f"label map for no scheme: {', '.join(unknown)} (schemes: {', '.join(plan.gold_file)})"
            )
        kept = {plan.gold_file[name]: trees for name, trees in golds_read.items() if name in plan.gold_file}
        streams = [
            iter(kept[k] if k in kept else reader(f) if reader is not None else f.trees)
            for k, f in enumerate(plan.files)
        ]
        total = 0 if reader is not None else len(plan.files[0].trees)
        held = frozenset(name for name in golds_read if name in plan.gold_file)
        scan = _Scan(plan, config, details, converted, held)
        counts: MismatchError | None = None
        # from a first difference on, the first pass keeps what it reads of streamed files (a parse
        # of raw text, and its gold, then need not be read again)
        tapes = {} if golds_read or reader is None or config.skip_mismatched else _tapes(streams)
        try:
            for index, sentence in _read_in_step(plan, list(tapes.values()) or streams):
                if scan.add(index, sentence) and callable(progress):
                    progress(index + 1, total)
                if tapes and scan.first_mismatch and tapes[0].start < 0:
                    for k, tape in tapes.items():
                        tape.begin(index, sentence[k])
        except MismatchError as exc:  # files of different lengths: a parse of raw text, or an error
            counts = exc
        found = () if config.skip_mismatched else _raw_parses(plan, scan, reader, golds_read, tapes)
        if not found:
            if counts is not None:
                raise counts
            break
        raw += found
        names = {r.name for r in found}
        schemes = [replace(s, parses=tuple(p for p in s.parses if p.name not in names)) for s in schemes]
    scan.raise_first_error()
    config = scan.config if scan.acfg else scan.decide_labels(None)
    cells, detail_rows = _cells(scan)
    raw_records = _add_raw(cells, raw, schemes, reader, config, scan, full.columns, golds_read, converted)
    return ExperimentResult(
        build_rows(cells, row_order([g.name for g in plan.schemes]), config),
        full.columns,
        scan.kept,
        scan.skipped_mismatch,
        scan.invalid,
        config.signature(),
        tuple(detail_rows),
        tuple(scan.kept_ids),
        tuple(scan.kept_index),
        raw_blocks=raw_records,
        deprel_base=config.deprel_base or (),
    )


class _Tape:
    """A file's trees as the first pass reads them, kept from sentence ``start`` on once
    :meth:`begin` is called (local to one run)."""

    def __init__(self, trees: Iterator[AnyTree]) -> None:
        self.trees = trees
        self.start = -1
        self.kept: list[AnyTree] = []

    def __iter__(self) -> Iterator[AnyTree]:
        return self

    def __next__(self) -> AnyTree:
        tree = next(self.trees)
        if self.start >= 0:
            self.kept.append(tree)
        return tree

    def begin(self, index: int, tree: AnyTree) -> None:
        """Keep sentence ``index`` (``tree``, read already) and every one read after it."""
        self.start, self.kept = index, [tree]

    def whole(self, head: Iterable[AnyTree]) -> tuple[AnyTree, ...]:
        """Every tree of the file: the ones before ``start`` (from ``head``, the file read again
        from its start), those kept, then the rest (the pass may have stopped early)."""
        self.kept.extend(self.trees)
        return (*islice(head, self.start), *self.kept)


def _tapes(streams: Sequence[Iterator[AnyTree]]) -> dict[int, _Tape]:
    return {k: _Tape(it) for k, it in enumerate(streams)}


def _raw_parses(
    plan: ExperimentPlan,
    scan: _Scan,
    reader: Reader | None,
    golds_read: dict[str, tuple[AnyTree, ...]],
    tapes: Mapping[int, _Tape],
) -> tuple[RawParse, ...]:
    """The parses whose words differed from the gold's that are parses of raw text (docs/rawtext.md:
    the same characters, other sentences or words).  The golds read to tell are kept in
    ``golds_read`` (by scheme) for scoring those parses; a file the first pass kept (``tapes``, by
    file) is not read again."""
    from evalcore.experiment_raw import RawParse, is_raw, source_of

    def trees_of(k: int, f: NamedTrees) -> tuple[AnyTree, ...]:
        read = reader(f) if reader is not None else f.trees
        return tapes[k].whole(read) if k in tapes and tapes[k].start >= 0 else tuple(read)

    out = []
    for spec in plan.parses:
        if spec.file not in scan.first_mismatch or spec.parse.label_from is not None:
            continue
        p, gold = spec.parse, spec.scheme.gold
        read = trees_of(spec.file, p)  # read once: checked, then kept
        name = spec.scheme.name
        if name not in golds_read:
            golds_read[name] = trees_of(plan.gold_file[name], gold)
        if is_raw(golds_read[name], read):
            trees = tuple(t for t in read if isinstance(t, DepTree))
            source = source_of(trees, p.path, p.data)
            out.append(RawParse(p.name, spec.scheme.name, trees, source, p.path or p.name))
    return tuple(out)


def _add_raw(
    cells: dict[tuple[str, str], list[Cell]],
    raw: Sequence[RawParse],
    schemes: Sequence[Scheme],
    reader: Reader | None,
    config: ExperimentConfig,
    scan: _Scan,
    columns: Sequence[tuple[str, str]],
    golds_read: Mapping[str, tuple[AnyTree, ...]],
    converted: dict[tuple[int, bool], SpanTree],
) -> tuple[RawSentence, ...]:
    """The cells of the parses of raw text added to ``cells`` (each row's cells in column order),
    and every block's record (the golds in ``golds_read`` are not read again)."""
    if not raw:
        return ()
    from evalcore.experiment_raw import raw_cells, source_of

    golds = {}
    for s in schemes:
        if s.name in golds_read:
            read: Iterable[AnyTree] = golds_read[s.name]
        else:
            read = reader(s.gold) if reader is not None else s.gold.trees
        trees = tuple(t for t in read if isinstance(t, DepTree))
        golds[s.name] = (trees, source_of(trees, s.gold.path, s.gold.data), s.gold.path or s.gold.name)
    records: list[RawSentence] = []
    average = config.ted.average == "sentence"
    for r in raw:
        got, recs = raw_cells(
            r,
            golds,
            config.ted.conversion,
            scan.kept_index,
            sentence_average=average,
            converted=converted,
            deprel_base={s.name: config.base_of(s.name) for s in schemes},
        )
        records.extend(recs)
        for (against, metric), pairs in got.items():
            kind = "attach" if metric in ("UAS", "LAS") else ("average" if average else "ted")
            if kind == "average":
                n = sum(y for _, y in pairs)
                value = sum(x for x, _ in pairs) / n if n else 1.0
            else:
                value = _corpus_score(kind, pairs)
            scores = tuple(_shared_score({}, kind, p) for p in pairs)  # "average": the pair is (score, 1)
            cells.setdefault((against, metric), []).append(Cell(r.name, r.scheme, value, pairs, scores))
    order = {name: k for k, (name, _) in enumerate(columns)}
    for key in cells:
        cells[key].sort(key=lambda c: order.get(c.parse, len(order)))
    return tuple(records)
