"""FREVAL: PARSEVAL precision and recall per fragment size (Bastings & Sima'an; docs/freval.md, "Fragments").

Brackets are extracted and matched exactly as evalb does (:mod:`evalcore.metrics.parseval`).  A
*fragment* is a connected set of brackets of one tree; its counts come from the generating-polynomial
dynamic programme of :mod:`evalcore.fragments`, never from enumeration.  What a matched fragment is
(and ``strict=True``'s edge check), LR_s, LP_s, F1_s and FLR, FLP, F1 (paper §3) over valid sentences:
docs/freval.md, "Scores per size" and "FLR, FLP and F1".
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from evalcore.display import Tabular
from evalcore.formats.ptb import PtbLine
from evalcore.fragments import add_counts, fragment_counts
from evalcore.metrics.base import make_signature, ratio
from evalcore.metrics.parseval import MAX_KEPT_PROBLEMS, ParsevalConfig, SentenceComparison, compare_corpus

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EMPTY_SIZES_LISTED",
    "TABLE1_LIMITS",
    "FrevalConfig",
    "FrevalCounts",
    "FrevalResult",
    "FrevalScore",
    "SizeScore",
    "f1_by_size_frame",
    "freval_comparisons",
    "freval_corpus",
    "limit_name",
    "listed_sizes",
    "score",
    "sentence_counts",
    "table1_frame",
]

TABLE1_LIMITS: tuple[int | None, ...] = (1, 15, 25, None)
"""The size limits of the paper's Table 1: 1 (PARSEVAL), 1–15, 1–25, all."""


@dataclass(frozen=True, slots=True)
class FrevalConfig:
    """FREVAL settings; every one appears in :meth:`signature`.

    ``alpha``: weights of sizes 1, 2, ... (summing to 1); ``None`` = uniform.
    ``cutoff_len``: only sentences of at most this many words (evalb's
    length, see :class:`evalcore.metrics.parseval.SentenceComparison`).
    """

    extraction: ParsevalConfig = field(default_factory=ParsevalConfig)
    max_size: int | None = None
    alpha: tuple[float, ...] | None = None
    strict: bool = False
    cutoff_len: int | None = None

    def __post_init__(self) -> None:
        if self.max_size is not None and self.max_size < 1:
            raise ValueError("max_size must be at least 1")
        if self.cutoff_len is not None and self.cutoff_len < 0:
            raise ValueError("cutoff_len must be >= 0")
        if self.alpha is not None:
            _check_alpha(self.alpha, self.max_size)

    def signature(self) -> str:
        alpha = "uniform" if self.alpha is None else ",".join(f"{a:g}" for a in self.alpha)
        return make_signature(
            "freval",
            [
                *self.extraction.extraction_items(),
                ("maxsize", self.max_size),
                ("alpha", alpha),
                ("match", "strict" if self.strict else "nodes"),
                ("len", self.cutoff_len),
            ],
        )


def _check_alpha(alpha: Sequence[float], max_size: int | None) -> None:
    if not alpha:
        raise ValueError("alpha needs at least one weight")
    if any(a < 0 or not math.isfinite(a) for a in alpha):
        raise ValueError("alpha weights must be finite and >= 0")
    if abs(sum(alpha) - 1.0) > 1e-6:
        raise ValueError(f"alpha weights must sum to 1 (they sum to {sum(alpha):g})")
    if max_size is not None and len(alpha) > max_size:
        raise ValueError(f"{len(alpha)} alpha weights but sizes are limited to {max_size}")


# ---------------------------------------------------------------------------
# Counts


@dataclass(frozen=True, slots=True)
class FrevalCounts:
    """Per-size fragment counts (index s-1 = size s; exact ints) and sentence tallies; add with ``+``."""

    gold: tuple[int, ...] = ()
    test: tuple[int, ...] = ()
    matched: tuple[int, ...] = ()
    sentences: int = 0
    errors: int = 0
    skipped: int = 0
    largest_gold: int = 0  # brackets in the largest valid gold tree

    @property
    def valid(self) -> int:
        return self.sentences - self.errors - self.skipped

    def __add__(self, other: FrevalCounts) -> FrevalCounts:
        return FrevalCounts(
            add_counts(self.gold, other.gold),
            add_counts(self.test, other.test),
            add_counts(self.matched, other.matched),
            self.sentences + other.sentences,
            self.errors + other.errors,
            self.skipped + other.skipped,
            max(self.largest_gold, other.largest_gold),
        )


def _strict_edges(comp: SentenceComparison) -> list[bool]:
    """Gold edge child→parent is kept iff the partners are child and parent in the test tree."""
    out = []
    for c, b in enumerate(comp.gold):
        pc = comp.gold_partner[c]
        pp = comp.gold_partner[b.parent] if b.parent >= 0 else -1
        out.append(pc >= 0 and pp >= 0 and comp.test[pc].parent == pp)
    return out


def sentence_counts(comp: SentenceComparison, config: FrevalConfig = FrevalConfig()) -> FrevalCounts:
    """Gold, test and matched fragment counts of one sentence (zero for error and skip sentences)."""
    if comp.status == "error":
        return FrevalCounts(sentences=1, errors=1)
    if comp.status == "skip":
        return FrevalCounts(sentences=1, skipped=1)
    limit = config.max_size
    gold_parents = [b.parent for b in comp.gold]
    gold = fragment_counts(gold_parents, max_size=limit)
    test = fragment_counts([b.parent for b in comp.test], max_size=limit)
    include = [p >= 0 for p in comp.gold_partner]
    edges = _strict_edges(comp) if config.strict else None
    if all(include) and (
        edges is None or all(e for e, b in zip(edges, comp.gold, strict=True) if b.parent >= 0)
    ):
        matched = gold
    else:
        matched = fragment_counts(gold_parents, include, edges, limit)
    return FrevalCounts(gold, test, matched, 1, 0, 0, len(comp.gold))


# ---------------------------------------------------------------------------
# Scores


@dataclass(frozen=True, slots=True)
class SizeScore:
    """One fragment size: summed counts and LR_s, LP_s, F1_s (fractions)."""

    size: int
    matched: int
    gold: int
    test: int
    recall: float
    precision: float
    f1: float


EMPTY_SIZES_LISTED = 1_000
"""Sizes past the largest tree of either file (they have no fragments) listed one by one, as any
size, when there are at most this many; more are one range (:attr:`FrevalScore.empty_sizes`)."""


def listed_sizes(limit: int, largest: int) -> int:
    """The sizes listed (and resampled) one by one: all of 1..``limit``, or, when the limit is
    more than :data:`EMPTY_SIZES_LISTED` sizes past ``largest`` (the largest tree, in brackets),
    only 1..``largest``: a size limit of 10^9 costs what the largest tree costs."""
    return limit if limit - largest <= EMPTY_SIZES_LISTED else largest


@dataclass(frozen=True, slots=True)
class FrevalScore:
    """FLR, FLP, F1 (fractions) with the per-size rows they were mixed from.

    ``per_size`` has a row for each size 1..``limit``, but when the limit is more than
    :data:`EMPTY_SIZES_LISTED` sizes past the largest tree of either file: then the sizes above
    that tree, which have no fragments at all, are not listed but are :attr:`empty_sizes`.  They
    still weigh ``1/limit`` each under uniform α (and contribute 0), so the numbers are those of
    every size, at the cost of the largest tree, not of the limit.
    """

    per_size: tuple[SizeScore, ...]
    flr: float
    flp: float
    f1: float
    limit: int
    sentences: int
    valid: int
    errors: int
    skipped: int
    signature: str

    @property
    def empty_sizes(self) -> tuple[int, int] | None:
        """``(first, last)``: the sizes up to ``limit`` that no tree has (not in ``per_size``)."""
        first = len(self.per_size) + 1
        return (first, self.limit) if first <= self.limit else None


def _f1(r: float, p: float) -> float:
    return ratio(2 * r * p, r + p)


def _at(v: Sequence[int], i: int) -> int:
    return v[i] if i < len(v) else 0


def score(
    counts: FrevalCounts,
    max_size: int | None = None,
    alpha: Sequence[float] | None = None,
    signature: str = "",
) -> FrevalScore:
    """FLR/FLP/F1 from summed counts (paper §3).

    ``max_size`` must not exceed the limit the counts were made with (the
    counts of larger sizes are missing then).
    """
    if alpha is not None:
        _check_alpha(alpha, max_size)
    limit = max_size if max_size is not None else max(counts.largest_gold, len(alpha or ()))
    # past the largest tree every count is 0: those sizes add 0 to the sums below (so the sums
    # are the same to the last bit); past EMPTY_SIZES_LISTED of them they are not listed
    sizes = listed_sizes(limit, max(len(counts.gold), len(counts.test), len(counts.matched)))
    weights = list(alpha) if alpha is not None else [1.0 / limit] * sizes if limit else []
    rows = []
    for k in range(sizes):
        m, g, t = _at(counts.matched, k), _at(counts.gold, k), _at(counts.test, k)
        r, p = ratio(m, g), ratio(m, t)
        rows.append(SizeScore(k + 1, m, g, t, r, p, _f1(r, p)))
    flr = sum(w * row.recall for w, row in zip(weights, rows, strict=False))
    flp = sum(w * row.precision for w, row in zip(weights, rows, strict=False))
    return FrevalScore(
        tuple(rows),
        flr,
        flp,
        _f1(flr, flp),
        limit,
        counts.sentences,
        counts.valid,
        counts.errors,
        counts.skipped,
        signature,
    )


@dataclass(frozen=True)
class FrevalResult(Tabular):
    """Every sentence's comparison and counts (aligned), the summed counts and the score.

    With ``keep_sentences=False`` (:func:`freval_corpus`), ``comparisons`` holds only the error
    and skip sentences and ``per_sentence`` is empty.
    """

    comparisons: tuple[SentenceComparison, ...]
    per_sentence: tuple[FrevalCounts, ...]
    counts: FrevalCounts
    score: FrevalScore
    config: FrevalConfig

    @property
    def signature(self) -> str:
        return self.score.signature

    def rescore(self, max_size: int | None, alpha: Sequence[float] | None = None) -> FrevalScore:
        """The score under another size limit / α, from the same counts (no recounting); its
        signature says the limit and weights it was scored with."""
        made = self.config.max_size
        if made is not None and (max_size is None or max_size > made):
            raise ValueError(f"counts were made with max_size={made}; cannot score up to {max_size}")
        weights = None if alpha is None else tuple(alpha)
        config = replace(self.config, max_size=max_size, alpha=weights)
        return score(self.counts, max_size, alpha, config.signature())


def freval_corpus(
    gold: Iterable[PtbLine],
    test: Iterable[PtbLine],
    config: FrevalConfig = FrevalConfig(),
    *,
    keep_sentences: bool = True,
    keep_counts: bool = False,
) -> FrevalResult:
    """FREVAL of two files' sentences (from :func:`evalcore.formats.ptb.read_ptb_sentences`):
    :func:`freval_comparisons` of their comparisons."""
    comparisons = compare_corpus(gold, test, config.extraction)
    return freval_comparisons(comparisons, config, keep_sentences=keep_sentences, keep_counts=keep_counts)


def freval_comparisons(
    comparisons: Iterable[SentenceComparison],
    config: FrevalConfig = FrevalConfig(),
    *,
    keep_sentences: bool = True,
    keep_counts: bool = False,
) -> FrevalResult:
    """FREVAL of the sentence pairs evalb's steps compared (:func:`compare_corpus`, or
    :func:`~evalcore.metrics.parseval.compare_lines` of the read sentences, as the command reads
    them: a file in the line layout without building its trees).

    Streams; ``keep_sentences=False`` keeps only the first error and skip sentences
    (:data:`~evalcore.metrics.parseval.MAX_KEPT_PROBLEMS`; the others are counted), so memory
    does not grow with the corpus.  ``keep_counts`` keeps ``per_sentence`` (the counts, not the
    comparisons) even so: what bootstrap intervals and paired tests resample.
    """
    keep_counts = keep_counts or keep_sentences
    kept: list[SentenceComparison] = []
    per_sentence: list[FrevalCounts] = []
    total = FrevalCounts()
    for comp in comparisons:
        if keep_sentences or (comp.status != "ok" and len(kept) < MAX_KEPT_PROBLEMS):
            kept.append(comp)
        if config.cutoff_len is not None and comp.length > config.cutoff_len:
            if keep_counts:
                per_sentence.append(FrevalCounts())
            continue
        c = sentence_counts(comp, config)
        if keep_counts:
            per_sentence.append(c)
        total = total + c
    sc = score(total, config.max_size, config.alpha, config.signature())
    return FrevalResult(tuple(kept), tuple(per_sentence), total, sc, config)


# ---------------------------------------------------------------------------
# Plot-ready tables for the app (paper's Figures 1–3 and Table 1)


def f1_by_size_frame(
    results: Mapping[str, FrevalResult | FrevalScore], baseline: str | None = None
) -> pd.DataFrame:
    """Long table ``parser, size, recall, precision, f1[, f1_minus_baseline]`` (Figures 1–3).

    One row per parser and fragment size 1..L (L the largest size listed among the parsers:
    the size limit, or the largest tree when the limit is past it; missing sizes are 0).  With
    ``baseline`` (a key of ``results``), ``f1_minus_baseline`` is each parser's F1_s minus the
    baseline's F1_s.
    """
    import pandas as pd

    scores = {name: r.score if isinstance(r, FrevalResult) else r for name, r in results.items()}
    if baseline is not None and baseline not in scores:
        raise KeyError(f"baseline {baseline!r} is not among the parsers: {', '.join(scores)}")
    top = max((len(s.per_size) for s in scores.values()), default=0)  # no row past the largest tree
    base_f1 = [0.0] * top
    if baseline is not None:
        for base in scores[baseline].per_size:
            base_f1[base.size - 1] = base.f1
    records = []
    for name, sc in scores.items():
        by_size = {row.size: row for row in sc.per_size}
        for size in range(1, top + 1):
            row = by_size.get(size)
            rec: dict[str, object] = {
                "parser": name,
                "size": size,
                "recall": row.recall if row else 0.0,
                "precision": row.precision if row else 0.0,
                "f1": row.f1 if row else 0.0,
            }
            if baseline is not None:
                rec["f1_minus_baseline"] = float(rec["f1"]) - base_f1[size - 1]  # type: ignore[arg-type]
            records.append(rec)
    columns = ["parser", "size", "recall", "precision", "f1"]
    if baseline is not None:
        columns.append("f1_minus_baseline")
    return pd.DataFrame.from_records(records, columns=columns)


def limit_name(limit: int | None) -> str:
    """Column names of the paper's Table 1: ``1``, ``1-15``, ``1-25``, ``all``."""
    if limit is None:
        return "all"
    return "1" if limit == 1 else f"1-{limit}"


def table1_frame(
    results: Mapping[str, FrevalResult], limits: Sequence[int | None] = TABLE1_LIMITS
) -> pd.DataFrame:
    """The paper's Table 1: one row per parser, columns ``(limit, FLR|FLP|F1)`` in percent.

    Uniform α; scored from each result's counts, which must have been made
    without a smaller size limit.
    """
    import pandas as pd

    data: dict[tuple[str, str], list[float]] = {}
    for limit in limits:
        for metric in ("FLR", "FLP", "F1"):
            data[(limit_name(limit), metric)] = []
    for result in results.values():
        for limit in limits:
            sc = result.rescore(limit)
            data[(limit_name(limit), "FLR")].append(100 * sc.flr)
            data[(limit_name(limit), "FLP")].append(100 * sc.flp)
            data[(limit_name(limit), "F1")].append(100 * sc.f1)
    frame = pd.DataFrame(data, index=pd.Index(list(results), name="parser"))
    frame.columns = pd.MultiIndex.from_tuples(list(data), names=["sizes", "metric"])
    return frame
