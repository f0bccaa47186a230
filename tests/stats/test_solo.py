"""Solo games (house rule teams=solo) in the statistics: a four-way ranking
for the ratings, a first place as the only win, and each player's own
figures, stored and read back beside partnership games."""

from __future__ import annotations

import pytest

from bot.game.house import apply
from bot.game.rules import RuleSet, preset
from bot.game.state import Game
from bot.game.types import EndReason
from bot.render.leaderboard import history_line, outcome_word
from bot.stats.chart import chart_png, plot_scores
from bot.stats.counting import SkillKey, plan_counting
from bot.stats.leaderboard import SortKey
from bot.stats.ratings import Skill, rate_ranking
from bot.stats.records import FinishedGame
from bot.stats.service import StatsService
from bot.stats.tally import game_tallies
from db.store import Store

from .games import START_TIME, Tables, finish, play_out, seats_of, store_finished_game

GUILD = 1


def solo_rules() -> RuleSet:
    return apply(preset("standard"), "teams=solo")


def solo_game(seed: int, *, resign: int | None = None) -> Game:
    game = play_out(Game.new(solo_rules(), seed, started_at=START_TIME), seed, level="heuristic")
    if resign is not None:  # a game lost outright, from a fresh deal
        game = Game.new(solo_rules(), seed, started_at=START_TIME)
        game.resign(resign, START_TIME + 1)
    assert game.over
    return game


# -- the ranking ---------------------------------------------------------------------


def test_a_first_place_gains_and_a_last_loses() -> None:
    start = Skill()
    first, second, third, last = rate_ranking([start] * 4, [1, 2, 3, 4])
    assert first.mu > second.mu > third.mu > last.mu
    assert first.mu > start.mu > last.mu
    assert first.display > start.display > last.display


def test_players_tied_on_score_share_their_place() -> None:
    start = Skill()
    first, tied_a, tied_b, last = rate_ranking([start] * 4, [1, 2, 2, 4])
    assert tied_a.mu == pytest.approx(tied_b.mu)
    assert first.mu > tied_a.mu > last.mu
    everyone = rate_ranking([start] * 4, [1, 1, 1, 1])
    assert all(s.mu == pytest.approx(start.mu) for s in everyone)


def test_beating_a_stronger_player_gains_more() -> None:
    strong, weak = Skill(32.0, 4.0), Skill(20.0, 4.0)
    upset = rate_ranking([weak, strong, Skill(), Skill()], [1, 2, 3, 4])[0]
    expected = rate_ranking([weak, weak, Skill(), Skill()], [1, 2, 3, 4])[0]
    assert upset.mu - weak.mu > expected.mu - weak.mu > 0


def test_a_ranking_without_a_place_per_player_is_refused() -> None:
    with pytest.raises(ValueError, match="place"):
        rate_ranking([Skill(), Skill()], [1])


def test_places_follow_the_final_scores_the_winner_first() -> None:
    for seed in range(3):
        game = finish(solo_game(seed), seed + 1, seats_of(10, 11, 12, 13))
        places = game.places()
        assert game.winner is not None and places[game.winner] == 1
        assert places.count(1) == 1  # solo has no shared first place
        for a in range(4):
            for b in range(4):
                if game.final_scores[a] > game.final_scores[b]:
                    assert places[a] < places[b]
                elif game.final_scores[a] == game.final_scores[b]:
                    assert places[a] == places[b] or 1 in (places[a], places[b])


def test_a_player_who_resigns_is_last_whatever_the_score() -> None:
    game = finish(solo_game(0, resign=2), 9, seats_of(10, 11, 12, 13))
    assert game.reason is EndReason.RESIGNATION and game.winner != 2
    places = game.places()
    assert places[2] == 4 and places[game.winner or 0] == 1
    assert sorted(places) == [1, 2, 2, 4]  # the other two are level at 0


def test_partners_share_their_team_s_place() -> None:
    game = finish(play_out(Game.new(preset("standard"), 3), 3), 3, seats_of(10, 11, 12, 13))
    assert not game.solo and game.winner is not None
    assert game.places() in ((1, 2, 1, 2), (2, 1, 2, 1))
    resigned = Game.new(preset("standard"), 3)
    resigned.resign(1, 1.0)
    assert finish(resigned, 4, seats_of(10, 11, 12, 13)).places() == (1, 2, 1, 2)


# -- counting a solo game ------------------------------------------------------------


def test_a_counted_solo_game_moves_each_rating_by_its_place() -> None:
    game = finish(solo_game(1), 1, seats_of(10, 11, 12, 13))
    skills: dict[SkillKey, Skill] = {}
    writes, outcomes = plan_counting([game], {GUILD: False}, skills)
    (outcome,) = outcomes
    assert outcome is not None and outcome.rated
    change = {c.user_id: c.after - c.before for c in outcome.changes}
    places = game.places()
    best = 10 + places.index(1)
    worst = 10 + max(range(4), key=lambda seat: (places[seat], seat))
    assert change[best] > 0 > change[worst]
    assert writes[0].partner_results == ()  # nobody had a partner


def test_a_solo_tally_counts_the_first_place_as_the_only_win() -> None:
    game = finish(solo_game(2), 2, seats_of(10, 11, 12, 13))
    tallies = game_tallies(game)
    hands = game.hands()
    for seat, tally in enumerate(tallies):
        won = seat == game.winner
        assert (tally.games, tally.wins, tally.losses, tally.draws) == (
            1,
            int(won),
            int(not won),
            0,
        )
        assert tally.points == sum(hand.hand_score[seat] for hand in hands)
        assert tally.points == game.final_scores[seat]
        assert tally.bags == sum(hand.results[seat].new_bags for hand in hands)
    assert sum(t.wins for t in tallies) == 1


def test_the_solo_picture_draws_four_lines() -> None:
    game = finish(solo_game(0), 4, seats_of(10, 11, 12, 13))
    hands = game.hands()
    chart = plot_scores(hands, ("Ann", "Bo", "Cy", "Di"), 500, -200, game.winner)
    assert len(chart.points) == 4
    for seat, points in enumerate(chart.points):
        assert [p.score for p in points] == [hand.score_after[seat] for hand in hands]
        assert points[-1].score == game.final_scores[seat]
    png = chart_png(game, ("Ann", "Bo", "Cy", "Di"))
    assert png.startswith(b"\x89PNG")


# -- stored, counted and read back beside partnership games ---------------------------


async def test_solo_and_partnership_games_add_up_for_each_player(
    store: Store, stats: StatsService, tables: Tables
) -> None:
    played = await tables.play(GUILD, [10, 11, 12, 13], seed=5)
    team_result = played.result
    assert team_result is not None and team_result.winner is not None
    solo = solo_game(3)
    assert solo.result is not None and solo.result.winner is not None
    game_id = await store_finished_game(store, solo, (10, 11, 12, 13), channel=9000)
    assert await stats.catch_up() == 1  # the stored solo game, counted as at a restart
    stored, _ = await stats.finished_game(game_id) or (None, None)
    assert stored is not None and stored.solo
    assert stored.winner == solo.result.winner
    assert stored.final_scores == tuple(solo.scores)
    for user in (10, 11, 12, 13):
        seat = user - 10
        player = await stats.player_stats(GUILD, user)
        assert player is not None and player.rated_games == 2
        team_won = team_result.winner == seat & 1
        solo_won = solo.result.winner == seat
        tally = player.tally
        assert (tally.games, tally.wins) == (2, team_won + solo_won)
        assert tally.losses == 2 - tally.wins and tally.draws == 0
        # Partners count each other once: the solo game had none.
        assert sum(p.games for p in player.best_partners) == 1
        last, first = await stats.recent_games(GUILD, user)
        assert last.solo and not first.solo
        assert last.scores == tuple(solo.scores) and last.partner_id is None
        assert outcome_word(last) == ("Won" if solo_won else "Lost")
        assert "each for themselves" in history_line(last)
        assert str(solo.scores[seat]) in history_line(last)
        assert "with <@" in history_line(first)
    page = await stats.leaderboard(GUILD, SortKey.WINS)
    wins = {row.user_id: row.wins for row in page.rows}
    assert wins[10 + solo.result.winner] >= 1
    assert sum(wins.values()) == 2 + 1  # two partners won the team game, one player the solo


async def test_a_stored_solo_game_keeps_the_team_columns_empty(store: Store) -> None:
    solo = solo_game(4)
    game_id = await store_finished_game(store, solo, (20, 21, 22, 23), channel=9100)
    row = await store.db.fetchone(
        "SELECT winner, score0, score1, winner_seat, seat_scores FROM games WHERE id = ?",
        (game_id,),
    )
    assert row is not None and solo.result is not None
    assert row[:3] == (None, None, None)
    assert row[3] == solo.result.winner
    assert [int(s) for s in row[4].strip("[]").split(",")] == list(solo.scores)
    outcomes = await store.db.fetchall(
        "SELECT seat, outcome, points FROM game_seats WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    winner = solo.result.winner
    assert [tuple(r) for r in outcomes] == [
        (seat, "won" if seat == winner else "lost", solo.scores[seat]) for seat in range(4)
    ]


def test_a_finished_game_record_reads_list_valued_scores() -> None:
    game = finish(solo_game(5), 5, seats_of(10, 11, 12, 13))
    records = game.hand_records
    assert all(len(r["score_after"]) == 4 and len(r["bags_before"]) == 4 for r in records)
    assert isinstance(records[-1]["winner"], int)
    assert FinishedGame.hands(game)[-1].score_after == tuple(game.final_scores)
