from __future__ import annotations

import random

from bot.render.leaderboard import page_footer, page_text, row_line
from bot.stats.leaderboard import LeaderboardPage, LeaderboardRow, SortKey, page_span
from bot.stats.service import StatsService

from .games import Tables


def test_page_spans() -> None:
    assert page_span(0, 0) == page_span(3, 0)  # an empty board has one empty page
    assert (page_span(0, 0).pages, page_span(0, 0).offset) == (1, 0)
    assert (page_span(1, 23).offset, page_span(1, 23).limit, page_span(1, 23).pages) == (10, 10, 3)
    assert page_span(2, 20).page == 1  # a stale button shows the last page
    assert page_span(-4, 20).page == 0
    assert page_span(0, 10).pages == 1 and page_span(0, 11).pages == 2


def _row(rank: int, **changes: int) -> LeaderboardRow:
    values = dict(
        user_id=1000 + rank, rating=1200 - rank, rated_games=9, games=12, wins=7, losses=4, draws=1
    )
    values.update(changes)
    return LeaderboardRow(rank=rank, **values)


def test_lines_are_short_enough_for_a_phone() -> None:
    big = _row(99, user_id=2**63 - 1, rating=2999, games=99999, wins=99998, losses=1, draws=0)
    for sort in SortKey:
        line = row_line(big, sort)
        shown = line.replace(f"<@{big.user_id}>", "@a-long-nickname")  # how Discord shows it
        assert len(shown) <= 60, shown
    assert row_line(_row(1), SortKey.RATING) == "` 1.` <@1001> **1199** · 7W 4L 1D"
    assert row_line(_row(2, draws=0), SortKey.WINS) == "` 2.` <@1002> **7** wins · 12 played · 58%"


def test_empty_boards_explain_themselves() -> None:
    for sort in SortKey:
        page = LeaderboardPage(sort=sort, span=page_span(0, 0), total=0, rows=())
        assert "yet" in page_text(page)
        assert page_footer(page).startswith("Page 1/1 · 0 players")
        assert not page.has_previous and not page.has_next


async def _season(tables: Tables, players: int = 23, games: int = 40) -> None:
    rng = random.Random(3)
    people = list(range(500, 500 + players))
    for game_id in range(1, games + 1):
        table = rng.sample(people, 4)
        if game_id % 10 == 0:  # unrated: computer players sat in
            await tables.play(1, table[:2], computers=2, seed=game_id)
        else:
            await tables.play(1, table, seed=game_id)


async def test_pages_by_rating_cover_every_rated_player_once(
    tables: Tables, stats: StatsService
) -> None:
    await _season(tables)
    first = await stats.leaderboard(1, SortKey.RATING, 0)
    assert first.total >= 20 and first.span.pages == -(-first.total // 10)
    rows: list[LeaderboardRow] = []
    for page in range(first.span.pages):
        got = await stats.leaderboard(1, SortKey.RATING, page)
        assert got.has_previous == (page > 0)
        assert got.has_next == (page + 1 < first.span.pages)
        assert len(got.rows) == min(10, got.total - 10 * page)
        rows += got.rows
    assert [r.rank for r in rows] == list(range(1, first.total + 1))
    assert len({r.user_id for r in rows}) == first.total
    keys = [(r.rating, r.wins) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for row in rows:
        stats_row = await stats.player_stats(1, row.user_id)
        assert stats_row is not None and stats_row.rating == row.rating
        assert stats_row.rank is not None and stats_row.rank <= row.rank
    stale = await stats.leaderboard(1, SortKey.RATING, 99)
    assert stale.span.page == first.span.pages - 1 and stale.rows


async def test_pages_by_wins(tables: Tables, stats: StatsService) -> None:
    await _season(tables)
    rows: list[LeaderboardRow] = []
    page = 0
    while True:
        got = await stats.leaderboard(1, SortKey.WINS, page)
        rows += got.rows
        if not got.has_next:
            break
        page += 1
    wins = [r.wins for r in rows]
    assert wins == sorted(wins, reverse=True)
    everyone = {r.user_id for r in rows}
    assert len(everyone) == len(rows) == got.total
    for user in everyone:
        s = await stats.player_stats(1, user)
        assert s is not None and s.tally.games > 0
    text = page_text(await stats.leaderboard(1, SortKey.WINS, 0))
    assert text.count("\n") == 9 and "wins" in text


async def test_only_computer_games_leave_the_rating_board_empty(
    tables: Tables, stats: StatsService
) -> None:
    await tables.play(1, [1, 2], computers=2, seed=1)
    by_rating = await stats.leaderboard(1, SortKey.RATING, 0)
    by_wins = await stats.leaderboard(1, SortKey.WINS, 0)
    assert by_rating.total == 0 and by_wins.total == 2
    assert "rating" in page_text(by_rating).lower()
