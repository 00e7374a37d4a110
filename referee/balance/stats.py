"""The statistics of a balance report: intervals and tests for proportions.

Plain :mod:`math`, no SciPy: Wilson score intervals for a win rate, the
two-proportion z-test and Fisher's exact test (two-sided) for a difference
between two boards, and a Welch z-approximation for a difference of means.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: two-sided 95 % normal quantile
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95 % default).

    ``(0.0, 1.0)`` when ``n`` is 0.
    """
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_two_sided(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def two_proportion_z(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """``(z, p)`` of the pooled two-proportion z-test of ``k1/n1`` against ``k2/n2``.

    ``(0.0, 1.0)`` when either sample is empty or the pooled rate is 0 or 1.
    """
    if n1 <= 0 or n2 <= 0:
        return 0.0, 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (k1 / n1 - k2 / n2) / se
    return z, normal_two_sided(z)


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test on the 2×2 table of wins and losses.

    Notes
    -----
    Sums the hypergeometric probabilities no larger than the observed table's
    (the usual two-sided definition); O(min(n1, n2)) terms, in log space.
    """
    if n1 <= 0 or n2 <= 0:
        return 1.0
    total_k = k1 + k2
    n = n1 + n2
    lo, hi = max(0, total_k - n2), min(total_k, n1)

    def logp(a: int) -> float:
        return _lcomb(n1, a) + _lcomb(n2, total_k - a) - _lcomb(n, total_k)

    observed = logp(k1)
    p = sum(math.exp(logp(a)) for a in range(lo, hi + 1) if logp(a) <= observed + 1e-9)
    return min(1.0, p)


def _lcomb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def mean_difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """``(difference of means, two-sided p)`` by Welch's statistic, normal approximation
    (fine for the hundreds of games of a balance study)."""
    if len(a) < 2 or len(b) < 2:
        return (_mean(a) - _mean(b)) if a and b else 0.0, 1.0
    va, vb = _var(a), _var(b)
    se = math.sqrt(va / len(a) + vb / len(b))
    d = _mean(a) - _mean(b)
    if se == 0:
        return d, 1.0 if d == 0 else 0.0
    return d, normal_two_sided(d / se)


def _mean(x: Sequence[float]) -> float:
    return sum(x) / len(x) if x else 0.0


def _var(x: Sequence[float]) -> float:
    m = _mean(x)
    return sum((v - m) ** 2 for v in x) / (len(x) - 1)


def quantiles(values: Sequence[float], qs: Sequence[float]) -> list[float]:
    """Linear-interpolated quantiles of ``values`` (empty → zeros)."""
    if not values:
        return [0.0 for _ in qs]
    s = sorted(values)
    out = []
    for q in qs:
        pos = q * (len(s) - 1)
        i = math.floor(pos)
        j = min(i + 1, len(s) - 1)
        out.append(s[i] + (s[j] - s[i]) * (pos - i))
    return out
