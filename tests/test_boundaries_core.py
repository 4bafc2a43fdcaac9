"""Significance and attachment cases whose answer is known exactly, by hand or from the SPEC.

These tests kill mutants of ``scripts/mutants.py`` that the older tests let live (docs/mutation.md).
"""

from __future__ import annotations

import pytest

from evalcore.significance import approximate_randomization, paired_bootstrap, significance

# Every sentence of system A has exactly one more correct token out of 10 than system B's.
A = [(x + 1, 10) for x in (2, 5, 7, 3, 6, 4, 8, 1)]
B = [(x, 10) for x in (2, 5, 7, 3, 6, 4, 8, 1)]


def test_bootstrap_p_when_no_resample_doubles_the_difference() -> None:
    """Paired bootstrap (Berg-Kirkpatrick et al. 2012): r counts resamples whose difference reaches twice
    the observed one.  Here every sentence differs by 1/10, so every resample differs by exactly
    0.1 = the observed difference, never 0.2: r = 0 and p = (r + 1)/(N + 1) = 1/1000 (the add-one
    estimate docs/tedeval.md, "The cross-scheme experiment and significance" uses for the shuffling test,
    docs/tedeval.md)."""
    r = paired_bootstrap(A, B, samples=999, seed=3)
    assert r.observed == pytest.approx(0.1)
    assert r.p_value == pytest.approx(1 / 1000)
    assert significance(A, B, method="bootstrap", trials=999, seed=3).p_value == pytest.approx(1 / 1000)
    assert paired_bootstrap(B, A, samples=999, seed=3).p_value == pytest.approx(1 / 1000)


def test_shuffling_p_of_identical_differences() -> None:
    """Approximate randomization (docs/tedeval.md, "The cross-scheme experiment and significance"): a shuffle
    is as extreme as the observed difference only if it swaps every sentence or none (each swap moves 1/10
    from one side to the other); with 8 sentences that is 2 of 256 patterns, so with N = 10,000 shuffles r ≈
    10,000 · 2/256 ≈ 78."""
    r = approximate_randomization(A, B, shuffles=10_000, seed=5)
    assert r.p_value == pytest.approx(2 / 256, abs=0.004)


def test_p_equal_to_005_is_not_significant() -> None:
    """docs/tedeval.md, "The cross-scheme experiment and significance": p ≥ 0.05 is "not significant".  19
    shuffles of 300 sentences each one token better: no shuffle reaches the observed difference (that needs
    all 300 swapped or none), r = 0, p = 1/20."""
    a = [(5, 20)] * 300
    b = [(4, 20)] * 300
    r = approximate_randomization(a, b, shuffles=19, seed=1)
    assert r.p_value == pytest.approx(0.05)
    assert not r.significant
    assert approximate_randomization(a, b, shuffles=39, seed=1).significant  # p = 1/40
