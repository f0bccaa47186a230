"""Leaderboard pages: which rows a page holds (:mod:`bot.render.leaderboard` draws them)."""

from __future__ import annotations

import math
from dataclasses import dataclass

# The store's orders and rows are what the pages show (re-exported).
from db.stats_records import LeaderboardRow as LeaderboardRow
from db.stats_records import SeasonRow
from db.stats_records import SortKey as SortKey

PAGE_SIZE = 10


@dataclass(frozen=True, slots=True)
class PageSpan:
    page: int  # 0-based, clamped into the existing pages
    pages: int  # at least 1, so an empty board still has a page to show
    offset: int
    limit: int


def page_span(requested: int, total: int, size: int = PAGE_SIZE) -> PageSpan:
    """The rows of page ``requested`` of ``total``; a stale page number shows the nearest."""
    pages = max(1, math.ceil(total / size))
    page = min(max(requested, 0), pages - 1)
    return PageSpan(page=page, pages=pages, offset=page * size, limit=size)


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    sort: SortKey
    span: PageSpan
    total: int
    rows: tuple[LeaderboardRow, ...]
    #: A season's number, 0 for all time, None on a server without seasons.
    season_no: int | None = None
    season: SeasonRow | None = None  # the season shown, when one is

    @property
    def has_previous(self) -> bool:
        return self.span.page > 0

    @property
    def has_next(self) -> bool:
        return self.span.page + 1 < self.span.pages
