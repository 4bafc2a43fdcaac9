"""Constructions as units of evaluation: rates and per-parser scores per construction, across schemes.

docs/patterns.md, "Constructions as units of evaluation".  A *coverage* gives every word of every tree
one construction (a pattern file's, docs/patterns.md "Pattern files and constructions"; or one request's
``pattern`` / ``other``).  Then, per construction:

* its **rate** between two golds A and B: the words it covers in A or in B, and those on which the
  golds agree: the same head in both;
* each parse's **attachment scores** on the gold words it covers (as CoNLL 2018's CLAS restricts LAS to
  content words), against each single gold;
* each parse's **TedEval scores** restricted to it: the counted operations it *owns* (an operation is
  owned by the construction of its span's head word, in the tree the operation belongs to, as the
  atlas groups operations, docs/atlas.md) over the nodes it owns in the parse and in the target
  (``1 − δ_C / (|p|_C + |G|_C)``).  Every node and every operation has exactly one owner, so the
  constructions' δ and normalizers add up to the cell's.

Counts are per sentence (``(x, n)`` pairs), so bootstrap intervals and paired tests re-sum them
(:mod:`evalcore.ranking`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from evalcore.atlas import AtlasConfig, SchemePatterns, atlas_tree, head_word, op_side
from evalcore.choices import PROTOCOL_2012
from evalcore.conversion import ConversionConfig
from evalcore.experiment import ExperimentResult, NamedTrees, Scheme, counting_config
from evalcore.inspection import with_discount
from evalcore.metrics.attachment import judge_tokens
from evalcore.metrics.base import make_signature
from evalcore.patterns import Where, constructions
from evalcore.ranking import OWN_GOLD, Flip, PairVerdict, RankingConfig, RankRow, ranked_row, tests_and_flips
from evalcore.resampling import RatioKind, cells_table, intervals
from evalcore.resampling_settings import BootstrapSettings
from evalcore.significance import Interval
from evalcore.trees import DepTree, EditOp, Span, SpanTree

__all__ = [
    "OTHER",
    "UNIT_METRICS",
    "ConstructionReport",
    "ConstructionScores",
    "Coverage",
    "Rate",
    "ScoreCell",
    "WordOwners",
    "construction_report",
    "node_weight",
    "sentence_units",
]

OTHER = "other"
UNIT_METRICS = ("UAS", "LAS", "U-TED", "L-TED")
"""The scores restricted to a construction: attachment against single golds, TedEval against every target."""


@dataclass(frozen=True, slots=True)
class Coverage:
    """Which construction each word of a tree has: the pattern files of the atlas (each scheme's, or
    the one for every scheme; every word gets one, ``other`` when no entry names it), or a single
    ``request`` (the words its matches bind are ``name``, the others ``other``)."""

    patterns: tuple[SchemePatterns, ...] = ()
    request: Where | None = None
    name: str = "pattern"

    def units(self) -> tuple[str, ...]:
        """The constructions reported, in the files' order (a name once), then ``other``."""
        if self.request is not None:
            return (self.name,)
        names: dict[str, None] = {}
        for p in self.patterns:
            for c in p.file.patterns.constructions:
                names.setdefault(c.name, None)
        names.setdefault(OTHER, None)
        return tuple(names)

    def of_tree(self, tree: DepTree, scheme: str) -> tuple[str, ...]:
        """Every word's construction (0-based positions) in ``tree``, a tree of ``scheme``."""
        if self.request is not None:
            covered = self.request.covered(tree)
            return tuple(self.name if w in covered else OTHER for w in range(1, len(tree.tokens) + 1))
        file = AtlasConfig(patterns=self.patterns).given_patterns_of(scheme)
        if file is None:
            return (OTHER,) * len(tree.tokens)
        return constructions(file, tree)

    def signature(self) -> str:
        if self.request is not None:
            return f"where:{self.request.digest()}"
        return ""  # the atlas's signature names the pattern files


def node_weight(labels: frozenset[str], protocol: str, labeled: bool) -> int:
    """What one node adds to ``|π|`` (docs/tedeval.md): its labels (2012 labeled), else 1."""
    return len(labels) if protocol == PROTOCOL_2012 and labeled else 1


@dataclass(frozen=True, slots=True)
class WordOwners:
    """One dependency tree as the groupings read it, and each word's construction."""

    tree: DepTree
    names: tuple[str, ...]

    def owner(self, span: Span) -> str:
        w = head_word(self.tree, span)
        return self.names[w - 1] if 1 <= w <= len(self.names) else OTHER


def sentence_units(
    script: Sequence[tuple[EditOp, bool]],
    parse_tree: SpanTree,
    target_tree: SpanTree,
    parse_words: WordOwners,
    target_words: WordOwners,
    labeled: bool,
) -> dict[str, tuple[int, int, int]]:
    """Per construction of one sentence: ``(counted, discounted, norm)``, every operation owned by the
    head word of its span in its own tree (``op_side``), every node of the parse and target by its head."""
    out: dict[str, list[int]] = {}
    for op, disc in script:
        words = target_words if op_side(op) == "target" else parse_words
        row = out.setdefault(words.owner(op.span), [0, 0, 0])
        row[1 if disc else 0] += 1
    for st, words in ((parse_tree, parse_words), (target_tree, target_words)):
        for span, labels in st.items:
            out.setdefault(words.owner(span), [0, 0, 0])[2] += node_weight(labels, st.protocol, labeled)
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}


# ---------------------------------------------------------------------------
# values


@dataclass(frozen=True, slots=True)
class Rate:
    """How often two golds agree on a construction: the words it covers in ``a`` or ``b``
    (``words``), in each, and those the two golds give the same head (``agree``)."""

    construction: str
    a: str
    b: str
    words_a: int
    words_b: int
    words: int
    agree: int

    @property
    def share(self) -> float:
        """The share of its words on which the golds agree (1 with no word)."""
        return self.agree / self.words if self.words else 1.0


@dataclass(frozen=True, slots=True)
class ScoreCell:
    """One parse's score on one construction, against one target, with its interval."""

    parse: str
    scheme: str
    value: float
    x: float  # Σ correct tokens, or Σδ_C
    n: float  # Σ tokens, or Σnorm_C
    rank: int
    interval: Interval | None = None


@dataclass(frozen=True)
class ConstructionScores:
    """Every score row of one construction (``against`` × metric), their paired tests and flips."""

    construction: str
    rows: tuple[RankRow, ...]
    cells: tuple[tuple[str, str, tuple[ScoreCell, ...]], ...]  # (against, metric, cells)
    tests: tuple[PairVerdict, ...]
    flips: tuple[Flip, ...]

    def cell(self, against: str, metric: str, parse: str) -> ScoreCell | None:
        for a, m, cells in self.cells:
            if a == against and m == metric:
                return next((c for c in cells if c.parse == parse), None)
        return None


@dataclass(frozen=True)
class ConstructionReport:
    """Rates and scores per construction (docs/patterns.md, "Constructions as units of evaluation")."""

    units: tuple[str, ...]
    rates: tuple[Rate, ...]
    scores: tuple[ConstructionScores, ...]
    parses: tuple[tuple[str, str], ...]
    sentences: int
    signature: str

    def rate(self, construction: str, a: str, b: str) -> Rate | None:
        return next((r for r in self.rates if (r.construction, r.a, r.b) == (construction, a, b)), None)

    def of(self, construction: str) -> ConstructionScores | None:
        return next((s for s in self.scores if s.construction == construction), None)


# ---------------------------------------------------------------------------
# computing


class _Trees:
    """Each (file, sentence)'s words and constructions, computed once (private): the tree as the
    atlas's groupings read it (lifted under the 2011 protocol), or as read (``lift=False``, for
    attachment)."""

    def __init__(self, coverage: Coverage, conversion: ConversionConfig) -> None:
        self.coverage = coverage
        self.conversion = conversion
        self.cache: dict[tuple[int, int, bool], WordOwners | None] = {}

    def get(self, named: NamedTrees, scheme: str, pos: int, *, lift: bool = True) -> WordOwners | None:
        key = (id(named.trees), pos, lift)
        if key not in self.cache:
            t = named.trees[pos] if pos < len(named.trees) else None
            if isinstance(t, DepTree):
                tree = atlas_tree(t, self.conversion) if lift else t
                self.cache[key] = WordOwners(tree, self.coverage.of_tree(tree, scheme))
            else:
                self.cache[key] = None
        return self.cache[key]


def _rates(
    schemes: Sequence[Scheme], result: ExperimentResult, trees: _Trees, units: Sequence[str]
) -> tuple[Rate, ...]:
    """Every pair of golds' agreement per construction: the words it covers in either gold (each gold's
    constructions, the trees as read), and those both golds give the same head."""
    acc: dict[tuple[str, str, str], list[int]] = {}
    for a, b in combinations(schemes, 2):
        for pos in result.indices:
            wa = trees.get(a.gold, a.name, pos, lift=False)
            wb = trees.get(b.gold, b.name, pos, lift=False)
            if wa is None or wb is None or len(wa.names) != len(wb.names):
                continue
            for ta, tb, na, nb in zip(wa.tree.tokens, wb.tree.tokens, wa.names, wb.names, strict=True):
                for u in {na, nb}:
                    row = acc.setdefault((u, a.name, b.name), [0, 0, 0, 0])
                    row[0] += na == u
                    row[1] += nb == u
                    row[2] += 1
                    row[3] += ta.head == tb.head
    out = []
    for u in units:
        for a, b in combinations(schemes, 2):
            wa_, wb_, n, agree = acc.get((u, a.name, b.name), [0, 0, 0, 0])
            out.append(Rate(u, a.name, b.name, wa_, wb_, n, agree))
    return tuple(out)


_Pairs = dict[tuple[str, str, str, str], list[tuple[float, float]]]  # (unit, against, metric, parse)


def _ted_pairs(
    schemes: Sequence[Scheme],
    result: ExperimentResult,
    trees: _Trees,
    parses: Sequence[str],
    units: Sequence[str],
) -> _Pairs:
    files = {p.name: (s.name, p) for s in schemes for p in s.parses}
    golds = {s.name: s.gold for s in schemes}
    pairs: _Pairs = {}
    wanted = set(parses)
    for d in result.details:
        if d.parse not in wanted or d.parse_tree is None or d.target_tree is None:
            continue
        scheme, named = files[d.parse]
        pos = result.indices[d.index]
        pw = trees.get(named, scheme, pos)
        t_scheme = d.against if d.against in golds else scheme
        tw = trees.get(golds[t_scheme], t_scheme, pos)
        if pw is None or tw is None:
            continue
        got = sentence_units(
            tuple(with_discount(d.ted.script, d.ted.discounted)),
            d.parse_tree,
            d.target_tree,
            pw,
            tw,
            d.labeled,
        )
        metric = "L-TED" if d.labeled else "U-TED"
        for u in units:
            c, _, n = got.get(u, (0, 0, 0))
            pairs.setdefault((u, d.against, metric, d.parse), []).append((float(c), float(n)))
    return pairs


def _attach_pairs(
    schemes: Sequence[Scheme],
    result: ExperimentResult,
    trees: _Trees,
    parses: Sequence[str],
    units: Sequence[str],
) -> _Pairs:
    """Per-sentence ``(correct, tokens)`` on the gold words each construction covers (all tokens,
    relation labels compared as the experiment's UAS/LAS compared them on each gold)."""
    base = dict(result.deprel_base)
    cfgs = {s.name: counting_config(base.get(s.name, False)) for s in schemes}
    files = {p.name: p for s in schemes for p in s.parses}
    pairs: _Pairs = {}
    for pname in parses:
        ptrees = files[pname].trees
        for s in schemes:
            for pos in result.indices:
                g, p = s.gold.trees[pos], ptrees[pos]
                gw = trees.get(s.gold, s.name, pos, lift=False)
                if not isinstance(g, DepTree) or not isinstance(p, DepTree) or gw is None:
                    break
                per: dict[str, list[int]] = {}
                for j in judge_tokens(g, p, cfgs[s.name]):
                    row = per.setdefault(gw.names[j.index - 1], [0, 0, 0])
                    row[0] += j.uas
                    row[1] += j.las
                    row[2] += 1
                for u in units:
                    uas, las, tok = per.get(u, [0, 0, 0])
                    pairs.setdefault((u, s.name, "UAS", pname), []).append((float(uas), float(tok)))
                    pairs.setdefault((u, s.name, "LAS", pname), []).append((float(las), float(tok)))
    return pairs


def _value(metric: str, pairs: Sequence[tuple[float, float]]) -> tuple[float, float, float]:
    x = sum(a for a, _ in pairs)
    n = sum(b for _, b in pairs)
    if metric in ("UAS", "LAS"):
        return (x / n if n else 0.0), x, n
    return (1.0 - x / n if n else 1.0), x, n


def construction_report(
    schemes: Sequence[Scheme],
    result: ExperimentResult,
    config: AtlasConfig,
    coverage: Coverage,
    ranking: RankingConfig,
    *,
    parses: Sequence[str],
    bootstrap: BootstrapSettings | None = None,
    tests: bool = True,
) -> ConstructionReport:
    """Rates and scores per construction of an experiment run with ``details`` (the atlas's, trees in
    memory), for ``parses`` (the golds taken as parses are left out by the caller); with ``tests``,
    every pair of parses tested on every row and the flips listed
    (:func:`~evalcore.ranking.tests_and_flips`)."""
    raw = {r.parse for r in result.raw_blocks}  # parses of raw text: no word is a gold word (not scored here)
    parses = [p for p in parses if p not in raw]
    trees = _Trees(coverage, config.ted.conversion)
    units = coverage.units()
    rates = _rates(schemes, result, trees, units)
    pairs = _ted_pairs(schemes, result, trees, parses, units)
    pairs.update(_attach_pairs(schemes, result, trees, parses, units))
    scheme_of = {p.name: s.name for s in schemes for p in s.parses}
    cols = tuple((p, scheme_of[p]) for p in parses)
    singles = [s.name for s in schemes]
    generals = list(dict.fromkeys(r.against for r in result.rows if r.against not in singles))
    plan: list[tuple[str, str]] = [(OWN_GOLD, m) for m in UNIT_METRICS]
    plan += [(g, m) for g in singles for m in UNIT_METRICS]
    plan += [(g, m) for g in generals for m in UNIT_METRICS[2:]]

    def cell_pairs(u: str, against: str, metric: str, parse: str) -> tuple[tuple[float, float], ...] | None:
        target = scheme_of[parse] if against == OWN_GOLD else against
        got = pairs.get((u, target, metric, parse))
        return tuple(got) if got is not None else None

    per_unit: list[tuple[str, list[RankRow]]] = []
    names: list[str] = []
    columns: list[tuple[tuple[float, float], ...]] = []
    kinds: list[RatioKind] = []
    for u in units:
        rows = []
        for against, metric in plan:
            cells = []
            for p, s in cols:
                got = cell_pairs(u, against, metric, p)
                if got is not None:
                    cells.append((p, s, _value(metric, got)[0], got))
            if cells:
                rows.append(ranked_row(against, metric, cells))
                for p, _, _, got in cells:
                    names.append(f"{u}|{against}|{metric}|{p}")
                    columns.append(got)
                    kinds.append("ratio" if metric in ("UAS", "LAS") else "ted")
        per_unit.append((u, rows))
    ivs = (
        intervals(cells_table(names, columns, kinds), bootstrap) if bootstrap is not None and names else None
    )
    scores = []
    for u, rows in per_unit:
        verdicts, flips = (
            tests_and_flips(rows, [p for p, _ in cols], ranking, {OWN_GOLD, *generals}) if tests else ((), ())
        )
        cells_out = []
        for row in rows:
            out = []
            for c in row.cells:
                _, x, n = _value(row.metric, c.pairs)
                iv = ivs.get(f"{u}|{row.against}|{row.metric}|{c.parse}") if ivs is not None else None
                out.append(ScoreCell(c.parse, c.scheme, c.score, x, n, c.rank, iv))
            cells_out.append((row.against, row.metric, tuple(out)))
        scores.append(ConstructionScores(u, tuple(rows), tuple(cells_out), verdicts, flips))
    units_sig = coverage.signature()
    settings: list[tuple[str, object]] = [("units", units_sig)] if units_sig else []
    atlas_sig, rank_sig = config.signature(), ranking.signature(result.deprel)
    sig = (
        "constructions|"
        + atlas_sig[len("atlas|") : atlas_sig.rindex("|v")]
        + rank_sig[len("ranking") : rank_sig.rindex("|v")]
        + make_signature("", settings)
    )
    if bootstrap is not None:
        sig = bootstrap.sign(sig)
    return ConstructionReport(units, rates, tuple(scores), cols, result.sentences, sig)
