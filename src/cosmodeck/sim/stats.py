"""Statistics with confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= trials else min(1.0, centre + half)
    return (lo, hi)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """Normal-approximation 95% interval of the mean."""
    n = len(values)
    if n < 2:
        m = mean(values)
        return (m, m)
    m = mean(values)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (m - half, m + half)


def newcombe_diff(x1: int, n1: int, x2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """95% interval of ``p1 - p2`` for two independent proportions (Newcombe's hybrid score method).

    Newcombe (1998), Statistics in Medicine 17:873, table II, method 10:

    >>> lo, hi = newcombe_diff(56, 70, 48, 80)
    >>> round(lo, 4), round(hi, 4)
    (0.0524, 0.3339)
    """
    if n1 <= 0 or n2 <= 0:
        return (-1.0, 1.0)
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (max(-1.0, lo), min(1.0, hi))


def variance(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return sum((v - m) ** 2 for v in values) / (n - 1)


def welch_diff(a: Sequence[float], b: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Normal-approximation 95% interval of ``mean(a) - mean(b)`` (unequal variances)."""
    if not a or not b:
        return (-math.inf, math.inf)
    d = mean(a) - mean(b)
    half = z * math.sqrt(variance(a) / len(a) + variance(b) / len(b))
    return (d - half, d + half)


def histogram(values: Sequence[float], bins: int = 20, integers: bool = False) -> dict[str, list[float]]:
    """Equal-width bins over the data's range: ``edges`` (bins + 1) and ``counts``.

    ``integers``: whole-number data gets one bin per value (centred on it) when it spans at most
    ``2 * bins`` values, so a length of 13 or 14 decisions is two bars, not one.

    >>> histogram([13, 14, 14], integers=True)
    {'edges': [12.5, 13.5, 14.5], 'counts': [1.0, 2.0]}
    """
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    if integers and all(float(v).is_integer() for v in values) and hi - lo < 2 * bins:
        k = int(hi - lo) + 1
        counts = [0.0] * k
        for v in values:
            counts[int(v - lo)] += 1
        return {"edges": [lo - 0.5 + i for i in range(k + 1)], "counts": counts}
    if hi == lo:
        return {"edges": [lo - 0.5, hi + 0.5], "counts": [float(len(values))]}
    width = (hi - lo) / bins
    counts = [0.0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / width))] += 1
    return {"edges": [lo + i * width for i in range(bins + 1)], "counts": counts}
