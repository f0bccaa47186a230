"""Seasons in the statistics: a new season's ratings start afresh while the
all-time ones carry on, a closed season's board stays as it was, and each
game counts in the season running when it is counted."""

from __future__ import annotations

import pytest

from bot.refusals import SeasonNameEmpty, SeasonNameTaken, SeasonNameTooLong
from bot.stats.counting import SkillKey, plan_counting
from bot.stats.leaderboard import SortKey
from bot.stats.ratings import Skill
from bot.stats.records import FinishedGame
from bot.stats.seasons import ALL_TIME
from bot.stats.service import StatsService
from tests.backends import table_rows

from .games import Tables, resign_after

GUILD = 1
FOUR = [10, 11, 12, 13]


async def play(tables: Tables, users: list[int], seed: int, loser: int = 1) -> FinishedGame:
    table = await tables.play(GUILD, users, seed=seed, scenario=resign_after(4 * seed, loser))
    assert table.game_id is not None
    found = await tables.stats.finished_game(table.game_id)
    assert found is not None
    return found[0]


def ratings(skills: dict[SkillKey, Skill]) -> dict[int, int]:
    return {key[1]: skill.display for key, skill in skills.items() if isinstance(key[1], int)}


async def board(stats: StatsService, season: int | None = None) -> dict[int, int]:
    page = await stats.leaderboard(GUILD, SortKey.RATING, 0, season)
    return {row.user_id: row.rating for row in page.rows}


async def test_a_new_season_rates_afresh_while_all_time_carries_on(
    tables: Tables, stats: StatsService
) -> None:
    before = [await play(tables, FOUR, seed) for seed in range(3)]
    first_board = await board(stats)
    closed, started = await stats.start_season(GUILD, "Spring", 1.0)
    assert closed.number == 1 and started == "Spring"
    after = [
        await play(tables, [10, 14, 12, 15], seed=3, loser=0),
        await play(tables, [14, 11, 15, 13], seed=4),
    ]

    # The season's ratings: those of its games alone, from newcomers.
    season_skills: dict[SkillKey, Skill] = {}
    plan_counting(after, {GUILD: False}, season_skills)
    assert await board(stats) == ratings(season_skills)
    # All time: every game, in order.
    all_skills: dict[SkillKey, Skill] = {}
    plan_counting(before + after, {GUILD: False}, all_skills)
    assert await board(stats, ALL_TIME) == ratings(all_skills)
    # The closed season: as it was when it closed.
    assert await board(stats, 1) == first_board
    assert await board(stats, 2) == ratings(season_skills)

    rows = await table_rows(stats.store.store, "SELECT game_id, season_no FROM stats_games")
    assert sorted(rows) == sorted(
        [(g.game_id, 1) for g in before] + [(g.game_id, 2) for g in after]
    )


async def test_stats_give_the_running_season_beside_all_time(
    tables: Tables, stats: StatsService
) -> None:
    await play(tables, FOUR, seed=0)
    found = await stats.player_stats(GUILD, 10)
    assert found is not None and found.season is None  # no season started: as ever
    await stats.start_season(GUILD, "Spring", 1.0)
    found = await stats.player_stats(GUILD, 10)
    assert found is not None and found.season is not None
    assert found.season.season.name == "Spring" and found.season.row is None
    await play(tables, FOUR, seed=1, loser=0)  # 10 and 12 lose this one
    found = await stats.player_stats(GUILD, 10)
    assert found is not None and found.season is not None and found.season.row is not None
    row = found.season.row
    assert (row.games, row.wins, row.losses) == (1, 0, 1)
    assert found.season.rank == 3 and found.season.ranked_players == 4
    assert found.tally.games == 2 and found.rated_games == 2  # all time


async def test_a_season_name_is_checked(stats: StatsService) -> None:
    for name, refusal in (
        ("", SeasonNameEmpty),
        ("  \t ", SeasonNameEmpty),
        ("y" * 41, SeasonNameTooLong),
    ):
        with pytest.raises(refusal):
            await stats.start_season(GUILD, name, 1.0)
    await stats.start_season(GUILD, "  Winter   Cup ", 1.0)
    with pytest.raises(SeasonNameTaken):
        await stats.start_season(GUILD, "winter cup", 2.0)
    seasons = await stats.seasons(GUILD)
    assert [(s.number, s.name) for s in seasons] == [(1, None), (2, "Winter Cup")]
    assert await stats.season_named(GUILD, "WINTER cup") == 2
    assert await stats.season_named(GUILD, "1") == 1
