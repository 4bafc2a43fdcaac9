"""Approximate randomization and paired bootstrap (docs/tedeval.md, "The cross-scheme experiment and
significance"), checked against an exact permutation test."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalcore.significance import (
    approximate_randomization,
    bootstrap_interval,
    paired_bootstrap,
    significance,
)


def _exact_p(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> float:
    """All 2^n swap patterns: the distribution AR samples from."""

    def stat(xa: float, na: float, xb: float, nb: float) -> float:
        return abs(xa / na - xb / nb)

    obs = stat(sum(x for x, _ in a), sum(n for _, n in a), sum(x for x, _ in b), sum(n for _, n in b))
    hits = total = 0
    for swaps in itertools.product((False, True), repeat=len(a)):
        pa = [bb if s else aa for aa, bb, s in zip(a, b, swaps, strict=True)]
        pb = [aa if s else bb for aa, bb, s in zip(a, b, swaps, strict=True)]
        v = stat(sum(x for x, _ in pa), sum(n for _, n in pa), sum(x for x, _ in pb), sum(n for _, n in pb))
        hits += v >= obs - 1e-12
        total += 1
    return hits / total


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ar_matches_exact_permutation_test(seed: int) -> None:
    rng = random.Random(seed)
    a = [(rng.randint(0, 6), rng.randint(6, 12)) for _ in range(10)]
    b = [(max(0, x + rng.choice([-1, 0, 1, 2])), n) for x, n in a]
    exact = _exact_p(a, b)
    estimate = approximate_randomization(a, b, shuffles=20_000, seed=seed).p_value
    assert estimate == pytest.approx(exact, abs=0.015)


def test_identical_systems_are_never_significant() -> None:
    a = [(3, 10), (1, 7), (0, 4)]
    r = approximate_randomization(a, a, shuffles=500)
    assert r.p_value == 1.0 and not r.significant and r.observed == 0.0
    assert paired_bootstrap(a, a, samples=500).p_value == 1.0


def test_clear_difference_is_significant_and_seeded() -> None:
    rng = random.Random(7)
    a = [(rng.randint(0, 3), 20) for _ in range(300)]
    b = [(x + 3, n) for x, n in a]
    r1 = approximate_randomization(a, b, shuffles=2000, seed=5)
    r2 = approximate_randomization(a, b, shuffles=2000, seed=5)
    assert r1 == r2  # the seed is a parameter: same seed, same answer
    assert r1.p_value == pytest.approx(1 / 2001)
    assert significance(a, b, method="bootstrap", trials=2000).significant


def test_unequal_lengths_rejected() -> None:
    with pytest.raises(ValueError, match="equal sentence counts"):
        approximate_randomization([(1, 2)], [(1, 2), (0, 1)])


Pairs = list[tuple[float, float]]


def _bootstrap_by_hand(a: Pairs, b: Pairs, trials: int, seed: int) -> float:
    """The paired bootstrap of Koehn (2004) / Berg-Kirkpatrick et al. (2012), written out in plain
    Python over numpy's stream of drawn sentence indices (the one thing it shares with evalcore):
    a resample counts when its difference reaches twice the observed one, in the observed sign."""
    import numpy as np

    def ratio(pairs: Pairs) -> float:
        n = sum(n for _, n in pairs)
        return sum(x for x, _ in pairs) / n if n else 0.0

    observed = ratio(a) - ratio(b)
    sign = 1.0 if observed >= 0 else -1.0
    draws = np.random.default_rng(seed).integers(0, len(a), size=(trials, len(a))).tolist()
    hits = 0
    for idx in draws:
        diff = ratio([a[i] for i in idx]) - ratio([b[i] for i in idx])
        hits += sign * diff >= 2 * abs(observed)
    return (hits + 1) / (trials + 1)


@pytest.mark.parametrize("seed", [0, 4, 12345])
def test_paired_bootstrap_equals_the_test_written_by_hand(seed: int) -> None:
    rng = random.Random(seed)
    a = [(float(rng.randint(0, 8)), float(rng.randint(8, 12))) for _ in range(40)]
    b = [(max(0.0, x + rng.choice([-1, 0, 0, 1])), n) for x, n in a]
    expected = _bootstrap_by_hand(a, b, 400, seed)
    assert 0.01 < expected < 0.99  # a difference near the threshold: most resamples decide
    assert paired_bootstrap(a, b, samples=400, seed=seed).p_value == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("method", ["ar", "bootstrap"])
@pytest.mark.parametrize("cells", [2_000_000, 7])  # 7: one pair per block, one trial per chunk
def test_pairwise_significance_equals_the_tests_one_by_one(
    method: str, cells: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many pairs on one stream of draws give each pair the p-value of its own test (same seed)."""
    import evalcore.significance as sig

    monkeypatch.setattr(sig, "_CELLS", cells)
    rng = random.Random(11)
    base = [(rng.randint(0, 6), rng.randint(6, 12)) for _ in range(7)]
    samples = [
        base,
        [(max(0, x + rng.choice([-1, 0, 1, 2])), n) for x, n in base],
        [(x + 2, n) for x, n in base],
        [(rng.random(), 1.0) for _ in base],  # sentence averages: (score, 1)
        base,
    ]
    pairs = [(a, b) for a in range(len(samples)) for b in range(a + 1, len(samples))]
    together = sig.pairwise_significance(samples, pairs, method=method, trials=300, seed=4)  # type: ignore[arg-type]
    alone = [
        significance(samples[a], samples[b], method=method, trials=300, seed=4)  # type: ignore[arg-type]
        for a, b in pairs
    ]
    assert together == alone
    assert sig.pairwise_significance(samples, [], trials=300) == []
    with pytest.raises(ValueError, match="equal sentence counts"):
        sig.pairwise_significance([base, base[:3]], [(0, 1)])


def _traced_peak(run: object) -> int:
    import tracemalloc

    tracemalloc.start()
    try:
        run()  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("method", ["ar", "bootstrap"])
def test_pairwise_memory_grows_with_neither_the_pairs_nor_the_trials(method: str) -> None:
    """All pairs of 100 and of 200 parses on one sentence (4,950 and 19,900 tests of 2,000
    trials): a block of pairs used to be sized by the sentences alone, so its trials x pairs
    matrices grew with the pairs (2,000 x 19,900 doubles: 318 MB each, 2.25 GB in all for a
    100-parse tedeval).  Numpy's buffers are traced by tracemalloc."""
    import evalcore.significance as sig

    def peak(parses: int) -> int:
        samples = [[(float(k % 7), float(7 + k // 7))] for k in range(parses)]  # all distinct
        pairs = [(a, b) for a in range(parses) for b in range(a + 1, parses)]
        return _traced_peak(lambda: sig.pairwise_significance(samples, pairs, method=method, trials=2000))  # type: ignore[arg-type]

    p100, p200 = peak(100), peak(200)
    assert p200 <= 2.2 * p100, (p100, p200)
    assert p200 < 200 * 2**20, p200  # a few matrices of _CELLS doubles (16 MB each)


def test_equal_samples_are_tested_once_with_the_same_p_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Samples equal bit for bit give equal tests: each distinct ordered pair of distinct samples
    is run once (a cell repeated over 100 parses: 1 test, not 4,950), and every pair gets the
    p-value its own test gives."""
    import evalcore.significance as sig

    rng = random.Random(3)
    a = [(float(rng.randint(0, 5)), 5.0) for _ in range(9)]
    b = [(float(rng.randint(0, 5)), 5.0) for _ in range(9)]
    samples = [a, b, list(a), b, [(x, n) for x, n in a], a]
    pairs = [(i, j) for i in range(len(samples)) for j in range(len(samples)) if i != j]
    run = sig._pairwise
    seen: list[int] = []

    def counting(*args: object) -> object:
        seen.append(len(args[2]))  # type: ignore[arg-type]
        return run(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sig, "_pairwise", counting)
    got = sig.pairwise_significance(samples, pairs, trials=400, seed=9)
    assert seen == [4]  # (a, b), (b, a), (a, a), (b, b)
    assert got == [significance(samples[i], samples[j], trials=400, seed=9) for i, j in pairs]
    same = sig.pairwise_significance([a] * 100, [(0, k) for k in range(1, 100)], trials=400)
    assert seen == [4, 1] and {r.p_value for r in same} == {1.0}


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=7, max_size=7),
        min_size=1,
        max_size=4,
    ),
    st.integers(0, 2**31),
)
def test_ratio_intervals_at_once_are_each_ratios_alone(
    ratios: list[list[tuple[int, int]]], seed: int
) -> None:
    """One stream of draws for several ratios over the same sentences gives each the interval it
    gets alone (the app's breakdown tab takes all its groups' intervals in one call)."""
    from evalcore.significance import bootstrap_ratio_intervals

    together = bootstrap_ratio_intervals(ratios, samples=200, seed=seed)
    assert together == tuple(bootstrap_interval(r, samples=200, seed=seed) for r in ratios)
