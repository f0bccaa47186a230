"""Cutthroat Spades (``teams=solo``): four players, each on their own.

The scoring table states every rule of the issue once, per player; then the
bidding, the end of the game, the refusals that name a team, the records,
and random whole games under solo with the other house rules."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.game import refusals
from bot.game.house import HouseRuleError, apply
from bot.game.rules import RuleSet, Teams, preset
from bot.game.scoring import BLIND_NIL, NIL, game_result, score_hand
from bot.game.state import Game
from bot.game.types import Action, ActionKind, EndReason, Phase
from bot.simulate import main as simulate_main
from tests.game.helpers import make_deal, play_random_game
from tests.game.test_house_properties import play_random_game as checked_random_game
from tests.game.test_house_properties import rules_of

STANDARD = preset("standard")
THIRTEEN_SPADES = make_deal({0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"})


def solo(house: str = "", base: RuleSet = STANDARD) -> RuleSet:
    return apply(base, f"teams=solo,{house}" if house else "teams=solo")


@dataclass(frozen=True)
class Case:
    house: str
    bids: tuple[int, int, int, int]
    tricks: tuple[int, int, int, int]
    points: tuple[int, int, int, int]
    bags: tuple[int, int, int, int] = (0, 0, 0, 0)
    bags_before: tuple[int, int, int, int] = (0, 0, 0, 0)


SCORING = {
    # Making a bid n scores 10n, plus a point per trick over, each a bag.
    "bid_made_exactly": Case("", (4, 3, 3, 3), (4, 3, 3, 3), (40, 30, 30, 30)),
    "overtricks_are_points_and_bags": Case(
        "", (2, 3, 3, 3), (4, 3, 3, 3), (22, 30, 30, 30), bags=(2, 0, 0, 0)
    ),
    # A failed bid scores -10n (not a partner's tricks: there is none).
    "failed_bid": Case("", (5, 3, 2, 3), (3, 5, 2, 3), (-50, 32, 20, 30), bags=(0, 2, 0, 0)),
    "failed_bid_short_penalty": Case(
        "set=short", (5, 3, 2, 3), (3, 5, 2, 3), (-20, 32, 20, 30), bags=(0, 2, 0, 0)
    ),
    # Nil scores plus or minus the table's Nil value ...
    "nil_made": Case("", (NIL, 4, 4, 5), (0, 4, 4, 5), (100, 40, 40, 50)),
    "nil_made_at_50": Case("nil=50", (NIL, 4, 4, 5), (0, 4, 4, 5), (50, 40, 40, 50)),
    # ... and a failed Nil's tricks are its bags.
    "nil_failed_tricks_are_bags": Case(
        "", (NIL, 4, 4, 3), (2, 4, 4, 3), (-98, 40, 40, 30), bags=(2, 0, 0, 0)
    ),
    "blind_nil_made": Case(
        "blind_nil=100:200", (BLIND_NIL, 4, 4, 5), (0, 4, 4, 5), (200, 40, 40, 50)
    ),
    "blind_nil_failed": Case(
        "blind_nil=100:200",
        (BLIND_NIL, 4, 4, 4),
        (1, 4, 4, 4),
        (-199, 40, 40, 40),
        bags=(1, 0, 0, 0),
    ),
    # The bag limit and its penalty apply to each player.
    "bag_limit_per_player": Case(
        "",
        (2, 3, 3, 3),
        (4, 3, 3, 3),
        (22 - 100, 30, 30, 30),
        bags=(1, 9, 0, 0),
        bags_before=(9, 9, 0, 0),
    ),
    "bags_never_cost_when_off": Case(
        "bags=off",
        (2, 3, 3, 3),
        (4, 3, 3, 3),
        (22, 30, 30, 30),
        bags=(11, 0, 0, 0),
        bags_before=(9, 0, 0, 0),
    ),
    # Boston: all 13 tricks to one player.
    "boston_to_one_player": Case(
        "boston=200", (13, 1, 1, 1), (13, 0, 0, 0), (130 + 200, -10, -10, -10)
    ),
    "no_boston_without_all_13": Case(
        "boston=200", (12, 1, 1, 1), (12, 1, 0, 0), (120, 10, -10, -10)
    ),
    # 10-for-200: a player's bid of 10 or more scores 20 a trick, made or set.
    "ten_for_200_made": Case("ten_for_200=on", (10, 1, 1, 1), (10, 1, 1, 1), (200, 10, 10, 10)),
    "ten_for_200_set": Case(
        "ten_for_200=on", (10, 1, 1, 1), (9, 2, 1, 1), (-200, 11, 10, 10), bags=(0, 1, 0, 0)
    ),
}


@pytest.mark.parametrize("name", SCORING)
def test_solo_scoring(name: str) -> None:
    case = SCORING[name]
    rules = solo(case.house)
    results = score_hand(rules, list(case.bids), list(case.tricks), list(case.bags_before))
    assert len(results) == 4
    assert tuple(r.points for r in results) == case.points
    assert tuple(r.bags_after for r in results) == case.bags


def test_mirror_and_whiz_bid_each_players_own_spades() -> None:
    # Seat 0 holds all 13 spades: Mirror makes it bid 13 and the others Nil.
    game = Game.new(solo("bidding=mirror"), 1, fixed_deals=[THIRTEEN_SPADES])
    assert [game.forced_bid(game.to_act)] == [NIL]  # seat 1, no spade
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, game.legal_bids(game.to_act)[0])
    assert game.bids == [13, NIL, NIL, NIL]
    whiz = Game.new(solo("bidding=whiz"), 1, fixed_deals=[THIRTEEN_SPADES])
    whiz.bid(1, NIL)
    whiz.bid(2, NIL)
    whiz.bid(3, NIL)
    assert whiz.legal_bids(0) == [NIL, 13]


def test_blind_nil_is_open_to_a_player_trailing_the_leader_by_the_threshold() -> None:
    game = Game.new(solo("blind_nil=100:200"), 3)
    game.scores[:] = [0, 150, 60, 90]
    assert [game.blind_nil_open(seat) for seat in range(4)] == [True, False, False, False]
    game.scores[:] = [40, 150, 50, 20]
    assert [game.blind_nil_open(seat) for seat in range(4)] == [True, False, True, True]


def test_the_best_player_wins_once_one_reaches_the_target() -> None:
    rules = solo()
    assert game_result(rules, [480, 120, 300, 0]) is None
    result = game_result(rules, [510, 120, 520, 0])
    assert result is not None and (result.winner, result.reason) == (2, EndReason.TARGET)


def test_a_player_at_the_floor_ends_the_game_and_the_best_wins() -> None:
    result = game_result(solo(), [-200, 120, 90, 130])
    assert result is not None and (result.winner, result.reason) == (3, EndReason.LOSING_SCORE)


def test_a_tie_at_the_top_plays_another_hand() -> None:
    assert game_result(solo(), [510, 510, 0, 0]) is None
    # Even where the preset's partnerships would draw.
    draws = apply(preset("low-club"), "teams=solo,nil_tricks=bags")
    assert draws.teams is Teams.SOLO
    assert game_result(draws, [-200, 300, 300, 10]) is None
    assert game_result(preset("low-club"), [500, 500]) is not None  # partners: a draw


@pytest.mark.parametrize(
    ("house", "line"),
    [
        ("bidding=suicide", "suicide bidding needs partners: it cannot be played solo"),
        ("min_team_bid=4", "min_team_bid must be 0 when playing solo: there are no teams"),
        ("nil_tricks=contract", "a failed Nil's tricks count for no partner when playing solo"),
        ("nil_pass=2", "the Nil pass needs partners: it cannot be played solo"),
        ("blind_nil_pass=1", "the Blind Nil pass needs partners: it cannot be played solo"),
    ],
)
def test_rules_that_need_partners_are_refused_with_solo(house: str, line: str) -> None:
    with pytest.raises(HouseRuleError) as refused:
        solo(house)
    assert str(refused.value) == line
    assert apply(STANDARD, house)  # fine with partners


def test_a_game_is_scored_per_player_and_recorded_with_four_of_everything() -> None:
    rules = solo()
    game = Game.new(rules, 5)
    play_random_game(game, random.Random(5))
    assert game.over and game.result is not None
    assert len(game.scores) == len(game.bags) == 4
    records = [h.to_json("g", rules) for h in game.hand_records]
    for before, record in zip(
        [[0] * 4] + [r["score_after"] for r in records], records, strict=False
    ):
        assert record["rules"]["teams"] == "solo"
        for key in ("score_before", "bags_before", "hand_score", "score_after", "bags_after"):
            assert len(record[key]) == 4 and all(type(v) is int for v in record[key])
        assert record["score_before"] == before
        assert record["score_after"] == [
            s + h for s, h in zip(record["score_before"], record["hand_score"], strict=True)
        ]
    last = records[-1]
    assert last["game_over"] and last["winner"] == game.result.winner
    assert last["score_after"][last["winner"]] == max(last["score_after"])
    assert last["score_after"].count(max(last["score_after"])) == 1


def test_partnership_records_keep_two_sides_and_name_their_teams() -> None:
    game = Game.new(STANDARD, 5)
    play_random_game(game, random.Random(5))
    record = game.hand_records[-1].to_json("g", STANDARD)
    assert record["rules"]["teams"] == "partners"
    assert len(record["hand_score"]) == len(record["score_after"]) == 2
    assert record["winner"] in (0, 1)


def test_resigning_or_revoking_hands_the_game_to_the_best_other_player() -> None:
    game = Game.new(solo(), 2)
    game.scores[:] = [50, 10, 80, 80]
    game.resign(2)
    assert game.result is not None and game.result.winner == 3
    game = Game.new(solo(), 2)
    game.scores[:] = [50, 10, 20, 80]
    game.resign(3)
    assert game.result is not None and game.result.winner == 0


def _playing(seed: int = 2) -> Game:
    game = Game.new(solo(), seed, started_at=0.0)
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, 3)
    return game


def test_any_other_player_may_challenge_a_revoke() -> None:
    game = _playing()
    game.play(game.to_act, game.legal_cards(game.to_act)[0])
    with pytest.raises(refusals.ChallengeRefused, match=r"only challenge an opponent$"):
        game.challenge(1, 1)
    accused = (1 + 2) & 3  # the seat across: a partner in partnerships
    game.challenge(1, accused)  # no revoke: a false claim, the challenger loses
    assert game.result is not None and game.result.reason is EndReason.FALSE_CLAIM
    assert game.result.winner == 2  # level scores: the first to the challenger's left


def test_the_seat_across_may_claim_a_timeout() -> None:
    game = _playing()
    waiting = game.to_act
    with pytest.raises(refusals.ClaimRefused, match="only another player"):
        game.claim_timeout(waiting, at=10.0 * 24 * 3600)
    game.claim_timeout((waiting + 2) & 3, at=10.0 * 24 * 3600)
    assert game.result is not None and game.result.reason is EndReason.TIMEOUT
    assert game.result.winner == (waiting + 1) & 3


def test_a_claim_of_the_rest_waits_for_all_three_opponents() -> None:
    game = Game.new(solo(), 1, fixed_deals=[THIRTEEN_SPADES])
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, 13 if game.to_act == 0 else 1)
    while game.to_act != 0:
        game.play(game.to_act, game.legal_cards(game.to_act)[0])
    game.apply(Action(ActionKind.CLAIM_REST, 0))
    assert game.rest.opponents() == (1, 2, 3)
    game.apply(Action(ActionKind.ACCEPT_REST, 1))
    game.apply(Action(ActionKind.ACCEPT_REST, 3))
    assert game.waited_on() == 2 and game.phase is Phase.PLAYING  # the seat across answers too
    game.apply(Action(ActionKind.ACCEPT_REST, 2))
    record = game.hand_records[-1]
    assert record.claim is not None and record.tricks_won[0] == 13
    assert record.hand_score[0] == 130


@pytest.mark.parametrize(
    "text",
    [
        "teams=solo",
        "teams=solo,bidding=mirror,deck=jokers",
        "teams=solo,bidding=whiz,deck=jjdd",
        "teams=solo,boston=200,ten_for_200=on,bags=5:50,set=short",
        "teams=solo,nil=50,spades_lead=any,first_lead=lowclub,deck=jokers-deuce",
    ],
)
def test_random_solo_games_keep_the_rules(text: str) -> None:
    rules = rules_of(text)
    assert rules.teams is Teams.SOLO
    finished = 0
    for seed in range(6):
        game = checked_random_game(rules, seed)
        finished += game.over
        for hand in game.hand_records:
            assert len(hand.results) == 4
            assert hand.score_after == [
                b + h for b, h in zip(hand.score_before, hand.hand_score, strict=True)
            ]
        if game.over:
            assert game.result is not None and game.result.winner is not None
            scores = game.scores
            assert scores[game.result.winner] == max(scores) and scores.count(max(scores)) == 1
            assert max(scores) >= rules.target or min(scores) <= (rules.losing_score or -(10**9))
    assert finished >= 4


def test_the_simulator_plays_solo_and_records_per_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "solo.jsonl"
    assert simulate_main(["--games", "2", "--house", "teams=solo", "--record", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["unfinished"] == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines and all(len(line["hand_score"]) == 4 for line in lines)
    assert sum(line["game_over"] for line in lines) == 2
    assert all(type(line["winner"]) is int for line in lines if line["game_over"])


def test_the_simulator_refuses_solo_with_suicide_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        simulate_main(["--games", "1", "--house", "teams=solo,bidding=suicide"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "suicide bidding needs partners" in err


def test_the_simulator_refuses_solo_with_a_nil_pass_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        simulate_main(["--games", "1", "--house", "teams=solo,nil_pass=1"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the Nil pass needs partners" in err
