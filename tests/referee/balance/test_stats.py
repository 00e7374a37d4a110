"""Intervals and tests against published values."""

from __future__ import annotations

import pytest

from referee.balance.stats import fisher_exact, mean_difference, two_proportion_z, wilson


def test_wilson_interval() -> None:
    # Newcombe (1998), Table I: 0/10 -> 0 to 0.2775; 81/263 -> 0.2553 to 0.3662
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_fisher_exact_two_sided() -> None:
    # the lady tasting tea: 3 of 4 right each way, two-sided p = 0.4857
    assert fisher_exact(3, 4, 1, 4) == pytest.approx(0.48571, abs=1e-4)
    # R: fisher.test(matrix(c(1, 9, 11, 3), 2)) -> p = 0.002759
    assert fisher_exact(1, 10, 11, 14) == pytest.approx(0.002759, abs=1e-5)
    assert fisher_exact(5, 10, 5, 10) == pytest.approx(1.0)


def test_two_proportion_z() -> None:
    z, p = two_proportion_z(60, 100, 45, 100)
    assert z == pytest.approx(2.1234, abs=1e-3)
    assert p == pytest.approx(0.0337, abs=1e-3)
    assert two_proportion_z(0, 10, 0, 10) == (0.0, 1.0)


def test_mean_difference() -> None:
    d, p = mean_difference([10.0, 12.0, 11.0, 13.0], [10.0, 12.0, 11.0, 13.0])
    assert d == 0 and p == 1.0
    d, p = mean_difference([100.0, 101.0, 99.0, 100.0] * 10, [50.0, 51.0, 49.0, 50.0] * 10)
    assert d == 50 and p < 1e-6
