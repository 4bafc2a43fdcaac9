"""Pairwise significance over per-sentence counts (SPEC §5.4).

Both tests work on *ratio metrics*: each sentence contributes a pair
``(x, n)`` per system (errors and normalizer for TedEval, correct tokens and
tokens for attachment scores, ``(score, 1)`` for a sentence average); the
corpus value is ``Σx / Σn`` and the statistic is the absolute difference of
the two systems' corpus values.

* Approximate randomization (Cohen 1995, the papers' "shuffling test"): in
  each shuffle every sentence's two pairs are swapped with probability ½;
  ``p = (r + 1) / (N + 1)`` where r counts shuffles at least as extreme as the
  observed difference.
* Paired bootstrap (Berg-Kirkpatrick et al. 2012): resample sentences with
  replacement; ``p = (r + 1) / (N + 1)`` where r counts samples whose signed
  difference is at least twice the observed one.

The random seed is a parameter; shuffles run in vectorized chunks of bounded size
(memory does not grow with the number of sentences).  Every test with a given seed
draws the same random numbers, so :func:`pairwise_significance` runs many pairs
on one stream of draws: each pair's result is the one its own test gives, at the
cost of one test (the cross-scheme experiment's 100 pairs took 30 s one by one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # numpy is imported when a test runs, not when the CLI starts
    import numpy as np

__all__ = [
    "SignificanceResult",
    "approximate_randomization",
    "paired_bootstrap",
    "pairwise_significance",
    "significance",
]

Method = Literal["ar", "bootstrap"]
_CHUNK = 2000  # trials per vectorized chunk ...
_CELLS = 2_000_000  # ... and at most this many trial x sentence cells (about 16 MB a matrix)


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


def _arrays(
    a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    import numpy as np

    if len(a) != len(b):
        raise ValueError(f"paired test needs equal sentence counts ({len(a)} vs {len(b)})")
    xa = np.array([x for x, _ in a], dtype=np.float64)
    na = np.array([n for _, n in a], dtype=np.float64)
    xb = np.array([x for x, _ in b], dtype=np.float64)
    nb = np.array([n for _, n in b], dtype=np.float64)
    return xa, na, xb, nb


def _ratio(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    import numpy as np

    ratio: np.ndarray = np.divide(x, n, out=np.zeros_like(x), where=n != 0)
    return ratio


def _resample_counts(rng: np.random.Generator, k: int, m: int) -> np.ndarray:
    """``k`` bootstrap samples of ``m`` sentences: how often each sentence was drawn (k x m)."""
    import numpy as np

    idx = rng.integers(0, m, size=(k, m))
    counts = np.zeros((k, m))
    np.add.at(counts, (np.repeat(np.arange(k), m), idx.ravel()), 1.0)
    return counts


def approximate_randomization(
    a: Sequence[tuple[float, float]],
    b: Sequence[tuple[float, float]],
    *,
    shuffles: int = 10_000,
    seed: int = 12345,
) -> SignificanceResult:
    """Two-sided approximate-randomization test of ``|Σxa/Σna − Σxb/Σnb|``."""
    import numpy as np

    xa, na, xb, nb = _arrays(a, b)
    observed = float(
        abs(
            _ratio(np.array([xa.sum()]), np.array([na.sum()]))[0]
            - _ratio(np.array([xb.sum()]), np.array([nb.sum()]))[0]
        )
    )
    rng = np.random.default_rng(seed)
    dx, dn = xb - xa, nb - na
    base = np.array([xa.sum(), na.sum(), xb.sum(), nb.sum()])
    hits = 0
    done = 0
    eps = 1e-12
    while done < shuffles:
        k = _chunk(shuffles - done, len(xa))
        swap = rng.random((k, len(xa))) < 0.5
        sw = swap.astype(np.float64)
        gx, gn = sw @ dx, sw @ dn
        s_a = _ratio(base[0] + gx, base[1] + gn)
        s_b = _ratio(base[2] - gx, base[3] - gn)
        hits += int(np.count_nonzero(np.abs(s_a - s_b) >= observed - eps))
        done += k
    return SignificanceResult((hits + 1) / (shuffles + 1), observed, shuffles, "ar", seed)


def paired_bootstrap(
    a: Sequence[tuple[float, float]],
    b: Sequence[tuple[float, float]],
    *,
    samples: int = 10_000,
    seed: int = 12345,
) -> SignificanceResult:
    """Paired bootstrap: how often a resample's difference reaches twice the observed one."""
    import numpy as np

    xa, na, xb, nb = _arrays(a, b)
    ra = xa.sum() / na.sum() if na.sum() else 0.0
    rb = xb.sum() / nb.sum() if nb.sum() else 0.0
    observed = float(ra - rb)
    sign = 1.0 if observed >= 0 else -1.0
    rng = np.random.default_rng(seed)
    m = len(xa)
    hits = 0
    done = 0
    while done < samples and m:
        k = _chunk(samples - done, m)
        counts = _resample_counts(rng, k, m)
        diff = _ratio(counts @ xa, counts @ na) - _ratio(counts @ xb, counts @ nb)
        hits += int(np.count_nonzero(sign * diff >= 2 * abs(observed)))
        done += k
    return SignificanceResult((hits + 1) / (samples + 1), abs(observed), samples, "bootstrap", seed)


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
    ia = np.array([a for a, _ in pairs])
    ib = np.array([b for _, b in pairs])
    block = max(1, _CELLS // max(1, m))  # pairs per block: a block's matrices hold at most _CELLS cells
    hits = np.zeros(len(pairs), dtype=np.int64)
    rng = np.random.default_rng(seed)
    if method == "bootstrap":
        ratio_a = _ratio(x[ia].sum(axis=1), n[ia].sum(axis=1))
        ratio_b = _ratio(x[ib].sum(axis=1), n[ib].sum(axis=1))
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
    base = np.stack([x[ia].sum(axis=1), n[ia].sum(axis=1), x[ib].sum(axis=1), n[ib].sum(axis=1)])
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
