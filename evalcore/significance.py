"""Pairwise significance over per-sentence counts (docs/tedeval.md, "The cross-scheme experiment and
significance" and "The numbers in the table").

* Approximate randomization (Cohen 1995, the papers' "shuffling test") and the paired bootstrap
  (Berg-Kirkpatrick et al. 2012) of two systems' ratio metrics ``Σx / Σn`` (a ``(x, n)`` pair per
  sentence), both with ``p = (r + 1) / (N + 1)``;
* bootstrap percentile intervals (Efron & Tibshirani 1993, ch. 13).

Both generalize to any metric that is a function of summed counts (:func:`bootstrap_intervals`,
:func:`randomization_tests`: a *scorer* maps summed rows to the metric values), so a score is
resampled from its counts, never from per-sentence scores.  The seed is a parameter; trials run in
vectorized chunks of bounded memory, and every test with a given seed draws the same numbers, so
:func:`pairwise_significance` runs many pairs on one stream of draws for the cost of one test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

from evalcore.resampling_settings import check_seed

if TYPE_CHECKING:  # numpy is imported when a test runs, not when the CLI starts
    import numpy as np

__all__ = [
    "CountRows",
    "Interval",
    "Scorer",
    "SignificanceResult",
    "approximate_randomization",
    "bootstrap_interval",
    "bootstrap_intervals",
    "bootstrap_ratio_intervals",
    "check_seed",
    "paired_bootstrap",
    "pairwise_significance",
    "randomization_tests",
    "significance",
]

Method = Literal["ar", "bootstrap"]
CountRows: TypeAlias = "np.ndarray | Sequence[Sequence[float]]"
"""Per-sentence counts: one row per sentence, one column per count field."""
Scorer: TypeAlias = "Callable[[np.ndarray], np.ndarray]"
"""Summed counts, one row per trial (k × fields) → metric values (k × metrics); vectorized."""
_CHUNK = 2000  # trials per vectorized chunk ...
_CELLS = 2_000_000  # ... and at most this many trial x sentence cells (about 16 MB a matrix)


def _generator(seed: int) -> np.random.Generator:
    import numpy as np

    check_seed(seed)
    return np.random.default_rng(seed)


def _chunk(trials_left: int, sentences: int) -> int:
    """Trials in the next chunk: memory stays bounded however many sentences there are.

    Drawing the same random numbers in smaller chunks gives the same stream, so the p-values do
    not depend on the chunk size (tested).
    """
    return max(1, min(_CHUNK, trials_left, _CELLS // max(1, sentences)))


@dataclass(frozen=True, slots=True)
class SignificanceResult:
    p_value: float
    observed: float
    trials: int
    method: Method
    seed: int

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05


def _ratio(x: np.ndarray, n: np.ndarray, empty: float = 0.0) -> np.ndarray:
    """``x / n`` element-wise, ``empty`` where ``n`` is 0 (as :func:`evalcore.metrics.base.ratio`)."""
    import numpy as np

    out: np.ndarray = np.divide(x, n, out=np.full(np.broadcast(x, n).shape, empty), where=n != 0)
    return out


def _resample_counts(rng: np.random.Generator, k: int, m: int) -> np.ndarray:
    """``k`` bootstrap samples of ``m`` sentences: how often each sentence was drawn (k x m)."""
    import numpy as np

    idx = rng.integers(0, m, size=(k, m))
    counts = np.zeros((k, m))
    np.add.at(counts, (np.repeat(np.arange(k), m), idx.ravel()), 1.0)
    return counts


def _ratio_scorer(sums: np.ndarray) -> np.ndarray:
    """Columns ``(x, n)`` → ``x / n`` (0 where ``n`` is 0): the ratio metrics' scorer."""
    return _ratio(sums[:, 0:1], sums[:, 1:2])


def _rows(values: Sequence[Sequence[float]], width: int) -> np.ndarray:
    import numpy as np

    return np.array(values, dtype=np.float64).reshape(len(values), width)


def approximate_randomization(
    a: Sequence[tuple[float, float]],
    b: Sequence[tuple[float, float]],
    *,
    shuffles: int = 10_000,
    seed: int = 12345,
) -> SignificanceResult:
    """Two-sided approximate-randomization test of ``|Σxa/Σna − Σxb/Σnb|``."""
    (result,) = randomization_tests(_rows(a, 2), _rows(b, 2), _ratio_scorer, shuffles=shuffles, seed=seed)
    return result


def randomization_tests(
    a: CountRows,
    b: CountRows,
    scorer: Scorer,
    *,
    shuffles: int = 10_000,
    seed: int = 12345,
) -> tuple[SignificanceResult, ...]:
    """Approximate randomization for every metric ``scorer`` computes from summed counts.

    ``a`` and ``b`` hold the two systems' per-sentence counts (same sentences, same fields).  In
    each shuffle every sentence's two rows are swapped with probability ½ (the same swaps for
    all metrics); the statistic of a metric is the absolute difference of the two systems'
    values; ``p = (r + 1) / (N + 1)`` (docs/tedeval.md, "The cross-scheme experiment and significance"), one
    result per metric column.
    """
    import numpy as np

    ma, mb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if ma.shape[0] != mb.shape[0]:
        raise ValueError(f"paired test needs equal sentence counts ({ma.shape[0]} vs {mb.shape[0]})")
    if ma.shape != mb.shape:
        raise ValueError(f"paired test needs the same count fields ({ma.shape[1:]} vs {mb.shape[1:]})")
    m = ma.shape[0]
    sum_a, sum_b = ma.sum(axis=0), mb.sum(axis=0)
    observed = np.abs(scorer(sum_a[None, :]) - scorer(sum_b[None, :]))[0]
    rng = _generator(seed)
    delta = mb - ma
    hits = np.zeros(observed.shape[0], dtype=np.int64)
    done = 0
    eps = 1e-12
    while done < shuffles:
        k = _chunk(shuffles - done, m)
        swap = (rng.random((k, m)) < 0.5).astype(np.float64)
        moved = swap @ delta
        diff = np.abs(scorer(sum_a + moved) - scorer(sum_b - moved))
        hits += np.count_nonzero(diff >= observed - eps, axis=0)
        done += k
    return tuple(
        SignificanceResult((int(h) + 1) / (shuffles + 1), float(o), shuffles, "ar", seed)
        for h, o in zip(hits, observed, strict=True)
    )


def paired_bootstrap(
    a: Sequence[tuple[float, float]],
    b: Sequence[tuple[float, float]],
    *,
    samples: int = 10_000,
    seed: int = 12345,
) -> SignificanceResult:
    """Paired bootstrap: how often a resample's difference reaches twice the observed one
    (:func:`pairwise_significance`'s test of the one pair)."""
    if len(a) != len(b):
        raise ValueError(f"paired test needs equal sentence counts ({len(a)} vs {len(b)})")
    (result,) = pairwise_significance([a, b], [(0, 1)], method="bootstrap", trials=samples, seed=seed)
    return result


def significance(
    a: Sequence[tuple[float, float]],
    b: Sequence[tuple[float, float]],
    *,
    method: Method = "ar",
    trials: int = 10_000,
    seed: int = 12345,
) -> SignificanceResult:
    if method == "bootstrap":
        return paired_bootstrap(a, b, samples=trials, seed=seed)
    return approximate_randomization(a, b, shuffles=trials, seed=seed)


def pairwise_significance(
    samples: Sequence[Sequence[tuple[float, float]]],
    pairs: Sequence[tuple[int, int]],
    *,
    method: Method = "ar",
    trials: int = 10_000,
    seed: int = 12345,
) -> list[SignificanceResult]:
    """``significance(samples[a], samples[b], ...)`` for every ``(a, b)`` in ``pairs``, in order.

    Every sample has the same sentences.  Each test seeds its generator with ``seed``, so all
    of them swap (or resample) the same sentences in the same trials: the random numbers are
    drawn once per chunk and every pair is scored on them -- the same p-values as the tests run
    one by one (tested), for the price of one.  Pairs are scored in blocks, so memory stays
    bounded whatever the number of sentences and pairs.
    """
    import numpy as np

    if not pairs:
        return []
    lengths = {len(s) for s in samples}
    if len(lengths) > 1:
        raise ValueError(f"paired test needs equal sentence counts ({sorted(lengths)})")
    m = lengths.pop()
    x = np.array([[a for a, _ in s] for s in samples], dtype=np.float64).reshape(len(samples), m)
    n = np.array([[b for _, b in s] for s in samples], dtype=np.float64).reshape(len(samples), m)
    rep = _first_equal(x, n)
    unique: dict[tuple[int, int], int] = {}
    which = [unique.setdefault((rep[a], rep[b]), len(unique)) for a, b in pairs]
    tested = _pairwise(x, n, list(unique), method, trials, seed)
    return [tested[w] for w in which]


def _first_equal(x: np.ndarray, n: np.ndarray) -> list[int]:
    """For each sample (row of ``x`` and ``n``), the first sample equal to it bit for bit.

    Equal samples give equal tests, so each distinct ordered pair of distinct samples is tested
    once, on the same draws: a cell repeated over many parses costs one test.  Rows are told
    apart by a digest, and a match is confirmed on the bits (memory: a digest per sample)."""
    import hashlib

    import numpy as np

    seen: dict[bytes, list[int]] = {}
    rep: list[int] = []
    for i in range(x.shape[0]):
        bits = (x[i].view(np.uint64), n[i].view(np.uint64))
        digest = hashlib.blake2b(bits[0].tobytes() + bits[1].tobytes(), digest_size=16).digest()
        same = seen.setdefault(digest, [])
        match = next(
            (
                j
                for j in same
                if np.array_equal(x[j].view(np.uint64), bits[0])
                and np.array_equal(n[j].view(np.uint64), bits[1])
            ),
            None,
        )
        if match is None:
            same.append(i)
        rep.append(i if match is None else match)
    return rep


def _pairwise(
    x: np.ndarray, n: np.ndarray, pairs: list[tuple[int, int]], method: Method, trials: int, seed: int
) -> list[SignificanceResult]:
    """:func:`pairwise_significance` of ``pairs`` (indices of rows of ``x`` and ``n``, the samples'
    ``x`` and ``n`` per sentence)."""
    import numpy as np

    m = x.shape[1]
    ia = np.array([a for a, _ in pairs])
    ib = np.array([b for _, b in pairs])
    # pairs per block: a block's matrices (pairs x sentences, trials x pairs) hold at most _CELLS
    # cells each, so memory grows with neither the sentences nor the pairs
    block = max(1, _CELLS // max(1, m, _chunk(trials, m)))
    sx, sn = x.sum(axis=1), n.sum(axis=1)  # each sample's sums (indexed by pair below, not copied)
    hits = np.zeros(len(pairs), dtype=np.int64)
    rng = _generator(seed)
    if method == "bootstrap":
        ratio_a = _ratio(sx[ia], sn[ia])
        ratio_b = _ratio(sx[ib], sn[ib])
        observed = ratio_a - ratio_b
        sign = np.where(observed >= 0, 1.0, -1.0)
        done = 0
        while done < trials and m:
            k = _chunk(trials - done, m)
            counts = _resample_counts(rng, k, m)
            for lo in range(0, len(pairs), block):
                a, b = ia[lo : lo + block], ib[lo : lo + block]
                diff = _ratio(counts @ x[a].T, counts @ n[a].T) - _ratio(counts @ x[b].T, counts @ n[b].T)
                hits[lo : lo + block] += np.count_nonzero(
                    sign[lo : lo + block] * diff >= 2 * np.abs(observed[lo : lo + block]), axis=0
                )
            done += k
        return [
            SignificanceResult((int(h) + 1) / (trials + 1), float(abs(o)), trials, "bootstrap", seed)
            for h, o in zip(hits, observed, strict=True)
        ]
    base = np.stack([sx[ia], sn[ia], sx[ib], sn[ib]])
    observed = np.abs(_ratio(base[0], base[1]) - _ratio(base[2], base[3]))
    eps = 1e-12
    done = 0
    while done < trials:
        k = _chunk(trials - done, m)
        sw = (rng.random((k, m)) < 0.5).astype(np.float64)
        for lo in range(0, len(pairs), block):
            a, b = ia[lo : lo + block], ib[lo : lo + block]
            gx, gn = sw @ (x[b] - x[a]).T, sw @ (n[b] - n[a]).T
            bb = base[:, lo : lo + block]
            s_a = _ratio(bb[0] + gx, bb[1] + gn)
            s_b = _ratio(bb[2] - gx, bb[3] - gn)
            hits[lo : lo + block] += np.count_nonzero(
                np.abs(s_a - s_b) >= observed[lo : lo + block] - eps, axis=0
            )
        done += k
    return [
        SignificanceResult((int(h) + 1) / (trials + 1), float(o), trials, "ar", seed)
        for h, o in zip(hits, observed, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class Interval:
    """A bootstrap percentile interval of a ratio metric ``Σx / Σn`` over sentences."""

    point: float
    low: float
    high: float
    level: float
    samples: int
    seed: int


def bootstrap_interval(
    pairs: Sequence[tuple[float, float]],
    *,
    samples: int = 1000,
    level: float = 0.95,
    seed: int = 12345,
) -> Interval:
    """Percentile interval of ``Σx/Σn`` from ``samples`` resamples of the sentences (seeded)."""
    (interval,) = bootstrap_intervals(_rows(pairs, 2), _ratio_scorer, samples=samples, level=level, seed=seed)
    return interval


def bootstrap_ratio_intervals(
    ratios: Sequence[Sequence[tuple[float, float]]],
    *,
    samples: int = 1000,
    level: float = 0.95,
    seed: int = 12345,
) -> tuple[Interval, ...]:
    """:func:`bootstrap_interval` of several ratios over the same sentences (``ratios[j]``: the
    per-sentence ``(x, n)`` of ratio ``j``) from one stream of draws: each interval is the one
    :func:`bootstrap_interval` gives for that ratio alone (the draws depend only on the sentences'
    number, the seed and ``samples``), for the price of one."""
    import numpy as np

    if not ratios:
        return ()
    rows = np.asarray(ratios, dtype=np.float64).reshape(len(ratios), -1, 2)
    flat = rows.transpose(1, 0, 2).reshape(rows.shape[1], 2 * len(ratios))  # sentence × (x, n) per ratio

    def scorer(sums: np.ndarray) -> np.ndarray:
        return _ratio(sums[:, 0::2], sums[:, 1::2])

    return bootstrap_intervals(flat, scorer, samples=samples, level=level, seed=seed)


def bootstrap_intervals(
    counts: CountRows,
    scorer: Scorer,
    *,
    samples: int = 1000,
    level: float = 0.95,
    seed: int = 12345,
) -> tuple[Interval, ...]:
    """Percentile intervals of every metric ``scorer`` computes from summed per-sentence counts.

    Each of ``samples`` resamples draws the sentences (rows of ``counts``) with replacement, sums
    their counts and scores the sums (Efron & Tibshirani 1993, ch. 13); the interval of a metric
    is the ``(1 − level)/2`` and ``(1 + level)/2`` quantiles of its values.  The point estimate is
    the score of all sentences' sums.  One seeded stream of draws serves every metric, in chunks
    of bounded size.
    """
    import numpy as np

    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    rows = np.asarray(counts, dtype=np.float64)
    m = rows.shape[0]
    point = scorer(rows.sum(axis=0)[None, :])[0]
    if not m or samples < 1:
        return tuple(Interval(float(p), float(p), float(p), level, samples, seed) for p in point)
    rng = _generator(seed)
    values = np.empty((samples, point.shape[0]))
    done = 0
    while done < samples:
        k = _chunk(samples - done, m)
        values[done : done + k] = scorer(_resample_counts(rng, k, m) @ rows)
        done += k
    low, high = np.quantile(values, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return tuple(
        Interval(float(p), float(lo), float(hi), level, samples, seed)
        for p, lo, hi in zip(point, low, high, strict=True)
    )
