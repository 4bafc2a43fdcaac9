"""The discrepancy atlas: every TedEval edit operation of a cross-scheme experiment, grouped.

docs/atlas.md ("What is collected", "The four groupings", "What each group reports"): every parse, and
every gold taken as a parse of its own scheme, is compared with each single gold (TEDEVAL SINGLE) and
each generalization containing its own gold (TEDEVAL MULTIPLE, docs/tedeval.md, "Edit scripts, discount
and score"); each operation of each script falls in one group of each of :data:`GROUPINGS`.  The scripts
*are* the experiment's (:func:`evalcore.experiment.run_experiment` with ``details``), so the totals
reconcile with the δ of ``evalcore tedeval``.  Counts add with ``+`` (:class:`AtlasCounts`);
:func:`score` turns them into shares.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Literal

from evalcore.choices import LABELS_AUTO, PROTOCOL_2011, Labels
from evalcore.conversion import ConversionConfig, projectivize
from evalcore.experiment import ExperimentResult, NamedTrees, Scheme, run_experiment
from evalcore.families.tedeval import TedevalSettings, experiment_config
from evalcore.gcpause import paused_gc
from evalcore.inspection import with_discount
from evalcore.metrics.base import make_signature
from evalcore.metrics.rawtext import SENTENCE_NODE
from evalcore.metrics.tedeval import TedConfig
from evalcore.patterns import (
    DEFAULT,
    CompiledFile,
    PatternFile,
    compile_file,
    constructions,
    read_pattern_file,
    shipped,
)
from evalcore.trees import DepTree, EditOp, Span, Tree, span_head

__all__ = [
    "CONSTRUCTIONS",
    "GROUPINGS",
    "LENGTH_BUCKETS",
    "Atlas",
    "AtlasCell",
    "AtlasConfig",
    "AtlasCounts",
    "CellCounts",
    "ClassifiedOp",
    "GroupCounts",
    "GroupRow",
    "Grouping",
    "SchemePatterns",
    "WordInfo",
    "atlas_counts",
    "atlas_tree",
    "build_atlas",
    "construction_of",
    "default_constructions",
    "default_patterns",
    "gold_parse_name",
    "head_word",
    "length_bucket",
    "op_group",
    "op_side",
    "operation_group",
    "ops_of",
    "run_atlas_experiment",
    "score",
    "script_groups",
    "with_golds_as_parses",
    "word_verdicts",
]

Grouping = Literal["operation", "head", "construction", "length"]
GROUPINGS: tuple[Grouping, ...] = ("operation", "head", "construction", "length")

_DEFAULT_FILE = read_pattern_file(shipped(DEFAULT))  # the declaration: assets/patterns/atlas.pat


def _described(pf: PatternFile) -> tuple[tuple[str, str], ...]:
    """Each construction of ``pf`` in order with the description of its first header that has one,
    then ``other`` (the words no entry names)."""
    out = []
    for name in pf.names[:-1]:
        described = (c.description for c in pf.constructions if c.name == name and c.description)
        out.append((name, next(described, "")))
    return (*out, ("other", "none of the above"))


CONSTRUCTIONS: tuple[tuple[str, str], ...] = _described(_DEFAULT_FILE)
"""The atlas's constructions in priority order with their descriptions, read from the headers
(``construction NAME % description``) of its default pattern file, ``assets/patterns/atlas.pat``
(docs/atlas.md, "Constructions: patterns and priority"); then ``other``, which no entry names."""

LENGTH_BUCKETS: tuple[tuple[int, int, str], ...] = (
    (1, 1, "1"),
    (2, 2, "2"),
    (3, 3, "3"),
    (4, 4, "4"),
    (5, 9, "5-9"),
    (10, 19, "10-19"),
    (20, 1 << 62, "20+"),
)


def length_bucket(n: int) -> str:
    """The ``length`` group of a span of ``n`` words."""
    for lo, hi, name in LENGTH_BUCKETS:
        if lo <= n <= hi:
            return name
    return "0"


_BUCKETS = tuple(length_bucket(n) for n in range(0, 21))


def operation_group(op: EditOp) -> str:
    """The ``operation`` group: ``del cop``, ``ins hd``, ``rel obl→nmod``, ``del (span)``."""
    return _groups(op, NO_WORD)[0]


# ---------------------------------------------------------------------------
# constructions over one dependency tree: the default pattern file


@cache
def default_patterns() -> CompiledFile:
    """The atlas's constructions when no pattern file is given, on every scheme's trees: the
    shipped ``assets/patterns/atlas.pat``, compiled once (docs/atlas.md, "Constructions: patterns and
    priority")."""
    return compile_file(_DEFAULT_FILE)


_RECENT: list[tuple[DepTree, tuple[str, ...]]] = []  # the last tree asked about, and its words'


def default_constructions(tree: DepTree) -> tuple[str, ...]:
    """Every word's construction in ``tree`` under :func:`default_patterns`; the last tree's are
    kept, so that asking word by word (:func:`construction_of`, :func:`op_group`) searches a tree
    once."""
    recent = _RECENT[0] if _RECENT else None
    if recent is not None and recent[0] is tree:
        return recent[1]
    names = constructions(default_patterns(), tree)
    _RECENT[:] = [(tree, names)]
    return names


def construction_of(tree: DepTree, word: int) -> str:
    """The construction of the phrase headed by ``word`` (1-based), one of :data:`CONSTRUCTIONS`,
    under the default pattern file: what the word is, else what it governs, each tier in the file's
    priority order (docs/atlas.md, "Constructions: patterns and priority"); else ``other``."""
    if not 1 <= word <= len(tree.tokens):
        return "other"
    return default_constructions(tree)[word - 1]


def head_word(tree: DepTree, span: Span) -> int:
    """The 1-based word of ``span`` (0-based positions) whose head lies outside it
    (:func:`~evalcore.trees.span_head`)."""
    return span_head(tree, span)


@dataclass(frozen=True, slots=True)
class WordInfo:
    """What the ``head`` and ``construction`` groupings need about one word."""

    word: int  # 1-based, 0 = none
    upos: str
    deprel: str
    construction: str
    head_group: str = ""  # "UPOS relation", filled in by __post_init__

    def __post_init__(self) -> None:
        object.__setattr__(self, "head_group", f"{self.upos} {self.deprel}")


NO_WORD = WordInfo(0, "_", "_", "other")


class _TreeIndex:
    """One tree, and a cache of the head word of each span asked about (a private helper of
    :func:`atlas_counts`: many scripts ask about the same spans).  The words' constructions are the
    pattern file's (docs/patterns.md; ``None``: the default, :func:`default_constructions`), computed
    for the whole tree at the first word asked about."""

    __slots__ = ("_infos", "_names", "_patterns", "_spans", "tree")

    def __init__(self, tree: DepTree, patterns: CompiledFile | None = None) -> None:
        self.tree = tree
        self._infos: dict[int, WordInfo] = {}
        self._spans: dict[Span, WordInfo] = {}
        self._patterns = patterns
        self._names: tuple[str, ...] | None = None

    def _construction(self, w: int) -> str:
        if self._names is None:
            p = self._patterns
            self._names = default_constructions(self.tree) if p is None else constructions(p, self.tree)
        return self._names[w - 1]

    def word(self, w: int) -> WordInfo:
        info = self._infos.get(w)
        if info is None:
            if 1 <= w <= len(self.tree.tokens):
                t = self.tree.tokens[w - 1]
                info = WordInfo(w, t.upos, t.deprel, self._construction(w))
            else:
                info = NO_WORD
            self._infos[w] = info
        return info

    def info(self, span: Span) -> WordInfo:
        info = self._spans.get(span)
        if info is None:
            info = self._spans[span] = self.word(head_word(self.tree, span))
        return info


def _index(tree: DepTree, lift: bool, patterns: CompiledFile | None = None) -> _TreeIndex:
    return _TreeIndex(projectivize(tree)[0] if lift else tree, patterns)


def _lifts(conversion: ConversionConfig) -> bool:
    """Whether the conversion reads the projectivized tree (the 2011 protocol, ``--projectivize``):
    then the spans of the scripts are spans of the lifted tree, and so are the groupings'."""
    return conversion.protocol == PROTOCOL_2011 or conversion.projectivize


_OpKey = tuple[str, str, str, str, str, int]  # kind, label, new label, head group, construction, length


def _op_key(op: EditOp, where: WordInfo) -> _OpKey:
    """What the groupings read of one operation whose span's head word is ``where``."""
    return (op.kind, op.label, op.new_label, where.head_group, where.construction, len(op.span))


def _group_names(key: _OpKey) -> tuple[str, str, str, str]:
    """The group in each grouping of :data:`GROUPINGS` (that order) of an operation read by
    :func:`_op_key`: the one place that names groups (the atlas's counts, :class:`ClassifiedOp`,
    :func:`op_group`, :func:`script_groups`)."""
    kind, label, new, head, construction, length = key
    op = f"rel {label}→{new}" if kind == "rel" else (f"{kind} {label}" if label else f"{kind} (span)")
    return (op, head, construction, _BUCKETS[length] if length < len(_BUCKETS) else length_bucket(length))


def _groups(op: EditOp, where: WordInfo) -> tuple[str, str, str, str]:
    return _group_names(_op_key(op, where))


_SLOT = {g: k for k, g in enumerate(GROUPINGS)}


def _group(grouping: Grouping, op: EditOp, where: WordInfo) -> str:
    return _groups(op, where)[_SLOT[grouping]]


def op_side(op: EditOp) -> Literal["parse", "target"]:
    """The tree an operation belongs to: the target's for an insertion, else the parse's."""
    return "target" if op.kind == "ins" else "parse"


def atlas_tree(tree: DepTree, conversion: ConversionConfig | None = None) -> DepTree:
    """The dependency tree the groupings read under ``conversion``: the tree itself, or its
    projectivized form when the conversion lifts (the spans of the scripts are then its spans;
    ``None``: the default conversion, which does not)."""
    return projectivize(tree)[0] if conversion is not None and _lifts(conversion) else tree


def op_group(op: EditOp, grouping: Grouping, tree: DepTree | Tree | None) -> str:
    """The group of one operation in ``grouping``, as the atlas counts it.

    ``tree`` is the dependency tree the operation belongs to (:func:`op_side`: the parse for a
    deletion or relabeling; for an insertion the target's gold, or for a generalization the
    parse's own gold), as :func:`atlas_tree` gives it.  A constituency tree (or ``None``) has no
    head word: ``head`` is ``_ _`` and ``construction`` is ``other``, as in the atlas."""
    where = _TreeIndex(tree).info(op.span) if isinstance(tree, DepTree) else NO_WORD
    return _group(grouping, op, where)


def script_groups(
    script: Sequence[EditOp],
    grouping: Grouping,
    parse: DepTree | Tree | None,
    target: DepTree | Tree | None,
    conversion: ConversionConfig | None = None,
) -> tuple[str, ...]:
    """The group of every operation of one script (same order): each operation is looked up in
    ``parse`` or ``target`` (:func:`op_side`; the trees as read, lifted here when ``conversion``
    lifts; ``None``: the default conversion, which does not), with the code the atlas counts
    with -- so the inspector highlights what it counts."""
    lift = conversion is not None and _lifts(conversion)
    idx = {
        side: _index(t, lift) if isinstance(t, DepTree) else None
        for side, t in (("parse", parse), ("target", target))
    }
    out = []
    for op in script:
        index = idx[op_side(op)]
        out.append(_group(grouping, op, index.info(op.span) if index is not None else NO_WORD))
    return tuple(out)


# ---------------------------------------------------------------------------
# values


@dataclass(frozen=True, slots=True)
class ClassifiedOp:
    """One operation of one script, with its group in each grouping."""

    parse: str
    target: str
    labeled: bool
    sent_id: str
    index: int  # 0-based position of the sentence in the files
    op: EditOp
    discounted: bool
    side: Literal["parse", "target"]  # the tree it belongs to: deletions/relabelings on the parse
    where: WordInfo

    def group(self, grouping: Grouping) -> str:
        return _group(grouping, self.op, self.where)


@dataclass(frozen=True, slots=True)
class GroupCounts:
    """Counted and discounted operations of one group, and the sentences they are in; adds with ``+``."""

    counted: int = 0
    discounted: int = 0
    sentences: frozenset[str] = frozenset()

    def __add__(self, other: GroupCounts) -> GroupCounts:
        return GroupCounts(
            self.counted + other.counted, self.discounted + other.discounted, self.sentences | other.sentences
        )


CellKey = tuple[str, str, str, bool]  # parse, its scheme, target, labeled


@dataclass(frozen=True)
class CellCounts:
    """The counts of one (parse, target, labeled) script family: Σδ, Σnorm and every group."""

    parse: str
    scheme: str
    target: str
    labeled: bool
    delta: int = 0
    norm: int = 0
    sentences: int = 0
    groups: tuple[tuple[Grouping, str, GroupCounts], ...] = ()

    @property
    def key(self) -> CellKey:
        return (self.parse, self.scheme, self.target, self.labeled)

    def __add__(self, other: CellCounts) -> CellCounts:
        if other.key != self.key:
            raise ValueError(f"cannot add counts of {other.key} to {self.key}")
        merged: dict[tuple[Grouping, str], GroupCounts] = {(g, n): c for g, n, c in self.groups}
        for g, n, c in other.groups:
            merged[(g, n)] = merged.get((g, n), GroupCounts()) + c
        return replace(
            self,
            delta=self.delta + other.delta,
            norm=self.norm + other.norm,
            sentences=self.sentences + other.sentences,
            groups=tuple((g, n, c) for (g, n), c in sorted(merged.items())),
        )


@dataclass(frozen=True)
class AtlasCounts:
    """All cells; adds with ``+`` (cells with the same key are added, others kept)."""

    cells: tuple[CellCounts, ...] = ()

    def __add__(self, other: AtlasCounts) -> AtlasCounts:
        out: dict[CellKey, CellCounts] = {c.key: c for c in self.cells}
        for c in other.cells:
            out[c.key] = out[c.key] + c if c.key in out else c
        return AtlasCounts(tuple(out.values()))


@dataclass(frozen=True, slots=True)
class GroupRow:
    """One group of one cell, scored: ``share`` = counted / Σδ of the cell."""

    grouping: Grouping
    group: str
    counted: int
    discounted: int
    share: float
    sentences: tuple[str, ...]


@dataclass(frozen=True)
class AtlasCell:
    parse: str
    scheme: str
    target: str
    labeled: bool
    delta: int
    norm: int
    sentences: int
    groups: tuple[GroupRow, ...]  # per grouping, most counted first

    @property
    def score(self) -> float:
        """The TedEval score this cell's δ gives (global average, docs/tedeval.md, "Edit scripts, discount and
        score")."""
        return 1.0 - self.delta / self.norm if self.norm else 1.0

    def grouped(self, grouping: Grouping) -> tuple[GroupRow, ...]:
        return tuple(g for g in self.groups if g.grouping == grouping)

    def top(self, grouping: Grouping, n: int) -> tuple[GroupRow, ...]:
        return self.grouped(grouping)[:n]


@dataclass(frozen=True)
class Atlas:
    cells: tuple[AtlasCell, ...]
    signature: str
    sentences: int = 0
    skipped_mismatched: int = 0
    skipped_invalid: int = 0
    ops: tuple[ClassifiedOp, ...] = field(default=(), repr=False)  # with keep_ops only

    def cell(self, parse: str, target: str, labeled: bool) -> AtlasCell | None:
        return next(
            (c for c in self.cells if c.parse == parse and c.target == target and c.labeled == labeled), None
        )


@dataclass(frozen=True, slots=True)
class AtlasConfig:
    """The experiment's settings (docs/tedeval.md, "The cross-scheme experiment and significance") and whether
    golds are also taken as parses."""

    ted: TedConfig = field(default_factory=TedConfig)
    skip_mismatched: bool = False
    golds_as_parses: bool = True
    patterns: tuple[SchemePatterns, ...] = ()
    # how the experiment's LAS (the ranking's, the scores per construction) compares relation
    # labels (docs/tedeval.md, "Relation labels in LAS"); the ranking's signature says it
    labels: Labels = LABELS_AUTO

    def given_patterns_of(self, scheme: str) -> CompiledFile | None:
        """The pattern file given for ``scheme``'s trees: its own, else the one given for every
        scheme, else none (what ``--pattern`` adds, the scores per construction and the exported
        ``Construction=``, is then left out)."""
        every = None
        for p in self.patterns:
            if p.scheme == scheme:
                return p.file
            if p.scheme is None:
                every = p.file
        return every

    def patterns_of(self, scheme: str) -> CompiledFile:
        """The pattern file that gives the constructions of ``scheme``'s trees: the one given
        (:meth:`given_patterns_of`), else the atlas's default, :func:`default_patterns`, whatever the
        scheme's name."""
        given = self.given_patterns_of(scheme)
        return default_patterns() if given is None else given

    def signature(self) -> str:
        base = self.ted.signature()
        settings: list[tuple[str, object]] = [
            ("goldsasparses", self.golds_as_parses),
            ("skipmismatch", self.skip_mismatched),
        ]
        if self.patterns:  # only when given: without, the signatures are the default file's, as before
            settings.append(("pat", "+".join(p.text() for p in self.patterns)))
        return "atlas|" + base[: base.rindex("|v")] + make_signature("", settings)


@dataclass(frozen=True, slots=True)
class SchemePatterns:
    """A pattern file for the trees of one scheme (``None``: of every scheme without its own), named
    in signatures by its file name and the digest of its text."""

    scheme: str | None
    file: CompiledFile
    name: str
    digest: str

    def text(self) -> str:
        return f"{self.scheme + '=' if self.scheme else ''}{self.name}:{self.digest}"


def score(
    counts: AtlasCounts,
    config: AtlasConfig = AtlasConfig(),
    *,
    sentences: int = 0,
    skipped_mismatched: int = 0,
    skipped_invalid: int = 0,
) -> Atlas:
    """Shares of δ per group; groups of each grouping ordered by counted, then discounted, then name."""
    cells = []
    for c in counts.cells:
        rows: list[GroupRow] = []
        for grouping in GROUPINGS:
            mine = [(n, g) for gg, n, g in c.groups if gg == grouping]
            mine.sort(key=lambda t: (-t[1].counted, -t[1].discounted, t[0]))
            rows.extend(
                GroupRow(
                    grouping,
                    n,
                    g.counted,
                    g.discounted,
                    g.counted / c.delta if c.delta else 0.0,
                    tuple(sorted(g.sentences)),
                )
                for n, g in mine
            )
        cells.append(
            AtlasCell(c.parse, c.scheme, c.target, c.labeled, c.delta, c.norm, c.sentences, tuple(rows))
        )
    return Atlas(tuple(cells), config.signature(), sentences, skipped_mismatched, skipped_invalid)


# ---------------------------------------------------------------------------
# from an experiment


def gold_parse_name(scheme: str) -> str:
    """The name a gold takes when it is read as a parse of its own scheme."""
    return f"gold:{scheme}"


def with_golds_as_parses(schemes: Sequence[Scheme]) -> tuple[Scheme, ...]:
    """Each scheme with its gold appended to its parses, named :func:`gold_parse_name`."""
    return tuple(
        replace(s, parses=(*s.parses, replace(s.gold, name=gold_parse_name(s.name), label_from=None)))
        for s in schemes
    )


def run_atlas_experiment(
    schemes: Sequence[Scheme], config: AtlasConfig = AtlasConfig()
) -> tuple[tuple[Scheme, ...], ExperimentResult]:
    """The experiment whose scripts the atlas groups: no significance trials, every script kept.
    Returns the schemes actually run (golds added as parses if ``config.golds_as_parses``)."""
    run = with_golds_as_parses(schemes) if config.golds_as_parses else tuple(schemes)
    settings = TedevalSettings(shuffles=0, skip_mismatched=config.skip_mismatched, labels=config.labels)
    exp = experiment_config(settings, config.ted)
    return run, run_experiment(run, exp, details=True)


class _Tally:
    """A mutable counter while the scripts are read (private to :func:`atlas_counts`)."""

    __slots__ = ("counted", "discounted", "sentences")

    def __init__(self) -> None:
        self.counted = 0
        self.discounted = 0
        self.sentences: set[str] = set()


def _add_local(cell: dict[_OpKey, _Tally], local: dict[_OpKey, list[int]], sent_id: str) -> None:
    """One sentence's ``[counted, discounted]`` per operation key added to its cell's tallies."""
    for lkey, (c, dc) in local.items():
        tally = cell.get(lkey)
        if tally is None:
            tally = cell[lkey] = _Tally()
        tally.counted += c
        tally.discounted += dc
        tally.sentences.add(sent_id)


def _count_raw(
    result: ExperimentResult,
    parse_file: dict[str, tuple[str, NamedTrees]],
    gold_file: dict[str, NamedTrees],
    config: AtlasConfig,
    acc: dict[CellKey, dict[_OpKey, _Tally]],
    totals: dict[CellKey, list[int]],
    ops_out: list[ClassifiedOp] | None,
) -> None:
    """The blocks of the parses of raw text (docs/rawtext.md) added to :func:`atlas_counts`'s
    tallies: each operation read in the parse's own sentence or the target's gold sentence, the
    trees lifted where the block took the general path (its trees were projectivized)."""
    lift = _lifts(config.ted.conversion)
    cache: dict[tuple[int, int, bool], _TreeIndex | None] = {}

    def index_of(named: NamedTrees, scheme: str, pos: int, general: bool) -> _TreeIndex | None:
        key = (id(named.trees), pos, general)
        if key not in cache:
            t = named.trees[pos] if pos < len(named.trees) else None
            cache[key] = (
                _index(t, lift or general, config.patterns_of(scheme)) if isinstance(t, DepTree) else None
            )
        return cache[key]

    for r in result.raw_blocks:
        scheme, pfile = parse_file[r.parse]
        key = (r.parse, scheme, r.against, r.labeled)
        tot = totals.setdefault(key, [0, 0, 0])
        tot[0] += r.delta
        tot[1] += r.norm
        tot[2] += 1
        cell = acc.setdefault(key, {})
        t_scheme = r.against if r.against in gold_file else scheme
        first = r.gold[0] if r.gold else 0
        ref = gold_file[t_scheme].trees[first] if first < len(gold_file[t_scheme].trees) else None
        sid = ref.sent_id if isinstance(ref, DepTree) and ref.sent_id else str(first + 1)
        general = r.path == "general"
        local: dict[_OpKey, list[int]] = {}
        for rop in r.ops:
            op = EditOp(rop.kind, rop.label or (SENTENCE_NODE if rop.sentence_node else ""), rop.span)
            where = NO_WORD
            if not rop.sentence_node:
                named, sch = (gold_file[t_scheme], t_scheme) if rop.side == "target" else (pfile, scheme)
                idx = index_of(named, sch, rop.sentence, general)
                where = idx.info(op.span) if idx is not None else NO_WORD
            tkey = _op_key(op, where)
            n = local.get(tkey)
            if n is None:
                local[tkey] = [0, 1] if rop.discounted else [1, 0]
            else:
                n[rop.discounted] += 1
            if ops_out is not None:
                ops_out.append(
                    ClassifiedOp(
                        r.parse, r.against, r.labeled, sid, first, op, rop.discounted, op_side(op), where
                    )
                )
        _add_local(cell, local, sid)


def atlas_counts(
    schemes: Sequence[Scheme],
    result: ExperimentResult,
    config: AtlasConfig = AtlasConfig(),
    *,
    keep_ops: bool = False,
) -> tuple[AtlasCounts, tuple[ClassifiedOp, ...]]:
    """Group every operation of ``result.details`` (an experiment over ``schemes``, run with
    ``details``; the trees must be in ``NamedTrees.trees``).  Returns the counts and, with
    ``keep_ops``, every classified operation."""
    lift = _lifts(config.ted.conversion)
    parse_file: dict[str, tuple[str, NamedTrees]] = {}
    for s in schemes:
        for p in s.parses:
            parse_file[p.name] = (s.name, p)
    gold_file = {s.name: s.gold for s in schemes}
    cache: dict[tuple[int, int], _TreeIndex | None] = {}

    def index_of(named: NamedTrees, scheme: str, pos: int) -> _TreeIndex | None:
        key = (id(named.trees), pos)
        if key not in cache:
            t = named.trees[pos]
            cache[key] = _index(t, lift, config.patterns_of(scheme)) if isinstance(t, DepTree) else None
        return cache[key]

    # per cell: what the groupings read of an operation (_op_key) -> [counted, discounted, sentence ids]
    acc: dict[CellKey, dict[_OpKey, _Tally]] = {}
    totals: dict[CellKey, list[int]] = {}
    ops_out: list[ClassifiedOp] = []
    for d in result.details:
        scheme, pfile = parse_file[d.parse]
        key: CellKey = (d.parse, scheme, d.against, d.labeled)
        pos = result.indices[d.index]
        tot = totals.setdefault(key, [0, 0, 0])
        tot[0] += d.ted.delta
        tot[1] += d.ted.norm
        tot[2] += 1
        if not d.ted.script:
            acc.setdefault(key, {})
            continue
        cell = acc.setdefault(key, {})
        local: dict[_OpKey, list[int]] = {}
        p_idx = index_of(pfile, scheme, pos)
        t_scheme = d.against if d.against in gold_file else scheme
        t_idx = index_of(gold_file[t_scheme], t_scheme, pos)
        for op, disc in with_discount(d.ted.script, d.ted.discounted):
            idx = t_idx if op.kind == "ins" else p_idx  # op_side, inline: the hot loop
            where = idx.info(op.span) if idx is not None else NO_WORD
            tkey = _op_key(op, where)
            n = local.get(tkey)
            if n is None:
                local[tkey] = [0, 1] if disc else [1, 0]
            else:
                n[disc] += 1
            if keep_ops:
                ops_out.append(
                    ClassifiedOp(d.parse, d.against, d.labeled, d.sent_id, pos, op, disc, op_side(op), where)
                )
        _add_local(cell, local, d.sent_id)
    _count_raw(result, parse_file, gold_file, config, acc, totals, ops_out if keep_ops else None)
    cells = []
    for key, tallies in acc.items():
        merged: dict[tuple[Grouping, str], _Tally] = {}
        for op_key, t in tallies.items():
            for name in zip(GROUPINGS, _group_names(op_key), strict=True):
                m = merged.get(name)
                if m is None:
                    m = merged[name] = _Tally()
                m.counted += t.counted
                m.discounted += t.discounted
                m.sentences |= t.sentences
        cells.append(
            CellCounts(
                *key,
                totals[key][0],
                totals[key][1],
                totals[key][2],
                tuple(
                    (g, n, GroupCounts(t.counted, t.discounted, frozenset(t.sentences)))
                    for (g, n), t in sorted(merged.items())
                ),
            )
        )
    return AtlasCounts(tuple(cells)), tuple(ops_out)


def build_atlas(
    schemes: Sequence[Scheme], config: AtlasConfig = AtlasConfig(), *, keep_ops: bool = False
) -> tuple[Atlas, ExperimentResult]:
    """Run the experiment and group its operations (trees in memory: ``NamedTrees.trees``): the atlas and
    the experiment it was made from (its rows carry the scores whose δ the atlas divides up)."""
    with paused_gc():  # what is made is acyclic and kept, and full collections walked it all
        run, result = run_atlas_experiment(schemes, config)
        counts, ops = atlas_counts(run, result, config, keep_ops=keep_ops)
    atlas = score(
        counts,
        config,
        sentences=result.sentences,
        skipped_mismatched=result.skipped_mismatched,
        skipped_invalid=result.skipped_invalid,
    )
    return replace(atlas, ops=ops), result


# ---------------------------------------------------------------------------
# per-word verdicts (for --export-misc)


def word_verdicts(ops: Iterable[ClassifiedOp], n_words: int) -> tuple[tuple[str, ...], ...]:
    """For each word (0-based), the operations whose span it heads: ``counted:del:cop``,
    ``discounted:ins:hd``, ``counted:rel:obl→nmod`` (unlabeled: ``counted:del``)."""
    out: list[list[str]] = [[] for _ in range(n_words)]
    for o in ops:
        w = o.where.word if o.where.word else (min(o.op.span) + 1 if o.op.span else 0)
        if not 1 <= w <= n_words:
            continue
        status = "discounted" if o.discounted else "counted"
        label = f"{o.op.label}→{o.op.new_label}" if o.op.kind == "rel" else o.op.label
        out[w - 1].append(f"{status}:{o.op.kind}:{label}" if label else f"{status}:{o.op.kind}")
    return tuple(tuple(v) for v in out)


def ops_of(atlas: Atlas, parse: str, target: str, labeled: bool) -> Iterator[ClassifiedOp]:
    """The kept operations of one cell, in experiment order."""
    return (o for o in atlas.ops if o.parse == parse and o.target == target and o.labeled == labeled)
