"""The cross-scheme experiment (SPEC §5.4; EMNLP 2011 Tables 1–2, EACL 2012 Tables 1–2).

K schemes, each a gold file and zero or more parse files over the same
sentences.  Every parse is scored against every single gold (UAS, LAS,
U-TED, L-TED: TEDEVAL SINGLE, no discount) and against every generalization
of 2..K golds that contains its own gold (U-TED, L-TED: TEDEVAL MULTIPLE,
discounted).  Rows are (against, metric), columns are parses; the best value
in each row is marked, and pairs of parses whose difference is not
significant (approximate randomization, SPEC §5.4) are listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from evalcore.conversion import to_span_tree, words_of
from evalcore.errors import MismatchError
from evalcore.generalization import generalize_all, tl_unify
from evalcore.metrics.attachment import AttachConfig, sentence_counts
from evalcore.metrics.base import make_signature
from evalcore.metrics.tedeval import SentenceTed, TedConfig, sentence_ted
from evalcore.significance import Method, significance
from evalcore.trees import DepTree, SpanTree, Tree

__all__ = [
    "METRICS",
    "Cell",
    "ExperimentConfig",
    "ExperimentResult",
    "NamedTrees",
    "PairTest",
    "Row",
    "Scheme",
    "SentenceDetail",
    "run_experiment",
]

METRICS = ("UAS", "LAS", "U-TED", "L-TED")
AnyTree = DepTree | Tree


@dataclass(frozen=True)
class NamedTrees:
    """A gold or parse file, already read.

    ``label_from``: a dependency conversion of the same parse whose labels are
    TL-unified into it (EACL 2012 §3.2, how the paper labeled bare
    phrase-structure parses; SPEC §5.1 ``--label-from``).
    """

    name: str
    trees: tuple[AnyTree, ...]
    path: str = ""
    label_from: NamedTrees | None = None


@dataclass(frozen=True)
class Scheme:
    name: str
    gold: NamedTrees
    parses: tuple[NamedTrees, ...] = ()


@dataclass(frozen=True, slots=True)
class ExperimentConfig:
    ted: TedConfig = field(default_factory=TedConfig)
    shuffles: int = 10_000
    seed: int = 12345
    method: Method = "ar"
    skip_mismatched: bool = False
    alpha: float = 0.05

    def signature(self) -> str:
        base = self.ted.signature()
        extra = make_signature(
            "",
            [
                ("test", self.method),
                ("trials", self.shuffles),
                ("seed", self.seed),
                ("skipmismatch", self.skip_mismatched),
            ],
        )
        # one version suffix: tedeval|...|test:ar|trials:...|v0.1.0
        return base[: base.rindex("|v")] + extra


@dataclass(frozen=True, slots=True)
class Cell:
    parse: str
    scheme: str
    score: float
    pairs: tuple[tuple[float, float], ...] = field(repr=False)  # per-sentence (x, n) for significance


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
        for t in self.tests:
            if not t.significant and (
                (t.a == parse and t.b in self.best) or (t.b == parse and t.a in self.best)
            ):
                return True
        return False


@dataclass(frozen=True, slots=True)
class SentenceDetail:
    """One sentence of one (parse, against, labeled) combination, with its scripts."""

    parse: str
    against: str
    labeled: bool
    sent_id: str
    index: int
    ted: SentenceTed


@dataclass(frozen=True)
class ExperimentResult:
    rows: tuple[Row, ...]
    parses: tuple[tuple[str, str], ...]  # (parse name, scheme name) in column order
    sentences: int
    skipped_mismatched: int
    skipped_invalid: int
    signature: str
    details: tuple[SentenceDetail, ...] = ()


def _check_alignment(files: Sequence[tuple[str, NamedTrees]], skip: bool) -> tuple[list[bool], int]:
    """Which sentences to keep; raise on the first difference unless ``skip``."""
    _, ref = files[0]
    n = len(ref.trees)
    for _, f in files[1:]:
        if len(f.trees) != n:
            raise MismatchError(
                f"'{f.name}' has {len(f.trees)} sentences but gold '{ref.name}' has {n}",
                file=f.path or f.name,
            )
    keep = [True] * n
    ref_words = [words_of(t) for t in ref.trees]
    for _, f in files[1:]:
        for i, t in enumerate(f.trees):
            if not keep[i]:
                continue
            w = words_of(t)
            if w != ref_words[i]:
                if skip:
                    keep[i] = False
                    continue
                k = next(
                    (j for j, (a, b) in enumerate(zip(w, ref_words[i], strict=False)) if a != b),
                    min(len(w), len(ref_words[i])),
                )
                got = w[k] if k < len(w) else "<end>"
                want = ref_words[i][k] if k < len(ref_words[i]) else "<end>"
                src = t.source
                raise MismatchError(
                    f"sentence {i + 1} ('{getattr(ref.trees[i], 'sent_id', '') or i + 1}'): word {k + 1} is "
                    f"'{got}' in '{f.name}' but '{want}' in gold '{ref.name}' (use --skip-mismatched to skip "
                    "such sentences)",
                    file=src.file if src else f.path or f.name,
                    line=src.token_line(k) if src else None,
                )
    return keep, keep.count(False)


def _invalid(t: AnyTree) -> bool:
    return isinstance(t, DepTree) and t.structure_problem() is not None


def run_experiment(
    schemes: Sequence[Scheme],
    config: ExperimentConfig = ExperimentConfig(),
    *,
    details: bool = False,
    progress: object = None,
) -> ExperimentResult:
    """Run the SPEC §5.4 experiment.  ``progress`` (optional callable ``(done, total)``) is told
    how far the work has come, for the app's progress bar."""
    if not schemes:
        raise ValueError("at least one scheme is needed")
    names = [s.name for s in schemes]
    if len(set(names)) != len(names):
        raise MismatchError(f"scheme names must be distinct: {names}")
    files: list[tuple[str, NamedTrees]] = []
    for s in schemes:
        files.append((s.name, s.gold))
        files.extend((s.name, p) for p in s.parses)
        files.extend((s.name, p.label_from) for p in s.parses if p.label_from is not None)
    keep, skipped_mismatch = _check_alignment(files, config.skip_mismatched)
    invalid = 0
    for i in range(len(keep)):
        if keep[i] and any(_invalid(f.trees[i]) for _, f in files):
            keep[i] = False
            invalid += 1
    idx = [i for i, k in enumerate(keep) if k]

    conv = config.ted.conversion
    gold_st: dict[str, list[SpanTree]] = {
        s.name: [to_span_tree(s.gold.trees[i], conv) for i in idx] for s in schemes
    }
    subsets: list[tuple[str, ...]] = [
        combo for k in range(2, len(schemes) + 1) for combo in combinations(names, k)
    ]
    general: dict[tuple[str, ...], list[SpanTree]] = {
        combo: [generalize_all(gold_st[n][j] for n in combo) for j in range(len(idx))] for combo in subsets
    }
    parse_cols = [(p.name, s.name) for s in schemes for p in s.parses]
    if len({p for p, _ in parse_cols}) != len(parse_cols):
        raise MismatchError(f"parse names must be distinct: {[p for p, _ in parse_cols]}")

    cells: dict[tuple[str, str], list[Cell]] = {}
    detail_rows: list[SentenceDetail] = []
    sent_ids = [getattr(schemes[0].gold.trees[i], "sent_id", "") or str(i + 1) for i in idx]
    total_work = len(parse_cols) * (len(schemes) + len(subsets))
    done = 0

    def ted_cell(
        pname: str, sname: str, against: str, p_st: list[SpanTree], own: list[SpanTree], gen: list[SpanTree]
    ) -> None:
        for labeled, metric in ((False, "U-TED"), (True, "L-TED")):
            sents = [sentence_ted(p, g, G, labeled=labeled) for p, g, G in zip(p_st, own, gen, strict=True)]
            if config.ted.average == "sentence":
                pairs = tuple((s.score, 1.0) for s in sents)
                value = sum(x for x, _ in pairs) / len(pairs) if pairs else 1.0
            else:
                pairs = tuple((float(s.delta), float(s.norm)) for s in sents)
                d, n = sum(x for x, _ in pairs), sum(y for _, y in pairs)
                value = 1.0 - d / n if n else 1.0
            cells.setdefault((against, metric), []).append(Cell(pname, sname, value, pairs))
            if details:
                detail_rows.extend(
                    SentenceDetail(pname, against, labeled, sid, i, s)
                    for i, (sid, s) in enumerate(zip(sent_ids, sents, strict=True))
                )

    for s in schemes:
        for p in s.parses:
            p_st = [to_span_tree(p.trees[i], conv) for i in idx]
            if p.label_from is not None:
                donor = p.label_from
                p_st = [
                    tl_unify(t, to_span_tree(donor.trees[i], conv)) for t, i in zip(p_st, idx, strict=True)
                ]
            for g in schemes:
                # single gold: UAS / LAS (dependency input only), then TED with no discount
                if all(isinstance(p.trees[i], DepTree) and isinstance(g.gold.trees[i], DepTree) for i in idx):
                    acfg = AttachConfig()
                    counts = [sentence_counts(g.gold.trees[i], p.trees[i], acfg) for i in idx]  # type: ignore[arg-type]
                    for metric, attr in (("UAS", "uas"), ("LAS", "las")):
                        pairs = tuple((float(getattr(c, attr)), float(c.tokens)) for c in counts)
                        tok = sum(y for _, y in pairs)
                        value = sum(x for x, _ in pairs) / tok if tok else 0.0
                        cells.setdefault((g.name, metric), []).append(Cell(p.name, s.name, value, pairs))
                ted_cell(p.name, s.name, g.name, p_st, gold_st[g.name], gold_st[g.name])
                done += 1
                if callable(progress):
                    progress(done, total_work)
            for combo in subsets:
                if s.name in combo:
                    ted_cell(p.name, s.name, "+".join(combo), p_st, gold_st[s.name], general[combo])
                done += 1
                if callable(progress):
                    progress(done, total_work)

    rows: list[Row] = []
    order = [(g.name, m) for g in schemes for m in METRICS] + [
        ("+".join(c), m) for c in subsets for m in ("U-TED", "L-TED")
    ]
    for key in order:
        row_cells = tuple(cells.get(key, ()))
        if not row_cells:
            continue
        top = max(c.score for c in row_cells)
        best = tuple(c.parse for c in row_cells if abs(c.score - top) < 1e-12)
        tests = []
        for a, b in combinations(row_cells, 2):
            r = significance(a.pairs, b.pairs, method=config.method, trials=config.shuffles, seed=config.seed)
            tests.append(PairTest(a.parse, b.parse, r.p_value, r.p_value < config.alpha))
        rows.append(Row(key[0], key[1], row_cells, best, tuple(tests)))
    return ExperimentResult(
        tuple(rows),
        tuple(parse_cols),
        len(idx),
        skipped_mismatch,
        invalid,
        config.signature(),
        tuple(detail_rows),
    )
