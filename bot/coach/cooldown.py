"""A per-person limit on the coach's answers: one every few seconds."""

from __future__ import annotations

import math
from collections.abc import Callable


class Cooldown:
    """One use per key per ``seconds``; idle keys are forgotten."""

    def __init__(self, seconds: float, now: Callable[[], float]) -> None:
        self.seconds = seconds
        self.now = now
        self._last: dict[int, float] = {}

    def wait_for(self, key: int) -> float:
        """Seconds until ``key`` may be served again (0: now)."""
        last = self._last.get(key)
        if last is None:
            return 0.0
        return max(0.0, last + self.seconds - self.now())

    def take(self, key: int) -> float:
        """Use the key's turn if it has one: 0.0, else the seconds left (unused)."""
        wait = self.wait_for(key)
        if wait > 0:
            return wait
        now = self.now()
        self._last[key] = now
        if len(self._last) > 1024:
            cutoff = now - self.seconds
            self._last = {k: t for k, t in self._last.items() if t > cutoff}
        return 0.0


def whole_seconds(wait: float) -> int:
    return max(1, math.ceil(wait))
