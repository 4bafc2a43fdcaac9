"""Ranking flips: does the order of the parsers depend on the metric and the gold? (EMNLP 2011 §5)

docs/atlas.md, "Ranking flips": the parses are ranked on every row (``own gold``, each single gold, each
generalization; NED (Schwartz et al. 2011) when every file is a dependency file in memory; FREVAL F1 by
fragment size (Bastings & Sima'an) where parse and gold are constituency trees), every pair is tested
on every row (approximate randomization, :mod:`evalcore.significance`; the seed is a parameter), and a
*flip* is a pair that two of the fair rows (``own gold`` and the generalizations) order differently.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations

from evalcore.choices import LABELS_FULL
from evalcore.experiment import ExperimentResult, Scheme
from evalcore.families.attach import AttachSettings, attach_config
from evalcore.families.freval import FrevalSettings, freval_config
from evalcore.formats.ptb import PtbLine
from evalcore.metrics import freval
from evalcore.metrics.attachment import sentence_counts
from evalcore.metrics.base import make_signature
from evalcore.metrics.parseval import compare_sentence
from evalcore.significance import Method, check_seed, significance
from evalcore.trees import DepTree, Tree

__all__ = [
    "OWN_GOLD",
    "Flip",
    "PairVerdict",
    "RankCell",
    "RankRow",
    "Ranking",
    "RankingConfig",
    "freval_metric",
    "rank_parses",
    "ranked_row",
    "tests_and_flips",
]

OWN_GOLD = "own gold"
_EPS = 1e-12


@dataclass(frozen=True, slots=True)
class RankingConfig:
    shuffles: int = 10_000
    seed: int = 12345
    method: Method = "ar"
    alpha: float = 0.05
    freval_sizes: int = 3  # FREVAL F1 rows for fragment sizes 1..this (constituency input only)

    def __post_init__(self) -> None:
        check_seed(self.seed)

    def signature(self, deprel: str = "") -> str:
        """The ranking's settings, and ``deprel`` (how the experiment's LAS compared relation
        labels, :attr:`evalcore.experiment.ExperimentResult.deprel`) when given."""
        settings: list[tuple[str, object]] = [
            ("test", self.method),
            ("trials", self.shuffles),
            ("seed", self.seed),
            ("alpha", self.alpha),
            ("frevalsizes", self.freval_sizes),
        ]
        return make_signature("ranking", settings + ([("deprel", deprel)] if deprel else []))


@dataclass(frozen=True, slots=True)
class RankCell:
    parse: str
    scheme: str
    score: float
    rank: int  # 1 = best; equal scores share a rank
    pairs: tuple[tuple[float, float], ...]  # per-sentence (x, n), for the tests


@dataclass(frozen=True)
class RankRow:
    against: str  # a gold, a generalization ("ud+sud") or OWN_GOLD
    metric: str  # UAS, LAS, NED, U-TED, L-TED

    cells: tuple[RankCell, ...]

    @property
    def name(self) -> str:
        return f"{self.metric} vs {self.against}"

    def cell(self, parse: str) -> RankCell | None:
        return next((c for c in self.cells if c.parse == parse), None)

    def order(self) -> tuple[str, ...]:
        """Parses from best to worst."""
        return tuple(c.parse for c in sorted(self.cells, key=lambda c: (c.rank, c.parse)))


@dataclass(frozen=True, slots=True)
class PairVerdict:
    """The paired test of parses ``a`` and ``b`` on one row; ``difference`` = score(a) − score(b)."""

    a: str
    b: str
    against: str
    metric: str
    difference: float
    p_value: float
    significant: bool

    @property
    def ahead(self) -> str:
        """The parse ahead on this row ('' for a tie)."""
        if abs(self.difference) < _EPS:
            return ""
        return self.a if self.difference > 0 else self.b


@dataclass(frozen=True, slots=True)
class Flip:
    """A pair of parses whose order differs between rows."""

    a: str
    b: str
    a_ahead: tuple[PairVerdict, ...]  # rows where a is ahead
    b_ahead: tuple[PairVerdict, ...]  # rows where b is ahead

    @property
    def significant(self) -> bool:
        """Both orders are significant on some row."""
        return any(v.significant for v in self.a_ahead) and any(v.significant for v in self.b_ahead)


@dataclass(frozen=True)
class Ranking:
    parses: tuple[tuple[str, str], ...]  # (parse, scheme)
    rows: tuple[RankRow, ...]
    tests: tuple[PairVerdict, ...]
    flips: tuple[Flip, ...]
    sentences: int
    signature: str

    def row(self, against: str, metric: str) -> RankRow | None:
        return next((r for r in self.rows if r.against == against and r.metric == metric), None)

    def test(self, a: str, b: str, against: str, metric: str) -> PairVerdict | None:
        """The test of the pair on a row, oriented as asked (``difference`` = a − b)."""
        for t in self.tests:
            if t.against == against and t.metric == metric and {t.a, t.b} == {a, b}:
                if t.a == a:
                    return t
                return PairVerdict(a, b, against, metric, -t.difference, t.p_value, t.significant)
        return None


def _ned_pairs(
    result: ExperimentResult, schemes: Sequence[Scheme], parses: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], tuple[tuple[float, float], ...]]:
    """Per (parse, gold scheme): per-sentence (NED-correct tokens, tokens); empty if not all
    files are dependency trees in memory."""
    files = {p.name: p for s in schemes for p in s.parses}
    golds = {s.name: s.gold for s in schemes}
    out: dict[tuple[str, str], tuple[tuple[float, float], ...]] = {}
    cfg = attach_config(AttachSettings(labels=LABELS_FULL), "conllx")  # NED: no label compared
    for pname, _ in parses:
        ptrees = files[pname].trees
        for gname, gold in golds.items():
            pairs = []
            for pos in result.indices:
                if pos >= len(ptrees) or pos >= len(gold.trees):
                    return {}
                g, p = gold.trees[pos], ptrees[pos]
                if not isinstance(g, DepTree) or not isinstance(p, DepTree) or len(g.tokens) != len(p.tokens):
                    return {}  # constituency trees, or a parse of raw text (docs/rawtext.md): no NED row
                c = sentence_counts(g, p, cfg)
                pairs.append((float(c.ned), float(c.tokens)))
            out[(pname, gname)] = tuple(pairs)
    return out


def freval_metric(size: int) -> str:
    """The metric name of the FREVAL F1 row of fragment size ``size``: ``FREVAL F1 s=2``."""
    return f"FREVAL F1 s={size}"


def _freval_pairs(
    result: ExperimentResult, schemes: Sequence[Scheme], parses: Sequence[tuple[str, str]], sizes: int
) -> dict[tuple[str, str], tuple[tuple[tuple[float, float], ...], ...]]:
    """Per (parse, gold scheme) whose trees are all constituency trees in memory: per size
    1..``sizes``, per sentence ``(2·matched_s, gold_s + test_s)`` (docs/freval.md, "Scores per size"; an evalb
    error sentence counts nothing, as FREVAL excludes it)."""
    files = {p.name: p for s in schemes for p in s.parses}
    golds = {s.name: s.gold for s in schemes}
    config = freval_config(FrevalSettings(max_size=sizes))  # evalb's COLLINS.prm, as the command's default
    extraction = config.extraction
    out: dict[tuple[str, str], tuple[tuple[tuple[float, float], ...], ...]] = {}
    for pname, _ in parses:
        ptrees = files[pname].trees
        for gname, gold in golds.items():
            per_size: list[list[tuple[float, float]]] = [[] for _ in range(sizes)]
            for pos in result.indices:
                g = gold.trees[pos] if pos < len(gold.trees) else None
                p = ptrees[pos] if pos < len(ptrees) else None
                if not isinstance(g, Tree) or not isinstance(p, Tree):
                    break
                comp = compare_sentence(PtbLine(pos + 1, (g,)), PtbLine(pos + 1, (p,)), extraction, pos)
                c = freval.sentence_counts(comp, config)
                for k in range(sizes):
                    m, gs, ts = (v[k] if k < len(v) else 0 for v in (c.matched, c.gold, c.test))
                    per_size[k].append((float(2 * m), float(gs + ts)))
            else:
                if result.indices:
                    out[(pname, gname)] = tuple(tuple(x) for x in per_size)
    return out


def _ratio_score(pairs: Sequence[tuple[float, float]]) -> float:
    n = sum(y for _, y in pairs)
    return sum(x for x, _ in pairs) / n if n else 0.0


def ranked_row(
    against: str, metric: str, cells: Sequence[tuple[str, str, float, tuple[tuple[float, float], ...]]]
) -> RankRow:
    """A row of ``(parse, scheme, score, per-sentence pairs)`` cells, ranked (equal scores share a rank)."""
    scores = sorted({round(c[2], 12) for c in cells}, reverse=True)
    rank_of = {s: 1 + sum(1 for c in cells if round(c[2], 12) > s) for s in scores}
    return RankRow(
        against, metric, tuple(RankCell(p, s, v, rank_of[round(v, 12)], pr) for p, s, v, pr in cells)
    )


def rank_parses(
    result: ExperimentResult,
    schemes: Sequence[Scheme],
    config: RankingConfig = RankingConfig(),
    *,
    parses: Sequence[str] | None = None,
) -> Ranking:
    """Rank ``parses`` (default: every parse of ``result``) on every row; test every pair on every
    row; list the flips.  ``schemes`` are the experiment's (their trees give NED)."""
    cols = tuple((p, s) for p, s in result.parses if parses is None or p in parses)
    names = [p for p, _ in cols]
    ned = _ned_pairs(result, schemes, cols)

    rows: list[RankRow] = []

    def from_experiment(against: str, metric: str, own: bool) -> RankRow | None:
        cells = []
        for p, s in cols:
            row = result.row(s if own else against, metric)
            cell = row.cell(p) if row is not None else None
            if cell is None:
                return None
            cells.append((p, s, cell.score, cell.pairs))
        return ranked_row(OWN_GOLD if own else against, metric, cells) if cells else None

    fre = _freval_pairs(result, schemes, cols, config.freval_sizes)

    def freval_row(against: str, own: bool, size: int) -> RankRow | None:
        cells = []
        for p, s in cols:
            sizes = fre.get((p, s if own else against))
            if sizes is not None:
                cells.append((p, s, _ratio_score(sizes[size - 1]), sizes[size - 1]))
        return (
            ranked_row(OWN_GOLD if own else against, freval_metric(size), cells) if len(cells) >= 2 else None
        )

    def ned_row(against: str, own: bool) -> RankRow | None:
        if not ned:
            return None
        cells = []
        for p, s in cols:
            pairs = ned[(p, s if own else against)]
            cells.append((p, s, _ratio_score(pairs), pairs))
        return ranked_row(OWN_GOLD if own else against, "NED", cells)

    singles = [s.name for s in schemes]
    generals = list(dict.fromkeys(r.against for r in result.rows if r.against not in singles))
    plan: list[tuple[str, str, bool]] = [(OWN_GOLD, m, True) for m in ("UAS", "LAS", "NED", "U-TED", "L-TED")]
    plan += [(g, m, False) for g in singles for m in ("UAS", "LAS", "NED", "U-TED", "L-TED")]
    plan += [(g, m, False) for g in generals for m in ("U-TED", "L-TED")]
    for against, metric, own in plan:
        row = ned_row(against, own) if metric == "NED" else from_experiment(against, metric, own)
        if row is not None:
            rows.append(row)
    if fre:
        for against, own in [(OWN_GOLD, True), *((g, False) for g in singles)]:
            for size in range(1, config.freval_sizes + 1):
                row = freval_row(against, own, size)
                if row is not None:
                    rows.append(row)

    tests, flips = tests_and_flips(rows, names, config, {OWN_GOLD, *generals})
    return Ranking(
        cols,
        tuple(rows),
        tests,
        flips,
        result.sentences,
        config.signature(result.deprel),
    )


def tests_and_flips(
    rows: Sequence[RankRow], names: Sequence[str], config: RankingConfig, fair: Collection[str]
) -> tuple[tuple[PairVerdict, ...], tuple[Flip, ...]]:
    """Every pair of ``names`` tested on every row (the rows' per-sentence pairs re-summed, seeded),
    and the flips: pairs that two rows whose ``against`` is in ``fair`` order differently."""
    tests: list[PairVerdict] = []
    for row in rows:
        for a, b in combinations(names, 2):
            ca, cb = row.cell(a), row.cell(b)
            if ca is None or cb is None:
                continue
            r = significance(
                ca.pairs, cb.pairs, method=config.method, trials=config.shuffles, seed=config.seed
            )
            tests.append(
                PairVerdict(
                    a, b, row.against, row.metric, ca.score - cb.score, r.p_value, r.p_value < config.alpha
                )
            )
    flips = []
    for a, b in combinations(names, 2):
        mine = [t for t in tests if (t.a, t.b) == (a, b) and t.against in fair]
        a_ahead = tuple(t for t in mine if t.ahead == a)
        b_ahead = tuple(t for t in mine if t.ahead == b)
        if a_ahead and b_ahead:
            flips.append(Flip(a, b, a_ahead, b_ahead))
    return tuple(tests), tuple(flips)
