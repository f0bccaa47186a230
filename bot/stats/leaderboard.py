"""Leaderboard pages: which rows a page holds (:mod:`bot.render.leaderboard` draws them)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

PAGE_SIZE = 10


class SortKey(StrEnum):
    RATING = "rating"
    WINS = "wins"


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    user_id: int
    rating: int
    rated_games: int
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class PageSpan:
    page: int  # 0-based, clamped into the existing pages
    pages: int  # at least 1, so an empty board still has a page to show
    offset: int
    limit: int


def page_span(requested: int, total: int, size: int = PAGE_SIZE) -> PageSpan:
    """The rows of page ``requested`` out of ``total`` rows; out-of-range pages
    (a stale button after players left the board) show the nearest page."""
    pages = max(1, math.ceil(total / size))
    page = min(max(requested, 0), pages - 1)
    return PageSpan(page=page, pages=pages, offset=page * size, limit=size)


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    sort: SortKey
    span: PageSpan
    total: int
    rows: tuple[LeaderboardRow, ...]

    @property
    def has_previous(self) -> bool:
        return self.span.page > 0

    @property
    def has_next(self) -> bool:
        return self.span.page + 1 < self.span.pages
