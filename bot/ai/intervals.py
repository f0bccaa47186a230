"""95% confidence intervals of measured play: win rates and mean margins.

Shared by the simulator (``python -m bot simulate``) and the strength
benchmark, so that both report their figures the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

#: The two-sided 95% quantile of the normal distribution.
Z95: Final = 1.959964


def wilson_interval(wins: float, n: int) -> list[float]:
    """The 95% Wilson interval of a win rate of ``wins`` out of ``n`` (a draw
    counts as half a win), rounded to 4 decimals; [0, 0] without games."""
    if n == 0:
        return [0.0, 0.0]
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return [round(centre - half, 4), round(centre + half, 4)]


def mean_interval(values: Sequence[int], digits: int) -> tuple[float, list[float]]:
    """The mean of ``values`` and its 95% interval (normal approximation),
    the bounds rounded to ``digits`` decimals; a single value is its own interval."""
    n = len(values)
    if n == 0:
        return 0.0, [0.0, 0.0]
    mean = sum(values) / n
    if n == 1:
        return mean, [mean, mean]
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, [round(mean - half, digits), round(mean + half, digits)]
