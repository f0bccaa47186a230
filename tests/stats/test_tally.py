"""The statistics equal a count made straight from the engine's games."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.game.rules import preset
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.state import Game
from bot.game.types import EndReason
from bot.stats.records import BadRecord, SeatPlayer
from bot.stats.service import StatsService, finished_from_table
from bot.stats.tally import Tally, game_tallies, seat_tally
from bot.tables.model import Table
from db.store import Store
from tests.stats.games import human

from .games import (
    Tables,
    false_claim_after,
    finish,
    play_out,
    resign_after,
    revoke_then_challenge,
)

PLAYERS = [101, 102, 103, 104, 105, 106]


def oracle(game: Game, seat: int) -> Tally:
    """One seat's statistics read from the live engine objects, not the JSON."""
    team = seat & 1
    t = Tally(games=1, hands=len(game.hand_records))
    result = game.result
    assert result is not None
    if result.winner is None:
        t.draws = 1
    elif result.winner == team:
        t.wins = 1
    else:
        t.losses = 1
    for hand in game.hand_records:
        mine = hand.results[team]
        t.points += mine.points
        t.bags += mine.new_bags
        t.sets += mine.contract > 0 and not mine.made
        bid = dict(hand.bids)[seat]
        if bid == NIL:
            t.nils_bid += 1
            t.nils_made += hand.tricks_won[seat] == 0
        if bid == BLIND_NIL:
            t.blind_nils_bid += 1
            t.blind_nils_made += hand.tricks_won[seat] == 0
    challenge = game.actions[-1]
    if result.reason is EndReason.REVOKE:
        t.revokes_proven = int(result.seat == seat)
        t.revokes_caught = int(challenge.seat == seat)
    if result.reason is EndReason.FALSE_CLAIM:
        t.false_claims = int(challenge.seat == seat)
    return t


async def play_varied_games(tables: Tables) -> list[Table]:
    """Games of every ending, among six players, some with computer players."""
    rng = random.Random(7)
    played = []
    for index in range(24):
        rules = ["standard", "low-club", "blind-nil", "cardgames"][index % 4]
        kind = index % 6
        people = rng.sample(PLAYERS, 4)
        options: dict[str, Any] = {}
        if kind == 0:
            options["scenario"] = revoke_then_challenge
        elif kind == 1:
            options["scenario"] = false_claim_after(10)
        elif kind == 2:
            options["scenario"] = resign_after(25, seat=rng.randrange(2))
        elif kind == 3:
            options["timeout_after"] = 7
        if index % 5 == 4:
            people, options["computers"] = people[:2], 2
        table = await tables.play(1, people, rules=rules, seed=1000 + index, **options)
        assert table.game is not None and table.game.over
        played.append(table)
    return played


async def test_stored_statistics_match_the_recorded_games(
    tables: Tables, stats: StatsService
) -> None:
    expected: dict[int, Tally] = {}
    reasons = set()
    for table in await play_varied_games(tables):
        game = table.game
        assert game is not None and game.result is not None
        reasons.add(game.result.reason)
        for seat, player in enumerate(table.seats):
            if player.user_id is not None:
                expected.setdefault(player.user_id, Tally()).add(oracle(game, seat))
    assert {
        EndReason.REVOKE,
        EndReason.FALSE_CLAIM,
        EndReason.RESIGNATION,
        EndReason.TIMEOUT,
    } <= reasons
    stored = {}
    for user in PLAYERS:
        found = await stats.player_stats(1, user)
        assert found is not None
        stored[user] = found.tally
    assert stored == expected
    assert await recount(stats, 1) == expected
    assert sum(t.revokes_proven for t in stored.values()) >= 1
    assert sum(t.revokes_caught for t in stored.values()) >= 1
    assert sum(t.false_claims for t in stored.values()) >= 1
    assert sum(t.nils_bid for t in stored.values()) >= 1


async def test_games_left_uncounted_by_a_crash_are_counted_at_start(
    tables: Tables, stats: StatsService, store: Store
) -> None:
    tables.stop_counting()  # as if the bot stopped before counting each game
    played = await play_varied_games(tables)
    assert await stats.player_stats(1, PLAYERS[0]) is None
    assert await stats.catch_up() == len(played)
    expected: dict[int, Tally] = {}
    for table in played:
        assert table.game is not None
        for seat, player in enumerate(table.seats):
            if player.user_id is not None:
                expected.setdefault(player.user_id, Tally()).add(oracle(table.game, seat))
    for user in PLAYERS:
        found = await stats.player_stats(1, user)
        assert found is not None and found.tally == expected[user]
    assert await stats.catch_up() == 0


async def test_best_partners_are_counted_both_ways(tables: Tables, stats: StatsService) -> None:
    together: dict[tuple[int, int], list[int]] = {}
    for table in await play_varied_games(tables):
        assert table.result is not None
        for team in (0, 1):
            a, b = table.seats[team].user_id, table.seats[team + 2].user_id
            if a is None or b is None:
                continue
            for pair in ((a, b), (b, a)):
                entry = together.setdefault(pair, [0, 0])
                entry[0] += 1
                entry[1] += table.result.winner == team
    for user in PLAYERS:
        found = await stats.player_stats(1, user)
        assert found is not None
        assert found.best_partners, "everyone had a human partner at least once"
        for p in found.best_partners:
            assert [p.games, p.wins] == together[(user, p.partner_id)]
        rates = [p.smoothed_win_rate for p in found.best_partners]
        assert rates == sorted(rates, reverse=True)


def test_a_nil_and_a_set_are_counted_for_the_right_seat() -> None:
    game = Game.new(preset("standard"), 5)
    # Bids for hand 1 from the dealer's left: seat 1 bids Nil, the rest 4 each.
    for seat, bid in ((1, NIL), (2, 4), (3, 4), (0, 4)):
        game.bid(seat, bid)
    play_out(game, 5)
    record = finish(game, 1, tuple(human(u) for u in (1, 2, 3, 4)))
    tallies = [seat_tally(record, seat) for seat in range(4)]
    assert tallies[1].nils_bid == 1 and tallies[3].nils_bid == 0
    assert tallies[1].nils_made == int(game.hand_records[0].tricks_won[1] == 0)
    sets = [
        sum(h.results[team].contract > 0 and not h.results[team].made for h in game.hand_records)
        for team in (0, 1)
    ]
    assert [t.sets for t in tallies] == [sets[0], sets[1], sets[0], sets[1]]


def test_a_tampered_hand_record_is_refused() -> None:
    game = play_out(Game.new(preset("standard"), 9), 9)
    record = finish(game, 1, tuple(human(u) for u in (1, 2, 3, 4)))
    forged = dict(record.hand_records[0])
    forged["hand_score"] = [forged["hand_score"][0] + 10, forged["hand_score"][1]]
    bad = replace(record, hand_records=(forged, *record.hand_records[1:]))
    with pytest.raises(BadRecord, match="differs"):
        bad.hands()
    broken = dict(record.hand_records[0], bids=[{"seat": 0, "bid": "lots"}])
    with pytest.raises(BadRecord):
        replace(record, hand_records=(broken,)).hands()


async def test_a_bad_record_writes_nothing(tables: Tables, stats: StatsService) -> None:
    tables.stop_counting()
    table = await tables.play(1, [1, 2, 3, 4], seed=9)
    record = finished_from_table(table)
    assert record is not None
    broken = dict(record.hand_records[0], tricks_won=[1, 2])
    with pytest.raises(BadRecord):
        await stats.record_game(replace(record, hand_records=(broken,)))
    assert await stats.player_stats(1, 1) is None
    assert await stats.record_game(record) is not None


def test_a_seat_holds_a_user_or_a_computer() -> None:
    with pytest.raises(BadRecord):
        SeatPlayer()
    with pytest.raises(BadRecord):
        SeatPlayer(user_id=1, computer_level="random")


async def recount(stats: StatsService, guild_id: int) -> dict[int, Tally]:
    """Every player's statistics counted afresh from the stored games."""
    totals: dict[int, Tally] = {}
    rows = await stats.store.db.fetchall(
        "SELECT game_id FROM stats_games WHERE guild_id = ? ORDER BY finished_at, game_id",
        (guild_id,),
    )
    for (game_id,) in rows:
        found = await stats.finished_game(game_id)
        assert found is not None
        game = found[0]
        for seat, tally in enumerate(game_tallies(game)):
            user_id = game.seats[seat].user_id
            if user_id is not None:
                totals.setdefault(user_id, Tally()).add(tally)
    return totals
