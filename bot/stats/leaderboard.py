"""Leaderboard pages: which rows a page holds and how they read on a phone.

Lines are short on purpose (rank, player, one figure in bold, a short
record) so that a page of ten fits a phone screen without wrapping.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# The store's orders and rows are what the pages show (re-exported).
from db.stats_records import LeaderboardRow as LeaderboardRow
from db.stats_records import SortKey as SortKey

PAGE_SIZE = 10


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


def record_text(row: LeaderboardRow) -> str:
    text = f"{row.wins}W {row.losses}L"
    return f"{text} {row.draws}D" if row.draws else text


def row_line(row: LeaderboardRow, sort: SortKey) -> str:
    who = f"<@{row.user_id}>"
    if sort is SortKey.RATING:
        return f"`{row.rank:>2}.` {who} **{row.rating}** · {record_text(row)}"
    rate = (row.wins + row.draws / 2) / row.games if row.games else 0.0
    return f"`{row.rank:>2}.` {who} **{row.wins}** wins · {row.games} played · {rate:.0%}"


def page_text(page: LeaderboardPage) -> str:
    """The body of a leaderboard page (an embed description)."""
    if not page.rows:
        if page.sort is SortKey.RATING:
            return (
                "Nobody has a rating on this server yet: ratings come from finished "
                "games between four people (games with computer players count only "
                "if the server rates them)."
            )
        return "No finished games on this server yet."
    return "\n".join(row_line(row, page.sort) for row in page.rows)


def page_footer(page: LeaderboardPage) -> str:
    noun = "player" if page.total == 1 else "players"
    by = "rating" if page.sort is SortKey.RATING else "wins"
    return f"Page {page.span.page + 1}/{page.span.pages} · {page.total} {noun} · by {by}"
