"""Bootstrap intervals and paired tests for every metric family, from per-sentence counts.

Every metric is counts-then-score (docs/architecture.md): each family here gets its rows of count
fields per sentence and a vectorized *scorer* of summed rows, so that
:func:`evalcore.significance.bootstrap_intervals` and :func:`evalcore.significance.randomization_tests`
(docs/tedeval.md, "The numbers in the table") resample the counts, never the sentence scores: each
resample's score is what :func:`score` computes on the whole corpus (tested).  Families: attachment
(docs/attachment.md, "The five numbers"), the CoNLL 2018 scorer's rows, FREVAL per size
(docs/freval.md, "Scores per size") and ratio cells of TedEval / SEGEVAL (``(x, n)`` pairs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from evalcore.resampling_settings import BootstrapSettings, PairedTestSettings, with_settings
from evalcore.significance import (
    Interval,
    Scorer,
    SignificanceResult,
    _ratio,
    _ratio_scorer,
    _rows,
    bootstrap_intervals,
    randomization_tests,
)

if TYPE_CHECKING:  # numpy when a table is built; the metric modules only as types (kept out of start-up)
    import numpy as np

    from evalcore.metrics.attachment import AttachCounts
    from evalcore.metrics.conll18 import Conll18Counts
    from evalcore.metrics.freval import FrevalConfig, FrevalCounts
    from evalcore.metrics.joint import SentenceJoint
    from evalcore.metrics.lattice_tedeval import SentenceLatticeTed

__all__ = [
    "ATTACH_METRICS",
    "LATTICE_METRICS",
    "BootstrapSettings",
    "CountTable",
    "Intervals",
    "PairedComparison",
    "PairedTestSettings",
    "RatioKind",
    "attach_pair_tables",
    "attach_table",
    "cells_table",
    "compare",
    "conll18_names",
    "conll18_table",
    "freval_limit",
    "freval_names",
    "freval_table",
    "intervals",
    "lattice_row",
    "lattice_table",
    "paired_tests",
    "ratio_table",
    "with_settings",
]

ATTACH_METRICS = ("uas", "las", "label", "undirected", "ned")
"""The attachment scores, in :class:`AttachCounts` field order after ``tokens``."""


@dataclass(frozen=True, eq=False)
class CountTable:
    """Per-sentence counts of one system (``rows``: sentences × fields), the metric names and the
    scorer mapping summed rows (k × fields) to the metrics (k × ``len(names)``)."""

    names: tuple[str, ...]
    rows: np.ndarray
    scorer: Scorer


# ---------------------------------------------------------------------------- attachment


def _attach_scorer(sums: np.ndarray) -> np.ndarray:
    return _ratio(sums[:, 1:], sums[:, 0:1])


def attach_table(per_sentence: Sequence[AttachCounts]) -> CountTable:
    """Attachment counts of the scored sentences (skipped and length-excluded ones are left out:
    they have no tokens); the scorer gives UAS, LAS, label, undirected and NED (docs/attachment.md, "The five
    numbers")."""
    return _attach_rows([c for c in per_sentence if not c.skipped and not c.excluded])


def _attach_rows(counts: Sequence[AttachCounts]) -> CountTable:
    rows = [(c.tokens, c.uas, c.las, c.label, c.undirected, c.ned) for c in counts]
    return CountTable(ATTACH_METRICS, _rows(rows, 6), _attach_scorer)


def attach_pair_tables(a: Sequence[AttachCounts], b: Sequence[AttachCounts]) -> tuple[CountTable, CountTable]:
    """Two systems' attachment rows over the same gold sentences, every sentence kept (a sentence
    one system skipped has zero counts there), so that the rows stay paired."""
    if len(a) != len(b):
        raise ValueError(f"paired test needs equal sentence counts ({len(a)} vs {len(b)})")
    return _attach_rows(a), _attach_rows(b)


# ---------------------------------------------------------------------------- CoNLL 2018


def _c18_fields() -> tuple[str, ...]:
    from evalcore.metrics.conll18 import Conll18Counts

    return tuple(Conll18Counts.__dataclass_fields__)


def _c18_columns() -> tuple[tuple[str, int, int, int, int | None], ...]:
    """(metric, correct, gold, system, aligned) field indices per row of the scorer's table
    (:func:`evalcore.metrics.conll18.score`)."""
    from evalcore.metrics.conll18 import METRICS as CONLL18_METRICS

    at = {name: i for i, name in enumerate(_c18_fields())}
    totals: dict[str, tuple[str, str, str, str | None]] = {
        "Tokens": ("tokens_correct", "tokens_gold", "tokens_system", None),
        "Sentences": ("sentences_correct", "sentences_gold", "sentences_system", None),
        "Words": ("words_aligned", "words_gold", "words_system", None),
    }
    word_fields = ("upos", "xpos", "ufeats", "alltags", "lemmas", "uas", "las")
    for m, f in zip(CONLL18_METRICS[3:10], word_fields, strict=True):
        totals[m] = (f, "words_gold", "words_system", "words_aligned")
    for m, f in zip(CONLL18_METRICS[10:], ("clas", "mlas", "blex"), strict=True):
        totals[m] = (f, "content_gold", "content_system", "content_aligned")
    out = []
    for m in CONLL18_METRICS:
        c, g, s, a = totals[m]
        out.append((m, at[c], at[g], at[s], None if a is None else at[a]))
    return tuple(out)


def conll18_names() -> tuple[str, ...]:
    """``METRIC f1`` for every row, and ``METRIC aligned_accuracy`` where the scorer prints one."""
    return tuple(
        name
        for m, _c, _g, _s, a in _c18_columns()
        for name in ((f"{m} f1", f"{m} aligned_accuracy") if a is not None else (f"{m} f1",))
    )


def _conll18_scorer(sums: np.ndarray) -> np.ndarray:
    import numpy as np

    cols = []
    for _m, c, g, s, a in _c18_columns():
        cols.append(_ratio(2 * sums[:, c], sums[:, g] + sums[:, s]))
        if a is not None:
            cols.append(_ratio(sums[:, c], sums[:, a]))
    return np.stack(cols, axis=1)


def conll18_table(units: Sequence[Conll18Counts]) -> CountTable:
    """The aligned path's counts per gold sentence (``evaluate_conll18(..., per_sentence=True)``;
    they add up to the document's counts); the scorer gives each row's F1 and aligned accuracy."""
    fields = _c18_fields()
    rows = [tuple(getattr(u, f) for f in fields) for u in units]
    return CountTable(conll18_names(), _rows(rows, len(fields)), _conll18_scorer)


# ---------------------------------------------------------------------------- FREVAL


def freval_names(limit: int) -> tuple[str, ...]:
    """``recall_s``, ``precision_s``, ``f1_s`` for sizes 1..``limit``, then ``flr``, ``flp``, ``f1``."""
    per_size = tuple(f"{m}_{s}" for s in range(1, limit + 1) for m in ("recall", "precision", "f1"))
    return (*per_size, "flr", "flp", "f1")


def _f1(r: np.ndarray, p: np.ndarray) -> np.ndarray:
    return _ratio(2 * r * p, r + p)


def _freval_scorer(limit: int, config: FrevalConfig) -> Scorer:
    """FREVAL's :func:`evalcore.metrics.freval.score` on summed rows ``matched | gold | test``
    (``limit`` columns each).  Unlimited and uniform, L is the largest gold tree of the resample:
    a tree of b brackets is the one gold fragment of size b, so L is the largest size with gold
    fragments and the weights are ``1/L`` over 1..L."""
    import numpy as np

    alpha = config.alpha

    def scorer(sums: np.ndarray) -> np.ndarray:
        matched, gold, test = sums[:, :limit], sums[:, limit : 2 * limit], sums[:, 2 * limit :]
        recall, precision = _ratio(matched, gold), _ratio(matched, test)
        f1 = _f1(recall, precision)
        if alpha is not None:
            weights = np.zeros((1, limit))
            n = min(limit, len(alpha))
            weights[0, :n] = alpha[:n]
        elif config.max_size is not None:  # 1/L each, also past the largest tree (see freval_limit)
            weights = np.full((1, limit), 1.0 / config.max_size) if limit else np.zeros((1, 0))
        else:
            present = gold > 0
            largest = np.where(present.any(axis=1), limit - np.argmax(present[:, ::-1], axis=1), 0)
            weights = _ratio(np.ones((1, limit)), largest[:, None].astype(np.float64))
            weights = np.where(np.arange(1, limit + 1)[None, :] <= largest[:, None], weights, 0.0)
        flr = (weights * recall).sum(axis=1)
        flp = (weights * precision).sum(axis=1)
        per_size = np.stack([recall, precision, f1], axis=2).reshape(len(sums), 3 * limit)
        return np.concatenate([per_size, np.stack([flr, flp, _f1(flr, flp)], axis=1)], axis=1)

    return scorer


def freval_limit(per_sentence: Sequence[FrevalCounts], config: FrevalConfig) -> int:
    """The number of sizes scored: the size limit, or the largest gold tree (and α's length);
    a size limit far past the largest tree of either file stops there
    (:func:`evalcore.metrics.freval.listed_sizes`: no tree has the sizes above, they are 0 in
    every resample, and weigh ``1/L`` in the scorer all the same)."""
    if config.max_size is not None:
        from evalcore.metrics.freval import listed_sizes

        largest = max((max(len(c.gold), len(c.test), len(c.matched)) for c in per_sentence), default=0)
        return listed_sizes(config.max_size, largest)
    largest = max((c.largest_gold for c in per_sentence), default=0)
    return max(largest, len(config.alpha or ()))


def freval_table(per_sentence: Sequence[FrevalCounts], config: FrevalConfig, limit: int) -> CountTable:
    """FREVAL counts per sentence (``matched``, ``gold``, ``test`` for sizes 1..``limit``); error,
    skipped and length-excluded sentences have zero rows.  The scorer gives LR_s, LP_s, F1_s per
    size and FLR, FLP, F1 (docs/freval.md, "FLR, FLP and F1")."""

    def pad(v: Sequence[int]) -> list[float]:
        return [float(x) for x in v[:limit]] + [0.0] * max(0, limit - len(v))

    rows = [pad(c.matched) + pad(c.gold) + pad(c.test) for c in per_sentence]
    return CountTable(freval_names(limit), _rows(rows, 3 * limit), _freval_scorer(limit, config))


# ---------------------------------------------------------------------------- ratio cells

RatioKind = Literal["ratio", "ted"]


def _ted_scorer(sums: np.ndarray) -> np.ndarray:
    return 1.0 - _ratio(sums[:, 0:1], sums[:, 1:2])


def ratio_table(name: str, pairs: Sequence[tuple[float, float]], kind: RatioKind = "ratio") -> CountTable:
    """One score of per-sentence ``(x, n)`` pairs: ``Σx / Σn`` (attachment, a sentence average's
    ``(score, 1)``, SEGEVAL's) or, ``ted``, ``1 − Σδ / Σnorm`` (TedEval, docs/tedeval.md, "Edit scripts,
    discount and score"; 1 if empty)."""
    return CountTable((name,), _rows(pairs, 2), _ted_scorer if kind == "ted" else _ratio_scorer)


def cells_table(
    names: Sequence[str], cells: Sequence[Sequence[tuple[float, float]]], kinds: Sequence[RatioKind]
) -> CountTable:
    """Several ratio scores over the same sentences in one table (each cell's ``(x, n)`` pairs two
    columns), so that one stream of resamples gives all their intervals: the cells of the TedEval
    experiment (UAS/LAS ``Σx/Σn``; TedEval ``1 − Σδ/Σnorm``; a sentence average ``(score, 1)``)."""
    import numpy as np

    m = len(cells[0]) if cells else 0
    if any(len(c) != m for c in cells):
        raise ValueError("every cell needs the same sentences")
    rows = np.zeros((m, 2 * len(cells)))
    for j, pairs in enumerate(cells):
        rows[:, 2 * j : 2 * j + 2] = _rows(pairs, 2)
    ted = np.array([k == "ted" for k in kinds])

    def scorer(sums: np.ndarray) -> np.ndarray:
        x, n = sums[:, 0::2], sums[:, 1::2]
        return np.where(ted[None, :], 1.0 - _ratio(x, n), _ratio(x, n))

    return CountTable(tuple(names), rows, scorer)


LATTICE_METRICS = (
    "SEGEVAL U",
    "SEGEVAL L",
    "TEDEVAL U",
    "TEDEVAL L",
    "tok.acc U",
    "tok.acc L",
    "classic U",
    "classic L",
)
"""The scenario table's columns that get intervals (``classic``: attachment over the gold segmentation)."""


def lattice_row(sentence: SentenceJoint, average: bool) -> tuple[tuple[float, float], ...]:
    """One sentence of ``evalcore lattice`` as the ``(x, n)`` pairs of :data:`LATTICE_METRICS`:
    SEGEVAL ``(d, Σ|p|+|g|)``, TedEval ``(distance, norm)`` (``(score, 1)`` averaged by sentence;
    ``(0, 0)`` for a sentence without trees, as the sums leave it out), token accuracy
    ``(exact, tokens)``, attachment ``(correct, tokens)`` (docs/lattice.md, "SEGEVAL and token accuracy")."""
    seg, tu, tl, att = sentence.seg, sentence.ted_unlabeled, sentence.ted_labeled, sentence.attach

    def ted(t: SentenceLatticeTed | None) -> tuple[float, float]:
        if t is None or tu is None or tl is None:
            return (0.0, 0.0)
        return (t.score, 1.0) if average else (float(t.distance), float(t.norm))

    return (
        (seg.d_unlabeled, seg.norm),
        (seg.d_labeled, seg.norm),
        ted(tu),
        ted(tl),
        (seg.exact_unlabeled, seg.gold_tokens),
        (seg.exact_labeled, seg.gold_tokens),
        (att.uas, att.tokens) if att is not None else (0, 0),
        (att.las, att.tokens) if att is not None else (0, 0),
    )


def lattice_table(rows: Sequence[tuple[tuple[float, float], ...]], average: bool) -> CountTable:
    """The sentences' :func:`lattice_row` pairs as one table of eight ratio scores."""
    ted: RatioKind = "ratio" if average else "ted"
    kinds: tuple[RatioKind, ...] = ("ted", "ted", ted, ted, "ratio", "ratio", "ratio", "ratio")
    columns = [[r[j] for r in rows] for j in range(len(LATTICE_METRICS))]
    return cells_table(LATTICE_METRICS, columns, kinds)


# ---------------------------------------------------------------------------- running


@dataclass(frozen=True, slots=True)
class Intervals:
    """One bootstrap interval per metric name, and the settings that made them."""

    names: tuple[str, ...]
    values: tuple[Interval, ...]
    settings: BootstrapSettings

    def get(self, name: str) -> Interval:
        return self.values[self.names.index(name)]


def intervals(table: CountTable, settings: BootstrapSettings) -> Intervals:
    """One percentile interval per metric of ``table`` (:func:`bootstrap_intervals`)."""
    values = bootstrap_intervals(
        table.rows, table.scorer, samples=settings.samples, level=settings.level, seed=settings.seed
    )
    return Intervals(table.names, values, settings)


def paired_tests(
    a: CountTable, b: CountTable, settings: PairedTestSettings
) -> tuple[SignificanceResult, ...]:
    """Approximate randomization of every metric between two systems' tables (same sentences)."""
    if a.names != b.names:
        raise ValueError(f"paired test needs the same metrics ({a.names} vs {b.names})")
    return randomization_tests(a.rows, b.rows, a.scorer, shuffles=settings.shuffles, seed=settings.seed)


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """Two systems on one gold: each metric's two corpus values, the approximate-randomization
    test of their difference, and (with ``--bootstrap``) each system's intervals."""

    names: tuple[str, ...]
    a: tuple[float, ...]
    b: tuple[float, ...]
    tests: tuple[SignificanceResult, ...]
    settings: PairedTestSettings
    intervals_a: Intervals | None = None
    intervals_b: Intervals | None = None

    def sign(self, signature: str) -> str:
        """``signature`` with the test's settings and, if any, the bootstrap's."""
        signed = self.settings.sign(signature)
        if self.intervals_a is not None:
            signed = with_settings(signed, self.intervals_a.settings.items()[:2])  # its seed is the test's
        return signed


def compare(
    a: CountTable, b: CountTable, settings: PairedTestSettings, bootstrap: BootstrapSettings | None = None
) -> PairedComparison:
    """Both systems' scores, the paired test per metric and, with ``bootstrap``, their intervals."""
    tests = paired_tests(a, b, settings)
    va = a.scorer(a.rows.sum(axis=0)[None, :])[0]
    vb = b.scorer(b.rows.sum(axis=0)[None, :])[0]
    return PairedComparison(
        a.names,
        tuple(float(v) for v in va),
        tuple(float(v) for v in vb),
        tests,
        settings,
        None if bootstrap is None else intervals(a, bootstrap),
        None if bootstrap is None else intervals(b, bootstrap),
    )
