from __future__ import annotations

import pytest

from bot.game.rules import preset
from bot.game.state import Game
from bot.stats.leaderboard import SortKey
from bot.stats.ratings import Skill, rate_teams
from bot.stats.records import computer, human
from bot.stats.service import StatsService

from .games import finish, play_out, random_game, seats_of


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


def _decided(seed_from: int, want_winner: int | None = None) -> tuple[int, Game]:
    for seed in range(seed_from, seed_from + 200):
        game = play_out(Game.new(preset("standard"), seed), seed)
        if game.result is not None and want_winner in (None, game.result.winner):
            return seed, game
    raise AssertionError("no such game in 200 seeds")


async def test_a_recorded_win_moves_all_four_ratings(stats: StatsService) -> None:
    _, game = _decided(1, want_winner=0)
    outcome = await stats.record_game(finish(game, 1, seats_of(10, 11, 12, 13)))
    assert outcome is not None and outcome.rated
    change = {c.user_id: c.after - c.before for c in outcome.changes}
    assert change[10] > 0 and change[12] > 0 and change[11] < 0 and change[13] < 0
    for user, winner in ((10, True), (11, False)):
        s = await stats.player_stats(1, user)
        assert s is not None and s.rated_games == 1
        assert (s.rating > 1000) is winner


async def test_games_with_computer_players_leave_ratings_alone(stats: StatsService) -> None:
    _, first = _decided(1, want_winner=0)
    await stats.record_game(finish(first, 1, seats_of(10, 11, 12, 13)))
    before = {u: await stats.player_stats(1, u) for u in (10, 11)}
    seats = (human(10), computer("random"), human(11), computer("random"))
    _, second = _decided(50)
    outcome = await stats.record_game(finish(second, 2, seats))
    assert outcome is not None and not outcome.rated and outcome.changes == ()
    for user in (10, 11):
        after = await stats.player_stats(1, user)
        old = before[user]
        assert after is not None and old is not None
        assert after.rating == old.rating and after.rated_games == old.rated_games
        assert after.tally.games == old.tally.games + 1  # still counted in the statistics
    history = await stats.recent_games(1, 10)
    assert history[0].game_id == 2 and history[0].rating_before is None


async def test_a_server_may_rate_games_with_computer_players(stats: StatsService) -> None:
    await stats.set_rate_computer_games(1, True)
    assert await stats.rate_computer_games(1) and not await stats.rate_computer_games(2)
    _, game = _decided(1, want_winner=0)
    seats = (human(10), computer("random"), human(11), computer("random"))
    outcome = await stats.record_game(finish(game, 1, seats))
    assert outcome is not None and outcome.rated
    assert {c.user_id for c in outcome.changes} == {10, 11}
    assert all(c.after > c.before for c in outcome.changes)
    # The same kind of game on another server stays unrated there.
    other = await stats.record_game(finish(game, 2, seats, guild_id=2))
    assert other is not None and not other.rated


async def test_a_recorded_draw_between_newcomers_keeps_them_level(stats: StatsService) -> None:
    rules = preset("low-club")  # equal totals at the end are a draw
    for seed in range(2000):
        game = play_out(Game.new(rules, seed), seed)
        if game.result is not None and game.result.winner is None:
            break
    else:
        raise AssertionError("no drawn game found")
    outcome = await stats.record_game(finish(game, 1, seats_of(10, 11, 12, 13)))
    assert outcome is not None and outcome.rated
    assert len({c.after for c in outcome.changes}) == 1  # all four equal
    s = await stats.player_stats(1, 10)
    assert s is not None and s.tally.draws == 1 and s.tally.wins == s.tally.losses == 0
    assert (await stats.recent_games(1, 10))[0].outcome == "Draw"


async def test_recording_a_game_twice_counts_it_once(stats: StatsService) -> None:
    record, _ = random_game(3, 1, seats_of(10, 11, 12, 13))
    assert await stats.record_game(record) is not None
    first = await stats.player_stats(1, 10)
    assert await stats.record_game(record) is None
    assert await stats.player_stats(1, 10) == first


async def test_ratings_are_per_server(stats: StatsService) -> None:
    _, game = _decided(1, want_winner=0)
    await stats.record_game(finish(game, 1, seats_of(10, 11, 12, 13), guild_id=1))
    assert await stats.player_stats(2, 10) is None
    page = await stats.leaderboard(2, SortKey.RATING)
    assert page.total == 0
