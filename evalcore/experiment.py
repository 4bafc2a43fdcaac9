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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from evalcore.conversion import to_span_tree, words_of
from evalcore.errors import EvalcoreError, MismatchError
from evalcore.generalization import generalize_all, tl_unify
from evalcore.metrics.attachment import AttachConfig, sentence_counts
from evalcore.metrics.base import Signature
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
    "Reader",
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

    def signature_value(self) -> Signature:
        """The TedEval signature plus the significance test's settings."""
        return self.ted.signature_value().extend(
            ("test", self.method),
            ("trials", self.shuffles),
            ("seed", self.seed),
            ("skipmismatch", self.skip_mismatched),
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
    sent_ids: tuple[str, ...] = field(default=(), repr=False)  # of the kept sentences, in file order
    indices: tuple[int, ...] = field(default=(), repr=False)  # their 0-based positions in the files

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
    k = next(
        (j for j, (a, b) in enumerate(zip(w, ref_words, strict=False)) if a != b),
        min(len(w), len(ref_words)),
    )
    got = w[k] if k < len(w) else "<end>"
    want = ref_words[k] if k < len(ref_words) else "<end>"
    src = t.source
    return MismatchError(
        f"sentence {index + 1} ('{getattr(ref_tree, 'sent_id', '') or index + 1}'): word {k + 1} is "
        f"'{got}' in '{f.name}' but '{want}' in gold '{ref.name}' (use --skip-mismatched to skip "
        "such sentences)",
        file=src.file if src else f.path or f.name,
        line=src.token_line(k) if src else None,
    )


def _invalid(t: AnyTree) -> bool:
    return isinstance(t, DepTree) and t.structure_problem() is not None


_END = object()

Reader = Callable[[NamedTrees], Iterable[AnyTree]]


def run_experiment(
    schemes: Sequence[Scheme],
    config: ExperimentConfig = ExperimentConfig(),
    *,
    details: bool = False,
    progress: object = None,
    reader: Reader | None = None,
) -> ExperimentResult:
    """Run the SPEC §5.4 experiment in one pass over the sentences.

    Every file is read in step with the others, one sentence at a time: only per-sentence
    ``(x, n)`` pairs are kept for the significance tests (and, with ``details``, each
    sentence's scripts), never the trees.  ``reader`` (optional) reads a file's trees from
    ``NamedTrees.path`` instead of taking ``NamedTrees.trees`` (the command line streams its
    files this way: memory does not grow with the corpus but for those pairs).

    ``progress`` (optional callable ``(done, total)``) is told after each sentence how many
    have been scored, out of how many (``total`` is 0 when ``reader`` streams the files and
    their length is not known in advance), for the app's progress bar.

    Errors, whichever is found first in sentence order aside, take this precedence (as when
    every check ran over the whole corpus in turn): files with different sentence counts;
    the first file (in scheme order) whose words differ from the first gold's (unless
    ``skip_mismatched``); a gold that cannot be converted; parse names that are not distinct;
    a parse that cannot be converted.
    """
    if not schemes:
        raise ValueError("at least one scheme is needed")
    names = [s.name for s in schemes]
    if len(set(names)) != len(names):
        raise MismatchError(f"scheme names must be distinct: {names}")
    files: list[tuple[str, NamedTrees]] = []
    gold_file: dict[str, int] = {}
    parse_specs: list[tuple[NamedTrees, Scheme, int, int | None]] = []  # parse, scheme, file, donor
    for s in schemes:
        gold_file[s.name] = len(files)
        files.append((s.name, s.gold))
        first_parse = len(files)
        files.extend((s.name, p) for p in s.parses)
        for k, p in enumerate(s.parses):
            donor = None
            if p.label_from is not None:
                donor = len(files)
                files.append((s.name, p.label_from))
            parse_specs.append((p, s, first_parse + k, donor))
    parse_cols = [(p.name, s.name) for s in schemes for p in s.parses]
    duplicate_parses = len({p for p, _ in parse_cols}) != len(parse_cols)
    subsets: list[tuple[str, ...]] = [
        combo for k in range(2, len(schemes) + 1) for combo in combinations(names, k)
    ]
    conv = config.ted.conversion
    sentence_average = config.ted.average == "sentence"
    acfg = AttachConfig()

    ref = files[0][1]
    streams = [iter(reader(f) if reader is not None else f.trees) for _, f in files]
    total = 0 if reader is not None else len(ref.trees)

    # per (parse index, against, metric): the per-sentence (x, n) pairs
    pairs: dict[tuple[int, str, str], list[tuple[float, float]]] = {}
    all_dep = {(pi, g.name): True for pi in range(len(parse_specs)) for g in schemes}
    detail_lists: dict[tuple[int, str, bool], list[SentenceDetail]] = {}
    first_mismatch: dict[int, MismatchError] = {}
    gold_error: EvalcoreError | None = None
    parse_error: EvalcoreError | None = None
    scan_only = duplicate_parses  # the result is an error: keep checking what would come first
    skipped_mismatch = invalid = kept = 0
    kept_ids: list[str] = []  # sent_id and file position of each kept sentence
    kept_index: list[int] = []
    # Equal pairs (and the scores made from them) are stored once: a corpus has few distinct
    # (x, n) values, so each sentence then costs a reference per cell, not new tuples and floats
    # (100,000 sentences x 20 cells: about 50 MB instead of 300).
    shared_pairs: dict[tuple[float, float], tuple[float, float]] = {}
    shared_scores: dict[tuple[str, tuple[float, float]], float] = {}

    def pair_of(x: float, n: float) -> tuple[float, float]:
        key = (x, n)
        return shared_pairs.setdefault(key, key)

    def ted(pi: int, against: str, p: SpanTree, own: SpanTree, gen: SpanTree, sid: str, pos: int) -> None:
        pname = parse_specs[pi][0].name
        for labeled, metric in ((False, "U-TED"), (True, "L-TED")):
            one = sentence_ted(p, own, gen, labeled=labeled)
            pair = pair_of(one.score, 1.0) if sentence_average else pair_of(float(one.delta), float(one.norm))
            pairs.setdefault((pi, against, metric), []).append(pair)
            if details:
                detail_lists.setdefault((pi, against, labeled), []).append(
                    SentenceDetail(pname, against, labeled, sid, pos, one)
                )

    index = -1
    while True:
        index += 1
        trees = [next(it, _END) for it in streams]
        ended = [t is _END for t in trees]
        if all(ended):
            break
        if any(ended):
            counts = [
                index if e else index + 1 + sum(1 for _ in it) for e, it in zip(ended, streams, strict=True)
            ]
            k = next(k for k in range(1, len(files)) if counts[k] != counts[0])
            f = files[k][1]
            # name the first sentence without a counterpart: in the longer file
            longer, extra = (f, trees[k]) if counts[k] > counts[0] else (ref, trees[0])
            src = getattr(extra, "source", None)
            raise MismatchError(
                f"'{f.name}' has {counts[k]} sentences but gold '{ref.name}' has {counts[0]} "
                f"(sentence {index + 1} of '{longer.name}' has no counterpart)",
                file=(src.file if src is not None else None) or longer.path or longer.name,
                line=src.line if src is not None else None,
            )
        sentence: list[AnyTree] = trees  # type: ignore[assignment]
        ref_words = words_of(sentence[0])
        keep = True
        for k in range(1, len(files)):
            if k in first_mismatch or words_of(sentence[k]) == ref_words:
                continue
            if config.skip_mismatched:
                keep = False
                break
            first_mismatch[k] = _words_mismatch(index, ref, sentence[0], ref_words, files[k][1], sentence[k])
            scan_only = True
        if not keep:
            skipped_mismatch += 1
            continue
        if first_mismatch or (scan_only and gold_error is not None):
            continue
        if any(_invalid(t) for t in sentence):
            invalid += 1
            continue
        try:
            gold_st = {s.name: to_span_tree(sentence[gold_file[s.name]], conv) for s in schemes}
            general = {combo: generalize_all(gold_st[n] for n in combo) for combo in subsets}
        except EvalcoreError as exc:
            gold_error, scan_only = exc, True
            continue
        if scan_only:
            continue
        try:
            parse_st = []
            for _, _, fi, di in parse_specs:
                st = to_span_tree(sentence[fi], conv)
                if di is not None:
                    st = tl_unify(st, to_span_tree(sentence[di], conv))
                parse_st.append(st)
        except EvalcoreError as exc:
            parse_error, scan_only = exc, True
            continue
        pos = kept
        kept += 1
        sid = getattr(sentence[0], "sent_id", "") or str(index + 1)
        kept_ids.append(sid)
        kept_index.append(index)
        for pi, (_, s, fi, _) in enumerate(parse_specs):
            p_tree, p_st = sentence[fi], parse_st[pi]
            for g in schemes:
                g_tree = sentence[gold_file[g.name]]
                if all_dep[(pi, g.name)]:
                    if isinstance(p_tree, DepTree) and isinstance(g_tree, DepTree):
                        c = sentence_counts(g_tree, p_tree, acfg)
                        pairs.setdefault((pi, g.name, "UAS"), []).append(
                            pair_of(float(c.uas), float(c.tokens))
                        )
                        pairs.setdefault((pi, g.name, "LAS"), []).append(
                            pair_of(float(c.las), float(c.tokens))
                        )
                    else:  # dependency input only: no attachment scores for this pair of files
                        all_dep[(pi, g.name)] = False
                        pairs.pop((pi, g.name, "UAS"), None)
                        pairs.pop((pi, g.name, "LAS"), None)
                ted(pi, g.name, p_st, gold_st[g.name], gold_st[g.name], sid, pos)
            for combo in subsets:
                if s.name in combo:
                    ted(pi, "+".join(combo), p_st, gold_st[s.name], general[combo], sid, pos)
        if callable(progress):
            progress(index + 1, total)

    if first_mismatch:
        raise first_mismatch[min(first_mismatch)]
    if gold_error is not None:
        raise gold_error
    if duplicate_parses:
        raise MismatchError(f"parse names must be distinct: {[p for p, _ in parse_cols]}")
    if parse_error is not None:
        raise parse_error

    # cells in the order of the papers' tables: per parse, each single gold, then its generalizations
    cells: dict[tuple[str, str], list[Cell]] = {}
    detail_rows: list[SentenceDetail] = []

    def cell(pi: int, against: str, metric: str) -> None:
        pname, sname = parse_specs[pi][0].name, parse_specs[pi][1].name
        got = tuple(pairs.pop((pi, against, metric), ()))
        kind = "attach" if metric in ("UAS", "LAS") else "average" if sentence_average else "ted"

        def score_of(pair: tuple[float, float]) -> float:
            key = (kind, pair)
            if key not in shared_scores:
                x, y = pair
                if kind == "attach":
                    shared_scores[key] = x / y if y else 1.0
                elif kind == "average":
                    shared_scores[key] = x
                else:
                    shared_scores[key] = 1.0 - x / y if y else 1.0
            return shared_scores[key]

        if kind == "attach":
            tok = sum(y for _, y in got)
            value = sum(x for x, _ in got) / tok if tok else 0.0
        elif kind == "average":
            value = sum(x for x, _ in got) / len(got) if got else 1.0
        else:
            d, n = sum(x for x, _ in got), sum(y for _, y in got)
            value = 1.0 - d / n if n else 1.0
        scores = tuple(score_of(pair) for pair in got)
        cells.setdefault((against, metric), []).append(Cell(pname, sname, value, got, scores))

    for pi, (_, s, _, _) in enumerate(parse_specs):
        againsts = [g.name for g in schemes] + ["+".join(c) for c in subsets if s.name in c]
        for against in againsts:
            if against in gold_file and all_dep[(pi, against)]:
                cell(pi, against, "UAS")
                cell(pi, against, "LAS")
            cell(pi, against, "U-TED")
            cell(pi, against, "L-TED")
            if details:
                detail_rows.extend(detail_lists.get((pi, against, False), ()))
                detail_rows.extend(detail_lists.get((pi, against, True), ()))

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
        kept,
        skipped_mismatch,
        invalid,
        config.signature(),
        tuple(detail_rows),
        tuple(kept_ids),
        tuple(kept_index),
    )
