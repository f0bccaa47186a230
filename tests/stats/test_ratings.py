from __future__ import annotations

import pytest

from bot.game.rules import preset
from bot.game.state import Game
from bot.render.leaderboard import outcome_word
from bot.stats.counting import SkillKey, plan_counting
from bot.stats.leaderboard import SortKey
from bot.stats.ratings import Skill, rate_teams
from bot.stats.service import StatsService, finished_from_table
from tests.stats.games import counted_by

from .games import Tables, play_out, resign_after


def test_winners_gain_and_losers_lose() -> None:
    start = Skill()
    (w1, w2), (l1, l2) = rate_teams((start, start), (start, start), winner=0)
    assert w1.mu > start.mu and w2.mu > start.mu
    assert l1.mu < start.mu and l2.mu < start.mu
    assert w1.display > start.display > l1.display
    (l1b, _), (w1b, _) = rate_teams((start, start), (start, start), winner=1)
    assert w1b == w1 and l1b == l1  # the same result whichever team wins


def test_partners_move_together_by_their_own_uncertainty() -> None:
    sure, unsure = Skill(25.0, 2.0), Skill(25.0, 8.0)
    (a, b), _ = rate_teams((sure, unsure), (Skill(), Skill()), winner=0)
    assert 0 < a.mu - sure.mu < b.mu - unsure.mu  # the less known partner moves more


def test_a_draw_between_equals_leaves_the_means_alone() -> None:
    start = Skill()
    (a, _), (c, _) = rate_teams((start, start), (start, start), winner=None)
    assert a.mu == pytest.approx(start.mu) and c.mu == pytest.approx(start.mu)
    assert a.sigma < start.sigma  # but the model is surer of everyone


def test_a_draw_pulls_unequal_teams_together() -> None:
    strong, weak = Skill(32.0, 4.0), Skill(20.0, 4.0)
    (s1, _), (w1, _) = rate_teams((strong, strong), (weak, weak), winner=None)
    assert s1.mu < strong.mu and w1.mu > weak.mu


def test_an_upset_moves_more_than_the_expected_result() -> None:
    strong, weak = Skill(32.0, 4.0), Skill(20.0, 4.0)
    (expected, _), _ = rate_teams((strong, strong), (weak, weak), winner=0)
    (upset, _), _ = rate_teams((strong, strong), (weak, weak), winner=1)
    assert strong.mu - upset.mu > expected.mu - strong.mu > 0


def test_unknown_winner_is_refused() -> None:
    with pytest.raises(ValueError, match="winner"):
        rate_teams((Skill(), Skill()), (Skill(), Skill()), winner=2)


async def test_a_recorded_win_moves_all_four_ratings(tables: Tables, stats: StatsService) -> None:
    table = await tables.play(1, [10, 11, 12, 13], scenario=resign_after(0, seat=1))
    assert table.result is not None and table.result.winner == 0
    seat_of = {s.user_id: n for n, s in enumerate(table.seats) if s.user_id is not None}
    assert sorted(seat_of) == [10, 11, 12, 13]
    for user, seat in seat_of.items():
        s = await stats.player_stats(1, user)
        assert s is not None and s.rated_games == 1 and s.tally.games == 1
        assert (s.rating > 1000) is (seat % 2 == 0), (user, seat, s.rating)
    history = await stats.recent_games(1, 10)
    host = await stats.player_stats(1, 10)
    assert host is not None
    assert (history[0].rating_before, history[0].rating_after) == (1000, host.rating)


async def test_repeated_wins_keep_raising_the_winners(tables: Tables, stats: StatsService) -> None:
    ratings = []
    for _ in range(3):
        await tables.play(1, [10, 11, 12, 13], scenario=resign_after(0, seat=1))
        s = await stats.player_stats(1, 10)
        assert s is not None
        ratings.append(s.rating)
    assert ratings == sorted(ratings) and len(set(ratings)) == 3
    loser = await stats.player_stats(1, 11)
    assert loser is not None and loser.rating < 1000 and loser.tally.losses == 3


async def test_games_with_computer_players_leave_ratings_alone(
    tables: Tables, stats: StatsService
) -> None:
    await tables.play(1, [10, 11, 12, 13], scenario=resign_after(0, seat=1))
    before = {u: await stats.player_stats(1, u) for u in (10, 11)}
    table = await tables.play(1, [10, 11], computers=2, seed=3)
    assert [s.is_computer for s in table.seats] == [False, False, True, True]
    for user in (10, 11):
        after = await stats.player_stats(1, user)
        old = before[user]
        assert after is not None and old is not None
        assert after.rating == old.rating and after.rated_games == old.rated_games == 1
        assert after.tally.games == old.tally.games + 1  # still counted in the statistics
    history = await stats.recent_games(1, 10)
    assert history[0].game_id == table.game_id
    assert history[0].rating_before is None and history[0].partner_level == "random"


async def test_a_server_may_rate_games_with_computer_players(
    tables: Tables, stats: StatsService
) -> None:
    await stats.set_rate_computer_games(1, True)
    assert await stats.rate_computer_games(1) and not await stats.rate_computer_games(2)
    # Seats 0 and 1 are people, 2 and 3 computers: the host's team wins.
    await tables.play(1, [10, 11], computers=2, scenario=resign_after(0, seat=1))
    won, lost = await stats.player_stats(1, 10), await stats.player_stats(1, 11)
    assert won is not None and won.rated_games == 1 and won.rating > 1000
    assert lost is not None and lost.rated_games == 1 and lost.rating < 1000
    # The same kind of game on another server stays unrated there.
    await tables.play(2, [10, 11], computers=2, scenario=resign_after(0, seat=1))
    other = await stats.player_stats(2, 10)
    assert other is not None and other.rated_games == 0 and other.tally.wins == 1


def _drawn_seed() -> int:
    rules = preset("low-club")  # equal totals at the end are a draw
    for seed in range(3000):
        game = play_out(Game.new(rules, seed), seed)
        if game.result is not None and game.result.winner is None:
            return seed
    raise AssertionError("no drawn game found")


async def test_a_recorded_draw_between_newcomers_keeps_them_level(
    tables: Tables, stats: StatsService
) -> None:
    table = await tables.play(1, [10, 11, 12, 13], rules="low-club", seed=_drawn_seed())
    assert table.result is not None and table.result.winner is None
    found = [await stats.player_stats(1, u) for u in (10, 11, 12, 13)]
    assert len({s.rating for s in found if s}) == 1  # all four equal
    s = found[0]
    assert s is not None and s.tally.draws == 1 and s.tally.wins == s.tally.losses == 0
    assert outcome_word((await stats.recent_games(1, 10))[0]) == "Draw"


async def test_recording_a_game_twice_counts_it_once(tables: Tables, stats: StatsService) -> None:
    table = await tables.play(1, [10, 11, 12, 13], seed=3)
    first = await stats.player_stats(1, 10)
    record = finished_from_table(table)
    assert record is not None and first is not None and first.tally.games == 1
    assert await stats.record_game(record) is None
    await counted_by(stats)(table, "play")
    assert await stats.catch_up() == 0
    assert await stats.player_stats(1, 10) == first


async def test_ratings_are_per_server(tables: Tables, stats: StatsService) -> None:
    await tables.play(1, [10, 11, 12, 13], scenario=resign_after(0, seat=1))
    assert await stats.player_stats(2, 10) is None
    page = await stats.leaderboard(2, SortKey.RATING)
    assert page.total == 0 and page.rows == ()


async def test_games_outside_a_server_are_not_counted(tables: Tables, stats: StatsService) -> None:
    table = await tables.play(None, [10, 11, 12, 13], scenario=resign_after(0, seat=1))
    assert table.game_id is not None
    assert finished_from_table(table) is None
    assert await stats.catch_up() == 0
    assert await stats.finished_game(table.game_id) is None


async def test_counting_in_one_batch_gives_the_ratings_of_counting_one_by_one(
    tables: Tables, stats: StatsService
) -> None:
    people = [10, 11, 12, 13, 14]
    tables_played = []
    for seed in range(6):
        four = people[seed % 5 :] + people[: seed % 5]
        tables_played.append(await tables.play(1, four[:4], seed=seed))
    games = []
    for table in tables_played:
        assert table.game_id is not None
        found = await stats.finished_game(table.game_id)
        assert found is not None
        games.append(found[0])
    skills: dict[SkillKey, Skill] = {}
    writes, outcomes = plan_counting(games, {1: False}, skills)
    assert len(writes) == 6 and all(o is not None and o.rated for o in outcomes)
    for user in people:
        stored = await stats.player_stats(1, user)
        assert stored is not None
        assert stored.rating == skills[(1, user)].display
