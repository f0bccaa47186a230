"""The statistics equal a count made straight from the engine's games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.game.rules import preset
from bot.game.scoring import BLIND_NIL, NIL
from bot.game.state import EndReason, Game
from bot.stats.records import BadRecord, SeatPlayer, computer, human
from bot.stats.service import StatsService
from bot.stats.tally import Tally, seat_tally

from .games import finish, play_out, revoking_game

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


def varied_games() -> list[tuple[Game, tuple[SeatPlayer, ...]]]:
    """Games of every ending, among six players, some with a computer player."""
    rng = random.Random(7)
    games: list[tuple[Game, tuple[SeatPlayer, ...]]] = []
    for index in range(24):
        rules = preset(["standard", "low-club", "blind-nil", "cardgames"][index % 4])
        game = Game.new(rules, 1000 + index)
        kind = index % 6
        if kind == 0:  # a proven revoke
            game, revoker = revoking_game(1000 + index, rules)
            accuser = (revoker + 1) & 3
            game.challenge(accuser, revoker, 1e5)
        elif kind == 1:  # a false claim
            play_out(game, index, stop_after_actions=10)
            game.challenge(game.to_act, (game.to_act + 1) & 3, 1e5)
        elif kind == 2:  # a resignation in the middle of a hand
            play_out(game, index, stop_after_actions=25)
            game.resign(rng.randrange(4), 1e5)
        elif kind == 3:  # a timeout claim
            play_out(game, index, stop_after_actions=7)
            game.claim_timeout((game.to_act + 1) & 3, 1e9)
        else:
            play_out(game, index)
        assert game.over
        people = rng.sample(PLAYERS, 4)
        seats = tuple(human(u) for u in people)
        if index % 5 == 4:
            seats = (seats[0], computer("random"), seats[2], seats[3])
        games.append((game, seats))
    return games


async def test_stored_statistics_match_the_recorded_games(stats: StatsService) -> None:
    expected: dict[int, Tally] = {}
    reasons = set()
    for game_id, (game, seats) in enumerate(varied_games(), start=1):
        assert game.result is not None
        reasons.add(game.result.reason)
        await stats.record_game(finish(game, game_id, seats), game.to_json())
        for seat, player in enumerate(seats):
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
    assert await stats.recount(1) == expected
    assert sum(t.revokes_proven for t in stored.values()) >= 1
    assert sum(t.false_claims for t in stored.values()) >= 1
    assert sum(t.nils_bid for t in stored.values()) >= 1


async def test_best_partners_are_counted_both_ways(stats: StatsService) -> None:
    for game_id, (game, seats) in enumerate(varied_games(), start=1):
        await stats.record_game(finish(game, game_id, seats))
    together: dict[tuple[int, int], list[int]] = {}
    for game, seats in varied_games():
        assert game.result is not None
        for team in (0, 1):
            a, b = seats[team].user_id, seats[team + 2].user_id
            if a is None or b is None:
                continue
            for pair in ((a, b), (b, a)):
                entry = together.setdefault(pair, [0, 0])
                entry[0] += 1
                entry[1] += game.result.winner == team
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


async def test_a_bad_record_writes_nothing(stats: StatsService) -> None:
    game = play_out(Game.new(preset("standard"), 9), 9)
    record = finish(game, 1, tuple(human(u) for u in (1, 2, 3, 4)))
    broken = dict(record.hand_records[0], tricks_won=[1, 2])
    bad = replace(record, hand_records=(broken,))
    with pytest.raises(BadRecord):
        await stats.record_game(bad)
    assert await stats.player_stats(1, 1) is None
    assert await stats.record_game(record) is not None


def test_a_seat_holds_a_user_or_a_computer() -> None:
    with pytest.raises(BadRecord):
        SeatPlayer()
    with pytest.raises(BadRecord):
        SeatPlayer(user_id=1, computer_level="random")
