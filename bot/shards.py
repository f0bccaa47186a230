"""Which servers this process serves, when the bot runs as several processes.

A server's shard is ``(guild_id >> 22) % shard_count``; a process owns the tables of its
shards' servers and no other process acts on them. The version check in the database stays
the last guard should two processes ever hold a table. Pure."""

from __future__ import annotations

import itertools
from dataclasses import dataclass


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that carries a server's events (direct messages: shard 0)."""
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process connects: ``ids`` of ``count``."""

    count: int = 1
    ids: frozenset[int] = frozenset({0})

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("shard_count must be at least 1")
        if not self.ids:
            raise ValueError("a process connects at least one shard")
        outside = sorted(i for i in self.ids if not 0 <= i < self.count)
        if outside:
            raise ValueError(
                f"shard {outside[0]} does not exist with shard_count = {self.count}"
                f" (shards are numbered 0 to {self.count - 1})"
            )

    @property
    def every_shard(self) -> bool:
        """Whether this process serves every server (the single-process bot)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether the tables of this server are this process's."""
        return self.every_shard or shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shards {format_shard_ids(self.ids)} of {self.count}"


#: One process, every server: the bot as it runs without shard settings.
ALL_SHARDS = Shards()


def parse_shard_ids(text: str, count: int | None = None) -> frozenset[int]:
    """``"0-3"``, ``"5"`` or ``"0,2,4-6"`` as a set of shards; ValueError otherwise,
    and for a shard past ``count`` when it is given."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not _digits(first) or (dash and not _digits(last)):
            raise ValueError(f"{text!r} is not a list of shards like 0-3 or 0,2,5")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"the range {part} ends before it starts")
        if count is not None:
            # Checked before the range is built: a typo like 0-10000000000 is refused at once.
            Shards(count, frozenset({low, high}))
        ids.update(range(low, high + 1))
    return frozenset(ids)


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def format_shard_ids(ids: frozenset[int]) -> str:
    """The shard numbers the way :func:`parse_shard_ids` reads them: ``0-3,6``."""
    ranges: list[str] = []
    # Consecutive numbers keep the same difference from their place in the sorted list.
    for _, run in itertools.groupby(enumerate(sorted(ids)), key=lambda pair: pair[1] - pair[0]):
        shards = [shard for _, shard in run]
        ranges.append(str(shards[0]) if len(shards) == 1 else f"{shards[0]}-{shards[-1]}")
    return ",".join(ranges)
