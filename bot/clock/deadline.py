"""The deadline a table waits for: one row of the store's ``deadlines`` table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Deadline:
    """Something that must happen to a table at ``due_at`` (epoch seconds).
    ``data`` is JSON-compatible: it is stored with the row."""

    table_id: int
    kind: str
    due_at: float
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[int, str]:
        return (self.table_id, self.kind)
